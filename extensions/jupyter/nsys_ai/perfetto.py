"""Perfetto without ports: the trace's bytes reach the browser through the notebook itself (no port on the kernel
machine needs to be reachable), and the notebook's own tab hands them to ui.perfetto.dev.

The server streams the trace (nsys/exportTrace with a partialResultToken: base64 chunks, no file). Up to
INLINE_TRACE_LIMIT bytes, the cell shows a small loader (perfetto.js) and the bytes follow:
  - "comm": the kernel holds the bytes; the loader opens a Jupyter comm ("nsys_ai.trace") and the kernel sends them
    in CHUNK_BYTES binary buffers (Notebook 6). Nothing is stored in the notebook file.
  - "output": the bytes come as base64 chunks in the cell's output, each a small script (JupyterLab, VS Code, any
    front end that runs scripts of trusted HTML outputs). They are saved with the notebook.
"auto" picks "comm" once a front end with a comm has said hello (every nsys_ai view does), else "output".
Above the limit, the trace is published on the server's loopback side channel (nsys/openInPerfetto) and the cell
prints the link with the ssh hint, saying why.
"""

import base64
import collections
import hashlib
import json
import os
import uuid

from . import client
from . import html as _html

# The largest trace that goes through the notebook (comm or output): 32 MiB. Larger traces get the loopback link.
INLINE_TRACE_LIMIT = 32 * 1024 * 1024
# Bytes per comm message or output chunk (base64 makes an output chunk a third larger).
CHUNK_BYTES = 1024 * 1024
# Traces the kernel keeps for the comm (the front end asks for one after the cell ends): the last HELD_TRACES.
HELD_TRACES = 4

DEFAULT_ORIGIN = "https://ui.perfetto.dev"

_held = collections.OrderedDict()
_state = {"frontend_has_comm": False, "registered": False}


def _script():
    with open(os.path.join(os.path.dirname(__file__), "perfetto.js"), encoding="utf-8") as f:
        return f.read()


def _js(value):
    """A JSON value safe inside an HTML <script> element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _kernel():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return getattr(shell, "kernel", None) if shell is not None else None


def register_comm_targets():
    """Register the comm targets in this kernel (once). Returns whether there is a kernel."""
    kernel = _kernel()
    if kernel is None or not hasattr(kernel, "comm_manager"):
        return False
    if not _state["registered"]:
        kernel.comm_manager.register_target("nsys_ai.trace", _on_trace_open)
        kernel.comm_manager.register_target("nsys_ai.hello", _on_hello)
        _state["registered"] = True
    return True


def _on_hello(comm, _msg):
    _state["frontend_has_comm"] = True
    comm.close()


def _on_trace_open(comm, msg):
    """The front end asks for a held trace by id: any other message content gets an error reply, never an exception."""
    data = (msg.get("content") or {}).get("data")
    trace_id = data.get("id") if isinstance(data, dict) else None
    payload = _held.get(trace_id) if isinstance(trace_id, str) else None
    if payload is None:
        comm.send({"error": "The kernel no longer holds this trace (it keeps the last %d): run the cell again."
                            % HELD_TRACES})
        return
    view = memoryview(payload)
    if not payload:
        comm.send({"offset": 0, "total": 0, "last": True})
    for offset in range(0, len(payload), CHUNK_BYTES):
        end = min(offset + CHUNK_BYTES, len(payload))
        comm.send({"offset": offset, "total": len(payload), "last": end == len(payload)}, buffers=[view[offset:end]])


def hello_script():
    """The bit of every view that tells the kernel its front end has a comm (for transport="auto")."""
    if not register_comm_targets():
        return ""
    return "<script>%s\nwindow.nsysAiPerfetto.hello();</script>" % _script()


class TooLarge(Exception):
    pass


class Trace:
    """What p.perfetto() shows: the trace's size, sha256 and how it went to the browser (or the link)."""

    def __init__(self, result, data=None, link=None, transport=None, trace_id=None):
        self.result = result
        self.data = data
        self.link = link
        self.transport = transport
        self.id = trace_id
        self.shown = False
        self.limit = INLINE_TRACE_LIMIT

    @property
    def sha256(self):
        return self.result.get("sha256")

    @property
    def bytes(self):
        return self.result.get("bytes")

    def __repr__(self):
        if self.link:
            return "Perfetto trace (%s bytes) at %s" % (self.bytes, self.link.get("url"))
        return "Perfetto trace (%s bytes, sha256 %s) via %s" % (self.bytes, self.sha256, self.transport)

    def _ipython_display_(self):
        if not self.shown:
            from IPython.display import display, HTML
            display(HTML(self.html()))
            self.shown = True

    def html(self):
        if self.link:
            return link_html(self.link, self.bytes, self.limit)
        return loader_html(self)


