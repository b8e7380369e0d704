// Offline ask's "why" and comparisons. "Why" gathers the usual causes of lost GPU time, each backed by a skill's
// rows and kept among the hypotheses: the profile shows they co-occur, not that they are the cause. Comparisons
// ("compare", "is X more than Y") put two quantities of the same unit side by side: devices, kernels or topics.
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

namespace {

// A quantity of one side of a comparison: a label, a value in ns, the evidence it rests on.
struct Side {
  std::string label;
  double ns = std::nan("");
  std::optional<Evidence> evidence;
  double count = std::nan("");  // instances, where the side counts them (kernels)
};

Side TopicSide(Ctx& c, const std::string& topic) {
  struct Q {
    std::string_view topic, skill, column, label;
  };
  static const Q qs[] = {{"kernels", "top_kernels", "total_time_ns", "kernel time"},
                         {"memcpy", "memory_transfers", "total_time_ns", "memory copy time"},
                         {"sync", "sync_apis", "duration_ns", "blocking sync time"},
                         {"idle", "gpu_idle_gaps", "duration_ns", "GPU idle time (gaps over 1 ms)"},
                         {"api", "cuda_api_summary", "total_time_ns", "CUDA API time"},
                         {"launch", "cuda_api_summary", "total_time_ns", "CUDA API time"},
                         {"nccl", "nccl_breakdown", "total_ns", "NCCL time"}};
  for (const auto& q : qs) {
    if (q.topic != topic) continue;
    auto t = RunSkill(c, std::string(q.skill), {});
    if (!t || t->declined) return Side{std::string(q.label)};
    skills::Table kept =
        topic == "nccl" ? KeepRows(*t, [&](size_t r) { return CellText(*t, r, "collective") == "all"; }) : *t;
    Side s{std::string(q.label), SumColumn(kept, q.column)};
    s.evidence =
        EvidenceFrom(CallOf(c, std::string(q.skill)), kept, {std::string(q.column)}, 5, std::string(q.label) + c.scope);
    return s;
  }
  return Side{topic};
}

Side DeviceSide(Ctx& c, int32_t device) {
  const auto saved = c.filter.devices;
  c.filter.devices = {device};
  auto t = RunSkill(c, "top_kernels", {});
  Side s{fmt::format("device {} kernel time", device)};
  if (t && !t->declined) {
    s.ns = SumColumn(*t, "total_time_ns");
    s.evidence = EvidenceFrom(CallOf(c, "top_kernels"), *t, {"total_time_ns", "instances", "name"}, 3,
                              fmt::format("Top kernels on device {}", device));
  }
  c.filter.devices = saved;
  return s;
}

// A kernel named in one side's text: the first non-common word that is a substring of a kernel name.
std::optional<Side> KernelSide(Ctx& c, const std::string& text, const skills::Table& scoped) {
  for (const auto& w : ParseQuestion(text, c.profile.info()).words) {
    if (w.size() < 4 || IsCommonWord(w)) continue;
    const auto mine =
        KeepRows(scoped, [&](size_t r) { return Lower(CellText(scoped, r, "name")).find(w) != std::string::npos; });
    if (mine.rows.empty()) continue;
    Side s{fmt::format("kernels matching '{}'", w), SumColumn(mine, "total_time_ns")};
    s.count = SumColumn(mine, "instances");
    s.evidence = EvidenceFrom(CallOf(c, "top_kernels"), mine, {"name", "total_time_ns", "instances"}, 5,
                              fmt::format("Kernels matching '{}'{}", w, c.scope));
    return s;
  }
  return std::nullopt;
}

// The two halves of "is X more than Y" / "compare X and Y".
std::pair<std::string, std::string> SplitSides(const std::string& q) {
  for (std::string_view sep : {" than ", " vs. ", " vs ", " versus ", " against ", " and ", " with ", " to "}) {
    const size_t at = q.find(sep);
    if (at != std::string::npos) return {q.substr(0, at), q.substr(at + sep.size())};
  }
  return {q, ""};
}

bool AsksGreater(const std::string& q) {
  return !(HasWord(q, "less") || HasWord(q, "smaller") || HasWord(q, "faster") || HasWord(q, "shorter") ||
           HasWord(q, "lower") || HasWord(q, "fewer"));
}

}  // namespace

