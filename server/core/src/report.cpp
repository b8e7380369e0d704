// Workspace::Report: the profile as one text document with the spans of its kernel names and findings. The
// numbers come from one pass over the kernel table and one over the NVTX ranges, the findings from Analyze.
#include "nsys/core/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <variant>

#include "nsys/core/workspace.h"

namespace nsys::core {

int64_t Utf16Length(std::string_view utf8) {
  int64_t units = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    size_t bytes = 1;
    if (c >= 0xF0 && c < 0xF8) {
      bytes = 4;
    } else if (c >= 0xE0) {
      bytes = 3;
    } else if (c >= 0xC0) {
      bytes = 2;
    }
    if (i + bytes > utf8.size()) bytes = 1;
    units += bytes == 4 ? 2 : 1;
    i += bytes;
  }
  return units;
}

namespace {

struct Total {
  engine::StrId name = 0;
  int64_t count = 0;
  int64_t ns = 0;
};

// Groups rows by name: (name, count, summed duration), largest sum first, at most `limit`.
template <typename Table>
std::vector<Total> TopByName(const Table& t, const engine::Column<engine::StrId>& names, size_t limit,
                             int64_t& all_ns) {
  std::unordered_map<engine::StrId, size_t> index;
  std::vector<Total> totals;
  all_ns = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    auto [it, fresh] = index.try_emplace(names[i], totals.size());
    if (fresh) totals.push_back({names[i], 0, 0});
    Total& total = totals[it->second];
    ++total.count;
    total.ns += t.end[i] - t.start[i];
    all_ns += t.end[i] - t.start[i];
  }
  std::sort(totals.begin(), totals.end(),
            [](const Total& a, const Total& b) { return a.ns != b.ns ? a.ns > b.ns : a.name < b.name; });
  if (totals.size() > limit) totals.resize(limit);
  return totals;
}

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

class ReportWriter {
 public:
  void Line(std::string text = "") { lines_.push_back(std::move(text)); }
  // A line ending in `name` (after an ASCII `prefix`), with a span over the name.
  void Spanned(const std::string& prefix, const std::string& shown, const std::string& span_name,
               std::vector<ReportSpan>& spans, const std::string& suffix = "") {
    spans.push_back({static_cast<int64_t>(lines_.size()), Utf16Length(prefix), Utf16Length(shown), span_name});
    lines_.push_back(prefix + shown + suffix);
  }
  std::string Text() const {
    std::string text;
    for (const auto& line : lines_) text += line + "\n";
    return text;
  }

 private:
  std::vector<std::string> lines_;
};

// `kernels` < 0: the kernel table is still loading (a partial report).
void WriteSummary(const engine::ProfileInfo& info, int64_t kernels, int64_t kernel_ns, ReportWriter& w) {
  w.Line("# nsys-ai report: " + std::filesystem::path(info.source_path).filename().string());
  w.Line();
  w.Line("File:      " + info.source_path);
  std::string gpus;
  for (const engine::Device& d : info.devices) {
    gpus += fmt::format("{}{}: {}", gpus.empty() ? "" : ", ", d.id, d.name.empty() ? "unnamed GPU" : d.name);
  }
  w.Line("GPUs:      " + (gpus.empty() ? std::string("none") : gpus));
  w.Line(fmt::format("Duration:  {:.3f} s (capture clock {} ns to {} ns)", (info.end_ns - info.start_ns) / 1e9,
                     info.start_ns, info.end_ns));
  std::string processes;
  constexpr size_t kListed = 8;  // an export records every process of the machine (often hundreds)
  for (size_t i = 0; i < info.processes.size() && i < kListed; ++i) {
    const engine::Process& p = info.processes[i];
    processes +=
        fmt::format("{}{} (pid {})", processes.empty() ? "" : ", ", p.name.empty() ? "process" : p.name, p.pid);
  }
  if (info.processes.size() > kListed) processes += fmt::format(", and {} more", info.processes.size() - kListed);
  w.Line("Processes: " + (processes.empty() ? std::string("none") : processes));
  if (kernels < 0) {
    w.Line("Kernels:   (loading the kernel table…)");
    return;
  }
  w.Line(fmt::format("Kernels:   {} executions, {:.3f} ms of GPU time", kernels, kernel_ns / 1e6));
}

