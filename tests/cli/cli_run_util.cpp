#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli_run.h"

namespace nsys::testing {

CliResult RunCli(const std::vector<std::string>& args, const std::string& stdin_text) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    std::vector<char*> argv = {const_cast<char*>(NSYS_AI_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  // Feed stdin and drain both outputs together, so no pipe fills up and blocks the child.
  size_t written = 0;
  int in_fd = in[1];
  if (stdin_text.empty()) ::close(in_fd), in_fd = -1;
  CliResult result;
  int open_outputs = 2;
  while (open_outputs > 0) {
    pollfd fds[3] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {in_fd, POLLOUT, 0}};
    if (::poll(fds, in_fd >= 0 ? 3 : 2, 120000) <= 0) break;
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = ::read(fds[k].fd, buffer, sizeof buffer);
      if (n <= 0) {
        ::close(fds[k].fd);
        (k == 0 ? out[0] : err[0]) = -1;
        --open_outputs;
      } else {
        (k == 0 ? result.out : result.err).append(buffer, static_cast<size_t>(n));
      }
    }
    if (in_fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(in_fd, stdin_text.data() + written, stdin_text.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if (n < 0 || written == stdin_text.size()) ::close(in_fd), in_fd = -1;
    }
  }
  if (in_fd >= 0) ::close(in_fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace nsys::testing
