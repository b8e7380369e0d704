#include "nsys/lsp/explain_handlers.h"

#include "nsys/core/workspace.h"
#include "nsys/wire/explain.h"

namespace nsys::lsp {

Expected<protocol::ExplainKernelResult> OnExplainKernel(const protocol::ExplainKernelParams& params,
                                                        RequestContext& ctx) {
  auto explanation = ctx.workspace().ExplainKernel(params.profile_id, params.kernel, ctx.cancel(), ctx.progress());
  if (!explanation) return explanation.error();
  return wire::ToExplainKernelResult(*explanation);
}

}  // namespace nsys::lsp
