#pragma once
// nsys/annotationPlan (issue 12): typed params -> one core call (Workspace::PlanAnnotation) -> the wire's conversion
// (nsys/wire/refine.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/refine.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

Expected<protocol::AnnotationPlanResult> OnAnnotationPlan(const protocol::AnnotationPlanParams& params,
                                                          RequestContext& ctx);

}  // namespace nsys::lsp
