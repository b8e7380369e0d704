#pragma once
// A client connection without the I/O: bytes in (any split), framed bytes out. The transports (stdio, TCP) feed it;
// the fuzzer and the in-memory tests drive it directly. Framing and parse errors are answered with id null and the
// session keeps serving.
//
// Authentication (ServerOptions::auth_token non-empty, i.e. TCP): until a valid first message arrives, the session
// reads nothing else. The first message must be an `initialize` request whose initializationOptions.token equals
// the server's token (compared in constant time). Anything else (another method, a notification, a framing or
// parse error, a missing or wrong token) is answered once with -32000 (the request's id, or null), the session
// stops reading, and the refused handler runs so the transport closes the connection.
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "nsys/core/workspace.h"
#include "nsys/lsp/dispatcher.h"
#include "nsys/protocol/framing.h"
#include "nsys/support/executor.h"

namespace nsys::lsp {

class Session {
 public:
  // Receives framed bytes (Content-Length header + body). Called from any thread: implementations serialise.
  using Writer = std::function<void(std::string bytes)>;

  Session(core::Workspace& workspace, support::Executor& executor, Writer write, ServerOptions options = {},
          protocol::FramingLimits limits = {});

  // Reader thread. Decodes the bytes and handles the messages they complete, in order, while the admission check
  // (if any) allows; the rest wait in the session until Pump().
  void OnBytes(std::string_view bytes);
  // Reader thread. Handles waiting messages while the admission check allows.
  void Pump();
  // Messages decoded and not yet handled (held back by the admission check).
  bool has_pending() const { return !pending_.empty(); }
  // Checked before each message is handled: false holds it (and the ones after it) back. The transports use it to
  // keep a connection's requests and replies in flight under their bounds: a 64 KiB read may hold a thousand small
  // requests, and none of them starts while the connection is over a bound. Empty = always allowed.
  void SetAdmission(std::function<bool()> may_handle) { may_handle_ = std::move(may_handle); }
  // The peer closed the connection (or the stream ended): cancel this session's work.
  void OnDisconnect();

  // Runs on the reader thread, once, when the session refuses an unauthenticated client (after the -32000 reply
  // has been handed to the writer).
  void SetRefusedHandler(std::function<void(const std::string& why)> handler) { on_refused_ = std::move(handler); }
  // True once the token was accepted (always true without a token).
  bool authenticated() const { return authenticated_; }
  bool refused() const { return refused_; }

  Dispatcher& dispatcher() { return dispatcher_; }
  bool has_partial_frame() const { return decoder_.HasPartial(); }

 private:
  // The first frame of an authenticated session; true when it may be dispatched.
  bool Admit(const protocol::Frame& frame);
  void Handle(protocol::Frame& frame);
  void Refuse(const protocol::RequestId& id, const std::string& why);

  protocol::FrameDecoder decoder_;
  std::deque<protocol::Frame> pending_;
  std::function<bool()> may_handle_;
  Dispatcher dispatcher_;
  const std::string token_;
  bool authenticated_;
  bool refused_ = false;
  std::function<void(const std::string&)> on_refused_;
};

// The JSON-RPC code for a framing error, from the decoder's typed problem: an oversized header block or body is an
// invalid request (-32600), anything else unparseable (-32700).
int FramingErrorCode(protocol::Frame::Problem problem);

// Equality of two secrets in time that depends only on their lengths (not on where they first differ).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace nsys::lsp
