#pragma once
// What a method handler sees: the workspace, its request's cancel token and progress, and a channel back to the
// client. Handlers are plain functions (see method_table.h), so a colleague adds a method without touching the
// dispatcher. No asio here.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/lsp/documents.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::core {
class TracePublisher;  // nsys/core/traces.h
}

namespace nsys::lsp {

class MethodTable;
class RequestContext;
class SessionSources;  // nsys/lsp/session_sources.h

// Work a session runs on a worker after a notification or a request has been answered (indexing the sources after
// `initialized`, republishing diagnostics after the active profile changed). It sees a RequestContext whose
// progress reports under `title` (the server creates the token when the client supports it) and whose cancel
// token fires when the session ends.
using BackgroundWork = std::function<void(RequestContext& ctx)>;

// What the client said it supports in `initialize`.
struct ClientFeatures {
  bool work_done_progress = false;  // capabilities.window.workDoneProgress
  bool show_document = false;       // capabilities.window.showDocument.support
  std::string name;                 // clientInfo.name, for logs
  // initializationOptions.logLevel: the least severe window/logMessage this session receives (error → kError,
  // warning → kWarning, info → kInfo, debug → kDebug; default kLog). It never changes the process's own log.
  protocol::MessageType log_messages = protocol::MessageType::kLog;
};

// Per-session settings, fixed once `initialize` has been received.
struct SessionSettings {
  ClientFeatures client;
  bool no_cache = false;  // initializationOptions.noCache: openProfile skips the warm cache unless it says otherwise
  std::string perfetto_origin;  // initializationOptions.perfettoOrigin (checked); empty = the side channel's default
  // initializationOptions.skillTimeoutSeconds: this session's user-skill time budget; empty = the server's.
  std::optional<std::chrono::milliseconds> skill_timeout;
  // initializationOptions.memoryBudget: the byte budget of the jobs this session opens, and of the exports it is
  // the first to open (an export over half of it is paged); 0 = the server's.
  uint64_t memory_budget = 0;
  // initializationOptions.runLauncher: nsys/jobReport runs as a batch task of this command (argv prefix); empty = here.
  // Like nsysPath, accepted only when ServerOptions::allow_client_commands.
  std::vector<std::string> run_launcher;
  std::string nsys_path;  // initializationOptions.nsysPath: converts this session's .nsys-rep; empty = the server's
  // initializationOptions.llm (checked): this session's LLM for nsys/ask; empty = the server's (WorkspaceConfig::llm).
  std::optional<llm::Config> llm;
  // The session's reports and open documents; shared by every request of the session, never null once
  // `initialize` was accepted.
  std::shared_ptr<SessionDocuments> documents;
  // The session's source set, roots and active profile; never null once `initialize` was accepted.
  std::shared_ptr<SessionSources> sources;
};

// Server-wide knobs. Services that handlers need from outside the LSP layer (e.g. the Perfetto HTTP side channel,
// which lives in the transport library) are added here as interface pointers.
struct ServerOptions {
  std::string server_name = "nsys-ai";
  std::string server_version;  // empty = core::Version()
  // runSkill streams rows through $/progress in chunks of this many when the client gave a partialResultToken and
  // the table has more rows than this.
  size_t partial_result_rows = 500;
  // At most one $/progress report per interval (10 per second by default).
  std::chrono::milliseconds progress_interval{100};
  // Without a client token, the server asks the client for one (window/workDoneProgress/create) only when work
  // runs longer than this, so quick requests make no noise.
  std::chrono::milliseconds created_progress_delay{250};
  // The bind table; nullptr = the product table (BindMethods). Tests may pass their own.
  const MethodTable* methods = nullptr;
  // The Perfetto HTTP side channel for nsys/openInPerfetto (transport/http_side_channel.h); nullptr = none.
  core::TracePublisher* trace_publisher = nullptr;
  // Non-empty (TCP): the session's first message must be `initialize` with initializationOptions.token equal to
  // this, else it is answered -32000 and refused (see Session). Empty (stdio): no token.
  std::string auth_token;
  // Whether a client may name a program the server runs (initializationOptions.runLauncher, nsysPath). True over
  // stdio (the parent started the server); `serve --listen`/`--socket` set it false unless started with
  // --allow-client-commands, and such options are then refused with -32602.
  bool allow_client_commands = true;
};

// Server→client messages of one session. Thread-safe; once the client is gone they are dropped.
class Client {
 public:
  using ReplyCallback = std::function<void(Expected<protocol::Json>)>;

