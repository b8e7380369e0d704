#pragma once
// One place in source code where an NVTX range (or a project's own scope) is given its name: what the scanner finds
// and the index keeps. Positions are LSP positions: 0-based lines, 0-based columns in UTF-16 code units.
#include <string>
#include <string_view>

namespace nsys::source {

enum class Language { kUnknown, kPython, kCpp, kCuda, kJulia };

// The API that opens the range.
enum class Api {
  kNvtxAnnotate,      // Python nvtx.annotate("x") / annotate(message="x")
  kTorchNvtxRange,    // torch.cuda.nvtx.range("x")
  kTorchRangePush,    // torch.cuda.nvtx.range_push("x") / range_push("x")
  kNvtxPushRange,     // Python nvtx.push_range("x") / nvtx.start_range("x")
  kRecordFunction,    // torch.profiler.record_function / torch.autograd.profiler.record_function
  kNvtxRangePushA,    // C nvtxRangePushA("x")
  kNvtxRangePushW,    // C nvtxRangePushW(L"x")
  kNvtxRangeStartA,   // C nvtxRangeStartA("x") / nvtxRangeStartW(L"x")
  kNvtx3ScopedRange,  // nvtx3::scoped_range r{"x"} (and scoped_range_in<D>, thread_range)
  kNvtx3FuncRange,    // NVTX3_FUNC_RANGE() / NVTX3_FUNC_RANGE_IN(D): the enclosing function's name
  kJuliaRange,        // Julia NVTX.@range "x" / @range "x"
  kCandidateCall,     // any IDENT("literal", ...): a project's scope macro or call, if the name is a range's
};

enum class Kind {
  kContextManager,  // Python `with ...:` (or the object made outside a with)
  kDecorator,       // Python `@...` over a def
  kPush,            // push/start ... pop/end
  kScoped,          // C++ RAII object
  kFuncRange,       // C++ NVTX3_FUNC_RANGE
  kCandidate,       // kept only when the name equals a range name of the profile (a later step decides)
  kJuliaMacro,      // Julia @range
};

// Inclusive 0-based line span; first < 0 when unknown.
struct LineSpan {
  int first = -1;
  int last = -1;
  bool known() const { return first >= 0; }
};

struct Annotation {
  std::string file;    // as given to the index (absolute when it walked a root)
  int line = 0;        // 0-based line of the name literal (of the macro for NVTX3_FUNC_RANGE)
  int column = 0;      // 0-based UTF-16 column where the literal starts (its opening quote / prefix)
  int end_line = 0;    // the line where the literal ends (== line but for triple-quoted/raw/concatenated ones)
  int end_column = 0;  // UTF-16 column just past the literal, on end_line
  std::string name;    // the range name (the literal prefix when prefix_only)
  Api api = Api::kCandidateCall;
  Kind kind = Kind::kCandidate;
  bool prefix_only = false;  // built at run time (f-string, "a" + x, $interp): `name` is only its literal prefix
  std::string callee;        // the called name as written: "nvtx.annotate", "FUSER_PERF_SCOPE", "NVTX.@range"
  std::string function;      // the enclosing function ("" when unknown / module level); a decorator's: the decorated
  LineSpan function_span;    // that function's lines (from its def/signature to its last line)
  LineSpan body;             // lines the range covers: a with/@range block, a decorated def (Python, Julia)
};

const char* ApiName(Api api);
const char* KindName(Kind kind);
Language LanguageOfPath(std::string_view path);  // by extension; kUnknown for anything else

}  // namespace nsys::source
