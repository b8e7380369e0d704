#include "nsys/transport/http_opener_page.h"

#include <fmt/format.h>

#include "nsys/support/render_text.h"

namespace nsys::transport {

std::string ScriptStringLiteral(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '<':
        out += "\\u003c";
        break;  // no "</script>" or "<!--" inside the script element
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += fmt::format("\\u{:04x}", c);
        } else if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(text[i + 2]) == 0xA8 ||
                    static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
          out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";  // JS line terminators
          i += 2;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// The opener page ({title}, {nonce}, ... are filled by RenderOpenerPage). The script is the whole protocol: load the
// bytes, open the UI, PING until PONG, post the buffer once per PONG round. Buffers are not transferred, so "open
// again" works without fetching twice.
constexpr std::string_view kOpenerPageTemplate = R"html(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>nsys-ai: {title}</title>
<style nonce="{nonce}">
body {{ font: 15px/1.5 system-ui, sans-serif; margin: 2.5em auto; max-width: 46em; padding: 0 1em; color: #1d1d1f; }}
h1 {{ font-size: 1.3em; }}
#status.error {{ color: #b3261e; }}
button {{ font-size: 1em; padding: .45em 1.2em; margin-right: 1em; cursor: pointer; }}
small {{ color: #666; }}
</style>
</head>
<body>
<h1>Opening in Perfetto</h1>
<p><strong>{title}</strong></p>
<p id="status">Loading the trace&hellip;</p>
<p><button id="open" type="button" hidden>Open in Perfetto UI</button><a href="trace.pftrace" download="{file_name}">Download the trace</a></p>
<p><small>The trace goes from this page to {origin} through the browser only: it is not uploaded anywhere.
This link expires; ask your editor (or <code>nsys-ai open</code>) for a new one.</small></p>
<script nonce="{nonce}">
(function () {{
  'use strict';
  var ORIGIN = {origin_js};
  var TITLE = {title_js};
  var FILE_NAME = {file_name_js};
  var statusLine = document.getElementById('status');
  var button = document.getElementById('open');
  var buffer = null;
  var ui = null;
  var pinger = null;

  function say(text, isError) {{
    statusLine.textContent = text;
    statusLine.className = isError ? 'error' : '';
  }}
  function mb(bytes) {{ return (bytes / 1048576).toFixed(1) + ' MB'; }}

  function load() {{
    return fetch('trace.pftrace', {{cache: 'no-store'}}).then(function (response) {{
      if (!response.ok) throw new Error('the server answered ' + response.status + ' (the link may have expired)');
      var total = Number(response.headers.get('Content-Length')) || 0;
      if (!total || !response.body || !response.body.getReader) return response.arrayBuffer();
      var bytes = new Uint8Array(total);
      var got = 0;
      var reader = response.body.getReader();
      function pump() {{
        return reader.read().then(function (step) {{
          if (step.done) {{
            if (got !== total) throw new Error('the trace was cut short (' + got + ' of ' + total + ' bytes)');
            return bytes.buffer;
          }}
          if (got + step.value.length > total) throw new Error('the server sent more bytes than it announced');
          bytes.set(step.value, got);
          got += step.value.length;
          say('Loading the trace\u2026 ' + mb(got) + ' of ' + mb(total));
          return pump();
        }});
      }}
      return pump();
    }});
  }}

  function openUi() {{
    ui = window.open(ORIGIN + '/#!/', '_blank');
    if (!ui) {{
      say('The browser blocked the Perfetto window: click the button to open it.');
      button.hidden = false;
      return;
    }}
    button.hidden = true;
    say('Waiting for Perfetto (' + ORIGIN + ') to answer\u2026');
    if (pinger !== null) clearInterval(pinger);
    pinger = setInterval(function () {{ ui.postMessage('PING', ORIGIN); }}, 200);
  }}

  window.addEventListener('message', function (event) {{
    if (event.origin !== ORIGIN || event.source !== ui || event.data !== 'PONG' || pinger === null) return;
    clearInterval(pinger);
    pinger = null;
    ui.postMessage({{perfetto: {{buffer: buffer, title: TITLE, fileName: FILE_NAME}}}}, ORIGIN);
    say('The trace (' + mb(buffer.byteLength) + ') is open in Perfetto. You can close this tab.');
    button.textContent = 'Open in Perfetto UI again';
    button.hidden = false;
  }});

  button.addEventListener('click', openUi);
  load().then(function (loaded) {{
    buffer = loaded;
    say('Trace loaded (' + mb(buffer.byteLength) + '). Opening Perfetto\u2026');
    openUi();
  }}, function (error) {{
    say('Could not load the trace: ' + error.message, true);
  }});
}})();
</script>
</body>
</html>
)html";

std::string RenderOpenerPage(const OpenerPageParams& p) {
  return fmt::format(
      kOpenerPageTemplate, fmt::arg("title", support::HtmlText(p.title)), fmt::arg("nonce", p.nonce),
      fmt::arg("file_name", support::HtmlText(p.file_name)), fmt::arg("origin", support::HtmlText(p.perfetto_origin)),
      fmt::arg("origin_js", ScriptStringLiteral(p.perfetto_origin)), fmt::arg("title_js", ScriptStringLiteral(p.title)),
      fmt::arg("file_name_js", ScriptStringLiteral(p.file_name)));
}

}  // namespace nsys::transport
