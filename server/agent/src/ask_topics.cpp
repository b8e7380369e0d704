// Offline ask's handlers, one per topic: each runs its skill, states the facts of the rows in one to three
// sentences and cites them as evidence. Numbers are cells of the rows (or their sums), formatted with units.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ask_context.h"
#include "nsys/skills/nvtx_groups.h"
#include "text_case.h"

namespace nsys::agent::ask_detail {

namespace {

// The table, or a refusal in the answer when the skill declined (its data is absent) or failed.
std::optional<skills::Table> TableOr(Ctx& c, const std::string& skill, skills::Args args = {}) {
  auto t = RunSkill(c, skill, args);
  if (!t) {
    c.turn.answer = Refuse({fmt::format("Skill `{}` failed: {}", skill, t.error().message), {}, Alternatives(c)});
    return std::nullopt;
  }
  if (t->declined) {
    c.turn.answer = RefuseDeclined(c, skill, *t);
    return std::nullopt;
  }
  return std::move(*t);
}

void Facts(Ctx& c, std::string summary, Confidence conf, std::string reason) {
  auto& a = c.turn.answer;
  a.summary = std::move(summary);
  UpperFirst(a.summary);
  a.confidence = conf;
  a.confidence_reason = std::move(reason);
}

void Cite(Ctx& c, const std::string& skill, const skills::Args& args, const skills::Table& t,
          const std::vector<std::string>& columns, size_t limit, std::string caption) {
  c.turn.answer.evidence.push_back(EvidenceFrom(CallOf(c, skill, args), t, columns, limit, std::move(caption)));
}

size_t TopN(const Ctx& c, size_t fallback) {
  return c.p.top_n.value_or(fallback);
}

// The scope for sentences: " on device 1" or " in the whole profile".
std::string Where(const Ctx& c) {
  return c.scope.empty() ? " in the whole profile" : c.scope;
}

const std::vector<std::string> kKernelColumns = {"time_pct", "total_time_ns", "instances", "avg_ns",
                                                 "med_ns",   "max_ns",        "name"};

// A "which kernel" or "which NVTX range" question that ranks by something other than the largest total time: the
// average, the longest or shortest single instance, the spread (standard deviation), the instance count, and in
// either direction ("the shortest", "the fewest", "the most consistent"). The summary column to rank by (top_kernels
// and nvtx_summary share them), the words for it, and whether the least comes first; nullopt for the largest total.
struct Ranking {
  std::string column, said;
  bool ascending = false;
};
std::optional<Ranking> RankingOf(const Ctx& c) {
  const std::string& q = c.p.lower;
  // "List the 3 kernels with the lowest total time" reads as "how much" by its "total time", but it asks for a list.
  // "Top 5 API calls by number of calls" as "how many" by its "number of": both ask for a list.
  // At the start, or after a leading clause ("Flip it around: which two kernels ...").
  const size_t clause = q.find_first_of(":,");
  const size_t after = clause == std::string::npos ? std::string::npos : q.find_first_not_of(' ', clause + 1);
  const auto starts = [&](std::string_view w) {
    return q.rfind(w, 0) == 0 || (after != std::string::npos && q.compare(after, w.size(), w) == 0);
  };
  const bool listing = starts("list") || starts("which") || starts("show") || starts("top") || starts("bottom");
  const bool lists = listing && (c.p.type == QType::kHowMuch || c.p.type == QType::kHowMany);
  if ((c.p.type != QType::kWhich && c.p.type != QType::kDescribe && !lists) || c.p.bound) return std::nullopt;
  // Whole words: "slowest" holds "lowest". A speed word ranks the duration; "least" and "smallest" alone the total.
  const auto any_word = [&](std::initializer_list<std::string_view> words) {
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return HasWord(q, w); });
  };
  const bool quick = any_word({"shortest", "fastest", "quickest", "briefest", "cheapest"});
  const bool least = quick || any_word({"least", "fewest", "smallest", "lowest", "rarest", "minimum", "bottom"});
  if (HasAny(q, {"varian", "variab", "vary", "varies", "std dev", "stddev", "standard deviation", "jitter",
                 "consistent", "stable", "fluctuat", "spread", "erratic", "noisiest", "noisy"})) {
    const bool steady = HasAny(q, {"most consistent", "most stable", "least varia", "least jitter", "lowest varia",
                                   "smallest varia", "least spread", "smallest spread"});
    return steady ? Ranking{"stddev_ns", "the steadiest duration (the smallest standard deviation)", true}
                  : Ranking{"stddev_ns", "the most varied duration (the largest standard deviation)", false};
  }
  // "the minimum kernel duration", "the maximum", "the tail latency": one instance, whatever words stand between
  // (but "the minimum total time" is a total, and "the maximum number of times" a count).
  const bool of_duration = !HasWord(q, "total") && !HasAny(q, {"number of", "times", "count", "often"});
  if (of_duration && any_word({"minimum", "min"})) return Ranking{"min_ns", "the shortest single instance", true};
  if (of_duration && any_word({"maximum", "max", "peak", "tail"}))
    return Ranking{"max_ns", "the longest single instance", false};
  const bool single = HasAny(
      q, {"single",           "slowest launch",   "slowest instance",   "slowest call",     "longest launch",
          "longest instance", "longest call",     "longest individual", "max duration",     "maximum duration",
          "longest run",      "shortest launch",  "shortest instance",  "shortest call",    "shortest individual",
          "min duration",     "minimum duration", "fastest launch",     "fastest instance", "one launch",
          "one instance"});
  if (single && least) return Ranking{"min_ns", "the shortest single instance", true};
  if (single) return Ranking{"max_ns", "the longest single instance", false};
  if (HasAny(q, {"exclusive", "self time"}))  // an NVTX range's own time, without its children's
    return least ? Ranking{"excl_total_ns", "the least exclusive time (without its children)", true}
                 : Ranking{"excl_total_ns", "the most exclusive time (without its children)", false};
  if (HasAny(q, {"most often", "most launches", "most instances", "most times", "most frequently", "launched the most",
                 "called the most", "most calls", "most invocations", "most launched", "most frequent",
                 "number of calls", "number of launches", "number of instances", "call count", "by count", "by calls",
                 "by launches", "by instances"}))
    return Ranking{"instances", "the most instances", false};
  if (HasAny(q, {"fewest", "least often", "least frequently", "least launched", "rarest", "fewest times",
                 "least called", "fewest calls", "fewest launches", "fewest instances"}))
    return Ranking{"instances", "the fewest instances", true};
  if (HasAny(q, {"average", "mean", "per call", "per launch", "per instance", "per invocation", "typical"}))
    return least ? Ranking{"avg_ns", "the shortest average duration", true}
                 : Ranking{"avg_ns", "the longest average duration", false};
  if (HasAny(q, {"least time", "least gpu time", "least total", "smallest total", "lowest total", "smallest share",
                 "least share"}))
    return Ranking{"total_time_ns", "the least total time", true};
  // "the shortest kernel", "the fastest range": per instance; "the least used kernel": its total.
  if (quick) return Ranking{"avg_ns", "the shortest average duration", true};
  if (least) return Ranking{"total_time_ns", "the least total time", true};
  return std::nullopt;
}

