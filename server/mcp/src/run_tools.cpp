#include "run_tools.h"

#include <fmt/format.h>

#include "nsys/protocol/mcp.h"
#include "nsys/protocol/run.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/analyze.h"
#include "nsys/wire/run.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

ToolResult Invalid(const std::string& tool, const Error& error) {
  return {fmt::format("Invalid arguments for {}: {}", tool, error.message), true};
}

ToolResult OpenRun(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::OpenRunArgs>(arguments, "open_run");
  if (!args) return Invalid("open_run", args.error());
  protocol::OpenRunParams params;
  params.paths = args->paths;  // each a path or its file:// URI (support/path_text.h)
  if (params.paths) {
    for (auto& path : *params.paths) path = support::PathFromText(path);
  }
  if (args->directory) params.directory = support::PathFromText(*args->directory);
  params.memory_budget = args->memory_budget;
  params.threads = args->threads;
  auto request = wire::ToRunRequest(params);
  if (!request) return {request.error().message, true};
  auto run = workspace.OpenRun(*request, cancel);
  if (!run) return {run.error().message, true};
  Json result = wire::ToOpenRunResult(*run);
  result["run_id"] = result["runId"];  // the name the other run tools take it back as
  result.erase("runId");
  return {Dump(result), false};
}

ToolResult RunReport(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::RunIdArgs>(arguments, "run_report");
  if (!args) return Invalid("run_report", args.error());
  auto report = workspace.ReportRun(args->run_id, cancel);
  if (!report) return {report.error().message, true};
  return {Dump(Json(wire::ToRunReportResult(*report))), false};
}

ToolResult AnalyzeRun(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::AnalyzeRunArgs>(arguments, "analyze_run");
  if (!args) return Invalid("analyze_run", args.error());
  auto analysis = workspace.AnalyzeRun(args->run_id, args->ranks_per_node.value_or(0), cancel);
  if (!analysis) return {analysis.error().message, true};
  Json result = wire::ToAnalyzeResult(*analysis);
  result.erase("markdown");  // as analyze: the structured findings, not their text twice
  return {Dump(result), false};
}

ToolResult CloseRun(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::RunIdArgs>(arguments, "close_run");
  if (!args) return Invalid("close_run", args.error());
  if (auto status = workspace.CloseRun(args->run_id); !status) return {status.error().message, true};
  return {Dump(Json{{"run_id", args->run_id}, {"closed", true}}), false};
}

Json RunIdSchema(Json extra = Json::object()) {
  Json properties = {{"run_id", {{"type", "string"}, {"description", "The id open_run returned (\"r1\")."}}}};
  for (auto& [k, v] : extra.items()) properties[k] = v;
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"additionalProperties", false},
          {"required", Json::array({"run_id"})}};
}

}  // namespace

protocol::Json RunToolDefinitions() {
  Json open_schema = {
      {"type", "object"},
      {"properties",
       {{"directory",
         {{"type", "string"},
          {"description",
           "A directory whose *.sqlite / *.nsys-rep / *.qdrep files are the ranks (one export per process)."}}},
        {"paths", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "The rank files instead."}}},
        {"memory_budget",
         {{"anyOf", Json::array({{{"type", "integer"}}, {{"type", "string"}}})},
          {"description", "Bytes the loaded ranks may hold, or a size such as \"4G\" (default: the server's)."}}},
        {"threads", {{"type", "integer"}, {"description", "Ranks loaded at once, 1 to 64 (default 2)."}}}}},
      {"additionalProperties", false}};
  Json tools = Json::array();
  tools.push_back({{"name", "open_run"},
                   {"description",
                    "Open a run: the per-rank exports of one multi-process job (nsys profile -o rank%q{RANK}) as one, "
                    "by directory or files. Nothing loads yet; ranks load when a tool needs them, under a memory "
                    "budget. Returns run_id and the ranks (named by file)."},
                   {"inputSchema", std::move(open_schema)}});
  tools.push_back({{"name", "run_report"},
                   {"description",
                    "One line per rank (kernels, GPU time, NCCL kernels and time, median step time) and every "
                    "cross-rank analysis: clock alignment per node, step times and their spread, stragglers, NCCL per "
                    "collective, compute/communication overlap, kernel-time imbalance, the ranks x steps heat map."},
                   {"inputSchema", RunIdSchema()}});
  tools.push_back(
      {{"name", "analyze_run"},
       {"description",
        "The causes that only show across ranks, ranked by time at stake: the straggler the others wait for at the "
        "collectives (on the aligned clocks), kernel-time imbalance, step-time spread. Each finding has evidence "
        "rows and a command that reproduces it."},
       {"inputSchema",
        RunIdSchema(
            {{"ranks_per_node",
              {{"type", "integer"},
               {"description", "Consecutive ranks that share a node's clock (default 0: each rank its own)."}}}})}});
  tools.push_back({{"name", "close_run"},
                   {"description", "Close a run: its id stops working and its loaded ranks are freed."},
                   {"inputSchema", RunIdSchema()}});
  return tools;
}

bool IsRunTool(const std::string& name) {
  return name == "open_run" || name == "run_report" || name == "analyze_run" || name == "close_run";
}

std::optional<ToolResult> RunRunTool(core::Workspace& workspace, const std::string& name, const Json& arguments,
                                     const CancelToken& cancel) {
  if (name == "open_run") return OpenRun(workspace, arguments, cancel);
  if (name == "run_report") return RunReport(workspace, arguments, cancel);
  if (name == "analyze_run") return AnalyzeRun(workspace, arguments, cancel);
  if (name == "close_run") return CloseRun(workspace, arguments, cancel);
  return std::nullopt;
}

}  // namespace nsys::mcp
