#pragma once
// nsys-ai as an MCP (Model Context Protocol) server, so coding agents can open profiles and run skills.
//
// Transport: MCP's stdio transport, one JSON-RPC 2.0 message per line (UTF-8, no Content-Length, no embedded
// newlines), replies on stdout, logs on stderr. Messages are parsed by nsys_protocol's ParseMessage, so malformed
// lines get the same -32700/-32600 errors as the LSP server (JSON-RPC batches included: refused).
//
// Batches: protocol version 2025-03-26 requires JSON-RPC batches (2025-06-18 removed them again), so a JSON array
// line is handled as a batch, answered by an array, only when that version was negotiated; otherwise it is refused
// with -32600 like in the LSP server.
//
// Methods: initialize, notifications/initialized, ping, tools/list, tools/call. Before `initialize`, only
// `initialize` and `ping` are answered; anything else gets -32002.
//
// Concurrency (Serve/Run): the reader thread parses each line and answers the cheap requests itself (initialize,
// ping, tools/list, the list_skills and profile_info tools, every error); open_profile, run_skill and batches run on a
// worker pool, so a slow analysis never delays the next request, and replies may come in any order (each reply is one
// whole line, written and flushed under a lock). So requests are independent: one that needs another's result
// (run_skill after open_profile) is sent after that reply, as agents do. At most kMaxInFlight requests are queued or
// running; one more is refused at once with -32803. A request id that is already in progress is refused with -32600.
// `notifications/cancelled {requestId}` cancels that request's CancelToken (SQLite checks it every 10 000 VM
// steps) and, as the MCP spec asks, no response is sent for it; an unknown or finished id is ignored. At end of input
// the requests in progress finish and are answered, then Serve returns 0. Stop() (SIGTERM/SIGINT in `nsys-ai mcp`)
// cancels them instead, drops their replies, flushes, and Serve returns 0.
//
// Tools (snake_case arguments): open_profile {path, no_cache?}, profile_info {profile_id}, list_skills {},
// run_skill {profile_id, skill, args?}. Results are one text content item holding compact JSON, the same shapes as
// the LSP methods nsys/openProfile, nsys/listSkills (with the common arguments listed) and nsys/runSkill, except that
// the profile's id is `profile_id`, the name every tool input uses. A tool that fails (bad arguments, a missing file,
// a skill error) returns isError: true with the message as text, so the model can correct itself; an unknown tool
// name is a JSON-RPC -32602 error.
// Trace tools (trace_tools.cpp): export_trace {profile_id, window?, devices?, pids?, min_duration_ns?, output?} and
// open_in_perfetto {profile_id, window?}, the results of nsys/exportTrace and nsys/openInPerfetto.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <iosfwd>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"

namespace nsys::support {
class ThreadPool;
}

namespace nsys::mcp {

// The protocol versions this server speaks; the tools subset it uses is the same in all of them. A client asking
// for one of these gets it back; any other request gets the latest (the spec's rule), and the client decides.
const std::vector<std::string>& SupportedProtocolVersions();
inline constexpr std::string_view kLatestProtocolVersion = "2025-06-18";

// Lines longer than this are answered with a parse error without being buffered whole.
inline constexpr size_t kMaxLineBytes = 64u * 1024u * 1024u;
// Requests queued or running on the worker pool at once (a batch counts each of its requests).
inline constexpr size_t kMaxInFlight = 64;
// After Stop(), how long Serve waits for cancelled requests to return before it gives up on them (and RunMcpStdio
// exits without joining them): SIGTERM/SIGINT end the process within 2 s whatever a worker is doing.
inline constexpr std::chrono::seconds kStopGrace{1};

// Where Serve reads lines from.
class LineSource {
 public:
  enum class Status { kLine, kTooLong, kEof, kStopped };
  virtual ~LineSource() = default;
  // The next line without its '\n' (kLine), a line over kMaxLineBytes that was read and dropped (kTooLong), the end
  // of input, or a stop request (kStopped: the process was asked to shut down).
  virtual Status Next(std::string& line) = 0;
  // Whether a stop was requested, waiting at most `wait` for one (used while draining after end of input).
  virtual bool StopRequested(std::chrono::milliseconds wait) = 0;
};

class McpServer {
 public:
  using ReplyFn = std::function<void(std::string line)>;  // thread-safe: called from the reader and the workers

