#include "analyze_tools.h"

#include <fmt/format.h>

#include "nsys/protocol/analyze.h"
#include "nsys/protocol/mcp.h"
#include "nsys/wire/analyze.h"

namespace nsys::mcp {

namespace {

using protocol::Json;

ToolResult Analyze(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::AnalyzeArgs>(arguments, "analyze");
  if (!args) return {fmt::format("Invalid arguments for analyze: {}", args.error().message), true};
  protocol::AnalyzeParams params;
  params.profile_id = args->profile_id;
  if (args->start || args->end || args->clock) {
    params.window =
        protocol::Window{args->start, args->end, args->clock.value_or(protocol::WindowClock::kRelativeSeconds)};
  }
  auto analysis = workspace.Analyze(params.profile_id, wire::ToAnalyzeOptions(params), {}, cancel);
  if (!analysis) return {analysis.error().message, true};
  Json result = wire::ToAnalyzeResult(*analysis);
  result.erase("markdown");  // an agent reads the structured findings; the Markdown would double the text
  return {result.dump(-1, ' ', false, Json::error_handler_t::replace), false};
}

}  // namespace

protocol::Json AnalyzeToolDefinitions() {
  auto number = [](const char* description) { return Json{{"type", "number"}, {"description", description}}; };
  Json schema = {{"type", "object"},
                 {"properties",
                  {{"profile_id", {{"type", "string"}, {"description", "The id open_profile returned (\"p1\")."}}},
                   {"start", number("Start of the window to analyse (seconds from the profile start).")},
                   {"end", number("End of the window (seconds from the profile start).")},
                   {"clock", {{"type", "string"}, {"enum", {"relative_s", "capture_ns"}}}}}},
                 {"additionalProperties", false},
                 {"required", Json::array({"profile_id"})}};
  Json tools = Json::array();
  tools.push_back(
      {{"name", "analyze"},
       {"description",
        "Check an open profile against nsys-ai's Book of Root Causes (launch storms, synchronization, pageable or "
        "synchronous copies, idle GPU, serialized NCCL, stragglers, module loading, allocator pauses, tensor-core use, "
        "iteration outliers, ...). Returns findings ranked by the time at stake, each with severity, evidence rows, "
        "what to do, confidence and a `nsys-ai skill run` command that reproduces it, plus the root causes that "
        "could not be checked on this profile and why."},
       {"inputSchema", std::move(schema)}});
  return tools;
}

bool IsAnalyzeTool(const std::string& name) {
  return name == "analyze";
}

std::optional<ToolResult> RunAnalyzeTool(core::Workspace& workspace, const std::string& name,
                                         const protocol::Json& arguments, const CancelToken& cancel) {
  if (name == "analyze") return Analyze(workspace, arguments, cancel);
  return std::nullopt;
}

}  // namespace nsys::mcp
