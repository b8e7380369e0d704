// THE MCP tool table: every tool the server offers, in one place, shaped like the LSP face's bind_table.cpp. The
// tools/list answer, the dispatcher, which tools the reader thread runs itself (`cheap`) and
// tests/mcp/mcp_doc_test.cpp (every tool documented in docs/protocol.md) all read it. To add a tool: give its
// capability's row in protocol/src/capabilities.cpp a tool name (its description and lane are the row's), give its
// Args type a Fields() list (protocol/mcp.h: the editor method's params as ParamsArgs, or an Arg per argument), write
// `Expected<Result> OnX(const Args&, ToolContext&)` in tool_handlers.h's files (and describe each new argument name in
// tool_schema.cpp) and add one line below, named by the editor method.
#include <string>
#include <utility>
#include <vector>

#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/job.h"
#include "nsys/protocol/methods.h"
#include "tool_handlers.h"

namespace nsys::mcp {

namespace method = protocol::method;

void BindTools(ToolTable& t) {
  // Profiles and skills.
  t.Tool(method::kOpenProfile, &OnOpenProfile);
  t.Tool(method::kProfileInfo, &OnProfileInfo);
  t.Tool(method::kCloseProfile, &OnCloseProfile);
  t.Tool(method::kListSkills, &OnListSkills);
  t.Tool(method::kRunSkill, &OnRunSkill);

  // The agent and Perfetto traces. An agent reads analyze's structured findings; their Markdown would double the
  // text.
  t.Tool(method::kAsk, &OnAsk);
  t.Tool(method::kQuery, &OnQuery);
  t.Tool(method::kExportTrace, &OnExportTrace);
  t.Tool(method::kOpenInPerfetto, &OnOpenInPerfetto);
  t.Tool(method::kAnalyze, &OnAnalyze, {.omit = "markdown"});
  t.Tool(method::kDiff, &OnDiff);
  t.Tool(method::kExplainKernel, &OnExplainKernel);

  // Jobs: the per-rank exports of one multi-process job.
  t.Tool(method::kOpenJob, &OnOpenJob);
  t.Tool(method::kJobReport, &OnJobReport);
  t.Tool(method::kAnalyzeJob, &OnAnalyzeJob, {.omit = "markdown"});
  t.Tool(method::kCloseJob, &OnCloseJob);
  // Their names from before "job" named the multi-rank noun, with run_id read as job_id.
  const std::vector<std::pair<std::string, std::string>> run_id{{"run_id", "job_id"}};
  t.Alias("open_run", "open_job", run_id);
  t.Alias("run_report", "job_report", run_id);
  t.Alias("analyze_run", "analyze_job", run_id);
  t.Alias("close_run", "close_job", run_id);
}

}  // namespace nsys::mcp
