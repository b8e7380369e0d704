#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "serve_session.h"

extern char** environ;

namespace nsys::testing {

using Json = nlohmann::json;

ServeSession::ServeSession(const std::vector<std::string>& args, const std::vector<std::string>& env,
                           const Json& initialization_options) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC)) return;
  // Built before fork: the child only calls async-signal-safe functions.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& extra : env) env_strings.push_back(extra);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_strings = {NSYS_AI_BINARY};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    if (devnull >= 0) ::dup2(devnull, 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  if (devnull >= 0) ::close(devnull);
  ::close(in[0]);
  ::close(out[1]);
  in_ = in[1];
  out_ = out[0];
  const Json reply = Call(
      "initialize",
      {{"processId", nullptr}, {"capabilities", Json::object()}, {"initializationOptions", initialization_options}});
  initialized_ = reply.contains("result");
}

ServeSession::~ServeSession() {
  if (pid_ <= 0) return;
  Call("shutdown", nullptr, std::chrono::seconds(10));
  Send({{"jsonrpc", "2.0"}, {"method", "exit"}});
  ::close(in_);
  for (int i = 0; i < 100; ++i) {
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
      ::close(out_);
      return;
    }
    ::usleep(50000);
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  ::close(out_);
}

bool ServeSession::Send(const Json& message) {
  const std::string body = message.dump();
  const std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  size_t written = 0;
  while (written < frame.size()) {
    const ssize_t n = ::write(in_, frame.data() + written, frame.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

bool ServeSession::ReadMessage(Json& out, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const size_t header_end = buffer_.find("\r\n\r\n");
    if (header_end != std::string::npos) {
      const size_t at = buffer_.find("Content-Length: ");
      const size_t length = std::stoul(buffer_.substr(at + 16, header_end - at - 16));
      if (buffer_.size() >= header_end + 4 + length) {
        out = Json::parse(buffer_.substr(header_end + 4, length));
        buffer_.erase(0, header_end + 4 + length);
        return true;
      }
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{out_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char chunk[65536];
    const ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

Json ServeSession::Call(const std::string& method, const Json& params, std::chrono::milliseconds timeout) {
  const int id = next_id_++;
  Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  if (pid_ <= 0 || !Send(request)) return {{"error", {{"message", "cannot send"}}}};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Json message;
  while (ReadMessage(message, deadline)) {
    if (message.contains("id") && message["id"] == id && !message.contains("method")) return message;
    if (message.contains("id") && message.contains("method")) {  // a server→client request: decline it
      Send({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"error", {{"code", -32601}, {"message", "not here"}}}});
    }
  }
  return {{"error", {{"message", "timeout"}}}};
}

}  // namespace nsys::testing
