// The MCP tools over runs, the per-rank exports of one multi-process job: open_run, run_report, analyze_run,
// close_run, through the editor methods' conversions.
#include "nsys/support/path_text.h"
#include "nsys/wire/analyze.h"
#include "nsys/wire/run.h"
#include "tool_handlers.h"

namespace nsys::mcp {

Expected<protocol::OpenRunResult> OnOpenRun(const args::OpenRunArgs& a, ToolContext& ctx) {
  protocol::OpenRunParams params = a;  // each path may be its file:// URI (support/path_text.h)
  if (params.paths) {
    for (auto& path : *params.paths) path = support::PathFromText(path);
  }
  if (params.directory) params.directory = support::PathFromText(*params.directory);
  auto request = wire::ToRunRequest(params);
  if (!request) return ctx.Refuse(request.error());
  auto run = ctx.workspace.OpenRun(*request, ctx.cancel);
  if (!run) return run.error();
  return wire::ToOpenRunResult(*run);
}

Expected<protocol::RunReportResult> OnRunReport(const args::RunIdArgs& a, ToolContext& ctx) {
  auto report = ctx.workspace.ReportRun(a.run_id, ctx.cancel);
  if (!report) return report.error();
  return wire::ToRunReportResult(*report);
}

Expected<protocol::AnalyzeResult> OnAnalyzeRun(const args::AnalyzeRunArgs& a, ToolContext& ctx) {
  auto analysis = ctx.workspace.AnalyzeRun(a.run_id, a.ranks_per_node.value_or(0), ctx.cancel);
  if (!analysis) return analysis.error();
  return wire::ToAnalyzeResult(*analysis);
}

Expected<args::ClosedRun> OnCloseRun(const args::RunIdArgs& a, ToolContext& ctx) {
  if (auto status = ctx.workspace.CloseRun(a.run_id); !status) return status.error();
  return args::ClosedRun{a.run_id};
}

}  // namespace nsys::mcp
