// The LSP shapes on the user's source files (sources.h): lenses, hovers, diagnostics, code actions.
#include "nsys/protocol/sources.h"

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

void FromJson(const Json& j, CodeLens& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("range", out.range);
  r.Required("command", out.command);
}
void to_json(Json& j, const CodeLens& v) {
  j = {{"range", v.range}, {"command", v.command}};
}

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

void FromJson(const Json& j, RangeKernelShape& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  r.Required("calls", out.calls);
  r.Required("gpuNs", out.gpu_ns);
}
void to_json(Json& j, const RangeKernelShape& v) {
  j = {{"name", v.name}, {"calls", v.calls}, {"gpuNs", v.gpu_ns}};
}

void FromJson(const Json& j, RevealRangeResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("url", out.url);
  r.Required("name", out.name);
  r.Required("kernels", out.kernels);
}
void to_json(Json& j, const RevealRangeResult& v) {
  j = {{"url", v.url}, {"name", v.name}, {"kernels", v.kernels}};
}

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

void FromJson(const Json& j, DidChangeWatchedFilesParams& out, const std::string& path) {
  ObjectReader(j, path).Required("changes", out.changes);
}
void to_json(Json& j, const DidChangeWatchedFilesParams& v) {
  j = {{"changes", v.changes}};
}

void FromJson(const Json& j, KernelSourcesParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Required("kernel", out.kernel);
  if (out.kernel.empty()) FailAt(r.PathOf("kernel"), "must name a kernel");
}
void to_json(Json& j, const KernelSourcesParams& v) {
  j = {{"profileId", v.profile_id}, {"kernel", v.kernel}};
}

void FromJson(const Json& j, KernelSourceShape& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("uri", out.uri);
  r.Required("range", out.range);
  r.Required("name", out.name);
  r.Required("share", out.share);
  r.Required("gpuNs", out.gpu_ns);
  r.Required("calls", out.calls);
}
void to_json(Json& j, const KernelSourceShape& v) {
  j = {{"uri", v.uri},     {"range", v.range},  {"name", v.name},
       {"share", v.share}, {"gpuNs", v.gpu_ns}, {"calls", v.calls}};
}

void FromJson(const Json& j, KernelSourcesResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("kernel", out.kernel);
  r.Required("locations", out.locations);
}
void to_json(Json& j, const KernelSourcesResult& v) {
  j = {{"kernel", v.kernel}, {"locations", v.locations}};
}

}  // namespace nsys::protocol