// What is ranked: kernels (top_kernels) or NVTX ranges (nvtx_summary); both have the same summary columns.
struct Ranked {
  std::string_view skill, name_column, noun;
  const std::vector<std::string>& columns;
  std::string_view count_column = "instances", count_noun = "instances";  // cuda_api_summary: num_calls, calls
};

std::string Counted(double n, std::string_view noun) {
  const std::string_view one = noun.substr(0, noun.size() - 1);  // "instances" -> "instance", "calls" -> "call"
  return fmt::format("{} {}", FormatCount(n), n == 1 ? one : noun);
}

std::string RankedFigure(const skills::Table& t, size_t r, const Ranking& by, const Ranked& what) {
  if (by.column == what.count_column) return Counted(CellNumber(t, r, std::string(what.count_column)), what.count_noun);
  if (by.column == "excl_total_ns") return FormatNs(CellNumber(t, r, "excl_total_ns")) + " of exclusive time";
  if (by.column == "stddev_ns")
    return fmt::format("standard deviation {} around an average of {}", FormatNs(CellNumber(t, r, "stddev_ns")),
                       FormatNs(CellNumber(t, r, "avg_ns")));
  if (by.column == "max_ns") return FormatNs(CellNumber(t, r, "max_ns")) + " at its longest";
  if (by.column == "min_ns") return FormatNs(CellNumber(t, r, "min_ns")) + " at its shortest";
  if (by.column == "total_time_ns") return FormatNs(CellNumber(t, r, "total_time_ns")) + " in total";
  return FormatNs(CellNumber(t, r, by.column)) + " per instance";
}

// False (nothing answered) when the table has no such column: an NVTX-only measure asked of kernels.
bool AnswerRanked(Ctx& c, skills::Table t, Ranking by, const Ranked& what) {
  if (by.column == "instances") by.column = std::string(what.count_column);
  if (!ColumnIndex(t, by.column)) return false;
  // Ordered by the column's value (each row's key read once), ties keeping the skill's order (largest total first).
  std::vector<std::pair<double, size_t>> keys;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const double v = CellNumber(t, r, by.column);
    // A spread needs two instances: one instance's zero deviation says nothing about its steadiness.
    const bool no_spread = by.column == "stddev_ns" && CellNumber(t, r, std::string(what.count_column)) < 2;
    keys.emplace_back(std::isnan(v) || no_spread ? HUGE_VAL : (by.ascending ? v : -v), r);
  }
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<Value>> rows;
  for (const auto& key : keys) rows.push_back(std::move(t.rows[key.second]));
  t.rows = std::move(rows);
  const std::string name = CellText(t, 0, std::string(what.name_column));
  const std::string instances = by.column == what.count_column
                                    ? ""
                                    : Counted(CellNumber(t, 0, std::string(what.count_column)), what.count_noun) + ", ";
  const std::string total =
      by.column == "total_time_ns" ? "" : FormatNs(CellNumber(t, 0, "total_time_ns")) + " in total, ";
  std::string s =
      fmt::format("The {} with {}{} is {}: {} ({}{}{} of {} time).", what.noun, by.said, Where(c), Ticked(name),
                  RankedFigure(t, 0, by, what), instances, total, FormatPct(CellNumber(t, 0, "time_pct")), what.noun);
  // "Top 3", "bottom 5": the rest of the N asked, in order; otherwise the next one.
  const size_t asked = std::min(c.p.top_n.value_or(2), t.rows.size());
  for (size_t r = 1; r < asked; ++r) {
    s += fmt::format("{}{} ({})", r == 1 ? (asked > 2 ? " Then: " : " Next: ") : "; ",
                     Ticked(CellText(t, r, std::string(what.name_column))), RankedFigure(t, r, by, what));
  }
  if (asked > 1) s += ".";
  Facts(c, s, Confidence::kHigh,
        fmt::format("{}'s rows ordered by {}{}", what.skill, by.column, by.ascending ? ", least first" : ""));
  const size_t n = std::min(TopN(c, 5), t.rows.size());
  Cite(c, std::string(what.skill), {}, t, what.columns, n,
       fmt::format("Top {} {}s by {}{}{}", n, what.noun, by.column, by.ascending ? " (least first)" : "", c.scope));
  for (size_t r = 0; r < n; ++r) c.turn.state.listed.push_back(CellText(t, r, std::string(what.name_column)));
  return true;
}

