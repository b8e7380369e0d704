#include "nsys/mcp/mcp_server.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <utility>
#include <variant>

#include "line_sources.h"
#include "nsys/core/version.h"
#include "nsys/protocol/mcp.h"
#include "nsys/support/executor.h"
#include "nsys/support/log.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/converters.h"
#include "tool_table.h"

namespace nsys::mcp {
namespace {

using protocol::Json;
using protocol::MakeError;
using protocol::MakeResult;
using Clock = std::chrono::steady_clock;

constexpr const char* kInstructions =
    "nsys-ai analyses NVIDIA Nsight Systems profiles (.sqlite exports, .nsys-rep and .qdrep reports) read-only, "
    "with NVIDIA's own metric "
    "definitions. Call open_profile with a path, then run_skill with the returned profile_id; list_skills describes "
    "every analysis and its arguments. Times are nanoseconds unless a column name says otherwise.";

bool IsBlank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Writes whole reply lines, one writer at a time, and remembers a failed stream.
class LineWriter {
 public:
  explicit LineWriter(std::ostream& out) : out_(out) {}
  void Write(const std::string& line) {
    std::lock_guard lock(mu_);
    if (failed_) return;
    out_ << line << '\n';
    out_.flush();
    if (!out_) {
      failed_ = true;
      support::LogError("mcp: could not write to the client; stopping");
    }
  }
  bool failed() {
    std::lock_guard lock(mu_);
    return failed_;
  }

 private:
  std::mutex mu_;
  std::ostream& out_;
  bool failed_ = false;
};

std::string LineTooLongError() {
  return protocol::Serialize(
      MakeError({}, protocol::kParseError, fmt::format("message line longer than {} bytes", kMaxLineBytes)));
}

// The one MCP revision with JSON-RPC batching.
constexpr std::string_view kBatchProtocolVersion = "2025-03-26";

std::string BatchRefusal(const std::string& version) {
  if (version.empty()) return "a batch is refused before initialize: send one message per line";
  return fmt::format(
      "batches are not part of MCP protocol {} (only {} has JSON-RPC batches): send one message per line", version,
      kBatchProtocolVersion);
}

// The first non-blank character of a line says whether it is a JSON array (a batch).
bool LooksLikeBatch(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line[first] == '[';
}

}  // namespace

struct McpServer::InFlight {
  CancelToken cancel;
  bool cancelled = false;  // by notifications/cancelled or Stop(): no reply is sent
  Clock::time_point start = Clock::now();
};

const std::vector<std::string>& SupportedProtocolVersions() {
  static const std::vector<std::string> versions = {"2024-11-05", "2025-03-26", std::string(kLatestProtocolVersion)};
  return versions;
}

McpServer::McpServer(core::Workspace& workspace, int worker_threads, core::TracePublisher* publisher)
    : workspace_(workspace),
      publisher_(publisher),
      pool_(std::make_unique<support::ThreadPool>(worker_threads > 0 ? worker_threads
                                                                     : support::DefaultWorkerThreads())) {}

McpServer::~McpServer() {
  Stop();
  pool_.reset();  // the queued jobs see their cancelled tokens and return at once; then the workers are joined
}

std::optional<std::string> McpServer::HandleLine(std::string_view line) {
  std::optional<std::string> reply;
  Handle(
      line, [&reply](std::string text) { reply = std::move(text); }, /*sync=*/true);
  return reply;
}

void McpServer::Dispatch(std::string_view line, const ReplyFn& reply) {
  Handle(line, reply, /*sync=*/false);
}

void McpServer::Handle(std::string_view line, const ReplyFn& reply, bool sync) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (IsBlank(line)) return;
  try {
    if (LooksLikeBatch(line)) {
      // JSON-RPC batches exist in MCP 2025-03-26 only (2025-06-18 removed them, 2024-11-05 never had them). Text
      // that is not JSON is still a parse error (-32700), as any other line's.
      if (protocol_version_ == kBatchProtocolVersion) return HandleBatch(line, reply, sync);
      const protocol::ParsedJson text = protocol::ParseJsonText(line);
      const int code = text.error.empty() ? protocol::kInvalidRequest : protocol::kParseError;
      const std::string message = text.error.empty() ? BatchRefusal(protocol_version_) : text.error;
      return reply(protocol::Serialize(MakeError({}, code, message)));
    }
    protocol::ParseResult parsed = protocol::ParseMessage(line);
    if (parsed.error) {
      support::LogWarn("mcp: refused a message: " + parsed.error->error->message);
      return reply(protocol::Serialize(*parsed.error));
    }
    if (const auto* request = std::get_if<protocol::Request>(&*parsed.message)) {
      if (sync || !RunsOnWorker(*request)) return reply(protocol::Serialize(HandleRequest(*request, CancelToken())));
      InFlightPtr entry;
      if (auto refused = Admit(*request, entry)) return reply(protocol::Serialize(*refused));
      Post([this, admitted = *request, entry, reply] {
        std::optional<protocol::Response> response;
        if (!entry->cancel.cancelled()) response = HandleRequest(admitted, entry->cancel);
        if (Finish(admitted.id, entry) && response) reply(protocol::Serialize(*response));
      });
      return;
    }
    if (const auto* notification = std::get_if<protocol::Notification>(&*parsed.message)) {
      return HandleNotification(*notification);
    }
    support::LogDebug("mcp: ignoring a response (this server sends no requests)");
  } catch (const std::exception& e) {  // a bug: still answer, and keep serving
    support::LogError(std::string("mcp: internal error: ") + e.what());
    reply(protocol::Serialize(MakeError({}, protocol::kInternalError, std::string("internal error: ") + e.what())));
  }
}

