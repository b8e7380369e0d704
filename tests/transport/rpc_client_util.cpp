#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "nsys/protocol/framing.h"
#include "rpc_client.h"

namespace nsys::testing {
namespace {

void WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) {
      const ssize_t w = ::write(fd, bytes.data(), bytes.size());
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return;  // the peer is gone; the test notices through missing replies
      bytes.remove_prefix(static_cast<size_t>(w));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

std::string NsysAiBinary() {
  return NSYS_AI_BINARY;
}

// ---- Subprocess ----

Subprocess::Subprocess(const std::vector<std::string>& argv) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) throw std::runtime_error("pipe");
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    std::fprintf(stderr, "exec %s failed: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];
  stderr_reader_ = std::thread([this] {
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(stderr_fd_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      std::lock_guard lock(mu_);
      if (n <= 0) {
        stderr_closed_ = true;
        cv_.notify_all();
        return;
      }
      stderr_.append(buffer, static_cast<size_t>(n));
      cv_.notify_all();
    }
  });
}

Subprocess::~Subprocess() {
  if (!exit_code_) {
    Signal(SIGKILL);
    Wait(std::chrono::seconds(10));
  }
  CloseStdin();
  if (stderr_reader_.joinable()) stderr_reader_.join();
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  if (stderr_fd_ >= 0) ::close(stderr_fd_);
}

void Subprocess::CloseStdin() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

std::optional<int> Subprocess::Wait(std::chrono::milliseconds timeout) {
  if (exit_code_) return exit_code_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_code_;
    }
    if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void Subprocess::Signal(int signal) {
  if (!exit_code_ && pid_ > 0) ::kill(pid_, signal);
}

std::string Subprocess::Stderr() {
  std::lock_guard lock(mu_);
  return stderr_;
}

bool Subprocess::WaitForStderr(const std::string& text, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return stderr_.find(text) != std::string::npos || stderr_closed_; }) &&
         stderr_.find(text) != std::string::npos;
}

// ---- FramedConnection ----

FramedConnection::FramedConnection(int read_fd, int write_fd, bool owns_fds)
    : read_fd_(read_fd), write_fd_(write_fd), owns_fds_(owns_fds) {
  reader_ = std::thread([this] { ReadLoop(); });
}

FramedConnection::~FramedConnection() {
  Abort();
}

