// Conversions of nsys/annotationPlan and the LSP edit shapes.
#include "nsys/protocol/annotation_plan.h"

#include "by_fields.h"
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

NSYS_CONVERSIONS_BY_FIELDS(TextEdit)
NSYS_CONVERSIONS_BY_FIELDS(WorkspaceEdit)
NSYS_CONVERSIONS_BY_FIELDS(Location)
NSYS_CONVERSIONS_BY_FIELDS(PlannedRange)
NSYS_CONVERSIONS_BY_FIELDS(AnnotationPlanItem)
NSYS_CONVERSIONS_BY_FIELDS(AnnotationPlanResult)

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

NSYS_CONVERSIONS_BY_FIELDS(CodeAction)

void FromJson(const Json& j, CodeActionResult& out, const std::string& path) {
  FromJson(j, out.actions, path);
}
void to_json(Json& j, const CodeActionResult& v) {
  j = Json::array();
  for (const auto& a : v.actions) j.push_back(a);
}

}  // namespace nsys::protocol
