// A profile's NVTX ranges mapped onto a source set: the per-profile figures (computed once), and the
// lenses, hovers, diagnostics and kernel sources the editor asks for, answered from them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/nvtx_range_breakdown.h"
#include "nsys/source/annotation_index.h"
#include "nsys/support/render_text.h"
#include "stores.h"

namespace nsys::core {
namespace {

constexpr size_t kHoverKernels = 15;    // kernels listed in a hover
constexpr size_t kExplainSources = 10;  // source locations listed under an explanation

int64_t IntCell(const skills::Table& t, const std::vector<Value>& row, const std::string& column) {
  for (size_t c = 0; c < t.columns.size() && c < row.size(); ++c) {
    if (t.columns[c].name != column) continue;
    if (const auto* v = std::get_if<int64_t>(&row[c])) return *v;
    if (const auto* d = std::get_if<double>(&row[c])) return static_cast<int64_t>(*d);
    if (const auto* b = std::get_if<bool>(&row[c])) return *b ? 1 : 0;
  }
  return 0;
}

double DoubleCell(const skills::Table& t, const std::vector<Value>& row, const std::string& column) {
  for (size_t c = 0; c < t.columns.size() && c < row.size(); ++c) {
    if (t.columns[c].name != column) continue;
    if (const auto* d = std::get_if<double>(&row[c])) return *d;
    if (const auto* v = std::get_if<int64_t>(&row[c])) return static_cast<double>(*v);
  }
  return 0;
}

std::string StringCell(const skills::Table& t, const std::vector<Value>& row, const std::string& column) {
  for (size_t c = 0; c < t.columns.size() && c < row.size(); ++c) {
    if (t.columns[c].name != column) continue;
    if (const auto* s = std::get_if<std::string>(&row[c])) return *s;
  }
  return "";
}

void AddName(RangeFigureTable& table, const std::string& name, size_t range) {
  if (name.empty()) return;
  auto& list = table.by_name[name];
  if (std::find(list.begin(), list.end(), range) != list.end()) return;
  list.push_back(range);
  table.names_of[range].push_back(name);
}

// The breakdown's labels and kernels as the table's plain structs.
RangeFigureTable FromBreakdown(const skills::NvtxRangeBreakdown& b) {
  RangeFigureTable table;
  table.nvtx_data = b.nvtx_data;
  table.kernel_data = b.kernel_data;
  table.names_of.resize(b.ranges.size());
  for (size_t l = 0; l < b.ranges.size(); ++l) {
    const auto& r = b.ranges[l];
    RangeFigures f;
    f.name = r.label;
    f.instances = r.instances;
    f.threads = r.threads;
    f.wall_ns = r.wall_ns;
    f.longest_start_ns = r.longest_start;
    f.longest_end_ns = r.longest_end;
    for (const auto& rk : r.kernels) {
      f.kernel_list.push_back(
          {b.kernels[static_cast<size_t>(rk.kernel)].short_name, rk.calls, rk.gpu_ns, rk.p50_ns, rk.p90_ns});
    }
    table.ranges.push_back(std::move(f));
    AddName(table, r.label, l);
    AddName(table, r.text, l);
    AddName(table, std::string(skills::WithoutSeqSuffix(r.text)), l);
  }
  for (const auto& [name, list] : table.by_name) {
    for (size_t r : list) table.sorted_names.emplace_back(name, r);
  }
  std::sort(table.sorted_names.begin(), table.sorted_names.end());
  for (size_t k = 0; k < b.kernels.size(); ++k) {
    const auto& kf = b.kernels[k];
    table.kernels.push_back({kf.short_name, kf.calls, kf.gpu_ns, {}});
    table.kernel_by_name.emplace(kf.short_name, k);
    for (const auto& name : kf.names) table.kernel_by_name.emplace(name, k);
  }
  for (const auto& s : b.stacks) {
    KernelStack stack;
    stack.ranges = s.ranges;
    stack.calls = s.calls;
    stack.gpu_ns = s.gpu_ns;
    table.kernels[static_cast<size_t>(s.kernel)].stacks.push_back(std::move(stack));
  }
  if (b.kernel_data && !b.percentiles) {
    table.percentile_note =
        fmt::format("Per-kernel p50/p90 are not computed on this profile (more than {} launch-in-range samples).",
                    skills::kMaxPercentileSamples);
  }
  return table;
}

// nvtx_range_kernels' rows onto the table's ranges (by label).
void AddSkillRows(RangeFigureTable& table, const skills::Table& rows) {
  std::unordered_map<std::string, size_t> by_label;
  for (size_t r = 0; r < table.ranges.size(); ++r) by_label.emplace(table.ranges[r].name, r);
  for (const auto& row : rows.rows) {
    auto it = by_label.find(StringCell(rows, row, "name"));
    if (it == by_label.end()) continue;
    RangeFigures& f = table.ranges[it->second];
    f.gpu_ns = IntCell(rows, row, "gpu_ns");
    f.kernels = IntCell(rows, row, "kernels");
    f.distinct_kernels = IntCell(rows, row, "distinct_kernels");
    f.kernels_per_call = DoubleCell(rows, row, "kernels_per_call");
    f.max_kernels_per_call = IntCell(rows, row, "max_kernels_per_call");
    f.innermost = IntCell(rows, row, "innermost") != 0;
    f.gpu_p50_ns = IntCell(rows, row, "gpu_p50_ns");
    f.gpu_p90_ns = IntCell(rows, row, "gpu_p90_ns");
  }
}

// The figures of several ranges one source name stands for, summed.
RangeFigures Sum(const RangeFigureTable& table, const std::vector<size_t>& ranges, const std::string& name) {
  if (ranges.size() == 1) return table.ranges[ranges.front()];
  RangeFigures sum;
  sum.name = name;
  sum.innermost = true;
  int64_t most_instances = -1;
  std::map<std::string, RangeKernel> kernels;
  std::map<std::string, int64_t> kernel_most_calls;
  for (size_t r : ranges) {
    const RangeFigures& f = table.ranges[r];
    sum.instances += f.instances;
    sum.threads = std::max(sum.threads, f.threads);
    sum.wall_ns += f.wall_ns;
    if (f.longest_end_ns - f.longest_start_ns > sum.longest_end_ns - sum.longest_start_ns) {
      sum.longest_start_ns = f.longest_start_ns;
      sum.longest_end_ns = f.longest_end_ns;
    }
    sum.gpu_ns += f.gpu_ns;
    sum.kernels += f.kernels;
    sum.max_kernels_per_call = std::max(sum.max_kernels_per_call, f.max_kernels_per_call);
    sum.innermost = sum.innermost && f.innermost;
    if (f.instances > most_instances) {  // per-instance percentiles cannot be summed: the most called range's
      most_instances = f.instances;
      sum.gpu_p50_ns = f.gpu_p50_ns;
      sum.gpu_p90_ns = f.gpu_p90_ns;
    }
    for (const RangeKernel& k : f.kernel_list) {
      RangeKernel& s = kernels[k.kernel];
      s.kernel = k.kernel;
      s.calls += k.calls;
      s.gpu_ns += k.gpu_ns;
      if (k.calls > kernel_most_calls[k.kernel]) {
        kernel_most_calls[k.kernel] = k.calls;
        s.p50_ns = k.p50_ns;
        s.p90_ns = k.p90_ns;
      }
    }
  }
  sum.kernels_per_call =
      sum.instances > 0
          ? std::round(1000.0 * static_cast<double>(sum.kernels) / static_cast<double>(sum.instances)) / 1000.0
          : 0;
  sum.distinct_kernels = static_cast<int64_t>(kernels.size());
  for (auto& [name, k] : kernels) sum.kernel_list.push_back(std::move(k));
  std::sort(sum.kernel_list.begin(), sum.kernel_list.end(), [](const RangeKernel& a, const RangeKernel& b) {
    return a.gpu_ns != b.gpu_ns ? a.gpu_ns > b.gpu_ns : a.kernel < b.kernel;
  });
  return sum;
}

// Whether a source annotation stands for a range of the profile, and for which.
std::optional<SourceMatch> Match(const source::Annotation& a, const RangeFigureTable& table) {
  SourceMatch m;
  m.span = SpanOf(a);
  m.name = a.name;
  m.prefix_only = a.prefix_only;
  // A project's call matches only by its whole literal; a name with no literal part (f"{x}") matches nothing.
  if (a.prefix_only && (a.kind == source::Kind::kCandidate || a.name.empty())) return std::nullopt;
  std::vector<size_t> ranges;
  if (a.prefix_only) {
    ranges = table.FindPrefix(a.name);
  } else if (const auto* found = table.Find(a.name)) {
    ranges = *found;
  }
  if (ranges.empty()) {
    if (a.kind == source::Kind::kCandidate) return std::nullopt;  // a project's call whose literal is no range name
    return m;
  }
  m.ran = true;
  m.figures = Sum(table, ranges, a.name);
  for (size_t r : ranges) m.matched.push_back(table.ranges[r].name);
  if (ranges.size() > 1) {  // reveal the longest instance among them
    for (size_t r : ranges) {
      if (table.ranges[r].longest_start_ns == m.figures.longest_start_ns &&
          table.ranges[r].longest_end_ns == m.figures.longest_end_ns) {
        m.figures.name = table.ranges[r].name;
        break;
      }
    }
  }
  return m;
}

// "12", "1.5": kernels per call as the lenses print them.
std::string FormatPerCall(double v) {
  if (std::fabs(v - std::round(v)) < 0.05) return fmt::format("{}", static_cast<int64_t>(std::round(v)));
  return fmt::format("{:.1f}", v);
}

std::string Plural(int64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string LensTitle(const SourceMatch& m, const RangeFigureTable& table) {
  if (!m.ran) return table.nvtx_data ? "not in this profile" : "not in this profile (it has no NVTX ranges)";
  const RangeFigures& f = m.figures;
  std::string title = fmt::format("{} · {}", Plural(f.instances, "call", "calls"), FormatNs(f.wall_ns));
  if (!table.kernel_data) {
    title += " wall · no kernel data";
  } else if (f.kernels == 0) {
    title += " · no kernels";
  } else {
    const std::string per_call = FormatPerCall(f.kernels_per_call);
    title +=
        fmt::format(" · {} {}/call · {} GPU", per_call, per_call == "1" ? "kernel" : "kernels", FormatNs(f.gpu_ns));
  }
  if (m.prefix_only) title += " (prefix)";
  return title;
}

std::string PercentEncode(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '.' || c == '_' || c == '~' || c == '/';
    out += plain ? std::string(1, ch) : fmt::format("%{:02X}", c);
  }
  return out;
}

// A Markdown link target to a line of a file (1-based in the fragment, as editors read "#L12").
std::string LineLink(const SourceSpan& span) {
  return fmt::format("file://{}#L{}", PercentEncode(span.file), span.line + 1);
}

std::string ExplainLink(const std::string& profile_id, const std::string& kernel) {
  std::string encoded = PercentEncode(kernel);
  for (size_t i = 0; (i = encoded.find('/', i)) != std::string::npos;) encoded.replace(i, 1, "%2F");
  return fmt::format("nsys-ai://explain/{}/{}", profile_id, encoded);
}

std::string HoverMarkdown(const SourceMatch& m, const RangeFigureTable& table, const std::string& profile_id) {
  if (!m.ran) {
    return fmt::format("**{}** did not run in profile `{}`{}.", support::MarkdownCode(m.name), profile_id,
                       table.nvtx_data ? "" : " (it has no NVTX ranges)");
  }
  const RangeFigures& f = m.figures;
  std::string md = fmt::format("**NVTX range {}**{} · profile `{}`\n\n", support::MarkdownCode(m.name),
                               m.prefix_only ? " (a name built at run time: the ranges it begins)" : "", profile_id);
  md += fmt::format("{} on {} · {} wall (longest {})", Plural(f.instances, "call", "calls"),
                    Plural(f.threads, "thread", "threads"), FormatNs(f.wall_ns),
                    FormatNs(f.longest_end_ns - f.longest_start_ns));
  if (m.matched.size() > 1) md += fmt::format(" · {} ranges", m.matched.size());
  md += "\n\n";
  if (!table.kernel_data) {
    md += "No kernel data: " + support::MarkdownText(table.kernel_note) + "\n";
    return md;
  }
  if (f.kernels == 0) {
    md += "No kernel was launched inside it.\n";
    return md;
  }
  md +=
      fmt::format("{} of {} ({} per call, at most {}) · {} GPU (per call p50 {}, p90 {}){}\n\n",
                  Plural(f.kernels, "kernel", "kernels"), Plural(f.distinct_kernels, "kind", "kinds"),
                  FormatPerCall(f.kernels_per_call), f.max_kernels_per_call, FormatNs(f.gpu_ns), FormatNs(f.gpu_p50_ns),
                  FormatNs(f.gpu_p90_ns), f.innermost ? " · innermost" : " · nested ranges launch kernels too");
  md += "| kernel | GPU time | calls | p50 | p90 |\n|---|---:|---:|---:|---:|\n";
  for (size_t i = 0; i < f.kernel_list.size() && i < kHoverKernels; ++i) {
    const RangeKernel& k = f.kernel_list[i];
    md += fmt::format("| [{}]({}) | {} | {} | {} | {} |\n", support::MarkdownCode(k.kernel, /*in_table=*/true),
                      ExplainLink(profile_id, k.kernel), FormatNs(k.gpu_ns), k.calls, FormatNs(k.p50_ns),
                      FormatNs(k.p90_ns));
  }
  if (f.kernel_list.size() > kHoverKernels) {
    md += fmt::format("\n… and {} more kernels.\n", f.kernel_list.size() - kHoverKernels);
  }
  if (!table.percentile_note.empty()) md += "\n" + table.percentile_note + "\n";
  return md;
}

std::optional<SourceDiagnostic> DiagnosticOf(const SourceMatch& m, const RangeFigureTable& table) {
  if (!m.ran) {
    return SourceDiagnostic{m.span, SourceDiagnosticKind::kNotRun,
                            fmt::format("'{}' did not run in this profile", m.name)};
  }
  const RangeFigures& f = m.figures;
  if (!table.kernel_data || !f.innermost || f.max_kernels_per_call <= 1) return std::nullopt;
  const std::string kinds = Plural(f.distinct_kernels, "kind", "kinds");
  if (f.kernels == f.max_kernels_per_call * f.instances) {  // every call launches the same number
    return SourceDiagnostic{
        m.span, SourceDiagnosticKind::kRefine,
        fmt::format("launches {} kernels of {} per call: add finer ranges", f.max_kernels_per_call, kinds)};
  }
  return SourceDiagnostic{m.span, SourceDiagnosticKind::kRefine,
                          fmt::format("launches up to {} kernels ({} on average) of {} per call: add finer ranges",
                                      f.max_kernels_per_call, FormatPerCall(f.kernels_per_call), kinds)};
}

bool Contains(const SourceSpan& s, int line, int character) {
  if (line < s.line || line > s.end_line) return false;
  if (line == s.line && character < s.column) return false;
  if (line == s.end_line && character >= s.end_column) return false;
  return true;
}

}  // namespace

const std::vector<size_t>* RangeFigureTable::Find(const std::string& name) const {
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : &it->second;
}

std::vector<size_t> RangeFigureTable::FindPrefix(const std::string& prefix) const {
  std::vector<size_t> out;
  auto it = std::lower_bound(sorted_names.begin(), sorted_names.end(), std::make_pair(prefix, size_t{0}));
  for (; it != sorted_names.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const KernelFigures* RangeFigureTable::FindKernel(const std::string& name) const {
  auto it = kernel_by_name.find(name);
  return it == kernel_by_name.end() ? nullptr : &kernels[it->second];
}

std::string FormatNs(int64_t ns) {
  const auto v = static_cast<double>(ns);
  if (ns >= 100'000'000'000) return fmt::format("{:.1f} s", v / 1e9);
  if (ns >= 100'000'000) return fmt::format("{:.0f} ms", v / 1e6);
  if (ns >= 1'000'000) return fmt::format("{:.1f} ms", v / 1e6);
  if (ns >= 100'000) return fmt::format("{:.0f} µs", v / 1e3);
  if (ns >= 1'000) return fmt::format("{:.1f} µs", v / 1e3);
  return fmt::format("{} ns", ns);
}

namespace mapping_features {

using FiguresCall = std::function<Expected<std::shared_ptr<const RangeFigureTable>>()>;
using SetLookup = Expected<std::shared_ptr<source::AnnotationIndex>>;

// The range figures of a loaded profile, computed once (`range_kernels` runs nvtx_range_kernels through the memo).
Expected<std::shared_ptr<const RangeFigureTable>> Figures(
    const Expected<std::shared_ptr<LoadedProfile>>& entry,
    const std::function<Expected<skills::Table>(const skills::Args&)>& range_kernels, const CancelToken& cancel,
    const ProgressSink& progress) {
  if (!entry) return entry.error();
  std::lock_guard lock((*entry)->figures_mu);  // one computation per loaded profile; later calls share it
  if ((*entry)->figures) return (*entry)->figures;
  const engine::Profile& profile = *(*entry)->profile;
  const engine::ProfileInfo& info = profile.info();
  const bool kernels = info.caps.kernels && info.caps.runtime && info.caps.nvtx;
  const engine::Need needs = kernels ? engine::Need::kAttribution : engine::Need::kNvtx;
  if (Status loaded = (*entry)->profile->Require(needs, cancel, progress); !loaded.ok()) return loaded.error();
  auto breakdown = skills::ComputeNvtxRangeBreakdown(profile, cancel);
  if (!breakdown) return breakdown.error();
  auto table = std::make_shared<RangeFigureTable>(FromBreakdown(*breakdown));
  if (!info.caps.kernels) {
    table->kernel_note =
        "this profile has no CUDA kernel table (CUPTI_ACTIVITY_KIND_KERNEL), so only wall time is known.";
  } else if (!info.caps.nvtx) {
    table->kernel_note = "this profile has no NVTX ranges, so no kernel can be placed in one.";
  } else if (!info.caps.runtime) {
    table->kernel_note = "this profile has no CUDA API table, so kernels cannot be placed inside ranges.";
  }
  table->kernel_data = table->kernel_data && info.caps.nvtx;
  if (table->kernel_data) {
    auto rows = range_kernels({{"split_op_id", Value(false)}, {"limit", Value(int64_t{0})}});
    if (!rows) return rows.error();
    AddSkillRows(*table, *rows);
  }
  (*entry)->figures = table;
  return (*entry)->figures;
}

Expected<std::vector<SourceMatch>> Matches(const SetLookup& set, const FiguresCall& figures, const std::string& file) {
  if (!set) return set.error();
  auto table = figures();
  if (!table) return table.error();
  std::vector<SourceMatch> out;
  for (const source::Annotation& a : (*set)->InFile(source::NormalPath(file))) {
    if (auto m = Match(a, **table)) out.push_back(std::move(*m));
  }
  return out;
}

Expected<std::vector<SourceLens>> Lenses(const Expected<std::vector<SourceMatch>>& matches, const FiguresCall& figures,
                                         const std::string& profile_id) {
  if (!matches) return matches.error();
  auto table = figures();  // cached by now
  if (!table) return table.error();
  std::vector<SourceLens> out;
  for (const SourceMatch& m : *matches) {
    SourceLens lens;
    lens.span = m.span;
    lens.name = m.name;
    lens.title = LensTitle(m, **table);
    lens.ran = m.ran;
    if (m.ran) {
      lens.profile_id = profile_id;
      lens.range = m.figures.name;
      lens.start_ns = m.figures.longest_start_ns;
      lens.end_ns = m.figures.longest_end_ns;
    }
    out.push_back(std::move(lens));
  }
  return out;
}

Expected<std::optional<SourceHover>> HoverAt(const Expected<std::vector<SourceMatch>>& matches,
                                             const FiguresCall& figures, const std::string& profile_id, int line,
                                             int character) {
  if (!matches) return matches.error();
  auto table = figures();
  if (!table) return table.error();
  for (const SourceMatch& m : *matches) {
    if (!Contains(m.span, line, character)) continue;
    return std::optional<SourceHover>(SourceHover{m.span, HoverMarkdown(m, **table, profile_id)});
  }
  return std::optional<SourceHover>();
}

Expected<std::vector<SourceFileDiagnostics>> Diagnostics(const SetLookup& set, const FiguresCall& figures,
                                                         const std::string& file) {
  if (!set) return set.error();
  std::vector<std::string> files;
  if (!file.empty()) {
    files.push_back(source::NormalPath(file));
  } else {
    for (auto& f : (*set)->Files()) {
      if (!(*set)->InFile(f).empty()) files.push_back(std::move(f));
    }
  }
  std::vector<SourceFileDiagnostics> out;
  // A file without annotations has none (and clears what it had).
  if (files.size() == 1 && (*set)->InFile(files.front()).empty())
    return std::vector<SourceFileDiagnostics>{{files.front(), {}}};
  if (files.empty()) return out;  // nothing annotated: the profile's figures are not worth computing
  auto table = figures();
  if (!table) return table.error();
  for (const std::string& one : files) {
    auto matches = Matches(set, figures, one);
    if (!matches) return matches.error();
    SourceFileDiagnostics d{one, {}};
    for (const SourceMatch& m : *matches) {
      if (auto diagnostic = DiagnosticOf(m, **table)) d.diagnostics.push_back(std::move(*diagnostic));
    }
    out.push_back(std::move(d));
  }
  return out;
}

// Per range: its annotations in the set (looked up once), then the launches whose innermost annotated range it is.
void Locate(const RangeFigureTable& table, const KernelFigures& k, source::AnnotationIndex& set, KernelSources& out) {
  std::unordered_map<int32_t, std::vector<source::Annotation>> annotated;
  std::map<int32_t, std::pair<int64_t, int64_t>> launched;  // range -> (calls, gpu ns)
  for (const KernelStack& stack : k.stacks) {
    for (int32_t r : stack.ranges) {
      auto [it, added] = annotated.try_emplace(r);
      if (added) {
        for (const std::string& name : table.names_of[static_cast<size_t>(r)]) {
          for (auto& a : set.FindByName(name)) {
            const bool dup = std::any_of(it->second.begin(), it->second.end(), [&](const source::Annotation& b) {
              return b.file == a.file && b.line == a.line && b.column == a.column;
            });
            if (!dup) it->second.push_back(std::move(a));
          }
        }
      }
      if (it->second.empty()) continue;
      launched[r].first += stack.calls;
      launched[r].second += stack.gpu_ns;
      break;
    }
  }
  for (const auto& [r, figures] : launched) {
    for (const source::Annotation& a : annotated[r]) {
      const double share = k.gpu_ns > 0 ? static_cast<double>(figures.second) / static_cast<double>(k.gpu_ns) : 0;
      out.locations.push_back(
          {SpanOf(a), table.ranges[static_cast<size_t>(r)].name, share, figures.second, figures.first});
    }
  }
}

Expected<KernelSources> KernelSourcesIn(const SetLookup& set, const FiguresCall& figures, const std::string& profile_id,
                                        const std::string& kernel) {
  if (!set) return set.error();
  auto table_or = figures();
  if (!table_or) return table_or.error();
  const RangeFigureTable& table = **table_or;
  if (!table.kernel_data) {
    return MakeError(ErrorKind::kUnsupported, "No kernel data in profile '" + profile_id + "': " + table.kernel_note);
  }
  const KernelFigures* k = table.FindKernel(kernel);
  if (k == nullptr) {
    return MakeError(ErrorKind::kNotFound, fmt::format("No kernel named '{}' in profile '{}'.", kernel, profile_id));
  }
  KernelSources out;
  out.kernel = k->kernel;
  out.calls = k->calls;
  out.gpu_ns = k->gpu_ns;
  Locate(table, *k, **set, out);
  std::sort(out.locations.begin(), out.locations.end(), [](const auto& a, const auto& b) {
    if (a.gpu_ns != b.gpu_ns) return a.gpu_ns > b.gpu_ns;
    if (a.span.file != b.span.file) return a.span.file < b.span.file;
    return a.span.line < b.span.line;
  });
  return out;
}

// `sources(short name)` is KernelSourcesOf over the session's set.
Expected<agent::KernelExplanation> WithSources(
    Expected<agent::KernelExplanation> explanation, const SetLookup& set,
    const std::function<Expected<KernelSources>(const std::string&)>& sources) {
  if (!explanation) return explanation;
  // A source set without annotations has no line to show: skip the range figures (FiguresOf), which cost the first
  // hover of a session 0.8-0.9 s on a 2 GB export whether or not any source was indexed.
  if (!set || (*set)->size() == 0) return explanation;
  auto found = sources(explanation->short_name);
  if (!found || found->locations.empty()) return explanation;
  std::string md = "\n\n**In your source** (the innermost annotated NVTX ranges that launch it)\n\n";
  for (size_t i = 0; i < found->locations.size() && i < kExplainSources; ++i) {
    const KernelSourceLocation& l = found->locations[i];
    md += fmt::format("- [{}]({}) {}:{} · {:.1f}% of its GPU time · {}\n", support::MarkdownCode(l.name),
                      LineLink(l.span), support::MarkdownText(std::filesystem::path(l.span.file).filename().string()),
                      l.span.line + 1, 100.0 * l.share, Plural(l.calls, "launch", "launches"));
  }
  if (found->locations.size() > kExplainSources) {
    md += fmt::format("- … and {} more\n", found->locations.size() - kExplainSources);
  }
  explanation->markdown += md;
  return explanation;
}

// `publish(trace)` is PublishTrace with the request's publisher and origin.
Expected<RangeRevelation> Reveal(const RevealRangeRequest& request, const FiguresCall& figures,
                                 const std::function<Expected<TracePublication>(const TraceRequest&)>& publish) {
  if (request.end_ns <= request.start_ns) {
    return MakeError(ErrorKind::kInvalidArgument, "The range's end must be after its start.");
  }
  auto table = figures();
  if (!table) return table.error();
  const auto* ranges = (*table)->Find(request.name);
  if (ranges == nullptr) {
    return MakeError(ErrorKind::kNotFound,
                     fmt::format("No NVTX range named '{}' in profile '{}'.", request.name, request.profile_id));
  }
  TraceRequest trace;
  trace.profile_id = request.profile_id;
  trace.filter.window.clock = WindowClock::kCaptureNs;
  trace.filter.window.start = static_cast<double>(request.start_ns);
  trace.filter.window.end = static_cast<double>(request.end_ns);
  auto publication = publish(trace);
  if (!publication) return publication.error();
  RangeRevelation out;
  out.publication = std::move(*publication);
  out.name = request.name;
  out.kernels = Sum(**table, *ranges, request.name).kernel_list;
  return out;
}

}  // namespace mapping_features

Expected<std::shared_ptr<const RangeFigureTable>> Workspace::FiguresOf(const std::string& profile_id,
                                                                       const CancelToken& cancel,
                                                                       const ProgressSink& progress) {
  const auto rows = [&](const auto& a) { return RunSkill(profile_id, "nvtx_range_kernels", a, cancel, progress); };
  return mapping_features::Figures(EntryOf(profile_id), rows, cancel, progress);
}

Expected<std::vector<SourceMatch>> Workspace::SourceMatches(const SourceRequest& request, const CancelToken& cancel,
                                                            const ProgressSink& progress) {
  const auto figures = [&] { return FiguresOf(request.profile_id, cancel, progress); };
  return mapping_features::Matches(SourceSet(request.set_id), figures, request.file);
}

Expected<std::vector<SourceLens>> Workspace::SourceLenses(const SourceRequest& request, const CancelToken& cancel,
                                                          const ProgressSink& progress) {
  const auto figures = [&] { return FiguresOf(request.profile_id, cancel, progress); };
  return mapping_features::Lenses(SourceMatches(request, cancel, progress), figures, request.profile_id);
}

Expected<std::optional<SourceHover>> Workspace::SourceHoverAt(const SourceRequest& request, int line, int character,
                                                              const CancelToken& cancel, const ProgressSink& progress) {
  const auto figures = [&] { return FiguresOf(request.profile_id, cancel, progress); };
  return mapping_features::HoverAt(SourceMatches(request, cancel, progress), figures, request.profile_id, line,
                                   character);
}

Expected<std::vector<SourceFileDiagnostics>> Workspace::SourceDiagnostics(const SourceRequest& request,
                                                                          const CancelToken& cancel,
                                                                          const ProgressSink& progress) {
  const auto figures = [&] { return FiguresOf(request.profile_id, cancel, progress); };
  return mapping_features::Diagnostics(SourceSet(request.set_id), figures, request.file);
}

Expected<KernelSources> Workspace::KernelSourcesOf(const std::string& set_id, const std::string& profile_id,
                                                   const std::string& kernel, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  const auto figures = [&] { return FiguresOf(profile_id, cancel, progress); };
  return mapping_features::KernelSourcesIn(SourceSet(set_id), figures, profile_id, kernel);
}

Expected<agent::KernelExplanation> Workspace::ExplainKernelWithSources(const std::string& profile_id,
                                                                       const std::string& kernel,
                                                                       const std::string& set_id,
                                                                       const CancelToken& cancel,
                                                                       const ProgressSink& progress) {
  const auto sources = [&](const std::string& k) { return KernelSourcesOf(set_id, profile_id, k, cancel, progress); };
  // No set (none given, or unknown): the explanation as it is.
  return mapping_features::WithSources(ExplainKernel(profile_id, kernel, cancel, progress), SourceSet(set_id), sources);
}

Expected<RangeRevelation> Workspace::RevealRange(const RevealRangeRequest& request, TracePublisher& publisher,
                                                 const std::string& perfetto_origin, const CancelToken& cancel,
                                                 const ProgressSink& progress) {
  const auto figures = [&] { return FiguresOf(request.profile_id, cancel, progress); };
  const auto publish = [&](const auto& t) { return PublishTrace(t, publisher, perfetto_origin, cancel, progress); };
  return mapping_features::Reveal(request, figures, publish);
}

}  // namespace nsys::core
