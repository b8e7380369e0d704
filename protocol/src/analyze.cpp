#include "nsys/protocol/analyze.h"

#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, AnalyzeParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Optional("window", out.window);
}
void to_json(Json& j, const AnalyzeParams& v) {
  j = {{"profileId", v.profile_id}};
  SetIfPresent(j, "window", v.window);
}

void FromJson(const Json& j, UncheckedCause& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("rootCause", out.root_cause);
  r.Required("missing", out.missing);
}
void to_json(Json& j, const UncheckedCause& v) {
  j = {{"rootCause", v.root_cause}, {"missing", v.missing}};
}

void FromJson(const Json& j, AnalyzeResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("summary", out.summary);
  r.OptionalOr("window", out.window);
  r.Required("findings", out.findings);
  r.OptionalOr("ranking", out.ranking);
  r.OptionalOr("unchecked", out.unchecked);
  r.OptionalOr("rootCausesChecked", out.root_causes_checked);
  r.OptionalOr("markdown", out.markdown);
  r.Optional("streamedFindings", out.streamed_findings);
}
void to_json(Json& j, const AnalyzeResult& v) {
  j = {{"summary", v.summary},  {"window", v.window},       {"findings", v.findings},
       {"ranking", v.ranking},  {"unchecked", v.unchecked}, {"rootCausesChecked", v.root_causes_checked},
       {"markdown", v.markdown}};
  SetIfPresent(j, "streamedFindings", v.streamed_findings);
}

void FromJson(const Json& j, AnalyzePartialResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("findings", out.findings);
}
void to_json(Json& j, const AnalyzePartialResult& v) {
  j = {{"findings", v.findings}};
}

}  // namespace nsys::protocol
