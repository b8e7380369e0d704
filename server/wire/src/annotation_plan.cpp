#include "nsys/wire/annotation_plan.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "nsys/support/path_text.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/documents.h"

namespace nsys::wire {

core::AnnotationPlanRequest ToAnnotationPlanRequest(const protocol::AnnotationPlanParams& params) {
  core::AnnotationPlanRequest request;
  request.profile_id = params.profile_id;
  if (params.limit) request.limit = static_cast<size_t>(*params.limit);
  for (const auto& root : params.source_roots) request.source_roots.push_back(support::PathFromText(root));
  return request;
}

protocol::WorkspaceEdit ToWorkspaceEdit(const std::string& file, const source::SourceEdit& edit) {
  protocol::WorkspaceEdit out;
  auto& edits = out.changes[FileUri(file)];
  for (const auto& e : edit.edits) {
    edits.push_back(protocol::TextEdit{
        protocol::Range{{e.start.line, e.start.character}, {e.end.line, e.end.character}}, e.new_text});
  }
  return out;
}

protocol::AnnotationPlanResult ToAnnotationPlanResult(const core::AnnotationPlan& plan) {
  protocol::AnnotationPlanResult out;
  out.coverage = ToMappingCoverage(plan.coverage);
  out.unmapped_ns = plan.unmapped_ns;
  out.total_items = static_cast<int64_t>(plan.total_items);
  out.files_indexed = static_cast<int64_t>(plan.files_indexed);
  out.next_command = plan.next_command;
  out.notes = plan.notes;
  for (const auto& item : plan.items) {
    protocol::AnnotationPlanItem o;
    o.name = item.name;
    o.instances = item.instances;
    o.gpu_ns = item.gpu_ns;
    o.kernels = item.kernels;
    o.kernels_per_call = item.kernels_per_call;
    o.max_kernels_per_call = item.max_kernels_per_call;
    o.distinct_kernels = item.distinct_kernels;
    o.share = item.share;
    o.top_kernel = item.top_kernel;
    o.other_locations = item.other_locations;
    o.reason = item.reason;
    if (item.location) {
      const auto& l = *item.location;
      o.location = protocol::Location{FileUri(l.file), {{l.line, l.column}, {l.end_line, l.end_column}}};
      if (item.edit) {
        o.edit_title = item.edit->title;
        o.edit = ToWorkspaceEdit(l.file, *item.edit);
        for (const auto& r : item.edit->ranges) o.ranges.push_back({r.name, r.line, r.end_line});
      }
    }
    out.items.push_back(std::move(o));
  }
  return out;
}

protocol::CodeActionResult ToCodeActionResult(const std::vector<core::SourceAction>& actions) {
  protocol::CodeActionResult out;
  for (const auto& a : actions) out.actions.push_back({a.title, a.kind, ToWorkspaceEdit(a.file, a.edit)});
  return out;
}

}  // namespace nsys::wire