// One element of a batch: its reply when known at once (an error, or any reply in sync mode), or the admitted
// request a worker still has to run.
struct McpServer::BatchSlot {
  std::optional<std::string> reply;
  std::optional<protocol::Request> request;
  InFlightPtr entry;
};

void McpServer::HandleBatch(std::string_view line, const ReplyFn& reply, bool sync) {
  const auto refuse = [&reply](int code, const std::string& message) {
    reply(protocol::Serialize(MakeError({}, code, message)));
  };
  protocol::ParsedJson text = protocol::ParseJsonText(line);
  if (!text.error.empty()) return refuse(protocol::kParseError, text.error);
  if (!text.value.is_array()) return refuse(protocol::kInvalidRequest, "expected a batch");
  if (!text.duplicate.empty()) return refuse(protocol::kInvalidRequest, "duplicate member '" + text.duplicate + "'");
  if (text.value.empty()) return refuse(protocol::kInvalidRequest, "empty batch");

  auto slots = std::make_shared<std::vector<BatchSlot>>();
  bool posted = false;
  for (const auto& element : text.value) {
    BatchSlot& slot = slots->emplace_back();
    if (element.is_array()) {
      slot.reply = protocol::Serialize(MakeError({}, protocol::kInvalidRequest, "nested batches are not allowed"));
      continue;
    }
    protocol::ParseResult parsed = protocol::ParseMessage(element.dump(-1, ' ', false, Json::error_handler_t::replace));
    if (parsed.error) {
      slot.reply = protocol::Serialize(*parsed.error);
    } else if (const auto* request = std::get_if<protocol::Request>(&*parsed.message)) {
      if (sync) {
        slot.reply = protocol::Serialize(HandleRequest(*request, CancelToken()));
      } else if (auto refused = Admit(*request, slot.entry)) {
        slot.reply = protocol::Serialize(*refused);
      } else {
        slot.request = *request;
        posted = true;
      }
    } else if (const auto* notification = std::get_if<protocol::Notification>(&*parsed.message)) {
      HandleNotification(*notification);
    }
  }
  // The admitted requests run in order on one worker; the batch is answered by one array of what is left to say.
  auto finish = [this, slots, reply] {
    std::string replies;
    for (auto& slot : *slots) {
      if (slot.request) {
        std::optional<protocol::Response> response;
        if (!slot.entry->cancel.cancelled()) response = HandleRequest(*slot.request, slot.entry->cancel);
        if (Finish(slot.request->id, slot.entry) && response) slot.reply = protocol::Serialize(*response);
      }
      if (slot.reply) replies += (replies.empty() ? "" : ",") + *slot.reply;
    }
    if (!replies.empty()) reply("[" + replies + "]");  // only notifications (or cancelled requests): no reply
  };
  if (posted) {
    Post(std::move(finish));
  } else {
    finish();
  }
}

void McpServer::HandleNotification(const protocol::Notification& notification) {
  if (notification.method == "notifications/initialized") {
    support::LogDebug("mcp: client reports initialized");
  } else if (notification.method == "notifications/cancelled") {
    Cancel(notification.params);
  } else {
    support::LogDebug("mcp: ignoring notification " + notification.method);
  }
}

