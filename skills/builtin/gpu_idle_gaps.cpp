// gpu_idle_gaps: idle gaps per (pid, device) longer than a threshold (NVIDIA rule gpu-starv), and HTA's
// idle-time breakdown per stream (host wait / kernel wait / other).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/engine/window.h"

namespace nsys::skills::builtin {
namespace {

constexpr const char* kViewGaps = "gaps";
constexpr const char* kGapsViewStreams = "streams";

// The GPU op adjacent to a gap, found in the start-sorted tables (the gap list itself keeps no row ids).
struct Neighbour {
  std::string name;      // kernel short name, "[CUDA memcpy HtoD]", "[CUDA memset]", or "" when not found
  Ns launch_start = -1;  // start of the launching runtime call, -1 when unknown
};

std::string MemcpyLabel(uint8_t kind) {
  static const char* const kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                       "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  return fmt::format("[CUDA memcpy {}]", kind <= 10 ? kNames[kind] : "Unknown");
}

template <typename Table, typename Label>
bool FindStartingAt(const Table& t, const engine::RuntimeTable& rt, uint32_t pid, int32_t device, Ns at, Label label,
                    Neighbour& out) {
  auto it = std::lower_bound(t.start.begin(), t.start.end(), at);
  for (size_t i = static_cast<size_t>(it - t.start.begin()); i < t.size() && t.start[i] == at; ++i) {
    if (t.pid[i] == pid && t.device[i] == device) {
      out.name = label(i);
      out.launch_start = t.launch[i] >= 0 ? rt.start[static_cast<size_t>(t.launch[i])] : -1;
      return true;
    }
  }
  return false;
}

template <typename Table, typename Label>
bool FindEndingAt(const Table& t, uint32_t pid, int32_t device, Ns at, Label label, Neighbour& out) {
  auto it = std::upper_bound(t.start.begin(), t.start.end(), at);
  for (size_t i = static_cast<size_t>(it - t.start.begin()); i-- > 0;) {
    if (t.start[i] < at - t.max_duration) break;
    if (t.end[i] == at && t.pid[i] == pid && t.device[i] == device) {
      out.name = label(i);
      return true;
    }
  }
  return false;
}

struct Labels {
  const engine::Profile& p;
  std::string Kernel(size_t i) const { return std::string(p.strings().view(p.kernels().short_name[i])); }
  std::string Memcpy(size_t i) const { return MemcpyLabel(p.memcpys().copy_kind[i]); }
  std::string Memset(size_t) const { return "[CUDA memset]"; }
  std::string Graph(size_t i) const { return fmt::format("[CUDA graph {}]", p.graphs().graph_id[i]); }
};

Neighbour OpBefore(const engine::Profile& p, uint32_t pid, int32_t device, Ns gap_start) {
  Neighbour n;
  const Labels l{p};
  auto kernel = [&](size_t i) { return l.Kernel(i); };
  auto copy = [&](size_t i) { return l.Memcpy(i); };
  auto set = [&](size_t i) { return l.Memset(i); };
  auto graph = [&](size_t i) { return l.Graph(i); };
  if (FindEndingAt(p.kernels(), pid, device, gap_start, kernel, n)) return n;
  if (FindEndingAt(p.memcpys(), pid, device, gap_start, copy, n)) return n;
  if (FindEndingAt(p.memsets(), pid, device, gap_start, set, n)) return n;
  if (FindEndingAt(p.graphs(), pid, device, gap_start, graph, n)) return n;
  n.name = "[profiler overhead]";  // the only other kind of op a gap can be bounded by
  return n;
}

Neighbour OpAfter(const engine::Profile& p, uint32_t pid, int32_t device, Ns gap_end) {
  Neighbour n;
  const Labels l{p};
  const auto& rt = p.runtime();
  auto kernel = [&](size_t i) { return l.Kernel(i); };
  auto copy = [&](size_t i) { return l.Memcpy(i); };
  auto set = [&](size_t i) { return l.Memset(i); };
  auto graph = [&](size_t i) { return l.Graph(i); };
  if (FindStartingAt(p.kernels(), rt, pid, device, gap_end, kernel, n)) return n;
  if (FindStartingAt(p.memcpys(), rt, pid, device, gap_end, copy, n)) return n;
  if (FindStartingAt(p.memsets(), rt, pid, device, gap_end, set, n)) return n;
  if (FindStartingAt(p.graphs(), rt, pid, device, gap_end, graph, n)) return n;
  n.name = "[profiler overhead]";
  return n;
}

struct GapRow {
  Interval gap;
  uint32_t pid;
  int32_t device;
  Ns idle;  // the (pid, device)'s idle time between its first and last op: span - busy
  Ns span;
};

// What the host was doing while the GPU waited: the CUDA call of `pid` that covers at least half of `gap` (its calls
// of that name, summed) and the time it covers; else "no CUDA call" and the time no call of the process covers.
// Calls are start-sorted, none longer than max_duration.
std::pair<std::string, Ns> HostCallIn(const engine::Profile& p, uint32_t pid, const Interval& gap) {
  const engine::RuntimeTable& rt = p.runtime();
  // The calls that may overlap the gap: none starts before it by more than the longest call.
  const std::pair<size_t, size_t> range = engine::StartRange(rt, gap.start - rt.max_duration, gap.end);
  std::vector<std::pair<engine::StrId, Ns>> by_name;
  Ns covered = 0, covered_until = gap.start;  // the union of the calls within the gap, swept in start order
  for (size_t i = range.first; i < range.second; ++i) {
    if (rt.pid[i] != pid || rt.end[i] <= gap.start) continue;
    const Ns from = std::max(rt.start[i], gap.start), to = std::min(rt.end[i], gap.end);
    auto named = std::find_if(by_name.begin(), by_name.end(), [&](const auto& n) { return n.first == rt.name[i]; });
    if (named == by_name.end())
      by_name.emplace_back(rt.name[i], to - from);
    else
      named->second += to - from;
    if (to > covered_until) {
      covered += to - std::max(from, covered_until);
      covered_until = to;
    }
  }
  const auto most = std::max_element(by_name.begin(), by_name.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most != by_name.end() && 2 * most->second >= gap.length())
    return {std::string(p.strings().view(most->first)), std::min(most->second, gap.length())};
  return {"no CUDA call", gap.length() - covered};
}

// The gaps view's columns.
void SetGapColumns(Table& t) {
  t.columns = {IntCol("duration_ns", "Length of the idle gap"),
               IntCol("start_ns", "Gap start = end of the last op before it (capture clock)"),
               IntCol("end_ns", "Gap end = start of the next op"),
               IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               StringCol("op_before",
                         "The op that ended when the gap began (\"[CUDA graph N]\": a graph execution recorded whole)"),
               StringCol("op_after", "The op whose start ended the gap"),
               IntCol("launch_after_gap_ns",
                      "When the CPU called the API that launched op_after, relative to the gap start; > 0 means the "
                      "host issued the work only after the GPU went idle (null when the call is not in the export)"),
               DoubleCol("idle_share_pct", "The gap's share of its (process, device)'s idle time (span - busy), %"),
               DoubleCol("span_pct", "The gap's share of its (process, device)'s span, %"),
               StringCol("host_call",
                         "The CUDA call of the process that covers at least half the gap (its calls of that name, "
                         "summed), or \"no CUDA call\" when none does"),
               IntCol("host_call_ns",
                      "The time of the gap that call covers; with \"no CUDA call\", the time no call of the "
                      "process covers")};
}

Expected<Table> GapsView(const Context& ctx, Ns threshold_ns) {
  auto scanned = GpuOpGroups::Scan(ctx.profile, ctx.filter, GpuOpsOptions{}, ctx.cancel);
  if (!scanned) return scanned.error();
  const std::vector<GpuOpGroup>& groups = scanned->groups();
  std::vector<IdleSweeper> sweepers(groups.size(), IdleSweeper(threshold_ns));
  if (!scanned->Stream(ctx.profile, ctx.filter, ctx.cancel,
                       [&](size_t g, const Interval& op) { sweepers[g].Add(op); })) {
    return CancelledError();
  }
  Table t;
  SetGapColumns(t);
  std::vector<GapRow> rows;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const GpuOpGroup& g = groups[gi];
    const IdleSweep sweep = sweepers[gi].Finish();
    const std::vector<Interval>& gaps = sweep.gaps;
    const Ns span = g.last_end - g.first_start;
    const Ns busy = sweep.busy;
    Ns in_gaps = 0;
    for (const Interval& gap : gaps) {
      rows.push_back({gap, g.pid, g.device, span - busy, span});
      in_gaps += gap.length();
    }
    t.notes.push_back(fmt::format(
        "pid {} device {}: {} kernels, {} memcpys, {} memsets{} over {} (first op start to last op end); busy {} "
        "({} of the span, union of ops); {} gaps longer than {} total {}.",
        g.pid, g.device, g.kernels, g.memcpys, g.memsets,
        g.overheads ? fmt::format(", {} profiler-overhead rows", g.overheads) : std::string(), FormatDuration(span),
        FormatDuration(busy), FormatPct(span > 0 ? 100.0 * static_cast<double>(busy) / static_cast<double>(span) : 0),
        gaps.size(), FormatDuration(threshold_ns), FormatDuration(in_gaps)));
  }
  std::sort(rows.begin(), rows.end(), [](const GapRow& a, const GapRow& b) {
    return a.gap.length() != b.gap.length() ? a.gap.length() > b.gap.length() : a.gap.start < b.gap.start;
  });
  const int64_t limit = ArgInt(ctx, "limit");
  const size_t shown = limit > 0 ? std::min(rows.size(), static_cast<size_t>(limit)) : rows.size();
  int64_t host_late = 0;
  for (size_t i = 0; i < shown; ++i) {
    const GapRow& r = rows[i];
    const Neighbour before = OpBefore(ctx.profile, r.pid, r.device, r.gap.start);
    const Neighbour after = OpAfter(ctx.profile, r.pid, r.device, r.gap.end);
    Value lag = Null();
    if (after.launch_start >= 0) {
      lag = I(after.launch_start - r.gap.start);
      if (after.launch_start > r.gap.start) ++host_late;
    }
    const auto pct = [](Ns part, Ns whole) {
      return whole > 0 ? D(100.0 * static_cast<double>(part) / static_cast<double>(whole)) : Null();
    };
    auto [host_call, host_call_ns] = HostCallIn(ctx.profile, r.pid, r.gap);
    t.rows.push_back({I(r.gap.length()), I(r.gap.start), I(r.gap.end), I(r.pid), I(r.device), S(before.name),
                      S(after.name), lag, pct(r.gap.length(), r.idle), pct(r.gap.length(), r.span),
                      S(std::move(host_call)), I(host_call_ns)});
  }
  t.notes.insert(t.notes.begin(),
                 fmt::format("Idle gaps longer than {} between the first and last GPU op of each (process, device), "
                             "longest first. GPU ops are kernels, memcpys and memsets, plus NVIDIA's counted "
                             "profiler-overhead rows (busy on every device of their process). threshold_ms=500 "
                             "reproduces NVIDIA's gpu-starv rule; the default of 1 ms suits ML steps.",
                             FormatDuration(threshold_ns)));
  if (shown > 0) {
    t.notes.push_back(
        fmt::format("In {} of the {} gaps shown, the CPU launched the next op only after the GPU had gone idle "
                    "(launch_after_gap_ns > 0): the host was late. Run view=streams for the per-stream breakdown.",
                    host_late, shown));
  }
  if (shown < rows.size()) {
    t.notes.push_back(fmt::format("Showing the {} longest of {} gaps; pass limit=0 for all.", shown, rows.size()));
  }
  if (groups.empty()) t.notes.push_back("No GPU operations in the selection.");
  t.notes.push_back(WindowNote(ctx.filter));
  return t;
}

// ---- view=streams: HTA idle-time breakdown per stream ----

// Per-stream sweep state: ops arrive in start order (ForEachGpuOp), so nothing is stored per op.
struct StreamGaps {
  StreamKey key;
  int64_t ops = 0;
  Ns first_start = 0, busy_until = 0, covered_from = 0, last_end = 0;
  Ns busy = 0, host_wait = 0, kernel_wait = 0, other = 0;
};

// Every stream's idle breakdown, swept as ops arrive in start order.
class StreamIdleSweep {
 public:
  StreamIdleSweep(const engine::RuntimeTable& rt, Ns kernel_wait_ns) : rt_(rt), kernel_wait_ns_(kernel_wait_ns) {}