void WriteFindings(const Expected<agent::Analysis>& analysis, ReportWriter& w, ProfileReport& report) {
  w.Line();
  w.Line("## Findings");
  w.Line();
  if (!analysis) {
    w.Line("analyze could not run: " + OneLine(analysis.error().message));
    return;
  }
  if (analysis->findings.empty()) w.Line("No root cause of the Book applies to this profile.");
  for (const agent::Finding& f : analysis->findings) {
    w.Spanned(fmt::format("- [{}] ", agent::SeverityName(f.severity)), f.root_cause + ": " + OneLine(f.title),
              f.root_cause, report.findings);
    report.finding_details.push_back(f);
    if (!f.answer.summary.empty()) w.Line("  " + OneLine(f.answer.summary));
    if (!f.answer.recommendations.empty()) w.Line("  Recommendation: " + OneLine(f.answer.recommendations.front()));
    if (!f.answer.verify.empty()) w.Line("  Verify: " + f.answer.verify);
  }
}

// One column of a budget row by name (the table's own layout), or nullptr.
const Value* BudgetCell(const skills::Table& t, const std::vector<Value>& row, std::string_view column) {
  for (size_t c = 0; c < t.columns.size() && c < row.size(); ++c) {
    if (t.columns[c].name == column) return &row[c];
  }
  return nullptr;
}

// Where each GPU's time goes, one block per (process, device) span: each slice with its share and a bar
// of 40 cells, in the order time_budget lists them (kernels, copies, idle).
void WriteBudget(const Expected<skills::Table>& budget, ReportWriter& w) {
  w.Line();
  w.Line("## Where the GPU time goes (time_budget: each span split into slices that add up to it)");
  w.Line();
  if (!budget) {
    w.Line("time_budget could not run: " + OneLine(budget.error().message));
    return;
  }
  if (budget->declined) {
    w.Line(budget->notes.empty() ? std::string("(no GPU operations)") : OneLine(budget->notes.front()));
    return;
  }
  std::pair<int64_t, int64_t> current{-1, -1};
  for (const auto& row : budget->rows) {
    auto num = [&](std::string_view c) -> double {
      const Value* v = BudgetCell(*budget, row, c);
      if (v == nullptr) return 0;
      if (const auto* i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
      if (const auto* d = std::get_if<double>(v)) return *d;
      return 0;
    };
    auto text = [&](std::string_view c) -> std::string {
      const Value* v = BudgetCell(*budget, row, c);
      const auto* s = v ? std::get_if<std::string>(v) : nullptr;
      return s ? *s : std::string();
    };
    const std::pair<int64_t, int64_t> key{static_cast<int64_t>(num("pid")), static_cast<int64_t>(num("device_id"))};
    if (key != current) {
      if (current.first >= 0) w.Line();
      current = key;
      w.Line(fmt::format("GPU {} (pid {}): span {:.3f} ms", key.second, key.first, num("span_ns") / 1e6));
    }
    const double pct = num("span_pct");
    const int cells = static_cast<int>(pct / 2.5 + 0.5);
    std::string bar;
    for (int i = 0; i < 40; ++i) bar += i < cells ? "█" : "·";
    w.Line(fmt::format("  {:<17} {:>5.1f}%  {}  {:>10.3f} ms  {}", text("slice"), pct, bar, num("time_ns") / 1e6,
                       text("description")));
  }
}

// What the report is made of, each part filled in as it is computed (a partial report renders the parts known).
struct ReportParts {
  bool kernels_known = false;
  int64_t kernel_count = 0;
  int64_t kernel_ns = 0;
  std::vector<Total> kernels;
  std::optional<Expected<skills::Table>> budget;
  bool ranges_known = false;
  std::vector<Total> ranges;
  std::optional<Expected<agent::Analysis>> analysis;
};

// The document from the parts known so far; with every part known it is the whole report. A part not yet known is
// one line saying what is being computed, under its heading, so the sections keep their order as they fill in.
ProfileReport Render(const engine::Profile& p, const ReportParts& parts) {
  ProfileReport report;
  ReportWriter w;
  WriteSummary(p.info(), parts.kernels_known ? parts.kernel_count : -1, parts.kernel_ns, w);
  if (!parts.analysis) {
    w.Line();
    w.Line("(analyzing: the headline and the findings follow)");
  } else if (*parts.analysis) {
    w.Line();
    w.Line(OneLine((*parts.analysis)->summary));
  }
  if (parts.budget) {
    WriteBudget(*parts.budget, w);
  } else {
    w.Line();
    w.Line("## Where the GPU time goes (time_budget: each span split into slices that add up to it)");
    w.Line();
    w.Line("(computing…)");
  }

  w.Line();
  if (!parts.kernels_known) {
    w.Line("## Top kernels");
    w.Line();
    w.Line("(loading the kernel table…)");
  } else {
    w.Line(fmt::format("## Top kernels ({} of {} executions by GPU time)", parts.kernels.size(), parts.kernel_count));
    w.Line();
    w.Line("   calls    total ms   share  name");
    w.Line("--------  ----------  ------  ----");
    for (const Total& t : parts.kernels) {
      const std::string name(p.strings().view(t.name));
      const double share =
          parts.kernel_ns > 0 ? 100.0 * static_cast<double>(t.ns) / static_cast<double>(parts.kernel_ns) : 0.0;
      w.Spanned(fmt::format("{:>8}  {:>10.3f}  {:>5.1f}%  ", t.count, t.ns / 1e6, share), name, name, report.kernels);
    }
    if (parts.kernels.empty()) w.Line("(no kernels)");
  }

  if (parts.analysis) {
    WriteFindings(*parts.analysis, w, report);
  } else {
    w.Line();
    w.Line("## Findings");
    w.Line();
    w.Line("(analyzing…)");
  }

  w.Line();
  w.Line("## NVTX ranges (most wall time)");
  w.Line();
  if (!parts.ranges_known) w.Line("(loading the NVTX ranges…)");
  if (parts.ranges_known && parts.ranges.empty()) w.Line("(no NVTX ranges)");
  if (!parts.ranges.empty()) {
    w.Line("   count     wall ms  name");
    w.Line("--------  ----------  ----");
  }
  for (const Total& t : parts.ranges) {
    w.Line(fmt::format("{:>8}  {:>10.3f}  {}", t.count, t.ns / 1e6, p.strings().view(t.name)));
  }
  report.text = w.Text();
  return report;
}

}  // namespace

