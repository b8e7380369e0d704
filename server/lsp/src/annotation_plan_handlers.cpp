#include <algorithm>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/lsp/handlers.h"
#include "nsys/lsp/session_sources.h"
#include "nsys/lsp/source_handlers.h"
#include "nsys/wire/annotation_plan.h"

namespace nsys::lsp {

Expected<protocol::AnnotationPlanResult> OnAnnotationPlan(const protocol::AnnotationPlanParams& params,
                                                          RequestContext& ctx) {
  core::AnnotationPlanRequest request = wire::ToAnnotationPlanRequest(params);
  if (request.source_roots.empty() && ctx.settings().sources) {  // the session's own source set
    ctx.settings().sources->WaitIndexed(ctx.cancel());
    request.source_set = ctx.settings().sources->set_id();
  }
  auto plan = ctx.workspace().AnnotationPlanFor(request, ctx.cancel(), ctx.progress());
  if (!plan) return plan.error();
  return wire::ToAnnotationPlanResult(*plan);
}

Expected<protocol::CodeActionResult> OnCodeAction(const protocol::CodeActionParams& params, RequestContext& ctx) {
  const bool wanted = params.only.empty() || std::any_of(params.only.begin(), params.only.end(), [](const auto& k) {
                        return k == "refactor" || k == "refactor.rewrite";
                      });
  const std::string file = SourcePathOf(params.uri);
  if (!wanted || file.empty()) return protocol::CodeActionResult{};
  core::SourceActionRequest request;
  request.file = file;
  // The editor's buffer when the document is open, else the file on disk.
  if (ctx.settings().documents) request.text = ctx.settings().documents->Text(params.uri);
  request.line = static_cast<int>(params.range.start.line);
  request.end_line = static_cast<int>(params.range.end.line);
  if (ctx.settings().sources) request.profile_id = ctx.settings().sources->ActiveProfile();
  auto actions = ctx.workspace().SourceActions(request, ctx.cancel(), ctx.progress());
  if (!actions) return actions.error();
  return wire::ToCodeActionResult(*actions);
}

}  // namespace nsys::lsp
