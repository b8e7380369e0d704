#pragma once
// The refinement loop's source edits: text edits that add finer NVTX ranges inside an annotated range, or
// a range over a function that has none. Pure functions of a file's text; they know nothing of profiles (the caller
// decides which range is worth refining). Positions are LSP positions: 0-based lines, UTF-16 columns.
//
// "Add NVTX ranges inside 'X'" wraps each statement of the range's body in a nested range named "X/<callee>" (the
// first function the statement calls, as written; a statement without one is named by its keyword; a name that
// would repeat gets ":<1-based line>"), so each nested range maps back to one statement:
//  - Python: each simple or compound statement at the body's indentation (a lone compound statement is descended
//    into, since wrapping it alone would add nothing), in a `with <api>("X/callee"):` block of the API the range
//    uses (nvtx.annotate, torch.cuda.nvtx.range, record_function; push/pop for range_push / push_range), the
//    statement re-indented by the file's indentation unit (lines inside multi-line strings left as they are).
//    Definitions, imports, pass/break/continue and statements without a call or an operator are left alone.
//  - C/C++/CUDA: each statement of the body that calls a function (or launches a kernel), in a new `{ }` block
//    opened by the file's scope API (nvtx3::scoped_range, or the project's own scope macro the range uses), or
//    between nvtxRangePushA/nvtxRangePop when the range uses push/pop or the statement declares a name that must stay
//    visible after it. Statements holding return/break/continue/goto/throw are never bracketed by push/pop.
//  The import (`import nvtx`) or include (`<nvtx3/nvtx3.hpp>`, `<nvtx3/nvToolsExt.h>`) is added when missing.
// "Annotate this function" puts a range over a function with none: Python `@<api>("name")` on the def, C/C++
// `NVTX3_FUNC_RANGE();` as the body's first statement.
// Julia is not supported (kUnsupported): its blocks would need a parser of their own.
#include <string>
#include <string_view>
#include <vector>

#include "nsys/source/annotation.h"
#include "nsys/support/expected.h"

namespace nsys::source {

struct TextPosition {
  int line = 0;
  int character = 0;  // UTF-16 code units
  bool operator==(const TextPosition&) const = default;
};

struct TextEdit {  // LSP TextEdit: replace [start, end) by new_text
  TextPosition start;
  TextPosition end;
  std::string new_text;
};

struct NestedRange {
  std::string name;  // "X/callee" or "X/callee:12"
  int line = 0;      // 0-based first line of the statement it wraps (in the file before the edit)
  int end_line = 0;  // its last line
};

struct SourceEdit {
  std::string title;                // "Add NVTX ranges inside 'X'" / "Annotate function 'f' with NVTX"
  std::vector<TextEdit> edits;      // non-overlapping, in document order
  std::vector<NestedRange> ranges;  // the ranges the edit adds, in document order
};

// The edit that refines `range` (an annotation ScanSource found in `text`). kInvalidArgument when the range has no
// body the edit can reach (a push without its pop, a name given outside a block), kNotFound when the body has no
// statement worth a range, kUnsupported for Julia and unknown languages.
Expected<SourceEdit> RefineRangeEdit(std::string_view text, Language language, const Annotation& range);

// The edit that annotates the innermost function containing `line` (0-based). kNotFound when no function contains
// it, kInvalidArgument when that function already has a range over its body (a decorator, NVTX3_FUNC_RANGE, a
// scope opened as its first statement), kUnsupported as above.
Expected<SourceEdit> AnnotateFunctionEdit(std::string_view text, Language language, int line);

// `edits` applied to `text` (document order, non-overlapping, as the functions above return them): what the tests
// and the CLI's preview use. kInvalidArgument for an edit outside the text or overlapping the previous one.
Expected<std::string> ApplyEdits(std::string_view text, const std::vector<TextEdit>& edits);

}  // namespace nsys::source
