#include "nsys/wire/analyze.h"

#include "nsys/wire/answer.h"
#include "nsys/wire/skill_args.h"

namespace nsys::wire {

agent::AnalyzeOptions ToAnalyzeOptions(const protocol::AnalyzeParams& params) {
  agent::AnalyzeOptions options;
  options.window = ToWindowSpec(params.window);
  return options;
}

protocol::AnalyzeResult ToAnalyzeResult(const agent::Analysis& analysis, bool streamed) {
  protocol::AnalyzeResult out;
  out.summary = analysis.summary;
  out.window = analysis.window;
  for (const auto& f : analysis.findings) {
    out.ranking.push_back(f.root_cause);
    if (!streamed) out.findings.push_back(ToProtocolFinding(f));
  }
  if (streamed) out.streamed_findings = static_cast<int64_t>(analysis.findings.size());
  for (const auto& u : analysis.unchecked) out.unchecked.push_back({u.root_cause, u.missing});
  out.root_causes_checked = analysis.root_causes_checked;
  out.markdown = agent::RenderMarkdown(analysis);
  return out;
}

}  // namespace nsys::wire
