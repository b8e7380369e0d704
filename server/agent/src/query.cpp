// The Query's vocabulary (the enums' names), its bounds, and its reading in words.
#include "nsys/agent/query.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/support/name_pattern.h"
#include "nsys/support/render_text.h"

namespace nsys::agent {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace query_words {

constexpr std::array<std::string_view, 45> kMeasures = {"total",
                                                        "count",
                                                        "share",
                                                        "gpu_share",
                                                        "average",
                                                        "median",
                                                        "p90",
                                                        "p95",
                                                        "p99",
                                                        "min",
                                                        "max",
                                                        "stddev",
                                                        "bytes",
                                                        "avg_bytes",
                                                        "bandwidth",
                                                        "busy",
                                                        "utilization",
                                                        "idle_share",
                                                        "idle",
                                                        "span",
                                                        "grid",
                                                        "block",
                                                        "groups",
                                                        "min_bytes",
                                                        "max_bytes",
                                                        "latency",
                                                        "launch_delay",
                                                        "threads",
                                                        "registers",
                                                        "static_shared_memory",
                                                        "dynamic_shared_memory",
                                                        "sm_count",
                                                        "gaps",
                                                        "max_gap",
                                                        "memory",
                                                        "memory_bandwidth",
                                                        "comm_overlap",
                                                        "exposed",
                                                        "max_latency",
                                                        "max_delay",
                                                        "count_share",
                                                        "span_share",
                                                        "elapsed",
                                                        "byte_share",
                                                        "avg_gap"};
constexpr auto kEvents =
    std::to_array<std::string_view>({"kernels", "api", "memcpy", "memset", "nvtx", "gpu", "graphs", "devices"});
static_assert(kEvents.size() == kEventKinds);
constexpr std::array<std::string_view, 7> kGroupBy = {"none", "name", "device", "pid", "stream", "range", "base_name"};
constexpr std::array<std::string_view, 3> kRank = {"none", "top", "bottom"};
constexpr std::array<std::string_view, 5> kForm = {"number", "yes_no", "name", "table", "share"};
constexpr std::array<std::string_view, 5> kMemoryKinds = {"pageable", "pinned", "device", "array", "managed"};
constexpr std::array<std::string_view, 5> kMigrationCauses = {"user_prefetch", "page_fault", "speculative_prefetch",
                                                              "eviction", "access_counters"};

// How each measure reads in the reading line.
constexpr std::array<std::string_view, 45> kMeasureWords = {"total time",
                                                            "count",
                                                            "share of all time",
                                                            "share of GPU time",
                                                            "average duration",
                                                            "median duration",
                                                            "p90 duration",
                                                            "p95 duration",
                                                            "p99 duration",
                                                            "shortest duration",
                                                            "longest duration",
                                                            "standard deviation",
                                                            "bytes",
                                                            "average size",
                                                            "bandwidth",
                                                            "busy time",
                                                            "utilization (busy share of the span)",
                                                            "idle share of the span",
                                                            "idle time",
                                                            "span",
                                                            "blocks per grid",
                                                            "threads per block",
                                                            "number of distinct groups",
                                                            "smallest size",
                                                            "largest size",
                                                            "launch latency",
                                                            "launch delay (from the launch call's end)",
                                                            "threads in the launch (blocks x threads per block)",
                                                            "registers per thread",
                                                            "static shared memory per block",
                                                            "dynamic shared memory per block",
                                                            "SMs of its GPU",
                                                            "number of idle gaps",
                                                            "longest idle gap",
                                                            "memory",
                                                            "peak memory bandwidth",
                                                            "share of the communication time compute overlaps (HTA)",
                                                            "exposed communication time (HTA)",
                                                            "longest launch latency",
                                                            "longest launch delay (from the launch call's end)",
                                                            "share of the count",
                                                            "share of the GPU span",
                                                            "time between the two moments",
                                                            "share of all bytes",
                                                            "average idle gap"};

std::string EventWords(const Subject& s) {
  switch (s.events) {
    case EventKind::kKernels:
      return "kernels";
    case EventKind::kApi:
      return "CUDA API calls";
    case EventKind::kMemcpy:
      return s.copy_kind.empty() || s.copy_kind == "any" ? "memory copies" : s.copy_kind + " copies";
    case EventKind::kMemset:
      return "memsets";
    case EventKind::kNvtx:
      return "NVTX ranges";
    case EventKind::kGpu:
      return "GPU work (kernels, copies and memsets)";
    case EventKind::kGraphs:
      return "CUDA graph launches";
    case EventKind::kDevices:
      return "the GPUs the export lists";
  }
  return "events";
}

std::string List(const std::vector<std::string>& parts, const char* last_join) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? last_join : ", ";
    out += parts[i];
  }
  return out;
}

