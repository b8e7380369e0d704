// THE bind table: every method the server answers, in one place. The dispatcher, the initialize result
// (experimental.nsysMethods) and tests/lsp/protocol_doc_test.cpp (every method documented in docs/protocol.md)
// all read it. To add a method: write `Expected<Result> OnX(const Params&, RequestContext&)` in its own file and add
// one line below.
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
  t.Request(method::kOpenProfile, &OnOpenProfile, {.progress_title = "Opening profile"});
  t.Request(method::kCloseProfile, &OnCloseProfile);
  t.Request(method::kProfileInfo, &OnProfileInfo, {.cheap = true});

  // Skills.
  t.Request(method::kListSkills, &OnListSkills, {.cheap = true});
  t.Request(method::kRunSkill, &OnRunSkill, {.progress_title = "Running skill"});
  t.Request(method::kReloadSkills, &OnReloadSkills);

  // Jobs (rank exports opened as one): handlers in job_handlers.cpp.
  t.Request(method::kOpenJob, &OnOpenJob, {.progress_title = "Opening job"});
  t.Request(method::kCloseJob, &OnCloseJob);
  t.Request(method::kRunSkillOnJob, &OnRunSkillOnJob, {.progress_title = "Running skill on every rank"});
  t.Request(method::kJobReport, &OnJobReport, {.progress_title = "Reporting job"});
  t.Request(method::kExportJobTrace, &OnExportJobTrace, {.progress_title = "Writing the job's trace"});
  t.Request(method::kAnalyzeJob, &OnAnalyzeJob, {.progress_title = "Analyzing job"});
  // Their names from before "job" named the multi-rank noun, with `runId` read as `jobId`.
  const std::vector<std::pair<std::string, std::string>> run_id{{"runId", "jobId"}};
  t.Alias("nsys/openRun", method::kOpenJob, run_id);
  t.Alias("nsys/closeRun", method::kCloseJob, run_id);
  t.Alias("nsys/runSkillOnRun", method::kRunSkillOnJob, run_id);
  t.Alias("nsys/runReport", method::kJobReport, run_id);
  t.Alias("nsys/exportRunTrace", method::kExportJobTrace, run_id);
  t.Alias("nsys/analyzeRun", method::kAnalyzeJob, run_id);

  // Perfetto traces: handlers in trace_handlers.cpp, one line each here.
  t.Request(method::kExportTrace, &OnExportTrace, {.progress_title = "Exporting trace"});
  t.Request(method::kOpenInPerfetto, &OnOpenInPerfetto, {.progress_title = "Opening in Perfetto"});

  // The agent: handlers in <topic>_handlers.cpp, one line each here.
  t.Request(method::kAnalyze, &OnAnalyze, {.progress_title = "Analyzing"});
  t.Request(method::kDiff, &OnDiff, {.progress_title = "Comparing profiles"});
  t.Request(method::kAsk, &OnAsk, {.progress_title = "Answering"});
  t.Request(method::kQuery, &OnQuery, {.progress_title = "Answering"});
  t.Request(method::kExplainKernel, &OnExplainKernel, {.progress_title = "Explaining kernel"});

  // Editor views: handlers in <topic>_handlers.cpp, one line each here.
  t.Request(method::kNvtxTree, &OnNvtxTree, {.progress_title = "Reading NVTX ranges"});
  t.Request(method::kReport, &OnReport, {.progress_title = "Rendering report"});
  t.Request(method::kHover, &OnHover);
  t.Notification(method::kDidOpen, &OnDidOpen);
  t.Notification(method::kDidChange, &OnDidChange);
  t.Notification(method::kDidClose, &OnDidClose);
  t.Notification(method::kDidSave, &OnDidSave);

  // Kernel -> source: handlers in source_handlers.cpp, answered against the session's active profile.
  t.Request(method::kCodeLens, &OnCodeLens);
  t.Request(method::kExecuteCommand, &OnExecuteCommand, {.progress_title = "Revealing range"});
  t.Request(method::kKernelSources, &OnKernelSources, {.progress_title = "Finding kernel sources"});
  t.Notification(method::kDidChangeWatchedFiles, &OnDidChangeWatchedFiles);
  t.Request(method::kAnnotationPlan, &OnAnnotationPlan, {.progress_title = "Planning NVTX refinement"});
  t.Request(method::kCodeAction, &OnCodeAction);
}

}  // namespace nsys::lsp
