#include <functional>
#include <string>
#include <utility>

#include "nsys/lsp/context.h"

namespace nsys::lsp {

void Client::LogMessage(protocol::MessageType type, std::string message) {
  if (static_cast<int>(type) > static_cast<int>(features().log_messages)) return;  // the session's logLevel
  Notify("window/logMessage", protocol::Json(protocol::LogMessageParams{type, std::move(message)}));
}

void Client::ShowMessage(protocol::MessageType type, std::string message) {
  Notify("window/showMessage", protocol::Json(protocol::ShowMessageParams{type, std::move(message)}));
}

void Client::ShowDocument(const protocol::ShowDocumentParams& params, std::function<void(Expected<bool>)> on_result) {
  if (!features().show_document) {
    if (on_result) on_result(MakeError(ErrorKind::kUnsupported, "the client does not support window/showDocument"));
    return;
  }
  Call("window/showDocument", protocol::Json(params),
       [on_result = std::move(on_result)](Expected<protocol::Json> reply) {
         if (!on_result) return;
         if (!reply) return on_result(reply.error());
         auto parsed = protocol::Parse<protocol::ShowDocumentResult>(*reply, "result");
         if (!parsed.ok()) return on_result(MakeError(ErrorKind::kBadInput, parsed.error().message));
         on_result(parsed->success);
       });
}

}  // namespace nsys::lsp
