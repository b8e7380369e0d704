#include "nsys/lsp/session.h"

#include <fmt/format.h>

#include <utility>
#include <variant>

#include "nsys/support/log.h"

namespace nsys::lsp {

int FramingErrorCode(protocol::Frame::Problem problem) {
  return problem == protocol::Frame::Problem::kTooLarge ? protocol::kInvalidRequest : protocol::kParseError;
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // The length is not secret (every token is 64 hex digits); the content is compared without an early exit.
  if (a.size() != b.size()) return false;
  volatile unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    diff = diff | (static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]));
  return diff == 0;
}

Session::Session(core::Workspace& workspace, support::Executor& executor, Writer write, ServerOptions options,
                 protocol::FramingLimits limits)
    : decoder_(limits),
      dispatcher_(
          workspace, executor, [write = std::move(write)](std::string body) { write(protocol::EncodeFrame(body)); },
          options),
      token_(options.auth_token),
      authenticated_(options.auth_token.empty()) {}

void Session::Refuse(const protocol::RequestId& id, const std::string& why) {
  refused_ = true;
  support::LogWarn("unauthorized client: " + why);
  dispatcher_.SendResponse(protocol::MakeError(id, protocol::kUnauthorized, "unauthorized: " + why));
  if (on_refused_) on_refused_(why);
}

bool Session::Admit(const protocol::Frame& frame) {
  constexpr std::string_view kHow =
      "the first message must be 'initialize' with initializationOptions.token (the "
      "token is in the file named in the server's 'listening on' line)";
  if (frame.kind == protocol::Frame::Kind::kError) {
    Refuse({}, fmt::format("{}; got a framing error ({})", kHow, frame.error));
    return false;
  }
  auto parsed = protocol::ParseMessage(frame.body);
  const auto* request = parsed.message ? std::get_if<protocol::Request>(&*parsed.message) : nullptr;
  if (parsed.error) {
    const std::string problem = parsed.error->error ? parsed.error->error->message : "unusable";
    Refuse(parsed.error->id, fmt::format("{}; got an unusable message ({})", kHow, problem));
    return false;
  }
  if (!request || request->method != "initialize") {
    Refuse(request ? request->id : protocol::RequestId{},
           fmt::format("{}; got {}", kHow, request ? "'" + request->method + "'" : "a notification or response"));
    return false;
  }
  const protocol::Json* token = nullptr;
  if (request->params.is_object()) {
    auto options = request->params.find("initializationOptions");
    if (options != request->params.end() && options->is_object()) {
      auto found = options->find("token");
      if (found != options->end() && found->is_string()) token = &*found;
    }
  }
  if (!token) {
    Refuse(request->id, fmt::format("{}; it has no token", kHow));
    return false;
  }
  if (!ConstantTimeEquals(token->get_ref<const std::string&>(), token_)) {
    Refuse(request->id, "wrong token in initializationOptions.token");
    return false;
  }
  authenticated_ = true;
  return true;
}

void Session::OnBytes(std::string_view bytes) {
  if (refused_) return;
  for (auto& frame : decoder_.Feed(bytes)) pending_.push_back(std::move(frame));
  Pump();
}

void Session::Pump() {
  while (!pending_.empty() && !refused_ && (!may_handle_ || may_handle_())) {
    protocol::Frame frame = std::move(pending_.front());
    pending_.pop_front();
    Handle(frame);
  }
  if (refused_) pending_.clear();  // the rest is never read
}

void Session::Handle(protocol::Frame& frame) {
  if (!authenticated_ && !Admit(frame)) return;
  if (frame.kind == protocol::Frame::Kind::kError) {
    support::LogWarn("framing error: " + frame.error);
    dispatcher_.SendResponse(protocol::MakeError({}, FramingErrorCode(frame.problem), "framing error: " + frame.error));
    return;
  }
  auto parsed = protocol::ParseMessage(frame.body);
  if (parsed.error) {
    support::LogWarn(fmt::format("unusable message: {}", parsed.error->error ? parsed.error->error->message : ""));
    dispatcher_.SendResponse(*parsed.error);
    return;
  }
  dispatcher_.OnMessage(std::move(*parsed.message), frame.body.size());
}

void Session::OnDisconnect() {
  if (decoder_.HasPartial()) {
    support::LogInfo(
        fmt::format("client disconnected in the middle of a message ({} bytes buffered)", decoder_.buffered_bytes()));
  }
  const size_t cancelled = dispatcher_.Disconnect();
  if (cancelled > 0) support::LogInfo(fmt::format("client gone: cancelled {} running request(s)", cancelled));
}

}  // namespace nsys::lsp
