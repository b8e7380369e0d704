#include "nsys/wire/refine.h"

#include <algorithm>
#include <string_view>

#include "nsys/wire/converters.h"
#include "nsys/wire/documents.h"

namespace nsys::wire {
namespace {

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A path as is, or a file:// URI's path (percent-decoded; a host part is dropped).
std::string PathOf(const std::string& path_or_uri) {
  constexpr std::string_view kScheme = "file://";
  if (path_or_uri.rfind(kScheme, 0) != 0) return path_or_uri;
  std::string_view rest = std::string_view(path_or_uri).substr(kScheme.size());
  if (!rest.empty() && rest.front() != '/') rest = rest.substr(std::min(rest.find('/'), rest.size()));
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && Hex(rest[i + 1]) >= 0 && Hex(rest[i + 2]) >= 0) {
      path += static_cast<char>(Hex(rest[i + 1]) * 16 + Hex(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

}  // namespace

core::AnnotationPlanRequest ToAnnotationPlanRequest(const protocol::AnnotationPlanParams& params) {
  core::AnnotationPlanRequest request;
  request.profile_id = params.profile_id;
  if (params.limit) request.limit = static_cast<size_t>(*params.limit);
  for (const auto& root : params.source_roots) request.source_roots.push_back(PathOf(root));
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
