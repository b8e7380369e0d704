#pragma once
// The refinement loop: what to refine next in a profile's NVTX annotation (core's AnnotationPlan) and the
// mapping coverage that tells whether the loop converges. The calls are Workspace's (workspace.h, "annotation plan").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/skills/nvtx_coverage.h"
#include "nsys/source/edits.h"

namespace nsys::core {

struct AnnotationPlanRequest {
  std::string profile_id;
  // Directories (or single files) holding the user's sources; indexed for this call (files over 4 MiB, .gitignored
  // and VCS/build directories skipped). Empty: items carry no location or edit.
  std::vector<std::string> source_roots;
  size_t limit = 20;  // items listed (0 = all)
  // Without source_roots: a session's source set (Workspace::OpenSourceSet), its files read from disk for the edits.
  std::string source_set;
};

// Where a range's name is given in source (an LSP range of the name literal).
struct PlanLocation {
  std::string file;  // absolute
  int line = 0;
  int column = 0;
  int end_line = 0;
  int end_column = 0;
};

struct PlanItem {
  std::string name;  // the range name (nvtx_range_kernels' label)
  int64_t instances = 0;
  int64_t gpu_ns = 0;  // of the kernels launched inside its instances
  int64_t kernels = 0;
  int64_t distinct_kernels = 0;
  double kernels_per_call = 0;
  int64_t max_kernels_per_call = 0;
  double share = 0;  // gpu_ns / all kernel time
  std::string top_kernel;
  std::optional<PlanLocation> location;    // the first place the sources name it (by file, line)
  int other_locations = 0;                 // further places naming it
  std::optional<source::SourceEdit> edit;  // "Add NVTX ranges inside 'X'" at `location`
  std::string reason;                      // why it is listed, and why there is no edit when there is none
};

struct AnnotationPlan {
  skills::NvtxCoverage coverage;  // of the whole profile
  int64_t unmapped_ns = 0;        // kernel time under no innermost one-kernel-per-call range
  std::vector<PlanItem> items;    // innermost ranges launching more than one kernel per call, most GPU time first
  size_t total_items = 0;         // before the limit
  std::string next_command;       // what to run after editing (the user fills in their own command)
  std::vector<std::string> notes;
  size_t files_indexed = 0;
};

// textDocument/codeAction on a source file: the edits the refinement loop offers at a place.
struct SourceActionRequest {
  std::string profile_id;           // the session's active profile; "" when none (only "Annotate this function")
  std::string file;                 // absolute path of the document
  std::optional<std::string> text;  // the editor's buffer; absent: the file on disk
  int line = 0;                     // the cursor or the selection's first line (0-based)
  int end_line = 0;                 // the selection's last line
};

struct SourceAction {
  std::string title;  // "Add NVTX ranges inside 'X'" / "Annotate function 'f' with NVTX"
  std::string kind = "refactor.rewrite";
  std::string file;
  source::SourceEdit edit;
};

// The command to profile again: `nsys profile -t cuda,nvtx -o NEW <your command> && nsys export --type sqlite
// NEW.nsys-rep`, NEW named after `profile_path` ("<stem>_refined").
std::string NextProfileCommand(const std::string& profile_path);

}  // namespace nsys::core