// "2nd", "3rd", "11th", "21st".
std::string Ordinal(int32_t n) {
  const int32_t tens = n % 100, ones = n % 10;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return fmt::format("{}{}", n, suffix);
}

// One event by start time: "the first", "the 2nd", "the last to start", "the 2nd to last to start".
// "leaving out the first to start", "leaving out the last 3 to start".
std::string SkipWords(int32_t skip) {
  const int32_t n = skip > 0 ? skip : -skip;
  return fmt::format("leaving out the {}{} to start", skip > 0 ? "first" : "last", n == 1 ? "" : fmt::format(" {}", n));
}

std::string NthWords(int32_t nth) {
  if (nth == 1) return "the first to start";
  if (nth > 0) return "the " + Ordinal(nth) + " to start";
  return nth == -1 ? "the last to start" : "the " + Ordinal(-nth) + " to last to start";
}

// A name's '|' alternatives in words: "`a` or `b`".
std::string AlternativesInWords(const std::string& pattern) {
  std::vector<std::string> parts;
  for (size_t from = 0; from <= pattern.size();) {
    const size_t bar = std::min(pattern.find('|', from), pattern.size());
    parts.push_back(support::MarkdownCode(pattern.substr(from, bar - from)));
    from = bar + 1;
  }
  return List(parts, " or ");
}

// `summed`: names listed are said to be summed (not when each is a group of its own).
std::string SubjectWords(const Subject& s, bool summed = true) {
  std::string out = EventWords(s);
  if (s.events == EventKind::kApi && !s.api_class.empty()) out = fmt::format("CUDA API calls of class {}", s.api_class);
  if (s.name.find('|') != std::string::npos) {  // names summed: "whose name contains `a` or `b`"
    out += " whose name contains " + AlternativesInWords(s.name) + (summed ? " (summed)" : "");
  } else if (!s.name.empty()) {
    // A whole name is the one thing it names: "CUDA API calls named `cudaMalloc`" (not cudaMallocManaged).
    const char* how = IsNamePattern(s.name) ? " whose name matches "
                      : s.whole_name        ? " named "
                                            : " whose name contains ";
    out += how + support::MarkdownCode(s.name);
  }
  if (!s.memory.empty()) out += fmt::format(" to or from {} host memory", s.memory);
  // "Unified DtoH copies migrated on page faults", "... by speculative prefetch".
  static constexpr std::pair<std::string_view, std::string_view> kCauseWords[] = {
      {"user_prefetch", "by user prefetch"},
      {"page_fault", "on page faults"},
      {"speculative_prefetch", "by speculative prefetch"},
      {"eviction", "on eviction"},
      {"access_counters", "by access counters"}};
  for (const auto& [cause, words] : kCauseWords) {
    if (s.cause == cause) out += fmt::format(" migrated {}", words);
  }
  if (!s.family.empty()) out += fmt::format(" of the {} family", support::MarkdownCode(s.family));
  // "except those whose name contains `nccl` or `gemm`"
  if (!s.except.empty()) out += " except those whose name contains " + AlternativesInWords(s.except);
  if (s.nth != 0) out = fmt::format("{} of the {}", NthWords(s.nth), out);
  if (s.skip != 0) out += ", " + SkipWords(s.skip);
  return out;
}

