#include "nsys/lsp/session.h"

#include <fmt/format.h>

#include <utility>

#include "nsys/core/log.h"

namespace nsys::lsp {

int FramingErrorCode(const std::string& error) {
  // The decoder reports size limits as "... exceeds ..." (see protocol/src/framing.cpp).
  return error.find(" exceeds ") != std::string::npos ? protocol::kInvalidRequest : protocol::kParseError;
}

Session::Session(core::Workspace& workspace, Executor& executor, Writer write, ServerOptions options,
                 protocol::FramingLimits limits)
    : decoder_(limits),
      dispatcher_(
          workspace, executor, [write = std::move(write)](std::string body) { write(protocol::EncodeFrame(body)); },
          std::move(options)) {}

void Session::OnBytes(std::string_view bytes) {
  for (auto& frame : decoder_.Feed(bytes)) {
    if (frame.kind == protocol::Frame::Kind::kError) {
      core::LogWarn("framing error: " + frame.error);
      dispatcher_.SendResponse(protocol::MakeError({}, FramingErrorCode(frame.error), "framing error: " + frame.error));
      continue;
    }
    auto parsed = protocol::ParseMessage(frame.body);
    if (parsed.error) {
      core::LogWarn(fmt::format("unusable message: {}", parsed.error->error ? parsed.error->error->message : ""));
      dispatcher_.SendResponse(*parsed.error);
      continue;
    }
    dispatcher_.OnMessage(std::move(*parsed.message));
  }
}

void Session::OnDisconnect() {
  if (decoder_.HasPartial()) {
    core::LogInfo(
        fmt::format("client disconnected in the middle of a message ({} bytes buffered)", decoder_.buffered_bytes()));
  }
  const size_t cancelled = dispatcher_.Disconnect();
  if (cancelled > 0) core::LogInfo(fmt::format("client gone: cancelled {} running request(s)", cancelled));
}

}  // namespace nsys::lsp
