#include "nsys/lsp/refine_handlers.h"

#include "nsys/core/workspace.h"
#include "nsys/wire/refine.h"

namespace nsys::lsp {

Expected<protocol::AnnotationPlanResult> OnAnnotationPlan(const protocol::AnnotationPlanParams& params,
                                                          RequestContext& ctx) {
  auto plan = ctx.workspace().PlanAnnotation(wire::ToAnnotationPlanRequest(params), ctx.cancel(), ctx.progress());
  if (!plan) return plan.error();
  return wire::ToAnnotationPlanResult(*plan);
}

}  // namespace nsys::lsp