def link_html(link, size, limit):
    url = link.get("url", "")
    return ('<div class="nsys-ai">The trace is %s, over the %s that go through the notebook '
            '(nsys_ai.perfetto.INLINE_TRACE_LIMIT), so it is served by the nsys-ai server on the kernel '
            'machine\'s loopback instead: <a href="%s" target="_blank" rel="noopener">%s</a> (expires %s).<br>'
            'On a remote kernel or JupyterHub, your browser cannot reach that address directly: %s</div>' % (
                _mb(size), _mb(limit), _html.esc(url), _html.esc(url),
                _html.esc(link.get("expiresAt", "")), _html.esc(link.get("sshHint", ""))))


def _mb(size):
    return "%.1f MB" % ((size or 0) / 1048576.0)


def loader_html(trace):
    config = {"id": trace.id, "origin": client.settings.get("perfetto_origin") or DEFAULT_ORIGIN,
              "title": trace.result.get("title", "nsys-ai trace"), "fileName": trace.result.get("fileName", ""),
              "bytes": len(trace.data), "limit": trace.limit, "transport": trace.transport}
    return ('<div class="nsys-ai nsys-ai-perfetto" id="%s" data-transport="%s"><button disabled>Open in Perfetto'
            '</button> <span class="nsys-ai-status">Receiving the trace (%s, %s)\u2026</span></div>'
            '<script>%s\nwindow.nsysAiPerfetto.init(%s);</script>' % (
                _html.esc(trace.id), _html.esc(trace.transport), _mb(len(trace.data)), _html.esc(trace.transport),
                _script(), _js(config)))


def chunk_scripts(trace):
    """The output transport: one small script per CHUNK_BYTES of the trace, then the end mark."""
    out = []
    for offset in range(0, len(trace.data), CHUNK_BYTES):
        b64 = base64.b64encode(trace.data[offset:offset + CHUNK_BYTES]).decode("ascii")
        out.append("<script>window.nsysAiPerfetto.chunk(%s, %d, %s);</script>" % (_js(trace.id), offset, _js(b64)))
    out.append("<script>window.nsysAiPerfetto.end(%s);</script>" % _js(trace.id))
    return out


def fetch(server, params):
    """Stream the trace (nsys/exportTrace, partialResultToken). Raises TooLarge past INLINE_TRACE_LIMIT (the
    request is cancelled on the server)."""
    data = bytearray()

    def on_progress(value):
        chunk = base64.b64decode(value.get("chunk", ""), validate=True)
        if value.get("offset") != len(data):
            raise RuntimeError("The trace stream skipped: a chunk at offset %s after %d bytes." % (
                value.get("offset"), len(data)))
        if len(data) + len(chunk) > INLINE_TRACE_LIMIT:
            raise TooLarge()
        data.extend(chunk)

    result = server.request("nsys/exportTrace", params, on_progress=on_progress)
    if result.get("bytes") != len(data) or hashlib.sha256(data).hexdigest() != result.get("sha256"):
        raise client.errors.NsysAiError("The streamed trace does not match the server's size and sha256 (%d bytes "
                                        "received, %s announced)." % (len(data), result.get("bytes")))
    return bytes(data), result


def show(server, profile_id, window, title, transport="auto", link_params=None):
    """Export, then hand to the browser (see the module's text). Returns a Trace."""
    if transport not in ("auto", "comm", "output"):
        raise client.errors.InvalidParamsError("transport: expected 'auto', 'comm' or 'output', got %r" % (transport,))
    params = {"profileId": profile_id}
    if window:
        params["window"] = window
    try:
        data, result = fetch(server, params)
    except TooLarge:
        link = server.request("nsys/openInPerfetto", link_params or params)
        trace = Trace({"bytes": link.get("bytes"), "sha256": link.get("sha256")}, link=link)
        _display(trace, [])
        return trace
    in_kernel = register_comm_targets()
    if transport == "auto":
        transport = "comm" if _state["frontend_has_comm"] else "output"
    result = dict(result, title=title, fileName=title.replace("/", "_") + ".pftrace")
    trace = Trace(result, data=data, transport=transport, trace_id="nsys-ai-trace-" + uuid.uuid4().hex)
    if transport == "comm" and in_kernel:
        _held[trace.id] = data
        while len(_held) > HELD_TRACES:
            _held.popitem(last=False)
    _display(trace, chunk_scripts(trace) if transport == "output" else [])
    return trace


def _display(trace, extra):
    try:
        from IPython.display import display, HTML
        from IPython import get_ipython
    except ImportError:
        return
    if get_ipython() is None:
        return
    display(HTML(trace.html()))
    for piece in extra:
        display(HTML(piece))
    trace.shown = True
