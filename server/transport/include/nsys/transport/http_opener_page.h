#pragma once
// The page served at /p/<token>/: no external scripts or styles. It fetches ./trace.pftrace from its own origin,
// opens the Perfetto UI (automatically when the browser allows a popup, else from a button click), posts 'PING'
// every 200 ms until the UI answers 'PONG', then posts {perfetto: {buffer, title, fileName}}.
#include <string>
#include <string_view>

namespace nsys::transport {

struct OpenerPageParams {
  std::string perfetto_origin;  // checked by CheckPerfettoOrigin
  std::string title;
  std::string file_name;
  std::string nonce;  // the Content-Security-Policy script nonce
};

std::string RenderOpenerPage(const OpenerPageParams& params);

// A JavaScript string literal that is also safe inside a <script> element (no "</script>", no line terminators).
std::string ScriptStringLiteral(std::string_view text);

}  // namespace nsys::transport
