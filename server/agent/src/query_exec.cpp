// The executor of Queries: one skill call per side of a Query, the rows it asks for, their cells in words.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ask_internal.h"
#include "nsys/agent/answer.h"
#include "nsys/agent/query.h"
#include "nsys/agent/query_answer.h"
#include "nsys/support/name_pattern.h"
#include "nsys/support/render_text.h"
#include "text_case.h"

namespace nsys::agent {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace query_exec {

using ask_detail::CellNumber;
using ask_detail::CellText;
using ask_detail::ColumnIndex;
using ask_detail::FormatBytes;
using ask_detail::FormatCount;
using ask_detail::FormatNs;
using ask_detail::FormatPct;

// The column of event_stats (launch_sizes for a launch configuration's) that holds each measure, in Measure's order.
constexpr std::array<std::string_view, 45> kColumn = {"total_ns",
                                                      "count",
                                                      "share_pct",
                                                      "gpu_share_pct",
                                                      "avg_ns",
                                                      "med_ns",
                                                      "p90_ns",
                                                      "p95_ns",
                                                      "p99_ns",
                                                      "min_ns",
                                                      "max_ns",
                                                      "stddev_ns",
                                                      "bytes",
                                                      "avg_bytes",
                                                      "gb_per_s",
                                                      "busy_ns",
                                                      "busy_pct",
                                                      "idle_pct",
                                                      "idle_ns",
                                                      "span_ns",
                                                      "blocks",
                                                      "threads_per_block",
                                                      "",
                                                      "min_bytes",
                                                      "max_bytes",
                                                      "avg_latency_ns",
                                                      "avg_delay_ns",
                                                      "threads",
                                                      "registers_per_thread",
                                                      "static_shared_bytes",
                                                      "dynamic_shared_bytes",
                                                      "sm_count",
                                                      "gaps",
                                                      "max_gap_ns",
                                                      "memory_bytes",
                                                      "memory_bandwidth_gb_per_s",
                                                      "overlap_pct",
                                                      "exposed_ns",
                                                      "max_latency_ns",
                                                      "max_delay_ns",
                                                      "count_share_pct",
                                                      "gpu_span_share_pct",
                                                      "",
                                                      "bytes_share_pct",
                                                      "avg_gap_ns"};
constexpr std::array<std::string_view, 45> kWords = {"total time",
                                                     "count",
                                                     "share",
                                                     "share of GPU time",
                                                     "average",
                                                     "median",
                                                     "p90",
                                                     "p95",
                                                     "p99",
                                                     "shortest",
                                                     "longest",
                                                     "standard deviation",
                                                     "bytes",
                                                     "average size",
                                                     "bandwidth",
                                                     "busy time",
                                                     "utilization",
                                                     "idle share of the span",
                                                     "idle time",
                                                     "span",
                                                     "blocks per grid",
                                                     "threads per block",
                                                     "groups",
                                                     "smallest",
                                                     "largest",
                                                     "launch latency",
                                                     "launch delay",
                                                     "threads in the launch",
                                                     "registers per thread",
                                                     "static shared memory per block",
                                                     "dynamic shared memory per block",
                                                     "SMs on its GPU",
                                                     "idle gaps",
                                                     "longest idle gap",
                                                     "memory",
                                                     "peak memory bandwidth",
                                                     "of it overlapped by compute kernels",
                                                     "exposed",
                                                     "longest launch latency",
                                                     "longest launch delay",
                                                     "share of the count",
                                                     "share of the GPU span",
                                                     "time between the two moments",
                                                     "share of the bytes",
                                                     "average idle gap"};

std::string_view ColumnOf(Measure m) {
  return kColumn[static_cast<size_t>(m)];
}

std::optional<double> NumberOf(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return std::nullopt;
}

std::string FormatMeasure(Measure m, const Value& v) {
  const std::optional<double> x = NumberOf(v);
  if (!x) return "none";
  if (IsLaunchConfiguration(m)) {
    if (DimensionOf(m) == Dimension::kBytes) return FormatBytes(*x);  // shared memory per block
    return fmt::format("{:.0f}", *x);  // launch dimensions as CUDA writes them: 8191, not 8,191
  }
  switch (DimensionOf(m)) {
    case Dimension::kNumber:
      return FormatCount(*x);
    case Dimension::kPercent:
      return FormatPct(*x);
    case Dimension::kBytes:
      return FormatBytes(*x);
    case Dimension::kRate:  // a GPU's peak memory bandwidth as the export gives it; a copy's to the hundredth
      return m == Measure::kMemoryBandwidth ? fmt::format("{:.1f} GB/s", *x) : fmt::format("{:.2f} GB/s", *x);
    case Dimension::kTime:
      break;
  }
  return FormatNs(*x);
}

// What the events are called in a sentence: "kernels", "calls", "copies", "memsets", "ranges".
std::string_view Noun(EventKind e) {
  constexpr auto nouns = std::to_array<std::string_view>(
      {"kernels", "calls", "copies", "memsets", "ranges", "GPU operations", "CUDA graph launches", "GPUs"});
  static_assert(nouns.size() == kEventKinds);
  return nouns[static_cast<size_t>(e)];
}
// The time every share is of: "kernel time", "API time", ...
std::string_view TimeOf(EventKind e) {
  constexpr auto of = std::to_array<std::string_view>({"kernel time", "CUDA API time", "copy time", "memset time",
                                                       "NVTX range time", "GPU time", "CUDA graph time", "GPU time"});
  static_assert(of.size() == kEventKinds);
  return of[static_cast<size_t>(e)];
}

// "cudaMalloc", "cuLaunchKernel": a CUDA runtime or driver call named in full, which names that call and no other
// ("cudaMalloc" is not "cudaMallocManaged"). A fragment ("Memcpy") names every call that contains it.
bool IsApiIdentifier(std::string_view name) {
  const size_t after = name.substr(0, 4) == "cuda" ? 4 : name.substr(0, 2) == "cu" ? 2 : std::string_view::npos;
  return after != std::string_view::npos && name.size() > after &&
         std::isupper(static_cast<unsigned char>(name[after]));
}

engine::FilterSpec FilterOf(const Scope& s) {
  engine::FilterSpec f;
  f.devices = s.devices;
  f.processes = s.pids;
  f.window.clock = engine::WindowSpec::Clock::kRelativeSeconds;
  f.window.start = s.from_s;
  f.window.end = s.to_s;
  if (s.capture_clock) {  // the export's own nanoseconds, from the session start
    f.window.clock = engine::WindowSpec::Clock::kCaptureNs;
    if (s.from_s) f.window.start = *s.from_s * 1e9;
    if (s.to_s) f.window.end = *s.to_s * 1e9;
  }
  return f;
}

// "Percent of kernel time in NCCL kernels, per GPU": a share asked of each GPU, process or stream is of that place's
// own events of the kind (event_stats' share_within_group), not of every one in the profile.
bool ShareWithinPlaces(const Query& q) {
  return q.share_within_group && IsPlace(q.group_by) &&
         std::find(q.measures.begin(), q.measures.end(), Measure::kShare) != q.measures.end();
}

SkillCall CallOf(const Query& q, const Subject& subject, const Scope& scope) {
  // Every configuration (limit 0): a kernel's may lie outside the 20 with the most time, and a ranking by blocks or
  // threads looks at all of them.
  if (IsLaunchConfiguration(q.measures.front())) {
    skills::Args args{{"limit", Value(int64_t{0})}};
    if (!subject.family.empty()) args["family"] = Value(subject.family);
    return SkillCall{"launch_sizes", std::move(args), FilterOf(scope)};
  }
  skills::Args args;
  args["events"] = Value(std::string(EventKindNames()[static_cast<size_t>(subject.events)]));
  if (!subject.name.empty() && subject.events != EventKind::kMemcpy) args["name"] = Value(subject.name);
  if (subject.whole_name || (subject.events == EventKind::kApi && IsApiIdentifier(subject.name)))
    args["whole_name"] = Value(true);
  if (subject.events == EventKind::kMemcpy && !subject.copy_kind.empty()) args["copy_kind"] = Value(subject.copy_kind);
  if (subject.events == EventKind::kKernels && !subject.family.empty()) args["family"] = Value(subject.family);
  if (subject.nth != 0) args["nth"] = Value(int64_t{subject.nth});
  if (subject.skip != 0) args["skip"] = Value(int64_t{subject.skip});
  if (ShareWithinPlaces(q)) args["share_within_group"] = Value(true);
  if (ShareOfProfile(q)) args["share_of_profile"] = Value(true);
  if (!scope.inside.empty()) args["inside"] = Value(scope.inside);
  if (!scope.outside.empty()) args["outside"] = Value(scope.outside);
  if (!subject.except.empty()) args["except"] = Value(subject.except);
  if (q.group_by != GroupBy::kNone)
    args["group_by"] = Value(std::string(GroupByNames()[static_cast<size_t>(q.group_by)]));
  if (scope.stream >= 0) args["stream"] = Value(int64_t{scope.stream});
  if (subject.events == EventKind::kApi && !subject.api_class.empty()) args["api_class"] = Value(subject.api_class);
  const bool sized = subject.events == EventKind::kMemcpy || subject.events == EventKind::kMemset;
  if (sized && !subject.memory.empty()) args["memory"] = Value(subject.memory);
  if (!subject.cause.empty()) args["cause"] = Value(subject.cause);
  const std::pair<const char*, int64_t> bounds[] = {
      {"longer_than_ns", scope.longer_than_ns},         {"shorter_than_ns", scope.shorter_than_ns},
      {"larger_than_bytes", scope.larger_than_bytes},   {"smaller_than_bytes", scope.smaller_than_bytes},
      {"gap_longer_than_ns", scope.gap_longer_than_ns}, {"gap_shorter_than_ns", scope.gap_shorter_than_ns}};
  for (const auto& [arg, bound] : bounds) {
    if (bound >= 0) args[arg] = Value(bound);
  }
  if (scope.grid_below_sms) args["grid_below_sms"] = Value(true);
  if (!scope.launched_by.empty()) args["launched_by"] = Value(scope.launched_by);
  if (!scope.launches.empty()) args["launches"] = Value(scope.launches);
  if (std::find(q.measures.begin(), q.measures.end(), Measure::kGpuShare) != q.measures.end() ||
      std::find(q.measures.begin(), q.measures.end(), Measure::kSpanShare) != q.measures.end())
    args["gpu_share"] = Value(true);
  if (std::any_of(q.measures.begin(), q.measures.end(), [](Measure m) {
        return m == Measure::kLatency || m == Measure::kLaunchDelay || m == Measure::kMaxLatency ||
               m == Measure::kMaxDelay;
      }))
    args["latency"] = Value(true);
  // Percentiles and busy or idle time cost a sort of every duration and interval: asked for only when needed.
  // (The span is each GPU's first start to last end: no sort.)
  const bool detail = std::any_of(q.measures.begin(), q.measures.end(), [](Measure m) {
    return m == Measure::kP90 || m == Measure::kP95 || m == Measure::kP99 ||
           (IsTimelineMeasure(m) && m != Measure::kSpan);
  });
  if (!detail) args["detail"] = Value(false);
  return SkillCall{"event_stats", std::move(args), FilterOf(scope)};
}

// One side of a Query: the call, its table, and the rows the Query picks.
// A moment of the profile an event marks, on the capture clock: the start of the first kernel in the scope (its
// devices and processes: "in the first 100 ms after the first kernel starts"), or an Anchor's, over the whole profile
// ("the end of the MPI_Init range"): event_stats' first_start_ns or last_end_ns of those events (with nth, of the one
// event), with the row it is a cell of for the evidence.
struct Moment {
  double ns = 0;
  std::string words;  // "the first kernel's start", "the end of the 2nd of the NVTX ranges named `Model`"
  Evidence evidence;
};

struct Side {
  SkillCall call;
  skills::Table table;
  std::vector<size_t> rows;
  std::vector<Moment> moments;  // a window counted from or ended at moments events mark (PlaceTheWindow)
};

double CellOr(const skills::Table& t, size_t row, std::string_view column, double fallback) {
  const double v = CellNumber(t, row, column);
  return std::isnan(v) ? fallback : v;
}

// Whether a side counted no event: no row, or event_stats' one row with a count of 0.
bool NoneCounted(const Side& side) {
  return side.rows.empty() ||
         (side.call.skill == "event_stats" && CellOr(side.table, side.rows.front(), "count", 1) == 0);
}

// launch_sizes rows of the subject's kernels; the most launched configuration first.
std::vector<size_t> LaunchRows(const skills::Table& t, const Subject& s) {
  std::vector<size_t> rows;
  const auto name = ColumnIndex(t, "name"), short_name = ColumnIndex(t, "short_name");
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto text = [&](std::optional<size_t> c) {
      const auto* v = c ? std::get_if<std::string>(&t.rows[r][*c]) : nullptr;
      return v ? std::string_view(*v) : std::string_view();
    };
    if (NamePatternMatches(text(short_name), s.name) || NamePatternMatches(text(name), s.name)) rows.push_back(r);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [&](size_t a, size_t b) { return CellOr(t, a, "calls", 0) > CellOr(t, b, "calls", 0); });
  return rows;
}

// A ranking's rows: sorted by the first measure, largest first for the top, and the `offset` first ones passed over
// ("the second one").
void RankRows(const Query& q, const skills::Table& t, std::vector<size_t>& rows) {
  const std::string_view column = ColumnOf(q.measures.front());
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
    const double x = CellOr(t, a, column, 0), y = CellOr(t, b, column, 0);
    return q.rank == Rank::kTop ? x > y : x < y;
  });
  rows.erase(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(
                                              std::min(rows.size(), static_cast<size_t>(std::max(0, q.offset)))));
}

