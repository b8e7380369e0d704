// Python edits: nested `with <api>(...)` blocks (or push/pop pairs) around each statement of a range's body, and a
// decorator over a function with no range. Statements are found from the tokenizer's logical lines and indentation.
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

using PyLine = PyLogicalLine;

// One statement: logical lines [first, end) (a compound statement's clauses and suites included).
struct Statement {
  size_t first = 0;
  size_t end = 0;
};

// The API the nested ranges use.
struct PyApi {
  std::string open;           // "nvtx.annotate" (with) or "torch.cuda.nvtx.range_push" (push)
  std::string close;          // the pop call for push/pop, empty for `with`
  bool needs_import = false;  // `import nvtx` must be added
};

bool IsKeyword(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "if",  "elif",   "else",   "while", "for",     "in",     "not",      "and",   "or",     "is",      "with",
      "as",  "return", "yield",  "await", "del",     "assert", "lambda",   "raise", "import", "from",    "class",
      "def", "async",  "except", "try",   "finally", "global", "nonlocal", "pass",  "break",  "continue"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool IsPythonNvtxWord(std::string_view w) {
  static constexpr std::string_view kWords[] = {"annotate",  "range_push",  "range_pop", "push_range",
                                                "pop_range", "start_range", "end_range", "record_function"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

class PyEdits {
 public:
  explicit PyEdits(std::string_view text) : text_(text), pos_(text), lines_text_(text) {
    tokens_ = LexPython(text, pos_);
    BuildLines();
    in_string_.assign(static_cast<size_t>(lines_text_.count()), false);
    for (const Token& t : tokens_) {
      if (t.type != Token::kString) continue;
      for (int l = t.line + 1; l <= t.end_line && l < lines_text_.count(); ++l)
        in_string_[static_cast<size_t>(l)] = true;
    }
  }
  Expected<SourceEdit> Refine(const Annotation& range);
  Expected<SourceEdit> AnnotateFunction(int line);

 private:
  void BuildLines();
  std::optional<size_t> LineAt(int line) const;
  bool IsDef(size_t k, std::string* name) const;
  bool HeadsSuite(size_t k) const;
  std::string FirstWord(size_t k) const;
  std::vector<Statement> StatementsOfSuite(size_t header) const;
  std::vector<Statement> StatementsFrom(size_t first, size_t stop, int indent) const;
  bool Worth(const Statement& s) const;
  bool HasWord(const Statement& s, std::initializer_list<std::string_view> words) const;
  NameDraft Draft(const Statement& s) const;
  std::vector<Statement> Refinable(std::vector<Statement> statements) const;
  PyApi ApiFor(const Annotation& range) const;
  bool ImportsNvtx() const;
  std::optional<TextEdit> ImportEdit() const;
  std::string Unit(size_t k) const;
  std::string Reindented(int first, int last, const std::string& unit) const;
  int LastLine(const Statement& s) const { return lines_[s.end - 1].suite_end; }

  std::string_view text_;
  Positions pos_;
  Lines lines_text_;
  std::vector<Token> tokens_;
  std::vector<PyLine> lines_;
  std::vector<bool> in_string_;  // per line: it starts inside a multi-line string
};

void PyEdits::BuildLines() {
  lines_ = PythonLogicalLines(tokens_);
}

std::optional<size_t> PyEdits::LineAt(int line) const {
  for (size_t k = 0; k < lines_.size(); ++k) {
    if (lines_[k].first_line <= line && line <= lines_[k].last_line) return k;
  }
  return std::nullopt;
}

bool PyEdits::IsDef(size_t k, std::string* name) const {
  size_t i = lines_[k].first;
  if (IsIdent(tokens_[i], "async") && i + 1 < lines_[k].end) ++i;
  if (!(IsIdent(tokens_[i], "def") || IsIdent(tokens_[i], "class")) || i + 1 >= lines_[k].end) return false;
  if (name) *name = std::string(tokens_[i + 1].text);
  return IsIdent(tokens_[i], "def");
}

bool PyEdits::HeadsSuite(size_t k) const {
  return IsPunct(tokens_[lines_[k].end - 1], ":") && k + 1 < lines_.size() && lines_[k + 1].indent > lines_[k].indent;
}

std::string PyEdits::FirstWord(size_t k) const {
  size_t i = lines_[k].first;
  if (IsIdent(tokens_[i], "async") && i + 1 < lines_[k].end) ++i;
  return tokens_[i].type == Token::kIdent ? std::string(tokens_[i].text) : std::string();
}

// The statements at one indentation from logical line `first` until a line indented less (or `stop`).
std::vector<Statement> PyEdits::StatementsFrom(size_t first, size_t stop, int indent) const {
  std::vector<Statement> out;
  size_t k = first;
  while (k < stop && lines_[k].indent >= indent) {
    if (lines_[k].indent > indent) {  // stray deeper line (after a one-line header): part of the previous one
      if (!out.empty()) out.back().end = k + 1;
      ++k;
      continue;
    }
    Statement s{k, k + 1};
    const bool decorator = IsPunct(tokens_[lines_[k].first], "@");
    size_t j = k + 1;
    for (; j < stop; ++j) {
      if (lines_[j].indent > indent) continue;
      if (lines_[j].indent < indent) break;
      const std::string w = FirstWord(j);
      const bool clause = w == "elif" || w == "else" || w == "except" || w == "finally";
      const bool decorated =
          decorator && (IsPunct(tokens_[lines_[j - 1].first], "@") && lines_[j - 1].indent == indent);
      if (!clause && !decorated) break;
    }
    s.end = j;
    out.push_back(s);
    k = j;
  }
  return out;
}

std::vector<Statement> PyEdits::StatementsOfSuite(size_t header) const {
  if (!HeadsSuite(header)) return {};
  return StatementsFrom(header + 1, lines_.size(), lines_[header + 1].indent);
}

bool PyEdits::HasWord(const Statement& s, std::initializer_list<std::string_view> words) const {
  for (size_t i = lines_[s.first].first; i < lines_[s.end - 1].end; ++i) {
    if (tokens_[i].type != Token::kIdent) continue;
    for (auto w : words) {
      if (tokens_[i].text == w) return true;
    }
  }
  return false;
}

// Worth a range: it calls something or computes with an operator, and is not a definition, an import, a docstring,
// a no-op, or already a range of its own.
bool PyEdits::Worth(const Statement& s) const {
  const PyLine& head = lines_[s.first];
  const Token& t0 = tokens_[head.first];
  const std::string w = FirstWord(s.first);
  if (IsPunct(t0, "@") || w == "def" || w == "class" || w == "import" || w == "from" || w == "pass" || w == "break" ||
      w == "continue" || w == "global" || w == "nonlocal") {
    return false;
  }
  bool only_strings = true;
  for (size_t i = head.first; i < head.end; ++i) only_strings &= tokens_[i].type == Token::kString;
  if (only_strings && s.end == s.first + 1) return false;  // a docstring
  const size_t end = lines_[s.end - 1].end;
  bool computes = false;
  for (size_t i = head.first; i < end; ++i) {
    const Token& t = tokens_[i];
    if (t.type == Token::kIdent && IsPythonNvtxWord(t.text)) return false;  // a range already
    if (IsPunct(t, "(") && i > head.first) {
      const Token& p = tokens_[i - 1];
      if ((p.type == Token::kIdent && !IsKeyword(p.text)) || IsPunct(p, ")") || IsPunct(p, "]")) computes = true;
    }
    if (t.type == Token::kPunct && t.text.size() == 1 &&
        std::string_view("+-*/@%").find(t.text[0]) != std::string_view::npos && !tokens_[i].line_start) {
      computes = true;
    }
  }
  return computes;
}

NameDraft PyEdits::Draft(const Statement& s) const {
  NameDraft d;
  const PyLine& head = lines_[s.first];
  d.line = head.first_line;
  d.keyword = FirstWord(s.first);
  if (d.keyword.empty() || !IsKeyword(d.keyword)) {
    d.keyword = tokens_[head.first].type == Token::kIdent ? std::string(tokens_[head.first].text) : "stmt";
  }
  for (size_t i = head.first + 1; i < head.end; ++i) {
    if (!IsPunct(tokens_[i], "(") || tokens_[i - 1].type != Token::kIdent || IsKeyword(tokens_[i - 1].text)) continue;
    size_t s0 = i - 1;
    while (s0 >= head.first + 2 && IsPunct(tokens_[s0 - 1], ".") && tokens_[s0 - 2].type == Token::kIdent) s0 -= 2;
    for (size_t p = s0; p < i; ++p) d.callee += tokens_[p].text;
    break;
  }
  return d;
}

// The statements worth a range; a lone compound statement is replaced by those of its suites (recursively).
std::vector<Statement> PyEdits::Refinable(std::vector<Statement> statements) const {
  for (int depth = 0; depth < 16; ++depth) {
    std::vector<Statement> worth;
    for (const auto& s : statements) {
      if (Worth(s)) worth.push_back(s);
    }
    if (worth.size() != 1) return worth;
    std::vector<Statement> inner;
    for (size_t k = worth[0].first; k < worth[0].end; ++k) {
      if (lines_[k].indent != lines_[worth[0].first].indent || !HeadsSuite(k)) continue;
      for (const auto& s : StatementsOfSuite(k)) inner.push_back(s);
    }
    if (inner.empty()) return worth;
    std::vector<Statement> inner_worth;
    for (const auto& s : inner) {
      if (Worth(s)) inner_worth.push_back(s);
    }
    if (inner_worth.empty()) return worth;
    statements = std::move(inner);
  }
  return {};
}

PyApi PyEdits::ApiFor(const Annotation& range) const {
  auto from = [](const Annotation& a) -> std::optional<PyApi> {
    if (a.api == Api::kNvtxAnnotate || a.api == Api::kTorchNvtxRange || a.api == Api::kRecordFunction) {
      return PyApi{a.callee, "", false};
    }
    if (a.api == Api::kTorchRangePush || a.api == Api::kNvtxPushRange) {
      const size_t dot = a.callee.rfind('.');
      const std::string prefix = dot == std::string::npos ? "" : a.callee.substr(0, dot + 1);
      if (a.api == Api::kTorchRangePush) return PyApi{prefix + "range_push", prefix + "range_pop", false};
      return PyApi{prefix + "push_range", prefix + "pop_range", false};
    }
    return std::nullopt;
  };
  if (auto api = from(range)) return *api;
  for (const auto& a : ScanSource(text_, Language::kPython, "")) {  // the file's own API, `with` forms first
    if (auto api = from(a); api && api->close.empty()) return *api;
  }
  for (const auto& a : ScanSource(text_, Language::kPython, "")) {
    if (auto api = from(a)) return *api;
  }
  return PyApi{"nvtx.annotate", "", !ImportsNvtx()};
}

// `import nvtx` (alone or in a list) anywhere.
bool PyEdits::ImportsNvtx() const {
  bool imported = false;
  for (size_t k = 0; k < lines_.size() && !imported; ++k) {
    if (FirstWord(k) != "import") continue;
    for (size_t i = lines_[k].first + 1; i < lines_[k].end; ++i) {
      if (IsIdent(tokens_[i], "nvtx") && (IsIdent(tokens_[i - 1], "import") || IsPunct(tokens_[i - 1], ",")) &&
          (i + 1 == lines_[k].end || !IsPunct(tokens_[i + 1], "."))) {
        imported = true;
      }
    }
  }
  return imported;
}

// `import nvtx` after the module's leading imports (or its docstring, or at the top).
std::optional<TextEdit> PyEdits::ImportEdit() const {
  int after = -1;
  for (size_t k = 0; k < lines_.size(); ++k) {
    if (lines_[k].indent != 0) continue;
    const std::string w = FirstWord(k);
    if (w == "import" || w == "from") {
      after = lines_[k].last_line;
    } else if (k == 0 && tokens_[lines_[k].first].type == Token::kString) {
      after = lines_[k].last_line;
    } else if (w == "def" || w == "class" || IsPunct(tokens_[lines_[k].first], "@")) {
      break;
    }
  }
  return lines_text_.InsertLineBefore(after + 1, "import nvtx");
}

// The indentation unit at statement line k: its indentation beyond the line heading its block (4 spaces at the top).
std::string PyEdits::Unit(size_t k) const {
  const std::string_view body = lines_text_.Indent(lines_[k].first_line);
  if (body.find('\t') != std::string_view::npos) return "\t";
  size_t h = k;
  while (h > 0 && lines_[h].indent >= lines_[k].indent) --h;
  const size_t header = lines_[h].indent < lines_[k].indent ? lines_text_.Indent(lines_[h].first_line).size() : 0;
  return std::string(body.size() > header ? body.size() - header : 4, ' ');
}

std::string PyEdits::Reindented(int first, int last, const std::string& unit) const {
  std::string out;
  for (int l = first; l <= last; ++l) {
    if (l > first) out += lines_text_.newline();
    const std::string_view t = lines_text_.Text(l);
    if (!in_string_[static_cast<size_t>(l)] && !lines_text_.Blank(l)) out += unit;
    out += lines_text_.Blank(l) && !in_string_[static_cast<size_t>(l)] ? std::string_view{} : t;
  }
  return out;
}

// Finds the range's body in its three forms (with, decorator, push ... pop), then emits one edit per statement.
Expected<SourceEdit> PyEdits::Refine(const Annotation& range) {
  const auto at = LineAt(range.line);
  if (!at) return MakeError(ErrorKind::kInvalidArgument, "the range's line is not a statement of the file");
  size_t k = *at;
  std::vector<Statement> body;
  if (IsPunct(tokens_[lines_[k].first], "@")) {
    while (k < lines_.size() && IsPunct(tokens_[lines_[k].first], "@")) ++k;
    if (k == lines_.size() || !IsDef(k, nullptr)) {
      return MakeError(ErrorKind::kInvalidArgument, "the decorator decorates no function");
    }
    body = StatementsOfSuite(k);
  } else if (HeadsSuite(k)) {
    body = StatementsOfSuite(k);
  } else if (range.kind == Kind::kPush) {
    size_t stop = k + 1;
    int depth = 1;
    for (; stop < lines_.size() && lines_[stop].indent >= lines_[k].indent; ++stop) {
      if (lines_[stop].indent != lines_[k].indent) continue;
      const Statement s{stop, stop + 1};
      if (HasWord(s, {"range_push", "push_range", "start_range"})) ++depth;
      if (HasWord(s, {"range_pop", "pop_range", "end_range"}) && --depth == 0) break;
    }
    if (depth != 0) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "the range is pushed but its pop is not found at the same indentation below it");
    }
    body = StatementsFrom(k + 1, stop, lines_[k].indent);
  } else {
    return MakeError(ErrorKind::kInvalidArgument,
                     "the range '" + range.name + "' does not open a block (with, decorator or push/pop)");
  }
  const std::vector<Statement> worth = Refinable(body);
  if (worth.empty()) {
    return MakeError(ErrorKind::kNotFound, "the body of '" + range.name + "' has no statement that calls anything");
  }
  PyApi api = ApiFor(range);
  if (range.kind == Kind::kCandidate && FirstWord(*at) == "with") api = PyApi{range.callee, "", false};  // the
  // project's own scope, as the range uses it
  std::vector<NameDraft> drafts;
  for (const auto& s : worth) drafts.push_back(Draft(s));
  const std::vector<std::string> names = NameRanges(range.name, drafts);
  SourceEdit out;
  out.title = "Add NVTX ranges inside '" + range.name + "'";
  for (size_t i = 0; i < worth.size(); ++i) {
    const Statement& s = worth[i];
    const bool jumps = HasWord(s, {"return", "break", "continue", "raise", "yield"});
    if (!api.close.empty() && jumps) continue;  // a pop that a jump would skip
    const int first = lines_[s.first].first_line;
    const int last = LastLine(s);
    const std::string indent(lines_text_.Indent(first));
    const std::string call = api.open + "(\"" + EscapeForLiteral(names[i]) + "\")";
    const std::string& nl = lines_text_.newline();
    std::string text;
    if (api.close.empty()) {
      text = indent + "with " + call + ":" + nl + Reindented(first, last, Unit(s.first));
    } else {
      text = indent + call + nl + Reindented(first, last, "") + nl + indent + api.close + "()";
    }
    out.edits.push_back(lines_text_.Replace(first, last, std::move(text)));
    out.ranges.push_back(NestedRange{names[i], first, last});
  }
  if (out.edits.empty()) {
    return MakeError(ErrorKind::kNotFound, "every statement of '" + range.name + "' returns or jumps out of it");
  }
  if (api.needs_import) {
    if (auto e = ImportEdit()) out.edits.push_back(*e);
  }
  SortEdits(out.edits);
  return out;
}

Expected<SourceEdit> PyEdits::AnnotateFunction(int line) {
  std::optional<size_t> def;
  for (size_t k = 0; k < lines_.size(); ++k) {
    if (lines_[k].first_line <= line && line <= lines_[k].suite_end && IsDef(k, nullptr) && HeadsSuite(k)) def = k;
  }
  if (!def) return MakeError(ErrorKind::kNotFound, "no function contains this line");
  std::string name;
  IsDef(*def, &name);
  const int def_line = lines_[*def].first_line;
  for (const auto& a : ScanSource(text_, Language::kPython, "")) {
    if (a.kind == Kind::kCandidate) continue;
    const bool decorates = a.kind == Kind::kDecorator && a.function_span.first == def_line;
    const bool whole_body = a.kind == Kind::kContextManager && a.function_span.first == def_line &&
                            a.body.last == lines_[*def].suite_end && LineAt(a.line) && *LineAt(a.line) == *def + 1;
    if (decorates || whole_body) {
      return MakeError(ErrorKind::kInvalidArgument, "function '" + name + "' already has a range ('" + a.name + "')");
    }
  }
  Annotation none;
  none.api = Api::kCandidateCall;
  PyApi api = ApiFor(none);
  if (!api.close.empty())
    api = PyApi{"nvtx.annotate", "", !ImportsNvtx()};  // a push/pop file: a decorator needs a
                                                       // with-API
  SourceEdit out;
  out.title = "Annotate function '" + name + "' with NVTX";
  // Innermost decorator: right above the def, at its indentation.
  out.edits.push_back(lines_text_.InsertLineBefore(
      def_line, std::string(lines_text_.Indent(def_line)) + "@" + api.open + "(\"" + EscapeForLiteral(name) + "\")"));
  out.ranges.push_back(NestedRange{name, def_line, lines_[*def].suite_end});
  if (api.needs_import) {
    if (auto e = ImportEdit()) out.edits.push_back(*e);
  }
  SortEdits(out.edits);
  return out;
}

}  // namespace

Expected<SourceEdit> RefinePython(std::string_view text, const Annotation& range) {
  return PyEdits(text).Refine(range);
}

Expected<SourceEdit> AnnotatePythonFunction(std::string_view text, int line) {
  return PyEdits(text).AnnotateFunction(line);
}

}  // namespace nsys::source::detail