const std::vector<std::string> kRankedKernelColumns = {"time_pct", "total_time_ns", "instances", "avg_ns", "med_ns",
                                                       "min_ns",   "max_ns",        "stddev_ns", "name"};
const std::vector<std::string> kRankedRangeColumns = {"range",  "time_pct", "total_time_ns", "instances",    "avg_ns",
                                                      "min_ns", "max_ns",   "stddev_ns",     "excl_total_ns"};
const std::vector<std::string> kRankedApiColumns = {"name",   "time_pct", "total_time_ns", "num_calls",
                                                    "avg_ns", "min_ns",   "max_ns",        "stddev_ns"};

}  // namespace

void AnswerKernels(Ctx& c) {
  auto t = TableOr(c, "top_kernels");
  if (!t) return;
  if (const auto by = RankingOf(c);
      by && !t->rows.empty() && AnswerRanked(c, *t, *by, {"top_kernels", "name", "kernel", kRankedKernelColumns}))
    return;
  if (t->rows.empty()) {
    Facts(c, fmt::format("No kernels ran{}.", Where(c)), Confidence::kHigh, "the kernel table has no rows there");
    Cite(c, "top_kernels", {}, *t, kKernelColumns, 0, "Kernels by GPU time");
    return;
  }
  const double total = SumColumn(*t, "total_time_ns");
  const double launches = SumColumn(*t, "instances");
  const std::string top = CellText(*t, 0, "name");
  std::string s;
  if (c.p.type == QType::kHowMany) {
    s = fmt::format("{} kernel instances of {} distinct kernels ran{}, {} of GPU time in total.", FormatCount(launches),
                    FormatCount(static_cast<double>(t->rows.size())), Where(c), FormatNs(total));
  } else if (c.p.type == QType::kHowMuch) {
    s = fmt::format("Kernels took {} of GPU time{} ({} instances); the largest is {} with {}.", FormatNs(total),
                    Where(c), FormatCount(launches), Ticked(top), FormatNs(CellNumber(*t, 0, "total_time_ns")));
  } else if (c.p.top_n && *c.p.top_n > 1) {
    const size_t n = std::min(*c.p.top_n, t->rows.size());
    s = fmt::format("The top {} kernels by GPU time{}:", n, Where(c));
    for (size_t r = 0; r < n; ++r) {
      s += fmt::format("{} {}. {} {} ({} of kernel time, {} instances)", r ? ";" : "", r + 1,
                       Ticked(CellText(*t, r, "name")), FormatNs(CellNumber(*t, r, "total_time_ns")),
                       FormatPct(CellNumber(*t, r, "time_pct")), FormatCount(CellNumber(*t, r, "instances")));
    }
    s += fmt::format(". All kernels: {} in {} instances.", FormatNs(total), FormatCount(launches));
  } else {
    s = fmt::format("The top kernel by GPU time{} is {} with {} ({} of kernel time, {} instances).", Where(c),
                    Ticked(top), FormatNs(CellNumber(*t, 0, "total_time_ns")), FormatPct(CellNumber(*t, 0, "time_pct")),
                    FormatCount(CellNumber(*t, 0, "instances")));
    if (t->rows.size() > 1) {
      s +=
          fmt::format(" Next: {} ({}).", Ticked(CellText(*t, 1, "name")), FormatNs(CellNumber(*t, 1, "total_time_ns")));
    }
  }
  Facts(c, s, Confidence::kHigh, "exact sums over the kernel table (nsys stats gpukernsum)");
  const size_t n = std::min(TopN(c, 5), t->rows.size());
  Cite(c, "top_kernels", {}, *t, kKernelColumns, n, fmt::format("Top {} kernels by GPU time{}", n, c.scope));
  for (size_t r = 0; r < n; ++r) c.turn.state.listed.push_back(CellText(*t, r, "name"));
}

