#include "nsys/wire/sources.h"

#include <utility>

#include "nsys/wire/documents.h"

namespace nsys::wire {

protocol::Range ToRange(const core::SourceSpan& span) {
  return {{span.line, span.column}, {span.end_line, span.end_column}};
}

protocol::CodeLensResult ToCodeLensResult(const std::vector<core::SourceLens>& lenses) {
  protocol::CodeLensResult result;
  for (const core::SourceLens& lens : lenses) {
    protocol::CodeLens out;
    out.range = ToRange(lens.span);
    out.command.title = lens.title;
    if (lens.ran) {
      out.command.command = std::string(protocol::kRevealRangeCommand);
      out.command.arguments.push_back({lens.profile_id, lens.range, lens.start_ns, lens.end_ns});
    }
    result.lenses.push_back(std::move(out));
  }
  return result;
}

protocol::HoverResult ToHoverResult(const core::SourceHover& hover) {
  return protocol::HoverResult{protocol::Hover{{"markdown", hover.markdown}, ToRange(hover.span)}};
}

protocol::PublishDiagnosticsParams ToPublishDiagnostics(const core::SourceFileDiagnostics& diagnostics) {
  protocol::PublishDiagnosticsParams out;
  out.uri = FileUri(diagnostics.file);
  for (const core::SourceDiagnostic& d : diagnostics.diagnostics) {
    protocol::Diagnostic diagnostic;
    diagnostic.range = ToRange(d.span);
    const bool refine = d.kind == core::SourceDiagnosticKind::kRefine;
    diagnostic.severity = refine ? protocol::DiagnosticSeverity::kInformation : protocol::DiagnosticSeverity::kHint;
    diagnostic.code = refine ? "nvtx-refine" : "nvtx-not-run";
    diagnostic.message = d.message;
    out.diagnostics.push_back(std::move(diagnostic));
  }
  return out;
}

protocol::KernelSourcesResult ToKernelSourcesResult(const core::KernelSources& sources) {
  protocol::KernelSourcesResult result;
  result.kernel = sources.kernel;
  for (const core::KernelSourceLocation& l : sources.locations) {
    result.locations.push_back({FileUri(l.span.file), ToRange(l.span), l.name, l.share, l.gpu_ns, l.calls});
  }
  return result;
}

protocol::RevealRangeResult ToRevealRangeResult(const core::RangeRevelation& revelation) {
  protocol::RevealRangeResult result;
  result.url = revelation.publication.published.url;
  result.name = revelation.name;
  for (size_t i = 0; i < revelation.kernels.size() && i < kRevealKernels; ++i) {
    const core::RangeKernel& k = revelation.kernels[i];
    result.kernels.push_back({k.kernel, k.calls, k.gpu_ns});
  }
  return result;
}

}  // namespace nsys::wire