// "the start of the 2nd of the NVTX ranges named `Model`", "the end of the kernels whose name contains `sample`".
std::string AnchorWords(const Anchor& a) {
  const bool one = a.events.nth != 0;
  return fmt::format(
      "{} {}{}", a.at_end ? (one ? "the end of" : "the last end of") : (one ? "the start of" : "the first start of"),
      one ? "" : "the ", SubjectWords(a.events));
}

template <typename T>
std::string Ids(const char* what, const std::vector<T>& ids) {
  std::vector<std::string> parts;
  for (T id : ids) parts.push_back(fmt::format("{}", id));
  return fmt::format("{} {}", what, List(parts, " and "));
}

// `on_gpu`: the events run on GPUs, so "all GPUs" is said when no device is named.
std::string ScopeWords(const Scope& s, bool on_gpu) {
  std::vector<std::string> parts;
  if (!s.inside.empty()) parts.push_back("inside NVTX ranges named like " + support::MarkdownCode(s.inside));
  if (!s.outside.empty()) parts.push_back("outside NVTX ranges named like " + support::MarkdownCode(s.outside));
  if (!s.devices.empty() || on_gpu)
    parts.push_back(s.devices.empty() ? "all GPUs"
                                      : Ids(s.devices.size() == 1 ? "on device" : "on devices", s.devices));
  if (!s.pids.empty()) parts.push_back(Ids(s.pids.size() == 1 ? "in process" : "in processes", s.pids));
  if (s.stream >= 0) parts.push_back(fmt::format("on stream {}", s.stream));
  if (s.longer_than_ns >= 0) parts.push_back(fmt::format("each longer than {} ns", s.longer_than_ns));
  if (s.shorter_than_ns >= 0) parts.push_back(fmt::format("each shorter than {} ns", s.shorter_than_ns));
  if (s.larger_than_bytes >= 0) parts.push_back(fmt::format("each larger than {} bytes", s.larger_than_bytes));
  if (s.smaller_than_bytes >= 0) parts.push_back(fmt::format("each smaller than {} bytes", s.smaller_than_bytes));
  if (s.grid_below_sms) parts.push_back("each with fewer blocks than its GPU has SMs");
  if (s.gap_longer_than_ns >= 0)
    parts.push_back(fmt::format("counting the idle gaps longer than {} ns", s.gap_longer_than_ns));
  if (s.gap_shorter_than_ns >= 0)
    parts.push_back(fmt::format("counting the idle gaps shorter than {} ns", s.gap_shorter_than_ns));
  if (!s.launched_by.empty()) parts.push_back("launched by " + support::MarkdownCode(s.launched_by) + " calls");
  if (!s.launches.empty())
    parts.push_back("that launched kernels whose name contains " + support::MarkdownCode(s.launches));
  const std::string origin = s.origin              ? AnchorWords(*s.origin)
                             : s.from_first_kernel ? "the first kernel's start"
                             : s.capture_clock     ? "the session start (on the capture clock)"
                                                   : "the profile start";
  const bool over_one = s.origin && s.until && s.origin->events == s.until->events && s.origin->events.nth != 0 &&
                        !s.origin->at_end && s.until->at_end && !s.from_s;
  if (over_one) {  // "while the second Model range was open"
    parts.push_back(fmt::format("while {} was open (from its start to its end)", SubjectWords(s.origin->events)));
  } else if (s.until) {
    parts.push_back(fmt::format("starting from {} to {}",
                                s.from_s ? fmt::format("{:.3f} s after {}", *s.from_s, origin) : origin,
                                AnchorWords(*s.until)));
  } else if (s.from_s || s.to_s) {
    parts.push_back(s.to_s ? fmt::format("between {:.3f} s and {:.3f} s from {}", s.from_s.value_or(0), *s.to_s, origin)
                           : fmt::format("from {:.3f} s after {} to the profile's end", s.from_s.value_or(0), origin));
  } else if (s.origin) {
    parts.push_back(fmt::format("starting from {} to the profile's end", origin));
  }
  return parts.empty() ? "the whole profile" : List(parts, ", ");
}