  template <typename OpTable>
  void Add(const OpTable& t, size_t i) {
    auto [k, added] = index_.Get(StreamKey{t.pid[i], t.device[i], t.stream[i]});
    const Ns start = t.start[i], end = t.end[i];
    if (added) {
      streams_.emplace_back();
      StreamGaps& s = streams_.back();
      s.key = index_.keys()[k];
      s.first_start = s.covered_from = start;
      s.busy_until = s.last_end = end;
      s.ops = 1;
      return;
    }
    StreamGaps& s = streams_[k];
    ++s.ops;
    if (start > s.busy_until) {
      const Ns gap = start - s.busy_until;
      s.busy += s.busy_until - s.covered_from;
      s.covered_from = start;
      const Ns launch_start = t.launch[i] >= 0 ? rt_.start[static_cast<size_t>(t.launch[i])] : -1;
      if (launch_start > s.busy_until) {
        s.host_wait += gap;  // the CPU had not yet asked for this op when the stream went idle
      } else if (gap < kernel_wait_ns_) {
        s.kernel_wait += gap;
      } else {
        s.other += gap;
        if (launch_start < 0) ++unknown_launch_gaps_;
      }
    }
    s.busy_until = std::max(s.busy_until, end);
    s.last_end = std::max(s.last_end, end);
  }