void AnswerKernelDetail(Ctx& c) {
  auto t = TableOr(c, "top_kernels");
  if (!t) return;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const auto mine = KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; });
  const std::string label = c.kernels.size() == 1
                                ? Ticked(c.kernels.front())
                                : fmt::format("the {} kernels matching '{}'", c.kernels.size(), c.kernel_query);
  if (mine.rows.empty()) {
    Facts(c, fmt::format("{} did not run{}.", label, Where(c)), Confidence::kHigh,
          "the kernel table has no instance of it in this scope");
    Cite(c, "top_kernels", {}, *t, kKernelColumns, 3, "The kernels that did run there");
    return;
  }
  const double total = SumColumn(mine, "total_time_ns");
  const double count = SumColumn(mine, "instances");
  const double pct = SumColumn(mine, "time_pct");
  std::string s;
  if (c.p.top_n && *c.p.top_n > 0 && mine.rows.size() > 1) {
    // "top 3 kernels in the cuFCM run": the first N of the kernels the words matched, by GPU time.
    const size_t n = std::min<size_t>(*c.p.top_n, mine.rows.size());
    s = fmt::format("The top {} of {} by GPU time{}:", n, label, Where(c));
    for (size_t r = 0; r < n; ++r)
      s += fmt::format("{} {} with {} ({} calls)", r ? ";" : "", Ticked(CellText(mine, r, "name")),
                       FormatNs(CellNumber(mine, r, "total_time_ns")), FormatCount(CellNumber(mine, r, "instances")));
    s += fmt::format(". All {} ran {} times for {} of GPU time, {} of kernel time.", mine.rows.size(),
                     FormatCount(count), FormatNs(total), FormatPct(pct));
  } else if (c.p.type == QType::kHowMany) {
    s = fmt::format("{} ran {} times{} ({} of GPU time).", label, FormatCount(count), Where(c), FormatNs(total));
  } else if (mine.rows.size() == 1) {
    s = fmt::format("{} ran {} times{} for {} of GPU time, {} of kernel time; median {}, max {}.", label,
                    FormatCount(count), Where(c), FormatNs(total), FormatPct(pct),
                    FormatNs(CellNumber(mine, 0, "med_ns")), FormatNs(CellNumber(mine, 0, "max_ns")));
  } else {
    s = fmt::format("{} ran {} times{} for {} of GPU time, {} of kernel time; the largest is {} with {}.", label,
                    FormatCount(count), Where(c), FormatNs(total), FormatPct(pct), Ticked(CellText(mine, 0, "name")),
                    FormatNs(CellNumber(mine, 0, "total_time_ns")));
  }
  Facts(c, s, Confidence::kHigh, "exact sums over the kernel table rows of the named kernel(s)");
  Cite(c, "top_kernels", {}, mine, kKernelColumns, 10, "The named kernel(s)" + c.scope);
  for (size_t r = 0; r < mine.rows.size() && r < 10; ++r) c.turn.state.listed.push_back(CellText(mine, r, "name"));
}

void AnswerMemcpy(Ctx& c) {
  auto t = TableOr(c, "memory_transfers");
  if (!t) return;
  if (t->rows.empty()) {
    Facts(c, fmt::format("No memory copies or memsets ran{}.", Where(c)), Confidence::kHigh, "no rows in scope");
    Cite(c, "memory_transfers", {}, *t, {"operation", "count"}, 0, "Memory operations");
    return;
  }
  const double total = SumColumn(*t, "total_time_ns");
  const double count = SumColumn(*t, "count");
  std::string s = fmt::format(
      "Memory operations took {} of GPU time in {} operations{}; {} leads with {} ({}), {} "
      "in {} operations",
      FormatNs(total), FormatCount(count), Where(c), CellText(*t, 0, "operation"),
      FormatNs(CellNumber(*t, 0, "total_time_ns")), FormatPct(CellNumber(*t, 0, "time_pct")),
      FormatBytes(CellNumber(*t, 0, "total_bytes")), FormatCount(CellNumber(*t, 0, "count")));
  const double bw = CellNumber(*t, 0, "bandwidth_gb_s");
  s += std::isnan(bw) ? "." : fmt::format(" at {:.2f} GB/s.", bw);
  Facts(c, s, Confidence::kHigh, "exact sums over the memcpy and memset tables (nsys stats gpumemtimesum)");
  Cite(c, "memory_transfers", {}, *t,
       {"operation", "time_pct", "total_time_ns", "count", "total_bytes", "bandwidth_gb_s"}, 0,
       "Memory operations by kind" + c.scope);
}

void AnswerSync(Ctx& c) {
  auto t = TableOr(c, "sync_apis");
  if (!t) return;
  if (t->rows.empty()) {
    Facts(c,
          fmt::format("No blocking synchronization calls (cudaDeviceSynchronize, cudaStreamSynchronize) ran{}.",
                      Where(c)),
          Confidence::kHigh, "the runtime table has no such call in scope");
    Cite(c, "sync_apis", {}, *t, {"api_name", "duration_ns"}, 0, "Blocking sync calls");
    return;
  }
  // sync_apis lists the longest calls only (a row limit): the count and the total come from every call of the
  // same APIs in the runtime summary, so a row limit never shows as a count.
  // The two skills may spell a call with or without its version suffix (cudaDeviceSynchronize_v3020).
  auto base = [](std::string name) {
    const size_t v = name.rfind("_v");
    if (v != std::string::npos && v > 0 && v + 2 < name.size() &&
        std::all_of(name.begin() + static_cast<long>(v) + 2, name.end(),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }))
      name.resize(v);
    return name;
  };
  std::set<std::string> apis;
  for (size_t r = 0; r < t->rows.size(); ++r) apis.insert(base(CellText(*t, r, "api_name")));
  double count = static_cast<double>(t->rows.size()), total = SumColumn(*t, "duration_ns");
  auto summary = RunSkill(c, "cuda_api_summary", {});
  std::optional<skills::Table> calls;
  if (summary && !summary->declined) {
    calls = KeepRows(*summary, [&](size_t r) { return apis.count(base(CellText(*summary, r, "name"))) > 0; });
    if (!calls->rows.empty()) {
      count = SumColumn(*calls, "num_calls");
      total = SumColumn(*calls, "total_time_ns");
    }
  }
  std::string per;
  if (calls) {
    for (size_t r = 0; r < calls->rows.size(); ++r) {
      per += fmt::format("{}{} {} calls, {}", per.empty() ? " (" : "; ", CellText(*calls, r, "name"),
                         FormatCount(CellNumber(*calls, r, "num_calls")),
                         FormatNs(CellNumber(*calls, r, "total_time_ns")));
    }
    if (!per.empty()) per += ")";
  }
  Facts(c,
        fmt::format("{} blocking synchronization calls{} took {} of host time{}; the longest is {} with {} (pid {}).",
                    FormatCount(count), Where(c), FormatNs(total), per, CellText(*t, 0, "api_name"),
                    FormatNs(CellNumber(*t, 0, "duration_ns")), CellText(*t, 0, "pid")),
        Confidence::kHigh, "every listed call blocks the host until the GPU is done (nsys analyze cuda-sync-api)");
  if (calls && !calls->rows.empty())
    Cite(c, "cuda_api_summary", {}, *calls, {"name", "num_calls", "total_time_ns", "avg_ns", "max_ns"}, 0,
         "Every blocking sync call" + c.scope);
  Cite(c, "sync_apis", {}, *t, {"duration_ns", "start_ns", "pid", "tid", "api_name"}, 5,
       "Longest blocking sync calls" + c.scope);
}