void FramedConnection::ReadLoop() {
  protocol::FrameDecoder decoder;
  char buffer[65536];
  while (!stop_.load()) {
    pollfd poll_fd{read_fd_, POLLIN, 0};
    const int ready = ::poll(&poll_fd, 1, 50);  // wakes up to notice stop_
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    const ssize_t n = ::read(read_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (auto& frame : decoder.Feed(std::string_view(buffer, static_cast<size_t>(n)))) {
      std::lock_guard lock(mu_);
      if (frame.kind == protocol::Frame::Kind::kError) {
        framing_errors_.push_back(frame.error);
        continue;
      }
      Json message = Json::parse(frame.body, nullptr, false);
      if (message.is_discarded()) {
        framing_errors_.push_back("unparseable body: " + frame.body);
        continue;
      }
      if (answer_requests_ && message.contains("method") && message.contains("id")) {
        // A server→client request (window/workDoneProgress/create, window/showDocument): answer it.
        const Json reply = {{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", nullptr}};
        std::lock_guard write_lock(write_mu_);
        if (!write_closed_) WriteAll(write_fd_, protocol::EncodeFrame(reply.dump()));
      }
      received_.push_back(std::move(message));
    }
    cv_.notify_all();
  }
  std::lock_guard lock(mu_);
  eof_ = true;
  cv_.notify_all();
}

void FramedConnection::SendRaw(const std::string& bytes) {
  std::lock_guard lock(write_mu_);
  if (!write_closed_) WriteAll(write_fd_, bytes);
}

void FramedConnection::Send(const Json& message) {
  SendRaw(protocol::EncodeFrame(message.dump()));
}

void FramedConnection::CloseWrite() {
  std::lock_guard lock(write_mu_);
  if (write_closed_) return;
  write_closed_ = true;
  if (read_fd_ == write_fd_) {
    ::shutdown(write_fd_, SHUT_WR);
  } else if (owns_fds_) {
    ::close(write_fd_);
    write_fd_ = -1;
  }
}

void FramedConnection::Abort() {
  {
    std::lock_guard lock(write_mu_);
    write_closed_ = true;
  }
  stop_ = true;
  if (reader_.joinable() && reader_.get_id() != std::this_thread::get_id()) reader_.join();
  if (owns_fds_ && read_fd_ >= 0) {
    ::close(read_fd_);
    if (write_fd_ != read_fd_) ::close(write_fd_);
    read_fd_ = write_fd_ = -1;
  }
}

std::optional<Json> FramedConnection::Take(const std::function<bool(const Json&)>& predicate,
                                           std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  std::optional<Json> found;
  cv_.wait_for(lock, timeout, [&] {
    for (auto it = received_.begin(); it != received_.end(); ++it) {
      if (predicate(*it)) {
        found = std::move(*it);
        received_.erase(it);
        return true;
      }
    }
    return eof_;
  });
  return found;
}

Json FramedConnection::AwaitReply(const Json& id, std::chrono::milliseconds timeout) {
  return Take([&](const Json& m) { return !m.contains("method") && m.contains("id") && m["id"] == id; }, timeout)
      .value_or(Json());
}

std::vector<Json> FramedConnection::Pending() {
  std::lock_guard lock(mu_);
  return {received_.begin(), received_.end()};
}

bool FramedConnection::WaitForEof(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [this] { return eof_; });
}

std::vector<std::string> FramedConnection::FramingErrors() {
  std::lock_guard lock(mu_);
  return framing_errors_;
}

// ---- TCP ----

int ConnectTcp(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::unique_ptr<FramedConnection> Connect(int port) {
  const int fd = ConnectTcp(port);
  EXPECT_GE(fd, 0) << "cannot connect to " << port;
  return std::make_unique<FramedConnection>(fd, fd, true);
}

TcpServerProcess StartTcpServer(const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv = {NsysAiBinary(), "serve", "--listen", "127.0.0.1:0"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  TcpServerProcess server;
  if (std::find(extra_args.begin(), extra_args.end(), "--token-file") == extra_args.end()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "nsys_ai_token_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp");
    server.temp_dir = std::shared_ptr<void>(nullptr, [dir = pattern](void*) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    argv.push_back("--token-file");
    argv.push_back(pattern + "/serve.token");
  }
  server.process = std::make_unique<Subprocess>(argv);
  if (!server.process->WaitForStderr("listening on 127.0.0.1:", std::chrono::seconds(30))) return server;
  // The line may still be arriving: wait for its end.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  static const std::regex line(R"(listening on 127\.0\.0\.1:(\d+) \(token in ([^\n]*)\)\n)");
  std::smatch match;
  std::string err;
  while (!std::regex_search(err = server.process->Stderr(), match, line) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (match.empty()) return server;
  server.port = std::stoi(match[1]);
  server.token_file = match[2];
  std::ifstream in(server.token_file);
  std::getline(in, server.token);
  return server;
}

Json InitializeParams(const std::string& token, Json initialization_options) {
  initialization_options["token"] = token;
  return {{"processId", nullptr},
          {"capabilities", Json::object()},
          {"initializationOptions", std::move(initialization_options)}};
}

Json InitializeWithToken(FramedConnection& connection, const std::string& token) {
  connection.Send({{"jsonrpc", "2.0"}, {"id", "init"}, {"method", "initialize"}, {"params", InitializeParams(token)}});
  Json reply = connection.AwaitReply("init");
  connection.Send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", Json::object()}});
  return reply;
}

RunResult RunNsysAi(const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
  std::vector<std::string> argv = {NsysAiBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  Subprocess process(argv);
  process.CloseStdin();
  std::string out;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(process.stdout_fd(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  RunResult result;
  result.exit_code = process.Wait(timeout).value_or(-1);
  result.out = std::move(out);
  result.err = process.Stderr();
  return result;
}

}  // namespace nsys::testing
