// The diff's conclusion: the headline measure, the verdict against its noise floor, the answer (summary, evidence
// rows from both profiles' skill calls, verify commands for both files) and the Markdown report.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diff_internal.h"
#include "diff_tables.h"
#include "nsys/agent/rank_test.h"
#include "nsys/support/render_text.h"

namespace nsys::agent::diff_detail {
namespace {

// A median over n samples has a standard error of about 1.2533 sigma / sqrt(n) (normal samples).
constexpr double kMedianSe = 1.2533;
// Iterations whose typical kernel count differs by more than this are different units of work.
constexpr double kIterationKernelsTolerance = 0.10;

std::string Time(double ns) {
  if (!std::isfinite(ns)) return "n/a";
  const double a = std::fabs(ns);
  if (a >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (a >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (a >= 1e3) return fmt::format("{:.1f} µs", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::string Pct(double pct) {
  return std::isfinite(pct) ? fmt::format("{:+.1f}%", pct) : "n/a";
}
std::string Share(double pct) {
  return std::isfinite(pct) ? fmt::format("{:.1f}%", pct) : "n/a";
}

std::string Count(double n) {
  return std::isfinite(n) ? fmt::format("{:.0f}", n) : "n/a";
}

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// A table cell of text from a profile, inert (support::MarkdownText).
std::string Cell(const std::string& text) {
  return support::MarkdownText(text);
}

bool IterationsComparable(const DiffReport& r) {
  const IterationStats& b = r.base_iterations;
  const IterationStats& a = r.new_iterations;
  if (b.count < 3 || a.count < 3 || !(b.median_ns > 0)) return false;
  return std::fabs(a.median_kernels - b.median_kernels) <= kIterationKernelsTolerance * b.median_kernels;
}

// A per-iteration measure: the medians of `pick`'s values, a floor of 2 standard errors of the difference of the
// medians (from each side's robust sd), and the rank test of the two sets of iterations.
Headline IterationMeasure(const DiffReport& r, const DiffOptions& options, bool gpu_work) {
  const IterationStats& b = r.base_iterations;
  const IterationStats& a = r.new_iterations;
  Headline h;
  h.metric = gpu_work ? "median GPU work per iteration" : "median iteration time";
  h.measure = gpu_work ? "gpu" : "step";
  h.base_ns = gpu_work ? b.median_kernel_ns : b.median_ns;
  h.new_ns = gpu_work ? a.median_kernel_ns : a.median_ns;
  h.change_pct = ChangePct(h.base_ns, h.new_ns);
  const double sd_b = gpu_work ? b.robust_sd_kernel_ns : b.robust_sd_ns;
  const double sd_a = gpu_work ? a.robust_sd_kernel_ns : a.robust_sd_ns;
  const double se =
      kMedianSe * std::sqrt(sd_b * sd_b / static_cast<double>(b.count) + sd_a * sd_a / static_cast<double>(a.count));
  const double stat = h.base_ns > 0 ? 2 * se / h.base_ns * 100.0 : kNaN;
  h.noise_floor_pct = std::isfinite(stat) ? std::max(stat, options.min_noise_floor_pct) : options.min_noise_floor_pct;
  const RankTestResult test = MannWhitney(gpu_work ? b.kernel_ns : b.durations, gpu_work ? a.kernel_ns : a.durations);
  h.rank_p = test.p;
  h.rank_z = test.z;
  h.noise_floor_reason = fmt::format(
      "2 standard errors of the difference of the medians, from the iterations' spread (robust sd {} over {} "
      "iterations before, {} over {} after; SE of a median = 1.2533 sd / sqrt(n)): {:.2f}%{}; and a rank test of the "
      "iterations' {} (Mann-Whitney: p = {:.2g}, needed below {:g})",
      Time(sd_b), b.count, Time(sd_a), a.count, stat,
      stat < options.min_noise_floor_pct
          ? fmt::format(", raised to the minimum of {:.1f}%", options.min_noise_floor_pct)
          : "",
      gpu_work ? "summed kernel times" : "durations", test.p, options.measure_alpha);
  return h;
}

// A measure's own verdict: its change past its floor, and its rank test (for the base's mix: the change carried by
// kernels that pass their own rank test) past its floor too.
Verdict Judge(const Headline& h, const DiffOptions& options) {
  if (!std::isfinite(h.change_pct) || h.metric.empty()) return Verdict::kNeutral;
  const bool mix = h.metric == "kernel time per call (the base's mix)";
  const bool ranked = std::isfinite(h.rank_p) && h.rank_p < options.measure_alpha;
  for (const int sign : {1, -1}) {
    if (!(sign * h.change_pct > h.noise_floor_pct)) continue;
    const bool ranked_this_way = ranked && sign * h.rank_z > 0;
    const bool carried = mix && sign * h.significant_change_pct > h.noise_floor_pct;
    if (ranked_this_way || carried) return sign > 0 ? Verdict::kRegressed : Verdict::kImproved;
  }
  return Verdict::kNeutral;
}

// "regressed beyond noise", "within noise (rank test p = 0.41)", ...
std::string MeasureVerdictText(const Headline& m) {
  switch (m.verdict) {
    case Verdict::kRegressed:
      return "regressed beyond noise";
    case Verdict::kImproved:
      return "improved beyond noise";
    case Verdict::kNeutral:
      break;
  }
  return std::isfinite(m.rank_p) ? fmt::format("within noise; rank test p = {:.2g}", m.rank_p) : "within noise";
}

// Why the iteration time is not the headline (when it is not).
std::string WhyNotIterations(const DiffReport& r) {
  const IterationStats& b = r.base_iterations;
  const IterationStats& a = r.new_iterations;
  if (b.count < 3 || a.count < 3) {
    return fmt::format(
        "Iterations were not compared: {} found in the base and {} in the new profile (3 needed on each).", b.count,
        a.count);
  }
  return fmt::format(
      "Iterations were not compared: a typical iteration has {:.0f} kernels in the base and {:.0f} in the new profile, "
      "so the detected repeating units differ.",
      b.median_kernels, a.median_kernels);
}

// The device whose idle share changed most (by absolute points), if any device is on both sides.
const DeviceDelta* MostChangedIdle(const DiffReport& r) {
  const DeviceDelta* best = nullptr;
  for (const auto& d : r.devices) {
    if (!d.in_base || !d.in_new || !std::isfinite(d.base_idle_pct) || !std::isfinite(d.new_idle_pct)) continue;
    if (best == nullptr ||
        std::fabs(d.new_idle_pct - d.base_idle_pct) > std::fabs(best->new_idle_pct - best->base_idle_pct)) {
      best = &d;
    }
  }
  return best;
}

const ItemDelta* LargestSharedKernel(const DiffReport& r) {
  for (const auto& k : r.kernels) {
    if (k.presence == Presence::kBoth) return &k;  // sorted by |impact|
  }
  return nullptr;
}

std::string Summary(const DiffReport& r, const DiffOptions& options) {
  const auto& c = r.comparability;
  if (c.score < options.incomparable_score) {
    return fmt::format(
        "These profiles are not comparable (comparability {:.2f}): {} No verdict is given: differences between them "
        "reflect different work, not a change.",
        c.score, c.reasons.empty() ? std::string() : c.reasons.front());
  }
  const Headline& h = r.headline;
  std::string out;
  if (h.metric.empty()) {
    out = "No measure could be compared (no iterations and no kernels in both profiles), so the verdict is neutral.";
  } else {
    const char* lead = r.verdict == Verdict::kRegressed  ? "Regressed"
                       : r.verdict == Verdict::kImproved ? "Improved"
                                                         : "No change beyond noise";
    out = fmt::format(
        "{}: the {} is {} in the new profile against {} in the base ({}; noise floor {:.1f}%), and the "
        "profiles are {} (score {:.2f}).",
        lead, h.metric, Time(h.new_ns), Time(h.base_ns), Pct(h.change_pct), h.noise_floor_pct, c.label, c.score);
  }
  for (const Headline& m : r.measures) {
    if (m.metric == h.metric) continue;
    out += fmt::format(" The {} is {} → {} ({}, {}).", m.metric, Time(m.base_ns), Time(m.new_ns), Pct(m.change_pct),
                       MeasureVerdictText(m));
  }
  if (r.per_call) {
    out += fmt::format(" Kernels per call changed {} (noise floor {:.1f}%)", Pct(r.per_call->change_pct),
                       r.per_call->noise_floor_pct);
    if (const DeviceDelta* d = MostChangedIdle(r)) {
      out += fmt::format("; GPU idle on device {} went from {} to {} of its span", d->device_id,
                         Share(d->base_idle_pct), Share(d->new_idle_pct));
    }
    out += ".";
  }
  // A change that rounds to 0.0% is not worth a sentence.
  if (const ItemDelta* k = LargestSharedKernel(r); k != nullptr && std::fabs(k->per_call_pct) >= 0.05) {
    out += fmt::format(" The largest per-call change by time is {} ({} per call: {} → {}{}).",
                       k->short_name.empty() ? k->name : k->short_name, Pct(k->per_call_pct), Time(k->base_avg_ns),
                       Time(k->new_avg_ns), k->beyond_noise ? "" : ", within its noise");
  }
  return out;
}

// Rows of a table matching `keep`, as evidence.
Evidence Rows(const SkillCall& call, const skills::Table& table, const std::vector<std::string>& columns,
              const std::function<bool(const TableView&, size_t)>& keep, std::string caption) {
  skills::Table picked;
  picked.columns = table.columns;
  const TableView view(&table);
  for (size_t i = 0; i < table.rows.size(); ++i) {
    if (keep(view, i)) picked.rows.push_back(table.rows[i]);
  }
  return EvidenceFrom(call, picked, columns, 0, std::move(caption));
}

void AddEvidence(Answer& a, const DiffReport& r, const SkillPair& pair, const std::vector<std::string>& columns,
                 const std::function<bool(const TableView&, size_t)>& keep, const std::string& what) {
  if (pair.base)
    a.evidence.push_back(Rows(pair.call, *pair.base, columns, keep, "Base (" + FileName(r.base_path) + "): " + what));
  if (pair.after)
    a.evidence.push_back(Rows(pair.call, *pair.after, columns, keep, "New (" + FileName(r.new_path) + "): " + what));
}

void Evidences(Answer& a, const DiffReport& r, const Calls& calls) {
  auto all = [](const TableView&, size_t) { return true; };
  AddEvidence(a, r, calls.iterations, {"device_id", "iteration", "duration_ns", "kernels", "gpu_busy_ns", "kernel_ns"},
              all, "iterations");
  std::vector<std::string> named;
  for (const auto& k : r.kernels) {
    if (named.size() < 8) named.push_back(k.name);
  }
  AddEvidence(
      a, r, calls.kernels, {"name", "instances", "avg_ns", "stddev_ns", "total_time_ns"},
      [&](const TableView& t, size_t i) {
        return std::find(named.begin(), named.end(), t.Str(i, "name")) != named.end();
      },
      "the kernels that changed most");
  AddEvidence(
      a, r, calls.levels, {"device_id", "streams_busy", "time_ns", "time_pct"},
      [](const TableView& t, size_t i) { return t.Int(i, "streams_busy") == 0; }, "GPU idle time per device");
  AddEvidence(
      a, r, calls.nccl, {"device_id", "count", "comm_busy_ns", "overlap_pct", "exposed_ns"},
      [](const TableView& t, size_t i) { return t.Str(i, "collective") == "all"; },
      "communication and its overlap with compute");
  AddEvidence(a, r, calls.memcpy, {"operation", "count", "total_bytes", "total_time_ns"}, all, "memory operations");
  AddEvidence(a, r, calls.phases, {"phase", "ranges", "wall_ns", "gpu_ns", "kernels", "coverage"}, all, "phases");
}

void Advice(Answer& a, const DiffReport& r, const DiffOptions& options) {
  if (r.comparability.score < options.incomparable_score) {
    a.recommendations.push_back(
        "Diff two profiles of the same workload: the same kernels on the same devices over a similar window (e.g. the "
        "same "
        "steps captured with --capture-range).");
    return;
  }
  const DeviceDelta* idle = MostChangedIdle(r);
  if (r.verdict != Verdict::kNeutral && r.headline.metric == "median iteration time") {
    const double busy = r.new_iterations.median_gpu_busy_ns - r.base_iterations.median_gpu_busy_ns;
    const double step = r.headline.new_ns - r.headline.base_ns;
    if (std::isfinite(busy) && std::fabs(step) > 0 && std::fabs(busy) < 0.5 * std::fabs(step)) {
      a.hypotheses.push_back(fmt::format(
          "Most of the iteration change is GPU idle time, not kernel time: the median GPU busy time per iteration "
          "moved {} of the {} change, so the host side (launch pace, data loading, synchronization) likely "
          "changed.",
          Time(busy), Time(step)));
    }
  }
  if (r.verdict == Verdict::kRegressed) {
    if (idle != nullptr && idle->new_idle_pct > idle->base_idle_pct) {
      a.recommendations.push_back(
          fmt::format("See where device {} waits in the new run: `nsys-ai skill run gpu_idle_gaps {} --device {}`.",
                      idle->device_id, ShellQuote(r.new_path), idle->device_id));
    }
    if (const ItemDelta* k = LargestSharedKernel(r); k != nullptr && k->beyond_noise && k->per_call_pct > 0) {
      a.recommendations.push_back(fmt::format("Look at why {} got slower per call ({}).",
                                              k->short_name.empty() ? k->name : k->short_name, Pct(k->per_call_pct)));
    }
  }
}

void Confidence(Answer& a, const DiffReport& r, const DiffOptions& options) {
  const auto& c = r.comparability;
  if (c.score < options.incomparable_score || r.headline.metric.empty()) {
    a.confidence = Confidence::kLow;
  } else if (c.score >= options.comparable_score &&
             (r.verdict == Verdict::kNeutral || std::fabs(r.headline.change_pct) >= 2 * r.headline.noise_floor_pct)) {
    a.confidence = Confidence::kHigh;
  } else {
    a.confidence = Confidence::kMedium;
  }
  a.confidence_reason =
      fmt::format("comparability {:.2f} ({}); noise floor {:.1f}% ({})", c.score, c.label, r.headline.noise_floor_pct,
                  r.headline.metric.empty() ? "no measure" : r.headline.noise_floor_reason);
}

void AppendItems(std::string& out, const std::string& title, const std::vector<ItemDelta>& items,
                 const PresenceCounts& counts) {
  out += fmt::format("## {}\n\n{} in both, {} appeared, {} disappeared.\n\n", title, counts.both, counts.appeared,
                     counts.disappeared);
  const bool kernels = title == "Kernels";
  if (items.empty()) return;
  out += fmt::format(
      "| name | presence | calls (base → new) | per call (base → new) | change per call | {} | per "
      "iteration (base → new) |\n",
      kernels ? "rank test p" : "noise");
  out += "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& i : items) {
    std::string judged = "n/a";
    if (kernels && std::isfinite(i.rank_p)) {
      judged = fmt::format("{:.2g}{}", i.rank_p, i.beyond_noise ? " (beyond noise)" : "");
    } else if (!kernels && std::isfinite(i.noise_pct)) {
      judged = fmt::format("±{:.1f}%", i.noise_pct);
    }
    out += fmt::format("| {} | {} | {} → {} | {} → {} | {} | {} | {} → {} |\n",
                       Cell(i.short_name.empty() || !kernels ? i.name : i.short_name), PresenceName(i.presence),
                       i.base_calls, i.new_calls, Time(i.base_avg_ns), Time(i.new_avg_ns), Pct(i.per_call_pct), judged,
                       Time(i.base_per_iteration_ns), Time(i.new_per_iteration_ns));
  }
  out += "\n";
}

// One section per table of the report.
std::string Markdown(const DiffReport& r) {
  std::string out = fmt::format("# Diff: {} → {}\n\n**Verdict: {}.** {}\n\n", FileName(r.base_path),
                                FileName(r.new_path), VerdictName(r.verdict), r.answer.summary);
  const auto& c = r.comparability;
  out += fmt::format("## Comparability: {:.2f} ({})\n\n", c.score, c.label);
  for (const auto& reason : c.reasons) out += "- " + reason + "\n";
  if (!r.headline.metric.empty()) {
    out +=
        "\n## Headline\n\n| measure | base | new | change | noise floor | rank test p | verdict |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n";
  }
  std::vector<const Headline*> shown;
  for (const Headline& m : r.measures) shown.push_back(&m);
  if (r.per_call) shown.push_back(&*r.per_call);
  for (const Headline* h : shown) {
    out += fmt::format("| {} | {} | {} | {} | {:.1f}% | {} | {} |\n", h->metric, Time(h->base_ns), Time(h->new_ns),
                       Pct(h->change_pct), h->noise_floor_pct,
                       std::isfinite(h->rank_p) ? fmt::format("{:.2g}", h->rank_p) : "n/a",
                       r.per_call && h == &*r.per_call ? "(shown only)" : VerdictName(h->verdict));
  }
  if (!r.headline.metric.empty()) out += "\n";
  for (const Headline* h : shown) out += "Noise floor of the " + h->metric + ": " + h->noise_floor_reason + ".\n";
  const auto& bi = r.base_iterations;
  const auto& ni = r.new_iterations;
  out += fmt::format(
      "\n## Iterations\n\n| | base | new |\n| --- | --- | --- |\n| iterations (device-iterations) | {} | {} |\n"
      "| median duration | {} | {} |\n| robust sd | {} | {} |\n| kernels per iteration | {} | {} |\n"
      "| GPU busy per iteration | {} | {} |\n| GPU work per iteration (summed kernel time) | {} | {} |\n\n",
      bi.count, ni.count, Time(bi.median_ns), Time(ni.median_ns), Time(bi.robust_sd_ns), Time(ni.robust_sd_ns),
      Count(bi.median_kernels), Count(ni.median_kernels), Time(bi.median_gpu_busy_ns), Time(ni.median_gpu_busy_ns),
      Time(bi.median_kernel_ns), Time(ni.median_kernel_ns));
  AppendItems(out, "Kernels", r.kernels, r.kernel_counts);
  AppendItems(out, "NVTX ranges", r.ranges, r.range_counts);
  if (!r.devices.empty()) {
    out +=
        "## Devices\n\n| device | idle (base → new) | gaps > 1 ms (base → new) | communication (base → new) | "
        "overlap with compute | exposed (base → new) |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const auto& d : r.devices) {
      out += fmt::format("| {} | {} → {} | {} ({}) → {} ({}) | {} → {} | {} → {} | {} → {} |\n", d.device_id,
                         Share(d.base_idle_pct), Share(d.new_idle_pct), d.base_long_gaps, Time(d.base_long_gap_ns),
                         d.new_long_gaps, Time(d.new_long_gap_ns), d.has_comm ? Time(d.base_comm_ns) : "-",
                         d.has_comm ? Time(d.new_comm_ns) : "-", d.has_comm ? Share(d.base_overlap_pct) : "-",
                         d.has_comm ? Share(d.new_overlap_pct) : "-", d.has_comm ? Time(d.base_exposed_ns) : "-",
                         d.has_comm ? Time(d.new_exposed_ns) : "-");
    }
    out += "\n";
  }
  if (!r.memcpy.empty()) {
    out +=
        "## Memory operations\n\n| operation | count (base → new) | bytes (base → new) | time (base → new) | per "
        "iteration (base → new) |\n| --- | --- | --- | --- | --- |\n";
    for (const auto& m : r.memcpy) {
      out += fmt::format("| {} | {} → {} | {} → {} | {} → {} | {} → {} |\n", Cell(m.operation), m.base_count,
                         m.new_count, m.base_bytes, m.new_bytes, Time(m.base_total_ns), Time(m.new_total_ns),
                         Time(m.base_per_iteration_ns), Time(m.new_per_iteration_ns));
    }
    out += "\n";
  }
  if (!r.phases.empty()) {
    out +=
        "## Phases\n\n| phase | ranges (base → new) | wall (base → new) | GPU (base → new) | coverage (base → new) "
        "|\n| --- | --- | --- | --- | --- |\n";
    for (const auto& p : r.phases) {
      out += fmt::format("| {} | {} → {} | {} → {} | {} → {} | {:.2f} → {:.2f} |\n", Cell(p.phase), p.base_ranges,
                         p.new_ranges, Time(p.base_wall_ns), Time(p.new_wall_ns), Time(p.base_gpu_ns),
                         Time(p.new_gpu_ns), p.base_coverage, p.new_coverage);
    }
    out += "\n";
  }
  for (const auto& h : r.answer.hypotheses) out += "- Hypothesis (not proven by the profiles): " + h + "\n";
  for (const auto& s : r.answer.recommendations) out += "- To do: " + s + "\n";
  for (const auto& n : r.notes) out += "- Note: " + n + "\n";
  out += fmt::format("\nConfidence: {} ({}).\n", ConfidenceName(r.answer.confidence), r.answer.confidence_reason);
  if (!r.answer.verify.empty()) out += "\nVerify: `" + r.answer.verify + "`\n";
  return out;
}

}  // namespace

// The measures --metric asks for, each judged; a measure that cannot be compared leaves a note instead.
std::vector<Headline> Measures(DiffReport& r, const std::optional<Headline>& per_call,
                               const std::optional<Headline>& kernel_measure, const DiffOptions& options) {
  std::vector<Headline> out;
  const bool iterations = IterationsComparable(r);
  const bool all = options.metric.empty();
  if (all || options.metric == "step") {
    if (iterations) {
      out.push_back(IterationMeasure(r, options, false));
    } else if (!all) {
      r.notes.push_back("The step time cannot be judged: " + WhyNotIterations(r));
    }
  }
  if (all || options.metric == "gpu") {
    if (iterations) {
      out.push_back(IterationMeasure(r, options, true));
    } else if (per_call) {
      out.push_back(*per_call);
    }
  }
  if (kernel_measure) out.push_back(*kernel_measure);
  for (Headline& h : out) h.verdict = Judge(h, options);
  return out;
}

void Conclude(DiffReport& r, std::optional<Headline> per_call, std::optional<Headline> kernel_measure,
              const Calls& calls, const DiffOptions& options) {
  if (!IterationsComparable(r) && (r.base_iterations.count > 0 || r.new_iterations.count > 0)) {
    r.notes.push_back(WhyNotIterations(r));
  }
  r.measures = Measures(r, per_call, kernel_measure, options);
  const bool comparable = r.comparability.score >= options.incomparable_score;
  for (const Verdict v : {Verdict::kRegressed, Verdict::kImproved}) {
    if (!comparable || r.verdict != Verdict::kNeutral) break;
    for (const Headline& h : r.measures) {
      if (h.verdict != v) continue;
      r.verdict = v;
      r.headline = h;
      break;
    }
  }
  if (r.verdict == Verdict::kNeutral && !r.measures.empty()) r.headline = r.measures.front();
  if (!comparable) {
    for (Headline& h : r.measures) h.verdict = Verdict::kNeutral;
  }
  if (per_call && r.headline.metric != per_call->metric) {
    per_call->verdict = Judge(*per_call, options);
    r.per_call = per_call;
  }
  Answer& a = r.answer;
  a.summary = Summary(r, options);
  Evidences(a, r, calls);
  Advice(a, r, options);
  Confidence(a, r, options);
  const bool per_iteration = r.headline.measure == "step" || r.headline.metric == "median GPU work per iteration";
  const SkillPair& main = per_iteration ? calls.iterations : calls.kernels;
  a.verify = VerifyCommand(main.call, r.base_path) + " && " + VerifyCommand(main.call, r.new_path);
  r.markdown = Markdown(r);
}

}  // namespace nsys::agent::diff_detail
