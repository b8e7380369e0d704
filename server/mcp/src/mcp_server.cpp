#include "nsys/mcp/mcp_server.h"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <utility>

#include "nsys/core/log.h"
#include "tools.h"

namespace nsys::mcp {
namespace {

using protocol::Json;
using protocol::MakeError;
using protocol::MakeResult;

constexpr const char* kInstructions =
    "nsys-ai analyses NVIDIA Nsight Systems profiles (.sqlite exports) read-only, with NVIDIA's own metric "
    "definitions. Call open_profile with a path, then run_skill with the returned profile_id; list_skills describes "
    "every analysis and its arguments. Times are nanoseconds unless a column name says otherwise.";

bool IsBlank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Reads one '\n'-terminated line, keeping at most `limit` bytes of it (the rest is read and dropped, so an endless
// line costs no memory). Returns false at EOF when nothing was read.
bool ReadLine(std::istream& in, std::string& line, size_t limit, bool& too_long) {
  line.clear();
  too_long = false;
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  while (true) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (line.size() < limit) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;
    }
  }
}

// Field checks for the few MCP params we read; the message names the field by its path.
std::optional<std::string> ReadString(const Json& params, const char* key, std::string& out, bool required) {
  const auto it = params.find(key);
  if (it == params.end() || it->is_null()) {
    if (required) return fmt::format("params.{}: missing required field", key);
    return std::nullopt;
  }
  if (!it->is_string()) return fmt::format("params.{}: expected a string", key);
  out = it->get<std::string>();
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& SupportedProtocolVersions() {
  static const std::vector<std::string> versions = {"2024-11-05", "2025-03-26", std::string(kLatestProtocolVersion)};
  return versions;
}

McpServer::McpServer(core::Workspace& workspace) : workspace_(workspace) {}

std::optional<std::string> McpServer::HandleLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (IsBlank(line)) return std::nullopt;
  try {
    if (protocol_version_ == "2025-03-26" && line.find_first_not_of(" \t") != std::string_view::npos &&
        line[line.find_first_not_of(" \t")] == '[') {
      return HandleBatch(line);
    }
    protocol::ParseResult parsed = protocol::ParseMessage(line);
    if (parsed.error) {
      core::LogWarn("mcp: refused a message: " + parsed.error->error->message);
      return protocol::Serialize(*parsed.error);
    }
    if (const auto* request = std::get_if<protocol::Request>(&*parsed.message)) {
      return protocol::Serialize(HandleRequest(*request));
    }
    if (const auto* notification = std::get_if<protocol::Notification>(&*parsed.message)) {
      if (notification->method == "notifications/initialized") {
        core::LogDebug("mcp: client reports initialized");
      } else if (notification->method == "notifications/cancelled") {
        // Requests run one at a time and are answered before the next line is read: nothing is in flight.
        core::LogDebug("mcp: ignoring notifications/cancelled (requests are handled synchronously)");
      } else {
        core::LogDebug("mcp: ignoring notification " + notification->method);
      }
      return std::nullopt;
    }
    core::LogDebug("mcp: ignoring a response (this server sends no requests)");
    return std::nullopt;
  } catch (const std::exception& e) {  // a bug: still answer, and keep serving
    core::LogError(std::string("mcp: internal error: ") + e.what());
    return protocol::Serialize(MakeError({}, protocol::kInternalError, std::string("internal error: ") + e.what()));
  }
}

std::optional<std::string> McpServer::HandleBatch(std::string_view line) {
  // ParseMessage checks UTF-8, nesting and syntax; an array that passes those is refused only for being a batch.
  protocol::ParseResult parsed = protocol::ParseMessage(line);
  if (!parsed.error || parsed.error->error->code != protocol::kInvalidRequest) {
    return protocol::Serialize(parsed.error ? *parsed.error
                                            : MakeError({}, protocol::kInvalidRequest, "expected a batch"));
  }
  const Json batch = Json::parse(line);
  if (batch.empty()) return protocol::Serialize(MakeError({}, protocol::kInvalidRequest, "empty batch"));
  std::string replies;
  for (const auto& message : batch) {
    // Each element is one message; a nested array is refused by ParseMessage as an invalid request.
    const std::optional<std::string> reply =
        message.is_array()
            ? protocol::Serialize(MakeError({}, protocol::kInvalidRequest, "nested batches are not allowed"))
            : HandleLine(message.dump(-1, ' ', false, Json::error_handler_t::replace));
    if (reply) replies += (replies.empty() ? "" : ",") + *reply;
  }
  if (replies.empty()) return std::nullopt;  // only notifications: nothing to answer
  return "[" + replies + "]";
}

protocol::Response McpServer::HandleRequest(const protocol::Request& request) {
  const std::string& method = request.method;
  try {
    if (method == "initialize") return Initialize(request);
    if (method == "ping") return MakeResult(request.id, Json::object());
    if (!initialized_) {
      return MakeError(request.id, protocol::kServerNotInitialized,
                       fmt::format("server not initialized: send initialize before {}", method));
    }
    if (method == "tools/list") return MakeResult(request.id, {{"tools", ListTools()}});
    if (method == "tools/call") return CallTool(request);
    return MakeError(request.id, protocol::kMethodNotFound, "method not found: " + method);
  } catch (const std::exception& e) {
    core::LogError(fmt::format("mcp: internal error in {}: {}", method, e.what()));
    return MakeError(request.id, protocol::kInternalError, fmt::format("internal error in {}: {}", method, e.what()));
  }
}

protocol::Response McpServer::Initialize(const protocol::Request& request) {
  if (initialized_) return MakeError(request.id, protocol::kInvalidRequest, "initialize may only be sent once");
  const Json& params = request.params;
  if (!params.is_object()) return MakeError(request.id, protocol::kInvalidParams, "params: expected an object");
  std::string requested;
  if (auto error = ReadString(params, "protocolVersion", requested, true)) {
    return MakeError(request.id, protocol::kInvalidParams, *error);
  }
  if (const auto it = params.find("clientInfo"); it != params.end() && it->is_object()) {
    if (const auto name = it->find("name"); name != it->end() && name->is_string())
      client_name_ = name->get<std::string>();
  }
  const auto& supported = SupportedProtocolVersions();
  const bool known = std::find(supported.begin(), supported.end(), requested) != supported.end();
  const std::string version = known ? requested : std::string(kLatestProtocolVersion);
  initialized_ = true;
  protocol_version_ = version;
  core::LogInfo(fmt::format("mcp: initialized by {} (asked for protocol {}, using {})",
                            client_name_.empty() ? "an unnamed client" : client_name_, requested, version));
  return MakeResult(request.id, {{"protocolVersion", version},
                                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                 {"serverInfo", {{"name", "nsys-ai"}, {"version", std::string(core::Version())}}},
                                 {"instructions", kInstructions}});
}

protocol::Json McpServer::ListTools() const {
  return ToolDefinitions(workspace_);
}

protocol::Response McpServer::CallTool(const protocol::Request& request) {
  const Json& params = request.params;
  if (!params.is_object()) return MakeError(request.id, protocol::kInvalidParams, "params: expected an object");
  std::string name;
  if (auto error = ReadString(params, "name", name, true)) {
    return MakeError(request.id, protocol::kInvalidParams, *error);
  }
  const auto arguments_it = params.find("arguments");
  const Json arguments = arguments_it == params.end() ? Json() : *arguments_it;
  std::optional<ToolResult> result = RunTool(workspace_, name, arguments);
  if (!result) {
    std::string names;
    for (const auto& tool : ToolDefinitions(workspace_)) {
      names += (names.empty() ? "" : ", ") + tool["name"].get<std::string>();
    }
    return MakeError(request.id, protocol::kInvalidParams, fmt::format("unknown tool: {} (tools: {})", name, names));
  }
  if (result->is_error) core::LogInfo(fmt::format("mcp: tool {} failed: {}", name, result->text));
  return MakeResult(request.id, {{"content", Json::array({{{"type", "text"}, {"text", std::move(result->text)}}})},
                                 {"isError", result->is_error}});
}

int McpServer::Run(std::istream& in, std::ostream& out) {
  std::string line;
  bool too_long = false;
  while (ReadLine(in, line, kMaxLineBytes, too_long)) {
    std::optional<std::string> reply;
    if (too_long) {
      reply = protocol::Serialize(
          MakeError({}, protocol::kParseError, fmt::format("message line longer than {} bytes", kMaxLineBytes)));
    } else {
      reply = HandleLine(line);
    }
    if (!reply) continue;
    out << *reply << '\n';
    out.flush();
    if (!out) {
      core::LogError("mcp: could not write to the client; stopping");
      return 1;
    }
  }
  core::LogInfo("mcp: end of input; exiting");
  return 0;
}

int RunMcpStdio(const core::WorkspaceConfig& config) {
  // A client that exits mid-reply must not kill us with SIGPIPE: the failed write is reported and we stop.
  std::signal(SIGPIPE, SIG_IGN);
  core::Workspace workspace(config);
  McpServer server(workspace);
  core::LogInfo("mcp: serving the Model Context Protocol on stdin/stdout");
  return server.Run(std::cin, std::cout);
}

}  // namespace nsys::mcp
