#include "nsys/lsp/analyze_handlers.h"

#include "nsys/wire/analyze.h"
#include "nsys/wire/answer.h"

namespace nsys::lsp {

Expected<protocol::AnalyzeResult> OnAnalyze(const protocol::AnalyzeParams& params, RequestContext& ctx) {
  const bool stream = ctx.wants_partial_results();
  agent::FindingSink on_finding;
  if (stream) {
    on_finding = [&ctx](const agent::Finding& f) {
      ctx.SendPartialResult(protocol::AnalyzePartialResult{{wire::ToProtocolFinding(f)}});
    };
  }
  auto analysis = ctx.workspace().Analyze(params.profile_id, wire::ToAnalyzeOptions(params), on_finding, ctx.cancel(),
                                          ctx.progress());
  if (!analysis) return analysis.error();
  return wire::ToAnalyzeResult(*analysis, stream);
}

}  // namespace nsys::lsp
