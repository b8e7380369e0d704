// C/C++/CUDA: nvtxRangePushA/W, nvtxRangeStartA/W, nvtx3::scoped_range (and _in, thread_range), NVTX3_FUNC_RANGE,
// and candidate IDENT("literal", ...) calls; the enclosing function by brace matching (best effort).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lex.h"

namespace nsys::source::detail {
namespace {

struct Function {
  std::string name;  // unqualified, as __func__ says it
  int first_line = 0;
  int last_line = -1;
  size_t open = 0;          // token index of the body's '{'
  size_t close = SIZE_MAX;  // and of its '}' (SIZE_MAX when unbalanced)
};

bool IsControl(std::string_view w) {
  static constexpr std::string_view kWords[] = {"if",      "for",        "while",    "switch",        "catch",
                                                "return",  "sizeof",     "decltype", "alignof",       "noexcept",
                                                "throw",   "alignas",    "defined",  "__attribute__", "static_assert",
                                                "_Pragma", "__declspec", "asm",      "__asm__",       "requires"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool IsQualifier(const Token& t) {
  static constexpr std::string_view kWords[] = {"const", "noexcept", "override", "final", "mutable", "volatile", "try"};
  if (t.type == Token::kPunct) return t.text == "&";
  return t.type == Token::kIdent && std::find(std::begin(kWords), std::end(kWords), t.text) != std::end(kWords);
}

class CppScan {
 public:
  CppScan(std::string_view text, const std::string& file) : pos_(text), file_(file) { tokens_ = LexCpp(text, pos_); }
  void Run(std::vector<Annotation>& out);
  const std::vector<Function>& functions() const { return functions_; }

 private:
  long MatchBack(long close) const;
  void BuildMatches();
  long SkipInitList(long colon_or_comma) const;
  bool IsInitListSeparator(long k) const;
  bool FunctionBefore(size_t brace, std::string& name, int& line) const;
  void Match(size_t j, std::vector<Annotation>& out);
  bool Emit(Api api, Kind kind, size_t callee, size_t literal, std::vector<Annotation>& out);

  Positions pos_;
  const std::string& file_;
  std::vector<Token> tokens_;
  std::vector<long> match_;  // per token: the opening bracket of a closing one, -1
  std::vector<Function> functions_;
  std::vector<int> open_functions_;              // ids of functions whose body is open, innermost last
  std::vector<std::pair<size_t, int>> pending_;  // (annotation index in out, function id)
  size_t used_literal_ = SIZE_MAX;               // the literal of the last annotation (`scoped_range r("x")`'s is
                                                 // not also a candidate call r("x"))
};

// The index of the bracket that opens the one closing at `close`, or -1 (from the table Run builds first).
long CppScan::MatchBack(long close) const {
  return match_[static_cast<size_t>(close)];
}

// For every closing bracket, its opening one (-1 when unbalanced): one pass, so brace matching stays linear.
void CppScan::BuildMatches() {
  match_.assign(tokens_.size(), -1);
  std::vector<long> open;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const Token& t = tokens_[i];
    if (t.type != Token::kPunct || t.text.size() != 1) continue;
    const char c = t.text[0];
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(static_cast<long>(i));
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (!open.empty() && tokens_[static_cast<size_t>(open.back())].text[0] == want) {
        match_[i] = open.back();
        open.pop_back();
      }
    }
  }
}

// From a ',' or ':' that precedes a member initializer, back to the ')' closing the constructor's parameters.
long CppScan::SkipInitList(long k) const {
  for (int steps = 0; k > 0 && steps < 512; ++steps) {
    const Token& t = tokens_[static_cast<size_t>(k)];
    if (IsPunct(t, ")") || IsPunct(t, "}")) {
      k = MatchBack(k);
      if (k < 0) return -1;
    } else if (IsPunct(t, ":") && IsPunct(tokens_[static_cast<size_t>(k - 1)], ")")) {
      return k - 1;
    } else if (IsPunct(t, ";") || IsPunct(t, "{")) {
      return -1;
    }
    --k;
  }
  return -1;
}

// A ',' or a ':' (not after public/private/protected) before a name: the name is a member initializer's.
bool CppScan::IsInitListSeparator(long k) const {
  const Token& t = tokens_[static_cast<size_t>(k)];
  if (IsPunct(t, ",")) return true;
  if (!IsPunct(t, ":")) return false;
  if (k == 0) return false;
  const Token& p = tokens_[static_cast<size_t>(k - 1)];
  return !(IsIdent(p, "public") || IsIdent(p, "private") || IsIdent(p, "protected"));
}

// Whether the '{' at `brace` opens a function body; its unqualified name and the line of the name.
bool CppScan::FunctionBefore(size_t brace, std::string& name, int& line) const {
  long k = static_cast<long>(brace) - 1;
  for (long back = k; back >= 0 && k - back < 24; --back) {  // a trailing return type: `) -> T {`
    const Token& t = tokens_[static_cast<size_t>(back)];
    if (IsPunct(t, ";") || IsPunct(t, "{") || IsPunct(t, "}")) break;
    if (IsPunct(t, "->") && back > 0 && IsPunct(tokens_[static_cast<size_t>(back - 1)], ")")) k = back - 1;
  }
  for (int guard = 0; guard < 8; ++guard) {
    while (k >= 0 && IsQualifier(tokens_[static_cast<size_t>(k)])) --k;
    if (k >= 0 && IsPunct(tokens_[static_cast<size_t>(k)], ")")) {  // noexcept(...) or the parameters
      const long open = MatchBack(k);
      if (open > 0 && IsIdent(tokens_[static_cast<size_t>(open - 1)], "noexcept")) {
        k = open - 2;
        continue;
      }
    }
    if (k >= 1 && IsPunct(tokens_[static_cast<size_t>(k)], "}")) {  // a last member initializer `name_{...}`
      const long open = MatchBack(k);
      if (open < 2 || tokens_[static_cast<size_t>(open - 1)].type != Token::kIdent) return false;
      if (!IsInitListSeparator(open - 2)) return false;
      k = SkipInitList(open - 2);
      if (k < 0) return false;
      continue;
    }
    if (k < 1 || !IsPunct(tokens_[static_cast<size_t>(k)], ")")) return false;
    const long open = MatchBack(k);
    if (open < 1) return false;
    const Token& n = tokens_[static_cast<size_t>(open - 1)];
    if (open >= 2 && IsIdent(tokens_[static_cast<size_t>(open - 2)], "operator")) {
      name = "operator" + std::string(n.text);
    } else if (open >= 3 && IsPunct(n, ")") && IsIdent(tokens_[static_cast<size_t>(open - 3)], "operator")) {
      name = "operator()";
    } else if (n.type == Token::kIdent && !IsControl(n.text)) {
      name = std::string(n.text);
      long c = open - 1;
      if (c >= 1 && IsPunct(tokens_[static_cast<size_t>(c - 1)], "~")) name = "~" + name, --c;
      while (c >= 2 && IsPunct(tokens_[static_cast<size_t>(c - 1)], "::")) c -= 2;
      if (c >= 1 && IsInitListSeparator(c - 1)) {
        k = SkipInitList(c - 1);  // a member initializer `x_(x)`: the constructor is further back
        if (k < 0) return false;
        continue;
      }
    } else {
      return false;
    }
    line = n.line;
    return true;
  }
  return false;
}

bool CppScan::Emit(Api api, Kind kind, size_t callee, size_t literal, std::vector<Annotation>& out) {
  Literal lit;
  if (!ReadLiteral(tokens_, literal, lit) || lit.value.empty() || lit.first == used_literal_) return false;
  used_literal_ = lit.first;
  Annotation a;
  a.file = file_;
  a.api = api;
  a.kind = kind;
  a.name = lit.value;
  a.prefix_only = lit.prefix_only;
  a.callee = std::string(tokens_[callee].text);
  PlaceAt(pos_, tokens_, lit.first, lit.last, a);
  pending_.emplace_back(out.size(), open_functions_.empty() ? -1 : open_functions_.back());
  out.push_back(std::move(a));
  return true;
}

// The table of C++ forms, each a few token checks.
void CppScan::Match(size_t j, std::vector<Annotation>& out) {
  const Token& t = tokens_[j];
  const bool call = j + 1 < tokens_.size() && IsPunct(tokens_[j + 1], "(");
  const std::string_view w = t.text;
  if (call && (w == "nvtxRangePushA" || w == "nvtxRangePushW" || w == "nvtxRangeStartA" || w == "nvtxRangeStartW")) {
    const Api api = w == "nvtxRangePushA"   ? Api::kNvtxRangePushA
                    : w == "nvtxRangePushW" ? Api::kNvtxRangePushW
                                            : Api::kNvtxRangeStartA;
    Emit(api, Kind::kPush, j, j + 2, out);
  } else if (w == "scoped_range" || w == "scoped_range_in" || w == "thread_range" || w == "thread_range_in") {
    size_t k = j + 1;
    if (k < tokens_.size() && IsPunct(tokens_[k], "<")) {  // template arguments
      int depth = 0;
      for (; k < tokens_.size() && k < j + 32; ++k) {  // bounded: a stray `<` costs little
        if (IsPunct(tokens_[k], "<")) ++depth;
        if (IsPunct(tokens_[k], ">") && --depth == 0) break;
        if (IsPunct(tokens_[k], ";")) return;
      }
      ++k;
    }
    if (k < tokens_.size() && tokens_[k].type == Token::kIdent) ++k;  // the variable
    if (k + 1 < tokens_.size() && (IsPunct(tokens_[k], "(") || IsPunct(tokens_[k], "{"))) {
      Emit(Api::kNvtx3ScopedRange, Kind::kScoped, j, k + 1, out);
    }
  } else if (call && (w == "NVTX3_FUNC_RANGE" || w == "NVTX3_FUNC_RANGE_IN")) {
    if (open_functions_.empty()) return;
    Annotation a;
    a.file = file_;
    a.api = Api::kNvtx3FuncRange;
    a.kind = Kind::kFuncRange;
    a.callee = std::string(w);
    a.name = functions_[static_cast<size_t>(open_functions_.back())].name;
    PlaceAt(pos_, tokens_, j, j, a);
    pending_.emplace_back(out.size(), open_functions_.back());
    out.push_back(std::move(a));
  } else if (call && j + 2 < tokens_.size() && tokens_[j + 2].type == Token::kString && !IsControl(w) &&
             !(j > 0 && IsPunct(tokens_[j - 1], "#"))) {
    Emit(Api::kCandidateCall, Kind::kCandidate, j, j + 2, out);
  }
}

void CppScan::Run(std::vector<Annotation>& out) {
  BuildMatches();
  std::vector<int> braces;  // per open '{': its function id, or -1
  for (size_t j = 0; j < tokens_.size(); ++j) {
    const Token& t = tokens_[j];
    if (IsPunct(t, "{")) {
      Function f;
      if (FunctionBefore(j, f.name, f.first_line)) {
        f.open = j;
        functions_.push_back(std::move(f));
        open_functions_.push_back(static_cast<int>(functions_.size() - 1));
        braces.push_back(open_functions_.back());
      } else {
        braces.push_back(-1);
      }
    } else if (IsPunct(t, "}")) {
      if (braces.empty()) continue;  // unbalanced (#if branches): keep going
      if (braces.back() >= 0) {
        functions_[static_cast<size_t>(braces.back())].last_line = t.line;
        functions_[static_cast<size_t>(braces.back())].close = j;
        open_functions_.pop_back();
      }
      braces.pop_back();
    } else if (t.type == Token::kIdent) {
      Match(j, out);
    }
  }
  for (const auto& [index, id] : pending_) {
    if (id < 0) continue;
    const Function& f = functions_[static_cast<size_t>(id)];
    out[index].function = f.name;
    out[index].function_span = LineSpan{f.first_line, f.last_line >= 0 ? f.last_line : pos_.LineOf(UINT32_MAX - 1)};
  }
}

}  // namespace

void ScanCpp(std::string_view text, const std::string& file, std::vector<Annotation>& out) {
  const size_t first = out.size();
  std::vector<Annotation> mine;
  CppScan(text, file).Run(mine);
  out.insert(out.begin() + static_cast<long>(first), std::make_move_iterator(mine.begin()),
             std::make_move_iterator(mine.end()));
}

std::vector<CppFunction> CppFunctions(std::string_view text) {
  const std::string file;  // CppScan keeps a reference
  CppScan scan(text, file);
  std::vector<Annotation> ignored;
  scan.Run(ignored);
  std::vector<CppFunction> out;
  for (const auto& f : scan.functions()) out.push_back(CppFunction{f.name, f.first_line, f.open, f.close});
  return out;
}

}  // namespace nsys::source::detail
