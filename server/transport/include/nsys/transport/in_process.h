#pragma once
// A client of this process's own LSP server. The session runs on a thread of its own over two pipes, exactly as an
// editor's runs over stdio (RunStdioSession: the same dispatcher, handlers, limits, lanes and errors), so a request
// sent here gets byte for byte the answer an editor gets. `nsys-ai call METHOD` is its one user: every method of the
// capability catalogue reachable from a shell without a face of its own.
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "nsys/core/workspace.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/framing.h"
#include "nsys/protocol/json_parse.h"
#include "nsys/support/executor.h"
#include "nsys/support/expected.h"

namespace nsys::transport {

// A JSON-RPC response: the result, or the error object's code, message and data.
struct CallReply {
  bool ok = false;
  protocol::Json result;  // ok
  int code = 0;           // !ok: the JSON-RPC error code (-32602 invalid params, -32601 method not found, ...)
  std::string message;    // !ok
  protocol::Json data;    // !ok: the error's data, when the server gave one
};

class InProcessClient {
 public:
  // Starts the session and sends `initialize` (no client capabilities: no progress, no server requests) and
  // `initialized`. An error when the pipes cannot be made or `initialize` is refused.
  static Expected<std::unique_ptr<InProcessClient>> Start(const core::WorkspaceConfig& config,
                                                          const lsp::ServerOptions& options, int worker_threads);
  // Sends `shutdown` and `exit`, and joins the session.
  ~InProcessClient();
  InProcessClient(const InProcessClient&) = delete;
  InProcessClient& operator=(const InProcessClient&) = delete;

  // Sends one request and waits for its response. Notifications the server sends meanwhile (logs, diagnostics) are
  // dropped; a request the server sends is answered with a null result. An error only when the session has gone.
  Expected<CallReply> Request(std::string_view method, const protocol::Json& params);

 private:
  InProcessClient(const core::WorkspaceConfig& config, int worker_threads);
  Status Send(const protocol::Json& message);
  Expected<protocol::Json> NextMessage();

  core::Workspace workspace_;
  support::ThreadPool pool_;
  int to_server_ = -1;    // our write end of the session's input
  int from_server_ = -1;  // our read end of the session's output
  std::thread session_;
  protocol::FrameDecoder decoder_;
  std::deque<std::string> bodies_;  // frames decoded and not yet read
  int next_id_ = 1;
};

// `nsys-ai call`: one request of the capability catalogue, sent by an InProcessClient.
struct CallRequest {
  std::string method;       // a catalogue row's editor method
  std::string params_text;  // a JSON object; empty = {}
  std::string profile;      // a path to open first (nsys/openProfile), its profileId filling the params; may be empty
};
struct CallOutcome {
  bool ok = false;
  std::string result;  // ok: the result, as indented JSON
  int code = 0;        // !ok: the JSON-RPC error's code, and its message with its data
  std::string message;
  std::string method;  // the method that failed: the request's, or nsys/openProfile when FILE did not open
};
// kInvalidArgument when the method is not a catalogue row or the params are not a JSON object (the message says
// which); another error when the session could not run.
Expected<CallOutcome> CallOnce(const core::WorkspaceConfig& config, const CallRequest& request);
// The catalogue's methods, one per line with two spaces before each, for help texts.
std::string CallableMethods();

}  // namespace nsys::transport
