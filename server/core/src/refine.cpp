// Workspace's refinement loop (issue 12): the mapping coverage (memoised per loaded profile) and the annotation plan
// (nvtx_range_kernels' innermost ranges that launch more than one kernel per call, mapped onto the user's sources,
// each with the edit that adds finer ranges inside it).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "nsys/core/workspace.h"
#include "nsys/source/annotation_index.h"
#include "nsys/source/scanner.h"

namespace nsys::core {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxSourceBytes = 4ull << 20;  // as the index's limit: larger files are not edited

int64_t IntCell(const std::vector<Value>& row, int column) {
  if (column < 0) return 0;
  const Value& v = row[static_cast<size_t>(column)];
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<int64_t>(*d);
  return 0;
}
double DoubleCell(const std::vector<Value>& row, int column) {
  if (column < 0) return 0;
  const Value& v = row[static_cast<size_t>(column)];
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  return 0;
}
std::string StringCell(const std::vector<Value>& row, int column) {
  if (column < 0) return {};
  const auto* s = std::get_if<std::string>(&row[static_cast<size_t>(column)]);
  return s ? *s : std::string();
}
bool BoolCell(const std::vector<Value>& row, int column) {
  if (column < 0) return false;
  const auto* b = std::get_if<bool>(&row[static_cast<size_t>(column)]);
  return b && *b;
}

int ColumnOf(const skills::Table& table, std::string_view name) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

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

Expected<SourceNames> IndexSources(const std::vector<std::string>& roots, const CancelToken& cancel) {
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
  return names;
}

// The item's location and edit from the first annotation naming it.
void Locate(const SourceNames& names, PlanItem& item) {
  const auto found = names.Find(item.name);
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

// What SourceActions needs of a range name: whether to offer refining it.
struct RangeNeed {
  bool refine = false;  // innermost, and some call launches more than one kernel
};

}  // namespace

std::string NextProfileCommand(const std::string& profile_path) {
  std::string stem = fs::path(profile_path).stem().string();
  if (stem.empty()) stem = "profile";
  const std::string next = stem + "_refined";
  return fmt::format("nsys profile -t cuda,nvtx -o {0} <your command> && nsys export --type sqlite {0}.nsys-rep", next);
}

Expected<skills::NvtxCoverage> Workspace::StoreCoverage(const engine::Profile& profile, CoverageSlot& slot,
                                                        const CancelToken& cancel) {
  {
    std::lock_guard lock(slot.mu);
    if (slot.value) return *slot.value;
  }
  auto filter = engine::ResolveFilter(profile.info(), engine::FilterSpec{});
  if (!filter) return filter.error();
  auto computed = skills::ComputeNvtxCoverage(profile, *filter, cancel);
  if (!computed) return computed.error();
  std::lock_guard lock(slot.mu);
  if (!slot.value) slot.value = *computed;
  return *slot.value;
}

std::optional<skills::NvtxCoverage> Workspace::KnownMappingCoverage(const std::string& profile_id) const {
  auto entry = EntryOf(profile_id);
  if (!entry) return std::nullopt;
  std::lock_guard lock((*entry)->coverage->mu);
  return (*entry)->coverage->value;
}

Expected<skills::NvtxCoverage> Workspace::MappingCoverage(const std::string& profile_id, const CancelToken& cancel,
                                                          const ProgressSink& progress) {
  auto entry = EntryOf(profile_id);
  if (!entry) return entry.error();
  if (Status loaded = (*entry)->profile->Require(engine::Need::kAttribution, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  return StoreCoverage(*(*entry)->profile, *(*entry)->coverage, cancel);
}

Expected<AnnotationPlan> Workspace::PlanAnnotation(const AnnotationPlanRequest& request, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  auto entry = EntryOf(request.profile_id);
  if (!entry) return entry.error();
  const engine::Profile& profile = *(*entry)->profile;
  AnnotationPlan plan;
  plan.next_command = NextProfileCommand(profile.info().path);
  auto coverage = MappingCoverage(request.profile_id, cancel, progress);
  if (!coverage) return coverage.error();
  plan.coverage = *coverage;
  plan.unmapped_ns = coverage->kernel_ns_total - coverage->mapped_ns;
  if (progress) progress(50, "indexing sources");
  auto names = IndexSources(request.source_roots, cancel);
  if (!names) return names.error();
  plan.files_indexed = names->files;
  if (progress) progress(70, "finding ranges to refine");
  auto table = RunSkill(request.profile_id, "nvtx_range_kernels", {}, cancel);
  if (!table) return table.error();
  if (table->declined) {
    plan.notes = table->notes;
    return plan;
  }
  const int name = ColumnOf(*table, "name"), instances = ColumnOf(*table, "instances"),
            gpu = ColumnOf(*table, "gpu_ns"), kernels = ColumnOf(*table, "kernels"),
            distinct = ColumnOf(*table, "distinct_kernels"), per_call = ColumnOf(*table, "kernels_per_call"),
            max_per_call = ColumnOf(*table, "max_kernels_per_call"), innermost = ColumnOf(*table, "innermost"),
            top = ColumnOf(*table, "top_kernel");
  for (const auto& row : table->rows) {  // most GPU time first, as the skill sorts them
    if (!BoolCell(row, innermost) || IntCell(row, max_per_call) <= 1 || IntCell(row, gpu) <= 0) continue;
    ++plan.total_items;
    if (request.limit > 0 && plan.items.size() >= request.limit) continue;
    PlanItem item;
    item.name = StringCell(row, name);
    item.instances = IntCell(row, instances);
    item.gpu_ns = IntCell(row, gpu);
    item.kernels = IntCell(row, kernels);
    item.distinct_kernels = IntCell(row, distinct);
    item.kernels_per_call = DoubleCell(row, per_call);
    item.max_kernels_per_call = IntCell(row, max_per_call);
    item.top_kernel = StringCell(row, top);
    item.share = coverage->kernel_ns_total > 0
                     ? static_cast<double>(item.gpu_ns) / static_cast<double>(coverage->kernel_ns_total)
                     : 0;
    item.reason = fmt::format(
        "Innermost range launching {:.3g} kernels of {} kinds per call (up to {}) over {} calls: {} of GPU time "
        "({:.3g}% of all kernel time) that no range maps to one kernel.",
        item.kernels_per_call, item.distinct_kernels, item.max_kernels_per_call, item.instances, Ms(item.gpu_ns),
        100.0 * item.share);
    Locate(*names, item);
    plan.items.push_back(std::move(item));
  }
  if (plan.total_items > plan.items.size()) {
    plan.notes.push_back(fmt::format("Showing {} of {} ranges to refine.", plan.items.size(), plan.total_items));
  }
  if (plan.total_items == 0 && coverage->kernel_ns_total > 0) {
    plan.notes.push_back("No innermost range launches more than one kernel per call.");
  }
  if (request.source_roots.empty()) plan.notes.push_back("No sources were given: items carry no location or edit.");
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

}  // namespace nsys::core

namespace nsys::core {

Expected<std::vector<SourceAction>> Workspace::SourceActions(const SourceActionRequest& request,
                                                             const CancelToken& cancel, const ProgressSink& progress) {
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
    auto table = RunSkill(request.profile_id, "nvtx_range_kernels", {}, cancel, progress);
    if (!table) return table.error();
    std::map<std::string, RangeNeed> needs;
    const int name = ColumnOf(*table, "name"), innermost = ColumnOf(*table, "innermost"),
              max_per_call = ColumnOf(*table, "max_kernels_per_call");
    for (const auto& row : table->rows) {
      needs[StringCell(row, name)].refine = BoolCell(row, innermost) && IntCell(row, max_per_call) > 1;
    }
    std::vector<std::string> offered;
    for (const auto& a : source::ScanSource(text, language, request.file)) {
      const bool on_name = a.line <= last && first <= a.end_line;
      const bool in_body = a.body.known() && a.body.first <= first && last <= a.body.last;
      if (!on_name && !in_body) continue;
      bool refine = false;
      if (auto it = needs.find(a.name); it != needs.end()) {
        refine = it->second.refine;
      } else if (a.prefix_only) {  // a name built at run time: any range it may stand for
        for (auto p = needs.lower_bound(a.name); p != needs.end() && p->first.rfind(a.name, 0) == 0; ++p) {
          refine |= p->second.refine;
        }
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

}  // namespace nsys::core
