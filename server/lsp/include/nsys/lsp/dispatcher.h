#pragma once
// One client session's JSON-RPC dispatcher: the LSP lifecycle, routing through the bind table, cancellation,
// progress, server→client requests, and exactly one reply per request.
//
// Threads: OnMessage() is called by one reader thread, in arrival order; it never runs request handlers (they go
// to the support::Executor) but does run notification handlers, which are quick bookkeeping ($/cancelRequest, exit).
// Replies and notifications go out through the MessageSink from any thread.
//
// Lifecycle (LSP): before `initialize` only `initialize` and `exit` are bound, so any other request gets -32002
// from the table lookup and other notifications are dropped. After `shutdown`, requests get -32600 "server is
// shutting down". `exit` ends the session with code 0 after shutdown, else 1; an exit without shutdown cancels the
// requests in flight, while after shutdown the transport lets them answer before it closes.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/executor.h"

namespace nsys::lsp {

// Receives each outgoing message body (unframed JSON). Called from any thread: implementations serialise writes.
using MessageSink = std::function<void(std::string body)>;

class DispatcherCore;

class Dispatcher {
 public:
  Dispatcher(core::Workspace& workspace, support::Executor& executor, MessageSink sink, ServerOptions options = {});
  // Cancels this session's running requests; their late replies are dropped.
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // `wire_bytes`: the size of the message's body, counted in running_request_bytes() while a request runs.
  void OnMessage(protocol::Message message, size_t wire_bytes = 0);
  // Sends a response made outside the dispatcher (framing and parse errors, id null).
  void SendResponse(const protocol::Response& response);
  // The client went away: cancel its running requests, fail pending server→client calls, drop later output.
  // Returns how many running requests were cancelled.
  size_t Disconnect();

  // Runs once, on the reader thread, when `exit` arrives, with the exit code (0 after shutdown, else 1).
  void SetExitHandler(std::function<void(int code)> handler);
  std::optional<int> exit_code() const;
  bool shutdown_received() const;
  // Requests accepted and not yet answered (a reply being handed to the sink still counts).
  size_t running_requests() const;
  // The wire bytes of the requests counted by running_requests() (queued ones included).
  size_t running_request_bytes() const;
  // Runs on the worker thread after each request's reply has been handed to the sink: a transport that stopped
  // reading because too much was in flight resumes from here. Must be quick and must not call back into the
  // dispatcher under its own locks.
  void SetRequestDoneHandler(std::function<void()> handler);
  // Cancels every running request (the session goes on).
  void CancelAll();

  Client& client();

 private:
  std::shared_ptr<DispatcherCore> core_;  // shared with the tasks in flight, which may outlive the Dispatcher
};

}  // namespace nsys::lsp
