#pragma once
// The annotation plan's LSP methods (the refinement loop), each typed params -> one core call -> the wire's conversion
// (nsys/wire/annotation_plan.h): nsys/annotationPlan (Workspace::AnnotationPlanFor; without sourceRoots, the session's
// source set) and textDocument/codeAction (Workspace::SourceActions against the session's active profile, on the open
// buffer's text).
#include "nsys/lsp/context.h"
#include "nsys/protocol/annotation_plan.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

Expected<protocol::AnnotationPlanResult> OnAnnotationPlan(const protocol::AnnotationPlanParams& params,
                                                          RequestContext& ctx);
Expected<protocol::CodeActionResult> OnCodeAction(const protocol::CodeActionParams& params, RequestContext& ctx);

}  // namespace nsys::lsp
