#pragma once
// The LSP session over this process's stdin/stdout. stdout belongs to the protocol only: logs go to stderr.
#include "nsys/core/workspace.h"
#include "nsys/lsp/context.h"
#include "nsys/lsp/executor.h"
#include "nsys/protocol/framing.h"

namespace nsys::transport {

// Reads `in_fd` on the calling thread and writes framed replies to `out_fd` under a mutex. Returns the exit code
// (see Serve()). The descriptors are parameters so tests can use pipes.
int RunStdioSession(core::Workspace& workspace, lsp::Executor& executor, const lsp::ServerOptions& options,
                    const protocol::FramingLimits& limits, int in_fd = 0, int out_fd = 1);

}  // namespace nsys::transport