namespace report_features {

// The skill calls a report makes, through the workspace's memo: the time budget and analyze.
struct ReportCalls {
  std::function<Expected<skills::Table>()> budget;
  std::function<Expected<agent::Analysis>()> analyze;
};

// Each part as soon as it is known, cheapest first (the summary needs only what the open read; then the
// kernel table, the time budget, the NVTX ranges, and analyze last, the slow one on a cold export), with a partial
// report after each when the caller asked for them.
Expected<ProfileReport> Build(const Expected<std::shared_ptr<engine::Profile>>& profile, const ReportCalls& calls,
                              const ReportSink& on_partial, const CancelToken& cancel, const ProgressSink& progress) {
  if (!profile) return profile.error();
  const engine::Profile& p = **profile;
  ReportParts parts;
  auto paint = [&] {
    if (on_partial && !cancel.cancelled()) on_partial(Render(p, parts));
  };
  paint();
  if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  const engine::KernelTable& k = p.kernels();
  parts.kernels = TopByName(k, k.name, kReportTopKernels, parts.kernel_ns);
  parts.kernel_count = static_cast<int64_t>(k.size());
  parts.kernels_known = true;
  paint();
  parts.budget = calls.budget();
  if (!*parts.budget && parts.budget->error().kind == ErrorKind::kCancelled) return parts.budget->error();
  paint();
  if (Status loaded = (*profile)->Require(engine::Need::kNvtx, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  int64_t nvtx_ns = 0;
  parts.ranges = TopByName(p.nvtx(), p.nvtx().name, kReportTopRanges, nvtx_ns);
  parts.ranges_known = true;
  paint();
  parts.analysis = calls.analyze();
  if (!*parts.analysis && parts.analysis->error().kind == ErrorKind::kCancelled) return parts.analysis->error();
  return Render(p, parts);
}

}  // namespace report_features

Expected<ProfileReport> Workspace::Report(const std::string& profile_id, const ReportSink& on_partial,
                                          const CancelToken& cancel, const ProgressSink& progress) {
  const report_features::ReportCalls calls{[&] { return RunSkill(profile_id, "time_budget", {}, cancel); },
                                           [&] { return Analyze(profile_id, {}, {}, cancel, progress); }};
  return report_features::Build(Get(profile_id), calls, on_partial, cancel, progress);
}

}  // namespace nsys::core
