#include "nsys/transport/serve.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <asio.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>

#include "nsys/support/executor.h"
#include "nsys/support/log.h"
#include "nsys/transport/stdio.h"
#include "nsys/transport/tcp.h"
#include "nsys/transport/token_file.h"

namespace nsys::transport {
namespace {

// A pipe that SIGINT/SIGTERM (seen by asio on the io thread) writes to: the stdio reader polls it beside stdin.
class StopPipe {
 public:
  StopPipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) fds_[0] = fds_[1] = -1;
  }
  ~StopPipe() {
    for (int fd : fds_) {
      if (fd >= 0) ::close(fd);
    }
  }
  StopPipe(const StopPipe&) = delete;
  StopPipe& operator=(const StopPipe&) = delete;
  int read_fd() const { return fds_[0]; }
  void Signal() const {
    if (fds_[1] >= 0) (void)!::write(fds_[1], "x", 1);
  }

 private:
  int fds_[2] = {-1, -1};
};

// SIGTERM/SIGINT end the process within 2 s whatever a worker is doing. The normal stop cancels what runs, answers
// -32800, removes the token file, the socket and the published traces; Serve then waits kWorkerGrace for the workers
// and leaves without joining one that has not stopped (after the same removals). Should the stop itself hang, the
// watchdog armed at the signal removes the token file and the socket and ends the process at kHardStop.
constexpr std::chrono::milliseconds kWorkerGrace{500};
constexpr std::chrono::milliseconds kHardStop{1900};

void ArmStopWatchdog(std::string token_path, std::string socket_path) {
  std::thread([token_path = std::move(token_path), socket_path = std::move(socket_path)] {
    std::this_thread::sleep_for(kHardStop);
    if (!token_path.empty()) ::unlink(token_path.c_str());
    if (!socket_path.empty()) ::unlink(socket_path.c_str());
    static constexpr char kMessage[] = "nsys-ai: the stop took too long; exiting now\n";
    (void)!::write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    std::_Exit(0);
  }).detach();
}

int ServeStdio(asio::io_context& io, core::Workspace& workspace, support::ThreadPool& pool,
               const lsp::ServerOptions& lsp_options, const ServeOptions& options) {
  StopPipe stop;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&stop](const asio::error_code& ec, int signal) {
    if (ec) return;
    support::LogInfo(fmt::format("signal {}: stopping", signal));
    ArmStopWatchdog({}, {});
    stop.Signal();
  });
  auto guard = asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  support::LogInfo(fmt::format("serving LSP on stdio with {} worker threads", pool.size()));
  StdioOptions stdio;
  stdio.stop_fd = stop.read_fd();
  const int code = RunStdioSession(workspace, pool, lsp_options, options.limits, stdio);
  guard.reset();
  io.stop();
  io_thread.join();
  return code;
}

// The TCP port with its token file (kTcp); "" or what went wrong. `token_file` is written and kept open.
std::string ListenTcp(TcpServer& server, const ServeOptions& options, const std::string& token, TokenFile& token_file) {
  auto port = server.Listen(options.host, options.port);
  if (!port) return port.error().message;
  const std::string path = options.token_file.empty() ? DefaultTokenPath(*port) : options.token_file;
  if (auto written = token_file.Write(path, token); !written) return written.error().message;
  // Always printed, whatever the log level: scripts and tests read the port and the token file from here.
  std::fprintf(stderr, "listening on %s:%u (token in %s)\n", options.host.c_str(), static_cast<unsigned>(*port),
               token_file.path().c_str());
  std::fflush(stderr);
  return {};
}

int ServeNetwork(asio::io_context& io, core::Workspace& workspace, support::ThreadPool& pool,
                 lsp::ServerOptions lsp_options, const ServeOptions& options) {
  auto token = NewToken();
  if (!token) {
    support::LogError(token.error().message);
    return 1;
  }
  lsp_options.auth_token = *token;
  TcpServer server(io, workspace, pool, lsp_options, options.limits, options.tcp);
  TokenFile token_file;
  // Before the startup line: whoever reads it may signal at once, and must get the clean stop (and the file removed).
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const asio::error_code& ec, int signal) {
    if (ec) return;
    support::LogInfo(fmt::format("signal {}: stopping", signal));
    ArmStopWatchdog(token_file.path(), options.socket_path);
    server.Stop();
    io.stop();
  });
  if (options.mode == ServeOptions::Mode::kTcp) {
    if (auto problem = ListenTcp(server, options, *token, token_file); !problem.empty()) {
      support::LogError(problem);
      return 1;
    }
  }
  if (!options.socket_path.empty()) {
    if (auto status = server.ListenUnix(options.socket_path); !status) {
      support::LogError(status.error().message);
      return 1;
    }
    std::fprintf(stderr, "listening on unix:%s\n", options.socket_path.c_str());
    std::fflush(stderr);
  }
  io.run();
  server.Stop();
  token_file.Remove();
  return 0;
}

}  // namespace

int Serve(const core::WorkspaceConfig& config, const ServeOptions& options) {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished client is an error code on write, not a dead server
  // Destroyed in reverse: the pool drains first (its tasks use the workspace and the Perfetto side channel), then the
  // side channel, the io_context (its thread has stopped by then) and the workspace.
  core::Workspace workspace(config);
  asio::io_context io;
  lsp::ServerOptions lsp_options = options.lsp;
  // Side channels that live on the io thread (the Perfetto HTTP server) are created here and handed to the
  // handlers through lsp_options.
  HttpSideChannelOptions perfetto_options = options.perfetto;
  if (perfetto_options.cache_dir.empty()) perfetto_options.cache_dir = workspace.CacheDir();
  HttpSideChannel perfetto(io, perfetto_options);  // destroyed before `io`, after the io thread has stopped
  lsp_options.trace_publisher = &perfetto;
  support::ThreadPool pool(options.worker_threads > 0 ? options.worker_threads : support::DefaultWorkerThreads());

  const int code = options.mode == ServeOptions::Mode::kStdio
                       ? ServeStdio(io, workspace, pool, lsp_options, options)
                       : ServeNetwork(io, workspace, pool, std::move(lsp_options), options);
  if (!pool.WaitIdle(kWorkerGrace)) {
    // A request that ignores its cancellation would hold the pool's join, and the exit, forever.
    support::LogError("exiting without waiting for the requests that did not stop");
    perfetto.Stop();  // the published traces, as the normal stop deletes them
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}

}  // namespace nsys::transport