  // Closes every stream's last busy interval and orders the streams most idle first.
  std::vector<StreamGaps>& Finish() {
    for (StreamGaps& s : streams_) s.busy += s.busy_until - s.covered_from;
    std::sort(streams_.begin(), streams_.end(), [](const StreamGaps& a, const StreamGaps& b) {
      const Ns ia = a.host_wait + a.kernel_wait + a.other, ib = b.host_wait + b.kernel_wait + b.other;
      if (ia != ib) return ia > ib;
      return std::tie(a.key.pid, a.key.device, a.key.stream) < std::tie(b.key.pid, b.key.device, b.key.stream);
    });
    return streams_;
  }
  int64_t unknown_launch_gaps() const { return unknown_launch_gaps_; }

 private:
  const engine::RuntimeTable& rt_;
  const Ns kernel_wait_ns_;
  SmallIndex<StreamKey, StreamKeyHash> index_;
  std::vector<StreamGaps> streams_;
  int64_t unknown_launch_gaps_ = 0;
};

Table StreamsViewTable() {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               IntCol("stream_id", "CUDA stream id"),
               IntCol("ops", "Kernels, memcpys and memsets on the stream"),
               IntCol("span_ns", "First op start to last op end on the stream"),
               IntCol("busy_ns", "Union of op time on the stream"),
               IntCol("idle_ns", "span_ns - busy_ns"),
               IntCol("host_wait_ns", "Idle before ops whose launch call began after the stream went idle"),
               IntCol("kernel_wait_ns", "Idle in gaps shorter than kernel_wait_ns (launch overhead)"),
               IntCol("other_ns", "Remaining idle time (dependencies, synchronization)"),
               DoubleCol("host_wait_pct", "host_wait_ns / idle_ns x 100")};
  return t;
}