bool OnGpu(EventKind e) {
  return e == EventKind::kKernels || e == EventKind::kMemcpy || e == EventKind::kMemset || e == EventKind::kGpu ||
         e == EventKind::kGraphs;
}

std::string ThresholdWords(Measure m, double v) {
  switch (DimensionOf(m)) {
    case Dimension::kPercent:
      return fmt::format("{:g}%", v);
    case Dimension::kNumber:
      return fmt::format("{:g}", v);
    case Dimension::kBytes:
      return fmt::format("{:g} bytes", v);
    case Dimension::kRate:
      return fmt::format("{:g} GB/s", v);
    case Dimension::kTime:
      break;
  }
  // A time, in the unit a person would say it in: "500 ms", not "5e+08 ns".
  const double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:g} s", v / 1e9);
  if (a >= 1e6) return fmt::format("{:g} ms", v / 1e6);
  if (a >= 1e3) return fmt::format("{:g} µs", v / 1e3);
  return fmt::format("{:g} ns", v);
}

}  // namespace query_words

bool IsCommMeasure(Measure m) {
  return m == Measure::kCommOverlap || m == Measure::kExposed;
}

bool IsTimelineMeasure(Measure m) {
  return m == Measure::kBusy || m == Measure::kUtilization || m == Measure::kIdle || m == Measure::kIdleShare ||
         m == Measure::kGaps || m == Measure::kMaxGap || m == Measure::kAvgGap || m == Measure::kSpan ||
         m == Measure::kSpanShare;
}

bool IsGapMeasure(Measure m) {
  return m == Measure::kGaps || m == Measure::kMaxGap || m == Measure::kAvgGap;
}

bool IsPlace(GroupBy g) {
  return g == GroupBy::kDevice || g == GroupBy::kPid || g == GroupBy::kStream;
}

bool IsShareOfTheKind(Measure m) {
  return m == Measure::kShare || m == Measure::kCountShare || m == Measure::kGpuShare || m == Measure::kByteShare;
}

bool SelectsEveryOne(const Subject& s) {
  return s.name.empty() && s.copy_kind.empty() && s.api_class.empty() && s.memory.empty() && s.family.empty() &&
         s.nth == 0 && s.skip == 0 && s.except.empty() && s.cause.empty();
}

bool ShareOfProfile(const Query& q) {
  const bool share = std::any_of(q.measures.begin(), q.measures.end(), IsShareOfTheKind);
  const Scope& w = q.scope;
  const bool every_one = SelectsEveryOne(q.subject);
  const bool selected_only_by_place = w.inside.empty() && w.outside.empty() && w.longer_than_ns < 0 &&
                                      w.shorter_than_ns < 0 && w.larger_than_bytes < 0 && w.smaller_than_bytes < 0 &&
                                      !w.grid_below_sms && w.launched_by.empty() && w.launches.empty();
  const bool placed = !w.devices.empty() || !w.pids.empty() || w.stream >= 0 || w.from_s || w.to_s || w.origin ||
                      w.until || w.from_first_kernel;
  return share && every_one && selected_only_by_place && placed && q.group_by == GroupBy::kNone && !q.versus_subject &&
         !q.versus_scope && q.form != Form::kShare;
}

bool AddsUp(Measure m) {
  return m == Measure::kTotal || m == Measure::kCount || m == Measure::kBytes || m == Measure::kBusy;
}

bool IsLaunchConfiguration(Measure m) {
  return m == Measure::kGrid || m == Measure::kBlock || m == Measure::kThreads || m == Measure::kRegisters ||
         m == Measure::kStaticShared || m == Measure::kDynamicShared || m == Measure::kSmCount;
}

