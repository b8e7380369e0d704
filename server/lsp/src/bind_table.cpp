// THE bind table: every method the server answers, in one place. The dispatcher, the initialize result
// (experimental.nsysMethods) and tests/lsp/protocol_doc_test.cpp (every method documented in docs/protocol.md)
// all read it. To add a capability: give it a row in protocol/src/capabilities.cpp (its names on every face, its
// description, progress title and lane), write `Expected<Result> OnX(const Params&, RequestContext&)` in its own file
// and bind it below with one `t.Bind` line, which takes the rest from the row. Protocol plumbing has no row.
#include <string>
#include <utility>
#include <vector>

#include "nsys/lsp/document_handlers.h"
#include "nsys/lsp/handlers.h"
#include "nsys/lsp/method_table.h"
#include "nsys/lsp/source_handlers.h"

namespace nsys::lsp {

namespace method = protocol::method;

void BindMethods(MethodTable& t) {
  // LSP lifecycle. Before `initialize`, only `initialize` and `exit` are reachable (see dispatcher.h).
  // `cheap` methods run on the executor's own lane, so they answer fast whatever other clients keep busy.
  t.Request("initialize", &OnInitialize, {.cheap = true});
  t.Notification("initialized", &OnInitialized);
  t.Request("shutdown", &OnShutdown, {.cheap = true});
  t.Notification("exit", &OnExit);

  // Protocol plumbing: cancellation by request id, or through the progress the request reports.
  t.Notification("$/cancelRequest", &OnCancelRequest);
  t.Notification("window/workDoneProgress/cancel", &OnWorkDoneProgressCancel);

  // Profiles.
  t.Bind(method::kOpenProfile, &OnOpenProfile);
  t.Bind(method::kCloseProfile, &OnCloseProfile);
  t.Bind(method::kProfileInfo, &OnProfileInfo);

  // Skills.
  t.Bind(method::kListSkills, &OnListSkills);
  t.Bind(method::kRunSkill, &OnRunSkill);
  t.Bind(method::kReloadSkills, &OnReloadSkills);

  // Jobs (rank exports opened as one): handlers in job_handlers.cpp.
  t.Bind(method::kOpenJob, &OnOpenJob);
  t.Bind(method::kCloseJob, &OnCloseJob);
  t.Bind(method::kRunSkillOnJob, &OnRunSkillOnJob);
  t.Bind(method::kJobReport, &OnJobReport);
  t.Bind(method::kExportJobTrace, &OnExportJobTrace);
  t.Bind(method::kAnalyzeJob, &OnAnalyzeJob);
  // Their names from before "job" named the multi-rank noun, with `runId` read as `jobId`.
  const std::vector<std::pair<std::string, std::string>> run_id{{"runId", "jobId"}};
  t.Alias("nsys/openRun", method::kOpenJob, run_id);
  t.Alias("nsys/closeRun", method::kCloseJob, run_id);
  t.Alias("nsys/runSkillOnRun", method::kRunSkillOnJob, run_id);
  t.Alias("nsys/runReport", method::kJobReport, run_id);
  t.Alias("nsys/exportRunTrace", method::kExportJobTrace, run_id);
  t.Alias("nsys/analyzeRun", method::kAnalyzeJob, run_id);

  // Perfetto traces: handlers in trace_handlers.cpp, one line each here.
  t.Bind(method::kExportTrace, &OnExportTrace);
  t.Bind(method::kOpenInPerfetto, &OnOpenInPerfetto);

  // The agent: handlers in <topic>_handlers.cpp, one line each here.
  t.Bind(method::kAnalyze, &OnAnalyze);
  t.Bind(method::kDiff, &OnDiff);
  t.Bind(method::kAsk, &OnAsk);
  t.Bind(method::kQuery, &OnQuery);
  t.Bind(method::kExplainKernel, &OnExplainKernel);

  // Editor views: handlers in <topic>_handlers.cpp, one line each here.
  t.Bind(method::kNvtxTree, &OnNvtxTree);
  t.Bind(method::kReport, &OnReport);
  t.Bind(method::kHover, &OnHover);
  t.Notification(method::kDidOpen, &OnDidOpen);
  t.Notification(method::kDidChange, &OnDidChange);
  t.Notification(method::kDidClose, &OnDidClose);
  t.Notification(method::kDidSave, &OnDidSave);

  // Kernel -> source: handlers in source_handlers.cpp, answered against the session's active profile.
  t.Bind(method::kCodeLens, &OnCodeLens);
  t.Bind(method::kExecuteCommand, &OnExecuteCommand);
  t.Bind(method::kKernelSources, &OnKernelSources);
  t.Notification(method::kDidChangeWatchedFiles, &OnDidChangeWatchedFiles);
  t.Bind(method::kAnnotationPlan, &OnAnnotationPlan);
  t.Bind(method::kCodeAction, &OnCodeAction);
}

}  // namespace nsys::lsp
