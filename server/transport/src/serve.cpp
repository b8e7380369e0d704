#include "nsys/transport/serve.h"

#include <fmt/format.h>

#include <asio.hpp>
#include <csignal>
#include <cstdio>
#include <thread>

#include "nsys/core/log.h"
#include "nsys/lsp/executor.h"
#include "nsys/transport/stdio.h"
#include "nsys/transport/tcp.h"

namespace nsys::transport {

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
  if (perfetto_options.cache_dir.empty()) perfetto_options.cache_dir = config.open.cache_dir;
  HttpSideChannel perfetto(io, perfetto_options);  // destroyed before `io`, after the io thread has stopped
  lsp_options.trace_publisher = &perfetto;
  lsp::ThreadPool pool(options.worker_threads > 0 ? options.worker_threads : lsp::DefaultWorkerThreads());

  if (options.mode == ServeOptions::Mode::kStdio) {
    auto guard = asio::make_work_guard(io);
    std::thread io_thread([&io] { io.run(); });
    core::LogInfo(fmt::format("serving LSP on stdio with {} worker threads", pool.size()));
    const int code = RunStdioSession(workspace, pool, lsp_options, options.limits);
    guard.reset();
    io.stop();
    io_thread.join();
    return code;
  }

  TcpServer server(io, workspace, pool, lsp_options, options.limits);
  auto port = server.Listen(options.host, options.port);
  if (!port) {
    core::LogError(port.error().message);
    return 1;
  }
  // Always printed, whatever the log level: scripts and tests read the port from here.
  std::fprintf(stderr, "listening on %s:%u\n", options.host.c_str(), static_cast<unsigned>(*port));
  std::fflush(stderr);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const asio::error_code& ec, int signal) {
    if (ec) return;
    core::LogInfo(fmt::format("signal {}: stopping", signal));
    server.Stop();
    io.stop();
  });
  io.run();
  server.Stop();
  return 0;
}

}  // namespace nsys::transport
