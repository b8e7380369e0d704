// Workspace's refinement loop: the mapping coverage (memoised per loaded profile) and the annotation plan
// (nvtx_range_kernels' innermost ranges that launch more than one kernel per call, mapped onto the user's sources,
// each with the edit that adds finer ranges inside it).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>
#include <utility>

#include "nsys/core/workspace.h"
#include "nsys/source/annotation_index.h"
#include "nsys/source/scanner.h"
#include "stores.h"

namespace nsys::core {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxSourceBytes = 4ull << 20;  // as the index's limit: larger files are not edited

Expected<std::string> ReadSource(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return MakeError(ErrorKind::kNotFound, fmt::format("cannot read {}: {}", path, ec.message()));
  if (size > kMaxSourceBytes) {
    return MakeError(ErrorKind::kLimitExceeded, fmt::format("{} is larger than {} bytes", path, kMaxSourceBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kNotFound, fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Ms(int64_t ns) {  // µs below a millisecond, so that small figures stay readable
  if (ns < 1'000'000) return fmt::format("{:.1f} µs", static_cast<double>(ns) / 1e3);
  return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

// Every annotation of the sources by name; names built at run time by their literal prefix.
struct SourceNames {
  std::map<std::string, std::vector<source::Annotation>> exact;
  std::vector<source::Annotation> prefixes;
  size_t files = 0;
  std::vector<std::string> warnings;  // roots the index stopped short of (TruncatedRootWarning)

  // The annotations naming `range`: exactly, else the longest literal prefix it begins with.
  std::vector<source::Annotation> Find(const std::string& range) const {
    if (auto it = exact.find(range); it != exact.end()) return it->second;
    std::vector<source::Annotation> best;
    size_t best_size = 0;
    for (const auto& a : prefixes) {
      if (range.rfind(a.name, 0) != 0 || a.name.size() < best_size) continue;
      if (a.name.size() > best_size) best.clear();
      best_size = a.name.size();
      best.push_back(a);
    }
    return best;
  }
};

SourceNames NamesOf(const source::AnnotationIndex& index) {
  SourceNames names;
  for (const auto& file : index.Files()) {
    ++names.files;
    for (auto& a : index.InFile(file)) {
      if (a.prefix_only) {
        names.prefixes.push_back(a);
      } else {
        names.exact[a.name].push_back(a);
      }
    }
  }
  auto by_place = [](const source::Annotation& a, const source::Annotation& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  };
  for (auto& [name, list] : names.exact) std::sort(list.begin(), list.end(), by_place);
  std::sort(names.prefixes.begin(), names.prefixes.end(), by_place);
  for (const auto& root : index.TruncatedRoots()) names.warnings.push_back(TruncatedRootWarning(root));
  return names;
}

Expected<SourceNames> IndexRoots(const std::vector<std::string>& roots, const CancelToken& cancel) {
  source::AnnotationIndex index;
  for (const auto& root : roots) {
    std::error_code ec;
    if (fs::is_directory(root, ec)) {
      auto added = index.AddRoot(root, cancel);
      if (!added) return added.error();
    } else if (fs::is_regular_file(root, ec)) {
      auto text = ReadSource(root);
      if (!text) return text.error();
      index.SetText(source::NormalPath(root), *text);
    } else {
      return MakeError(ErrorKind::kNotFound, fmt::format("the source root {} is not a directory or a file", root));
    }
  }
  return NamesOf(index);
}

// The item's location and edit from the first annotation naming it (by the first of `candidates` the sources give).
void Locate(const SourceNames& names, const std::vector<std::string>& candidates, PlanItem& item) {
  std::vector<source::Annotation> found;
  for (const auto& name : candidates) {
    if (!(found = names.Find(name)).empty()) break;
  }
  if (found.empty()) {
    item.reason +=
        " Its name is not given in the sources (a library's range, or sources not indexed): find where "
        "it opens and add finer ranges inside it by hand.";
    return;
  }
  const source::Annotation& a = found.front();
  item.location = PlanLocation{a.file, a.line, a.column, a.end_line, a.end_column};
  item.other_locations = static_cast<int>(found.size()) - 1;
  if (a.prefix_only) item.reason += " Its name is built at run time; the source gives the prefix '" + a.name + "'.";
  auto text = ReadSource(a.file);
  if (!text) {
    item.reason += " No edit: " + text.error().message + ".";
    return;
  }
  auto edit = source::RefineRangeEdit(*text, source::LanguageOfPath(a.file), a);
  if (!edit) {
    item.reason += " No edit: " + edit.error().message + ".";
    return;
  }
  item.reason += fmt::format(" The edit wraps {} statement(s) of its body in ranges named '{}/<callee>'.",
                             edit->ranges.size(), a.name);
  item.edit = std::move(*edit);
}

// A listed range's figures and why it is listed.
PlanItem ItemOf(const RangeFigures& r, int64_t kernel_ns_total) {
  PlanItem item;
  item.name = r.name;
  item.instances = r.instances;
  item.gpu_ns = r.gpu_ns;
  item.kernels = r.kernels;
  item.distinct_kernels = r.distinct_kernels;
  item.kernels_per_call = r.kernels_per_call;
  item.max_kernels_per_call = r.max_kernels_per_call;
  if (!r.kernel_list.empty()) item.top_kernel = r.kernel_list.front().kernel;
  item.share = kernel_ns_total > 0 ? static_cast<double>(item.gpu_ns) / static_cast<double>(kernel_ns_total) : 0;
  item.reason = fmt::format(
      "Innermost range launching {:.3g} kernels of {} {} per call (up to {}) over {} calls: {} of GPU time "
      "({:.3g}% of all kernel time) that no range maps to one kernel.",
      item.kernels_per_call, item.distinct_kernels, item.distinct_kernels == 1 ? "kind" : "kinds",
      item.max_kernels_per_call, item.instances, Ms(item.gpu_ns), 100.0 * item.share);
  return item;
}

}  // namespace

std::string NextProfileCommand(const std::string& profile_path) {
  std::string stem = fs::path(profile_path).stem().string();
  if (stem.empty()) stem = "profile";
  const std::string next = stem + "_refined";
  return fmt::format("nsys profile -t cuda,nvtx -o {0} <your command> && nsys export --type sqlite {0}.nsys-rep", next);
}

namespace annotation_features {

// What a plan asks of the workspace: the session's source set, the range figures.
struct PlanCalls {
  std::function<Expected<std::shared_ptr<source::AnnotationIndex>>()> source_set;
  std::function<Expected<std::shared_ptr<const RangeFigureTable>>()> figures;
};

std::optional<skills::NvtxCoverage> KnownCoverage(const Expected<std::shared_ptr<LoadedProfile>>& entry) {
  if (!entry) return std::nullopt;
  std::lock_guard lock((*entry)->coverage->mu);
  return (*entry)->coverage->value;
}

Expected<skills::NvtxCoverage> Coverage(const Expected<std::shared_ptr<LoadedProfile>>& entry,
                                        const CancelToken& cancel, const ProgressSink& progress) {
  if (!entry) return entry.error();
  if (!(*entry)->profile->info().caps.kernels) {  // no kernel time to map: 0 of 0, nothing to load
    return StoreCoverage(*(*entry)->profile, *(*entry)->coverage, cancel);
  }
  if (Status loaded = (*entry)->profile->Require(engine::Need::kAttribution, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  return StoreCoverage(*(*entry)->profile, *(*entry)->coverage, cancel);
}

}  // namespace annotation_features

std::optional<skills::NvtxCoverage> Workspace::KnownMappingCoverage(const std::string& profile_id) const {
  return annotation_features::KnownCoverage(EntryOf(profile_id));
}

Expected<skills::NvtxCoverage> Workspace::MappingCoverage(const std::string& profile_id, const CancelToken& cancel,
                                                          const ProgressSink& progress) {
  return annotation_features::Coverage(EntryOf(profile_id), cancel, progress);
}

namespace annotation_features {

// Long: the plan's steps in order (coverage, sources, the ranges to refine ranked and located, then its notes), each
// a few lines; split, they would pass the plan and its inputs between five functions.
Expected<AnnotationPlan> Plan(const Expected<std::shared_ptr<LoadedProfile>>& entry,
                              const AnnotationPlanRequest& request, const PlanCalls& calls, const CancelToken& cancel,
                              const ProgressSink& progress) {
  if (!entry) return entry.error();
  AnnotationPlan plan;
  plan.next_command = NextProfileCommand((*entry)->profile->info().path);
  auto coverage = Coverage(entry, cancel, progress);
  if (!coverage) return coverage.error();
  plan.coverage = *coverage;
  plan.unmapped_ns = coverage->kernel_ns_total - coverage->mapped_ns;
  if (progress) progress(50, "indexing sources");
  Expected<SourceNames> names = SourceNames{};
  if (!request.source_roots.empty() || request.source_set.empty()) {
    names = IndexRoots(request.source_roots, cancel);
  } else if (auto set = calls.source_set()) {
    names = NamesOf(**set);
  } else {
    names = set.error();
  }
  if (!names) return names.error();
  plan.files_indexed = names->files;
  plan.notes = names->warnings;  // the sources the plan could not see come first
  if (progress) progress(70, "finding ranges to refine");
  // The range figures the lenses and diagnostics show (nvtx_range_kernels' rows, computed once per profile), so the
  // plan, the diagnostics and the code actions agree on what to refine.
  auto figures = calls.figures();
  if (!figures) return figures.error();
  const RangeFigureTable& table = **figures;
  if (!table.kernel_data) {
    plan.notes.push_back(table.kernel_note.empty() ? "No kernel is launched inside an NVTX range of this profile."
                                                   : "Nothing to refine: " + table.kernel_note);
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < table.ranges.size(); ++i) {
    const RangeFigures& r = table.ranges[i];
    if (table.kernel_data && r.innermost && r.max_kernels_per_call > 1 && r.gpu_ns > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&table](size_t a, size_t b) {
    return table.ranges[a].gpu_ns > table.ranges[b].gpu_ns;  // most GPU time first
  });
  plan.total_items = order.size();
  for (size_t i : order) {
    if (request.limit > 0 && plan.items.size() >= request.limit) break;
    const RangeFigures& r = table.ranges[i];
    PlanItem item = ItemOf(r, coverage->kernel_ns_total);
    // The names a source may give the range (its label, its text without the domain, without PyTorch's seq).
    std::vector<std::string> candidates{r.name};
    if (i < table.names_of.size()) {
      for (const auto& n : table.names_of[i]) candidates.push_back(n);
    }
    Locate(*names, candidates, item);
    plan.items.push_back(std::move(item));
  }
  if (plan.total_items > plan.items.size()) {
    plan.notes.push_back(fmt::format("Showing {} of {} ranges to refine.", plan.items.size(), plan.total_items));
  }
  if (plan.total_items == 0 && coverage->kernel_ns_total > 0) {
    plan.notes.push_back("No innermost range launches more than one kernel per call.");
  }
  if (request.source_roots.empty() && request.source_set.empty()) {
    plan.notes.push_back("No sources were given: items carry no location or edit.");
  }
  plan.notes.push_back(fmt::format(
      "Mapping coverage {:.1f}% ({} of {} of kernel time is launched inside an innermost range whose calls each "
      "launch one kernel); {} is not.",
      100.0 * coverage->share, Ms(coverage->mapped_ns), Ms(coverage->kernel_ns_total), Ms(plan.unmapped_ns)));
  plan.notes.push_back(
      "After applying the edits, profile again with your own program and arguments in place of "
      "<your command>, then open the new export to see the coverage change.");
  if (progress) progress(100, "planned");
  return plan;
}

}  // namespace annotation_features

Expected<AnnotationPlan> Workspace::AnnotationPlanFor(const AnnotationPlanRequest& request, const CancelToken& cancel,
                                                      const ProgressSink& progress) {
  const auto set = [&] { return SourceSet(request.source_set); };
  const auto figures = [&] { return FiguresOf(request.profile_id, cancel, progress); };
  return annotation_features::Plan(EntryOf(request.profile_id), request, {set, figures}, cancel, progress);
}

}  // namespace nsys::core

namespace nsys::core {

namespace annotation_features {

// The code actions on a selection of a source: refine each range there that launches more than one kernel per call
// (with a profile), annotate the function around it.
Expected<std::vector<SourceAction>> Actions(
    const SourceActionRequest& request,
    const std::function<Expected<std::shared_ptr<const RangeFigureTable>>()>& figures_of) {
  std::vector<SourceAction> out;
  const source::Language language = source::LanguageOfPath(request.file);
  if (language != source::Language::kPython && language != source::Language::kCpp &&
      language != source::Language::kCuda) {
    return out;
  }
  std::string text;
  if (request.text) {
    text = *request.text;
  } else {
    auto read = ReadSource(request.file);
    if (!read) return read.error();
    text = std::move(*read);
  }
  const int first = std::min(request.line, request.end_line), last = std::max(request.line, request.end_line);
  if (!request.profile_id.empty()) {
    auto figures = figures_of();  // computed once per profile, then shared
    if (!figures) return figures.error();
    const RangeFigureTable& table = **figures;
    auto refine_any = [&table](const std::vector<size_t>& ranges) {
      for (size_t i : ranges) {
        if (table.ranges[i].innermost && table.ranges[i].max_kernels_per_call > 1) return true;
      }
      return false;
    };
    std::vector<std::string> offered;
    for (const auto& a : source::ScanSource(text, language, request.file)) {
      const bool on_name = a.line <= last && first <= a.end_line;
      const bool in_body = a.body.known() && a.body.first <= first && last <= a.body.last;
      if (!on_name && !in_body) continue;
      bool refine = false;
      if (const auto* exact = table.Find(a.name)) {
        refine = refine_any(*exact);
      } else if (a.prefix_only) {  // a name built at run time: any range it may stand for
        refine = refine_any(table.FindPrefix(a.name));
      }
      if (!refine || std::find(offered.begin(), offered.end(), a.name) != offered.end()) continue;
      auto edit = source::RefineRangeEdit(text, language, a);
      if (!edit) continue;  // no body the edit can reach: nothing to offer here
      offered.push_back(a.name);
      out.push_back(SourceAction{edit->title, "refactor.rewrite", request.file, std::move(*edit)});
    }
  }
  if (auto edit = source::AnnotateFunctionEdit(text, language, first)) {
    out.push_back(SourceAction{edit->title, "refactor.rewrite", request.file, std::move(*edit)});
  }
  return out;
}

}  // namespace annotation_features

Expected<std::vector<SourceAction>> Workspace::SourceActions(const SourceActionRequest& request,
                                                             const CancelToken& cancel, const ProgressSink& progress) {
  return annotation_features::Actions(request, [&] { return FiguresOf(request.profile_id, cancel, progress); });
}

}  // namespace nsys::core