Expected<Table> StreamsView(const Context& ctx) {
  const Ns kernel_wait_ns = ArgInt(ctx, "kernel_wait_ns");
  StreamIdleSweep sweep(ctx.profile.runtime(), kernel_wait_ns);
  auto add = [&](const auto& t, size_t i) { sweep.Add(t, i); };
  const bool ok = ForEachGpuOpRow(ctx.profile, ctx.filter, GpuOpsOptions{}, ctx.cancel, add);
  if (!ok) return CancelledError();
  const std::vector<StreamGaps>& streams = sweep.Finish();

  Table t = StreamsViewTable();
  for (const StreamGaps& r : streams) {
    const Ns idle = r.host_wait + r.kernel_wait + r.other;
    t.rows.push_back({I(r.key.pid), I(r.key.device), I(r.key.stream), I(r.ops), I(r.last_end - r.first_start),
                      I(r.busy), I(idle), I(r.host_wait), I(r.kernel_wait), I(r.other),
                      idle > 0 ? D(100.0 * static_cast<double>(r.host_wait) / static_cast<double>(idle)) : Null()});
  }
  t.notes.push_back(fmt::format(
      "HTA's idle-time breakdown per stream, most idle first. An idle interval before an op is host wait when the op's "
      "launching API call began after the previous op on the stream ended (the CPU was late), kernel wait when the "
      "gap is shorter than kernel_wait_ns={} ns (launch overhead between back-to-back ops), and other otherwise. "
      "Percentages are of the stream's idle time.",
      kernel_wait_ns));
  if (sweep.unknown_launch_gaps() > 0) {
    t.notes.push_back(fmt::format(
        "Coverage: {} idle intervals precede ops whose launch call is not in the export; they count as other, so "
        "host wait may be understated.",
        sweep.unknown_launch_gaps()));
  }
  if (streams.empty()) t.notes.push_back("No GPU operations in the selection.");
  t.notes.push_back(WindowNote(ctx.filter));
  return t;
}

