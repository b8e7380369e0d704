#pragma once
#include "nsys/lsp/context.h"
#include "nsys/protocol/analyze.h"

namespace nsys::lsp {

// nsys/analyze: the Book of Root Causes against an open profile. With a partialResultToken each finding goes out as
// an AnalyzePartialResult {findings: [one]} as soon as it is known; the result then has no findings, only
// streamedFindings and the ranking (LSP's partial-result rule). Progress names the root cause being checked.
Expected<protocol::AnalyzeResult> OnAnalyze(const protocol::AnalyzeParams& params, RequestContext& ctx);

}  // namespace nsys::lsp