void McpServer::Cancel(const Json& params) {
  // The spec: a malformed cancellation, or one for an unknown or finished request, is ignored.
  const auto id_it = params.is_object() ? params.find("requestId") : params.end();
  protocol::RequestId id;
  if (params.is_object() && id_it != params.end() && id_it->is_number_integer() &&
      (!id_it->is_number_unsigned() || id_it->get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX))) {
    id = id_it->get<int64_t>();
  } else if (params.is_object() && id_it != params.end() && id_it->is_string()) {
    id = id_it->get<std::string>();
  } else {
    support::LogDebug("mcp: ignoring notifications/cancelled without an integer or string requestId");
    return;
  }
  std::string reason;
  if (const auto it = params.find("reason"); it != params.end() && it->is_string()) reason = it->get<std::string>();

  std::lock_guard lock(mu_);
  const auto found = in_flight_.find(id);
  if (found == in_flight_.end()) {
    support::LogDebug(fmt::format("mcp: ignoring notifications/cancelled for {}: no such request in progress",
                                  protocol::IdToString(id)));
    return;
  }
  found->second->cancelled = true;
  found->second->cancel.cancel();
  support::LogInfo(
      fmt::format("mcp: cancelling request {}{}", protocol::IdToString(id), reason.empty() ? "" : " (" + reason + ")"));
}

bool McpServer::RunsOnWorker(const protocol::Request& request) const {
  if (!initialized_ || request.method != "tools/call" || !request.params.is_object()) return false;
  const auto name = request.params.find("name");
  return name != request.params.end() && name->is_string() && !Tools().IsCheap(name->get<std::string>());
}

std::optional<protocol::Response> McpServer::Admit(const protocol::Request& request, InFlightPtr& entry) {
  std::lock_guard lock(mu_);
  if (stopping_) return MakeError(request.id, protocol::kRequestFailed, "the server is shutting down");
  if (in_flight_.count(request.id)) {
    return MakeError(
        request.id, protocol::kInvalidRequest,
        fmt::format("request id {} is already used by a request in progress", protocol::IdToString(request.id)));
  }
  if (in_flight_.size() >= kMaxInFlight) {
    return MakeError(
        request.id, protocol::kRequestFailed,
        fmt::format("too many requests in progress (the limit is {}); wait for replies or cancel some", kMaxInFlight));
  }
  entry = std::make_shared<InFlight>();
  in_flight_.emplace(request.id, entry);
  return std::nullopt;
}

bool McpServer::Finish(const protocol::RequestId& id, const InFlightPtr& entry) {
  std::lock_guard lock(mu_);
  if (const auto it = in_flight_.find(id); it != in_flight_.end() && it->second == entry) in_flight_.erase(it);
  if (!entry->cancelled) return true;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - entry->start).count();
  support::LogInfo(
      fmt::format("mcp: request {} was cancelled; stopped after {} ms, no reply sent", protocol::IdToString(id), ms));
  return false;
}

void McpServer::Post(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    ++tasks_;
  }
  pool_->Post([this, job = std::move(job)] {
    // Counted down even when the job throws (the pool logs it): Serve's drain must not wait forever.
    struct Done {
      McpServer* server;
      ~Done() {
        std::lock_guard lock(server->mu_);
        if (--server->tasks_ == 0) server->idle_cv_.notify_all();
      }
    } done{this};
    job();
  });
}

void McpServer::Stop() {
  std::lock_guard lock(mu_);
  stopping_ = true;
  for (auto& [id, entry] : in_flight_) {
    entry->cancelled = true;
    entry->cancel.cancel();
  }
}

bool McpServer::WaitIdle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return idle_cv_.wait_for(lock, timeout, [this] { return tasks_ == 0; });
}

protocol::Response McpServer::HandleRequest(const protocol::Request& request, const CancelToken& cancel) {
  const std::string& method = request.method;
  try {
    if (method == "initialize") return Initialize(request);
    if (method == "ping") return MakeResult(request.id, Json::object());
    if (!initialized_) {
      return MakeError(request.id, protocol::kServerNotInitialized,
                       fmt::format("server not initialized: send initialize before {}", method));
    }
    if (method == "tools/list") return MakeResult(request.id, {{"tools", ListTools()}});
    if (method == "tools/call") return CallTool(request, cancel);
    return MakeError(request.id, protocol::kMethodNotFound, "method not found: " + method);
  } catch (const std::exception& e) {
    support::LogError(fmt::format("mcp: internal error in {}: {}", method, e.what()));
    return MakeError(request.id, protocol::kInternalError, fmt::format("internal error in {}: {}", method, e.what()));
  }
}
protocol::Response McpServer::Initialize(const protocol::Request& request) {
  if (initialized_) return MakeError(request.id, protocol::kInvalidRequest, "initialize may only be sent once");
  auto params = protocol::Parse<protocol::mcp::InitializeParams>(request.params);
  if (!params) return MakeError(request.id, wire::ErrorCodeFor(params.error().kind), params.error().message);
  const std::string& requested = params->protocol_version;
  if (params->client_name) client_name_ = *params->client_name;
  const auto& supported = SupportedProtocolVersions();
  const bool known = std::find(supported.begin(), supported.end(), requested) != supported.end();
  const std::string version = known ? requested : std::string(kLatestProtocolVersion);
  initialized_ = true;
  protocol_version_ = version;
  support::LogInfo(fmt::format("mcp: initialized by {} (asked for protocol {}, using {})",
                               client_name_.empty() ? "an unnamed client" : client_name_, requested, version));
  return MakeResult(request.id, {{"protocolVersion", version},
                                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                 {"serverInfo", {{"name", "nsys-ai"}, {"version", std::string(core::Version())}}},
                                 {"instructions", kInstructions}});
}