Dimension DimensionOf(Measure m) {
  switch (m) {
    case Measure::kCount:
    case Measure::kGroups:
    case Measure::kGaps:
    case Measure::kGrid:
    case Measure::kBlock:
    case Measure::kThreads:
    case Measure::kRegisters:
    case Measure::kSmCount:
      return Dimension::kNumber;
    case Measure::kBytes:
    case Measure::kAvgBytes:
    case Measure::kMinBytes:
    case Measure::kMaxBytes:
    case Measure::kStaticShared:
    case Measure::kDynamicShared:
    case Measure::kMemory:
      return Dimension::kBytes;
    case Measure::kShare:
    case Measure::kGpuShare:
    case Measure::kUtilization:
    case Measure::kIdleShare:
    case Measure::kCommOverlap:
    case Measure::kCountShare:
    case Measure::kSpanShare:
    case Measure::kByteShare:
      return Dimension::kPercent;
    case Measure::kBandwidth:
    case Measure::kMemoryBandwidth:
      return Dimension::kRate;
    default:
      return Dimension::kTime;
  }
}

std::span<const std::string_view> MeasureNames() {
  using namespace query_words;  // this file's own helpers
  return kMeasures;
}
std::span<const std::string_view> EventKindNames() {
  using namespace query_words;  // this file's own helpers
  return kEvents;
}
std::span<const std::string_view> GroupByNames() {
  using namespace query_words;  // this file's own helpers
  return kGroupBy;
}
std::span<const std::string_view> RankNames() {
  using namespace query_words;  // this file's own helpers
  return kRank;
}
std::span<const std::string_view> FormNames() {
  using namespace query_words;  // this file's own helpers
  return kForm;
}
std::span<const std::string_view> MigrationCauseNames() {
  using namespace query_words;  // this file's own helpers
  return kMigrationCauses;
}

std::span<const std::string_view> MemoryKindNames() {
  using namespace query_words;  // this file's own helpers
  return kMemoryKinds;
}

std::optional<size_t> IndexOfName(std::span<const std::string_view> names, std::string_view name) {
  using namespace query_words;  // this file's own helpers
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  return std::nullopt;
}