void AnswerIdle(Ctx& c) {
  auto t = TableOr(c, "gpu_idle_gaps");
  if (!t) return;
  if (t->rows.empty()) {
    Facts(c, fmt::format("The GPU has no idle gap longer than 1 ms between its first and last operation{}.", Where(c)),
          Confidence::kHigh, "gpu_idle_gaps found no gap above its 1 ms threshold");
    Cite(c, "gpu_idle_gaps", {}, *t, {"duration_ns", "device_id"}, 0, "Idle gaps longer than 1 ms");
    return;
  }
  const double total = SumColumn(*t, "duration_ns");
  Facts(c,
        fmt::format("The GPU was idle in {} gaps longer than 1 ms{}, {} in total; the longest is {} on device {} "
                    "(pid {}).",
                    FormatCount(static_cast<double>(t->rows.size())), Where(c), FormatNs(total),
                    FormatNs(CellNumber(*t, 0, "duration_ns")), CellText(*t, 0, "device_id"), CellText(*t, 0, "pid")),
        Confidence::kHigh, "gaps between GPU operations of each process and device (nsys analyze gpu-starv)");
  Cite(c, "gpu_idle_gaps", {}, *t, {"duration_ns", "start_ns", "pid", "device_id", "op_before", "op_after"}, 5,
       "Longest idle gaps" + c.scope);
}

void AnswerNccl(Ctx& c) {
  auto t = TableOr(c, "nccl_breakdown");
  if (!t) return;
  const auto all = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "collective") == "all"; });
  if (all.rows.empty()) {
    c.turn.answer = Refuse({"This profile has no NCCL communication kernels" + c.scope + ".",
                            {"NCCL (or RCCL/HCCL) kernels in the kernel table"},
                            Alternatives(c)});
    return;
  }
  std::string s = fmt::format("NCCL kernels{}: ", Where(c));
  for (size_t r = 0; r < all.rows.size(); ++r) {
    s += fmt::format("{}device {} ran {} collectives for {} ({} overlapped with compute, {} exposed)", r ? "; " : "",
                     CellText(all, r, "device_id"), FormatCount(CellNumber(all, r, "count")),
                     FormatNs(CellNumber(all, r, "total_ns")), FormatPct(CellNumber(all, r, "overlap_pct")),
                     FormatNs(CellNumber(all, r, "exposed_ns")));
  }
  if (all.rows.size() > 1) {
    s += fmt::format("; in all, {} collectives for {} ({} exposed)", FormatCount(SumColumn(all, "count")),
                     FormatNs(SumColumn(all, "total_ns")), FormatNs(SumColumn(all, "exposed_ns")));
  }
  Facts(c, s + ".", Confidence::kHigh, "communication kernels recognised by name (nccl*), overlap by interval union");
  Cite(c, "nccl_breakdown", {}, *t,
       {"device_id", "collective", "count", "total_ns", "comm_time_pct", "overlap_pct", "exposed_ns"}, 0,
       "NCCL collectives per device" + c.scope);
}

