#pragma once
// Kernel -> source conversions: the core's source mapping (core/sources.h) -> the LSP shapes of protocol/sources.h.
#include <string>
#include <vector>

#include "nsys/core/sources.h"
#include "nsys/protocol/documents.h"
#include "nsys/protocol/sources.h"

namespace nsys::wire {

protocol::Range ToRange(const core::SourceSpan& span);
// Each lens with its title; a range that ran gets the nsys-ai.revealRange command with its longest instance.
protocol::CodeLensResult ToCodeLensResult(const std::vector<core::SourceLens>& lenses);
protocol::HoverResult ToHoverResult(const core::SourceHover& hover);
// kRefine -> Information, code "nvtx-refine"; kNotRun -> Hint, code "nvtx-not-run"; source "nsys-ai".
protocol::PublishDiagnosticsParams ToPublishDiagnostics(const core::SourceFileDiagnostics& diagnostics);
protocol::KernelSourcesResult ToKernelSourcesResult(const core::KernelSources& sources);
// At most kRevealKernels kernels.
inline constexpr size_t kRevealKernels = 20;
protocol::RevealRangeResult ToRevealRangeResult(const core::RangeRevelation& revelation);

}  // namespace nsys::wire
