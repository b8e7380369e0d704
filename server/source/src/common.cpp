// Positions, literals and the dispatch by language shared by the three scanners.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lex.h"
#include "nsys/source/scanner.h"

namespace nsys::source {
namespace detail {

bool IsPunct(const Token& t, std::string_view p) {
  return t.type == Token::kPunct && t.text == p;
}
bool IsIdent(const Token& t, std::string_view name) {
  return t.type == Token::kIdent && t.text == name;
}

Positions::Positions(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

int Positions::LineOf(uint32_t offset) {
  if (cursor_ >= starts_.size() || starts_[cursor_] > offset) {
    cursor_ = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin()) - 1;
  }
  while (cursor_ + 1 < starts_.size() && starts_[cursor_ + 1] <= offset) ++cursor_;
  return static_cast<int>(cursor_);
}

int Positions::Utf16Column(uint32_t offset) {
  const int line = LineOf(offset);
  uint32_t i = starts_[static_cast<size_t>(line)];
  int column = 0;
  if (line == column_line_ && offset >= column_offset_) {
    i = column_offset_;
    column = column_;
  }
  for (; i < offset && i < text_.size(); ++i) {
    const auto c = static_cast<unsigned char>(text_[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    column += c >= 0xF0 ? 2 : 1;       // 4-byte sequences are surrogate pairs in UTF-16
  }
  column_line_ = line;
  column_offset_ = offset;
  column_ = column;
  return column;
}

bool ReadLiteral(const std::vector<Token>& tokens, size_t i, Literal& out) {
  if (i >= tokens.size() || tokens[i].type != Token::kString) return false;
  out = Literal{};
  out.first = i;
  while (i < tokens.size() && tokens[i].type == Token::kString) {
    if (!out.prefix_only) out.value += tokens[i].value;
    out.prefix_only |= tokens[i].dynamic;
    out.last = i++;
  }
  if (i < tokens.size()) {
    const Token& next = tokens[i];
    if (IsPunct(next, "+")) {
      out.prefix_only = true;
    } else if (IsPunct(next, "%")) {
      out.prefix_only = true;
      out.value = out.value.substr(0, out.value.find('%'));
    } else if (IsPunct(next, ".") && i + 1 < tokens.size() && IsIdent(tokens[i + 1], "format")) {
      out.prefix_only = true;
      out.value = out.value.substr(0, out.value.find('{'));
    }
  }
  return true;
}

void PlaceAt(Positions& pos, const std::vector<Token>& tokens, size_t first, size_t last, Annotation& a) {
  a.line = pos.LineOf(tokens[first].begin);
  a.column = pos.Utf16Column(tokens[first].begin);
  a.end_line = pos.LineOf(tokens[last].end);
  a.end_column = pos.Utf16Column(tokens[last].end);
}

Token MakeToken(Positions& pos, std::string_view text, Token::Type type, size_t begin, size_t end, std::string value,
                bool dynamic) {
  Token t;
  t.type = type;
  t.begin = static_cast<uint32_t>(begin);
  t.end = static_cast<uint32_t>(end);
  t.line = pos.LineOf(t.begin);
  t.end_line = end > begin ? pos.LineOf(t.end - 1) : t.line;
  t.text = text.substr(begin, end - begin);
  t.value = std::move(value);
  t.dynamic = dynamic;
  return t;
}

void AppendEscape(std::string_view text, size_t i, bool raw, std::string_view plain, std::string& value) {
  const char e = text[i + 1];
  if (raw)
    value.append(text.substr(i, 2));
  else if (e == 'n')
    value += '\n';
  else if (e == 't')
    value += '\t';
  else if (e == '\\' || plain.find(e) != std::string_view::npos)
    value += e;
  else if (e != '\n')
    value.append(text.substr(i, 2));
}

}  // namespace detail

const char* ApiName(Api api) {
  switch (api) {
    case Api::kNvtxAnnotate:
      return "nvtx.annotate";
    case Api::kTorchNvtxRange:
      return "torch.cuda.nvtx.range";
    case Api::kTorchRangePush:
      return "torch.cuda.nvtx.range_push";
    case Api::kNvtxPushRange:
      return "nvtx.push_range";
    case Api::kRecordFunction:
      return "record_function";
    case Api::kNvtxRangePushA:
      return "nvtxRangePushA";
    case Api::kNvtxRangePushW:
      return "nvtxRangePushW";
    case Api::kNvtxRangeStartA:
      return "nvtxRangeStartA";
    case Api::kNvtx3ScopedRange:
      return "nvtx3::scoped_range";
    case Api::kNvtx3FuncRange:
      return "NVTX3_FUNC_RANGE";
    case Api::kJuliaRange:
      return "NVTX.@range";
    case Api::kCandidateCall:
      return "candidate";
  }
  return "?";
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kContextManager:
      return "context-manager";
    case Kind::kDecorator:
      return "decorator";
    case Kind::kPush:
      return "push";
    case Kind::kScoped:
      return "scoped";
    case Kind::kFuncRange:
      return "func-range";
    case Kind::kCandidate:
      return "candidate";
    case Kind::kJuliaMacro:
      return "julia-macro";
  }
  return "?";
}

Language LanguageOfPath(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return Language::kUnknown;
  std::string ext(path.substr(dot + 1));
  for (auto& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (ext == "py" || ext == "pyi") return Language::kPython;
  if (ext == "cu" || ext == "cuh") return Language::kCuda;
  if (ext == "jl") return Language::kJulia;
  static constexpr std::string_view kCppExts[] = {"c",  "cc",  "cpp", "cxx", "c++", "h",
                                                  "hh", "hpp", "hxx", "inl", "ipp"};
  for (auto e : kCppExts) {
    if (ext == e) return Language::kCpp;
  }
  return Language::kUnknown;
}

std::vector<Annotation> ScanSource(std::string_view text, Language language, const std::string& file) {
  std::vector<Annotation> out;
  if (text.size() >= UINT32_MAX) return out;  // offsets are 32-bit; the index never reads files this big
  switch (language) {
    case Language::kPython:
      detail::ScanPython(text, file, out);
      break;
    case Language::kCpp:
    case Language::kCuda:
      detail::ScanCpp(text, file, out);
      break;
    case Language::kJulia:
      detail::ScanJulia(text, file, out);
      break;
    case Language::kUnknown:
      break;
  }
  return out;
}

}  // namespace nsys::source
