#pragma once
// The profile as a text document (nsys/report), and the standard LSP document messages the server takes
// part in: textDocument/hover on report uris, textDocument/did{Open,Change,Close,Save} (accepted and kept per
// session), textDocument/publishDiagnostics (findings of nsys/analyze).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/methods.h"

namespace nsys::protocol {

namespace method {
inline constexpr std::string_view kHover = "textDocument/hover";
inline constexpr std::string_view kDidOpen = "textDocument/didOpen";
inline constexpr std::string_view kDidChange = "textDocument/didChange";
inline constexpr std::string_view kDidClose = "textDocument/didClose";
inline constexpr std::string_view kDidSave = "textDocument/didSave";
inline constexpr std::string_view kPublishDiagnostics = "textDocument/publishDiagnostics";
}  // namespace method

struct ReportParams {      // nsys/report
  std::string profile_id;  // "profileId"
  bool operator==(const ReportParams&) const = default;
};

struct ReportSpan {  // a kernel name or a finding in the report's text
  int64_t line = 0;
  int64_t character = 0;  // UTF-16 code units
  int64_t length = 0;
  std::string name;  // kernels: the full name; findings: the root cause id
  bool operator==(const ReportSpan&) const = default;
};

struct ReportResult {
  std::string uri;  // nsys-report://<profileId>/report.md
  std::string text;
  std::vector<ReportSpan> kernels;
  std::vector<ReportSpan> findings;
  bool operator==(const ReportResult&) const = default;
};

// The uri of a profile's report, and the profile id of a report uri ("" when `uri` is not one).
std::string ReportUri(const std::string& profile_id);
std::string ProfileIdOfReportUri(const std::string& uri);

struct Position {
  int64_t line = 0;
  int64_t character = 0;
  bool operator==(const Position&) const = default;
};

struct Range {
  Position start;
  Position end;
  bool operator==(const Range&) const = default;
};

struct HoverParams {  // textDocument/hover (TextDocumentPositionParams)
  std::string uri;    // textDocument.uri
  Position position;
  bool operator==(const HoverParams&) const = default;
};

struct MarkupContent {
  std::string kind = "markdown";
  std::string value;
  bool operator==(const MarkupContent&) const = default;
};

struct Hover {
  MarkupContent contents;
  std::optional<Range> range;
  bool operator==(const Hover&) const = default;
};

// The result of textDocument/hover: a Hover, or JSON null when there is nothing to show.
struct HoverResult {
  std::optional<Hover> hover;
  bool operator==(const HoverResult&) const = default;
};

struct TextDocumentItem {  // textDocument/didOpen's textDocument
  std::string uri;
  std::string language_id;  // "languageId"
  int64_t version = 0;
  std::string text;
  bool operator==(const TextDocumentItem&) const = default;
};

struct DidOpenParams {
  TextDocumentItem text_document;  // "textDocument"
  bool operator==(const DidOpenParams&) const = default;
};

struct DidChangeParams {  // textDocumentSync.change = 1 (full): the last change's text is the document
  std::string uri;        // textDocument.uri
  std::optional<int64_t> version;
  std::vector<std::string> texts;  // contentChanges[].text
  bool operator==(const DidChangeParams&) const = default;
};

struct DidCloseParams {  // also textDocument/didSave's (its optional text is ignored)
  std::string uri;       // textDocument.uri
  bool operator==(const DidCloseParams&) const = default;
};

enum class DiagnosticSeverity { kError = 1, kWarning = 2, kInformation = 3, kHint = 4 };

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
