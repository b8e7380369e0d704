// nsys_ai's front end for "Perfetto without ports": gathers a trace's bytes from the kernel (a Jupyter comm where the
// front end has one, else base64 chunks in the cell's output) and hands them to the Perfetto UI with the opener
// page's postMessage handshake (server/transport/src/http_opener_page.cpp): open ORIGIN/#!/, send 'PING' every
// 200 ms until the window answers 'PONG' from ORIGIN, then post {perfetto: {buffer, title, fileName}} to ORIGIN.
// Dependency-free; defined once per page; every chunk's place and size is checked against the announced total.
(function () {
  'use strict';
  if (window.nsysAiPerfetto) return;
  var traces = {};

  function box(t) { return document.getElementById(t.id); }
  function say(t, text, isError) {
    var b = box(t);
    var line = b && b.querySelector('.nsys-ai-status');
    if (!line) return;
    line.textContent = text;
    line.style.color = isError ? '#c62828' : '';
  }
  function mb(bytes) { return (bytes / 1048576).toFixed(1) + ' MB'; }
  function fail(t, text) { t.failed = true; say(t, text, true); }

  function put(t, offset, bytes) {
    if (t.failed) return;
    if (typeof offset !== 'number' || offset !== t.got || bytes.length > t.total - offset) {
      fail(t, 'A piece of the trace did not fit (' + bytes.length + ' bytes at offset ' + offset + ', ' + t.got +
        ' of ' + t.total + ' received): run the cell again.');
      return;
    }
    t.bytes.set(bytes, offset);
    t.got += bytes.length;
    say(t, 'Receiving the trace\u2026 ' + mb(t.got) + ' of ' + mb(t.total));
  }

  function done(t) {
    if (t.failed) return;
    if (t.got !== t.total) { fail(t, 'The trace was cut short (' + t.got + ' of ' + t.total + ' bytes).'); return; }
    t.complete = true;
    var button = box(t) && box(t).querySelector('button');
    if (button) button.disabled = false;
    say(t, 'Trace received (' + mb(t.total) + '). Click the button to open it in Perfetto (' + t.origin + ').');
  }

  function openUi(t) {
    if (!t.complete) return;
    var ui = window.open(t.origin + '/#!/', '_blank');
    if (!ui) { say(t, 'The browser blocked the Perfetto window: allow pop-ups here and click again.', true); return; }
    t.ui = ui;
    say(t, 'Waiting for Perfetto (' + t.origin + ') to answer\u2026');
    if (t.pinger !== null) clearInterval(t.pinger);
    t.pinger = setInterval(function () { ui.postMessage('PING', t.origin); }, 200);
  }

  window.addEventListener('message', function (event) {
    Object.keys(traces).forEach(function (id) {
      var t = traces[id];
      if (event.origin !== t.origin || event.source !== t.ui || event.data !== 'PONG' || t.pinger === null) return;
      clearInterval(t.pinger);
      t.pinger = null;
      t.ui.postMessage({perfetto: {buffer: t.bytes.buffer, title: t.title, fileName: t.fileName}}, t.origin);
      say(t, 'The trace (' + mb(t.total) + ') is open in Perfetto.');
    });
  });

  function kernel() {
    var J = window.Jupyter;
    return J && J.notebook && J.notebook.kernel && J.notebook.kernel.comm_manager ? J.notebook.kernel : null;
  }

  function viaComm(t) {
    var k = kernel();
    if (!k) { fail(t, 'This front end has no Jupyter comm: run the cell again with transport="output".'); return; }
    var comm = k.comm_manager.new_comm('nsys_ai.trace', {id: t.id});
    comm.on_msg(function (msg) {
      var d = (msg.content && msg.content.data) || {};
      if (typeof d.error === 'string') { fail(t, d.error); comm.close(); return; }
      var b = msg.buffers && msg.buffers[0];
      if (b) put(t, d.offset, new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
      if (d.last === true) { done(t); comm.close(); }
    });
  }

  function attach(t, tries) {
    var button = box(t) && box(t).querySelector('button');
    if (!button) {  // JupyterLab may run the script before the output is in the page
      if (tries < 100) setTimeout(function () { attach(t, tries + 1); }, 50);
      return;
    }
    button.addEventListener('click', function () { openUi(t); });
    if (t.transport === 'comm') viaComm(t);
    else if (t.ended) done(t);
  }

  window.nsysAiPerfetto = {
    init: function (c) {
      var total = Number(c.bytes);
      var fits = total >= 0 && total <= Number(c.limit);  // never allocate more than the stated limit
      var t = {id: String(c.id), origin: String(c.origin), title: String(c.title), fileName: String(c.fileName),
               transport: c.transport, total: fits ? total : 0, bytes: new Uint8Array(fits ? total : 0), got: 0,
               ui: null, pinger: null, complete: false, failed: !fits, ended: false};
      traces[t.id] = t;
      if (!fits) {
        setTimeout(function () { say(t, 'The trace (' + c.bytes + ' bytes) is over the limit of ' + c.limit + ' bytes.', true); }, 0);
        return;
      }
      attach(t, 0);
    },
    chunk: function (id, offset, base64) {
      var t = traces[id];
      if (!t) return;
      var text = atob(base64);
      var bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      put(t, offset, bytes);
    },
    end: function (id) {
      var t = traces[id];
      if (!t) return;
      t.ended = true;
      if (box(t)) done(t);
    },
    hello: function () {
      var k = kernel();
      if (k) k.comm_manager.new_comm('nsys_ai.hello', {});
    }
  };
})();
