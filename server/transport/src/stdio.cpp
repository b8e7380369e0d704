#include "nsys/transport/stdio.h"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "nsys/lsp/session.h"
#include "nsys/support/log.h"
#include "write_all.h"

namespace nsys::transport {
namespace {

// True when `fd` is readable within `timeout_ms` (-1: wait for ever). A negative fd is never readable.
bool Readable(int fd, int timeout_ms) {
  if (fd < 0) return false;
  pollfd p{fd, POLLIN, 0};
  int r;
  do {
    r = ::poll(&p, 1, timeout_ms);
  } while (r < 0 && errno == EINTR);
  return r > 0;
}

// Blocks until stdin has input (or has ended); false when the stop descriptor became readable first.
bool WaitForInput(int in_fd, int stop_fd) {
  if (stop_fd < 0) return true;  // read() itself waits
  pollfd fds[2] = {{stop_fd, POLLIN, 0}, {in_fd, POLLIN, 0}};
  for (;;) {
    const int r = ::poll(fds, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return true;  // let read() report the problem
    if (fds[0].revents != 0) return false;
    return true;
  }
}

// Signalled by the dispatcher when a request has answered.
struct Answered {
  std::mutex mu;
  std::condition_variable cv;
};

// Waits while `max` requests are in flight; false when the stop descriptor became readable meanwhile.
bool WaitForRoom(lsp::Dispatcher& dispatcher, Answered& answered, size_t max, int stop_fd) {
  std::unique_lock lock(answered.mu);
  while (dispatcher.running_requests() >= max) {
    if (Readable(stop_fd, 0)) return false;
    answered.cv.wait_for(lock, std::chrono::milliseconds(50));
  }
  return true;
}

// Stopped by a signal: what runs is cancelled and gets a moment to send its -32800; then the session ends cleanly.
int StopOnSignal(lsp::Session& session) {
  support::LogInfo("stopping on a signal");
  session.dispatcher().CancelAll();
  // 1 s, so that with the workers' own grace (Serve) the process ends within 2 s of the signal.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (session.dispatcher().running_requests() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  session.OnDisconnect();
  return 0;
}

}  // namespace

int RunStdioSession(core::Workspace& workspace, support::Executor& executor, const lsp::ServerOptions& options,
                    const protocol::FramingLimits& limits, const StdioOptions& stdio) {
  auto write_mu = std::make_shared<std::mutex>();
  auto output_broken = std::make_shared<std::atomic<bool>>(false);
  const int out_fd = stdio.out_fd;
  lsp::Session session(
      workspace, executor,
      [write_mu, output_broken, out_fd](std::string bytes) {
        std::lock_guard lock(*write_mu);
        if (output_broken->load()) return;
        if (!WriteAll(out_fd, bytes)) {
          output_broken->store(true);
          support::LogWarn(fmt::format("cannot write to the client: {}", std::strerror(errno)));
        }
      },
      options, limits);
  std::optional<int> exit_code;
  session.dispatcher().SetExitHandler([&exit_code](int code) { exit_code = code; });  // reader thread
  auto answered = std::make_shared<Answered>();
  session.dispatcher().SetRequestDoneHandler([answered] {
    std::lock_guard lock(answered->mu);
    answered->cv.notify_all();
  });
  const size_t max_in_flight = stdio.max_requests_in_flight;
  session.SetAdmission([&session, max_in_flight] { return session.dispatcher().running_requests() < max_in_flight; });

  std::string buffer(64 * 1024, '\0');
  while (!exit_code) {
    if (!WaitForRoom(session.dispatcher(), *answered, stdio.max_requests_in_flight, stdio.stop_fd) ||
        !WaitForInput(stdio.in_fd, stdio.stop_fd)) {
      return StopOnSignal(session);
    }
    const ssize_t n = ::read(stdio.in_fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0) support::LogWarn(fmt::format("cannot read from the client: {}", std::strerror(errno)));
      support::LogInfo("the client closed stdin");
      break;
    }
    session.OnBytes(std::string_view(buffer.data(), static_cast<size_t>(n)));
    // What the read held beyond the in-flight bound waits in the session until requests answer.
    while (session.has_pending() && !exit_code) {
      if (!WaitForRoom(session.dispatcher(), *answered, stdio.max_requests_in_flight, stdio.stop_fd)) {
        return StopOnSignal(session);
      }
      session.Pump();
    }
  }
  // After `exit` following shutdown, or when the input ends (`... | nsys-ai serve --stdio`), the requests already
  // read answer before the process leaves; a stuck one is cancelled after a while.
  const bool abrupt = exit_code && *exit_code != 0;
  if (!abrupt) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    bool cancelled = false;
    while (session.dispatcher().running_requests() > 0 && !output_broken->load()) {
      if (Readable(stdio.stop_fd, 0)) return StopOnSignal(session);
      if (!cancelled && std::chrono::steady_clock::now() > deadline) {
        support::LogWarn("requests still running 30 s after the end of input: cancelling them");
        session.dispatcher().CancelAll();
        cancelled = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  const bool clean = exit_code ? *exit_code == 0 : session.dispatcher().shutdown_received();
  session.OnDisconnect();  // cancel what still runs; its late replies are dropped
  return exit_code.value_or(clean ? 0 : 1);
}

}  // namespace nsys::transport