namespace query_words {

// What is wrong with a subject's own fields (the Query's, its versus side's, a moment's), or "".
std::string SubjectProblem(const Subject& s) {
  static constexpr std::string_view kClasses[] = {"",      "sync",   "alloc",  "free",  "module",
                                                  "setup", "launch", "memcpy", "memset"};
  if (s.name.size() > 512 || s.copy_kind.size() > 32) return "a name of at most 512 bytes.";
  if (!s.memory.empty() && !IndexOfName(kMemoryKinds, s.memory))
    return "a host memory kind is one of pageable, pinned, device, array, managed.";
  if (!s.cause.empty() && !IndexOfName(kMigrationCauses, s.cause))
    return "a migration cause is one of user_prefetch, page_fault, speculative_prefetch, eviction, access_counters.";
  if (!s.cause.empty() && s.events != EventKind::kMemcpy) return "a migration cause is of copies (events memcpy).";
  if (s.family.size() > 64) return "a family of at most 64 bytes.";
  if (!s.family.empty() && s.events != EventKind::kKernels) return "a family is of kernels.";
  if (s.nth < -1000000 || s.nth > 1000000) return "nth between -1e6 and 1e6.";
  if (s.nth != 0 && s.events == EventKind::kDevices) return "nth picks one event, not a GPU.";
  if (s.skip < -1000000 || s.skip > 1000000) return "skip between -1e6 and 1e6.";
  if (s.skip != 0 && s.events == EventKind::kDevices) return "skip leaves out events, not GPUs.";
  if (s.skip != 0 && s.nth != 0) return "nth picks one event and skip leaves some out: one of them.";
  if (s.except.size() > 512) return "a name left out of at most 512 bytes.";
  if (!s.except.empty() && s.events != EventKind::kKernels && s.events != EventKind::kApi &&
      s.events != EventKind::kNvtx)
    return "except leaves out kernels, API calls or NVTX ranges by name.";
  if (std::find(std::begin(kClasses), std::end(kClasses), s.api_class) == std::end(kClasses))
    return "an API class is one of sync, alloc, free, module, setup, launch, memcpy, memset.";
  return "";
}

// What is wrong with one of a Query's scopes, or "".
std::string ScopeProblem(const Query& q, const Scope& s) {
  if (s.devices.size() > 16 || s.pids.size() > 16) return "at most 16 devices and 16 processes.";
  if (s.inside.size() > 512 || s.outside.size() > 512 || s.launched_by.size() > 512 || s.launches.size() > 512)
    return "an NVTX range or launch name of at most 512 bytes.";
  if ((s.from_s && !std::isfinite(*s.from_s)) || (s.to_s && !std::isfinite(*s.to_s)))
    return "a window's bounds must be finite numbers of seconds.";
  if (s.from_s && s.to_s && !(*s.from_s < *s.to_s)) return "a window needs from_s < to_s.";
  if (s.from_first_kernel && !s.from_s && !s.to_s)
    return "fromFirstKernel says where a window counts from: give fromSeconds or toSeconds.";
  if (s.from_first_kernel && s.origin) return "a window counts from one origin: fromFirstKernel or origin.";
  if (s.capture_clock && !s.from_s && !s.to_s)
    return "captureClock says which clock a window's seconds are on: give fromSeconds or toSeconds.";
  if (s.capture_clock && (s.from_first_kernel || s.origin || s.until))
    return "captureClock counts from the session start: not with fromFirstKernel, origin or until.";
  if (s.until && s.to_s) return "a window ends at toSeconds or at until, not both.";
  const bool gap_measures = std::all_of(q.measures.begin(), q.measures.end(), IsGapMeasure);
  if ((s.gap_longer_than_ns >= 0 || s.gap_shorter_than_ns >= 0) && !gap_measures)
    return "gapLongerThanNs and gapShorterThanNs bound the gaps the measures gaps, max_gap and avg_gap count: ask only "
           "those.";
  if (s.until && s.from_s && !s.origin && !s.from_first_kernel)
    return "fromSeconds with until counts from an origin: give origin.";
  for (const Anchor* a : {s.origin ? &*s.origin : nullptr, s.until ? &*s.until : nullptr}) {
    if (a && a->events.events == EventKind::kDevices) return "an origin or until is of events, not of the GPUs.";
    if (const std::string why = a ? SubjectProblem(a->events) : ""; !why.empty()) return why;
  }
  if (s.grid_below_sms && q.subject.events != EventKind::kKernels)
    return "gridBelowSms bounds kernel launches: the subject's events are kernels.";
  const bool versus = q.versus_scope && &s == &*q.versus_scope;
  const EventKind e = versus && q.versus_subject ? q.versus_subject->events : q.subject.events;
  const bool gpu_work =
      e == EventKind::kKernels || e == EventKind::kMemcpy || e == EventKind::kMemset || e == EventKind::kGpu;
  if (!s.launched_by.empty() && !gpu_work)
    return "launchedBy selects GPU work by the call that launched it: events kernels, memcpy, memset or gpu.";
  if (!s.launches.empty() && e != EventKind::kApi)
    return "launches selects CUDA API calls by the kernels they launched: events api.";
  return "";
}

// Communication against compute: nccl_breakdown's rows per GPU, with their count, time and busy time beside; "" when
// the Query asks it right or does not ask it.
std::string CommProblem(const Query& q) {
  if (std::none_of(q.measures.begin(), q.measures.end(), IsCommMeasure)) return "";
  const bool of_comm = std::all_of(q.measures.begin(), q.measures.end(), [](Measure m) {
    return IsCommMeasure(m) || m == Measure::kTotal || m == Measure::kCount || m == Measure::kBusy;
  });
  if (!of_comm || q.subject.events != EventKind::kKernels)
    return "comm_overlap and exposed are of communication kernels (events kernels), beside total, count and busy.";
  if ((q.group_by != GroupBy::kNone && q.group_by != GroupBy::kDevice) || q.versus_subject || q.versus_scope ||
      q.versus_measure || q.form == Form::kYesNo || q.rank != Rank::kNone || !q.scope.inside.empty() ||
      !q.scope.outside.empty() || !q.subject.except.empty() || q.scope.stream >= 0)
    return "comm_overlap and exposed are answered per GPU, not ranked, compared or scoped by range or stream.";
  return "";
}

}  // namespace query_words

