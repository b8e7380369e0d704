// The C/C++/CUDA tokenizer: comments (// with continuations, /* */), `#if 0` blocks, string literals with every
// encoding prefix and raw strings R"d(...)d", character literals, pp-numbers (digit separators), punctuation
// ("::" and "->" as one token).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lex.h"

namespace nsys::source::detail {
namespace {

bool IsStringPrefix(std::string_view p, bool* raw) {
  static constexpr std::string_view kPlain[] = {"L", "u8", "u", "U"};
  static constexpr std::string_view kRaw[] = {"R", "LR", "u8R", "uR", "UR"};
  *raw = std::find(std::begin(kRaw), std::end(kRaw), p) != std::end(kRaw);
  return *raw || std::find(std::begin(kPlain), std::end(kPlain), p) != std::end(kPlain);
}

class CppLexer {
 public:
  CppLexer(std::string_view s, Positions& pos) : s_(s), pos_(pos) {}
  std::vector<Token> Run();

 private:
  void Emit(Token::Type type, size_t begin, size_t end, std::string value = {});
  void LexString(size_t begin, bool raw);
  void LexQuoted(char quote, std::string* value);
  bool SkipIfZero();
  void SkipLineComment();
  bool AtLineStart(size_t i) const;

  std::string_view s_;
  Positions& pos_;
  size_t i_ = 0;
  std::vector<Token> out_;
};

bool CppLexer::AtLineStart(size_t i) const {
  while (i > 0 && (s_[i - 1] == ' ' || s_[i - 1] == '\t')) --i;
  return i == 0 || s_[i - 1] == '\n';
}

void CppLexer::SkipLineComment() {
  while (i_ < s_.size() && s_[i_] != '\n') {
    if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') ++i_;  // continued comment
    ++i_;
  }
}

// At a '#' that starts a line: skips an `#if 0` block up to its #else/#elif/#endif. Returns whether it did.
bool CppLexer::SkipIfZero() {
  size_t k = i_ + 1;
  while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t')) ++k;
  if (s_.substr(k, 2) != "if") return false;
  k += 2;
  if (k >= s_.size() || (s_[k] != ' ' && s_[k] != '\t')) return false;
  while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t')) ++k;
  if (k >= s_.size() || s_[k] != '0') return false;
  ++k;
  while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t' || s_[k] == '\r')) ++k;
  if (k < s_.size() && s_[k] != '\n' && s_.substr(k, 2) != "//" && s_.substr(k, 2) != "/*") return false;
  int nesting = 0;
  const size_t stop = s_.find('\n', k);
  // Resume at the line of the closing directive (it is lexed normally as punctuation and identifiers).
  size_t resume = s_.size();
  for (size_t line = stop; line != std::string_view::npos; line = s_.find('\n', line + 1)) {
    size_t d = line + 1;
    while (d < s_.size() && (s_[d] == ' ' || s_[d] == '\t')) ++d;
    if (d < s_.size() && s_[d] == '#') {
      ++d;
      while (d < s_.size() && (s_[d] == ' ' || s_[d] == '\t')) ++d;
      const std::string_view word = s_.substr(d, 5);
      if (word.substr(0, 2) == "if") {
        ++nesting;
      } else if (word == "endif" || word.substr(0, 4) == "else" || word.substr(0, 4) == "elif") {
        if (nesting == 0) {
          resume = line + 1;
          break;
        }
        if (word == "endif") --nesting;
      }
    }
  }
  i_ = resume;
  return true;
}

std::vector<Token> CppLexer::Run() {
  while (i_ < s_.size()) {
    const char c = s_[i_];
    const char n = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || (c == '\\' && n == '\n')) {
      ++i_;
    } else if (c == '/' && n == '/') {
      SkipLineComment();
    } else if (c == '/' && n == '*') {
      const size_t close = s_.find("*/", i_ + 2);
      i_ = close == std::string_view::npos ? s_.size() : close + 2;
    } else if (c == '#' && AtLineStart(i_) && SkipIfZero()) {
      continue;
    } else if (IsDigit(c) || (c == '.' && IsDigit(n))) {
      const size_t b = i_;
      while (i_ < s_.size()) {
        const char d = s_[i_];
        const bool sign = (d == '+' || d == '-') && (s_[i_ - 1] | 0x20) == 'e';
        const bool sep = d == '\'' && i_ + 1 < s_.size() && IsIdentByte(static_cast<unsigned char>(s_[i_ + 1]));
        if (!IsIdentByte(static_cast<unsigned char>(d)) && d != '.' && !sign && !sep) break;
        ++i_;
      }
      Emit(Token::kNumber, b, i_);
    } else if (IsIdentByte(static_cast<unsigned char>(c)) || c == '$') {
      const size_t b = i_;
      while (i_ < s_.size() && (IsIdentByte(static_cast<unsigned char>(s_[i_])) || s_[i_] == '$')) ++i_;
      bool raw = false;
      if (i_ < s_.size() && s_[i_] == '"' && IsStringPrefix(s_.substr(b, i_ - b), &raw)) {
        LexString(b, raw);
      } else if (i_ < s_.size() && s_[i_] == '\'' && IsStringPrefix(s_.substr(b, i_ - b), &raw) && !raw) {
        LexQuoted('\'', nullptr);
        Emit(Token::kNumber, b, i_);  // a character literal
      } else {
        Emit(Token::kIdent, b, i_);
      }
    } else if (c == '"') {
      LexString(i_, false);
    } else if (c == '\'') {
      const size_t b = i_;
      LexQuoted('\'', nullptr);
      Emit(Token::kNumber, b, i_);
    } else {
      const bool two = (c == ':' && n == ':') || (c == '-' && n == '>');
      Emit(Token::kPunct, i_, i_ + (two ? 2 : 1));
      i_ += two ? 2 : 1;
    }
  }
  return std::move(out_);
}

// From the opening quote at i_: to after the closing one (or the end of the line when unterminated).
void CppLexer::LexQuoted(char quote, std::string* value) {
  ++i_;
  while (i_ < s_.size() && s_[i_] != quote && s_[i_] != '\n') {
    if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
      const char e = s_[i_ + 1];
      if (value) {
        if (e == 'n')
          *value += '\n';
        else if (e == 't')
          *value += '\t';
        else if (e == '\\' || e == '"' || e == '\'' || e == '?')
          *value += e;
        else if (e != '\n')
          value->append(s_.substr(i_, 2));
      }
      i_ += 2;
      continue;
    }
    if (value) *value += s_[i_];
    ++i_;
  }
  if (i_ < s_.size() && s_[i_] == quote) ++i_;
}