std::vector<size_t> PickRows(const Query& q, const skills::Table& t, const Subject& s) {
  if (IsLaunchConfiguration(q.measures.front())) {
    std::vector<size_t> rows = LaunchRows(t, s);
    // "which kernel launched the most thread blocks": the configurations ranked by the measure, not the most used.
    if (q.rank != Rank::kNone) RankRows(q, t, rows);
    const size_t keep = q.rank != Rank::kNone ? static_cast<size_t>(std::max(1, q.limit)) : 1;
    if (rows.size() > keep) rows.resize(keep);
    return rows;
  }
  std::vector<size_t> rows(t.rows.size());
  for (size_t r = 0; r < rows.size(); ++r) rows[r] = r;
  if (q.rank != Rank::kNone) {
    // Ranking ranges: the events outside every range are not a range.
    if (q.group_by == GroupBy::kRange) {
      rows.erase(std::remove_if(rows.begin(), rows.end(),
                                [&](size_t r) {
                                  const auto* g =
                                      std::get_if<std::string>(&t.rows[r][ColumnIndex(t, "group").value_or(0)]);
                                  return g && *g == "(no NVTX range)";
                                }),
                 rows.end());
    }
    RankRows(q, t, rows);
    const std::string_view column = ColumnOf(q.measures.front());
    size_t keep = std::min(rows.size(), static_cast<size_t>(std::max(1, q.limit)));
    // "which of the two GPUs is busier": the one first, the other beside it, and the margin between them.
    if (keep == 1 && rows.size() == 2 && q.offset == 0 && q.group_by != GroupBy::kName) keep = 2;
    // A tie with the last one shown is shown too ("which stream runs the most kernels": both, when two run as many).
    while (keep > 0 && keep < rows.size() && keep < static_cast<size_t>(std::max(1, q.limit)) + 5 &&
           CellOr(t, rows[keep], column, 0) == CellOr(t, rows[keep - 1], column, 0))
      ++keep;
    rows.resize(keep);
  } else if (q.group_by == GroupBy::kNone || rows.size() > 20) {
    rows.resize(std::min<size_t>(rows.size(), q.group_by == GroupBy::kNone ? 1 : 20));
  }
  return rows;
}

Expected<Moment> MomentOf(const Subject& events, bool at_end, const engine::FilterSpec& filter, std::string words,
                          const SkillRunner& run, const CancelToken& cancel) {
  Query marks;
  marks.measures = {Measure::kCount};
  marks.subject = events;
  SkillCall call = CallOf(marks, events, Scope{});
  call.filter = filter;
  call.args["detail"] = Value(false);
  auto t = run(call.skill, call.args, call.filter, cancel);
  if (!t) return t.error();
  const char* column = at_end ? "last_end_ns" : "first_start_ns";
  const double ns = t->rows.empty() || t->declined ? std::nan("") : CellNumber(*t, 0, column);
  if (std::isnan(ns) || CellNumber(*t, 0, "count") <= 0)
    return Error{
        ErrorKind::kNotFound,
        fmt::format("no event marks {}: the profile holds none of those {}", words,
                    events.events == EventKind::kKernels && events.name.empty() ? "kernels in this scope" : "events")};
  Evidence e{call,
             fmt::format("{}, where the window {}", words, at_end ? "ends or counts from" : "counts from or ends"),
             {"group", "count", column},
             {}};
  const auto c = ColumnIndex(*t, "count"), f = ColumnIndex(*t, column), g = ColumnIndex(*t, "group");
  if (c && f && g) e.rows.push_back({t->rows[0][*g], t->rows[0][*c], t->rows[0][*f]});
  return Moment{ns, std::move(words), std::move(e)};
}

// The window of `call` made absolute on the capture clock when the scope counts it from a moment an event marks, or
// ends it at one; the moments are returned for the evidence and the answer's sentence.
Expected<std::vector<Moment>> PlaceTheWindow(const Scope& scope, const SkillRunner& run, const CancelToken& cancel,
                                             SkillCall& call) {
  std::vector<Moment> out;
  const bool first_kernel = scope.from_first_kernel && (scope.from_s || scope.to_s);
  if (!first_kernel && !scope.origin && !scope.until) return out;
  std::optional<double> origin;
  if (first_kernel || scope.origin) {
    Scope places;  // the first kernel is of the scope's devices and processes; an anchor is of the whole profile
    if (first_kernel) {
      places.devices = scope.devices;
      places.pids = scope.pids;
    }
    auto m = first_kernel ? MomentOf(Subject{}, false, FilterOf(places), "the first kernel's start", run, cancel)
                          : MomentOf(scope.origin->events, scope.origin->at_end, FilterOf(places),
                                     DescribeAnchor(*scope.origin), run, cancel);
    if (!m) return m.error();
    origin = m->ns;
    out.push_back(std::move(*m));
  }
  call.filter.window.clock = engine::WindowSpec::Clock::kCaptureNs;
  call.filter.window.start = origin ? std::optional<double>(*origin + scope.from_s.value_or(0) * 1e9) : std::nullopt;
  call.filter.window.end =
      origin && scope.to_s ? std::optional<double>(*origin + *scope.to_s * 1e9) : std::optional<double>();
  if (scope.until) {
    auto m = MomentOf(scope.until->events, scope.until->at_end, FilterOf(Scope{}), DescribeAnchor(*scope.until), run,
                      cancel);
    if (!m) return m.error();
    // An event that ends the window where it starts (the one range that is also its origin) keeps itself: the
    // window's end is exclusive, so it ends a nanosecond after.
    call.filter.window.end = m->ns + (call.filter.window.start && m->ns <= *call.filter.window.start ? 1 : 0);
    out.push_back(std::move(*m));
  }
  return out;
}

Expected<Side> RunSide(const Query& q, const Subject& subject, const Scope& scope, const SkillRunner& run,
                       const CancelToken& cancel) {
  Side side{CallOf(q, subject, scope), {}, {}, {}};
  auto moments = PlaceTheWindow(scope, run, cancel, side.call);
  if (!moments) return moments.error();
  side.moments = std::move(*moments);
  auto table = run(side.call.skill, side.call.args, side.call.filter, cancel);
  if (!table) return table.error();
  side.table = std::move(*table);
  if (!side.table.declined) side.rows = PickRows(q, side.table, subject);
  return side;
}

bool Asked(const Query& q, Measure m) {
  return std::find(q.measures.begin(), q.measures.end(), m) != q.measures.end();
}

