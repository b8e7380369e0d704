#include "nsys/transport/in_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>

#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/json_parse.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/executor.h"
#include "nsys/transport/stdio.h"
#include "write_all.h"

namespace nsys::transport {
namespace {

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

Error SessionGone(const std::string& what) {
  return MakeError(ErrorKind::kInternal, fmt::format("the in-process server session ended: {}", what));
}

}  // namespace

InProcessClient::InProcessClient(const core::WorkspaceConfig& config, int worker_threads)
    : workspace_(config), pool_(worker_threads) {}

Expected<std::unique_ptr<InProcessClient>> InProcessClient::Start(const core::WorkspaceConfig& config,
                                                                  const lsp::ServerOptions& options,
                                                                  int worker_threads) {
  // A session that ended early closes its end of the input: a write to it is then an error that says so
  // (SessionGone), not a SIGPIPE that kills the process, as `serve` and `mcp` have it.
  std::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<InProcessClient> client(new InProcessClient(config, worker_threads));
  int to_server[2];
  int from_server[2];
  if (::pipe2(to_server, O_CLOEXEC) != 0) {
    return MakeError(ErrorKind::kInternal, fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  }
  if (::pipe2(from_server, O_CLOEXEC) != 0) {
    ::close(to_server[0]), ::close(to_server[1]);
    return MakeError(ErrorKind::kInternal, fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  }
  client->to_server_ = to_server[1];
  client->from_server_ = from_server[0];
  // The session owns its two ends and closes them when it returns, so our reads see the end of its output.
  client->session_ = std::thread([c = client.get(), in = to_server[0], out = from_server[1], options] {
    StdioOptions stdio;
    stdio.in_fd = in;
    stdio.out_fd = out;
    RunStdioSession(c->workspace_, c->pool_, options, protocol::FramingLimits{}, stdio);
    ::close(in);
    ::close(out);
  });
  auto init = client->Request("initialize", {{"processId", nullptr}, {"capabilities", protocol::Json::object()}});
  if (!init) return init.error();
  if (!init->ok) return MakeError(ErrorKind::kInternal, fmt::format("initialize was refused: {}", init->message));
  if (auto sent = client->Send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", protocol::Json::object()}});
      !sent) {
    return sent.error();
  }
  return client;
}

InProcessClient::~InProcessClient() {
  if (session_.joinable()) {
    if (to_server_ >= 0) {
      (void)Request("shutdown", nullptr);
      (void)Send({{"jsonrpc", "2.0"}, {"method", "exit"}});
    }
    CloseFd(to_server_);  // the end of its input also ends a session that did not take `exit`
    session_.join();
  }
  CloseFd(to_server_);
  CloseFd(from_server_);
}

Status InProcessClient::Send(const protocol::Json& message) {
  if (!WriteAll(to_server_, protocol::EncodeFrame(message.dump()))) return SessionGone(std::strerror(errno));
  return {};
}

// The next message the server sent, whole.
Expected<protocol::Json> InProcessClient::NextMessage() {
  std::string buffer(64 * 1024, '\0');
  while (bodies_.empty()) {
    const ssize_t n = ::read(from_server_, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return SessionGone(n == 0 ? "its output closed" : std::strerror(errno));
    for (auto& frame : decoder_.Feed(std::string_view(buffer.data(), static_cast<size_t>(n)))) {
      if (frame.kind != protocol::Frame::Kind::kBody) return SessionGone("it sent a bad frame: " + frame.error);
      bodies_.push_back(std::move(frame.body));
    }
  }
  auto message = protocol::ParseJsonText(bodies_.front());
  bodies_.pop_front();
  if (!message.error.empty()) return SessionGone("it sent JSON that does not parse: " + message.error);
  return std::move(message.value);
}

Expected<CallReply> InProcessClient::Request(std::string_view method, const protocol::Json& params) {
  const int id = next_id_++;
  protocol::Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  if (auto sent = Send(request); !sent) return sent.error();
  for (;;) {
    auto message = NextMessage();
    if (!message) return message.error();
    const bool has_id = message->contains("id");
    if (message->contains("method")) {
      // A request of the server's (none is expected: the client declared no capability) gets a null result.
      if (has_id) (void)Send({{"jsonrpc", "2.0"}, {"id", (*message)["id"]}, {"result", nullptr}});
      continue;
    }
    if (!has_id || (*message)["id"] != id) continue;
    CallReply reply;
    if (message->contains("error")) {
      const auto& error = (*message)["error"];
      reply.code = error.value("code", 0);
      reply.message = error.value("message", std::string());
      if (error.contains("data")) reply.data = error["data"];
    } else {
      reply.ok = true;
      reply.result = message->value("result", protocol::Json());
    }
    return reply;
  }
}

std::string CallableMethods() {
  std::string out;
  for (const auto& row : protocol::Capabilities()) out += fmt::format("\n  {}", row.method);
  return out;
}

namespace {

Expected<protocol::Json> ParamsObject(const std::string& text) {
  if (text.empty()) return protocol::Json::object();
  auto params = protocol::ParseJsonText(text);
  if (!params.error.empty()) return MakeError(ErrorKind::kInvalidArgument, "--params is not JSON: " + params.error);
  if (!params.value.is_object()) return MakeError(ErrorKind::kInvalidArgument, "--params must be a JSON object");
  return std::move(params.value);
}

CallOutcome Outcome(std::string method, const CallReply& reply) {
  CallOutcome out;
  out.ok = reply.ok;
  out.method = std::move(method);
  if (reply.ok) {
    out.result = reply.result.dump(2, ' ', false, protocol::Json::error_handler_t::replace);
  } else {
    out.code = reply.code;
    out.message = reply.message;
    if (!reply.data.is_null())
      out.message += " " + reply.data.dump(-1, ' ', false, protocol::Json::error_handler_t::replace);
  }
  return out;
}

}  // namespace

Expected<CallOutcome> CallOnce(const core::WorkspaceConfig& config, const CallRequest& request) {
  if (protocol::CapabilityOfMethod(request.method) == nullptr) {
    return MakeError(
        ErrorKind::kInvalidArgument,
        fmt::format("'{}' is not a method of the catalogue; the methods are:{}", request.method, CallableMethods()));
  }
  auto params = ParamsObject(request.params_text);
  if (!params) return params.error();
  // The user started this process, as an editor starts `serve --stdio`: the stdio session's options.
  auto client = InProcessClient::Start(config, lsp::ServerOptions{}, support::DefaultWorkerThreads());
  if (!client) return client.error();
  if (!request.profile.empty()) {
    const std::string open(protocol::method::kOpenProfile);
    auto opened = (*client)->Request(open, {{"path", request.profile}});
    if (!opened) return opened.error();
    if (!opened->ok) return Outcome(open, *opened);
    if (!params->contains("profileId")) (*params)["profileId"] = opened->result.value("profileId", "");
  }
  auto reply = (*client)->Request(request.method, *params);
  if (!reply) return reply.error();
  return Outcome(request.method, *reply);
}

}  // namespace nsys::transport
