#pragma once
// The handlers of the editor protocol's methods, bound in bind_table.cpp (the report and document notifications are in
// document_handlers.h, the source features in source_handlers.h: they keep session state). Each is: typed params ->
// one Workspace call -> a typed result by a wire conversion (server/wire). The dispatcher does threads, cancellation
// and replies. Defined in handlers.cpp and one <area>_handlers.cpp per area.
#include <string>

#include "nsys/lsp/context.h"
#include "nsys/protocol/analyze.h"
#include "nsys/protocol/annotation_plan.h"
#include "nsys/protocol/ask.h"
#include "nsys/protocol/diff.h"
#include "nsys/protocol/explain.h"
#include "nsys/protocol/job.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/nvtx_tree.h"
#include "nsys/protocol/query.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// window/workDoneProgress/cancel carries {token}, like window/workDoneProgress/create.
using WorkDoneProgressCancelParams = protocol::WorkDoneProgressCreateParams;

// LSP lifecycle and plumbing.
Expected<protocol::InitializeResult> OnInitialize(const protocol::InitializeParams& params, RequestContext& ctx);
Expected<protocol::NullResult> OnShutdown(const protocol::EmptyParams& params, RequestContext& ctx);
void OnInitialized(const protocol::Json& params, NotificationContext& ctx);
void OnExit(const protocol::Json& params, NotificationContext& ctx);
void OnCancelRequest(const protocol::CancelParams& params, NotificationContext& ctx);
void OnWorkDoneProgressCancel(const WorkDoneProgressCancelParams& params, NotificationContext& ctx);

// nsys/ profiles.
Expected<protocol::ProfileSummary> OnOpenProfile(const protocol::OpenProfileParams& params, RequestContext& ctx);
Expected<protocol::NullResult> OnCloseProfile(const protocol::CloseProfileParams& params, RequestContext& ctx);
Expected<protocol::ProfileSummary> OnProfileInfo(const protocol::ProfileInfoParams& params, RequestContext& ctx);

// nsys/ skills.
Expected<protocol::ListSkillsResult> OnListSkills(const protocol::EmptyParams& params, RequestContext& ctx);
Expected<protocol::RunSkillResult> OnRunSkill(const protocol::RunSkillParams& params, RequestContext& ctx);
Expected<protocol::ReloadSkillsResult> OnReloadSkills(const protocol::EmptyParams& params, RequestContext& ctx);

// nsys/analyze: the Book of Root Causes against an open profile. With a partialResultToken each finding goes out as
// an AnalyzePartialResult {findings: [one]} as soon as it is known; the result then has no findings, only
// streamedFindings and the ranking (LSP's partial-result rule). Progress names the root cause being checked.
Expected<protocol::AnalyzeResult> OnAnalyze(const protocol::AnalyzeParams& params, RequestContext& ctx);

// The annotation plan (the refinement loop): nsys/annotationPlan (Workspace::AnnotationPlanFor; without sourceRoots,
// the session's source set) and textDocument/codeAction (Workspace::SourceActions against the session's active
// profile, on the open buffer's text).
Expected<protocol::AnnotationPlanResult> OnAnnotationPlan(const protocol::AnnotationPlanParams& params,
                                                          RequestContext& ctx);
Expected<protocol::CodeActionResult> OnCodeAction(const protocol::CodeActionParams& params, RequestContext& ctx);

// nsys/ask {profileId, question, conversationId?}: the answer in the one answer shape, the conversation id to pass
// back for follow-ups, the skills used. With a partialResultToken, the answer's Markdown streams first as partial
// results {"text": ...}. An empty question is -32602; a question the profile cannot answer is a result whose
// answer carries a refusal.
Expected<protocol::AskResult> OnAsk(const protocol::AskParams& params, RequestContext& ctx);
Expected<protocol::AskResult> OnQuery(const protocol::QueryParams& params, RequestContext& ctx);

// nsys/diff {baseProfileId, newProfileId, phaseMap?, maxRows?}: the verdict with its noise floor and comparability,
// per-call and per-iteration deltas, and the verdict as an answer (summary, evidence, verify commands).
Expected<protocol::DiffResult> OnDiff(const protocol::DiffParams& params, RequestContext& ctx);

// nsys/explainKernel: an unknown kernel is a kNotFound error naming the closest kernels; an ambiguous part of a name
// is -32602.
Expected<protocol::ExplainKernelResult> OnExplainKernel(const protocol::ExplainKernelParams& params,
                                                        RequestContext& ctx);

// nsys/nvtxTree: a parent id that is not a node of the profile's tree is -32602 naming `parent`.
Expected<protocol::NvtxTreeResult> OnNvtxTree(const protocol::NvtxTreeParams& params, RequestContext& ctx);

// Jobs: nsys/openJob, nsys/closeJob, nsys/runSkillOnJob, nsys/jobReport, nsys/analyzeJob, nsys/exportJobTrace
// (Workspace::OpenJob, CloseJob, RunSkillOnJob, ReportJob, ...; wire/job.h).
Expected<protocol::OpenJobResult> OnOpenJob(const protocol::OpenJobParams& params, RequestContext& ctx);
Expected<protocol::NullResult> OnCloseJob(const protocol::JobIdParams& params, RequestContext& ctx);
Expected<protocol::RunSkillResult> OnRunSkillOnJob(const protocol::RunSkillOnJobParams& params, RequestContext& ctx);
Expected<protocol::JobReportResult> OnJobReport(const protocol::JobIdParams& params, RequestContext& ctx);
Expected<protocol::AnalyzeResult> OnAnalyzeJob(const protocol::AnalyzeJobParams& params, RequestContext& ctx);
Expected<protocol::ExportJobTraceResult> OnExportJobTrace(const protocol::ExportJobTraceParams& params,
                                                          RequestContext& ctx);

// nsys/exportTrace: with a partialResultToken the trace streams as {chunk: base64, offset} values; with `output`
// (or without a token) it is written to that file (or one in the workspace's bounded trace cache) and the result
// carries its path. `output` is checked by trace::CheckTraceOutput against every profile the workspace opened: a
// refusal is -32602 naming the reason.
Expected<protocol::ExportTraceResult> OnExportTrace(const protocol::ExportTraceParams& params, RequestContext& ctx);
// nsys/openInPerfetto: writes the trace, publishes it on the side channel (SessionOptions::trace_publisher), returns
// {url, port, token, expiresAt, traceUrl, deepLink?, sshHint, ...} and, when the client supports it, asks it to open
// the URL (window/showDocument, external).
Expected<protocol::OpenInPerfettoResult> OnOpenInPerfetto(const protocol::OpenInPerfettoParams& params,
                                                          RequestContext& ctx);

// A local path from what a client sent: a path as is, or a file:// URI (percent-decoded): support::PathFromText, the
// inverse of the JSON form of paths in every result (support/path_text.h).
std::string PathFromClient(const std::string& path_or_uri);

}  // namespace nsys::lsp
