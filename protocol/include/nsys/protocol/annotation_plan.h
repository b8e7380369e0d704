#pragma once
// The refinement loop on the wire: nsys/annotationPlan (what to refine, with the exact edits and the
// command to run next) and the LSP shapes of its edits (TextEdit, WorkspaceEdit). nsys/diff's and profile info's
// mappingCoverage are in diff.h and methods.h.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "nsys/protocol/documents.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

namespace method {
inline constexpr std::string_view kAnnotationPlan = "nsys/annotationPlan";
inline constexpr std::string_view kCodeAction = "textDocument/codeAction";
}  // namespace method

// Hand-written reader and writer: limit must not be negative.
struct AnnotationPlanParams {
  std::string profile_id;                 // "profileId"
  std::optional<int64_t> limit;           // items listed (default 20, 0 = all)
  std::vector<std::string> source_roots;  // "sourceRoots": directories or files (paths or file:// URIs)
  bool operator==(const AnnotationPlanParams&) const = default;
};

struct TextEdit {  // LSP TextEdit
  Range range;
  std::string new_text;
  static constexpr auto WireFields() {
    using S = TextEdit;
    return std::tuple{Field("range", &S::range), Field("newText", &S::new_text)};
  }
  bool operator==(const TextEdit&) const = default;
};

struct WorkspaceEdit {  // LSP WorkspaceEdit with `changes` by document URI
  std::map<std::string, std::vector<TextEdit>> changes;
  static constexpr auto WireFields() {
    using S = WorkspaceEdit;
    return std::tuple{OptionalField("changes", &S::changes)};
  }
  bool operator==(const WorkspaceEdit&) const = default;
};

struct Location {  // LSP Location
  std::string uri;
  Range range;
  static constexpr auto WireFields() {
    using S = Location;
    return std::tuple{Field("uri", &S::uri), Field("range", &S::range)};
  }
  bool operator==(const Location&) const = default;
};

struct PlannedRange {  // a range the edit adds: its name and the statement it wraps (0-based lines)
  std::string name;
  int64_t line = 0;
  int64_t end_line = 0;
  static constexpr auto WireFields() {
    using S = PlannedRange;
    return std::tuple{Field("name", &S::name), Field("line", &S::line), Field("endLine", &S::end_line)};
  }
  bool operator==(const PlannedRange&) const = default;
};

struct AnnotationPlanItem {
  std::string name;
  int64_t instances = 0;
  int64_t gpu_ns = 0;
  int64_t kernels = 0;
  double kernels_per_call = 0;
  int64_t max_kernels_per_call = 0;
  int64_t distinct_kernels = 0;
  double share = 0;  // of all kernel time
  std::string top_kernel;
  std::optional<Location> location;  // where the sources name it
  int64_t other_locations = 0;
  std::optional<std::string> edit_title;  // "Add NVTX ranges inside 'X'"
  std::optional<WorkspaceEdit> edit;
  std::vector<PlannedRange> ranges;  // the ranges the edit adds
  std::string reason;
  static constexpr auto WireFields() {
    using S = AnnotationPlanItem;
    return std::tuple{Field("name", &S::name),
                      Field("instances", &S::instances),
                      Field("gpuNs", &S::gpu_ns),
                      Field("kernels", &S::kernels),
                      Field("kernelsPerCall", &S::kernels_per_call),
                      Field("maxKernelsPerCall", &S::max_kernels_per_call),
                      Field("distinctKernels", &S::distinct_kernels),
                      Field("share", &S::share),
                      OptionalField("topKernel", &S::top_kernel),
                      Field("location", &S::location),
                      OptionalField("otherLocations", &S::other_locations),
                      Field("editTitle", &S::edit_title),
                      Field("edit", &S::edit),
                      OptionalField("ranges", &S::ranges),
                      Field("reason", &S::reason)};
  }
  bool operator==(const AnnotationPlanItem&) const = default;
};

struct AnnotationPlanResult {
  MappingCoverage coverage;
  int64_t unmapped_ns = 0;  // kernel time under no innermost one-kernel-per-call range
  std::vector<AnnotationPlanItem> items;
  int64_t total_items = 0;  // before the limit
  int64_t files_indexed = 0;
  std::string next_command;
  std::vector<std::string> notes;
  static constexpr auto WireFields() {
    using S = AnnotationPlanResult;
    return std::tuple{Field("coverage", &S::coverage),
                      Field("unmappedNs", &S::unmapped_ns),
                      Field("items", &S::items),
                      Field("totalItems", &S::total_items),
                      OptionalField("filesIndexed", &S::files_indexed),
                      Field("nextCommand", &S::next_command),
                      OptionalField("notes", &S::notes)};
  }
  bool operator==(const AnnotationPlanResult&) const = default;
};

// Hand-written reader and writer: the uri and `only` are nested in textDocument and context.
struct CodeActionParams {  // textDocument/codeAction
  std::string uri;         // textDocument.uri
  Range range;
  std::vector<std::string> only;  // context.only: the kinds the client asks for (empty = any)
  bool operator==(const CodeActionParams&) const = default;
};

struct CodeAction {
  std::string title;
  std::string kind = "refactor.rewrite";
  WorkspaceEdit edit;
  static constexpr auto WireFields() {
    using S = CodeAction;
    return std::tuple{Field("title", &S::title), OptionalField("kind", &S::kind), Field("edit", &S::edit)};
  }
  bool operator==(const CodeAction&) const = default;
};

// Hand-written reader and writer: an array.
struct CodeActionResult {  // a JSON array of CodeAction
  std::vector<CodeAction> actions;
  using WireShape = std::vector<CodeAction>;  // its JSON (shape.h)
  bool operator==(const CodeActionResult&) const = default;
};

#define NSYS_REFINE_CONVERSIONS(Type)                                  \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_REFINE_CONVERSIONS(AnnotationPlanParams)
NSYS_REFINE_CONVERSIONS(TextEdit)
NSYS_REFINE_CONVERSIONS(WorkspaceEdit)
NSYS_REFINE_CONVERSIONS(Location)
NSYS_REFINE_CONVERSIONS(PlannedRange)
NSYS_REFINE_CONVERSIONS(AnnotationPlanItem)
NSYS_REFINE_CONVERSIONS(AnnotationPlanResult)
NSYS_REFINE_CONVERSIONS(CodeActionParams)
NSYS_REFINE_CONVERSIONS(CodeAction)
NSYS_REFINE_CONVERSIONS(CodeActionResult)
#undef NSYS_REFINE_CONVERSIONS

}  // namespace nsys::protocol