namespace {

// "the quickest ExecutionContext::execute", "the longest step range": +1 for the longest instance of a named range,
// -1 for the shortest, 0 when no extreme is asked.
int RangeExtremeAsked(const Parsed& p) {
  if (p.type != QType::kWhich && p.type != QType::kDescribe && p.type != QType::kHowMuch) return 0;
  for (std::string_view w : {"longest", "slowest", "maximum", "max", "worst"}) {
    if (HasWord(p.lower, w)) return 1;
  }
  for (std::string_view w : {"shortest", "fastest", "quickest", "minimum", "min", "best"}) {
    if (HasWord(p.lower, w)) return -1;
  }
  return 0;
}

// The instances of the named range in the question's processes and window, as NVTX rows in start order (the NVTX
// group index's rows of every (label, style) group whose label is the range's name).
std::vector<size_t> RangeInstances(const Ctx& c) {
  auto index = skills::NvtxGroupIndex::Of(c.profile, false, c.cancel);
  if (!index) return {};
  const skills::NvtxGroupIndex& ix = *index.value();
  const engine::NvtxTable& n = c.profile.nvtx();
  std::vector<size_t> rows;
  for (size_t g = 0; g < ix.size(); ++g) {
    if (ix.labels().Text(ix.label(g)) != c.nvtx_range) continue;
    for (size_t piece = ix.first_piece(g); piece < ix.first_piece(g + 1); ++piece) {
      for (int32_t row : ix.rows(piece)) {
        const auto r = static_cast<size_t>(row);
        if (InHostFilter(c, n.pid[r], n.start[r])) rows.push_back(r);
      }
    }
  }
  std::sort(rows.begin(), rows.end());  // rows are numbered in start order
  return rows;
}

struct KernelsDuring {
  double kernels = 0;
  double gpu_ns = 0;
};

// For each NVTX row of `instances`, the kernels (on the question's devices) whose launch call started while it was
// open, on any thread of its process: what "the kernels under that range" means when the launches come from worker
// threads (TensorFlow, TensorRT, CUDA graphs replayed elsewhere), which nsys's same-thread rule does not see.
std::vector<KernelsDuring> KernelsLaunchedDuring(const Ctx& c, const std::vector<size_t>& instances) {
  const engine::NvtxTable& n = c.profile.nvtx();
  const engine::KernelTable& k = c.profile.kernels();
  const engine::RuntimeTable& rt = c.profile.runtime();
  std::map<uint32_t, std::vector<std::pair<engine::Ns, engine::Ns>>> launches;  // pid -> (launch start, duration)
  for (size_t row : instances) launches[n.pid[row]];
  const auto& devices = c.filter.devices;
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.launch[i] < 0) continue;
    if (!devices.empty() && std::find(devices.begin(), devices.end(), k.device[i]) == devices.end()) continue;
    const auto r = static_cast<size_t>(k.launch[i]);
    auto it = launches.find(rt.pid[r]);
    if (it != launches.end()) it->second.emplace_back(rt.start[r], k.end[i] - k.start[i]);
  }
  std::map<uint32_t, std::vector<double>> running;  // pid -> running GPU time, one more entry than launches
  for (auto& [pid, list] : launches) {
    std::sort(list.begin(), list.end());
    auto& sum = running[pid];
    sum.assign(1, 0.0);
    for (const auto& [start, dur] : list) sum.push_back(sum.back() + static_cast<double>(dur));
  }
  std::vector<KernelsDuring> out;
  for (size_t row : instances) {
    const auto& list = launches[n.pid[row]];
    const auto lo = std::lower_bound(list.begin(), list.end(), std::pair<engine::Ns, engine::Ns>{n.start[row], 0});
    const auto hi = std::upper_bound(lo, list.end(), std::pair<engine::Ns, engine::Ns>{n.end[row], INT64_MAX});
    const auto& sum = running[n.pid[row]];
    out.push_back({static_cast<double>(hi - lo),
                   sum[static_cast<size_t>(hi - list.begin())] - sum[static_cast<size_t>(lo - list.begin())]});
  }
  return out;
}

std::string OrdinalWord(size_t i) {
  static const char* words[] = {"first", "second", "third", "fourth", "fifth"};
  return i < 5 ? words[i] : fmt::format("{}th", i + 1);
}

// "How many kernels ran under the second Model range?", and a range whose launches come from other threads: the
// kernels launched while the range (or its asked instance) was open, on any thread of its process. False when neither
// applies, so the nsys rule's figures stand alone.
bool AnswerKernelsDuringRange(Ctx& c, const skills::Table& mine) {
  const bool none_on_thread = CellNumber(mine, 0, "kernels") == 0;
  if (!c.p.ordinal && !none_on_thread) return false;
  const std::vector<size_t> instances = RangeInstances(c);
  if (instances.empty() || (c.p.ordinal && *c.p.ordinal >= instances.size())) return false;
  const std::vector<KernelsDuring> during = KernelsLaunchedDuring(c, instances);
  const engine::NvtxTable& n = c.profile.nvtx();
  const std::string rule =
      none_on_thread ? fmt::format(
                           " No kernel was launched on the range's own thread (nsys's rule), so these are the "
                           "launches of other threads of process {} while it was open.",
                           n.pid[instances[0]])
                     : "";
  if (c.p.ordinal) {
    const size_t i = *c.p.ordinal, row = instances[i];
    Facts(c,
          fmt::format("The {} of the {} instances of NVTX range {}{} lasted {} of wall time; {} kernels launched while "
                      "it was open, on any thread of process {}, ran {} of GPU time.{}",
                      OrdinalWord(i), instances.size(), Ticked(c.nvtx_range), Where(c),
                      FormatNs(n.end[row] - n.start[row]), FormatCount(during[i].kernels), n.pid[row],
                      FormatNs(during[i].gpu_ns), rule),
          Confidence::kHigh, "kernels whose launch call started inside the instance, any thread of its process");
  } else {
    KernelsDuring all;
    for (const KernelsDuring& d : during) {
      all.kernels += d.kernels;
      all.gpu_ns += d.gpu_ns;
    }
    if (all.kernels == 0) return false;
    Facts(c,
          fmt::format("While NVTX range {}{} was open ({} instances), {} kernels were launched in its process, {} of "
                      "GPU time.{}",
                      Ticked(c.nvtx_range), Where(c), instances.size(), FormatCount(all.kernels), FormatNs(all.gpu_ns),
                      rule),
          Confidence::kMedium, "kernels whose launch call started inside an instance, any thread of its process");
  }
  Cite(c, "nvtx_range_kernels", {}, mine, {"name", "instances", "wall_ns", "gpu_ns", "kernels", "top_kernel"}, 0,
       "NVTX range " + c.nvtx_range + " and the kernels launched on its own thread" + c.scope);
  return true;
}

