#pragma once
// nsys/diff: typed params -> one core call (Workspace::Diff) -> the wire's conversion (nsys/wire/diff.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/diff.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// nsys/diff {baseProfileId, newProfileId, phaseMap?, maxRows?}: the verdict with its noise floor and comparability,
// per-call and per-iteration deltas, and the verdict as an answer (summary, evidence, verify commands).
Expected<protocol::DiffResult> OnDiff(const protocol::DiffParams& params, RequestContext& ctx);

}  // namespace nsys::lsp
