#include "table_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/support/human_numbers.h"
#include "nsys/wire/converters.h"

namespace nsys::cli {
namespace {

bool IsNumeric(ValueType type) {
  return type == ValueType::kInt || type == ValueType::kDouble;
}

std::string FormatDouble(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  std::string text = fmt::format("{:.2f}", value);
  // Group the integer part: 12345.67 → 12,345.67.
  const bool negative = text[0] == '-';
  const size_t dot = text.find('.');
  std::string integer = text.substr(negative ? 1 : 0, dot - (negative ? 1 : 0));
  std::string grouped;
  for (size_t i = 0; i < integer.size(); ++i) {
    if (i > 0 && (integer.size() - i) % 3 == 0) grouped += ',';
    grouped += integer[i];
  }
  return (negative ? "-" : "") + grouped + text.substr(dot);
}

bool IsNameColumn(const std::string& column) {
  return column == "name" || (column.size() > 5 && column.compare(column.size() - 5, 5, "_name") == 0) ||
         column.find("kernel") != std::string::npos || column.find("range") != std::string::npos;
}

// A cell as people read it.
std::string HumanCell(const Value& value, const std::string& column, const RenderOptions& options) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "-";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return support::Thousands(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return FormatDouble(v);
        } else {
          if (options.full_names) return v;
          return IsNameColumn(column) ? Ellipsize(ShortenCxxName(v), options.max_name_width)
                                      : Ellipsize(v, options.max_text_width);
        }
      },
      value);
}

// A cell for CSV: exact, unformatted; empty where JSON has null (null, NaN, infinities).
std::string RawCell(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "";
        } else if constexpr (std::is_same_v<T, double>) {
          return std::isfinite(v) ? fmt::format("{}", v) : "";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

std::string CsvQuote(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string MarkdownEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += (c == '\n' ? ' ' : c);
  }
  return out;
}

std::string Pad(const std::string& text, size_t width, bool right) {
  const size_t shown = DisplayWidth(text);
  const std::string fill(width > shown ? width - shown : 0, ' ');
  return right ? fill + text : text + fill;
}

std::string RenderAligned(const protocol::RunSkillResult& table, const RenderOptions& options) {
  const size_t n = table.columns.size();
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths(n, 0);
  for (size_t c = 0; c < n; ++c) widths[c] = DisplayWidth(table.columns[c].name);
  for (const auto& row : table.rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < n; ++c) {
      line.push_back(c < row.size() ? HumanCell(row[c], table.columns[c].name, options) : "");
      widths[c] = std::max(widths[c], DisplayWidth(line.back()));
    }
    cells.push_back(std::move(line));
  }
  auto emit = [&](const std::vector<std::string>& line, std::string& out) {
    std::string text;
    for (size_t c = 0; c < n; ++c) {
      if (c > 0) text += "  ";
      text += Pad(line[c], widths[c], IsNumeric(table.columns[c].type));
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  std::string out;
  std::vector<std::string> header, rule;
  for (size_t c = 0; c < n; ++c) {
    header.push_back(table.columns[c].name);
    rule.push_back(std::string(widths[c], '-'));
  }
  emit(header, out);
  emit(rule, out);
  for (const auto& line : cells) emit(line, out);
  return out;
}

std::string RenderMarkdown(const protocol::RunSkillResult& table, const RenderOptions& options) {
  std::string out = "|";
  for (const auto& column : table.columns) out += " " + MarkdownEscape(column.name) + " |";
  out += "\n|";
  for (const auto& column : table.columns) out += IsNumeric(column.type) ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c) {
      out += " " + MarkdownEscape(HumanCell(row[c], table.columns[c].name, options)) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string RenderCsv(const protocol::RunSkillResult& table) {
  std::string out;
  for (size_t c = 0; c < table.columns.size(); ++c) out += (c ? "," : "") + CsvQuote(table.columns[c].name);
  out += "\n";
  for (const auto& row : table.rows) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + CsvQuote(RawCell(row[c]));
    out += "\n";
  }
  return out;
}

}  // namespace

std::optional<OutputFormat> ParseOutputFormat(std::string_view text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "json") return OutputFormat::kJson;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "markdown" || text == "md") return OutputFormat::kMarkdown;
  return std::nullopt;
}

std::string JsonText(const protocol::Json& json) {
  return json.dump(2, ' ', false, protocol::Json::error_handler_t::replace);
}

std::string RenderTable(const protocol::RunSkillResult& table, OutputFormat format, const RenderOptions& options) {
  switch (format) {
    case OutputFormat::kTable:
      return RenderAligned(table, options);
    case OutputFormat::kMarkdown:
      return RenderMarkdown(table, options);
    case OutputFormat::kCsv:
      return RenderCsv(table);
    case OutputFormat::kJson:
      return JsonText(protocol::Json(table)) + "\n";
  }
  return {};
}

std::string ShortenCxxName(std::string_view name) {
  // Only demangled signatures: "ns::f<...>(...)" or "void f(...)". NVTX texts such as "Step (1)" stay whole.
  const bool signature = !name.empty() && name.find('(') != std::string_view::npos &&
                         (name.find("::") != std::string_view::npos || name.find('<') != std::string_view::npos ||
                          name.rfind("void ", 0) == 0);
  if (!signature) return std::string(name);
  std::string text(name);
  for (const std::string_view anon : {"(anonymous namespace)", "{anonymous}"}) {
    for (size_t at; (at = text.find(anon)) != std::string::npos;) text.replace(at, anon.size(), "(anon)");
  }
  // Drop the template arguments and the parameter list: keep what is outside <...> and (...) at depth 0, except
  // "(anon)".
  std::string kept;
  int angle = 0, paren = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (paren == 0 && text.compare(i, 6, "(anon)") == 0 && angle == 0) {
      kept += "(anon)";
      i += 5;
      continue;
    }
    if (c == '<' && paren == 0) {
      ++angle;
    } else if (c == '>' && paren == 0 && angle > 0) {
      --angle;
    } else if (c == '(') {
      ++paren;
    } else if (c == ')' && paren > 0) {
      --paren;
    } else if (angle == 0 && paren == 0) {
      kept += c;
    }
  }
  // Drop a return type ("void ") and trailing qualifiers (" const"): the name is the last word containing text.
  while (!kept.empty() && kept.back() == ' ') kept.pop_back();
  if (kept.size() >= 6 && kept.compare(kept.size() - 6, 6, " const") == 0) kept.resize(kept.size() - 6);
  if (auto space = kept.rfind(' '); space != std::string::npos) kept = kept.substr(space + 1);
  return kept.empty() ? std::string(name) : kept;
}

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;  // count lead bytes
  return width;
}

std::string Ellipsize(std::string_view text, size_t width) {
  if (width == 0 || DisplayWidth(text) <= width) return std::string(text);
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80) {
      if (chars == width - 1) break;
      ++chars;
    }
    out += text[i];
  }
  return out + "…";
}

}  // namespace nsys::cli
