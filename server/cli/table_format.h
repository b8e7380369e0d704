#pragma once
// Rendering a table (a skill's result, the skill list) for people (aligned text, Markdown) and for scripts (JSON,
// CSV). Tables arrive in their wire shape (protocol::RunSkillResult, from server/wire), so `--format json` prints
// exactly what an editor receives.
//
// CSV (RFC 4180): comma-separated, LF line ends (RFC 4180 says CRLF; every spreadsheet and csv reader takes LF, and
// LF is what the rest of the CLI prints); the first line is the column names; a field containing a comma, a double
// quote, CR or LF is quoted, with inner quotes doubled; null, NaN and infinities are empty cells (JSON writes them as
// null); booleans are true/false; numbers are exact (no grouping, shortest round-trip form). Notes are never in the
// CSV: the commands print them to stderr.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "nsys/wire/converters.h"

namespace nsys::cli {

enum class OutputFormat { kTable, kJson, kCsv, kMarkdown };
std::optional<OutputFormat> ParseOutputFormat(std::string_view text);

struct RenderOptions {
  bool full_names = false;     // table/markdown: keep long names whole (CSV and JSON always do)
  size_t max_name_width = 60;  // table/markdown: name columns are shortened (C++ signatures) and cut to this
  size_t max_text_width = 80;  // table/markdown: other long strings
};

// THE JSON text of `--format json` (indented by 2). Paths in it are already in their lossless form
// (support::PathToText, applied by server/wire); text from a profile that is not valid UTF-8 is written with U+FFFD
// rather than failing the whole answer.
std::string JsonText(const protocol::Json& json);

std::string RenderTable(const protocol::RunSkillResult& table, OutputFormat format, const RenderOptions& options = {});

// "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)" → "at::native::vectorized_elementwise_kernel":
// drops the return type, template arguments and parameter list of a demangled C++ name. Other text is returned as is.
std::string ShortenCxxName(std::string_view name);
// Cuts `text` to at most `width` characters (UTF-8 aware), ending in "…" when cut.
std::string Ellipsize(std::string_view text, size_t width);
// Display width in characters of UTF-8 text.
size_t DisplayWidth(std::string_view text);

}  // namespace nsys::cli