Status CheckQuery(const Query& q) {
  using namespace query_words;  // this file's own helpers
  const auto bad = [](std::string why) { return MakeError(ErrorKind::kInvalidArgument, "Query: " + why); };
  if (q.measures.empty()) return bad("at least one measure is needed.");
  if (q.measures.size() > 8) return bad("at most 8 measures.");
  for (const Scope* s : {&q.scope, q.versus_scope ? &*q.versus_scope : nullptr}) {
    if (const std::string why = s ? ScopeProblem(q, *s) : ""; !why.empty()) return bad(why);
  }
  for (const Subject* s : {&q.subject, q.versus_subject ? &*q.versus_subject : nullptr}) {
    if (const std::string why = s ? SubjectProblem(*s) : ""; !why.empty()) return bad(why);
    if (s && (s->nth != 0 || s->skip != 0) &&
        (IsLaunchConfiguration(q.measures.front()) || IsCommMeasure(q.measures.front())))
      return bad(
          "nth and skip select events of event_stats' measures, not of a launch configuration or communication.");
  }
  if (std::find(q.measures.begin(), q.measures.end(), Measure::kElapsed) != q.measures.end()) {
    if (q.measures.size() != 1) return bad("elapsed is asked alone: the time between two moments.");
    if (!q.scope.origin || !q.scope.until)
      return bad("elapsed is the time from scope.origin to scope.until: give both.");
    if (q.group_by != GroupBy::kNone || q.rank != Rank::kNone || q.versus_subject || q.versus_scope ||
        q.versus_measure || q.form == Form::kYesNo)
      return bad("elapsed is one figure: not grouped, ranked or compared.");
  }
  if (q.limit < 0 || q.limit > 100) return bad("limit between 0 and 100.");
  if (q.offset < 0 || q.offset > 100) return bad("offset between 0 and 100.");
  if (q.offset > 0 && q.rank == Rank::kNone) return bad("an offset with a ranking (rank) only.");
  if (q.threshold && !std::isfinite(*q.threshold)) return bad("a threshold is a finite number.");
  if (q.factor && (!std::isfinite(*q.factor) || *q.factor <= 0 || *q.factor > 1e6))
    return bad("a factor is a number above 0, at most 1e6.");
  if (q.factor && (q.form != Form::kYesNo || (!q.versus_subject && !q.versus_scope)))
    return bad("a factor is of a yes/no comparison of two sides.");
  // The GPUs the export lists: how many, and each one's SMs, memory and peak memory bandwidth; nothing else of them.
  const bool devices = q.subject.events == EventKind::kDevices;
  for (Measure m : q.measures) {
    const bool of_devices =
        m == Measure::kCount || m == Measure::kSmCount || m == Measure::kMemory || m == Measure::kMemoryBandwidth;
    if (devices && !of_devices)
      return bad(
          "of the GPUs the export lists (events: devices), a Query asks count, sm_count, memory or "
          "memory_bandwidth.");
    if (!devices && (m == Measure::kMemory || m == Measure::kMemoryBandwidth))
      return bad("memory and memory_bandwidth are of the GPUs the export lists: events devices.");
  }
  if (devices && (q.group_by != GroupBy::kNone || q.versus_subject || q.versus_scope || q.versus_measure ||
                  q.form == Form::kYesNo)) {
    return bad("the GPUs the export lists are listed, not grouped, ranked or compared.");
  }
  if (const std::string why = CommProblem(q); !why.empty()) return bad(why);
  if (q.versus_measure) {
    const Measure v = *q.versus_measure;
    if (q.measures.empty() || q.measures.front() == v ||
        std::find(q.measures.begin(), q.measures.end(), v) == q.measures.end())
      return bad("a versus measure is one of the measures, not the first.");
    if (IsLaunchConfiguration(v) != IsLaunchConfiguration(q.measures.front()))
      return bad("a versus measure is of a launch configuration when the first measure is, and only then.");
    if (q.versus_subject || q.versus_scope) return bad("a versus measure compares within one side: no versus side.");
  }
  if (q.form == Form::kShare) {
    if (!q.versus_subject && !q.versus_scope) return bad("a share form needs a versus side to be a share of.");
    if (!AddsUp(q.measures.front()))
      return bad("a share form is of a measure that adds up: total, count, bytes or busy.");
  }
  if (q.form == Form::kYesNo && !q.versus_subject && !q.versus_scope && !q.threshold && !q.versus_measure)
    return bad(
        "a yes/no answer needs something to compare with (versus_subject, versus_scope, versus_measure or "
        "threshold).");
  return {};
}

