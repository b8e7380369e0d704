#pragma once
// Shared helpers of the edit generators (internal to nsys_source): the text's lines, LSP positions, line-based
// edits, string escaping and naming of the nested ranges.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lex.h"
#include "nsys/source/edits.h"

namespace nsys::source::detail {

class Lines {
 public:
  explicit Lines(std::string_view text);
  int count() const { return static_cast<int>(starts_.size()); }
  std::string_view Text(int line) const;    // without its line break ("\n" or "\r\n")
  std::string_view Indent(int line) const;  // leading spaces and tabs
  bool Blank(int line) const;
  int Utf16Length(int line) const;
  const std::string& newline() const { return newline_; }  // the file's line break: "\r\n" when its first one is
  // The edit that replaces whole lines [first, last] (their text, not the last line break) by `text`.
  TextEdit Replace(int first, int last, std::string text) const;
  // Inserting `text` + newline before line `line` (line == count(): after the last line).
  TextEdit InsertLineBefore(int line, const std::string& text) const;

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
  std::string newline_ = "\n";
};

// `s` as the content of a double-quoted string literal (backslash, quote and control characters escaped).
std::string EscapeForLiteral(std::string_view s);

// Gives the nested ranges their names: "X/callee", with ":<line>" when a callee repeats (or has no call).
struct NameDraft {
  std::string callee;  // empty: `keyword` names it, always with its line
  std::string keyword;
  int line = 0;  // 0-based
};
std::vector<std::string> NameRanges(const std::string& parent, const std::vector<NameDraft>& drafts);

// Sorts edits into document order (the generators build them statement by statement, imports last).
void SortEdits(std::vector<TextEdit>& edits);

Expected<SourceEdit> RefinePython(std::string_view text, const Annotation& range);
Expected<SourceEdit> AnnotatePythonFunction(std::string_view text, int line);
Expected<SourceEdit> RefineCpp(std::string_view text, const Annotation& range);
Expected<SourceEdit> AnnotateCppFunction(std::string_view text, int line);

}  // namespace nsys::source::detail