  // worker_threads 0: support::DefaultWorkerThreads(). `publisher` serves open_in_perfetto's traces (nullptr: none).
  explicit McpServer(core::Workspace& workspace, int worker_threads = 0, core::TracePublisher* publisher = nullptr);
  ~McpServer();  // cancels what is in progress and joins the workers

  // Handles one line synchronously, on the caller's thread (tests): returns the reply line (without a newline), or
  // nullopt for notifications, responses and blank lines. A trailing '\r' is ignored. Never throws.
  std::optional<std::string> HandleLine(std::string_view line);

  // Handles one line as Serve does: cheap requests are answered before it returns, slow ones later from a worker.
  void Dispatch(std::string_view line, const ReplyFn& reply);
  // Cancels every request in progress and drops their replies; later requests are refused. Thread-safe.
  void Stop();
  // Waits until no request is in progress (its reply written or dropped); false on timeout.
  bool WaitIdle(std::chrono::milliseconds timeout);

  // Reads lines until end of input or a stop, writing each reply and a newline to `out` (flushed). Returns 0, or 1
  // when `out` fails (the client went away).
  int Serve(LineSource& in, std::ostream& out);
  int Run(std::istream& in, std::ostream& out);  // Serve over a stream (no stop requests)

  bool initialized() const { return initialized_; }
  const std::string& protocol_version() const { return protocol_version_; }  // empty before initialize

 private:
  struct InFlight;  // one admitted request: its token, and whether its reply is still wanted
  using InFlightPtr = std::shared_ptr<InFlight>;

  struct BatchSlot;

  // sync: everything runs on the caller's thread before this returns (HandleLine); else slow requests are posted.
  void Handle(std::string_view line, const ReplyFn& reply, bool sync);
  void HandleBatch(std::string_view line, const ReplyFn& reply, bool sync);
  void HandleNotification(const protocol::Notification& notification);
  void Cancel(const protocol::Json& params);  // notifications/cancelled
  void Post(std::function<void()> job);       // on the pool, counted in tasks_
  bool RunsOnWorker(const protocol::Request& request) const;
  // Registers a request for the pool; an error response when it cannot be admitted (in use, too many, stopping).
  std::optional<protocol::Response> Admit(const protocol::Request& request, InFlightPtr& entry);
  // Forgets an admitted request; true when its reply should still be sent.
  bool Finish(const protocol::RequestId& id, const InFlightPtr& entry);

  protocol::Response HandleRequest(const protocol::Request& request, const CancelToken& cancel);
  protocol::Response Initialize(const protocol::Request& request);
  protocol::Json ListTools() const;
  protocol::Response CallTool(const protocol::Request& request, const CancelToken& cancel);

  core::Workspace& workspace_;
  core::TracePublisher* publisher_ = nullptr;
  std::atomic<bool> initialized_{false};
  std::string protocol_version_;  // written once, by initialize on the reader thread, before any worker reads it
  std::string client_name_;

  std::mutex mu_;
  std::condition_variable idle_cv_;
  std::map<protocol::RequestId, InFlightPtr> in_flight_;  // admitted requests by id
  size_t tasks_ = 0;                                      // jobs posted and not yet finished
  bool stopping_ = false;
  std::unique_ptr<support::ThreadPool> pool_;  // last: destroyed (joined) first, while what its jobs use still exists
};

// Serves MCP on stdin/stdout with a Workspace built from `config`, until stdin closes or SIGTERM/SIGINT arrives
// (both shut down cleanly: exit status 0). For `nsys-ai mcp`, which passes its loopback side channel as `publisher`.
int RunMcpStdio(const core::WorkspaceConfig& config, core::TracePublisher* publisher = nullptr);

}  // namespace nsys::mcp
