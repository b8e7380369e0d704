// The MCP tools of the agent: analyze, diff, ask, query, explain_kernel.
#include <utility>

#include "nsys/wire/analyze.h"
#include "nsys/wire/ask.h"
#include "nsys/wire/diff.h"
#include "nsys/wire/explain.h"
#include "nsys/wire/query.h"
#include "tool_handlers.h"

namespace nsys::mcp {

Expected<protocol::AnalyzeResult> OnAnalyze(const args::AnalyzeArgs& a, ToolContext& ctx) {
  protocol::AnalyzeParams params = a;  // the editor method's params, their window from the tool's flat one
  if (a.start || a.end || a.clock) {
    params.window = protocol::Window{a.start, a.end, a.clock.value_or(protocol::WindowClock::kRelativeSeconds)};
  }
  auto analysis = ctx.workspace.Analyze(a.profile_id, wire::ToAnalyzeOptions(params), {}, ctx.cancel);
  if (!analysis) return analysis.error();
  return wire::ToAnalyzeResult(*analysis);
}

Expected<protocol::DiffResult> OnDiff(const args::DiffArgs& a, ToolContext& ctx) {
  auto options = wire::ToDiffOptions(a.phase_map, a.max_rows, "arguments.max_rows", a.metric);
  if (!options) return ctx.Refuse(options.error());
  auto report = ctx.workspace.Diff(a.base_profile_id, a.new_profile_id, *options, ctx.cancel);
  if (!report) return report.error();
  return wire::ToProtocolDiff(*report);
}

Expected<protocol::AskResult> OnAsk(const protocol::AskToolArgs& a, ToolContext& ctx) {
  core::AskRequest request{a.profile_id, a.question, a.conversation_id.value_or("")};
  auto result = ctx.workspace.Ask(request, {}, ctx.cancel);
  if (!result) return result.error();
  return wire::ToProtocolAskResult(*result);
}

Expected<protocol::AskResult> OnQuery(const protocol::QueryToolArgs& a, ToolContext& ctx) {
  auto queries = wire::ToQueries(a.queries);
  if (!queries) return queries.error();
  auto result = ctx.workspace.AskQueries(core::QueryRequest{a.profile_id, std::move(*queries)}, ctx.cancel);
  if (!result) return result.error();
  return wire::ToProtocolAskResult(*result);
}

Expected<protocol::ExplainKernelResult> OnExplainKernel(const args::ExplainKernelArgs& a, ToolContext& ctx) {
  auto explanation = ctx.workspace.ExplainKernel(a.profile_id, a.kernel, ctx.cancel);
  if (!explanation) return explanation.error();
  return wire::ToExplainKernelResult(*explanation);
}

}  // namespace nsys::mcp
