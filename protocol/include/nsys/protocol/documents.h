#pragma once
// The profile as a text document (nsys/report), and the standard LSP document messages the server takes
// part in: textDocument/hover on report uris, textDocument/did{Open,Change,Close,Save} (accepted and kept per
// session), textDocument/publishDiagnostics (findings of nsys/analyze).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

namespace method {
inline constexpr std::string_view kHover = "textDocument/hover";
inline constexpr std::string_view kDidOpen = "textDocument/didOpen";
inline constexpr std::string_view kDidChange = "textDocument/didChange";
inline constexpr std::string_view kDidClose = "textDocument/didClose";
inline constexpr std::string_view kDidSave = "textDocument/didSave";
inline constexpr std::string_view kPublishDiagnostics = "textDocument/publishDiagnostics";
}  // namespace method

struct ReportParams {  // nsys/report
  std::string profile_id;
  static constexpr auto WireFields() {
    using S = ReportParams;
    return std::tuple{Field("profileId", &S::profile_id)};
  }
  bool operator==(const ReportParams&) const = default;
};

struct ReportSpan {  // a kernel name or a finding in the report's text
  int64_t line = 0;
  int64_t character = 0;  // UTF-16 code units
  int64_t length = 0;
  std::string name;  // kernels: the full name; findings: the root cause id
  static constexpr auto WireFields() {
    using S = ReportSpan;
    return std::tuple{Field("line", &S::line), Field("character", &S::character), Field("length", &S::length),
                      Field("name", &S::name)};
  }
  bool operator==(const ReportSpan&) const = default;
};

struct ReportResult {
  std::string uri;  // nsys-report://<profileId>/report.md
  std::string text;
  std::vector<ReportSpan> kernels;
  std::vector<ReportSpan> findings;
  static constexpr auto WireFields() {
    using S = ReportResult;
    return std::tuple{Field("uri", &S::uri), Field("text", &S::text), Field("kernels", &S::kernels),
                      Field("findings", &S::findings)};
  }
  bool operator==(const ReportResult&) const = default;
};

// The uri of a profile's report, and the profile id of a report uri ("" when `uri` is not one).
std::string ReportUri(const std::string& profile_id);
std::string ProfileIdOfReportUri(const std::string& uri);

// Hand-written reader and writer: line and character must not be negative.
struct Position {
  int64_t line = 0;
  int64_t character = 0;
  bool operator==(const Position&) const = default;
};

struct Range {
  Position start;
  Position end;
  static constexpr auto WireFields() {
    using S = Range;
    return std::tuple{Field("start", &S::start), Field("end", &S::end)};
  }
  bool operator==(const Range&) const = default;
};

// Hand-written reader and writer: the uri is nested in textDocument.
struct HoverParams {  // textDocument/hover (TextDocumentPositionParams)
  std::string uri;    // textDocument.uri
  Position position;
  bool operator==(const HoverParams&) const = default;
};

struct MarkupContent {
  std::string kind = "markdown";
  std::string value;
  static constexpr auto WireFields() {
    using S = MarkupContent;
    return std::tuple{Field("kind", &S::kind), Field("value", &S::value)};
  }
  bool operator==(const MarkupContent&) const = default;
};

struct Hover {
  MarkupContent contents;
  std::optional<Range> range;
  static constexpr auto WireFields() {
    using S = Hover;
    return std::tuple{Field("contents", &S::contents), Field("range", &S::range)};
  }
  bool operator==(const Hover&) const = default;
};

// The result of textDocument/hover: a Hover, or JSON null when there is nothing to show.
// Hand-written reader and writer: a Hover, or null.
struct HoverResult {
  std::optional<Hover> hover;
  using WireShape = std::optional<Hover>;  // its JSON (shape.h)
  bool operator==(const HoverResult&) const = default;
};

struct TextDocumentItem {  // textDocument/didOpen's textDocument
  std::string uri;
  std::string language_id;
  int64_t version = 0;
  std::string text;
  static constexpr auto WireFields() {
    using S = TextDocumentItem;
    return std::tuple{Field("uri", &S::uri), OptionalField("languageId", &S::language_id),
                      OptionalField("version", &S::version), Field("text", &S::text)};
  }
  bool operator==(const TextDocumentItem&) const = default;
};

struct DidOpenParams {
  TextDocumentItem text_document;
  static constexpr auto WireFields() {
    using S = DidOpenParams;
    return std::tuple{Field("textDocument", &S::text_document)};
  }
  bool operator==(const DidOpenParams&) const = default;
};

// Hand-written reader and writer: the uri and version are nested in textDocument, the texts in contentChanges.
struct DidChangeParams {  // textDocumentSync.change = 1 (full): the last change's text is the document
  std::string uri;        // textDocument.uri
  std::optional<int64_t> version;
  std::vector<std::string> texts;  // contentChanges[].text
  bool operator==(const DidChangeParams&) const = default;
};

// Hand-written reader and writer: the uri is nested in textDocument.
struct DidCloseParams {  // also textDocument/didSave's (its optional text is ignored)
  std::string uri;       // textDocument.uri
  bool operator==(const DidCloseParams&) const = default;
};

enum class DiagnosticSeverity { kError = 1, kWarning = 2, kInformation = 3, kHint = 4 };

// Hand-written reader and writer: severity must be 1 to 4.
struct Diagnostic {
  Range range;
  DiagnosticSeverity severity = DiagnosticSeverity::kHint;
  std::string source = "nsys-ai";
  std::string code;  // the root cause id
  std::string message;
  bool operator==(const Diagnostic&) const = default;
};

struct PublishDiagnosticsParams {  // textDocument/publishDiagnostics
  std::string uri;
  std::vector<Diagnostic> diagnostics;
  static constexpr auto WireFields() {
    using S = PublishDiagnosticsParams;
    return std::tuple{Field("uri", &S::uri), Field("diagnostics", &S::diagnostics)};
  }
  bool operator==(const PublishDiagnosticsParams&) const = default;
};

#define NSYS_DOCUMENT_CONVERSIONS(Type)                                \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_DOCUMENT_CONVERSIONS(ReportParams)
NSYS_DOCUMENT_CONVERSIONS(ReportSpan)
NSYS_DOCUMENT_CONVERSIONS(ReportResult)
NSYS_DOCUMENT_CONVERSIONS(Position)
NSYS_DOCUMENT_CONVERSIONS(Range)
NSYS_DOCUMENT_CONVERSIONS(HoverParams)
NSYS_DOCUMENT_CONVERSIONS(MarkupContent)
NSYS_DOCUMENT_CONVERSIONS(Hover)
NSYS_DOCUMENT_CONVERSIONS(HoverResult)
NSYS_DOCUMENT_CONVERSIONS(TextDocumentItem)
NSYS_DOCUMENT_CONVERSIONS(DidOpenParams)
NSYS_DOCUMENT_CONVERSIONS(DidChangeParams)
NSYS_DOCUMENT_CONVERSIONS(DidCloseParams)
NSYS_DOCUMENT_CONVERSIONS(Diagnostic)
NSYS_DOCUMENT_CONVERSIONS(PublishDiagnosticsParams)
#undef NSYS_DOCUMENT_CONVERSIONS

}  // namespace nsys::protocol
