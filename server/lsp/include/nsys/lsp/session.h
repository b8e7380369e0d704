#pragma once
// A client connection without the I/O: bytes in (any split), framed bytes out. The transports (stdio, TCP) feed it;
// the fuzzer and the in-memory tests drive it directly. Framing and parse errors are answered with id null and the
// session keeps serving.
#include <functional>
#include <string>
#include <string_view>

#include "nsys/core/workspace.h"
#include "nsys/lsp/dispatcher.h"
#include "nsys/lsp/executor.h"
#include "nsys/protocol/framing.h"

namespace nsys::lsp {

class Session {
 public:
  // Receives framed bytes (Content-Length header + body). Called from any thread: implementations serialise.
  using Writer = std::function<void(std::string bytes)>;

  Session(core::Workspace& workspace, Executor& executor, Writer write, ServerOptions options = {},
          protocol::FramingLimits limits = {});

  // Reader thread.
  void OnBytes(std::string_view bytes);
  // The peer closed the connection (or the stream ended): cancel this session's work.
  void OnDisconnect();

  Dispatcher& dispatcher() { return dispatcher_; }
  bool has_partial_frame() const { return decoder_.HasPartial(); }

 private:
  protocol::FrameDecoder decoder_;
  Dispatcher dispatcher_;
};

// The JSON-RPC code for a framing error: an oversized header block or body is an invalid request (-32600),
// anything else unparseable (-32700).
int FramingErrorCode(const std::string& error);

}  // namespace nsys::lsp
