// Offline ask's "why": it gathers the usual causes of lost GPU time, each backed by a skill's rows and kept among the
// hypotheses: the profile shows they co-occur, not that they are the cause.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ask_context.h"
#include "nsys/support/render_text.h"
#include "text_case.h"

namespace nsys::agent::ask_detail {

namespace {

// One probe of "why": a skill, what its rows say as a fact, the hypothesis and the advice when it has any.
struct Cause {
  std::string skill;
  std::vector<std::string> columns;
  std::string caption;
  // Returns the fact sentence (empty: nothing found); fills hypothesis and advice.
  std::string (*read)(const skills::Table& t, std::string& hypothesis, std::string& advice);
};

std::string ReadGaps(const skills::Table& t, std::string& h, std::string& advice) {
  if (t.rows.empty()) return "";
  const double total = SumColumn(t, "duration_ns");
  h = fmt::format(
      "The GPU waits for the host: {} idle gaps longer than 1 ms add up to {} (the longest {} on device "
      "{}).",
      FormatCount(static_cast<double>(t.rows.size())), FormatNs(total), FormatNs(CellNumber(t, 0, "duration_ns")),
      CellText(t, 0, "device_id"));
  advice =
      "Look at what the host does just before each long gap (data loading, Python, synchronization) and "
      "overlap it with GPU work.";
  return fmt::format("{} of GPU idle time in {} gaps over 1 ms", FormatNs(total),
                     FormatCount(static_cast<double>(t.rows.size())));
}

std::string ReadSyncs(const skills::Table& t, std::string& h, std::string& advice) {
  if (t.rows.empty()) return "";
  const double total = SumColumn(t, "duration_ns");
  h = fmt::format("Blocking synchronization stalls the host: {} calls take {} (the longest, {}, {}).",
                  FormatCount(static_cast<double>(t.rows.size())), FormatNs(total), CellText(t, 0, "api_name"),
                  FormatNs(CellNumber(t, 0, "duration_ns")));
  advice =
      "Remove synchronizations that are not needed (e.g. .item() or .cpu() in the step); use events or "
      "non-blocking copies instead.";
  return fmt::format("{} in {} blocking sync calls", FormatNs(total), FormatCount(static_cast<double>(t.rows.size())));
}

std::string ReadPageable(const skills::Table& t, std::string& h, std::string& advice) {
  if (t.rows.empty()) return "";
  const double total = SumColumn(t, "duration_ns");
  h = fmt::format("{} cudaMemcpyAsync calls use pageable host memory and run synchronously ({} of copy time).",
                  FormatCount(static_cast<double>(t.rows.size())), FormatNs(total));
  advice = "Allocate host buffers as pinned memory (pin_memory=True, cudaHostAlloc) so that copies overlap.";
  return fmt::format("{} pageable async copies", FormatCount(static_cast<double>(t.rows.size())));
}

std::string ReadNccl(const skills::Table& t, std::string& h, std::string& advice) {
  double exposed = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (CellText(t, r, "collective") == "all") exposed += CellNumber(t, r, "exposed_ns");
  }
  if (exposed <= 0) return "";
  h = fmt::format("Communication is not hidden behind compute: {} of NCCL time is exposed.", FormatNs(exposed));
  advice = "Overlap collectives with computation (bucketed all-reduce, async collectives on a side stream).";
  return fmt::format("{} of exposed NCCL time", FormatNs(exposed));
}

const Cause kCauses[] = {
    {"gpu_idle_gaps",
     {"duration_ns", "start_ns", "pid", "device_id", "op_before", "op_after"},
     "Longest idle gaps",
     ReadGaps},
    {"sync_apis", {"duration_ns", "start_ns", "pid", "api_name"}, "Longest blocking sync calls", ReadSyncs},
    {"pageable_memcpy",
     {"duration_ns", "bytes", "pid", "device_id", "api_name"},
     "Pageable async copies",
     ReadPageable},
    {"nccl_breakdown", {"device_id", "collective", "total_ns", "overlap_pct", "exposed_ns"}, "NCCL exposure", ReadNccl},
};

// A named kernel's own spread: the facts of its row, and whether its instances vary.
void WhyKernel(Ctx& c) {
  auto t = RunSkill(c, "top_kernels", {});
  if (!t || t->declined) return;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const auto mine = KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; });
  if (mine.rows.empty()) return;
  const double med = CellNumber(mine, 0, "med_ns"), max = CellNumber(mine, 0, "max_ns");
  c.turn.answer.evidence.push_back(
      EvidenceFrom(CallOf(c, "top_kernels"), mine,
                   {"name", "total_time_ns", "instances", "avg_ns", "med_ns", "max_ns", "stddev_ns", "time_pct"}, 5,
                   "The kernel in question" + c.scope));
  if (max > 2 * med) {
    c.turn.answer.hypotheses.push_back(fmt::format(
        "Its instances vary: the slowest takes {} against a median of {}, so some calls run with different inputs "
        "or compete with other work.",
        FormatNs(max), FormatNs(med)));
  }
  c.turn.answer.hypotheses.push_back(
      fmt::format("It takes {} of kernel time{}; a faster kernel (library, precision, fusion) matters in proportion.",
                  FormatPct(CellNumber(mine, 0, "time_pct")), c.scope));
}

}  // namespace