void CppLexer::LexString(size_t begin, bool raw) {
  while (s_[i_] != '"') ++i_;  // past the prefix
  std::string value;
  if (!raw) {
    LexQuoted('"', &value);
    Emit(Token::kString, begin, i_, std::move(value));
    return;
  }
  const size_t open = s_.find('(', i_ + 1);
  const size_t line_end = s_.find('\n', i_ + 1);
  if (open == std::string_view::npos || open - i_ - 1 > 16 || (line_end != std::string_view::npos && line_end < open)) {
    LexQuoted('"', &value);  // not a valid raw string: read it as a plain one
    Emit(Token::kString, begin, i_, std::move(value));
    return;
  }
  const std::string close = ")" + std::string(s_.substr(i_ + 1, open - i_ - 1)) + "\"";
  const size_t end = s_.find(close, open + 1);
  const size_t content_end = end == std::string_view::npos ? s_.size() : end;
  value = std::string(s_.substr(open + 1, content_end - open - 1));
  i_ = end == std::string_view::npos ? s_.size() : end + close.size();
  Emit(Token::kString, begin, i_, std::move(value));
}

void CppLexer::Emit(Token::Type type, size_t begin, size_t end, std::string value) {
  out_.push_back(MakeToken(pos_, s_, type, begin, end, std::move(value), false));
}

}  // namespace

std::vector<Token> LexCpp(std::string_view text, Positions& pos) {
  return CppLexer(text, pos).Run();
}

}  // namespace nsys::source::detail
