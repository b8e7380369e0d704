// Python: nvtx.annotate (with / decorator / message=), torch.cuda.nvtx.range, range_push, push_range,
// record_function, and candidate calls; enclosing def and the with/decorator body by indentation.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lex.h"

namespace nsys::source::detail {
namespace {

struct LogicalLine : PyLogicalLine {
  int owner = -1;  // the logical line of the enclosing def, -1 at module level
};

bool NeverACandidate(std::string_view w) {
  static constexpr std::string_view kWords[] = {"if",    "elif",   "while", "return", "assert",   "not",   "and",
                                                "or",    "in",     "is",    "lambda", "yield",    "await", "del",
                                                "with",  "for",    "raise", "import", "from",     "class", "def",
                                                "async", "except", "else",  "global", "nonlocal", "print"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

class PythonScan {
 public:
  PythonScan(std::string_view text, const std::string& file) : pos_(text), file_(file) {
    tokens_ = LexPython(text, pos_);
  }
  void Run(std::vector<Annotation>& out);

 private:
  void BuildLines();
  bool IsDef(const LogicalLine& l, size_t* name) const;
  int DecoratedDef(size_t k) const;
  void MatchLine(size_t k, std::vector<Annotation>& out);
  void MatchCall(size_t k, size_t s, size_t j, std::vector<Annotation>& out);
  bool FindNameArgument(size_t open, size_t end, bool keywords, Literal& lit) const;
  void SetFunction(int def_line, Annotation& a) const;

  Positions pos_;
  const std::string& file_;
  std::vector<Token> tokens_;
  std::vector<LogicalLine> lines_;
};

void PythonScan::BuildLines() {
  for (const PyLogicalLine& l : PythonLogicalLines(tokens_)) lines_.push_back({l});
  std::vector<size_t> defs;  // enclosing defs not closed yet
  for (size_t k = 0; k < lines_.size(); ++k) {
    while (!defs.empty() && lines_[defs.back()].indent >= lines_[k].indent) defs.pop_back();
    lines_[k].owner = defs.empty() ? -1 : static_cast<int>(defs.back());
    if (IsDef(lines_[k], nullptr)) defs.push_back(k);
  }
}

bool PythonScan::IsDef(const LogicalLine& l, size_t* name) const {
  size_t i = l.first;
  if (IsIdent(tokens_[i], "async") && i + 1 < l.end) ++i;
  if (!IsIdent(tokens_[i], "def") || i + 1 >= l.end || tokens_[i + 1].type != Token::kIdent) return false;
  if (name) *name = i + 1;
  return true;
}

// The def a decorator line (logical line k) decorates, skipping further decorators; -1 if none.
int PythonScan::DecoratedDef(size_t k) const {
  for (size_t d = k + 1; d < lines_.size() && d < k + 64; ++d) {  // bounded: a wall of decorators stays linear
    if (IsPunct(tokens_[lines_[d].first], "@")) continue;
    return IsDef(lines_[d], nullptr) ? static_cast<int>(d) : -1;
  }
  return -1;
}

void PythonScan::SetFunction(int def_line, Annotation& a) const {
  if (def_line < 0) return;
  size_t name = 0;
  const LogicalLine& d = lines_[static_cast<size_t>(def_line)];
  if (!IsDef(d, &name)) return;
  a.function = std::string(tokens_[name].text);
  a.function_span = LineSpan{d.first_line, d.suite_end};
}

void PythonScan::Run(std::vector<Annotation>& out) {
  BuildLines();
  for (size_t k = 0; k < lines_.size(); ++k) MatchLine(k, out);
}

void PythonScan::MatchLine(size_t k, std::vector<Annotation>& out) {
  const LogicalLine& l = lines_[k];
  for (size_t j = l.first; j < l.end; ++j) {
    if (tokens_[j].type != Token::kIdent) continue;
    if (j + 1 < l.end && IsPunct(tokens_[j + 1], ".") && j + 2 < l.end && tokens_[j + 2].type == Token::kIdent) {
      continue;  // not the last part of a dotted name
    }
    size_t s = j;
    while (s >= l.first + 2 && IsPunct(tokens_[s - 1], ".") && tokens_[s - 2].type == Token::kIdent) s -= 2;
    MatchCall(k, s, j, out);
  }
}

// The range name among a call's arguments: the first positional literal, or (keywords) message=/msg=/name=.
bool PythonScan::FindNameArgument(size_t open, size_t end, bool keywords, Literal& lit) const {
  if (open + 1 < end && ReadLiteral(tokens_, open + 1, lit)) return true;
  if (!keywords) return false;
  int depth = 0;
  for (size_t i = open + 1; i + 2 < end && i < open + 64; ++i) {  // bounded: nested calls stay linear
    const Token& t = tokens_[i];
    if (IsPunct(t, "(") || IsPunct(t, "[") || IsPunct(t, "{")) ++depth;
    if (IsPunct(t, ")") || IsPunct(t, "]") || IsPunct(t, "}")) {
      if (depth-- == 0) return false;
    }
    if (depth == 0 && (IsIdent(t, "message") || IsIdent(t, "msg") || IsIdent(t, "name")) &&
        IsPunct(tokens_[i + 1], "=") && !IsPunct(tokens_[i + 2], "=")) {
      return ReadLiteral(tokens_, i + 2, lit);
    }
  }
  return false;
}

// One table of the Python APIs and their forms (with, decorator with/without a literal, push, candidate).
void PythonScan::MatchCall(size_t k, size_t s, size_t j, std::vector<Annotation>& out) {
  const LogicalLine& l = lines_[k];
  const std::string_view last = tokens_[j].text;
  const std::string_view before = s < j ? tokens_[j - 2].text : std::string_view{};
  const bool bare = s == j;
  Annotation a;
  bool known = true;
  if (last == "annotate" && (bare || before == "nvtx"))
    a.api = Api::kNvtxAnnotate;
  else if (last == "range" && before == "nvtx")
    a.api = Api::kTorchNvtxRange;
  else if (last == "range_push" && (bare || before == "nvtx"))
    a.api = Api::kTorchRangePush;
  else if ((last == "push_range" || last == "start_range") && (bare || before == "nvtx"))
    a.api = Api::kNvtxPushRange;
  else if (last == "record_function" && (bare || before == "profiler"))
    a.api = Api::kRecordFunction;
  else
    known = false;
  const bool call = j + 1 < l.end && IsPunct(tokens_[j + 1], "(");
  const bool decorator = IsPunct(tokens_[l.first], "@") && s == l.first + 1;
  const bool in_with =
      IsIdent(tokens_[l.first], "with") ||
      (IsIdent(tokens_[l.first], "async") && l.first + 1 < l.end && IsIdent(tokens_[l.first + 1], "with"));
  if (!known && (!call || (bare && NeverACandidate(last)))) return;  // candidates: calls, dotted or not
  for (size_t p = s; p <= j; ++p) a.callee += tokens_[p].text;
  Literal lit;
  const bool has_literal = call && FindNameArgument(j + 1, l.end, known, lit);
  const int def = decorator ? DecoratedDef(k) : -1;
  if (has_literal) {
    if (lit.value.empty()) return;  // "" or a prefix-less f-string names nothing
    a.name = lit.value;
    a.prefix_only = lit.prefix_only;
    PlaceAt(pos_, tokens_, lit.first, lit.last, a);
  } else if (known && decorator && a.api != Api::kTorchRangePush && a.api != Api::kNvtxPushRange && def >= 0) {
    size_t name = 0;
    IsDef(lines_[static_cast<size_t>(def)], &name);  // @nvtx.annotate(): the range is named after the function
    a.name = std::string(tokens_[name].text);
    PlaceAt(pos_, tokens_, s, j, a);
  } else {
    return;
  }
  a.file = file_;
  if (!known) {
    a.api = Api::kCandidateCall;
    a.kind = Kind::kCandidate;
  } else if (a.api == Api::kTorchRangePush || a.api == Api::kNvtxPushRange) {
    a.kind = Kind::kPush;
  } else if (decorator) {
    a.kind = Kind::kDecorator;
  } else {
    a.kind = Kind::kContextManager;
  }
  if (a.kind == Kind::kDecorator && def >= 0) {
    SetFunction(def, a);
    a.body = a.function_span;
  } else {
    SetFunction(l.owner, a);
    if (a.kind == Kind::kContextManager && in_with) {
      a.body = l.suite_end > l.last_line ? LineSpan{l.last_line + 1, l.suite_end} : LineSpan{l.last_line, l.last_line};
    }
  }
  out.push_back(std::move(a));
}

}  // namespace

void ScanPython(std::string_view text, const std::string& file, std::vector<Annotation>& out) {
  PythonScan(text, file).Run(out);
}

}  // namespace nsys::source::detail
