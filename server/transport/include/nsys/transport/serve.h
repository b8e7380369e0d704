#pragma once
// `nsys-ai serve`: the LSP server over stdio or TCP. One asio io_context thread (TCP sockets, and side channels
// such as the Perfetto HTTP server) plus a worker pool for handlers; one Workspace shared by every session.
#include <cstdint>
#include <functional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/framing.h"
#include "nsys/transport/http_side_channel.h"
#include "nsys/transport/tcp.h"

namespace nsys::transport {

struct ServeOptions {
  enum class Mode { kStdio, kTcp, kUnix };  // kUnix: the Unix socket only
  Mode mode = Mode::kStdio;
  std::string host = "127.0.0.1";  // kTcp
  uint16_t port = 0;               // kTcp; 0 picks a free port, reported as "listening on HOST:PORT" on stderr
  int worker_threads = 0;          // 0 = support::DefaultWorkerThreads()
  lsp::ServerOptions lsp;
  HttpSideChannelOptions perfetto;  // the Perfetto side channel of nsys/openInPerfetto (binds on first use)
  protocol::FramingLimits limits;
  TcpLimits tcp;            // kTcp
  std::string token_file;   // kTcp; empty = DefaultTokenPath(port)
  std::string socket_path;  // kTcp or kUnix: also serve this Unix socket ("listening on unix:PATH" on stderr)
};

// Runs until `exit` (stdio), the end of stdin (stdio), or SIGINT/SIGTERM (both). Returns the process exit code:
// stdio follows LSP (0 when shutdown came before exit or the end of input, else 1); a signal gives 0; TCP returns 1
// when it cannot listen or write its token file.
//
// TCP prints "listening on HOST:PORT (token in PATH)" on stderr once the token file is written; the file is
// removed when the server stops on a signal.
int Serve(const core::WorkspaceConfig& config, const ServeOptions& options);

}  // namespace nsys::transport
