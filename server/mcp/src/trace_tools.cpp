#include "trace_tools.h"

#include <fmt/format.h>

#include <vector>

#include "nsys/core/traces.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/trace.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

// The editor methods' argument names, in the snake_case every MCP tool uses, and their protocol spelling.
struct ArgName {
  const char* mcp;
  const char* protocol;
};
constexpr ArgName kExportArgs[] = {
    {"profile_id", "profileId"},          {"window", "window"}, {"devices", "devices"}, {"pids", "pids"},
    {"min_duration_ns", "minDurationNs"}, {"output", "output"}};
constexpr ArgName kOpenArgs[] = {
    {"profile_id", "profileId"}, {"window", "window"}, {"run_id", "runId"}, {"ranks_per_node", "ranksPerNode"}};

// A message in the tool's terms: "params.ranksPerNode" -> "arguments.ranks_per_node", "arguments.minDurationNs" ->
// "arguments.min_duration_ns" (the protocol reader's and the wire conversions' messages name the protocol fields).
template <size_t N>
Error InToolTerms(Error error, const ArgName (&names)[N]) {
  auto replace_all = [&error](const std::string& from, const std::string& to) {
    for (size_t at = error.message.find(from); at != std::string::npos; at = error.message.find(from, at + to.size()))
      error.message.replace(at, from.size(), to);
  };
  replace_all("params.", "arguments.");
  for (const auto& name : names) replace_all(name.protocol, name.mcp);
  return error;
}

// The tool's arguments as the editor method's params (renamed, then read by the protocol's own reader, so the
// checks are the method's). Unknown arguments are refused, as in every MCP tool.
template <typename Params, size_t N>
Expected<Params> ReadParams(const Json& arguments, const char* tool, const ArgName (&names)[N]) {
  if (!arguments.is_null() && !arguments.is_object())
    return MakeError(ErrorKind::kInvalidArgument, "arguments: expected an object");
  Json params = Json::object();
  std::string valid;
  for (const auto& name : names) valid += fmt::format("{}{}", valid.empty() ? "" : ", ", name.mcp);
  if (arguments.is_object()) {
    for (const auto& [key, value] : arguments.items()) {
      const ArgName* found = nullptr;
      for (const auto& name : names) {
        if (key == name.mcp) found = &name;
      }
      if (found == nullptr)
        return MakeError(ErrorKind::kInvalidArgument,
                         fmt::format("unknown argument '{}' for tool {} (valid: {})", key, tool, valid));
      params[found->protocol] = value;
    }
  }
  auto parsed = protocol::Parse<Params>(params, "arguments");
  if (parsed) return parsed;
  return InToolTerms(parsed.error(), names);
}

ToolResult Failed(const char* tool, const Error& error) {
  if (error.kind == ErrorKind::kInvalidArgument)
    return {fmt::format("Invalid arguments for {}: {}", tool, error.message), true};
  return {error.message, true};
}

ToolResult ExportTrace(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto params = ReadParams<protocol::ExportTraceParams>(arguments, "export_trace", kExportArgs);
  if (!params) return Failed("export_trace", params.error());
  auto request = wire::ToTraceRequest(*params);
  if (!request) return Failed("export_trace", request.error());
  if (params->output) request->output = support::PathFromText(*params->output);
  auto trace = workspace.ExportTrace(*request, cancel);
  if (!trace) return {trace.error().message, true};
  return {Dump(Json(wire::ToExportTraceResult(*trace, false))), false};
}

