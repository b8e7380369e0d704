// Conversions of nsys/annotationPlan and the LSP edit shapes.
#include "nsys/protocol/annotation_plan.h"

#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, AnnotationPlanParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Optional("limit", out.limit);
  if (out.limit && *out.limit < 0) FailAt(r.PathOf("limit"), "must not be negative");
  r.OptionalOr("sourceRoots", out.source_roots);
}
void to_json(Json& j, const AnnotationPlanParams& v) {
  j = {{"profileId", v.profile_id}, {"sourceRoots", v.source_roots}};
  SetIfPresent(j, "limit", v.limit);
}

void FromJson(const Json& j, TextEdit& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("range", out.range);
  r.Required("newText", out.new_text);
}
void to_json(Json& j, const TextEdit& v) {
  j = {{"range", v.range}, {"newText", v.new_text}};
}

void FromJson(const Json& j, WorkspaceEdit& out, const std::string& path) {
  ObjectReader r(j, path);
  r.OptionalOr("changes", out.changes);
}
void to_json(Json& j, const WorkspaceEdit& v) {
  j = Json::object();
  Json changes = Json::object();
  for (const auto& [uri, edits] : v.changes) changes[uri] = edits;
  j["changes"] = std::move(changes);
}

void FromJson(const Json& j, Location& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("uri", out.uri);
  r.Required("range", out.range);
}
void to_json(Json& j, const Location& v) {
  j = {{"uri", v.uri}, {"range", v.range}};
}

void FromJson(const Json& j, PlannedRange& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  r.Required("line", out.line);
  r.Required("endLine", out.end_line);
}
void to_json(Json& j, const PlannedRange& v) {
  j = {{"name", v.name}, {"line", v.line}, {"endLine", v.end_line}};
}

void FromJson(const Json& j, AnnotationPlanItem& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  r.Required("instances", out.instances);
  r.Required("gpuNs", out.gpu_ns);
  r.Required("kernels", out.kernels);
  r.Required("kernelsPerCall", out.kernels_per_call);
  r.Required("maxKernelsPerCall", out.max_kernels_per_call);
  r.Required("distinctKernels", out.distinct_kernels);
  r.Required("share", out.share);
  r.OptionalOr("topKernel", out.top_kernel);
  r.Optional("location", out.location);
  r.OptionalOr("otherLocations", out.other_locations);
  r.Optional("editTitle", out.edit_title);
  r.Optional("edit", out.edit);
  r.OptionalOr("ranges", out.ranges);
  r.Required("reason", out.reason);
}
void to_json(Json& j, const AnnotationPlanItem& v) {
  j = {{"name", v.name},
       {"instances", v.instances},
       {"gpuNs", v.gpu_ns},
       {"kernels", v.kernels},
       {"kernelsPerCall", v.kernels_per_call},
       {"maxKernelsPerCall", v.max_kernels_per_call},
       {"distinctKernels", v.distinct_kernels},
       {"share", v.share},
       {"topKernel", v.top_kernel},
       {"otherLocations", v.other_locations},
       {"ranges", v.ranges},
       {"reason", v.reason}};
  SetIfPresent(j, "location", v.location);
  SetIfPresent(j, "editTitle", v.edit_title);
  SetIfPresent(j, "edit", v.edit);
}

void FromJson(const Json& j, AnnotationPlanResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("coverage", out.coverage);
  r.Required("unmappedNs", out.unmapped_ns);
  r.Required("items", out.items);
  r.Required("totalItems", out.total_items);
  r.OptionalOr("filesIndexed", out.files_indexed);
  r.Required("nextCommand", out.next_command);
  r.OptionalOr("notes", out.notes);
}
void to_json(Json& j, const AnnotationPlanResult& v) {
  j = {{"coverage", v.coverage},
       {"unmappedNs", v.unmapped_ns},
       {"items", v.items},
       {"totalItems", v.total_items},
       {"filesIndexed", v.files_indexed},
       {"nextCommand", v.next_command},
       {"notes", v.notes}};
}

void FromJson(const Json& j, CodeActionParams& out, const std::string& path) {
  ObjectReader r(j, path);
  const Json* document = r.Find("textDocument");
  if (!document) FailAt(r.PathOf("textDocument"), "missing required field");
  ObjectReader(*document, r.PathOf("textDocument")).Required("uri", out.uri);
  r.Required("range", out.range);
  if (const Json* context = r.Find("context"); context && !context->is_null()) {
    ObjectReader(*context, r.PathOf("context")).OptionalOr("only", out.only);
  }
}
void to_json(Json& j, const CodeActionParams& v) {
  j = {{"textDocument", {{"uri", v.uri}}}, {"range", v.range}, {"context", {{"diagnostics", Json::array()}}}};
  if (!v.only.empty()) j["context"]["only"] = v.only;
}

void FromJson(const Json& j, CodeAction& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("title", out.title);
  r.OptionalOr("kind", out.kind);
  r.Required("edit", out.edit);
}
void to_json(Json& j, const CodeAction& v) {
  j = {{"title", v.title}, {"kind", v.kind}, {"edit", v.edit}};
}

void FromJson(const Json& j, CodeActionResult& out, const std::string& path) {
  FromJson(j, out.actions, path);
}
void to_json(Json& j, const CodeActionResult& v) {
  j = Json::array();
  for (const auto& a : v.actions) j.push_back(a);
}

}  // namespace nsys::protocol