// "How much GPU kernel time falls inside the layer_0_computation ranges?": the kernels launched inside a named range
// (nvtx_range_kernels, by where they were launched), when the question asks about kernels or GPU time.
bool AnswerRangeKernels(Ctx& c) {
  if (!c.profile.info().caps.kernels || !HasAny(c.p.lower, {"kernel", "gpu time", "gpu work", "on the gpu"}))
    return false;
  auto t = RunSkill(c, "nvtx_range_kernels", {});
  if (!t || t->declined) return false;
  const auto mine = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "name") == c.nvtx_range; });
  if (mine.rows.empty()) return false;
  if (AnswerKernelsDuringRange(c, mine)) return true;
  const double kernels = CellNumber(mine, 0, "kernels");
  Facts(c,
        fmt::format("Kernels launched inside NVTX range {}{} ran {} of GPU time: {} kernels ({} distinct, most "
                    "time in {}) over its {} instances, whose wall time is {}.",
                    Ticked(c.nvtx_range), Where(c), FormatNs(CellNumber(mine, 0, "gpu_ns")), FormatCount(kernels),
                    FormatCount(CellNumber(mine, 0, "distinct_kernels")), Ticked(CellText(mine, 0, "top_kernel")),
                    FormatCount(CellNumber(mine, 0, "instances")), FormatNs(CellNumber(mine, 0, "wall_ns"))),
        Confidence::kHigh, "kernels attributed to the range that launched them (nsys nvtxkernsum's rule)");
  Cite(c, "nvtx_range_kernels", {}, mine, {"name", "instances", "wall_ns", "gpu_ns", "kernels", "top_kernel"}, 0,
       "NVTX range " + c.nvtx_range + " and its kernels" + c.scope);
  return true;
}

}  // namespace

void AnswerNvtx(Ctx& c) {
  auto t = TableOr(c, "nvtx_summary");
  if (!t) return;
  const std::vector<std::string> cols = {"range", "time_pct", "total_time_ns", "instances", "avg_ns", "med_ns"};
  if (!c.nvtx_range.empty()) {
    const auto mine = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "range") == c.nvtx_range; });
    if (mine.rows.empty()) {
      Facts(c, fmt::format("NVTX range {} has no instance{}.", Ticked(c.nvtx_range), Where(c)), Confidence::kHigh,
            "no row of that name in scope");
    } else if (AnswerRangeKernels(c)) {
      return;
    } else if (const int extreme = RangeExtremeAsked(c.p); extreme != 0) {
      Facts(c,
            fmt::format("The {} instance of NVTX range {}{} took {} (of {} instances; average {}, median {}).",
                        extreme > 0 ? "longest" : "shortest", Ticked(c.nvtx_range), Where(c),
                        FormatNs(CellNumber(mine, 0, extreme > 0 ? "max_ns" : "min_ns")),
                        FormatCount(CellNumber(mine, 0, "instances")), FormatNs(CellNumber(mine, 0, "avg_ns")),
                        FormatNs(CellNumber(mine, 0, "med_ns"))),
            Confidence::kHigh, "exact figures of the NVTX table (nsys stats nvtxsum); range time is CPU wall time");
      Cite(c, "nvtx_summary", {}, mine, {"range", "instances", "min_ns", "max_ns", "avg_ns", "med_ns"}, 0,
           "NVTX range " + c.nvtx_range + c.scope);
      return;
    } else {
      Facts(c,
            fmt::format("NVTX range {} ran {} time{}{} for {} in total (average {}, median {}).", Ticked(c.nvtx_range),
                        FormatCount(CellNumber(mine, 0, "instances")), CellNumber(mine, 0, "instances") == 1 ? "" : "s",
                        Where(c), FormatNs(CellNumber(mine, 0, "total_time_ns")),
                        FormatNs(CellNumber(mine, 0, "avg_ns")), FormatNs(CellNumber(mine, 0, "med_ns"))),
            Confidence::kHigh, "exact sums over the NVTX table (nsys stats nvtxsum); range time is CPU wall time");
    }
    Cite(c, "nvtx_summary", {}, mine, cols, 0, "NVTX range " + c.nvtx_range + c.scope);
    return;
  }
  if (t->rows.empty()) {
    Facts(c, fmt::format("No NVTX ranges{}.", Where(c)), Confidence::kHigh, "no NVTX rows in scope");
    Cite(c, "nvtx_summary", {}, *t, cols, 0, "NVTX ranges");
    return;
  }
  if (const auto by = RankingOf(c);
      by && AnswerRanked(c, *t, *by, {"nvtx_summary", "range", "NVTX range", kRankedRangeColumns}))
    return;
  std::string s;
  if (c.p.type == QType::kHowMany) {
    s = fmt::format("{} NVTX range instances of {} distinct names{}.", FormatCount(SumColumn(*t, "instances")),
                    FormatCount(static_cast<double>(t->rows.size())), Where(c));
  } else {
    s = fmt::format("The NVTX range with the most time{} is {} with {} over {} instances.", Where(c),
                    Ticked(CellText(*t, 0, "range")), FormatNs(CellNumber(*t, 0, "total_time_ns")),
                    FormatCount(CellNumber(*t, 0, "instances")));
  }
  Facts(c, s, Confidence::kHigh, "exact sums over the NVTX table (nsys stats nvtxsum); nested ranges overlap");
  const size_t n = std::min(TopN(c, 5), t->rows.size());
  Cite(c, "nvtx_summary", {}, *t, cols, n, fmt::format("Top {} NVTX ranges by total time{}", n, c.scope));
  for (size_t r = 0; r < n; ++r) c.turn.state.listed.push_back(CellText(*t, r, "range"));
}

