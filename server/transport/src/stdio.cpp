#include "nsys/transport/stdio.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "nsys/core/log.h"
#include "nsys/lsp/session.h"

namespace nsys::transport {
namespace {

// Writes all of `bytes`; false when the peer is gone (EPIPE) or another error occurs.
bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

int RunStdioSession(core::Workspace& workspace, lsp::Executor& executor, const lsp::ServerOptions& options,
                    const protocol::FramingLimits& limits, int in_fd, int out_fd) {
  auto write_mu = std::make_shared<std::mutex>();
  auto output_broken = std::make_shared<std::atomic<bool>>(false);
  lsp::Session session(
      workspace, executor,
      [write_mu, output_broken, out_fd](std::string bytes) {
        std::lock_guard lock(*write_mu);
        if (output_broken->load()) return;
        if (!WriteAll(out_fd, bytes)) {
          output_broken->store(true);
          core::LogWarn(fmt::format("cannot write to the client: {}", std::strerror(errno)));
        }
      },
      options, limits);
  std::optional<int> exit_code;
  session.dispatcher().SetExitHandler([&exit_code](int code) { exit_code = code; });  // reader thread

  std::string buffer(64 * 1024, '\0');
  while (!exit_code) {
    const ssize_t n = ::read(in_fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0) core::LogWarn(fmt::format("cannot read from the client: {}", std::strerror(errno)));
      core::LogInfo("the client closed stdin");
      break;
    }
    session.OnBytes(std::string_view(buffer.data(), static_cast<size_t>(n)));
  }
  // After `exit` following shutdown, or when the input ends (`... | nsys-ai serve --stdio`), the requests already
  // read answer before the process leaves; a stuck one is cancelled after a while.
  const bool abrupt = exit_code && *exit_code != 0;
  if (!abrupt) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    bool cancelled = false;
    while (session.dispatcher().running_requests() > 0 && !output_broken->load()) {
      if (!cancelled && std::chrono::steady_clock::now() > deadline) {
        core::LogWarn("requests still running 30 s after the end of input: cancelling them");
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
