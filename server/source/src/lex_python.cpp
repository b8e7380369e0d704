// The Python tokenizer: identifiers, strings (every prefix, triple quotes, f-string fields), numbers, punctuation;
// comments skipped; logical lines (brackets and backslashes continue a line) with their indentation.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lex.h"

namespace nsys::source::detail {
namespace {

bool IsStringPrefix(std::string_view p) {
  if (p.empty() || p.size() > 2) return false;
  std::string lower(p);
  for (auto& c : lower) c = static_cast<char>(c | 0x20);
  static constexpr std::string_view kPrefixes[] = {"r", "u", "b", "f", "br", "rb", "fr", "rf"};
  for (auto k : kPrefixes) {
    if (lower == k) return true;
  }
  return false;
}

class PyLexer {
 public:
  PyLexer(std::string_view s, Positions& pos) : s_(s), pos_(pos) {}
  std::vector<Token> Run();

 private:
  void Emit(Token::Type type, size_t begin, size_t end, std::string value = {}, bool dynamic = false);
  void LexString(size_t begin, std::string_view prefix);
  size_t StringBody(bool raw, bool fmt, char quote, bool triple, std::string& value, bool& dynamic);
  int IndentOf(size_t offset) const;

  std::string_view s_;
  Positions& pos_;
  size_t i_ = 0;
  int depth_ = 0;
  bool at_line_start_ = true;
  std::vector<Token> out_;
};

std::vector<Token> PyLexer::Run() {
  while (i_ < s_.size()) {
    const char c = s_[i_];
    if (c == '\n') {
      if (depth_ == 0) at_line_start_ = true;
      ++i_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i_;
    } else if (c == '#') {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
    } else if (c == '\\') {
      i_ += (i_ + 1 < s_.size() && s_[i_ + 1] == '\r') ? 3 : 2;  // a continuation (or a stray backslash)
    } else if (IsDigit(c) || (c == '.' && i_ + 1 < s_.size() && IsDigit(s_[i_ + 1]))) {
      const size_t b = i_;
      while (i_ < s_.size() && (IsIdentByte(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
      Emit(Token::kNumber, b, i_);
    } else if (IsIdentByte(static_cast<unsigned char>(c))) {
      const size_t b = i_;
      while (i_ < s_.size() && IsIdentByte(static_cast<unsigned char>(s_[i_]))) ++i_;
      if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') && IsStringPrefix(s_.substr(b, i_ - b))) {
        LexString(b, s_.substr(b, i_ - b));
      } else {
        Emit(Token::kIdent, b, i_);
      }
    } else if (c == '"' || c == '\'') {
      LexString(i_, {});
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth_;
      if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
      Emit(Token::kPunct, i_, i_ + 1);
      ++i_;
    }
  }
  return std::move(out_);
}

int PyLexer::IndentOf(size_t offset) const {
  size_t start = offset;
  while (start > 0 && s_[start - 1] != '\n') --start;
  int indent = 0;
  for (size_t k = start; k < offset; ++k) indent = s_[k] == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
  return indent;
}

void PyLexer::Emit(Token::Type type, size_t begin, size_t end, std::string value, bool dynamic) {
  Token t = MakeToken(pos_, s_, type, begin, end, std::move(value), dynamic);
  if (at_line_start_) {
    t.line_start = true;
    t.indent = IndentOf(begin);
    at_line_start_ = false;
  }
  out_.push_back(std::move(t));
}

void PyLexer::LexString(size_t begin, std::string_view prefix) {
  bool raw = false, fmt = false;
  for (char c : prefix) {
    raw |= (c | 0x20) == 'r';
    fmt |= (c | 0x20) == 'f';
  }
  i_ = begin + prefix.size();
  const char quote = s_[i_];
  const bool triple = s_.substr(i_, 3) == std::string(3, quote);
  i_ += triple ? 3 : 1;
  std::string value;
  bool dynamic = false;
  i_ = StringBody(raw, fmt, quote, triple, value, dynamic);
  Emit(Token::kString, begin, i_, std::move(value), dynamic);
}

// Returns the offset after the closing quote (or where an unterminated string ends).
size_t PyLexer::StringBody(bool raw, bool fmt, char quote, bool triple, std::string& value, bool& dynamic) {
  size_t i = i_;
  while (i < s_.size()) {
    const char c = s_[i];
    if (c == quote && (!triple || s_.substr(i, 3) == std::string(3, quote))) return i + (triple ? 3 : 1);
    if (c == '\n' && !triple) return i;  // unterminated: the line ends it
    if (c == '\\' && i + 1 < s_.size()) {
      if (!dynamic) AppendEscape(s_, i, raw, "'\"", value);
      i += 2;
      continue;
    }
    if (fmt && (c == '{' || c == '}')) {
      if (i + 1 < s_.size() && s_[i + 1] == c) {
        if (!dynamic) value += c;
        i += 2;
        continue;
      }
      if (c == '{') dynamic = true;
      ++i;
      continue;
    }
    if (!dynamic) value += c;
    ++i;
  }
  return i;
}

}  // namespace

std::vector<Token> LexPython(std::string_view text, Positions& pos) {
  return PyLexer(text, pos).Run();
}

std::vector<PyLogicalLine> PythonLogicalLines(const std::vector<Token>& tokens) {
  std::vector<PyLogicalLine> lines;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].line_start || lines.empty()) {
      if (!lines.empty()) lines.back().end = i;
      PyLogicalLine l;
      l.first = i;
      l.indent = tokens[i].indent;
      l.first_line = l.last_line = tokens[i].line;
      lines.push_back(l);
    }
    lines.back().last_line = std::max(lines.back().last_line, tokens[i].end_line);
  }
  if (!lines.empty()) lines.back().end = tokens.size();
  std::vector<size_t> open;  // block headers not closed yet: a line less or equally indented closes them
  for (size_t k = 0; k < lines.size(); ++k) {
    while (!open.empty() && lines[open.back()].indent >= lines[k].indent) {
      lines[open.back()].suite_end = lines[k - 1].last_line;
      open.pop_back();
    }
    lines[k].suite_end = lines[k].last_line;
    open.push_back(k);
  }
  for (size_t k : open) lines[k].suite_end = lines.back().last_line;
  return lines;
}

}  // namespace nsys::source::detail
