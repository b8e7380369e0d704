#include <utility>

#include "nsys/core/workspace.h"
#include "nsys/lsp/handlers.h"
#include "nsys/protocol/json_parse.h"
#include "nsys/wire/analyze.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/job.h"
#include "nsys/wire/skill_args.h"

namespace nsys::lsp {

Expected<protocol::OpenJobResult> OnOpenJob(const protocol::OpenJobParams& params, RequestContext& ctx) {
  protocol::OpenJobParams local = params;
  if (local.paths) {
    for (auto& path : *local.paths) path = PathFromClient(path);
  }
  if (local.directory) local.directory = PathFromClient(*local.directory);
  auto request = wire::ToJobRequest(local, ctx.settings().memory_budget);
  if (!request) return request.error();
  auto job = ctx.workspace().OpenJob(*request, ctx.cancel(), ctx.progress());
  if (!job) return job.error();
  return wire::ToOpenJobResult(*job);
}

Expected<protocol::NullResult> OnCloseJob(const protocol::JobIdParams& params, RequestContext& ctx) {
  if (auto status = ctx.workspace().CloseJob(params.job_id); !status) return status.error();
  return protocol::NullResult{};
}

Expected<protocol::RunSkillResult> OnRunSkillOnJob(const protocol::RunSkillOnJobParams& params, RequestContext& ctx) {
  auto filter = wire::ToFilterSpec(params.filter.value_or(protocol::Filter{}));
  if (!filter) return filter.error();
  auto table = ctx.workspace().RunSkillOnJob(params.job_id, params.skill, params.args, *filter, ctx.cancel(),
                                             ctx.progress(), ctx.settings().skill_timeout);
  if (!table) return table.error();
  return wire::ToRunSkillResult(std::move(*table));
}

Expected<protocol::JobReportResult> OnJobReport(const protocol::JobIdParams& params, RequestContext& ctx) {
  if (!ctx.settings().run_launcher.empty()) {  // the session's launcher runs it as a batch task
    auto printed =
        ctx.workspace().LaunchJobReport(params.job_id, ctx.settings().run_launcher, ctx.cancel(), ctx.progress());
    if (!printed) return printed.error();
    // The job's stdout is text from outside: the one parse of untrusted JSON (never throws, nesting bounded).
    const protocol::ParsedJson printed_json = protocol::ParseJsonText(*printed);
    if (!printed_json.error.empty())
      return MakeError(ErrorKind::kInternal, "The job launcher printed no report: " + printed_json.error);
    auto result = protocol::Parse<protocol::JobReportResult>(printed_json.value, "the launched job's report");
    if (!result)
      return MakeError(ErrorKind::kInternal, "The job launcher printed no report: " + result.error().message);
    return result;
  }
  auto report = ctx.workspace().ReportJob(params.job_id, ctx.cancel(), ctx.progress());
  if (!report) return report.error();
  return wire::ToJobReportResult(*report);
}

Expected<protocol::ExportJobTraceResult> OnExportJobTrace(const protocol::ExportJobTraceParams& params,
                                                          RequestContext& ctx) {
  protocol::ExportJobTraceParams local = params;
  if (local.output) local.output = PathFromClient(*local.output);
  auto trace = ctx.workspace().ExportJobTrace(wire::ToJobTraceRequest(local), ctx.cancel(), ctx.progress());
  if (!trace) return trace.error();
  return wire::ToExportJobTraceResult(*trace);
}

Expected<protocol::AnalyzeResult> OnAnalyzeJob(const protocol::AnalyzeJobParams& params, RequestContext& ctx) {
  auto analysis =
      ctx.workspace().AnalyzeJob(params.job_id, params.ranks_per_node.value_or(0), ctx.cancel(), ctx.progress());
  if (!analysis) return analysis.error();
  return wire::ToAnalyzeResult(*analysis);
}

}  // namespace nsys::lsp