protocol::Json McpServer::ListTools() const {
  return Tools().Definitions(workspace_);
}

protocol::Response McpServer::CallTool(const protocol::Request& request, const CancelToken& cancel) {
  auto params = protocol::Parse<protocol::mcp::CallToolParams>(request.params);
  if (!params) return MakeError(request.id, wire::ErrorCodeFor(params.error().kind), params.error().message);
  const std::string& name = params->name;
  ToolContext ctx{workspace_, publisher_, cancel, ""};
  std::optional<ToolResult> result = Tools().Call(name, params->arguments, ctx);
  if (!result) {
    std::string names;
    for (const auto& tool : Tools().Names()) names += (names.empty() ? "" : ", ") + tool;
    return MakeError(request.id, protocol::kInvalidParams, fmt::format("unknown tool: {} (tools: {})", name, names));
  }
  if (result->is_error) {
    result->text = support::QuoteInput(result->text, support::kErrorMessageBytes);  // bounded, whatever it quoted
    support::LogInfo(fmt::format("mcp: tool {} failed: {}", name, result->text));
  }
  return MakeResult(request.id, {{"content", Json::array({{{"type", "text"}, {"text", std::move(result->text)}}})},
                                 {"isError", result->is_error}});
}

int McpServer::Serve(LineSource& in, std::ostream& out) {
  // Shared with the jobs: a reply may be written by a worker while this function is already draining.
  auto writer = std::make_shared<LineWriter>(out);
  const ReplyFn reply = [writer](std::string line) { writer->Write(line); };
  std::string line;
  LineSource::Status status = LineSource::Status::kLine;
  while (!writer->failed()) {
    status = in.Next(line);
    if (status == LineSource::Status::kEof || status == LineSource::Status::kStopped) break;
    if (status == LineSource::Status::kTooLong) {
      reply(LineTooLongError());
    } else {
      Dispatch(line, reply);
    }
  }
  if (status == LineSource::Status::kEof) {
    // A client that closes its end after sending still gets every answer, unless it asks us to stop meanwhile.
    while (!WaitIdle(std::chrono::milliseconds(50))) {
      if (in.StopRequested(std::chrono::milliseconds(0))) {
        status = LineSource::Status::kStopped;
        break;
      }
    }
  }
  if (status != LineSource::Status::kEof || writer->failed()) {
    Stop();
    if (!WaitIdle(kStopGrace)) {
      support::LogError(fmt::format("mcp: requests still running {} s after the shutdown began", kStopGrace.count()));
    }
  }
  support::LogInfo(status == LineSource::Status::kEof ? "mcp: end of input; exiting" : "mcp: shut down; exiting");
  return writer->failed() ? 1 : 0;
}

int McpServer::Run(std::istream& in, std::ostream& out) {
  StreamLineSource source(in);
  return Serve(source, out);
}

int RunMcpStdio(const core::WorkspaceConfig& config, core::TracePublisher* publisher) {
  // A client that exits mid-reply must not kill us with SIGPIPE: the failed write is reported and we stop.
  std::signal(SIGPIPE, SIG_IGN);
  const ShutdownSignals signals;  // before the workspace and the workers start their threads
  core::Workspace workspace(config);
  McpServer server(workspace, 0, publisher);
  support::LogInfo("mcp: serving the Model Context Protocol on stdin/stdout");
  FdLineSource in(STDIN_FILENO, signals.fd());
  const int status = server.Serve(in, std::cout);
  std::cout.flush();
  if (!server.WaitIdle(std::chrono::milliseconds(0))) {
    // Work that ignores its CancelToken would hold the workers' join (and the exit) forever: leave without it.
    support::LogError("mcp: exiting without waiting for the requests that did not stop");
    std::_Exit(status);
  }
  return status;
}

}  // namespace nsys::mcp
