#include "nsys/lsp/explain_handlers.h"

#include "nsys/core/workspace.h"
#include "nsys/lsp/session_sources.h"
#include "nsys/wire/explain.h"

namespace nsys::lsp {

Expected<protocol::ExplainKernelResult> OnExplainKernel(const protocol::ExplainKernelParams& params,
                                                        RequestContext& ctx) {
  const std::string set_id = ctx.settings().sources ? ctx.settings().sources->set_id() : "";
  auto explanation =
      ctx.workspace().ExplainKernelWithSources(params.profile_id, params.kernel, set_id, ctx.cancel(), ctx.progress());
  if (!explanation) return explanation.error();
  ctx.workspace().AddAiParagraph(*explanation, ctx.settings().llm);  // never waits on the model
  return wire::ToExplainKernelResult(*explanation);
}

}  // namespace nsys::lsp
