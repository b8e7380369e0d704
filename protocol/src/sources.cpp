// The LSP shapes on the user's source files (sources.h): lenses, hovers, diagnostics, code actions.
#include "nsys/protocol/sources.h"

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, CodeLensParams& out, const std::string& path) {
  ObjectReader r(j, path);
  const Json* doc = r.Find("textDocument");
  if (!doc) FailAt(r.PathOf("textDocument"), "missing required field");
  ObjectReader(*doc, r.PathOf("textDocument")).Required("uri", out.uri);
}
void to_json(Json& j, const CodeLensParams& v) {
  j = {{"textDocument", {{"uri", v.uri}}}};
}

void FromJson(const Json& j, RevealRangeArgs& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Required("name", out.name);
  r.Required("start", out.start);
  r.Required("end", out.end);
  if (out.end <= out.start) FailAt(r.PathOf("end"), "must be after start");
}
void to_json(Json& j, const RevealRangeArgs& v) {
  j = {{"profileId", v.profile_id}, {"name", v.name}, {"start", v.start}, {"end", v.end}};
}

void FromJson(const Json& j, LensCommand& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("title", out.title);
  r.OptionalOr("command", out.command);
  r.OptionalOr("arguments", out.arguments);
}
void to_json(Json& j, const LensCommand& v) {
  j = {{"title", v.title}, {"command", v.command}};
  if (!v.arguments.empty()) j["arguments"] = v.arguments;
}

NSYS_CONVERSIONS_BY_FIELDS(CodeLens)

void FromJson(const Json& j, CodeLensResult& out, const std::string& path) {
  if (j.is_null()) {
    out.lenses.clear();
    return;
  }
  FromJson(j, out.lenses, path);
}
void to_json(Json& j, const CodeLensResult& v) {
  j = Json::array();
  for (const CodeLens& lens : v.lenses) j.push_back(lens);
}

void FromJson(const Json& j, ExecuteCommandParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("command", out.command);
  if (const Json* args = r.Find("arguments")) {
    if (!args->is_array()) FailExpected(*args, r.PathOf("arguments"), "an array");
    out.arguments = *args;
  } else {
    out.arguments = Json::array();
  }
}
void to_json(Json& j, const ExecuteCommandParams& v) {
  j = {{"command", v.command}, {"arguments", v.arguments}};
}

NSYS_CONVERSIONS_BY_FIELDS(RangeKernelShape)
NSYS_CONVERSIONS_BY_FIELDS(RevealRangeResult)

void FromJson(const Json& j, FileEvent& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("uri", out.uri);
  int64_t type = 0;
  r.Required("type", type);
  if (type < 1 || type > 3) FailAt(r.PathOf("type"), "expected 1 (created), 2 (changed) or 3 (deleted)");
  out.type = static_cast<FileChangeType>(type);
}
void to_json(Json& j, const FileEvent& v) {
  j = {{"uri", v.uri}, {"type", static_cast<int>(v.type)}};
}

NSYS_CONVERSIONS_BY_FIELDS(DidChangeWatchedFilesParams)

void FromJson(const Json& j, KernelSourcesParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Required("kernel", out.kernel);
  if (out.kernel.empty()) FailAt(r.PathOf("kernel"), "must name a kernel");
}
void to_json(Json& j, const KernelSourcesParams& v) {
  j = {{"profileId", v.profile_id}, {"kernel", v.kernel}};
}

NSYS_CONVERSIONS_BY_FIELDS(KernelSourceShape)
NSYS_CONVERSIONS_BY_FIELDS(KernelSourcesResult)

}  // namespace nsys::protocol
