// The edit generators' common part: lines and positions, naming, dispatch by language, and applying edits.
#include "nsys/source/edits.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "edit_util.h"

namespace nsys::source {
namespace detail {

Lines::Lines(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
  const size_t first = text.find('\n');
  if (first != std::string_view::npos && first > 0 && text[first - 1] == '\r') newline_ = "\r\n";
}

std::string_view Lines::Text(int line) const {
  if (line < 0 || line >= count()) return {};
  const size_t b = starts_[static_cast<size_t>(line)];
  size_t e = line + 1 < count() ? starts_[static_cast<size_t>(line) + 1] - 1 : text_.size();
  if (e > b && text_[e - 1] == '\r' && line + 1 < count()) --e;
  return text_.substr(b, e - b);
}

std::string_view Lines::Indent(int line) const {
  const std::string_view t = Text(line);
  size_t n = 0;
  while (n < t.size() && (t[n] == ' ' || t[n] == '\t')) ++n;
  return t.substr(0, n);
}

bool Lines::Blank(int line) const {
  return Indent(line).size() == Text(line).size() || Text(line).find_first_not_of(" \t\r\f") == std::string_view::npos;
}

int Lines::Utf16Length(int line) const {
  int n = 0;
  for (char ch : Text(line)) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) == 0x80) continue;
    n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

TextEdit Lines::Replace(int first, int last, std::string text) const {
  return TextEdit{{first, 0}, {last, Utf16Length(last)}, std::move(text)};
}

TextEdit Lines::InsertLineBefore(int line, const std::string& text) const {
  if (line >= count()) {  // after the last line: it may or may not end with a line break
    const int last = count() - 1;
    const bool ends_with_break = !text_.empty() && text_.back() == '\n';
    if (ends_with_break) return TextEdit{{last, 0}, {last, 0}, text + newline_};
    return TextEdit{{last, Utf16Length(last)}, {last, Utf16Length(last)}, newline_ + text};
  }
  return TextEdit{{line, 0}, {line, 0}, text + newline_};
}

std::string EscapeForLiteral(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> NameRanges(const std::string& parent, const std::vector<NameDraft>& drafts) {
  std::map<std::string, int> uses;
  for (const auto& d : drafts) {
    if (!d.callee.empty()) ++uses[d.callee];
  }
  std::vector<std::string> names;
  for (const auto& d : drafts) {
    const bool unique = !d.callee.empty() && uses[d.callee] == 1;
    const std::string& base = d.callee.empty() ? d.keyword : d.callee;
    names.push_back(parent + "/" + base + (unique ? "" : ":" + std::to_string(d.line + 1)));
  }
  return names;
}

void SortEdits(std::vector<TextEdit>& edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    const bool a_insert = a.start == a.end, b_insert = b.start == b.end;  // an insert goes before a replacement
    return std::make_tuple(a.start.line, a.start.character, !a_insert) <
           std::make_tuple(b.start.line, b.start.character, !b_insert);
  });
}

}  // namespace detail

Expected<SourceEdit> RefineRangeEdit(std::string_view text, Language language, const Annotation& range) {
  switch (language) {
    case Language::kPython:
      return detail::RefinePython(text, range);
    case Language::kCpp:
    case Language::kCuda:
      return detail::RefineCpp(text, range);
    default:
      return MakeError(
          ErrorKind::kUnsupported,
          "adding NVTX ranges is supported in Python, C/C++ and CUDA sources, not in this file's language");
  }
}

Expected<SourceEdit> AnnotateFunctionEdit(std::string_view text, Language language, int line) {
  switch (language) {
    case Language::kPython:
      return detail::AnnotatePythonFunction(text, line);
    case Language::kCpp:
    case Language::kCuda:
      return detail::AnnotateCppFunction(text, line);
    default:
      return MakeError(ErrorKind::kUnsupported,
                       "annotating a function is supported in Python, C/C++ and CUDA sources, not in this file's "
                       "language");
  }
}

Expected<std::string> ApplyEdits(std::string_view text, const std::vector<TextEdit>& edits) {
  detail::Lines lines(text);
  // Byte offset of an LSP position (a column past the line's end clamps to it).
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  auto offset = [&](const TextPosition& p) -> Expected<size_t> {
    if (p.line < 0 || p.line >= lines.count() || p.character < 0) {
      return MakeError(ErrorKind::kInvalidArgument, "an edit's position is outside the text");
    }
    const std::string_view t = lines.Text(p.line);
    size_t b = 0;
    int col = 0;
    while (b < t.size() && col < p.character) {
      const auto c = static_cast<unsigned char>(t[b]);
      col += c >= 0xF0 ? 2 : 1;
      ++b;
      while (b < t.size() && (static_cast<unsigned char>(t[b]) & 0xC0) == 0x80) ++b;
    }
    return starts[static_cast<size_t>(p.line)] + b;
  };
  std::string out;
  size_t done = 0;
  for (const auto& e : edits) {
    auto b = offset(e.start);
    if (!b) return b.error();
    auto en = offset(e.end);
    if (!en) return en.error();
    if (*b < done || *en < *b) return MakeError(ErrorKind::kInvalidArgument, "edits overlap or are out of order");
    out.append(text.substr(done, *b - done));
    out += e.new_text;
    done = *en;
  }
  out.append(text.substr(done));
  return out;
}

}  // namespace nsys::source
