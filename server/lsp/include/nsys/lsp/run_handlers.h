#pragma once
// Runs: nsys/openRun, nsys/closeRun, nsys/runSkillOnRun, nsys/runReport. Typed params -> one core call
// (Workspace::OpenRun, CloseRun, RunSkillOnRun, ReportRun) -> the wire's conversion (nsys/wire/run.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/analyze.h"
#include "nsys/protocol/run.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

Expected<protocol::OpenRunResult> OnOpenRun(const protocol::OpenRunParams& params, RequestContext& ctx);
Expected<protocol::NullResult> OnCloseRun(const protocol::RunIdParams& params, RequestContext& ctx);
Expected<protocol::RunSkillResult> OnRunSkillOnRun(const protocol::RunSkillOnRunParams& params, RequestContext& ctx);
Expected<protocol::RunReportResult> OnRunReport(const protocol::RunIdParams& params, RequestContext& ctx);
Expected<protocol::AnalyzeResult> OnAnalyzeRun(const protocol::AnalyzeRunParams& params, RequestContext& ctx);
Expected<protocol::ExportRunTraceResult> OnExportRunTrace(const protocol::ExportRunTraceParams& params,
                                                          RequestContext& ctx);

}  // namespace nsys::lsp
