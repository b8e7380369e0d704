#include "nsys/lsp/analyze_handlers.h"

#include "nsys/lsp/document_handlers.h"
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
  // The findings as diagnostics on the profile's file (and its report, if this session rendered one).
  if (auto profile = ctx.workspace().Describe(params.profile_id)) {
    PublishFindings(ctx, params.profile_id, profile->info.source_path, analysis->findings);
  }
  return wire::ToAnalyzeResult(*analysis, stream);
}

}  // namespace nsys::lsp
