// The MCP tools over jobs, the per-rank exports of one multi-process job: open_job, job_report, analyze_job,
// close_job, through the editor methods' conversions.
#include "nsys/support/path_text.h"
#include "nsys/wire/analyze.h"
#include "nsys/wire/job.h"
#include "tool_handlers.h"

namespace nsys::mcp {

Expected<protocol::OpenJobResult> OnOpenJob(const args::OpenJobArgs& a, ToolContext& ctx) {
  protocol::OpenJobParams params = a;  // each path may be its file:// URI (support/path_text.h)
  if (params.paths) {
    for (auto& path : *params.paths) path = support::PathFromText(path);
  }
  if (params.directory) params.directory = support::PathFromText(*params.directory);
  auto request = wire::ToJobRequest(params);
  if (!request) return ctx.Refuse(request.error());
  auto job = ctx.workspace.OpenJob(*request, ctx.cancel);
  if (!job) return job.error();
  return wire::ToOpenJobResult(*job);
}

Expected<protocol::JobReportResult> OnJobReport(const args::JobIdArgs& a, ToolContext& ctx) {
  auto report = ctx.workspace.ReportJob(a.job_id, ctx.cancel);
  if (!report) return report.error();
  return wire::ToJobReportResult(*report);
}

Expected<protocol::AnalyzeResult> OnAnalyzeJob(const args::AnalyzeJobArgs& a, ToolContext& ctx) {
  auto analysis = ctx.workspace.AnalyzeJob(a.job_id, a.ranks_per_node.value_or(0), ctx.cancel);
  if (!analysis) return analysis.error();
  return wire::ToAnalyzeResult(*analysis);
}

Expected<args::ClosedJob> OnCloseJob(const args::JobIdArgs& a, ToolContext& ctx) {
  if (auto status = ctx.workspace.CloseJob(a.job_id); !status) return status.error();
  return args::ClosedJob{a.job_id};
}

}  // namespace nsys::mcp
