#pragma once
// The refinement loop's LSP methods (issue 12), each typed params -> one core call -> the wire's conversion
// (nsys/wire/refine.h): nsys/annotationPlan (Workspace::PlanAnnotation; without sourceRoots, the session's source
// set) and textDocument/codeAction (Workspace::SourceActions against the session's active profile, on the open
// buffer's text).
#include "nsys/lsp/context.h"
#include "nsys/protocol/refine.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

Expected<protocol::AnnotationPlanResult> OnAnnotationPlan(const protocol::AnnotationPlanParams& params,
                                                          RequestContext& ctx);
Expected<protocol::CodeActionResult> OnCodeAction(const protocol::CodeActionParams& params, RequestContext& ctx);

}  // namespace nsys::lsp