  virtual ~Client() = default;
  virtual void Notify(std::string_view method, protocol::Json params) = 0;
  // A server→client request. `on_reply` runs exactly once: with the result, or with an error (the client's error
  // response, or the session ending first). It runs on the reader thread, so it must be quick.
  virtual void Call(std::string_view method, protocol::Json params, ReplyCallback on_reply) = 0;
  virtual ClientFeatures features() const = 0;

  void LogMessage(protocol::MessageType type, std::string message);   // window/logMessage
  void ShowMessage(protocol::MessageType type, std::string message);  // window/showMessage
  // window/showDocument (e.g. {uri: "http://127.0.0.1:PORT/p/TOKEN/", external: true} to open Perfetto).
  // `on_result` gets the client's `success`, or an error when the client does not support showDocument or fails.
  void ShowDocument(const protocol::ShowDocumentParams& params, std::function<void(Expected<bool>)> on_result = {});
};

// One request being handled, on a worker thread.
class RequestContext {
 public:
  struct Parts {
    core::Workspace* workspace = nullptr;
    Client* client = nullptr;
    const ServerOptions* options = nullptr;
    const MethodTable* methods = nullptr;
    SessionSettings settings;
    protocol::RequestId id;
    std::string method;
    CancelToken cancel;
    ProgressSink progress;                             // never empty
    std::function<void(protocol::Json)> send_partial;  // empty when the client gave no partialResultToken
    std::function<void(std::string title, BackgroundWork work)> run_in_background;
  };
  explicit RequestContext(Parts parts) : p_(std::move(parts)) {}

  core::Workspace& workspace() const { return *p_.workspace; }
  Client& client() const { return *p_.client; }
  const ServerOptions& options() const { return *p_.options; }
  const MethodTable& methods() const { return *p_.methods; }
  const SessionSettings& settings() const { return p_.settings; }
  const protocol::RequestId& id() const { return p_.id; }
  const std::string& method() const { return p_.method; }
  // Observed by the dispatcher too: a request whose token is cancelled when it finishes replies -32800.
  const CancelToken& cancel() const { return p_.cancel; }
  // $/progress begin/report/end on the request's workDoneToken (or one the server created), rate-limited.
  // A no-op when there is nowhere to report. Thread-safe, cheap.
  const ProgressSink& progress() const { return p_.progress; }
  // Partial results ($/progress on the request's partialResultToken).
  bool wants_partial_results() const { return static_cast<bool>(p_.send_partial); }
  void SendPartialResult(protocol::Json value) const {
    if (p_.send_partial) p_.send_partial(std::move(value));
  }
  // Queues `work` on this session's worker queue, to run after this request (BackgroundWork).
  void RunInBackground(std::string title, BackgroundWork work) const {
    if (p_.run_in_background) p_.run_in_background(std::move(title), std::move(work));
  }

 private:
  Parts p_;
};

// What a notification handler may do. Notification handlers run on the reader thread, in arrival order (a
// $/cancelRequest must take effect before the next message is read), so they must be quick.
class NotificationContext {
 public:
  virtual ~NotificationContext() = default;
  virtual void CancelRequest(const protocol::RequestId& id) = 0;  // ignored for unknown and finished ids
  virtual void CancelWorkDoneProgress(const protocol::ProgressToken& token) = 0;  // cancels the request it reports on
  virtual void Exit() = 0;
  virtual core::Workspace& workspace() = 0;
  virtual Client& client() = 0;
  virtual SessionDocuments& documents() = 0;  // textDocument/did* keep documents here
  virtual SessionSources* sources() = 0;      // nullptr before `initialize`
  virtual void RunInBackground(std::string title, BackgroundWork work) = 0;
};

}  // namespace nsys::lsp
