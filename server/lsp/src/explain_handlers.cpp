#include <string>

#include "nsys/core/workspace.h"
#include "nsys/lsp/handlers.h"
#include "nsys/lsp/session_sources.h"
#include "nsys/wire/explain.h"

namespace nsys::lsp {

Expected<protocol::ExplainKernelResult> OnExplainKernel(const protocol::ExplainKernelParams& params,
                                                        RequestContext& ctx) {
  const std::string set_id = ctx.settings().sources ? ctx.settings().sources->set_id() : "";
  // With the session's LLM, its paragraph when ready; never waits on the model.
  auto explanation = ctx.workspace().ExplainKernelForEditor(params.profile_id, params.kernel, set_id,
                                                            ctx.settings().llm, ctx.cancel(), ctx.progress());
  if (!explanation) return explanation.error();
  return wire::ToExplainKernelResult(*explanation);
}

}  // namespace nsys::lsp
