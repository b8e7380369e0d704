#pragma once
// Rendering a skill's table for people (aligned text, Markdown) and for scripts (JSON, CSV).
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "nsys/skills/skill.h"

namespace nsys::cli {

enum class OutputFormat { kTable, kJson, kCsv, kMarkdown };
std::optional<OutputFormat> ParseOutputFormat(std::string_view text);

struct RenderOptions {
  bool full_names = false;     // table/markdown: keep long names whole (CSV and JSON always do)
  size_t max_name_width = 60;  // table/markdown: name columns are shortened (C++ signatures) and cut to this
  size_t max_text_width = 80;  // table/markdown: other long strings
};

std::string RenderTable(const skills::Table& table, OutputFormat format, const RenderOptions& options = {});

// "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)" → "at::native::vectorized_elementwise_kernel":
// drops the return type, template arguments and parameter list of a demangled C++ name. Other text is returned as is.
std::string ShortenCxxName(std::string_view name);
// Cuts `text` to at most `width` characters (UTF-8 aware), ending in "…" when cut.
std::string Ellipsize(std::string_view text, size_t width);
// Display width in characters of UTF-8 text.
size_t DisplayWidth(std::string_view text);
// 1234567 → "1,234,567".
std::string GroupThousands(int64_t value);

}  // namespace nsys::cli