class GpuIdleGapsSkill final : public Skill {
 public:
  std::string name() const override { return "gpu_idle_gaps"; }
  std::string description() const override {
    return "GPU idle gaps per process and device longer than a threshold (NVIDIA gpu-starv), or HTA's per-stream "
           "idle breakdown into host wait, kernel wait and other.";
  }
  std::vector<ArgSpec> args() const override {
    return {
        {"threshold_ms",
         ValueType::kDouble,
         "Report gaps strictly longer than this many milliseconds (500 reproduces NVIDIA's gpu-starv).",
         Value(1.0),
         false,
         {},
         /*min=*/0.0},
        {"view",
         ValueType::kString,
         "\"gaps\": the gaps, longest first; \"streams\": HTA idle breakdown per stream.",
         Value(std::string(kViewGaps)),
         false,
         {kViewGaps, kGapsViewStreams}},
        {"kernel_wait_ns",
         ValueType::kInt,
         "view=streams: idle gaps shorter than this count as kernel wait (HTA's default is 30 ns).",
         Value(int64_t{30}),
         false,
         {},
         /*min=*/0.0},
        LimitArg(100, "view=gaps: maximum gaps to return, longest first; 0 returns every gap."),
    };
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kOverhead |
           engine::Need::kRuntime;
  }
  std::string reference() const override { return "gpu-starv"; }

  Expected<Table> run(const Context& ctx) const override {
    const auto& caps = ctx.profile.info().caps;
    if (!caps.kernels && !caps.memcpy && !caps.memset) {
      return Declined(
          "This profile has no GPU operations (no kernel, memcpy or memset activity was traced), so there are no GPU "
          "idle gaps to measure.");
    }
    const double threshold_ms = ArgDouble(ctx, "threshold_ms");
    if (ArgString(ctx, "view") == kGapsViewStreams) return StreamsView(ctx);
    return GapsView(ctx, static_cast<Ns>(std::llround(threshold_ms * 1e6)));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeGpuIdleGaps() {
  return std::make_shared<GpuIdleGapsSkill>();
}

}  // namespace nsys::skills::builtin
