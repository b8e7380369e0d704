// THE MCP tool table: every tool the server offers, in one place, shaped like the LSP face's bind_table.cpp. The
// tools/list answer, the dispatcher, which tools the reader thread runs itself (`cheap`) and
// tests/mcp/mcp_doc_test.cpp (every tool documented in docs/protocol.md) all read it. To add a tool: give its Args
// type a Fields() list (protocol/mcp.h: the editor method's params as ParamsArgs, or an Arg per argument), write
// `Expected<Result> OnX(const Args&, ToolContext&)` in tool_handlers.h's files, describe it in tool_descriptions.h
// (and each new argument name in tool_schema.cpp) and add one line below.
#include <string>
#include <utility>
#include <vector>

#include "tool_descriptions.h"
#include "tool_handlers.h"

namespace nsys::mcp {

void BindTools(ToolTable& t) {
  // Profiles and skills. `cheap` tools answer in well under a millisecond whatever the profile.
  t.Tool("open_profile", describe::kOpenProfile, &OnOpenProfile);
  t.Tool("profile_info", describe::kProfileInfo, &OnProfileInfo, {.cheap = true});
  t.Tool("close_profile", describe::kCloseProfile, &OnCloseProfile, {.cheap = true});
  t.Tool("list_skills", describe::kListSkills, &OnListSkills, {.cheap = true});
  t.Tool("run_skill", describe::kRunSkill, &OnRunSkill);

  // The agent and Perfetto traces. An agent reads analyze's structured findings; their Markdown would double the
  // text.
  t.Tool("ask", describe::kAsk, &OnAsk);
  t.Tool("query", describe::kQuery, &OnQuery);
  t.Tool("export_trace", describe::kExportTrace, &OnExportTrace);
  t.Tool("open_in_perfetto", describe::kOpenInPerfetto, &OnOpenInPerfetto);
  t.Tool("analyze", describe::kAnalyze, &OnAnalyze, {.omit = "markdown"});
  t.Tool("diff", describe::kDiff, &OnDiff);
  t.Tool("explain_kernel", describe::kExplainKernel, &OnExplainKernel);

  // Jobs: the per-rank exports of one multi-process job.
  t.Tool("open_job", describe::kOpenJob, &OnOpenJob);
  t.Tool("job_report", describe::kJobReport, &OnJobReport);
  t.Tool("analyze_job", describe::kAnalyzeJob, &OnAnalyzeJob, {.omit = "markdown"});
  t.Tool("close_job", describe::kCloseJob, &OnCloseJob);
  // Their names from before "job" named the multi-rank noun, with run_id read as job_id.
  const std::vector<std::pair<std::string, std::string>> run_id{{"run_id", "job_id"}};
  t.Alias("open_run", "open_job", run_id);
  t.Alias("run_report", "job_report", run_id);
  t.Alias("analyze_run", "analyze_job", run_id);
  t.Alias("close_run", "close_job", run_id);
}

}  // namespace nsys::mcp
