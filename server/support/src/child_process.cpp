#include "nsys/support/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace nsys::support {
namespace {

constexpr size_t kErrorTail = 16 << 10;

void KillGroup(pid_t child) {
  kill(-child, SIGTERM);
  for (int i = 0; i < 20; ++i) {  // two seconds to stop, then SIGKILL
    if (waitpid(child, nullptr, WNOHANG) == child) return;
    usleep(100000);
  }
  kill(-child, SIGKILL);
  waitpid(child, nullptr, 0);
}

// Reads what `fd` has; false at end of file.
bool Drain(int fd, std::string& into) {
  char buf[16384];
  const ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) into.append(buf, static_cast<size_t>(n));
  return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
}

}  // namespace

// Long: one poll loop over the two pipes, the cancel token and the limit; split, its state would be passed around.
Expected<ChildOutput> RunProcess(const std::vector<std::string>& argv,
                                 const std::function<void(const std::string& line)>& on_error_line,
                                 const CancelToken& cancel, size_t max_out_bytes) {
  if (argv.empty()) return MakeError(ErrorKind::kInvalidArgument, "no command to run");
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) return MakeError(ErrorKind::kInternal, std::string("pipe: ") + std::strerror(errno));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]), close(out[1]);
    return MakeError(ErrorKind::kInternal, std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  // Nothing but 0, 1 and 2 reaches the program: not a listening socket, not a client's connection (issue 38).
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // its own group: cancelling stops its children too
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t child = -1;
  const int spawned = posix_spawnp(&child, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out[1]), close(err[1]);
  if (spawned != 0) {
    close(out[0]), close(err[0]);
    return MakeError(ErrorKind::kNotFound, "cannot run '" + argv[0] + "': " + std::strerror(spawned));
  }
  ChildOutput result;
  std::string pending;  // stderr not yet split into lines
  bool out_open = true, err_open = true;
  auto flush_lines = [&](bool all) {
    size_t start = 0, nl;
    while ((nl = pending.find('\n', start)) != std::string::npos) {
      if (on_error_line) on_error_line(pending.substr(start, nl - start));
      start = nl + 1;
    }
    pending.erase(0, start);
    if (all && !pending.empty()) {
      if (on_error_line) on_error_line(pending);
      pending.clear();
    }
  };
  while (out_open || err_open) {
    if (cancel.cancelled() || result.out.size() > max_out_bytes) {
      close(out[0]), close(err[0]);
      KillGroup(child);
      if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The launched program was cancelled.");
      return MakeError(ErrorKind::kLimitExceeded,
                       "'" + argv[0] + "' wrote more than " + std::to_string(max_out_bytes) + " bytes of output");
    }
    pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? err[0] : -1, POLLIN, 0}};
    if (poll(fds, 2, 100) <= 0) continue;
    if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) out_open = Drain(out[0], result.out);
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      const size_t before = pending.size();
      err_open = Drain(err[0], pending);
      result.error_tail.append(pending, before, std::string::npos);
      if (result.error_tail.size() > 2 * kErrorTail) result.error_tail.erase(0, result.error_tail.size() - kErrorTail);
      flush_lines(false);
    }
  }
  flush_lines(true);
  close(out[0]), close(err[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.error_tail.size() > kErrorTail) result.error_tail.erase(0, result.error_tail.size() - kErrorTail);
  return result;
}

}  // namespace nsys::support