void AnswerApi(Ctx& c) {
  auto t = TableOr(c, "cuda_api_summary");
  if (!t) return;
  if (t->rows.empty()) {
    Facts(c, fmt::format("No CUDA API calls{}.", Where(c)), Confidence::kHigh, "no runtime rows in scope");
    Cite(c, "cuda_api_summary", {}, *t, {"name", "num_calls"}, 0, "CUDA API calls");
    return;
  }
  if (const auto by = RankingOf(c);
      by &&
      AnswerRanked(c, *t, *by, {"cuda_api_summary", "name", "CUDA API call", kRankedApiColumns, "num_calls", "calls"}))
    return;
  Facts(c,
        fmt::format("{} CUDA API calls{} took {} of CPU time; the largest is {} with {} over {} calls.",
                    FormatCount(SumColumn(*t, "num_calls")), Where(c), FormatNs(SumColumn(*t, "total_time_ns")),
                    CellText(*t, 0, "name"), FormatNs(CellNumber(*t, 0, "total_time_ns")),
                    FormatCount(CellNumber(*t, 0, "num_calls"))),
        Confidence::kHigh, "exact sums over the runtime table (nsys stats cudaapisum)");
  const size_t n = std::min(TopN(c, 5), t->rows.size());
  Cite(c, "cuda_api_summary", {}, *t, {"name", "time_pct", "total_time_ns", "num_calls", "avg_ns", "med_ns"}, n,
       "CUDA API calls by CPU time" + c.scope);
}

void AnswerLaunch(Ctx& c) {
  auto t = TableOr(c, "cuda_api_summary");
  if (!t) return;
  const auto launches =
      KeepRows(*t, [&](size_t r) { return CellText(*t, r, "name").find("Launch") != std::string::npos; });
  if (launches.rows.empty()) {
    Facts(c, fmt::format("No kernel launch calls{}.", Where(c)), Confidence::kHigh, "no launch API rows in scope");
    Cite(c, "cuda_api_summary", {}, launches, {"name", "num_calls"}, 0, "Kernel launch calls");
    return;
  }
  const double calls = SumColumn(launches, "num_calls");
  const double total = SumColumn(launches, "total_time_ns");
  Facts(c,
        fmt::format("{} kernel launch calls{} took {} of CPU time, {} per call on average; {} has median {}.",
                    FormatCount(calls), Where(c), FormatNs(total), FormatNs(total / calls),
                    CellText(launches, 0, "name"), FormatNs(CellNumber(launches, 0, "med_ns"))),
        Confidence::kHigh, "exact sums over the launch calls of the runtime table");
  Cite(c, "cuda_api_summary", {}, launches, {"name", "total_time_ns", "num_calls", "avg_ns", "med_ns", "max_ns"}, 0,
       "Kernel launch calls" + c.scope);
}

void AnswerIterations(Ctx& c) {
  auto t = TableOr(c, "iterations");
  if (!t) return;
  if (t->rows.empty()) {
    c.turn.answer = Refuse({"No repeating iterations were found" + c.scope + ".",
                            {"an NVTX range or mark per step, or a periodic kernel pattern"},
                            Alternatives(c)});
    return;
  }
  size_t longest = 0;
  for (size_t r = 1; r < t->rows.size(); ++r) {
    if (CellNumber(*t, r, "duration_ns") > CellNumber(*t, longest, "duration_ns")) longest = r;
  }
  Facts(c,
        fmt::format("{} iterations{}; the longest is iteration {} on device {} with {} ({} kernels).",
                    FormatCount(static_cast<double>(t->rows.size())), Where(c), CellText(*t, longest, "iteration"),
                    CellText(*t, longest, "device_id"), FormatNs(CellNumber(*t, longest, "duration_ns")),
                    FormatCount(CellNumber(*t, longest, "kernels"))),
        Confidence::kMedium, "iterations are detected from NVTX names or kernel periodicity, a heuristic");
  Cite(c, "iterations", {}, *t, {"device_id", "pid", "iteration", "start_ns", "duration_ns", "kernels", "gpu_busy_pct"},
       10, "Iterations" + c.scope);
}

void AnswerSkill(Ctx& c) {
  auto t = TableOr(c, c.p.skill);
  if (!t) return;
  std::vector<std::string> cols;
  for (const auto& col : t->columns) cols.push_back(col.name);
  std::string s = fmt::format("Skill `{}` returned {} rows{}", c.p.skill,
                              FormatCount(static_cast<double>(t->rows.size())), Where(c));
  if (!t->rows.empty() && !cols.empty()) {
    // Names first (what the row is about), then the leading numbers.
    std::vector<std::string> shown;
    for (const auto& col : t->columns) {
      if (col.type == ValueType::kString && shown.size() < 2) shown.push_back(col.name);
    }
    for (const auto& col : t->columns) {
      if (col.type != ValueType::kString && shown.size() < 4) shown.push_back(col.name);
    }
    s += "; the first: ";
    for (size_t i = 0; i < shown.size(); ++i) s += (i ? ", " : "") + shown[i] + " = " + CellText(*t, 0, shown[i]);
  }
  Facts(c, s + ".", Confidence::kHigh, "the skill's own rows, unchanged");
  Cite(c, c.p.skill, {}, *t, cols, 10, "Skill " + c.p.skill + c.scope);
}

}  // namespace nsys::agent::ask_detail