std::string DescribeAnchor(const Anchor& a) {
  using namespace query_words;  // this file's own helpers
  return AnchorWords(a);
}

std::string DescribeQuery(const Query& q) {
  using namespace query_words;  // this file's own helpers
  if (q.measures.size() == 1 && q.measures[0] == Measure::kElapsed && q.scope.origin && q.scope.until)
    return fmt::format("time from {} to {}", AnchorWords(*q.scope.origin), AnchorWords(*q.scope.until));
  std::vector<std::string> measures;
  for (Measure m : q.measures) measures.push_back(std::string(kMeasureWords[static_cast<size_t>(m)]));
  const bool on_gpu = OnGpu(q.subject.events);
  const bool each = q.group_by == GroupBy::kName || q.group_by == GroupBy::kBaseName;
  std::string out =
      List(measures, " and ") + " of " + SubjectWords(q.subject, !each) + ", " + ScopeWords(q.scope, on_gpu);
  if (q.group_by != GroupBy::kNone) {
    constexpr std::array<std::string_view, 7> by = {
        "", "name", "GPU", "process", "stream", "enclosing NVTX range", "base name"};
    out += fmt::format(", per {}", by[static_cast<size_t>(q.group_by)]);
    if (q.share_within_group) out += fmt::format(" (each share of that {}'s own)", by[static_cast<size_t>(q.group_by)]);
    if (q.rank != Rank::kNone && q.offset > 0 && q.limit <= 1) {
      out += fmt::format(", the {} from the {} by {}", Ordinal(q.offset + 1), q.rank == Rank::kTop ? "top" : "bottom",
                         measures.front());
    } else if (q.rank != Rank::kNone) {
      out += fmt::format(", the {} {} by {}", q.rank == Rank::kTop ? "top" : "bottom", std::max(1, q.limit),
                         measures.front());
      if (q.offset > 0) out += fmt::format(" after the first {}", q.offset);
    }
  }
  if (ShareOfProfile(q)) out += fmt::format(" (the share is of all the profile's {})", EventWords(q.subject));
  if (q.versus_subject) out += ", against " + SubjectWords(*q.versus_subject);
  if (q.versus_scope) out += ", against " + ScopeWords(*q.versus_scope, on_gpu);
  const std::string versus_measure =
      q.versus_measure ? std::string(kMeasureWords[static_cast<size_t>(*q.versus_measure)]) : "";
  if (q.versus_measure && q.form == Form::kYesNo) {
    out += fmt::format(" (yes if {} {} {})", measures.front(), q.yes_if_less ? "is below" : "is above", versus_measure);
  } else if (q.versus_measure) {
    out += fmt::format(", {} against {}", measures.front(), versus_measure);
  } else if (q.form == Form::kYesNo && q.threshold && !q.versus_subject && !q.versus_scope) {
    out += fmt::format(" (yes if {} {} {})", measures.front(), q.yes_if_less ? "is below" : "is above",
                       ThresholdWords(q.measures.front(), *q.threshold));
  } else if (q.form == Form::kYesNo && q.factor) {
    out += fmt::format(" (yes if the first is {} {:g} times the second)", q.yes_if_less ? "less than" : "more than",
                       *q.factor);
  } else if (q.form == Form::kYesNo) {
    out += q.yes_if_less ? " (yes if the first is smaller)" : " (yes if the first is larger)";
  } else if (q.form == Form::kShare) {
    out += fmt::format(" (the first's {} as a percentage of the second's)", measures.front());
  }
  return out;
}

std::string DescribeNth(int32_t nth) {
  return query_words::NthWords(nth);
}

}  // namespace nsys::agent