ToolResult OpenInPerfetto(core::Workspace& workspace, core::TracePublisher* publisher, const Json& arguments,
                          const CancelToken& cancel) {
  auto params = ReadParams<protocol::OpenInPerfettoParams>(arguments, "open_in_perfetto", kOpenArgs);
  if (!params) return Failed("open_in_perfetto", params.error());
  if (publisher == nullptr) return {"This server has no Perfetto side channel.", true};
  Expected<core::TracePublication> publication = MakeError(ErrorKind::kInternal, "not published");
  if (params->run_id) {  // a run's trace: every rank on the run's clock, as the editors' openInPerfetto {runId}
    auto request = wire::ToRunTraceRequest(*params);
    if (!request) return Failed("open_in_perfetto", InToolTerms(request.error(), kOpenArgs));
    publication = workspace.PublishRunTrace(std::move(*request), *publisher, "", cancel);
  } else {
    publication = workspace.PublishTrace(wire::ToTraceRequest(*params), *publisher, "", cancel);
  }
  if (!publication) return {publication.error().message, true};
  return {Dump(Json(wire::ToOpenInPerfettoResult(*publication, std::nullopt))), false};
}

Json WindowProperty() {
  Json window = Property("object",
                         "The time window: {start?, end?, clock?}; start/end are seconds from the profile start "
                         "unless clock is \"capture_ns\". Absent: the whole profile.");
  window["properties"] = {{"start", Property("number", "Start of the window.")},
                          {"end", Property("number", "End of the window.")},
                          {"clock", {{"type", "string"}, {"enum", {"relative_s", "capture_ns"}}}}};
  window["additionalProperties"] = false;
  return window;
}

Json IntArray(const std::string& description) {
  Json property = Property("array", description);
  property["items"] = {{"type", "integer"}};
  return property;
}

// Without `required` when nothing is (open_in_perfetto: a profile_id or a run_id), as open_run's schema.
Json Schema(Json properties, Json required = Json::array({"profile_id"})) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

}  // namespace

protocol::Json TraceToolDefinitions() {
  const Json profile_id = Property("string", "The id open_profile returned (\"p1\").");
  Json tools = Json::array();
  tools.push_back(
      {{"name", "export_trace"},
       {"description",
        "Write a native Perfetto trace (protobuf) of an open profile, or of a window of it: GPU work per GPU and "
        "stream, CUDA API calls and NVTX on their threads, launch arrows, utilisation counters. Returns the file's "
        "path, size, sha256 and counts (slices by kind, tracks, flows). Without output, the file goes to the "
        "server's trace cache (bounded; removed when the server stops)."},
       {"inputSchema",
        Schema({{"profile_id", profile_id},
                {"window", WindowProperty()},
                {"devices", IntArray("Only these GPUs (absent: every GPU).")},
                {"pids", IntArray("Only these processes (absent: every process).")},
                {"min_duration_ns", Property("integer", "Leave out slices shorter than this many ns.")},
                {"output", Property("string",
                                    "The trace file to write. An existing file is replaced only when it is a "
                                    "Perfetto trace; never a profile.")}})}});
  tools.push_back(
      {{"name", "open_in_perfetto"},
       {"description",
        "Write the trace of an open profile, or of an open run (run_id: every rank on the run's aligned clock, a "
        "track group per rank), and serve it on a local, token-protected link (127.0.0.1) that hands it to the "
        "Perfetto UI in a browser on this machine (over SSH, forward the port: see sshHint). Give profile_id or "
        "run_id. Returns url, traceUrl, port, expiresAt and the trace's size."},
       {"inputSchema",
        Schema(
            {{"profile_id", profile_id},
             {"window", WindowProperty()},
             {"run_id", Property("string", "The id open_run returned (\"r1\"), instead of profile_id.")},
             {"ranks_per_node", Property("integer",
                                         "With run_id: consecutive ranks that share a node and its clock (absent or 0: "
                                         "each rank its own node).")}},
            Json::array())}});
  return tools;
}

bool IsTraceTool(const std::string& name) {
  return name == "export_trace" || name == "open_in_perfetto";
}

std::optional<ToolResult> RunTraceTool(core::Workspace& workspace, core::TracePublisher* publisher,
                                       const std::string& name, const protocol::Json& arguments,
                                       const CancelToken& cancel) {
  if (name == "export_trace") return ExportTrace(workspace, arguments, cancel);
  if (name == "open_in_perfetto") return OpenInPerfetto(workspace, publisher, arguments, cancel);
  return std::nullopt;
}

}  // namespace nsys::mcp
