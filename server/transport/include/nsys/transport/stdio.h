#pragma once
// The LSP session over this process's stdin/stdout. stdout belongs to the protocol only: logs go to stderr.
#include <cstddef>

#include "nsys/core/workspace.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/framing.h"
#include "nsys/support/executor.h"

namespace nsys::transport {

struct StdioOptions {
  // Reading stdin pauses while this many requests are accepted and not yet answered (a client that writes
  // requests and does not read replies blocks the workers' writes; this keeps the queue behind them bounded).
  size_t max_requests_in_flight = 64;
  // Readable (e.g. a pipe written by a signal handler) = stop: cancel what runs, let it answer briefly, return 0.
  int stop_fd = -1;
  int in_fd = 0;
  int out_fd = 1;
};

// Reads `in_fd` on the calling thread and writes framed replies to `out_fd` under a mutex. Returns the exit code
// (see Serve()). The descriptors are options so tests can use pipes.
int RunStdioSession(core::Workspace& workspace, support::Executor& executor, const lsp::ServerOptions& options,
                    const protocol::FramingLimits& limits, const StdioOptions& stdio = {});

}  // namespace nsys::transport
