#include "nsys/core/workspace.h"
#include "nsys/lsp/handlers.h"
#include "nsys/protocol/json_parse.h"
#include "nsys/wire/analyze.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/run.h"
#include "nsys/wire/skill_args.h"

namespace nsys::lsp {

Expected<protocol::OpenRunResult> OnOpenRun(const protocol::OpenRunParams& params, RequestContext& ctx) {
  protocol::OpenRunParams local = params;
  if (local.paths) {
    for (auto& path : *local.paths) path = PathFromClient(path);
  }
  if (local.directory) local.directory = PathFromClient(*local.directory);
  auto request = wire::ToRunRequest(local, ctx.settings().memory_budget);
  if (!request) return request.error();
  auto run = ctx.workspace().OpenRun(*request, ctx.cancel(), ctx.progress());
  if (!run) return run.error();
  return wire::ToOpenRunResult(*run);
}

Expected<protocol::NullResult> OnCloseRun(const protocol::RunIdParams& params, RequestContext& ctx) {
  if (auto status = ctx.workspace().CloseRun(params.run_id); !status) return status.error();
  return protocol::NullResult{};
}

Expected<protocol::RunSkillResult> OnRunSkillOnRun(const protocol::RunSkillOnRunParams& params, RequestContext& ctx) {
  auto filter = wire::ToFilterSpec(params.filter.value_or(protocol::Filter{}));
  if (!filter) return filter.error();
  auto table = ctx.workspace().RunSkillOnRun(params.run_id, params.skill, params.args, *filter, ctx.cancel(),
                                             ctx.progress(), ctx.settings().skill_timeout);
  if (!table) return table.error();
  return wire::ToRunSkillResult(std::move(*table));
}

Expected<protocol::RunReportResult> OnRunReport(const protocol::RunIdParams& params, RequestContext& ctx) {
  if (!ctx.settings().run_launcher.empty()) {  // the session's launcher runs it as a job
    auto printed =
        ctx.workspace().LaunchRunReport(params.run_id, ctx.settings().run_launcher, ctx.cancel(), ctx.progress());
    if (!printed) return printed.error();
    // The job's stdout is text from outside: the one parse of untrusted JSON (never throws, nesting bounded).
    const protocol::ParsedJson printed_json = protocol::ParseJsonText(*printed);
    if (!printed_json.error.empty())
      return MakeError(ErrorKind::kInternal, "The run launcher's job printed no report: " + printed_json.error);
    auto result = protocol::Parse<protocol::RunReportResult>(printed_json.value, "the launched job's report");
    if (!result)
      return MakeError(ErrorKind::kInternal, "The run launcher's job printed no report: " + result.error().message);
    return result;
  }
  auto report = ctx.workspace().ReportRun(params.run_id, ctx.cancel(), ctx.progress());
  if (!report) return report.error();
  return wire::ToRunReportResult(*report);
}

Expected<protocol::ExportRunTraceResult> OnExportRunTrace(const protocol::ExportRunTraceParams& params,
                                                          RequestContext& ctx) {
  protocol::ExportRunTraceParams local = params;
  if (local.output) local.output = PathFromClient(*local.output);
  auto trace = ctx.workspace().ExportRunTrace(wire::ToRunTraceRequest(local), ctx.cancel(), ctx.progress());
  if (!trace) return trace.error();
  return wire::ToExportRunTraceResult(*trace);
}

Expected<protocol::AnalyzeResult> OnAnalyzeRun(const protocol::AnalyzeRunParams& params, RequestContext& ctx) {
  auto analysis =
      ctx.workspace().AnalyzeRun(params.run_id, params.ranks_per_node.value_or(0), ctx.cancel(), ctx.progress());
  if (!analysis) return analysis.error();
  return wire::ToAnalyzeResult(*analysis);
}

}  // namespace nsys::lsp
