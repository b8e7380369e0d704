// Julia: NVTX.@range "x" / @range "x" (also @range("x", ...)); strings with $ interpolation give prefixes;
// comments (# and nested #= =#) skipped; `function ... end` and the block after the literal by keyword matching.
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lex.h"

namespace nsys::source::detail {
namespace {

class JuliaLexer {
 public:
  JuliaLexer(std::string_view s, Positions& pos) : s_(s), pos_(pos) {}
  std::vector<Token> Run();

 private:
  void Emit(Token::Type type, size_t begin, size_t end, std::string value = {}, bool dynamic = false);
  void LexString(size_t begin, bool raw);
  void SkipBlockComment();
  bool AdjointHere() const;

  std::string_view s_;
  Positions& pos_;
  size_t i_ = 0;
  std::vector<Token> out_;
};

void JuliaLexer::SkipBlockComment() {
  int depth = 0;
  while (i_ < s_.size()) {
    if (s_.substr(i_, 2) == "#=") {
      ++depth;
      i_ += 2;
    } else if (s_.substr(i_, 2) == "=#") {
      i_ += 2;
      if (--depth == 0) return;
    } else {
      ++i_;
    }
  }
}

// A quote right after an identifier, number or closing bracket is the adjoint operator, not a character.
bool JuliaLexer::AdjointHere() const {
  if (out_.empty() || out_.back().end != i_) return false;
  const Token& p = out_.back();
  return p.type == Token::kIdent || p.type == Token::kNumber || p.text == ")" || p.text == "]" || p.text == "}" ||
         p.text == "'";
}

std::vector<Token> JuliaLexer::Run() {
  while (i_ < s_.size()) {
    const char c = s_[i_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i_;
    } else if (s_.substr(i_, 2) == "#=") {
      SkipBlockComment();
    } else if (c == '#') {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
    } else if (IsDigit(c)) {
      const size_t b = i_;
      while (i_ < s_.size() && (IsIdentByte(static_cast<unsigned char>(s_[i_])) ||
                                (s_[i_] == '.' && i_ + 1 < s_.size() && IsDigit(s_[i_ + 1])))) {
        ++i_;
      }
      Emit(Token::kNumber, b, i_);
    } else if (IsIdentByte(static_cast<unsigned char>(c))) {
      const size_t b = i_;
      while (i_ < s_.size() && (IsIdentByte(static_cast<unsigned char>(s_[i_])) || s_[i_] == '!')) ++i_;
      if (i_ < s_.size() && s_[i_] == '"') {
        LexString(b, true);  // a string macro: raw"...", r"...", ...
      } else {
        Emit(Token::kIdent, b, i_);
      }
    } else if (c == '"' || c == '`') {
      LexString(i_, c == '`');
    } else if (c == '\'' && !AdjointHere()) {
      const size_t b = i_++;
      while (i_ < s_.size() && s_[i_] != '\'' && s_[i_] != '\n') i_ += s_[i_] == '\\' ? 2 : 1;
      i_ = std::min(s_.size(), i_ + 1);
      Emit(Token::kNumber, b, i_);
    } else {
      Emit(Token::kPunct, i_, i_ + 1);
      ++i_;
    }
  }
  return std::move(out_);
}

void JuliaLexer::LexString(size_t begin, bool raw) {
  while (s_[i_] != '"' && s_[i_] != '`') ++i_;
  const char quote = s_[i_];
  const bool triple = s_.substr(i_, 3) == std::string(3, quote);
  i_ += triple ? 3 : 1;
  std::string value;
  bool dynamic = false;
  while (i_ < s_.size()) {
    const char c = s_[i_];
    if (c == quote && (!triple || s_.substr(i_, 3) == std::string(3, quote))) {
      i_ += triple ? 3 : 1;
      break;
    }
    if (c == '\\' && i_ + 1 < s_.size()) {
      if (!dynamic) AppendEscape(s_, i_, raw, "\"$", value);
      i_ += 2;
      continue;
    }
    if (c == '$' && !raw) dynamic = true;
    if (!dynamic) value += c;
    ++i_;
  }
  Emit(Token::kString, begin, i_, std::move(value), dynamic);
}

void JuliaLexer::Emit(Token::Type type, size_t begin, size_t end, std::string value, bool dynamic) {
  out_.push_back(MakeToken(pos_, s_, type, begin, end, std::move(value), dynamic));
}

struct Block {
  bool function = false;
  std::string name;
  size_t opener = 0;  // token index of the keyword
  int first_line = 0;
  int last_line = -1;
  size_t brackets = 0;  // bracket depth where it opened
};

class JuliaScan {
 public:
  JuliaScan(std::string_view text, const std::string& file) : pos_(text), file_(file) {
    tokens_ = LexJulia(text, pos_);
  }
  void Run(std::vector<Annotation>& out);

 private:
  bool Opens(size_t j) const;
  void Open(size_t j);
  void Close(size_t j, std::vector<Annotation>& out);
  void MatchRange(size_t j, std::vector<Annotation>& out);

