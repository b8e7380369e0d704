#include "nsys/transport/serve.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <asio.hpp>
#include <csignal>
#include <cstdio>
#include <thread>

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

int ServeStdio(asio::io_context& io, core::Workspace& workspace, support::ThreadPool& pool,
               const lsp::ServerOptions& lsp_options, const ServeOptions& options) {
  StopPipe stop;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&stop](const asio::error_code& ec, int signal) {
    if (ec) return;
    support::LogInfo(fmt::format("signal {}: stopping", signal));
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
  // Before the startup line: whoever reads it may signal at once, and must get the clean stop (and the file removed).
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const asio::error_code& ec, int signal) {
    if (ec) return;
    support::LogInfo(fmt::format("signal {}: stopping", signal));
    server.Stop();
    io.stop();
  });
  TokenFile token_file;
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

  if (options.mode == ServeOptions::Mode::kStdio) return ServeStdio(io, workspace, pool, lsp_options, options);
  return ServeNetwork(io, workspace, pool, std::move(lsp_options), options);
}

}  // namespace nsys::transport