// Long-ish: runs every probe of the cause table and phrases what it found; each probe is one line of the table.
void AnswerWhy(Ctx& c) {
  if (!c.kernels.empty()) WhyKernel(c);
  std::vector<std::string> facts;
  const skills::Table* first_declined = nullptr;
  std::optional<skills::Table> declined_holder;
  bool no_gaps = false;
  for (const auto& cause : kCauses) {
    if (cause.skill == "nccl_breakdown" && c.p.topic != "nccl" && !c.profile.info().caps.nccl) continue;
    auto t = RunSkill(c, cause.skill, {});
    if (!t) continue;
    if (t->declined) {
      if (!first_declined) {
        declined_holder = *t;
        first_declined = &*declined_holder;
      }
      continue;
    }
    std::string h, advice;
    const std::string fact = cause.read(*t, h, advice);
    // No idle gap at all is a fact worth saying: the GPU was kept busy, so host-side waits wait on GPU work.
    if (cause.skill == "gpu_idle_gaps" && t->rows.empty()) no_gaps = true;
    if (fact.empty()) continue;
    facts.push_back(fact);
    c.turn.answer.hypotheses.push_back(h);
    c.turn.answer.recommendations.push_back(advice);
    c.turn.answer.evidence.push_back(
        EvidenceFrom(CallOf(c, cause.skill), *t, cause.columns, 5, cause.caption + c.scope));
  }
  const std::string where = c.scope.empty() ? "" : c.scope;
  auto& a = c.turn.answer;
  if (facts.empty() && a.evidence.empty()) {
    if (first_declined) {
      a = RefuseDeclined(c, "gpu_idle_gaps", *first_declined);
      return;
    }
    a.summary = fmt::format(
        "None of the usual causes shows up{}: no GPU idle gap over 1 ms, no blocking sync call, "
        "no pageable async copy.",
        where);
    a.confidence = Confidence::kMedium;
    a.confidence_reason = "the probes found nothing; a cause outside them (e.g. slow kernels themselves) may remain";
    a.evidence.push_back(EvidenceFrom(CallOf(c, "gpu_idle_gaps"), skills::Table{}, {}, 0, "No idle gaps over 1 ms"));
    return;
  }
  std::string list;
  for (size_t i = 0; i < facts.size(); ++i) list += (i ? "; " : "") + facts[i];
  if (facts.empty()) {
    a.summary = fmt::format("{} shows no idle gap, blocking sync or pageable copy{}; its own numbers are below.",
                            c.kernels.size() == 1 ? support::MarkdownCode(c.kernels.front()) : "The profile", where);
  } else {
    a.summary = fmt::format("The profile{} shows these likely causes: {}.", where, list);
  }
  if (no_gaps && !facts.empty()) {
    a.summary += " The GPU itself had no idle gap over 1 ms.";
    a.hypotheses.push_back(
        "With the GPU kept busy, the host's waits are waits on GPU work: the GPU time itself (the top kernels) is "
        "what to shorten.");
  }
  a.confidence = Confidence::kMedium;
  a.confidence_reason = "each cause is measured, but that it explains the slowdown is inferred";
}

}  // namespace nsys::agent::ask_detail
