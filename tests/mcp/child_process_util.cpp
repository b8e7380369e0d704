#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcp/child_process.h"

extern char** environ;

namespace nsys::testing {

std::unique_ptr<ChildProcess> ChildProcess::Start(const std::vector<std::string>& argv,
                                                  const std::vector<std::string>& extra_env,
                                                  const std::string& stderr_path, std::string* error) {
  // Writing to a child that died must fail with EPIPE, not kill the test.
  ::signal(SIGPIPE, SIG_IGN);
  int to_child[2];
  int from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  // Everything the child needs is prepared before fork: only async-signal-safe calls happen after it.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  for (const auto& kv : extra_env) env_strings.push_back(kv);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argvp;
  for (auto& s : args) argvp.push_back(s.data());
  argvp.push_back(nullptr);
  const int err_fd = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  const pid_t pid = ::fork();
  if (pid < 0) {
    *error = std::string("fork: ") + std::strerror(errno);
    return nullptr;
  }
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    if (err_fd >= 0) ::dup2(err_fd, 2);
    ::execve(argvp[0], argvp.data(), envp.data());
    _exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (err_fd >= 0) ::close(err_fd);
  auto child = std::unique_ptr<ChildProcess>(new ChildProcess());
  child->pid_ = pid;
  child->stdin_fd_ = to_child[1];
  child->stdout_fd_ = from_child[0];
  return child;
}

ChildProcess::~ChildProcess() {
  CloseStdin();
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

bool ChildProcess::Write(const std::string& data) {
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(stdin_fd_, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

bool ChildProcess::WriteLine(const std::string& line) {
  return Write(line + "\n");
}

bool ChildProcess::Fill(std::chrono::steady_clock::time_point deadline, bool* timed_out) {
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      *timed_out = true;
      return false;
    }
    pollfd pfd{stdout_fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready <= 0) continue;  // EINTR, or the deadline (checked above)
    char buffer[65536];
    const ssize_t n = ::read(stdout_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = true;
    } else {
      pending_.append(buffer, static_cast<size_t>(n));
    }
    return true;
  }
}

std::optional<std::string> ChildProcess::ReadLine(std::chrono::milliseconds timeout, bool* timed_out) {
  *timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (const size_t nl = pending_.find('\n'); nl != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return line;
    }
    if (eof_) {
      if (pending_.empty()) return std::nullopt;
      std::string line = std::move(pending_);  // a last line without a newline
      pending_.clear();
      return line;
    }
    if (!Fill(deadline, timed_out)) return std::nullopt;
  }
}

std::optional<std::string> ChildProcess::ReadFrame(std::chrono::milliseconds timeout, bool* timed_out) {
  *timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    // "Content-Length: N\r\n\r\n" then N bytes: the server writes no other header.
    const size_t end = pending_.find("\r\n\r\n");
    if (end != std::string::npos && pending_.rfind("Content-Length: ", 0) == 0) {
      const size_t length = std::stoul(pending_.substr(16, end - 16));
      if (pending_.size() >= end + 4 + length) {
        std::string body = pending_.substr(end + 4, length);
        pending_.erase(0, end + 4 + length);
        return body;
      }
    }
    if (eof_) return std::nullopt;
    if (!Fill(deadline, timed_out)) return std::nullopt;
  }
}

bool ChildProcess::Signal(int signal) {
  return pid_ > 0 && ::kill(pid_, signal) == 0;
}

void ChildProcess::CloseStdin() {
  if (stdin_fd_ >= 0) {
    ::close(stdin_fd_);
    stdin_fd_ = -1;
  }
}

std::optional<int> ChildProcess::Wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      return 128 + WTERMSIG(status);
    }
    ::usleep(10000);
  }
  return std::nullopt;
}

}  // namespace nsys::testing
