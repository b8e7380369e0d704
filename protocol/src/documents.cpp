#include "nsys/protocol/documents.h"

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

void FromJson(const Json& j, ReportParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
}
void to_json(Json& j, const ReportParams& v) {
  j = {{"profileId", v.profile_id}};
}

void FromJson(const Json& j, ReportSpan& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("line", out.line);
  r.Required("character", out.character);
  r.Required("length", out.length);
  r.Required("name", out.name);
}
void to_json(Json& j, const ReportSpan& v) {
  j = {{"line", v.line}, {"character", v.character}, {"length", v.length}, {"name", v.name}};
}

void FromJson(const Json& j, ReportResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("uri", out.uri);
  r.Required("text", out.text);
  r.Required("kernels", out.kernels);
  r.Required("findings", out.findings);
}
void to_json(Json& j, const ReportResult& v) {
  j = {{"uri", v.uri}, {"text", v.text}, {"kernels", v.kernels}, {"findings", v.findings}};
}

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

void FromJson(const Json& j, Range& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("start", out.start);
  r.Required("end", out.end);
}
void to_json(Json& j, const Range& v) {
  j = {{"start", v.start}, {"end", v.end}};
}

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

void FromJson(const Json& j, MarkupContent& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("kind", out.kind);
  r.Required("value", out.value);
}
void to_json(Json& j, const MarkupContent& v) {
  j = {{"kind", v.kind}, {"value", v.value}};
}

void FromJson(const Json& j, Hover& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("contents", out.contents);
  r.Optional("range", out.range);
}
void to_json(Json& j, const Hover& v) {
  j = {{"contents", v.contents}};
  SetIfPresent(j, "range", v.range);
}

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

void FromJson(const Json& j, TextDocumentItem& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("uri", out.uri);
  r.OptionalOr("languageId", out.language_id);
  r.OptionalOr("version", out.version);
  r.Required("text", out.text);
}
void to_json(Json& j, const TextDocumentItem& v) {
  j = {{"uri", v.uri}, {"languageId", v.language_id}, {"version", v.version}, {"text", v.text}};
}

void FromJson(const Json& j, DidOpenParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("textDocument", out.text_document);
}
void to_json(Json& j, const DidOpenParams& v) {
  j = {{"textDocument", v.text_document}};
}

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

void FromJson(const Json& j, PublishDiagnosticsParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("uri", out.uri);
  r.Required("diagnostics", out.diagnostics);
}
void to_json(Json& j, const PublishDiagnosticsParams& v) {
  j = {{"uri", v.uri}, {"diagnostics", v.diagnostics}};
}

}  // namespace nsys::protocol
