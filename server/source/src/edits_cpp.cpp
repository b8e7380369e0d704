// C/C++/CUDA edits: each call statement of a range's body in a new `{ }` block opened by the file's scope API (or
// between nvtxRangePushA/nvtxRangePop), and NVTX3_FUNC_RANGE() in a function with no range. Statements are found
// by bracket matching over the tokenizer's tokens (best effort: the preprocessor is not run).
#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "edit_util.h"
#include "nsys/source/scanner.h"

namespace nsys::source::detail {
namespace {

constexpr size_t kNone = SIZE_MAX;

struct Stmt {
  size_t first = 0;  // tokens [first, last]
  size_t last = 0;
};

bool IsNotACall(std::string_view w) {
  static constexpr std::string_view kWords[] = {"if",
                                                "for",
                                                "while",
                                                "switch",
                                                "catch",
                                                "return",
                                                "sizeof",
                                                "decltype",
                                                "alignof",
                                                "noexcept",
                                                "throw",
                                                "alignas",
                                                "defined",
                                                "static_assert",
                                                "static_cast",
                                                "const_cast",
                                                "reinterpret_cast",
                                                "dynamic_cast",
                                                "__attribute__",
                                                "_Pragma",
                                                "do",
                                                "else",
                                                "case",
                                                "new",
                                                "delete",
                                                "co_return",
                                                "co_await",
                                                "requires"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool IsCppNvtxWord(std::string_view w) {
  return w.rfind("nvtxRange", 0) == 0 || w.rfind("scoped_range", 0) == 0 || w.rfind("thread_range", 0) == 0 ||
         w.rfind("NVTX3_FUNC_RANGE", 0) == 0;
}

class CppEdits {
 public:
  explicit CppEdits(std::string_view text) : text_(text), pos_(text), lines_(text) {
    tokens_ = LexCpp(text, pos_);
    close_.assign(tokens_.size(), kNone);
    std::vector<size_t> open;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const Token& t = tokens_[i];
      if (t.type != Token::kPunct || t.text.size() != 1) continue;
      const char c = t.text[0];
      if (c == '(' || c == '[' || c == '{') {
        open.push_back(i);
      } else if (c == ')' || c == ']' || c == '}') {
        const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (!open.empty() && tokens_[open.back()].text[0] == want) {
          close_[open.back()] = i;
          open.pop_back();
        }
      }
    }
    in_string_.assign(static_cast<size_t>(lines_.count()), false);
    for (const Token& t : tokens_) {
      if (t.type != Token::kString) continue;
      for (int l = t.line + 1; l <= t.end_line && l < lines_.count(); ++l) in_string_[static_cast<size_t>(l)] = true;
    }
  }
  Expected<SourceEdit> Refine(const Annotation& range);
  Expected<SourceEdit> AnnotateFunction(int line);

 private:
  size_t Skip(size_t i) const;
  size_t EnclosingBrace(size_t i) const;  // the '{' of the innermost block holding token i  // past a bracket group
                                          // opened at i (to its closing token), else i
  size_t StmtEnd(size_t i, size_t limit) const;
  std::vector<Stmt> Statements(size_t first, size_t limit) const;  // [first, limit)
  bool Compound(const Stmt& s) const;
  bool Has(const Stmt& s, bool (*pred)(std::string_view)) const;
  bool HasWord(const Stmt& s, std::initializer_list<std::string_view> words) const;
  std::string Callee(const Stmt& s) const;
  bool Declares(const Stmt& s) const;
  bool Worth(const Stmt& s, const std::string& own_macro) const;
  std::vector<Stmt> Refinable(std::vector<Stmt> body, const std::string& own_macro) const;
  int Line(size_t i) const { return tokens_[i].line; }
  int EndLine(size_t i) const { return tokens_[i].end_line; }
  bool WholeLines(const Stmt& s) const;
  TextPosition At(uint32_t offset) { return {pos_.LineOf(offset), pos_.Utf16Column(offset)}; }
  std::string Reindented(int first, int last, const std::string& unit) const;
  bool Includes(std::string_view needle) const;
  TextEdit IncludeEdit(const std::string& header) const;
  std::optional<size_t> TokenAt(int line, int column);

  std::string_view text_;
  Positions pos_;
  Lines lines_;
  std::vector<Token> tokens_;
  std::vector<size_t> close_;
  std::vector<bool> in_string_;
};

size_t CppEdits::Skip(size_t i) const {
  return close_[i] != kNone ? close_[i] : i;
}

size_t CppEdits::EnclosingBrace(size_t i) const {
  int depth = 0;
  for (size_t k = i; k-- > 0;) {
    if (IsPunct(tokens_[k], "}")) ++depth;
    if (IsPunct(tokens_[k], "{") && depth-- == 0) return k;
  }
  return 0;
}

// The last token of the statement starting at i (bounded by limit, exclusive).
size_t CppEdits::StmtEnd(size_t i, size_t limit) const {
  if (i >= limit) return limit - 1;
  const Token& t = tokens_[i];
  if (IsPunct(t, "{")) return std::min(Skip(i), limit - 1);
  if (IsPunct(t, "#")) {  // a preprocessor line
    size_t j = i;
    while (j + 1 < limit && tokens_[j + 1].line == t.line) ++j;
    return j;
  }
  if (IsIdent(t, "if") || IsIdent(t, "while") || IsIdent(t, "for") || IsIdent(t, "switch")) {
    size_t j = i + 1;
    if (j < limit && IsIdent(tokens_[j], "constexpr")) ++j;
    if (j >= limit || !IsPunct(tokens_[j], "(")) return StmtEnd(i + 1, limit);
    size_t end = StmtEnd(std::min(Skip(j) + 1, limit - 1), limit);
    if (IsIdent(t, "if") && end + 1 < limit && IsIdent(tokens_[end + 1], "else")) end = StmtEnd(end + 2, limit);
    return end;
  }
  if (IsIdent(t, "do")) {
    size_t end = StmtEnd(i + 1, limit);
    while (end + 1 < limit && !IsPunct(tokens_[end], ";")) ++end;  // while (...) ;
    if (end + 1 < limit && IsIdent(tokens_[end + 1], "while")) return StmtEnd(end + 1, limit);
    return end;
  }
  if (IsIdent(t, "try")) {
    size_t end = StmtEnd(i + 1, limit);
    while (end + 2 < limit && IsIdent(tokens_[end + 1], "catch") && IsPunct(tokens_[end + 2], "(")) {
      end = StmtEnd(std::min(Skip(end + 2) + 1, limit - 1), limit);
    }
    return end;
  }
  for (size_t j = i; j < limit; ++j) {
    const Token& u = tokens_[j];
    if (IsPunct(u, ";")) return j;
    if (IsPunct(u, "(") || IsPunct(u, "[") || IsPunct(u, "{")) {
      if (close_[j] == kNone || close_[j] >= limit) return limit - 1;
      j = close_[j];
    }
  }
  return limit - 1;
}

std::vector<Stmt> CppEdits::Statements(size_t first, size_t limit) const {
  std::vector<Stmt> out;
  for (size_t i = first; i < limit && out.size() < 100000;) {
    if (IsPunct(tokens_[i], ";")) {  // an empty statement
      ++i;
      continue;
    }
    if ((IsIdent(tokens_[i], "case") || IsIdent(tokens_[i], "default") || IsIdent(tokens_[i], "public") ||
         IsIdent(tokens_[i], "private")) ||
        (tokens_[i].type == Token::kIdent && i + 1 < limit && IsPunct(tokens_[i + 1], ":"))) {  // a label
      size_t j = i;
      while (j < limit && !IsPunct(tokens_[j], ":")) ++j;
      i = j + 1;
      continue;
    }
    const size_t end = StmtEnd(i, limit);
    out.push_back(Stmt{i, end});
    i = end + 1;
  }
  return out;
}

bool CppEdits::Compound(const Stmt& s) const {
  const Token& t = tokens_[s.first];
  return IsPunct(t, "{") || IsIdent(t, "if") || IsIdent(t, "for") || IsIdent(t, "while") || IsIdent(t, "switch") ||
         IsIdent(t, "do") || IsIdent(t, "try");
}

bool CppEdits::Has(const Stmt& s, bool (*pred)(std::string_view)) const {
  for (size_t i = s.first; i <= s.last; ++i) {
    if (tokens_[i].type == Token::kIdent && pred(tokens_[i].text)) return true;
  }
  return false;
}

bool CppEdits::HasWord(const Stmt& s, std::initializer_list<std::string_view> words) const {
  for (size_t i = s.first; i <= s.last; ++i) {
    if (tokens_[i].type != Token::kIdent) continue;
    for (auto w : words) {
      if (tokens_[i].text == w) return true;
    }
  }
  return false;
}

// The first function the statement calls (or kernel it launches), with its qualifiers as written: "at::matmul",
// "engine.run", "scale_kernel".
std::string CppEdits::Callee(const Stmt& s) const {
  for (size_t i = s.first; i + 1 <= s.last; ++i) {
    const Token& t = tokens_[i];
    if (t.type != Token::kIdent || IsNotACall(t.text)) continue;
    const bool call = IsPunct(tokens_[i + 1], "(");
    const bool launch =
        i + 3 <= s.last && IsPunct(tokens_[i + 1], "<") && IsPunct(tokens_[i + 2], "<") && IsPunct(tokens_[i + 3], "<");
    if (!call && !launch) continue;
    size_t b = i;
    while (b >= s.first + 2 && tokens_[b - 2].type == Token::kIdent &&
           (IsPunct(tokens_[b - 1], "::") || IsPunct(tokens_[b - 1], ".") || IsPunct(tokens_[b - 1], "->"))) {
      b -= 2;
    }
    std::string out;
    for (size_t k = b; k <= i; ++k) out += tokens_[k].text;
    return out;
  }
  return {};
}

// A declaration whose name must stay visible after it (`auto y = f(x);`, `at::Tensor t = ...;`, `Foo f(x);`): a
// new block would end its scope.
bool CppEdits::Declares(const Stmt& s) const {
  if (Compound(s)) return false;
  size_t stop = s.last;
  for (size_t i = s.first; i <= s.last; ++i) {
    if (IsPunct(tokens_[i], "=") || IsPunct(tokens_[i], "(") || IsPunct(tokens_[i], "{")) {
      stop = i;
      break;
    }
  }
  if (stop < s.first + 2 || tokens_[stop - 1].type != Token::kIdent) return false;
  const Token& before = tokens_[stop - 2];
  return (before.type == Token::kIdent && !IsIdent(before, "return") && !IsIdent(before, "co_return")) ||
         IsPunct(before, ">") || IsPunct(before, "*") || IsPunct(before, "&");
}

bool CppEdits::Worth(const Stmt& s, const std::string& own_macro) const {
  if (IsPunct(tokens_[s.first], "#")) return false;
  if (Has(s, IsCppNvtxWord)) return false;
  if (!own_macro.empty() && HasWord(s, {own_macro})) return false;
  return !Callee(s).empty();
}

// The statements worth a range; a lone compound statement is replaced by the statements of its blocks.
std::vector<Stmt> CppEdits::Refinable(std::vector<Stmt> body, const std::string& own_macro) const {
  for (int depth = 0; depth < 16; ++depth) {
    std::vector<Stmt> worth;
    for (const auto& s : body) {
      if (Worth(s, own_macro)) worth.push_back(s);
    }
    if (worth.size() != 1 || !Compound(worth[0])) return worth;
    std::vector<Stmt> inner;
    const Stmt& c = worth[0];
    for (size_t i = c.first; i <= c.last; ++i) {
      if (IsPunct(tokens_[i], "(") || IsPunct(tokens_[i], "[")) {
        i = Skip(i);
      } else if (IsPunct(tokens_[i], "{") && close_[i] != kNone && close_[i] <= c.last) {
        for (const auto& s : Statements(i + 1, close_[i])) inner.push_back(s);
        i = close_[i];
      }
    }
    bool any = false;
    for (const auto& s : inner) any |= Worth(s, own_macro);
    if (!any) return worth;
    body = std::move(inner);
  }
  return {};
}

bool CppEdits::WholeLines(const Stmt& s) const {
  const bool alone_first = s.first == 0 || tokens_[s.first - 1].end_line < Line(s.first);
  const bool alone_last = s.last + 1 >= tokens_.size() || tokens_[s.last + 1].line > EndLine(s.last);
  return alone_first && alone_last;
}

std::string CppEdits::Reindented(int first, int last, const std::string& unit) const {
  std::string out;
  for (int l = first; l <= last; ++l) {
    if (l > first) out += lines_.newline();
    const bool keep = in_string_[static_cast<size_t>(l)];
    if (!keep && lines_.Blank(l)) continue;
    if (!keep) out += unit;
    out += lines_.Text(l);
  }
  return out;
}

bool CppEdits::Includes(std::string_view needle) const {
  for (size_t i = 0; i + 2 < tokens_.size(); ++i) {
    if (!IsPunct(tokens_[i], "#") || !IsIdent(tokens_[i + 1], "include")) continue;
    if (lines_.Text(tokens_[i].line).find(needle) != std::string_view::npos) return true;
  }
  return false;
}

TextEdit CppEdits::IncludeEdit(const std::string& header) const {
  int after = -1;
  for (size_t i = 0; i + 1 < tokens_.size(); ++i) {
    if (IsPunct(tokens_[i], "#") && IsIdent(tokens_[i + 1], "include")) after = tokens_[i].line;
  }
  return lines_.InsertLineBefore(after + 1, "#include " + header);
}

std::optional<size_t> CppEdits::TokenAt(int line, int column) {
  for (size_t i = 0; i < tokens_.size(); ++i) {
    if (tokens_[i].line < line) continue;
    if (tokens_[i].line > line) break;
    if (pos_.Utf16Column(tokens_[i].begin) == column) return i;
  }
  return std::nullopt;
}

// Locates the body for each form (push ... pop, a scope to the end of its block), then edits each statement.
// Long: the body's forms and the two edit styles (block, push/pop) x (whole lines, in place) read best together.
Expected<SourceEdit> CppEdits::Refine(const Annotation& range) {
  const auto at = TokenAt(range.line, range.column);
  if (!at) return MakeError(ErrorKind::kInvalidArgument, "the range's name is not at its recorded place in the file");
  // The enclosing block, and the end of the statement that names the range.
  std::vector<size_t> open;
  for (size_t i = 0; i < *at; ++i) {
    if (IsPunct(tokens_[i], "{")) open.push_back(i);
    if (IsPunct(tokens_[i], "}") && !open.empty()) open.pop_back();
  }
  size_t end = *at;
  for (int depth = 0; end < tokens_.size(); ++end) {
    const Token& t = tokens_[end];
    if (IsPunct(t, "(") || IsPunct(t, "[") || IsPunct(t, "{")) ++depth;
    if ((IsPunct(t, ")") || IsPunct(t, "]") || IsPunct(t, "}")) && depth-- == 0) break;
    if (IsPunct(t, ";") && depth == 0) break;
  }
  if (end + 1 < tokens_.size() && IsPunct(tokens_[end + 1], ";")) ++end;
  while (!open.empty() && (close_[open.back()] == kNone || close_[open.back()] <= end)) open.pop_back();  // `r{"x"}`
  if (open.empty()) {
    return MakeError(ErrorKind::kInvalidArgument, "the range '" + range.name + "' is not inside a block");
  }
  const size_t block_close = close_[open.back()];
  const bool push = range.kind == Kind::kPush;
  std::vector<Stmt> body = Statements(end + 1, block_close);
  if (push) {
    const bool start = range.api == Api::kNvtxRangeStartA;
    int depth = 1;
    size_t n = 0;
    for (; n < body.size(); ++n) {
      if (HasWord(body[n],
                  {start ? "nvtxRangeStartA" : "nvtxRangePushA", start ? "nvtxRangeStartW" : "nvtxRangePushW"})) {
        ++depth;
      }
      if (HasWord(body[n], {start ? "nvtxRangeEnd" : "nvtxRangePop"}) && --depth == 0) break;
    }
    if (n == body.size()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "the range '" + range.name + "' is pushed but its pop is not found in the same block");
    }
    body.resize(n);
  }
  const std::string own_macro = range.kind == Kind::kCandidate ? range.callee : std::string();
  const std::vector<Stmt> worth = Refinable(body, own_macro);
  if (worth.empty()) {
    return MakeError(ErrorKind::kNotFound, "the body of '" + range.name + "' has no statement that calls a function");
  }
  // The style: push/pop as the range does; otherwise a block opened by the range's own scope API.
  const bool wide = range.api == Api::kNvtxRangePushW;
  const std::string push_fn = wide ? "nvtxRangePushW(L\"" : "nvtxRangePushA(\"";
  std::string opener_fn = "nvtx3::scoped_range nvtx_r{\"";
  std::string opener_end = "\"};";
  if (range.kind == Kind::kCandidate) {
    opener_fn = range.callee + "(\"";
    opener_end = "\");";
  }
  std::vector<NameDraft> drafts;
  for (const auto& s : worth) drafts.push_back(NameDraft{Callee(s), "", Line(s.first)});
  const std::vector<std::string> names = NameRanges(range.name, drafts);
  SourceEdit out;
  out.title = "Add NVTX ranges inside '" + range.name + "'";
  bool used_push = false, used_block_nvtx3 = false;
  const std::string& nl = lines_.newline();
  for (size_t k = 0; k < worth.size(); ++k) {
    const Stmt& s = worth[k];
    const bool jumps = HasWord(s, {"return", "break", "continue", "goto", "throw", "co_return"});
    const bool as_push = push || Declares(s);
    if (as_push && jumps) continue;  // the pop would be skipped
    const std::string name = EscapeForLiteral(names[k]);
    const int first = Line(s.first), last = EndLine(s.last);
    if (WholeLines(s)) {
      const std::string indent(lines_.Indent(first));
      std::string text;
      if (as_push) {
        text = indent + push_fn + name + "\");" + nl + Reindented(first, last, "") + nl + indent + "nvtxRangePop();";
      } else {
        const std::string_view block_indent = lines_.Indent(tokens_[EnclosingBrace(s.first)].line);
        std::string unit = indent.find('\t') != std::string::npos ? "\t" : std::string();
        if (unit.empty())
          unit.assign(indent.size() > block_indent.size() ? indent.size() - block_indent.size() : 2, ' ');
        text = indent + "{" + nl + indent + unit + opener_fn + name + opener_end + nl + Reindented(first, last, unit) +
               nl + indent + "}";
      }
      out.edits.push_back(lines_.Replace(first, last, std::move(text)));
    } else {
      const TextPosition b = At(tokens_[s.first].begin);
      const TextPosition e = At(tokens_[s.last].end);
      const std::string before = as_push ? push_fn + name + "\"); " : "{ " + opener_fn + name + opener_end + " ";
      const std::string after = as_push ? " nvtxRangePop();" : " }";
      out.edits.push_back(TextEdit{b, b, before});
      out.edits.push_back(TextEdit{e, e, after});
    }
    used_push |= as_push;
    used_block_nvtx3 |= !as_push && range.kind != Kind::kCandidate;
    out.ranges.push_back(NestedRange{names[k], first, last});
  }
  if (out.ranges.empty()) {
    return MakeError(ErrorKind::kNotFound, "every statement of '" + range.name + "' returns or jumps out of it");
  }
  if (used_block_nvtx3 && !Includes("nvtx3.hpp")) out.edits.push_back(IncludeEdit("<nvtx3/nvtx3.hpp>"));
  if (used_push && !Includes("nvToolsExt") && !Includes("nvtx3.hpp")) {
    out.edits.push_back(IncludeEdit("<nvtx3/nvToolsExt.h>"));
  }
  SortEdits(out.edits);
  return out;
}

Expected<SourceEdit> CppEdits::AnnotateFunction(int line) {
  std::optional<CppFunction> best;
  for (const auto& f : CppFunctions(text_)) {
    if (f.close == kNone) continue;
    if (f.name_line <= line && line <= Line(f.close) && (!best || f.open > best->open)) best = f;
  }
  if (!best) return MakeError(ErrorKind::kNotFound, "no function contains this line");
  const auto body = Statements(best->open + 1, best->close);
  if (!body.empty()) {
    const Stmt& s = body.front();
    const Token& t = tokens_[s.first];
    const bool macro_scope = t.type == Token::kIdent && s.first + 2 <= s.last && IsPunct(tokens_[s.first + 1], "(") &&
                             tokens_[s.first + 2].type == Token::kString &&
                             std::all_of(t.text.begin(), t.text.end(), [](char c) {
                               return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                             });
    if (Has(s, IsCppNvtxWord) || macro_scope) {
      return MakeError(ErrorKind::kInvalidArgument, "function '" + best->name + "' already opens a range");
    }
  }
  SourceEdit out;
  out.title = "Annotate function '" + best->name + "' with NVTX";
  const Token& brace = tokens_[best->open];
  const bool own_line = body.empty() ? Line(best->close) > brace.line : Line(body.front().first) > brace.line;
  if (own_line) {
    std::string indent;
    if (!body.empty()) {
      indent = std::string(lines_.Indent(Line(body.front().first)));
    } else {
      indent = std::string(lines_.Indent(brace.line)) + "  ";
    }
    out.edits.push_back(lines_.InsertLineBefore(brace.line + 1, indent + "NVTX3_FUNC_RANGE();"));
  } else {
    const TextPosition p = At(brace.end);
    out.edits.push_back(TextEdit{p, p, " NVTX3_FUNC_RANGE();"});
  }
  out.ranges.push_back(NestedRange{best->name, best->name_line, Line(best->close)});
  if (!Includes("nvtx3.hpp")) out.edits.push_back(IncludeEdit("<nvtx3/nvtx3.hpp>"));
  SortEdits(out.edits);
  return out;
}

}  // namespace

Expected<SourceEdit> RefineCpp(std::string_view text, const Annotation& range) {
  return CppEdits(text).Refine(range);
}

Expected<SourceEdit> AnnotateCppFunction(std::string_view text, int line) {
  return CppEdits(text).AnnotateFunction(line);
}

}  // namespace nsys::source::detail
