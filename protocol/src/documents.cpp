#include "nsys/protocol/documents.h"

#include <utility>

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {

namespace {
constexpr std::string_view kReportScheme = "nsys-report://";
constexpr std::string_view kReportFile = "/report.md";
}  // namespace

std::string ReportUri(const std::string& profile_id) {
  return std::string(kReportScheme) + profile_id + std::string(kReportFile);
}

std::string ProfileIdOfReportUri(const std::string& uri) {
  if (uri.size() <= kReportScheme.size() + kReportFile.size() || uri.rfind(kReportScheme, 0) != 0 ||
      uri.compare(uri.size() - kReportFile.size(), kReportFile.size(), kReportFile) != 0) {
    return "";
  }
  const std::string id = uri.substr(kReportScheme.size(), uri.size() - kReportScheme.size() - kReportFile.size());
  return id.find('/') == std::string::npos ? id : "";
}

NSYS_CONVERSIONS_BY_FIELDS(ReportParams)
NSYS_CONVERSIONS_BY_FIELDS(ReportSpan)
NSYS_CONVERSIONS_BY_FIELDS(ReportResult)

void FromJson(const Json& j, Position& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("line", out.line);
  r.Required("character", out.character);
  if (out.line < 0) FailAt(r.PathOf("line"), "must not be negative");
  if (out.character < 0) FailAt(r.PathOf("character"), "must not be negative");
}
void to_json(Json& j, const Position& v) {
  j = {{"line", v.line}, {"character", v.character}};
}

NSYS_CONVERSIONS_BY_FIELDS(Range)

namespace {
// textDocument.uri of a TextDocumentIdentifier-carrying params object.
std::string ReadDocumentUri(const ObjectReader& r) {
  const Json* doc = r.Find("textDocument");
  if (!doc) FailAt(r.PathOf("textDocument"), "missing required field");
  std::string uri;
  ObjectReader(*doc, r.PathOf("textDocument")).Required("uri", uri);
  return uri;
}
}  // namespace

void FromJson(const Json& j, HoverParams& out, const std::string& path) {
  ObjectReader r(j, path);
  out.uri = ReadDocumentUri(r);
  r.Required("position", out.position);
}
void to_json(Json& j, const HoverParams& v) {
  j = {{"textDocument", {{"uri", v.uri}}}, {"position", v.position}};
}

NSYS_CONVERSIONS_BY_FIELDS(MarkupContent)
NSYS_CONVERSIONS_BY_FIELDS(Hover)

void FromJson(const Json& j, HoverResult& out, const std::string& path) {
  if (j.is_null()) {
    out.hover.reset();
    return;
  }
  Hover hover;
  FromJson(j, hover, path);
  out.hover = std::move(hover);
}
void to_json(Json& j, const HoverResult& v) {
  if (v.hover) {
    j = *v.hover;
  } else {
    j = nullptr;
  }
}

NSYS_CONVERSIONS_BY_FIELDS(TextDocumentItem)
NSYS_CONVERSIONS_BY_FIELDS(DidOpenParams)

void FromJson(const Json& j, DidChangeParams& out, const std::string& path) {
  ObjectReader r(j, path);
  out.uri = ReadDocumentUri(r);
  if (const Json* doc = r.Find("textDocument"))
    ObjectReader(*doc, r.PathOf("textDocument")).Optional("version", out.version);
  const Json* changes = r.Find("contentChanges");
  if (!changes) FailAt(r.PathOf("contentChanges"), "missing required field");
  if (!changes->is_array()) FailExpected(*changes, r.PathOf("contentChanges"), "an array");
  for (size_t i = 0; i < changes->size(); ++i) {
    std::string text;
    ObjectReader((*changes)[i], IndexPath(r.PathOf("contentChanges"), i)).Required("text", text);
    out.texts.push_back(std::move(text));
  }
}
void to_json(Json& j, const DidChangeParams& v) {
  Json changes = Json::array();
  for (const auto& text : v.texts) changes.push_back({{"text", text}});
  j = {{"textDocument", {{"uri", v.uri}}}, {"contentChanges", changes}};
  if (v.version) j["textDocument"]["version"] = *v.version;
}

void FromJson(const Json& j, DidCloseParams& out, const std::string& path) {
  ObjectReader r(j, path);
  out.uri = ReadDocumentUri(r);
}
void to_json(Json& j, const DidCloseParams& v) {
  j = {{"textDocument", {{"uri", v.uri}}}};
}

void FromJson(const Json& j, Diagnostic& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("range", out.range);
  int64_t severity = 4;
  r.OptionalOr("severity", severity);
  if (severity < 1 || severity > 4) FailAt(r.PathOf("severity"), "must be 1 to 4");
  out.severity = static_cast<DiagnosticSeverity>(severity);
  r.OptionalOr("source", out.source);
  r.OptionalOr("code", out.code);
  r.Required("message", out.message);
}
void to_json(Json& j, const Diagnostic& v) {
  j = {{"range", v.range},
       {"severity", static_cast<int>(v.severity)},
       {"source", v.source},
       {"code", v.code},
       {"message", v.message}};
}

NSYS_CONVERSIONS_BY_FIELDS(PublishDiagnosticsParams)

}  // namespace nsys::protocol