  Positions pos_;
  const std::string& file_;
  std::vector<Token> tokens_;
  std::vector<char> brackets_;
  std::vector<Block> blocks_;                          // every block seen
  std::vector<size_t> open_;                           // indices of open blocks, innermost last
  std::vector<int> function_of_;                       // per annotation: its enclosing function block, -1
  std::unordered_map<size_t, size_t> body_of_opener_;  // opener token -> annotation index
};

bool JuliaScan::Opens(size_t j) const {
  static constexpr std::string_view kAlways[] = {"function", "macro",  "let",        "quote", "do",   "try",
                                                 "struct",   "module", "baremodule", "while", "begin"};
  const Token& t = tokens_[j];
  if (j > 0 && (IsPunct(tokens_[j - 1], ".") || IsPunct(tokens_[j - 1], "@") || IsPunct(tokens_[j - 1], ":"))) {
    return false;  // a field, a macro or a symbol
  }
  const char inner = brackets_.empty() ? '\0' : brackets_.back();
  if (inner == '[') return false;  // begin/end index, comprehensions
  if (t.text == "for" || t.text == "if") return inner == '\0' || inner == '{';
  if ((t.text == "abstract" || t.text == "primitive") && j + 1 < tokens_.size()) return IsIdent(tokens_[j + 1], "type");
  return std::find(std::begin(kAlways), std::end(kAlways), t.text) != std::end(kAlways);
}

void JuliaScan::Open(size_t j) {
  Block b;
  b.opener = j;
  b.first_line = tokens_[j].line;
  b.brackets = brackets_.size();
  if (tokens_[j].text == "function") {
    b.function = true;
    for (size_t k = j + 1; k < tokens_.size() && k < j + 16 && tokens_[k].line == tokens_[j].line; ++k) {
      if (tokens_[k].type == Token::kIdent)
        b.name = std::string(tokens_[k].text);
      else if (!IsPunct(tokens_[k], "."))
        break;
    }
  }
  blocks_.push_back(std::move(b));
  open_.push_back(blocks_.size() - 1);
}

void JuliaScan::Close(size_t j, std::vector<Annotation>& out) {
  if (open_.empty() || blocks_[open_.back()].brackets != brackets_.size()) return;
  Block& b = blocks_[open_.back()];
  b.last_line = tokens_[j].line;
  open_.pop_back();
  const auto body = body_of_opener_.find(b.opener);
  if (body != body_of_opener_.end()) out[body->second].body = LineSpan{b.first_line, b.last_line};
}

void JuliaScan::MatchRange(size_t j, std::vector<Annotation>& out) {
  // tokens_[j] is '@' followed by `range` (adjacent).
  size_t k = j + 2;
  if (k < tokens_.size() && IsPunct(tokens_[k], "(") && tokens_[k].begin == tokens_[j + 1].end) ++k;
  Literal lit;
  if (!ReadLiteral(tokens_, k, lit) || lit.value.empty()) return;
  Annotation a;
  a.file = file_;
  a.api = Api::kJuliaRange;
  a.kind = Kind::kJuliaMacro;
  a.name = lit.value;
  a.prefix_only = lit.prefix_only || (lit.last + 1 < tokens_.size() && IsPunct(tokens_[lit.last + 1], "*"));
  const bool qualified = j >= 2 && IsPunct(tokens_[j - 1], ".") && IsIdent(tokens_[j - 2], "NVTX");
  a.callee = qualified ? "NVTX.@range" : "@range";
  PlaceAt(pos_, tokens_, lit.first, lit.last, a);
  const size_t next = lit.last + 1;
  if (next < tokens_.size() && tokens_[next].type == Token::kIdent && Opens(next)) {
    body_of_opener_[next] = out.size();
  } else {
    a.body = LineSpan{a.end_line, a.end_line};
  }
  int function = -1;
  for (auto it = open_.rbegin(); it != open_.rend() && function < 0; ++it) {
    if (blocks_[*it].function) function = static_cast<int>(*it);
  }
  function_of_.push_back(function);
  out.push_back(std::move(a));
}

void JuliaScan::Run(std::vector<Annotation>& out) {
  const size_t first = out.size();
  for (size_t j = 0; j < tokens_.size(); ++j) {
    const Token& t = tokens_[j];
    if (t.type == Token::kPunct) {
      const char c = t.text[0];
      if (c == '(' || c == '[' || c == '{') brackets_.push_back(c);
      if ((c == ')' || c == ']' || c == '}') && !brackets_.empty()) brackets_.pop_back();
      if (c == '@' && j + 1 < tokens_.size() && IsIdent(tokens_[j + 1], "range") && tokens_[j + 1].begin == t.end) {
        MatchRange(j, out);
      }
    } else if (t.type == Token::kIdent && IsIdent(t, "end")) {
      if (brackets_.empty() || brackets_.back() != '[') Close(j, out);
    } else if (t.type == Token::kIdent && Opens(j)) {
      Open(j);
    }
  }
  for (size_t i = 0; i < function_of_.size(); ++i) {
    if (function_of_[i] < 0) continue;
    const Block& b = blocks_[static_cast<size_t>(function_of_[i])];
    out[first + i].function = b.name;
    out[first + i].function_span = LineSpan{b.first_line, b.last_line >= 0 ? b.last_line : b.first_line};
  }
}

}  // namespace

std::vector<Token> LexJulia(std::string_view text, Positions& pos) {
  return JuliaLexer(text, pos).Run();
}

void ScanJulia(std::string_view text, const std::string& file, std::vector<Annotation>& out) {
  JuliaScan(text, file).Run(out);
}

}  // namespace nsys::source::detail
