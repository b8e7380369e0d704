#include "nsys/lsp/document_handlers.h"
#include "nsys/lsp/handlers.h"
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
  auto analyzed = ctx.workspace().AnalyzeForEditor(params.profile_id, wire::ToAnalyzeOptions(params), on_finding,
                                                   ctx.cancel(), ctx.progress());
  if (!analyzed) return analyzed.error();
  // The findings as diagnostics on the profile's file (and its report, if this session rendered one).
  if (analyzed->source_path) {
    PublishFindings(ctx, params.profile_id, *analyzed->source_path, analyzed->analysis.findings);
  }
  return wire::ToAnalyzeResult(analyzed->analysis, stream);
}

}  // namespace nsys::lsp
