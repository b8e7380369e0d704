// AnalyzeJob: the cross-rank findings of a job (job_analyze.h), one named step per cause, then the ranking.
#include "nsys/agent/job_analyze.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

namespace nsys::agent {
namespace {

using engine::Ns;

constexpr double kReportedShare = 0.005;  // below this share of the ranks' time a cause is noise, not a finding

std::string Ms(Ns ns) {
  return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

Severity SeverityOfShare(double share) {
  if (share >= 0.10) return Severity::kHigh;
  if (share >= 0.03) return Severity::kMedium;
  return Severity::kLow;
}

// The `nsys-ai skill run SKILL --job TARGET` line that reproduces a finding's evidence.
std::string VerifyJob(const JobFigures& f, const std::string& skill, const std::string& args) {
  std::string line = "nsys-ai skill run " + skill + " --job " + ShellQuote(f.verify_target);
  if (!args.empty()) line += " " + args;
  if (f.ranks_per_node > 0) line += fmt::format(" --arg ranks_per_node={}", f.ranks_per_node);
  return line;
}

Finding Make(const JobFigures& f, const char* cause, Ns at_stake, std::string title, const std::string& skill) {
  Finding out;
  out.root_cause = cause;
  out.title = std::move(title);
  out.at_stake_ns = at_stake;
  out.skill = skill;
  const double share = f.total_span_ns > 0 ? static_cast<double>(at_stake) / static_cast<double>(f.total_span_ns) : 0.0;
  out.severity = SeverityOfShare(share);
  out.coverage = fmt::format("{} ranks; {:.1f}% of the ranks' time together ({})", f.ranks.size(), 100.0 * share,
                             Ms(f.total_span_ns));
  return out;
}

bool Reported(const JobFigures& f, Ns at_stake) {
  return at_stake > 0 && static_cast<double>(at_stake) >= kReportedShare * static_cast<double>(f.total_span_ns);
}

// Step 1: the rank the others wait for at the collectives.
std::optional<Finding> Stragglers(const JobFigures& f) {
  const auto& s = f.stragglers.figures;
  if (s.caused_ns.empty() || s.instances.empty()) return std::nullopt;
  const size_t r = static_cast<size_t>(std::max_element(s.caused_ns.begin(), s.caused_ns.end()) - s.caused_ns.begin());
  const Ns lost = s.caused_ns[r];
  if (!Reported(f, lost) || r >= f.ranks.size()) return std::nullopt;
  const Ns all_lost = std::accumulate(s.caused_ns.begin(), s.caused_ns.end(), Ns{0});
  Finding out = Make(f, "job_straggler", lost,
                     fmt::format("{} is the last to start {} of {} collectives; the other ranks wait {} for it",
                                 f.ranks[r], s.times_last[r], s.instances.size(), Ms(lost)),
                     "job_stragglers");
  Answer& a = out.answer;
  a.summary = fmt::format(
      "Across {} matched collective instances the ranks lost {} waiting for the last rank to start; {} was the last "
      "{} times and caused {} of it.",
      s.instances.size(), Ms(all_lost), f.ranks[r], s.times_last[r], Ms(lost));
  SkillCall call{"job_stragglers", {{"by", Value(std::string("rank"))}}, {}};
  a.evidence.push_back(EvidenceFrom(call, f.stragglers.table, {"rank", "times_last", "caused_ns", "waited_ns"}, 0,
                                    "Per rank: collectives where it started last, the others' wait it caused, and "
                                    "its own waiting"));
  const bool mostly_resolved = s.unresolved * 4 <= static_cast<int64_t>(s.instances.size());
  a.confidence = mostly_resolved ? Confidence::kHigh : Confidence::kMedium;
  a.confidence_reason =
      mostly_resolved ? fmt::format("{} of {} instances are ordered beyond the clock alignment's uncertainty",
                                    s.instances.size() - static_cast<size_t>(s.unresolved), s.instances.size())
                      : fmt::format("{} of {} instances start closer together than the clock alignment can tell apart",
                                    s.unresolved, s.instances.size());
  a.hypotheses = {
      fmt::format("{} does more host work before the collectives (data loading, logging, Python overhead)", f.ranks[r]),
      fmt::format("{} computes more before each collective (uneven work, or a slower GPU or link)", f.ranks[r])};
  a.recommendations = {
      fmt::format("Compare {}'s CPU timeline before the collectives with a fast rank's (nsys-ai job-trace shows "
                  "them side by side on one clock)",
                  f.ranks[r]),
      "Balance the work per rank, or move the rank's host work out of the step"};
  a.verify = VerifyJob(f, "job_stragglers", "--arg by=rank");
  return out;
}

// Step 2: a rank with more kernel time than the others (the others idle at the next synchronisation).
std::optional<Finding> Imbalance(const JobFigures& f) {
  const auto& m = f.imbalance.figures;
  if (m.kernel_ns.size() < 2 || m.imbalance_pct < 5.0) return std::nullopt;
  Ns idle = 0;
  for (Ns k : m.kernel_ns) idle += m.max_ns - k;
  if (!Reported(f, idle) || m.slowest_rank >= f.ranks.size()) return std::nullopt;
  const std::string& slow = f.ranks[m.slowest_rank];
  Finding out = Make(f, "job_kernel_imbalance", idle,
                     fmt::format("{} runs {:.1f}% more kernel time than the mean rank ({} vs {})", slow,
                                 m.imbalance_pct, Ms(m.max_ns), Ms(m.mean_ns)),
                     "job_kernel_imbalance");
  Answer& a = out.answer;
  a.summary = fmt::format(
      "Kernel time per rank ranges from {} to {} (mean {}); the other ranks are {} short of the busiest, time they "
      "spend waiting at the next synchronisation.",
      Ms(m.min_ns), Ms(m.max_ns), Ms(m.mean_ns), Ms(idle));
  SkillCall call{"job_kernel_imbalance", {}, {}};
  a.evidence.push_back(EvidenceFrom(call, f.imbalance.table, {"rank", "kernels", "kernel_ns", "comm_ns", "vs_mean_pct"},
                                    0, "Kernel time per rank"));
  a.confidence = Confidence::kHigh;
  a.confidence_reason = "sums of every kernel's duration per rank";
  a.hypotheses = {"uneven data or model partitioning across ranks", "a rank on a slower GPU, or throttled"};
  a.recommendations = {"Rebalance the work (batch, sequence or pipeline-stage sizes) towards the lighter ranks"};
  a.verify = VerifyJob(f, "job_kernel_imbalance", "");
  return out;
}

// Step 3: ranks whose median steps differ (each rank's steps on its own clock, so no alignment is involved).
std::optional<Finding> StepSpread(const JobFigures& f) {
  const auto& st = f.steps.figures;
  std::vector<const skills::job::StepStats::Rank*> with;
  for (const auto& r : st.ranks) {
    if (r.steps > 0) with.push_back(&r);
  }
  if (with.size() < 2 || st.spread_pct < 5.0) return std::nullopt;
  auto by_median = [](const auto* a, const auto* b) { return a->median_ns < b->median_ns; };
  const auto* slow = *std::max_element(with.begin(), with.end(), by_median);
  const auto* fast = *std::min_element(with.begin(), with.end(), by_median);
  Ns idle = 0;
  for (const auto* r : with) idle += (slow->median_ns - r->median_ns) * r->steps;
  if (!Reported(f, idle) || slow->rank >= f.ranks.size() || fast->rank >= f.ranks.size()) return std::nullopt;
  Finding out = Make(f, "job_step_spread", idle,
                     fmt::format("median step time differs {:.1f}% across ranks: {} on {}, {} on {}", st.spread_pct,
                                 Ms(fast->median_ns), f.ranks[fast->rank], Ms(slow->median_ns), f.ranks[slow->rank]),
                     "job_step_times");
  Answer& a = out.answer;
  a.summary = fmt::format(
      "The ranks' median steps spread over {} ({:.1f}%); in a synchronous job the faster ranks wait for the slowest, "
      "about {} over their steps.",
      Ms(st.spread_ns), st.spread_pct, Ms(idle));
  SkillCall call{"job_step_times", {}, {}};
  a.evidence.push_back(EvidenceFrom(call, f.steps.table, {"rank", "steps", "median_ns", "max_ns", "vs_job_median_pct"},
                                    0, "Step times per rank"));
  a.confidence = Confidence::kMedium;
  a.confidence_reason = "steps are found per rank (NVTX ranges, marks or kernel periodicity) and compared by median";
  a.hypotheses = {fmt::format("{} does more work per step, or waits on its input pipeline", f.ranks[slow->rank])};
  a.recommendations = {"Look at the slowest rank's step in the job's trace next to a fast one's"};
  a.verify = VerifyJob(f, "job_step_times", "");
  return out;
}

}  // namespace

Analysis AnalyzeJob(const JobFigures& f) {
  Analysis out;
  out.window = "whole job";
  out.root_causes_checked = 3;
  for (auto step : {&Stragglers, &Imbalance, &StepSpread}) {
    if (auto finding = step(f)) out.findings.push_back(std::move(*finding));
  }
  std::stable_sort(out.findings.begin(), out.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.at_stake_ns > b.at_stake_ns; });
  if (f.stragglers.figures.instances.empty()) {
    out.unchecked.push_back({"job_straggler", "no collective instance was matched across ranks (no NCCL kernels)"});
  }
  out.summary = fmt::format(
      "Job of {} ranks ({} of the ranks' time together): {}.", f.ranks.size(), Ms(f.total_span_ns),
      out.findings.empty()
          ? std::string("no cross-rank cause above 0.5% of it")
          : fmt::format("{} cross-rank finding(s), the largest: {}", out.findings.size(), out.findings.front().title));
  for (const auto& note : f.notes) out.summary += " " + note;
  return out;
}

}  // namespace nsys::agent
