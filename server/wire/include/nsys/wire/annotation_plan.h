#pragma once
// The refinement loop on the wire: core::AnnotationPlan -> nsys/annotationPlan's result (edits as LSP
// WorkspaceEdits keyed by file URI), and one source edit as a WorkspaceEdit (the code action's).
#include <string>
#include <vector>

#include "nsys/core/annotation_plan.h"
#include "nsys/protocol/annotation_plan.h"

namespace nsys::wire {

// nsys/annotationPlan's params: sourceRoots as paths (file:// URIs decoded), limit default 20.
core::AnnotationPlanRequest ToAnnotationPlanRequest(const protocol::AnnotationPlanParams& params);
protocol::WorkspaceEdit ToWorkspaceEdit(const std::string& file, const source::SourceEdit& edit);
protocol::AnnotationPlanResult ToAnnotationPlanResult(const core::AnnotationPlan& plan);
// textDocument/codeAction's result: one CodeAction (kind refactor.rewrite) per action, each one WorkspaceEdit.
protocol::CodeActionResult ToCodeActionResult(const std::vector<core::SourceAction>& actions);

}  // namespace nsys::wire