// The measures a row states: those asked, then for context (not in a launch configuration) the count, the total and
// the share when not asked, so a figure never stands without its base.
std::vector<Measure> Stated(const Query& q) {
  std::vector<Measure> out;
  for (Measure m : q.measures) {
    if (m != Measure::kGroups && IsLaunchConfiguration(m) == IsLaunchConfiguration(q.measures.front()))
      out.push_back(m);
  }
  // A launch configuration is its blocks and its threads per block together, whichever was asked.
  if (IsLaunchConfiguration(q.measures.front())) {
    for (Measure m : {Measure::kGrid, Measure::kBlock}) {
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
    return out;
  }
  for (Measure m : {Measure::kCount, Measure::kTotal, Measure::kShare}) {
    if (!Asked(q, m)) out.push_back(m);
  }
  const bool sized = q.subject.events == EventKind::kMemcpy || q.subject.events == EventKind::kMemset;
  if (sized && !Asked(q, Measure::kBytes)) out.push_back(Measure::kBytes);  // what copies moved
  return out;
}

// "share of the GPU span 21.3%, 1.055 s busy of 4.947 s": the share with its parts, cells of the same row.
std::string SpanShareText(const Side& side, size_t row, const std::string& value) {
  const std::string_view words = kWords[static_cast<size_t>(Measure::kSpanShare)];
  const auto busy = ColumnIndex(side.table, "busy_ns"), span = ColumnIndex(side.table, "gpu_span_ns");
  if (!busy || !span) return fmt::format("{} {}", words, value);
  const auto& r = side.table.rows[row];
  return fmt::format("{} {}, {} busy of {}", words, value, FormatMeasure(Measure::kTotal, r[*busy]),
                     FormatMeasure(Measure::kTotal, r[*span]));
}

// " in the profile" after the whole a share is of, when it is the profile's (ShareOfProfile); "" otherwise.
std::string_view InTheProfile(const Query& q) {
  return ShareOfProfile(q) ? " in the profile" : "";
}

// One measure of a row in words: "1,721 kernels", "total 44.830 ms", "47.2% of all kernel time (21.1 ms of
// 44.830 ms)", "median 1.984 µs".
// Long: one case per measure whose words carry its base or its parts (shares, launch configurations, spans).
std::string MeasureText(const Query& q, const Side& side, size_t row, Measure m, const std::string& value) {
  switch (m) {
    case Measure::kCount: {
      std::string noun(Noun(q.subject.events));
      if (value == "1") noun.erase(noun.size() - (noun == "copies" ? 3 : 1));  // "1 call", "1 copy"
      if (noun == "cop") noun = "copy";
      // With a bound on each event, the count of those the bound leaves out too: "18 of 3,442 kernels".
      const Scope& s = q.scope;
      const bool bounded = s.longer_than_ns >= 0 || s.shorter_than_ns >= 0 || s.larger_than_bytes >= 0 ||
                           s.smaller_than_bytes >= 0 || s.grid_below_sms;
      const auto matched = ColumnIndex(side.table, "matched_count");
      if (bounded && matched && q.group_by == GroupBy::kNone)
        return fmt::format("{} of {} {}", value, FormatMeasure(m, side.table.rows[row][*matched]),
                           Noun(q.subject.events));
      return fmt::format("{} {}", value, noun);
    }
    case Measure::kTotal:
      return "total " + value;
    case Measure::kSmCount: {  // "SMs on its GPU 68 (NVIDIA GeForce RTX 3080)"
      const auto gpu = ColumnIndex(side.table, "device_name");
      const auto* name = gpu ? std::get_if<std::string>(&side.table.rows[row][*gpu]) : nullptr;
      return fmt::format("{} {}{}", kWords[static_cast<size_t>(m)], value,
                         name && !name->empty() ? " (" + support::MarkdownText(*name) + ")" : "");
    }
    case Measure::kGrid:
    case Measure::kBlock: {  // "blocks per grid 411648 (201 × 2048 × 1)"; a one-dimensional grid is its number alone
      const std::string axis = m == Measure::kGrid ? "grid_" : "block_";
      const auto x = ColumnIndex(side.table, axis + "x"), y = ColumnIndex(side.table, axis + "y"),
                 z = ColumnIndex(side.table, axis + "z");
      std::string text = fmt::format("{} {}", kWords[static_cast<size_t>(m)], value);
      const auto& r = side.table.rows[row];
      if (x && y && z && (NumberOf(r[*y]).value_or(1) != 1 || NumberOf(r[*z]).value_or(1) != 1)) {
        text +=
            fmt::format(" ({} × {} × {})", FormatMeasure(m, r[*x]), FormatMeasure(m, r[*y]), FormatMeasure(m, r[*z]));
      }
      return text;
    }
    case Measure::kShare:
    case Measure::kGpuShare: {
      const Value& total = side.table.rows[row][ColumnIndex(side.table, "total_ns").value_or(0)];
      const auto all = ColumnIndex(side.table, m == Measure::kShare ? "all_ns" : "gpu_all_ns");
      const std::string base = all ? FormatMeasure(Measure::kTotal, side.table.rows[row][*all]) : "";
      // A share within each place is of its own events' time: "6.34% of its kernel time (17.2 ms of 270.9 ms)".
      return fmt::format("{} of {} {}{} ({} of {})", value,
                         m == Measure::kShare && ShareWithinPlaces(q) ? "its" : "all",
                         m == Measure::kShare ? TimeOf(q.subject.events) : std::string_view("GPU time"),
                         InTheProfile(q), FormatMeasure(Measure::kTotal, total), base);
    }
    case Measure::kByteShare: {  // "46.2% of all bytes copied (11.8 GB of 25.5 GB)": both cells of the row
      const auto bytes = ColumnIndex(side.table, "bytes"), all = ColumnIndex(side.table, "all_bytes");
      const std::string_view verb = q.subject.events == EventKind::kMemset ? "set" : "copied";
      if (!bytes || !all || Asked(q, Measure::kBytes)) return fmt::format("{} of all bytes {}", value, verb);
      const auto& r = side.table.rows[row];
      return fmt::format("{} of all bytes {}{} ({} of {})", value, verb, InTheProfile(q),
                         FormatMeasure(Measure::kBytes, r[*bytes]), FormatMeasure(Measure::kBytes, r[*all]));
    }
    case Measure::kCountShare: {  // "20.6% of all kernels (5,439 of 26,399)": both cells of the row
      const auto count = ColumnIndex(side.table, "count"), all = ColumnIndex(side.table, "all_count");
      if (!count || !all || Asked(q, Measure::kCount))
        return fmt::format("{} of all {}{}", value, Noun(q.subject.events), InTheProfile(q));
      const auto& r = side.table.rows[row];
      return fmt::format("{} of all {}{} ({} of {})", value, Noun(q.subject.events), InTheProfile(q),
                         FormatMeasure(Measure::kCount, r[*count]), FormatMeasure(Measure::kCount, r[*all]));
    }
    case Measure::kSpanShare:
      return SpanShareText(side, row, value);
    case Measure::kUtilization:
    case Measure::kIdleShare: {
      // A share of the span with its parts, as a person states it: "idle share of the span 0.68%, 6.557 ms idle of
      // 969.448 ms". Both are cells of the same row.
      const auto part = ColumnIndex(side.table, m == Measure::kIdleShare ? "idle_ns" : "busy_ns");
      const auto span = ColumnIndex(side.table, "span_ns");
      std::string text = fmt::format("{} {}", kWords[static_cast<size_t>(m)], value);
      if (part && span && !Asked(q, m == Measure::kIdleShare ? Measure::kIdle : Measure::kBusy) &&
          !Asked(q, Measure::kSpan)) {
        const auto& r = side.table.rows[row];
        text += fmt::format(", {1} {0} of {2}", m == Measure::kIdleShare ? "idle" : "busy",
                            FormatMeasure(Measure::kTotal, r[*part]), FormatMeasure(Measure::kTotal, r[*span]));
      }
      return text;
    }
    default:
      return fmt::format("{} {}", kWords[static_cast<size_t>(m)], value);
  }
}

// The measures asked of a row, then the context in parentheses: "median 1.984 µs (1,721 kernels, total 44.830 ms,
// 47.2% of all kernel time (44.830 ms of 95.0 ms))".
// `context` false: the measures asked alone (the two sides of a comparison).
std::string Figures(const Query& q, const Side& side, size_t row, bool context_too = true) {
  std::vector<std::string> asked, context;
  for (Measure m : Stated(q)) {
    if (!context_too && !Asked(q, m)) continue;
    // A share of everything is no context ("100.0% of all kernel time" on one GPU): left out when not asked.
    if (m == Measure::kShare && !Asked(q, m) &&
        NumberOf(side.table.rows[row][ColumnIndex(side.table, "share_pct").value_or(0)]).value_or(0) >= 99.995)
      continue;
    const auto c = ColumnIndex(side.table, ColumnOf(m));
    if (!c) continue;
    const std::string text = MeasureText(q, side, row, m, FormatMeasure(m, side.table.rows[row][*c]));
    (Asked(q, m) || IsLaunchConfiguration(m) ? asked : context).push_back(text);
    if (m == Measure::kCount && NumberOf(side.table.rows[row][*c]).value_or(1) == 0) {
      // Nothing counted: no total or share to state beside it, but the count itself when it was not asked ("total
      // 0 ns (0 copies)": a zero that says there were none, not that they took no time).
      context.clear();
      if (!Asked(q, m)) context.push_back(text);
      break;
    }
  }
  std::string out;
  for (size_t i = 0; i < asked.size(); ++i) out += (i ? ", " : "") + asked[i];
  if (!context.empty()) {
    std::string more;
    for (size_t i = 0; i < context.size(); ++i) more += (i ? ", " : "") + context[i];
    out += out.empty() ? more : " (" + more + ")";
  }
  return out;
}

std::string GroupOf(const Side& side, size_t row) {
  if (side.call.skill == "launch_sizes") {
    const auto c = ColumnIndex(side.table, "short_name");
    const auto* v = c ? std::get_if<std::string>(&side.table.rows[row][*c]) : nullptr;
    return v ? *v : "";
  }
  const auto c = ColumnIndex(side.table, "group");
  const auto* v = c ? std::get_if<std::string>(&side.table.rows[row][*c]) : nullptr;
  return v ? *v : "";
}

Evidence EvidenceOf(const Query& q, const Side& side, std::string caption) {
  Evidence e;
  e.call = side.call;
  e.caption = std::move(caption);
  std::vector<std::string> wanted = {side.call.skill == "launch_sizes" ? "short_name" : "group"};
  if (side.call.skill == "launch_sizes") wanted.insert(wanted.end(), {"device_id", "calls"});
  for (Measure m : Stated(q)) wanted.emplace_back(ColumnOf(m));
  if (side.call.skill == "launch_sizes")  // the dimensions MeasureText states beside blocks and threads per block
    wanted.insert(wanted.end(), {"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "device_name"});
  if (std::find(wanted.begin(), wanted.end(), "share_pct") != wanted.end()) wanted.emplace_back("all_ns");
  if (std::find(wanted.begin(), wanted.end(), "bytes_share_pct") != wanted.end()) {
    wanted.emplace_back("bytes");
    wanted.emplace_back("all_bytes");
  }
  if (std::find(wanted.begin(), wanted.end(), "gpu_share_pct") != wanted.end()) wanted.emplace_back("gpu_all_ns");
  if (std::find(wanted.begin(), wanted.end(), "gpu_span_share_pct") != wanted.end()) {
    wanted.emplace_back("busy_ns");
    wanted.emplace_back("gpu_span_ns");
  }
  std::vector<size_t> idx;
  for (const std::string& w : wanted) {
    const auto c = ColumnIndex(side.table, w);
    if (c && std::find(e.columns.begin(), e.columns.end(), w) == e.columns.end()) {
      e.columns.push_back(w);
      idx.push_back(*c);
    }
  }
  for (size_t r : side.rows) {
    std::vector<Value> row;
    for (size_t c : idx) row.push_back(side.table.rows[r][c]);
    e.rows.push_back(std::move(row));
  }
  return e;
}

// "2 GPUs ran kernels: device 0, device 1."
std::string GroupsFact(const Query& q, const Side& side) {
  // One word for each GroupBy, in its order (a grouping added there without its word here fails to compile).
  constexpr auto one = std::to_array<std::string_view>(
      {"group", "distinct name", "GPU", "process", "stream", "NVTX range", "distinct base name"});
  constexpr auto many = std::to_array<std::string_view>(
      {"groups", "distinct names", "GPUs", "processes", "streams", "NVTX ranges", "distinct base names"});
  static_assert(one.size() == many.size() && one.size() == static_cast<size_t>(GroupBy::kBaseName) + 1);
  const size_t n = side.table.rows.size();
  const auto by = static_cast<size_t>(q.group_by);
  const bool gpus = q.group_by == GroupBy::kDevice;  // "2 GPUs did work"; "3 streams have kernels"
  std::string out = fmt::format(
      "{} {} {}", FormatCount(static_cast<double>(n)), n == 1 ? one[by] : many[by],
      gpus ? std::string("did work") : fmt::format("{} {}", n == 1 ? "has" : "have", Noun(q.subject.events)));
  for (size_t r = 0; r < n && r < 20; ++r) out += (r ? ", " : ": ") + GroupOf(side, r);
  return out + (n > 20 ? ", ..." : "") + ".";
}

std::string NoneText() {
  return "none: no event in the profile matches this reading.";
}

// Two groups ("which of the 2 GPUs ..., and by how much?", "on each of the two GPUs, and how many times more?"):
// the difference of their first figures, the larger first, and their ratio.
std::string MarginOf(Measure m, const Side& side) {
  size_t a = side.rows[0], b = side.rows[1];
  const std::string_view column = ColumnOf(m);
  double x = CellNumber(side.table, a, column), y = CellNumber(side.table, b, column);
  if (std::isnan(x) || std::isnan(y)) return "";
  if (y > x) {
    std::swap(a, b);
    std::swap(x, y);
  }
  const bool pct = m == Measure::kShare || m == Measure::kGpuShare || m == Measure::kUtilization ||
                   m == Measure::kIdleShare || m == Measure::kSpanShare;
  const std::string diff = pct ? fmt::format("{:.1f} percentage points", x - y) : FormatMeasure(m, Value(x - y));
  const std::string ratio = y > 0 ? fmt::format(", {:.2f}×", x / y) : "";
  return fmt::format(" Difference: {} ({} over {}{}).", diff, support::MarkdownText(GroupOf(side, a)),
                     support::MarkdownText(GroupOf(side, b)), ratio);
}

// The facts of a Query without a comparison.
std::string FactsOf(const Query& q, const Side& side) {
  if (Asked(q, Measure::kGroups) && q.measures.size() == 1) return GroupsFact(q, side);
  // "how long did the GPU sit idle between the end of the first kernel and the start of the second": a window
  // between two moments in which none of the events ran is idle from one moment to the other.
  if (NoneCounted(side) && q.measures.front() == Measure::kIdle && side.moments.size() == 2 &&
      side.moments[1].ns > side.moments[0].ns)
    return fmt::format("idle {} for the whole window: no {} ran in it.",
                       FormatNs(side.moments[1].ns - side.moments[0].ns), Noun(q.subject.events));
  if (side.rows.empty()) return Asked(q, Measure::kCount) ? "count 0: " + NoneText() : NoneText();
  if (side.call.skill == "launch_sizes") {
    std::string out;
    for (size_t r : side.rows) {
      out += fmt::format("{}{}: {} ({}, {} launches on device {})", out.empty() ? "" : "; ", GroupOf(side, r),
                         Figures(q, side, r),
                         q.rank == Rank::kNone ? "its most used launch configuration"
                                               : (q.rank == Rank::kTop ? "the largest" : "the smallest") +
                                                     std::string(" launch configuration by ") +
                                                     std::string(kWords[static_cast<size_t>(q.measures.front())]),
                         FormatCount(CellOr(side.table, r, "calls", 0)), CellOr(side.table, r, "device_id", 0));
    }
    return out + ".";
  }
  if (q.group_by == GroupBy::kNone) {
    const std::string who = q.subject.name.empty() ? "" : support::MarkdownCode(q.subject.name) + ": ";
    return who + Figures(q, side, side.rows.front()) + ".";
  }
  std::string out;
  if (Asked(q, Measure::kGroups))
    out = fmt::format("{} groups: ", FormatCount(static_cast<double>(side.table.rows.size())));
  for (size_t i = 0; i < side.rows.size(); ++i) {
    out += fmt::format("{}{}: {}", i ? "; " : "", support::MarkdownText(GroupOf(side, side.rows[i])),
                       Figures(q, side, side.rows[i]));
  }
  // More rows than asked are shown for a tie with the last one asked, or for the other of two groups (not a tie).
  const size_t asked = static_cast<size_t>(std::max(1, q.limit));
  const std::string_view column = ColumnOf(q.measures.front());
  if (q.rank != Rank::kNone && side.rows.size() > asked &&
      CellOr(side.table, side.rows[asked], column, 0) == CellOr(side.table, side.rows[asked - 1], column, 0))
    out += " (tied)";
  if (side.rows.size() < side.table.rows.size()) out += fmt::format(" ({} groups in all)", side.table.rows.size());
  out += ".";
  // A ranked list of a measure that adds up: the rows shown together ("the top 3 kernels: 93.3% of kernel time").
  const Measure first = q.measures.front();
  const auto adds = [](Measure m) {
    return m == Measure::kTotal || m == Measure::kCount || m == Measure::kShare || m == Measure::kGpuShare ||
           m == Measure::kBytes;
  };
  if (q.rank != Rank::kNone && side.rows.size() > 1 && adds(first)) {
    // Every measure asked that adds up ("these two together: total time ..., share ...").
    std::string sums;
    for (Measure m : q.measures) {
      if (!adds(m)) continue;
      double sum = 0;
      for (size_t r : side.rows) sum += CellOr(side.table, r, ColumnOf(m), 0);
      const Value together =
          m == Measure::kShare || m == Measure::kGpuShare ? Value(sum) : Value(static_cast<int64_t>(sum));
      sums +=
          fmt::format("{}{} {}", sums.empty() ? "" : ", ", kWords[static_cast<size_t>(m)], FormatMeasure(m, together));
      // A share is said with the time it is of, as each row's is: "share 81.7% (5.240 ms of 6.415 ms)".
      const bool time_said = std::find(q.measures.begin(), q.measures.end(), Measure::kTotal) != q.measures.end();
      const std::string_view base = m == Measure::kShare ? "all_ns" : "gpu_all_ns";
      if ((m == Measure::kShare || m == Measure::kGpuShare) && !time_said) {
        double time = 0;
        for (size_t r : side.rows) time += CellOr(side.table, r, "total_ns", 0);
        const double of = CellOr(side.table, side.rows.front(), base, 0);
        if (of > 0) sums += fmt::format(" ({} of {})", FormatNs(time), FormatNs(of));
      }
    }
    out += fmt::format(" These {} together: {}.", side.rows.size(), sums);
  }
  // Two ranked groups, or the only two there are (two GPUs, two processes): how far apart they are.
  if (side.rows.size() == 2 && (q.rank != Rank::kNone || side.table.rows.size() == 2)) out += MarginOf(first, side);
  return out;
}

// What a side of a comparison is called: its name, its kind, or what its scope names ("device 0", "process 12").
std::string SideLabel(const Query& q, bool second) {
  if (q.versus_subject) {
    const Subject& s = second ? *q.versus_subject : q.subject;
    // "the first to start of the copies" against "the last to start of them": one event of the same events each.
    const std::string nth = s.nth == 0 ? "" : DescribeNth(s.nth) + " of the ";
    if (!s.name.empty()) return nth + support::MarkdownCode(s.name);
    const std::string memory = s.memory.empty() ? "" : " (" + s.memory + " host memory)";
    std::string cause = s.cause;
    std::replace(cause.begin(), cause.end(), '_', ' ');
    const std::string family = s.family.empty() ? "" : support::MarkdownCode(s.family) + " ";  // "`gemm` kernels"
    return nth + family +
           (s.copy_kind.empty() || s.copy_kind == "any" ? std::string(Noun(s.events)) : s.copy_kind + " copies") +
           memory + (cause.empty() ? "" : " (" + cause + ")");
  }
  const Scope& s = second ? *q.versus_scope : q.scope;
  std::vector<std::string> parts;
  for (int32_t d : s.devices) parts.push_back(fmt::format("device {}", d));
  for (uint32_t p : s.pids) parts.push_back(fmt::format("process {}", p));
  if (!s.inside.empty()) parts.push_back("inside " + support::MarkdownCode(s.inside));
  if (!s.outside.empty()) parts.push_back("outside " + support::MarkdownCode(s.outside));
  if (s.stream >= 0) parts.push_back(fmt::format("stream {}", s.stream));
  if (!s.launched_by.empty()) parts.push_back("launched by " + support::MarkdownCode(s.launched_by));
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out.empty() ? "everything" : out;
}

// The facts of a comparison: both figures, which is larger, by how much and the ratio.
std::string CompareFacts(const Query& q, const Side& a, const Side& b) {
  if (a.rows.empty() || b.rows.empty())
    return "one side has no matching events: " + (a.rows.empty() ? SideLabel(q, false) : SideLabel(q, true)) + ".";
  const Measure m = q.measures.front();
  const double x = CellOr(a.table, a.rows.front(), ColumnOf(m), 0), y = CellOr(b.table, b.rows.front(), ColumnOf(m), 0);
  const std::string la = SideLabel(q, false), lb = SideLabel(q, true);
  std::string out;
  // "more than double": against the second side times the factor.
  const double times = q.factor.value_or(1.0);
  if (q.form == Form::kYesNo) out = (q.yes_if_less ? x < times * y : x > times * y) ? "Yes: " : "No: ";
  Query other = q;  // the second side's figures speak of its own events
  if (q.versus_subject) other.subject = *q.versus_subject;
  out += fmt::format("{}: {}; {}: {}.", la, Figures(q, a, a.rows.front(), false), lb,
                     Figures(other, b, b.rows.front(), false));
  if (q.form == Form::kShare && y > 0) return out + fmt::format(" {} is {:.2f}% of {}.", la, 100.0 * x / y, lb);
  // Equal in the first measure, which ranks and compares; the others may differ ("bytes 51.20 GB" each way, at two
  // bandwidths).
  if (x == y) return out + fmt::format(" They are equal in {}.", kWords[static_cast<size_t>(m)]);
  // Which side is larger in measure `n`, by how much and the ratio: "larger is X, by 617 (2.46x)."
  const auto margin = [&](Measure n, double u, double v) {
    const double hi = std::max(u, v), lo = std::min(u, v);
    const Value diff = n == Measure::kCount ? Value(static_cast<int64_t>(hi - lo)) : Value(hi - lo);
    std::string said = fmt::format("larger is {}, by {}", u > v ? la : lb, FormatMeasure(n, diff));
    if (lo > 0) said += fmt::format(" ({:.2f}x)", hi / lo);
    return said + ".";
  };
  out += " The " + margin(m, x, y);
  // The other measures asked, each side against the other too ("how many, and the ratio of their bytes").
  for (size_t k = 1; k < q.measures.size(); ++k) {
    const Measure n = q.measures[k];
    const double xa = CellOr(a.table, a.rows.front(), ColumnOf(n), std::nan("")),
                 yb = CellOr(b.table, b.rows.front(), ColumnOf(n), std::nan(""));
    if (std::isnan(xa) || std::isnan(yb) || xa == yb) continue;
    out += fmt::format(" In {}, the {}", kWords[static_cast<size_t>(n)], margin(n, xa, yb));
  }
  return out;
}

// "Yes: " or "No: " for a Query with a threshold: the first measure of its first row against it. No row is a count
// of 0 ("are there any ...": no).
std::string ThresholdVerdict(const Query& q, const Side& side) {
  const double x = side.rows.empty() ? 0 : CellOr(side.table, side.rows.front(), ColumnOf(q.measures.front()), 0);
  return (q.yes_if_less ? x < *q.threshold : x > *q.threshold) ? "Yes: " : "No: ";
}

// Two measures of the first row set against each other: "Yes: " or "No: " before the facts for a yes/no Query, and
// the sentence after them ("Blocks per grid 1 is below SMs on its GPU 108.").
std::pair<std::string, std::string> MeasuresVerdict(const Query& q, const Side& side) {
  if (side.rows.empty()) return {};
  const Measure a = q.measures.front(), b = *q.versus_measure;
  const auto ca = ColumnIndex(side.table, ColumnOf(a)), cb = ColumnIndex(side.table, ColumnOf(b));
  if (!ca || !cb) return {};
  const Value& va = side.table.rows[side.rows.front()][*ca];
  const Value& vb = side.table.rows[side.rows.front()][*cb];
  const double x = NumberOf(va).value_or(0), y = NumberOf(vb).value_or(0);
  // launch_sizes' sm_count is 0 where the export does not record the GPU's SMs: nothing to compare with.
  if ((a == Measure::kSmCount && x == 0) || (b == Measure::kSmCount && y == 0))
    return {q.form == Form::kYesNo ? "Cannot say: " : "",
            " The export does not record how many SMs the GPU has, so the comparison cannot be made."};
  const std::string relation = x < y ? "below" : (x > y ? "above" : "equal to");
  std::string words(kWords[static_cast<size_t>(a)]);
  UpperFirst(words);
  std::string sentence = fmt::format(" {} {} is {} {} {}.", words, FormatMeasure(a, va), relation,
                                     kWords[static_cast<size_t>(b)], FormatMeasure(b, vb));
  if (q.form != Form::kYesNo) return {"", sentence};
  return {(q.yes_if_less ? x < y : x > y) ? "Yes: " : "No: ", sentence};
}

// A Query the profile cannot answer: the reason in the text, and the answer's refusal unless another Query answered.
// Questions of the kinds of events the profile has: what a refusal offers instead.
std::vector<std::string> Answerable(const engine::Capabilities& caps) {
  std::vector<std::string> out;
  if (caps.kernels) out.push_back("Which kernels take the most GPU time?");
  if (caps.runtime) out.push_back("Which CUDA API calls take the most time?");
  if (caps.memcpy) out.push_back("How many bytes were copied host to device?");
  if (caps.nvtx) out.push_back("Which NVTX ranges take the most time?");
  return out;
}

// `missing`: the table the events would come from, when it is the export that lacks them.
void CannotAnswer(const std::string& why, std::vector<std::string> missing, const engine::Capabilities& caps,
                  AskTurn& turn, std::string& text) {
  text += "This profile cannot answer it: " + why;
  if (!turn.answer.refusal) turn.answer.refusal = Refusal{why, std::move(missing), Answerable(caps)};
}

// The table behind a kind of events, as a refusal names what is missing.
std::string TableOf(EventKind e) {
  constexpr auto tables = std::to_array<std::string_view>(
      {"CUDA kernel table (CUPTI_ACTIVITY_KIND_KERNEL)", "CUDA API table (CUPTI_ACTIVITY_KIND_RUNTIME)",
       "memory copy table (CUPTI_ACTIVITY_KIND_MEMCPY)", "memset table (CUPTI_ACTIVITY_KIND_MEMSET)",
       "NVTX table (NVTX_EVENTS)", "GPU activity tables (kernels, memory copies, memsets)",
       "CUDA graph tables (CUPTI_ACTIVITY_KIND_GRAPH_TRACE, or kernels with a graph id)",
       "GPU table (TARGET_INFO_GPU) or GPU activity"});
  static_assert(tables.size() == kEventKinds);
  return std::string(tables[static_cast<size_t>(e)]);
}

// "Did this capture record any CUDA kernel executions at all?" of an export with no kernel table: whether any was
// recorded is answered (none, and why), not refused. "How many kernels were captured?" is answered 0 when the export
// traced CUDA (its CUDA API table is there): nsys writes a GPU activity table only when it records such an event.
// Without CUDA traced, or asked how long, of a part of them or grouped, it is refused.
bool AsksWhetherAnyWasRecorded(const Query& q, const engine::Capabilities& caps) {
  const bool any = q.form == Form::kYesNo && q.threshold && *q.threshold == 0 && !q.yes_if_less;
  const bool gpu_activity = q.subject.events == EventKind::kKernels || q.subject.events == EventKind::kMemcpy ||
                            q.subject.events == EventKind::kMemset;
  const bool how_many =
      q.form == Form::kNumber && q.group_by == GroupBy::kNone && q.rank == Rank::kNone && gpu_activity && caps.runtime;
  if (!(any || how_many) || q.measures != std::vector<Measure>{Measure::kCount} || q.versus_subject || q.versus_scope ||
      !q.subject.name.empty() || !q.subject.family.empty() || q.subject.nth != 0 || q.subject.skip != 0)
    return false;
  switch (q.subject.events) {
    case EventKind::kKernels:
      return !caps.kernels;
    case EventKind::kApi:
      return !caps.runtime;
    case EventKind::kMemcpy:
      return !caps.memcpy;
    case EventKind::kMemset:
      return !caps.memset;
    case EventKind::kNvtx:
      return !caps.nvtx;
    default:
      return false;
  }
}

std::string WhyNot(const Side& side) {
  return side.table.notes.empty() ? "the skill declined." : side.table.notes.front();
}
std::string WhyNot(const Expected<Side>& side) {
  return side ? WhyNot(*side) : side.error().message;
}

// A grouped Query's figures over every group together, from the same skill without grouping.
void AddInAll(const Query& q, const SkillRunner& run, const CancelToken& cancel, AskTurn& turn, std::string& text) {
  Query all = q;
  all.group_by = GroupBy::kNone;
  all.rank = Rank::kNone;
  auto side = RunSide(all, all.subject, all.scope, run, cancel);
  if (!side || side->table.declined || side->rows.empty()) return;
  // Busy and idle time over several places is each GPU's own timeline (busy while any of its events runs), summed
  // over the GPUs, as event_stats counts it: said so, since it is no sum of the places' rows when they share a GPU.
  const bool timeline = IsPlace(q.group_by) && std::any_of(q.measures.begin(), q.measures.end(), IsTimelineMeasure);
  text += (timeline ? " Total, each GPU's timeline summed over the GPUs: " : " Total: ") +
          Figures(all, *side, side->rows.front()) + ".";
  turn.answer.evidence.push_back(EvidenceOf(all, *side, "All groups together"));
}

// Kernels ranked by name are ranked by their whole (demangled) names, as nsys stats' cuda_gpu_kern_sum ranks them; a
// kernel written once as a template runs as many instantiations, each its own name. When summing the instantiations
// (the base name, nsys stats' :base) ranks otherwise, that ranking is given too, from its own cited row: "the top
// kernels" asked by someone who reads the timeline's short names is answered as well.
void AddByBaseName(const Query& q, const Side& by_name, const SkillRunner& run, const CancelToken& cancel,
                   AskTurn& turn, std::string& text) {
  if (q.subject.events != EventKind::kKernels || q.group_by != GroupBy::kName || q.rank == Rank::kNone ||
      by_name.call.skill != "event_stats" || by_name.rows.empty())
    return;
  Query base = q;
  base.group_by = GroupBy::kBaseName;
  auto side = RunSide(base, base.subject, base.scope, run, cancel);
  if (!side || side->table.declined || side->rows.empty()) return;
  const std::string_view column = ColumnOf(q.measures.front());
  bool same = side->rows.size() == by_name.rows.size();
  for (size_t k = 0; same && k < side->rows.size(); ++k) {
    same = CellOr(side->table, side->rows[k], column, -1) == CellOr(by_name.table, by_name.rows[k], column, -1);
  }
  if (same) return;
  text +=
      " Each kernel's template instantiations summed (by base name, as nsys stats' `:base`): " + FactsOf(base, *side);
  turn.answer.evidence.push_back(EvidenceOf(base, *side, "By base name"));
}

// The ids of `items`, the first twelve and how many in all beyond them (an export may list thousands of processes).
template <typename T>
std::string IdList(const std::vector<T>& items, auto id_of) {
  constexpr size_t kShown = 12;
  std::string out;
  for (size_t i = 0; i < items.size() && i < kShown; ++i) out += fmt::format("{}{}", i ? ", " : "", id_of(items[i]));
  if (items.size() > kShown) out += fmt::format(", ... ({} in all)", items.size());
  return out;
}

// What a scope names that the profile does not have (a device, a process, a window after its end), or "".
std::string OutOfProfile(const Scope& s, const engine::ProfileInfo& info) {
  for (int32_t d : s.devices) {
    if (std::none_of(info.devices.begin(), info.devices.end(), [&](const engine::Device& x) { return x.id == d; }))
      return fmt::format("this profile has no device {} (its devices: {}).", d,
                         IdList(info.devices, [](const engine::Device& x) { return x.id; }));
  }
  for (uint32_t p : s.pids) {
    if (std::none_of(info.processes.begin(), info.processes.end(),
                     [&](const engine::Process& x) { return x.pid == p; }))
      return fmt::format("this profile has no process {} (its processes: {}).", p,
                         IdList(info.processes, [](const engine::Process& x) { return x.pid; }));
  }
  // "fewer blocks than SMs" on a GPU whose SMs the export does not give: nothing to hold the launches against (every
  // launch would be kept by none, an answer of 0 that says nothing).
  if (s.grid_below_sms) {
    for (const engine::Device& d : info.devices) {
      const bool in_scope = s.devices.empty() || std::find(s.devices.begin(), s.devices.end(), d.id) != s.devices.end();
      if (in_scope && d.sm_count <= 0)
        return fmt::format(
            "the export does not give how many SMs GPU {} has (no GPU info for it), so no launch can "
            "be held against them.",
            d.id);
    }
  }
  // A window on the capture clock that misses every event is said, never answered with nothing.
  const double first_s = static_cast<double>(info.start_ns) / 1e9, last_s = static_cast<double>(info.end_ns) / 1e9;
  if (s.capture_clock && ((s.from_s && *s.from_s >= last_s) || (s.to_s && *s.to_s <= first_s)))
    return fmt::format(
        "the window {} lies outside this profile, whose events run from {:.3f} s to {:.3f} s after the session "
        "start (on the capture clock).",
        s.to_s ? fmt::format("from {:g} s to {:g} s", s.from_s.value_or(0), *s.to_s)
               : fmt::format("from {:g} s", s.from_s.value_or(0)),
        first_s, last_s);
  const double length_s = static_cast<double>(info.end_ns - info.start_ns) / 1e9;
  if (!s.capture_clock && s.from_s && *s.from_s >= length_s)
    return fmt::format("the window from {:g} s lies outside this profile, which is {:.3f} s long.", *s.from_s,
                       length_s);
  return "";
}

// A call named in full that the profile never makes: said so, with the calls whose names contain it.
void NoSuchCall(const Query& q, const SkillRunner& run, const CancelToken& cancel, AskTurn& turn, std::string& text) {
  text += fmt::format("This profile has no {} calls", q.subject.name);
  Query near = q;
  near.group_by = GroupBy::kName;
  near.rank = Rank::kTop;
  near.limit = 5;
  near.measures = {Measure::kCount};
  SkillCall call = CallOf(near, near.subject, near.scope);
  call.args.erase("whole_name");
  call.args["group_by"] = Value(std::string("name"));
  auto table = run(call.skill, call.args, call.filter, cancel);
  if (!table || table->declined || table->rows.empty()) {
    text += ".";
    return;
  }
  Side side{call, std::move(*table), {}};
  for (size_t r = 0; r < side.table.rows.size() && r < 5; ++r) side.rows.push_back(r);
  text += "; calls whose name contains it: ";
  for (size_t r : side.rows) text += fmt::format("{}{}: {}", r ? "; " : "", GroupOf(side, r), Figures(near, side, r));
  text += ".";
  turn.answer.evidence.push_back(EvidenceOf(near, side, "Calls whose name contains " + q.subject.name));
}

// "Are there any kernels longer than 5 ms?", "any copy bigger than 8 bytes?": beside the count, the longest (largest)
// of all of them (the shortest, smallest, for "any shorter than", "smaller than"), so a "No" says how far from the
// bound the events are.
void AddExtreme(const Query& q, const SkillRunner& run, const CancelToken& cancel, AskTurn& turn, std::string& text) {
  const bool any = q.form == Form::kYesNo && q.threshold == 0.0 && q.measures.front() == Measure::kCount;
  struct Bound {
    int64_t Scope::*field;
    Measure extreme;
    const char* word;
  };
  static constexpr Bound kBounds[] = {{&Scope::longer_than_ns, Measure::kMax, "longest"},
                                      {&Scope::shorter_than_ns, Measure::kMin, "shortest"},
                                      {&Scope::larger_than_bytes, Measure::kMaxBytes, "largest"},
                                      {&Scope::smaller_than_bytes, Measure::kMinBytes, "smallest"}};
  const Bound* bound = nullptr;
  for (const Bound& b : kBounds) {
    if (q.scope.*b.field < 0) continue;
    if (bound) return;  // two bounds: no one extreme says how far from both
    bound = &b;
  }
  if (!any || !bound || q.group_by != GroupBy::kNone) return;
  Query all = q;
  all.form = Form::kNumber;
  all.threshold.reset();
  all.scope.longer_than_ns = all.scope.shorter_than_ns = all.scope.larger_than_bytes = all.scope.smaller_than_bytes =
      -1;
  all.measures = {bound->extreme};
  auto side = RunSide(all, all.subject, all.scope, run, cancel);
  if (!side || side->table.declined || side->rows.empty() || CellOr(side->table, side->rows.front(), "count", 0) == 0)
    return;
  const auto column = ColumnIndex(side->table, ColumnOf(all.measures.front()));
  if (!column) return;
  text += fmt::format(" The {} of all of them: {}.", bound->word,
                      FormatMeasure(all.measures.front(), side->table.rows[side->rows.front()][*column]));
  turn.answer.evidence.push_back(EvidenceOf(all, *side, DescribeQuery(all)));
}

// Row `r` of a skill's table cited in `e`: its cells of `e`'s columns, in their order (null where the table has none).
void CiteRow(const skills::Table& t, size_t r, Evidence& e) {
  std::vector<Value> row;
  for (const std::string& c : e.columns) {
    const auto at = ColumnIndex(t, c);
    row.push_back(at ? t.rows[r][*at] : Value{});
  }
  e.rows.push_back(std::move(row));
}

// "GPU 3", "GPUs 0 and 1", "GPUs 0 to 7" (consecutive ids), "GPUs 0, 2 and 5".
std::string GpuIdsText(const std::vector<int64_t>& ids) {
  if (ids.size() == 1) return fmt::format("GPU {}", ids.front());
  bool consecutive = true;
  for (size_t k = 1; k < ids.size(); ++k) consecutive = consecutive && ids[k] == ids[k - 1] + 1;
  if (consecutive && ids.size() > 2) return fmt::format("GPUs {} to {}", ids.front(), ids.back());
  std::string out = "GPUs ";
  for (size_t k = 0; k < ids.size(); ++k)
    out += fmt::format("{}{}", k == 0 ? "" : k + 1 == ids.size() ? " and " : ", ", ids[k]);
  return out;
}

// "fewer blocks than the GPU has SMs": the SM count the launches were held against, for each GPU that ran kernels
// in the scope, from the gpus skill's rows ("GPU 0 has 132 SMs (NVIDIA H200)").
void AddTheSms(const Query& q, const SkillRunner& run, const CancelToken& cancel, AskTurn& turn, std::string& text) {
  if (!q.scope.grid_below_sms) return;
  Scope scope = q.scope;
  scope.grid_below_sms = false;
  SkillCall call{"gpus", {}, FilterOf(scope)};
  auto t = run(call.skill, call.args, call.filter, cancel);
  if (!t || t->declined) return;
  Evidence e{call, "The SMs of each GPU the launches ran on", {"device_id", "name", "sm_count"}, {}};
  std::string line;
  for (size_t r = 0; r < t->rows.size(); ++r) {
    if (CellOr(*t, r, "kernels", 0) <= 0) continue;
    CiteRow(*t, r, e);
    const std::string name = CellText(*t, r, "name");
    line += fmt::format("{}GPU {} has {} SMs{}", line.empty() ? " " : "; ", FormatCount(CellOr(*t, r, "device_id", 0)),
                        FormatCount(CellOr(*t, r, "sm_count", 0)),
                        name.empty() ? "" : " (" + support::MarkdownText(name) + ")");
  }
  if (line.empty()) return;
  text += line + ".";
  turn.answer.evidence.push_back(std::move(e));
}

// How many processes the GPUs' work came from, beside how many GPUs did it.
void AddProcesses(const Query& q, const SkillRunner& run, const CancelToken& cancel, AskTurn& turn, std::string& text) {
  Query by_pid = q;
  by_pid.group_by = GroupBy::kPid;
  auto side = RunSide(by_pid, by_pid.subject, by_pid.scope, run, cancel);
  if (!side || side->table.declined) return;
  const size_t n = side->table.rows.size();
  text += fmt::format(" In {} {}.", FormatCount(static_cast<double>(n)), n == 1 ? "process" : "processes");
  turn.answer.evidence.push_back(EvidenceOf(by_pid, *side, "Processes"));
}

// "The solve kernel: how many launches?": a part of a name that names one name only is said with that name, from the
// same skill grouped by name ("`solve` matches one name only: `nvkernel_solve_F1L204_2`"). `count`: how many events
// the answer counted (0: not known); one kernel of no name said ("how long did the one kernel run?") is named too.
void AddTheOneName(const Query& q, int64_t count, const SkillRunner& run, const CancelToken& cancel, AskTurn& turn,
                   std::string& text) {
  const Subject& s = q.subject;
  const bool named = s.events == EventKind::kKernels || s.events == EventKind::kApi || s.events == EventKind::kNvtx;
  // A family the decoder gives ("the FlashAttention forward kernel"): the names it holds here, up to five.
  const bool family = s.name.empty() && !s.family.empty() && q.group_by == GroupBy::kNone;
  const bool lone = s.name.empty() && s.family.empty() && s.events == EventKind::kKernels && count == 1 &&
                    q.group_by == GroupBy::kNone;
  if (!lone && !family &&
      (!named || s.name.empty() || s.whole_name || IsNamePattern(s.name) || s.name.find('|') != std::string::npos ||
       q.group_by != GroupBy::kNone))
    return;
  Query by_name = q;
  by_name.group_by = GroupBy::kName;
  by_name.measures = {Measure::kCount};
  auto side = RunSide(by_name, by_name.subject, by_name.scope, run, cancel);
  if (!side || side->table.declined || side->table.rows.empty()) return;
  if (family && side->table.rows.size() <= 5) {
    std::string names;
    for (size_t r = 0; r < side->table.rows.size(); ++r)
      names += (r ? ", " : "") + support::MarkdownCode(GroupOf(*side, r));
    text += fmt::format(" The {} family here: {}.", support::MarkdownCode(s.family), names);
    turn.answer.evidence.push_back(EvidenceOf(by_name, *side, "The names of the family"));
    return;
  }
  if (family || side->table.rows.size() != 1) return;
  const std::string name = GroupOf(*side, 0);
  if (lone) {
    text += fmt::format(" The one kernel: {}.", support::MarkdownCode(name));
    turn.answer.evidence.push_back(EvidenceOf(by_name, *side, "The one kernel's name"));
    return;
  }
  if (name == s.name) return;
  text += fmt::format(" {} matches one name only: {}.", support::MarkdownCode(s.name), support::MarkdownCode(name));
  turn.answer.evidence.push_back(EvidenceOf(by_name, *side, "The one name it names"));
}

// A skill's table for an answer, its call recorded in the turn; or nullopt, having said why not (the skill's error or
// note, and the table of `kind` the export may lack).
std::optional<skills::Table> RunOrSayWhyNot(const SkillCall& call, EventKind kind, const engine::ProfileInfo& info,
                                            const SkillRunner& run, const CancelToken& cancel, AskTurn& turn,
                                            std::string& text) {
  auto t = run(call.skill, call.args, call.filter, cancel);
  if (!t || t->declined) {
    const std::string why = !t ? t.error().message : t->notes.empty() ? "the skill declined." : t->notes.front();
    CannotAnswer(why, {TableOf(kind)}, info.caps, turn, text);
    return std::nullopt;
  }
  turn.skills_used.push_back(call.skill);
  turn.state.calls.push_back(call);
  return std::move(*t);
}

// The GPUs the export lists, from the gpus skill's rows: how many and how many ran work, then the GPUs alike said
// once with their ids ("GPUs 0 to 7: NVIDIA GeForce RTX 3090, 82 SMs, ..."), with the figures asked.
void AnswerDevices(const Query& q, const engine::ProfileInfo& info, const SkillRunner& run, const CancelToken& cancel,
                   AskTurn& turn, std::string& text) {
  SkillCall call{"gpus", {}, FilterOf(q.scope)};
  auto t = RunOrSayWhyNot(call, EventKind::kDevices, info, run, cancel, turn, text);
  if (!t) return;
  Evidence e{call, DescribeQuery(q), {"device_id", "name"}, {}};
  std::vector<Measure> figures;
  for (Measure m : q.measures) {
    if (m != Measure::kCount) figures.push_back(m), e.columns.emplace_back(ColumnOf(m));
  }
  e.columns.emplace_back("ran_work");
  const auto cell = [&](size_t r, Measure m) { return t->rows[r][*ColumnIndex(*t, ColumnOf(m))]; };
  // Figures asked that the export gives of no GPU (an export with no GPU table): not answered with "not given".
  bool given = figures.empty();
  for (size_t r = 0; r < t->rows.size() && !given; ++r) {
    for (Measure m : figures) given = given || NumberOf(cell(r, m)).value_or(0) > 0;
  }
  if (!given)
    return CannotAnswer("the export gives no SM count, memory or memory bandwidth of its GPUs.",
                        {"GPU table (TARGET_INFO_GPU)"}, info.caps, turn, text);
  // GPUs alike (the same name and figures) are said once, with their ids.
  std::vector<std::pair<std::string, std::vector<int64_t>>> alike;
  std::vector<int64_t> working;  // the GPUs that ran work
  for (size_t r = 0; r < t->rows.size(); ++r) {
    CiteRow(*t, r, e);
    const auto id = static_cast<int64_t>(CellOr(*t, r, "device_id", 0));
    if (CellOr(*t, r, "ran_work", 0) > 0) working.push_back(id);
    const std::string name = CellText(*t, r, "name");
    std::string said = name.empty() ? "unnamed in the export" : support::MarkdownText(name);
    for (Measure m : figures) {
      const std::string_view word = m == Measure::kSmCount ? "SMs" : kWords[static_cast<size_t>(m)];
      said += NumberOf(cell(r, m)).value_or(0) > 0 ? fmt::format(", {} {}", FormatMeasure(m, cell(r, m)), word)
                                                   : fmt::format(", {} not given", word);
    }
    auto it = std::find_if(alike.begin(), alike.end(), [&](const auto& a) { return a.first == said; });
    if (it == alike.end())
      alike.push_back({said, {id}});
    else
      it->second.push_back(id);
  }
  const size_t n = t->rows.size();
  if (Asked(q, Measure::kCount) || n > 1)
    text += fmt::format("{} GPU{} listed, {} of them ran GPU work (kernels, copies or memsets){}. ",
                        FormatCount(static_cast<double>(n)), n == 1 ? "" : "s",
                        FormatCount(static_cast<double>(working.size())),
                        !working.empty() && working.size() < n ? ": " + GpuIdsText(working) : "");
  for (size_t k = 0; k < alike.size(); ++k)
    text += fmt::format("{}{}: {}.", k ? " " : "", GpuIdsText(alike[k].second), alike[k].first);
  turn.answer.evidence.push_back(std::move(e));
}

// Communication kernels against compute (HTA's convention, guides/analysis.md), from nccl_breakdown's rows: per GPU,
// the row of the collective the subject names ("all" for NCCL kernels said so, or none), its busy time and the
// figures asked ("GPU 0: 33 communication kernels (all), busy 17.173 ms; 0.0% of it overlapped by compute kernels;
// 17.173 ms exposed, 100.0% of its busy time").
void AnswerComm(const Query& q, const engine::ProfileInfo& info, const SkillRunner& run, const CancelToken& cancel,
                AskTurn& turn, std::string& text) {
  SkillCall call{"nccl_breakdown", {}, FilterOf(q.scope)};
  auto t = RunOrSayWhyNot(call, EventKind::kKernels, info, run, cancel, turn, text);
  if (!t) return;
  const std::string name = Lower(q.subject.name);
  // The longest collective the name holds ("ncclDevKernel_SendRecv", "SendRecv": SendRecv, not Send); else every one,
  // when the name is a communication kernel's ("NCCL", "ncclDevKernel").
  std::string collective = "all";
  for (size_t r = 0; r < t->rows.size(); ++r) {
    const std::string c = CellText(*t, r, "collective");
    if (c != "all" && name.find(Lower(c)) != std::string::npos && (collective == "all" || c.size() > collective.size()))
      collective = c;
  }
  const bool comm_name = name.empty() || name.rfind("nccl", 0) == 0 || name.rfind("rccl", 0) == 0 ||
                         name.rfind("hccl", 0) == 0 || collective != "all";
  if (!comm_name)
    return CannotAnswer(fmt::format("{} names no communication kernel: their names start with nccl, rccl or hccl.",
                                    support::MarkdownCode(q.subject.name)),
                        {}, info.caps, turn, text);
  Evidence e{
      call,
      DescribeQuery(q),
      {"device_id", "collective", "count", "total_ns", "comm_busy_ns", "overlap_pct", "exposed_ns", "exposed_pct"},
      {}};
  for (size_t r = 0; r < t->rows.size(); ++r) {
    if (CellText(*t, r, "collective") != collective) continue;
    CiteRow(*t, r, e);
    const auto cell = [&](std::string_view c) { return t->rows[r][*ColumnIndex(*t, std::string(c))]; };
    text += fmt::format("{}GPU {}: {} communication kernels ({}), busy {}", e.rows.size() == 1 ? "" : " ",
                        FormatCount(CellOr(*t, r, "device_id", 0)), FormatMeasure(Measure::kCount, cell("count")),
                        support::MarkdownText(collective), FormatMeasure(Measure::kBusy, cell("comm_busy_ns")));
    if (Asked(q, Measure::kTotal)) text += ", total " + FormatMeasure(Measure::kTotal, cell("total_ns"));
    if (Asked(q, Measure::kCommOverlap))
      text +=
          fmt::format("; {} of it overlapped by compute kernels", FormatPct(NumberOf(cell("overlap_pct")).value_or(0)));
    if (Asked(q, Measure::kExposed))
      text += fmt::format("; {} exposed, {} of its busy time", FormatMeasure(Measure::kExposed, cell("exposed_ns")),
                          FormatPct(NumberOf(cell("exposed_pct")).value_or(0)));
    text += ".";
  }
  if (e.rows.empty()) {
    text += NoneText() + " No communication kernels (names starting nccl, rccl or hccl) ran in the scope.";
    return;
  }
  turn.answer.evidence.push_back(std::move(e));
}

// The ids a table grouped by device or by process holds, read from its group cells ("device 1", "process 144").
std::vector<int64_t> GroupIds(const Side& side) {
  std::vector<int64_t> ids;
  for (size_t r : side.rows) {
    if (CellOr(side.table, r, "count", 0) <= 0) continue;
    const std::string g = GroupOf(side, r);
    const size_t space = g.rfind(' ');
    if (space == std::string::npos) continue;
    int64_t id = 0;
    const auto [end, ec] = std::from_chars(g.data() + space + 1, g.data() + g.size(), id);
    if (ec == std::errc() && end == g.data() + g.size()) ids.push_back(id);
  }
  return ids;
}

// CUDA calls and NVTX ranges run on the host, on no GPU: "the NVTX ranges of GPU 1", "the GPU 1 rank's calls" are
// those of the process or processes whose GPU work (kernels, copies, memsets) ran on that GPU, found from
// event_stats' rows of GPU work per process and cited. A process that also ran work on a GPU not asked for cannot
// have its host events split by GPU: not answered. The scope then names those processes instead of the GPUs.
bool HostEventsOfGpus(Scope& s, EventKind events, const SkillRunner& run, const CancelToken& cancel,
                      const engine::ProfileInfo& info, AskTurn& turn, std::string& text) {
  if ((events != EventKind::kApi && events != EventKind::kNvtx) || s.devices.empty()) return true;
  Query work;
  work.measures = {Measure::kCount};
  work.subject.events = EventKind::kGpu;
  work.scope.devices = s.devices;
  work.scope.pids = s.pids;
  work.group_by = GroupBy::kPid;
  auto by_pid = RunSide(work, work.subject, work.scope, run, cancel);
  if (!by_pid || by_pid->table.declined) {
    CannotAnswer(WhyNot(by_pid), {}, info.caps, turn, text);
    return false;
  }
  const std::vector<int64_t> pids = GroupIds(*by_pid);
  const std::string gpus = GpuIdsText(std::vector<int64_t>(s.devices.begin(), s.devices.end()));
  if (pids.empty()) {
    CannotAnswer(
        fmt::format("no process ran GPU work on {}, so none of its CUDA calls or NVTX ranges are that GPU's.", gpus),
        {}, info.caps, turn, text);
    return false;
  }
  Query used = work;
  used.scope.devices.clear();
  used.scope.pids.assign(pids.begin(), pids.end());
  used.group_by = GroupBy::kDevice;
  auto by_device = RunSide(used, used.subject, used.scope, run, cancel);
  if (by_device && !by_device->table.declined) {
    for (int64_t d : GroupIds(*by_device)) {
      if (std::find(s.devices.begin(), s.devices.end(), d) != s.devices.end()) continue;
      CannotAnswer(
          fmt::format("CUDA calls and NVTX ranges run on the host, and the process that ran {}'s work also ran "
                      "work on GPU {}: its host events cannot be split by GPU.",
                      gpus, d),
          {}, info.caps, turn, text);
      return false;
    }
  }
  turn.answer.evidence.push_back(EvidenceOf(work, *by_pid, "The processes that ran GPU work there"));
  std::string ids;
  for (int64_t p : pids) ids += (ids.empty() ? "" : ", ") + std::to_string(p);
  text += fmt::format(
      "CUDA calls and NVTX ranges run on the host: those of {} are taken as those of the process{} "
      "that ran its GPU work ({}). ",
      gpus, pids.size() == 1 ? "" : "es", ids);
  s.devices.clear();
  s.pids.assign(pids.begin(), pids.end());
  return true;
}

// Whether no event of kind `e` with `selection` (a name, a family) is in the whole profile: event_stats says 0.
bool NoneInTheProfile(EventKind e, const char* selection, const std::string& value, const SkillRunner& run,
                      const CancelToken& cancel) {
  const skills::Args args{{"events", Value(std::string(EventKindNames()[static_cast<size_t>(e)]))},
                          {selection, Value(value)},
                          {"detail", Value(false)}};
  auto t = run("event_stats", args, {}, cancel);
  return t && !t->declined && !t->rows.empty() && CellOr(*t, 0, "count", 1) == 0;
}

// A family of kernels no kernel of the whole profile belongs to ("the FlashAttention kernels" of a profile that has
// none): a question about something the profile does not hold, as a name it lacks is.
bool NoKernelOfTheFamily(const Query& q, const SkillRunner& run, const CancelToken& cancel) {
  if (q.subject.family.empty() || q.subject.events != EventKind::kKernels) return false;
  return NoneInTheProfile(EventKind::kKernels, "family", q.subject.family, run, cancel);
}

// A part of a name that no kernel, call or range of its kind in the whole profile holds ("the kernels whose name
// contains `change`", read from "our change"): a question about something the profile does not hold, never a 0.
bool NoEventOfTheName(const Query& q, const SkillRunner& run, const CancelToken& cancel) {
  const EventKind e = q.subject.events;
  if (q.subject.name.empty() || (e != EventKind::kKernels && e != EventKind::kApi && e != EventKind::kNvtx))
    return false;
  return NoneInTheProfile(e, "name", q.subject.name, run, cancel);
}

// "How long after MPI_Init ends does the first saxpy kernel start?": the time from the window's origin to its end,
// each moment a cell of its cited row (event_stats' first_start_ns or last_end_ns).
void AnswerElapsed(const Query& q, const engine::ProfileInfo& info, const SkillRunner& run, const CancelToken& cancel,
                   AskTurn& turn, std::string& text) {
  SkillCall call = CallOf(q, q.subject, q.scope);
  auto moments = PlaceTheWindow(q.scope, run, cancel, call);
  if (!moments || moments->size() != 2)
    return CannotAnswer(moments ? "the question says no two moments." : moments.error().message, {}, info.caps, turn,
                        text);
  const Moment& from = (*moments)[0];
  const Moment& to = (*moments)[1];
  const double elapsed = to.ns - from.ns;
  text += fmt::format("{} from {} ({} ns on the capture clock) to {} ({} ns).", FormatNs(std::abs(elapsed)), from.words,
                      FormatCount(from.ns), to.words, FormatCount(to.ns));
  if (elapsed < 0) text += fmt::format(" The second comes first: {} before the first.", FormatNs(-elapsed));
  for (const Moment& m : *moments) {
    turn.skills_used.push_back(m.evidence.call.skill);
    turn.state.calls.push_back(m.evidence.call);
    turn.answer.evidence.push_back(m.evidence);
  }
}

// "No: none was recorded", with why: the declined call cited (AsksWhetherAnyWasRecorded).
void SayNoneRecorded(const Query& q, const Side& declined, AskTurn& turn, std::string& text) {
  const std::string why = WhyNot(declined);
  text += q.form == Form::kYesNo
              ? fmt::format("No: none was recorded. {}", why)
              : fmt::format("0 {} were recorded: the export has no {}, which nsys writes only when it records one.",
                            Noun(q.subject.events), TableOf(q.subject.events));
  turn.skills_used.push_back(declined.call.skill);
  turn.state.calls.push_back(declined.call);
  turn.answer.evidence.push_back(EvidenceOf(q, declined, "The skill declined: " + why));
}

// A part of a name no event of its kind holds (NoEventOfTheName): said, never a 0.
void SayNameHeldNowhere(const Query& q, const engine::Capabilities& caps, AskTurn& turn, std::string& text) {
  CannotAnswer(fmt::format("none of this profile's {} has a name that contains {}.", Noun(q.subject.events),
                           support::MarkdownCode(q.subject.name)),
               {}, caps, turn, text);
}

// Why launch_sizes holds no row of the subject: no kernel of its family, or of its name, was launched.
std::string NoLaunch(const Query& q) {
  if (q.subject.name.empty() && !q.subject.family.empty())
    return fmt::format(
        "this profile launched no kernel of the {} family (as the kernel-name decoder classifies each "
        "kernel's name).",
        support::MarkdownCode(q.subject.family));
  return fmt::format("the question names no kernel this profile launched: no launch of a kernel named like {}.",
                     support::MarkdownCode(q.subject.name));
}

// One Query answered into `turn`.
void AnswerOne(const Query& asked, const engine::ProfileInfo& info, const SkillRunner& run, const CancelToken& cancel,
               AskTurn& turn, std::string& text) {
  text += (text.empty() ? "" : "\n") + std::string("Read as: ") + DescribeQuery(asked) + ".\n";
  Query q = asked;
  for (const Scope* s : {&q.scope, q.versus_scope ? &*q.versus_scope : nullptr}) {
    if (const std::string why = s ? OutOfProfile(*s, info) : ""; !why.empty())
      return CannotAnswer(why, {}, info.caps, turn, text);
  }
  // CUDA calls and NVTX ranges said of a GPU: those of the processes that ran its work.
  if (!HostEventsOfGpus(q.scope, q.subject.events, run, cancel, info, turn, text)) return;
  if (q.versus_scope &&
      !HostEventsOfGpus(*q.versus_scope, q.versus_subject.value_or(q.subject).events, run, cancel, info, turn, text))
    return;
  if (q.subject.events == EventKind::kDevices) return AnswerDevices(q, info, run, cancel, turn, text);
  if (q.measures.front() == Measure::kElapsed) return AnswerElapsed(q, info, run, cancel, turn, text);
  if (std::any_of(q.measures.begin(), q.measures.end(), IsCommMeasure))
    return AnswerComm(q, info, run, cancel, turn, text);
  // "Which NVTX range holds the most kernel time?" of an export that traced no NVTX: no range to name.
  if (q.group_by == GroupBy::kRange && !info.caps.nvtx)
    return CannotAnswer("the export has no NVTX ranges (NVTX_EVENTS): the work cannot be grouped by range.",
                        {TableOf(EventKind::kNvtx)}, info.caps, turn, text);
  auto a = RunSide(q, q.subject, q.scope, run, cancel);
  if (a && a->table.declined && AsksWhetherAnyWasRecorded(q, info.caps)) return SayNoneRecorded(q, *a, turn, text);
  if (!a || a->table.declined)
    return CannotAnswer(WhyNot(a), a ? std::vector{TableOf(q.subject.events)} : std::vector<std::string>{}, info.caps,
                        turn, text);
  turn.skills_used.push_back(a->call.skill);
  turn.state.calls.push_back(a->call);
  for (size_t r : a->rows) turn.state.listed.push_back(GroupOf(*a, r));
  if (a->rows.empty() && a->call.skill == "launch_sizes") return CannotAnswer(NoLaunch(q), {}, info.caps, turn, text);
  const bool none = NoneCounted(*a);
  const bool no_call = none && q.subject.events == EventKind::kApi && IsApiIdentifier(q.subject.name);
  if (no_call && !q.versus_subject) return NoSuchCall(q, run, cancel, turn, text);
  if (none && !q.versus_subject && NoEventOfTheName(q, run, cancel))
    return SayNameHeldNowhere(q, info.caps, turn, text);
  if (none && !q.versus_subject && NoKernelOfTheFamily(q, run, cancel))
    return CannotAnswer(fmt::format("this profile has no kernel of the {} family (as the kernel-name decoder "
                                    "classifies each kernel's name).",
                                    support::MarkdownCode(q.subject.family)),
                        {}, info.caps, turn, text);
  if (!q.versus_subject && !q.versus_scope) {
    const auto [verdict, compared] = q.versus_measure ? MeasuresVerdict(q, *a) : std::pair<std::string, std::string>{};
    if (q.form == Form::kYesNo && q.threshold) text += ThresholdVerdict(q, *a);
    text += verdict + FactsOf(q, *a) + compared;
    const int64_t counted =
        a->call.skill == "event_stats" && a->rows.size() == 1 ? CellOr(a->table, a->rows.front(), "count", 0) : 0;
    if (!none) AddTheOneName(q, counted, run, cancel, turn, text);
    for (size_t k = 0; k < a->moments.size(); ++k) {
      const bool ends = q.scope.until && k + 1 == a->moments.size();
      text += fmt::format(" The window {} {}, at {} ns on the capture clock.", ends ? "ends at" : "counts from",
                          a->moments[k].words, FormatCount(a->moments[k].ns));
    }
    AddExtreme(q, run, cancel, turn, text);
    for (const auto& m : a->moments) turn.answer.evidence.push_back(m.evidence);
    if (!a->rows.empty()) turn.answer.evidence.push_back(EvidenceOf(q, *a, DescribeQuery(q)));
    AddByBaseName(q, *a, run, cancel, turn, text);
    AddTheSms(q, run, cancel, turn, text);
    if (q.group_by == GroupBy::kDevice && Asked(q, Measure::kGroups)) AddProcesses(q, run, cancel, turn, text);
    const bool grouped = q.group_by != GroupBy::kNone && q.rank == Rank::kNone && a->call.skill == "event_stats" &&
                         !Asked(q, Measure::kGroups);
    if (grouped && a->table.rows.size() > 1) AddInAll(q, run, cancel, turn, text);
    return;
  }
  auto b = RunSide(q, q.versus_subject.value_or(q.subject), q.versus_scope.value_or(q.scope), run, cancel);
  if (!b || b->table.declined) {
    const EventKind other = q.versus_subject ? q.versus_subject->events : q.subject.events;
    return CannotAnswer(WhyNot(b), b ? std::vector{TableOf(other)} : std::vector<std::string>{}, info.caps, turn, text);
  }
  turn.state.calls.push_back(b->call);
  text += CompareFacts(q, *a, *b);
  if (!a->rows.empty()) turn.answer.evidence.push_back(EvidenceOf(q, *a, SideLabel(q, false)));
  if (!b->rows.empty()) turn.answer.evidence.push_back(EvidenceOf(q, *b, SideLabel(q, true)));
}

// A launch configuration comes from launch_sizes and the other measures from event_stats: a Query that asks for both
// ("how long did it run and what grid did it use") is answered as two, the launch configuration second; `true` marks
// such a second half, whose kernel is the first one the first half names when it ranks ("which kernel ran, and what
// grid did it use").
std::vector<std::pair<Query, bool>> SplitLaunchMeasures(const std::vector<Query>& queries) {
  std::vector<std::pair<Query, bool>> out;
  for (const Query& q : queries) {
    Query launch = q, other = q;
    launch.measures.clear();
    other.measures.clear();
    for (Measure m : q.measures) (IsLaunchConfiguration(m) ? launch : other).measures.push_back(m);
    // The GPUs the export lists answer their SMs beside the rest from one row each.
    if (launch.measures.empty() || other.measures.empty() || q.subject.events == EventKind::kDevices) {
      out.emplace_back(q, false);
      continue;
    }
    // The launch half is a plain figure, unless the comparison of two measures is of the launch configuration; then
    // the other half is.
    const bool launch_compared = q.versus_measure && IsLaunchConfiguration(*q.versus_measure);
    Query& plain = launch_compared ? other : launch;
    plain.form = Form::kNumber;
    plain.threshold.reset();
    plain.versus_measure.reset();
    launch.threshold.reset();
    launch.group_by = GroupBy::kNone;
    launch.rank = Rank::kNone;
    launch.limit = 0;
    out.emplace_back(std::move(other), false);
    out.emplace_back(std::move(launch), true);
  }
  return out;
}

// What the conversation keeps: the Queries for a typed follow-up, and the phrase parser's fields for its own.
void KeepState(const std::vector<Query>& queries, ConversationState& state) {
  state.intent = "query";
  state.queries = queries;
  if (queries.empty()) return;
  const Query& q = queries.front();
  constexpr auto topics =
      std::to_array<std::string_view>({"kernels", "api", "memcpy", "memset", "nvtx", "kernels", "graphs", "kernels"});
  static_assert(topics.size() == kEventKinds);
  state.topic = std::string(topics[static_cast<size_t>(q.subject.events)]);
  state.filter = FilterOf(q.scope);
  if (q.subject.events == EventKind::kKernels) state.kernel = q.subject.name;
  state.nvtx_range = q.subject.events == EventKind::kNvtx ? q.subject.name : q.scope.inside;
}

// The words as a reason or a note quotes them: 'a', 'b'.
// "'color', 'Paris'"; a note of the filler's own ("(a place with no question)") is no word of the question, and is
// said without quotes. The question's words are a client's text, in an answer that is Markdown: escaped as text.
std::string Quoted(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    const bool note = w.size() > 2 && w.front() == '(' && w.back() == ')';
    out += (out.empty() ? "" : ", ") + (note ? w : "'" + support::MarkdownText(w) + "'");
  }
  return out;
}

}  // namespace query_exec

AskTurn AnswerReading(const Reading& reading, const engine::Profile& profile, const SkillRunner& run,
                      const CancelToken& cancel) {
  AskTurn turn = AnswerQueries(reading.queries, profile, run, cancel);
  // Under the reading's first line, the words taken as describing the events, so that a word read wrongly that way is
  // seen at once ("Taken as describing them, not as filters: 'GEMM'.").
  std::string notes;
  if (!reading.described.empty())
    notes += "Taken as describing them, not as filters: " + query_exec::Quoted(reading.described) + ".\n";
  if (!reading.defined.empty())
    notes +=
        "Taken as defining what is measured, not as more to answer: " + query_exec::Quoted(reading.defined) + ".\n";
  if (!reading.recording.empty())
    notes += "Taken as saying which recording this is: " + query_exec::Quoted(reading.recording) + ".\n";
  if (!reading.context.empty())
    notes +=
        "Taken as why the question is asked, not as more to answer: " + query_exec::Quoted(reading.context) + ".\n";
  if (!reading.respelled.empty()) {
    std::string said;
    for (const std::string& r : reading.respelled) said += (said.empty() ? "" : ", ") + support::MarkdownText(r);
    notes += "Read with its spelling mended: " + said + ".\n";
  }
  if (!notes.empty()) {
    std::string& summary = turn.answer.summary;
    const size_t line = summary.find('\n');
    summary.insert(line == std::string::npos ? summary.size() : line + 1, notes);
  }
  return turn;
}

std::vector<std::string> NamesWrittenIn(const std::vector<std::string>& unread) {
  std::vector<std::string> out;
  for (const std::string& w : unread) {
    // One word: a clause's whole text (a part no Query holds) may hold names the profile does have.
    if (w.find(' ') != std::string::npos) continue;
    const bool camel = CapitalAfterSmall(w);
    if (w.find('_') != std::string::npos || w.find("::") != std::string::npos || camel) out.push_back(w);
  }
  return out;
}

AskTurn DeclinePartialReading(const Reading& reading, const engine::Capabilities& caps) {
  using namespace query_exec;  // this file's own helpers
  const std::string unread = Quoted(reading.unread), not_held = Quoted(reading.not_held);
  std::string reason = !not_held.empty()
                           ? "I did not answer this question: it asks for " + not_held +
                                 ", which I cannot measure from the events this profile records."
                           : "I could not read all of this question, so I did not answer it: I did not understand " +
                                 (unread.empty() ? std::string("what it asks") : unread) + ".";
  // A word written as a name ("foo_bar_kernel", "runFusion") that the reading did not take as one: where the profile's
  // events have it in their names, which ones (the question said it where no Query could use it); else that none has.
  for (const std::string& w : NamesWrittenIn(reading.unread)) {
    const auto held = std::find_if(reading.unread_names.begin(), reading.unread_names.end(),
                                   [&](const auto& n) { return n.first == w; });
    if (held != reading.unread_names.end()) {
      reason += fmt::format(
          " '{}' is in the names of this profile's {}, but I could not tell what the question asks "
          "of them.",
          support::MarkdownText(w), held->second);
    } else {
      reason +=
          fmt::format(" There is no kernel named '{}' in this profile, nor a CUDA call or NVTX range of that name.",
                      support::MarkdownText(w));
    }
  }
  std::vector<std::string> alternatives;
  for (const Query& q : reading.queries) {
    const std::string read = DescribeQuery(q);
    reason += " I understood: " + read + ".";
    alternatives.push_back(read);
  }
  for (std::string& a : Answerable(caps)) alternatives.push_back(std::move(a));
  AskTurn turn;
  turn.answer = Refuse(Refusal{reason, {}, std::move(alternatives)});
  turn.answer.confidence_reason = "The question was read only in part; nothing was answered from a guess.";
  turn.state.intent = "query";
  return turn;
}

AskTurn AnswerQueries(const std::vector<Query>& asked, const engine::Profile& profile, const SkillRunner& run,
                      const CancelToken& cancel) {
  using namespace query_exec;  // this file's own helpers
  AskTurn turn;
  std::string text;
  size_t listed_before = 0;  // where the last Query's listed groups start
  bool by_name = false;      // the last Query listed names
  for (auto& [q, second_half] : SplitLaunchMeasures(asked)) {
    if (Status ok = CheckQuery(q); !ok) {
      text += (text.empty() ? "" : "\n") + ok.error().message;
      continue;
    }
    if (second_half && by_name && q.subject.name.empty() && turn.state.listed.size() > listed_before)
      q.subject.name = turn.state.listed[listed_before];
    listed_before = turn.state.listed.size();
    by_name = q.group_by == GroupBy::kName || q.group_by == GroupBy::kBaseName;
    AnswerOne(q, profile.info(), run, cancel, turn, text);
  }
  std::sort(turn.skills_used.begin(), turn.skills_used.end());
  turn.skills_used.erase(std::unique(turn.skills_used.begin(), turn.skills_used.end()), turn.skills_used.end());
  turn.answer.summary = text;
  if (turn.answer.refusal && turn.answer.evidence.empty()) {
    Refusal r = *turn.answer.refusal;
    r.reason = text;
    turn.answer = Refuse(std::move(r));
  } else {
    turn.answer.refusal.reset();
  }
  turn.answer.confidence = Confidence::kHigh;
  turn.answer.confidence_reason =
      "Every figure is a cell of the cited rows, computed over the events the reading names.";
  if (!turn.answer.evidence.empty()) {
    const auto& info = profile.info();
    turn.answer.verify =
        VerifyCommand(turn.answer.evidence.front().call, info.source_path.empty() ? info.path : info.source_path);
  }
  KeepState(asked, turn.state);
  return turn;
}

}  // namespace nsys::agent
