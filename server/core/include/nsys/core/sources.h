#pragma once
// Kernel -> source: the plain structs of a session's source set (the annotation index of the user's
// source tree, server/source/) and of the profile's numbers mapped onto it (code lenses, hovers, diagnostics, kernel
// sources). The calls are Workspace's (workspace.h, "sources"). Positions are LSP positions: 0-based lines, UTF-16
// columns. Paths are absolute and lexically normal (source::NormalPath).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nsys/core/traces.h"
#include "nsys/source/annotation.h"

namespace nsys::core {

// At most this many source sets at once (one per editor session).
inline constexpr size_t kMaxSourceSets = 64;

// What indexing a set's roots found (summed over the roots).
struct SourceIndexStats {
  size_t roots = 0;                   // roots indexed
  size_t files = 0;                   // source files scanned
  size_t annotations = 0;             // annotations found in them
  size_t too_large = 0;               // files skipped by the size limit
  size_t ignored = 0;                 // files and directories skipped (.gitignore, VCS/build directories)
  bool truncated = false;             // a root had more files than the index takes
  std::vector<std::string> warnings;  // a root that is not a directory, ...
};

// Where a name literal is in a file.
struct SourceSpan {
  std::string file;
  int line = 0;
  int column = 0;
  int end_line = 0;
  int end_column = 0;
};
SourceSpan SpanOf(const source::Annotation& annotation);
// The warning for a source root whose walk stopped at the index's file limit (source::IndexLimits::max_files):
// window/logMessage after indexing, and a note of every annotation plan made from that index.
std::string TruncatedRootWarning(const std::string& root);

// One kernel (by short name) launched inside a range's instances (nested ranges included).
struct RangeKernel {
  std::string kernel;  // short name
  int64_t calls = 0;   // launches inside the range's instances
  int64_t gpu_ns = 0;  // their summed duration
  int64_t p50_ns = 0;  // per launch (nearest rank); 0 when not computed (see RangeFigureTable::percentile_note)
  int64_t p90_ns = 0;
};

// One NVTX range name of a profile (labelled as nvtx_range_kernels labels it, PyTorch's op ids grouped).
struct RangeFigures {
  std::string name;              // the label ("<domain>:<text>" when its domain has a name)
  int64_t instances = 0;         // calls
  int64_t threads = 0;           // distinct threads
  int64_t wall_ns = 0;           // summed duration
  int64_t longest_start_ns = 0;  // the longest instance, capture-clock ns
  int64_t longest_end_ns = 0;
  // From nvtx_range_kernels; all 0 / false without kernel data (RangeFigureTable::kernel_data).
  int64_t gpu_ns = 0;
  int64_t kernels = 0;
  int64_t distinct_kernels = 0;
  double kernels_per_call = 0;
  int64_t max_kernels_per_call = 0;
  bool innermost = false;
  int64_t gpu_p50_ns = 0;  // GPU time per instance
  int64_t gpu_p90_ns = 0;
  std::vector<RangeKernel> kernel_list;  // most GPU time first
};

// The launches of one kernel grouped by the NVTX ranges around them (innermost first, label indices into
// RangeFigureTable::ranges): what nsys/kernelSources walks to the innermost range the source set annotates.
struct KernelStack {
  std::vector<int32_t> ranges;
  int64_t calls = 0;
  int64_t gpu_ns = 0;
};

struct KernelFigures {
  std::string kernel;  // short name
  int64_t calls = 0;   // every launch in the profile
  int64_t gpu_ns = 0;
  std::vector<KernelStack> stacks;  // launches inside at least one range
};

// A profile's range figures, computed once per loaded profile and shared (Workspace::RangeFigures).
struct RangeFigureTable {
  bool nvtx_data = false;       // the profile has NVTX ranges
  bool kernel_data = false;     // ... and kernels with their launch calls (else figures are wall time only)
  std::string kernel_note;      // why there is no kernel data, when there is none
  std::string percentile_note;  // why per-kernel percentiles are 0, when they are
  std::vector<RangeFigures> ranges;
  // The names a source may give a range: its label, its own text (without "<domain>:"), and that text without
  // PyTorch's ", seq = N" suffix; each may stand for several labels (one per seq number, say).
  std::unordered_map<std::string, std::vector<size_t>> by_name;
  std::vector<std::pair<std::string, size_t>> sorted_names;  // the same, sorted, for literal prefixes
  std::vector<std::vector<std::string>> names_of;            // range index -> its names
  std::vector<KernelFigures> kernels;
  std::unordered_map<std::string, size_t> kernel_by_name;           // short and demangled names
  const std::vector<size_t>* Find(const std::string& name) const;   // nullptr when no range has that name
  std::vector<size_t> FindPrefix(const std::string& prefix) const;  // ranges with a name beginning `prefix`
  const KernelFigures* FindKernel(const std::string& name) const;
};

// ---- what the editor shows ----

// A source name matched to the profile: exactly, or (names built at run time) every range its literal prefix
// begins, summed.
struct SourceMatch {
  SourceSpan span;
  std::string name;  // as written (the literal prefix when prefix_only)
  bool prefix_only = false;
  bool ran = false;                  // a range of the profile has this name
  RangeFigures figures;              // summed over the matched ranges when ran
  std::vector<std::string> matched;  // the range labels it stands for
};

// textDocument/codeLens: one per annotated line whose name is a range of the profile, or a name that never ran.
struct SourceLens {
  SourceSpan span;
  std::string name;
  std::string title;  // "188 calls · 3009 ms · 12 kernels/call · 4.2 ms GPU", "not in this profile"
  bool ran = false;
  // The command's argument (ran only): reveal the longest instance.
  std::string profile_id;
  std::string range;  // the label to reveal (the longest matched one for a prefix)
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

struct SourceHover {
  SourceSpan span;
  std::string markdown;
};

enum class SourceDiagnosticKind {
  kRefine,  // an innermost range launching more than one kernel per call ("nvtx-refine", Information)
  kNotRun,  // a range name that never ran in the profile ("nvtx-not-run", Hint)
};

struct SourceDiagnostic {
  SourceSpan span;
  SourceDiagnosticKind kind = SourceDiagnosticKind::kNotRun;
  std::string message;
};

struct SourceFileDiagnostics {
  std::string file;
  std::vector<SourceDiagnostic> diagnostics;
};

// nsys/kernelSources: the innermost annotated ranges that launch a kernel.
struct KernelSourceLocation {
  SourceSpan span;
  std::string name;  // the range
  double share = 0;  // of the kernel's GPU time in the profile
  int64_t gpu_ns = 0;
  int64_t calls = 0;
};

struct KernelSources {
  std::string kernel;  // the short name matched
  int64_t calls = 0;
  int64_t gpu_ns = 0;
  std::vector<KernelSourceLocation> locations;  // most GPU time first
};

// nsys-ai.revealRange: a range instance opened in Perfetto (as nsys/openInPerfetto), with the range's top kernels.
struct RevealRangeRequest {
  std::string profile_id;
  std::string name;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

struct RangeRevelation {
  TracePublication publication;
  std::string name;
  std::vector<RangeKernel> kernels;  // the range's kernels, most GPU time first
};

struct SourceRequest {
  std::string set_id;      // the session's source set
  std::string profile_id;  // the profile to answer from
  std::string file;        // a path (normalised by the call); empty = every indexed file (diagnostics)
};

// The absolute, lexically normal form of a path, as source sets key files (source::NormalPath).
std::string NormalSourcePath(const std::string& path);

// Durations as the lenses print them: "3009 ms", "4.2 ms", "870 µs", "12 ns", "412.3 s".
std::string FormatNs(int64_t ns);

}  // namespace nsys::core
