// THE MCP tool table: every tool the server offers, in one place, shaped like the LSP face's bind_table.cpp. The
// tools/list answer, the dispatcher, which tools the reader thread runs itself (`cheap`) and
// tests/mcp/mcp_doc_test.cpp (every tool documented in docs/protocol.md) all read it. To add a tool: give its Args
// type a Fields() list (protocol/mcp.h), write `Expected<Result> OnX(const Args&, ToolContext&)` in
// tool_handlers.h's files, describe it in tool_descriptions.h and add one line below.
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
  t.Tool("export_trace", describe::kExportTrace, &OnExportTrace);
  t.Tool("open_in_perfetto", describe::kOpenInPerfetto, &OnOpenInPerfetto);
  t.Tool("analyze", describe::kAnalyze, &OnAnalyze, {.omit = "markdown"});
  t.Tool("diff", describe::kDiff, &OnDiff);
  t.Tool("explain_kernel", describe::kExplainKernel, &OnExplainKernel);

  // Runs: the per-rank exports of one multi-process job.
  t.Tool("open_run", describe::kOpenRun, &OnOpenRun);
  t.Tool("run_report", describe::kRunReport, &OnRunReport);
  t.Tool("analyze_run", describe::kAnalyzeRun, &OnAnalyzeRun, {.omit = "markdown"});
  t.Tool("close_run", describe::kCloseRun, &OnCloseRun);
}

}  // namespace nsys::mcp