// Long-ish: finds the two sides (devices, kernels, or topics), then states them and, for "is X more than Y", the
// yes or no.
void AnswerComparison(Ctx& c) {
  std::vector<Side> sides;
  const auto [left, right] = SplitSides(c.p.lower);
  std::string scope = c.scope;
  if (c.p.devices.size() >= 2) {
    scope.clear();  // each side names its device
    for (size_t i = 0; i < 2; ++i) sides.push_back(DeviceSide(c, c.p.devices[i]));
  } else if (!TopicOf(left).empty() && !TopicOf(right).empty() && TopicOf(left) != TopicOf(right)) {
    sides.push_back(TopicSide(c, TopicOf(left)));
    sides.push_back(TopicSide(c, TopicOf(right)));
  } else if (c.profile.info().caps.kernels) {
    auto t = RunSkill(c, "top_kernels", {});
    if (t && !t->declined) {
      auto l = KernelSide(c, left, *t), r = KernelSide(c, right, *t);
      if (l && r) sides = {*l, *r};
    }
    if (sides.empty() && c.profile.info().devices.size() >= 2 &&
        (HasWord(c.p.lower, "devices") || HasWord(c.p.lower, "gpus"))) {
      for (size_t i = 0; i < 2; ++i) sides.push_back(DeviceSide(c, c.profile.info().devices[i].id));
      scope.clear();
    }
  }
  if (sides.size() < 2 || std::isnan(sides[0].ns) || std::isnan(sides[1].ns)) {
    Refusal r;
    r.reason =
        "I cannot tell what to compare: name two devices (\"GPU 0 and GPU 1\"), two kernels, or two kinds of "
        "time (kernels, memory copies, syncs, NCCL, idle gaps, API calls) that this profile has.";
    if (sides.size() == 2)
      r.missing.push_back("data for " + (std::isnan(sides[0].ns) ? sides[0].label : sides[1].label));
    r.alternatives = Alternatives(c);
    c.turn.answer = Refuse(std::move(r));
    return;
  }
  auto& a = c.turn.answer;
  a.evidence.clear();
  for (auto& s : sides) {
    if (s.evidence) a.evidence.push_back(*s.evidence);
  }
  // "Per call, is A slower than B?", "Is A launched more often than B?": the average or the count where both sides
  // count their instances; their totals otherwise.
  const bool counted =
      !std::isnan(sides[0].count) && !std::isnan(sides[1].count) && sides[0].count > 0 && sides[1].count > 0;
  const std::string& q = c.p.lower;
  const bool per_call =
      counted && HasAny(q, {"per call", "per launch", "per instance", "per invocation", "average", "mean", "typical"});
  const bool how_often =
      counted && !per_call &&
      HasAny(q, {"more often", "more times", "more launches", "more instances", "fewer", "less often"});
  const auto value = [&](const Side& s) { return per_call ? s.ns / s.count : how_often ? s.count : s.ns; };
  const auto show = [&](double v) { return how_often ? FormatCount(v) + " instances" : FormatNs(v); };
  const std::string per = per_call ? " per instance on average" : how_often ? " in count" : "";
  const double x = value(sides[0]), y = value(sides[1]);
  const std::string ratio = y > 0 ? fmt::format("{:.2f}x", x / y) : "no";
  const std::string both = fmt::format("{} is {} and {} is {}{}{} ({} the second)", sides[0].label, show(x),
                                       sides[1].label, show(y), per, scope, ratio);
  if (c.p.type == QType::kMoreThan) {
    const bool yes = AsksGreater(c.p.lower) ? x > y : x < y;
    a.summary = fmt::format("{}: {}.", yes ? "Yes" : "No", both);
  } else {
    const std::string larger = x == y ? "they are equal" : "the larger is " + (x > y ? sides[0] : sides[1]).label;
    a.summary = fmt::format("{}; {}, by {}.", both, larger, show(std::fabs(x - y)));
    UpperFirst(a.summary);
  }
  a.confidence = Confidence::kHigh;
  a.confidence_reason = "both sides are exact sums over the skills' rows in the same scope";
}

}  // namespace nsys::agent::ask_detail
