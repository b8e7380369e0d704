// gpu_utilization: GPU time utilization per (pid, device) in equal chunks (NVIDIA rule gpu-low-util), with
// NVIDIA's summed in-use % (can pass 100% with concurrent streams) next to the union-based busy % (never
// above 100%).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

constexpr const char* kViewLow = "low";
constexpr const char* kViewChunks = "chunks";

struct Chunk {
  int64_t id = 0;
  Ns start = 0, end = 0;
  Ns summed = 0;      // Σ op time clipped to the chunk (NVIDIA's numerator)
  Ns busy = 0;        // |∪ ops ∩ chunk|
  int64_t ops = 0;    // ops overlapping the chunk (start < chunk end and end > chunk start, as NVIDIA's join)
  int64_t fresh = 0;  // of those, the ones that overlap no earlier chunk
  double in_use_pct() const { return 100.0 * static_cast<double>(summed) / static_cast<double>(end - start); }
};

// SQLite's round(x, 1): half away from zero.
double Round1(double x) {
  return std::round(x * 10.0) / 10.0;
}

// NVIDIA's chunking: size = ceil(span / n); chunk i = [first + i*size, min(first + (i+1)*size, last)), kept
// while non-empty (so with rounding there can be fewer than n chunks, the last one shorter).
std::vector<Chunk> MakeChunks(Ns first, Ns last, int64_t n) {
  std::vector<Chunk> chunks;
  const Ns span = last - first;
  if (span <= 0) return chunks;
  const Ns size = (span + n - 1) / n;
  for (int64_t i = 0; i < n; ++i) {
    Chunk c;
    c.id = i;
    c.start = first + i * size;
    c.end = std::min(c.start + size, last);
    if (c.start >= c.end) break;
    chunks.push_back(c);
  }
  return chunks;
}

// One (process, device) span's chunks, fed its ops in start order.
class ChunkAccumulator {
 public:
  ChunkAccumulator(Ns first, Ns last, int64_t n) : chunks_(MakeChunks(first, last, n)) {
    if (!chunks_.empty()) size_ = chunks_.front().end - chunks_.front().start;
  }

  void Add(const Interval& op) {
    summed_total_ += op.length();
    Distribute(op, op_cursor_, [&](Chunk& ch, Ns clipped, bool first_hit) {
      ch.summed += clipped;
      ++ch.ops;
      if (first_hit) ++ch.fresh;
    });
    union_.Add(op, [&](const Interval& iv) { AddBusy(iv); });
  }

  std::vector<Chunk>& Finish() {
    union_.Finish([&](const Interval& iv) { AddBusy(iv); });
    return chunks_;
  }
  Ns summed_total() const { return summed_total_; }
  Ns busy_total() const { return busy_total_; }
  Ns chunk_size() const { return size_; }

 private:
  // fn(chunk, clipped length, first chunk of this interval) for each chunk the interval overlaps as NVIDIA's join
  // does (start < chunk end and end > chunk start). Intervals come in start order, so `cursor` (the chunk holding
  // the latest start) only moves forward: O(1) amortized per interval, and no division.
  template <typename Fn>
  void Distribute(const Interval& iv, size_t& cursor, Fn&& fn) {
    const size_t count = chunks_.size();
    if (count == 0) return;
    while (cursor + 1 < count && chunks_[cursor + 1].start <= iv.start) ++cursor;
    bool first_hit = true;
    for (size_t c = cursor; c < count; ++c) {
      Chunk& ch = chunks_[c];
      if (ch.start >= iv.end) break;
      if (!(iv.start < ch.end && iv.end > ch.start)) continue;
      fn(ch, std::min(iv.end, ch.end) - std::max(iv.start, ch.start), first_hit);
      first_hit = false;
    }
  }
  void AddBusy(const Interval& iv) {
    busy_total_ += iv.length();
    Distribute(iv, busy_cursor_, [](Chunk& ch, Ns clipped, bool) { ch.busy += clipped; });
  }

  std::vector<Chunk> chunks_;
  size_t op_cursor_ = 0, busy_cursor_ = 0;
  Ns size_ = 0;
  UnionStreamer union_;
  Ns summed_total_ = 0, busy_total_ = 0;
};

struct Region {
  uint32_t pid;
  int32_t device;
  Ns start, end;
  Ns summed, busy;
  int64_t chunks, first_chunk, ops;
  // NVIDIA's weighted average Σ size·pct / Σ size equals Σ summed / Σ size for contiguous chunks.
  double in_use_pct() const { return 100.0 * static_cast<double>(summed) / static_cast<double>(end - start); }
};

class GpuUtilizationSkill final : public Skill {
 public:
  std::string name() const override { return "gpu_utilization"; }
  std::string description() const override {
    return "GPU time utilization per process and device in equal chunks, flagging low-use regions (NVIDIA "
           "gpu-low-util), with both summed in-use % and union-based busy %.";
  }
  std::vector<ArgSpec> args() const override {
    return {
        {"chunks",
         ValueType::kInt,
         "Number of equal chunks of [first op start, last op end] per process and device "
         "(1 to 1000, as NVIDIA).",
         Value(int64_t{30}),
         false,
         {},
         /*min=*/1.0,
         /*max=*/1000.0},
        {"threshold_pct",
         ValueType::kDouble,
         "Flag chunks whose summed in-use % is below this.",
         Value(50.0),
         false,
         {}},
        {"view",
         ValueType::kString,
         "\"low\": merged runs of low-use chunks (NVIDIA's output); \"chunks\": every chunk with both measures.",
         Value(std::string(kViewLow)),
         false,
         {kViewLow, kViewChunks}},
    };
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kOverhead;
  }
  std::string reference() const override { return "gpu-low-util"; }

  Expected<Table> run(const Context& ctx) const override {
    const auto& caps = ctx.profile.info().caps;
    if (!caps.kernels && !caps.memcpy && !caps.memset) {
      return Declined(
          "This profile has no GPU operations (no kernel, memcpy or memset activity was traced), so GPU utilization "
          "cannot be measured.");
    }
    const int64_t n = ArgInt(ctx, "chunks");
    const double threshold = ArgDouble(ctx, "threshold_pct");
    const bool all_chunks = ArgString(ctx, "view") == kViewChunks;
    auto scanned = GpuOpGroups::Scan(ctx.profile, ctx.filter, GpuOpsOptions{}, ctx.cancel);
    if (!scanned) return scanned.error();
    const std::vector<GpuOpGroup>& groups = scanned->groups();
    std::vector<ChunkAccumulator> acc;
    for (const GpuOpGroup& g : groups) acc.emplace_back(g.first_start, g.last_end, n);
    if (!scanned->Stream(ctx.profile, ctx.filter, ctx.cancel, [&](size_t g, const Interval& op) { acc[g].Add(op); })) {
      return CancelledError();
    }

    Table t = EmptyTable();
    std::vector<Region> regions;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      const std::vector<Chunk>& chunks = acc[gi].Finish();
      t.notes.push_back(SpanNote(groups[gi], acc[gi], chunks.size()));
      AppendRegions(groups[gi], chunks, threshold, all_chunks, regions);
    }
    if (!all_chunks) SortLowestFirst(regions);
    for (const Region& r : regions) {
      const double len = static_cast<double>(r.end - r.start);
      t.rows.push_back({D(Round1(r.in_use_pct())), D(Round1(100.0 * static_cast<double>(r.busy) / len)),
                        I(r.end - r.start), I(r.start), I(r.pid), I(r.device), I(r.chunks), I(r.first_chunk), I(r.ops),
                        I(r.summed), I(r.busy)});
    }
    t.notes.insert(
        t.notes.begin(),
        all_chunks
            ? fmt::format("Every chunk of each (process, device), {} per span, with both measures.", n)
            : fmt::format(
                  "Regions where the GPU's summed in-use % is below {}%: each (process, device) span from its first "
                  "op start to its last op end is cut into {} equal chunks (NVIDIA's gpu-low-util), and consecutive "
                  "low chunks merge with a duration-weighted average. Lowest first.",
                  threshold, n));
    t.notes.push_back(
        "Denominators: in_use_pct and busy_pct divide by the region's length on that device. in_use_pct (NVIDIA's) "
        "sums op time, so overlapping ops on several streams can push it past 100%; busy_pct counts time with at "
        "least one op running and never passes 100%. Ops are kernels, memcpys, memsets and NVIDIA's counted "
        "profiler-overhead rows.");
    if (groups.empty()) t.notes.push_back("No GPU operations in the selection.");
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }

 private:
  static Table EmptyTable() {
    Table t;
    t.columns = {DoubleCol("in_use_pct",
                           "NVIDIA's in-use %: in_use_ns / duration_ns x 100, one decimal; concurrent "
                           "ops add up, so it can pass 100"),
                 DoubleCol("busy_pct", "Union-based busy %: busy_ns / duration_ns x 100, one decimal; at most 100"),
                 IntCol("duration_ns", "Region length"),
                 IntCol("start_ns", "Region start (capture clock)"),
                 IntCol("pid", "Process id"),
                 IntCol("device_id", "GPU device id"),
                 IntCol("chunks", "Chunks in the region"),
                 IntCol("first_chunk", "0-based index of the region's first chunk in its (process, device) span"),
                 IntCol("ops", "Ops overlapping the region"),
                 IntCol("in_use_ns", "Σ op time clipped to the region (in_use_pct's numerator)"),
                 IntCol("busy_ns", "Time with at least one op running (busy_pct's numerator)")};
    return t;
  }

  static std::string SpanNote(const GpuOpGroup& g, const ChunkAccumulator& acc, size_t chunks) {
    const Ns summed_total = acc.summed_total(), busy_total = acc.busy_total();
    const Ns span = g.last_end - g.first_start;
    return fmt::format(
        "pid {} device {}: span {} (first op start to last op end), {} chunks of {}; summed in-use {}, union busy "
        "{} of the span.",
        g.pid, g.device, FormatDuration(span), chunks, FormatDuration(chunks == 0 ? 0 : acc.chunk_size()),
        FormatPct(span > 0 ? 100.0 * static_cast<double>(summed_total) / static_cast<double>(span) : 0),
        FormatPct(span > 0 ? 100.0 * static_cast<double>(busy_total) / static_cast<double>(span) : 0));
  }

  // Every chunk (all_chunks), or the runs of consecutive chunks below the threshold merged into one region each
  // (duration-weighted average).
  static void AppendRegions(const GpuOpGroup& g, const std::vector<Chunk>& chunks, double threshold, bool all_chunks,
                            std::vector<Region>& regions) {
    for (const Chunk& c : chunks) {
      const bool low = c.in_use_pct() < threshold;
      if (!all_chunks && !low) continue;
      if (!all_chunks && !regions.empty() && regions.back().pid == g.pid && regions.back().device == g.device &&
          regions.back().end == c.start) {
        Region& r = regions.back();
        r.end = c.end;
        r.summed += c.summed;
        r.busy += c.busy;
        r.ops += c.fresh;
        ++r.chunks;
      } else {
        regions.push_back({g.pid, g.device, c.start, c.end, c.summed, c.busy, 1, c.id, c.ops});
      }
    }
  }

  static void SortLowestFirst(std::vector<Region>& regions) {
    std::sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
      const double pa = Round1(a.in_use_pct()), pb = Round1(b.in_use_pct());
      if (pa != pb) return pa < pb;
      if (a.end - a.start != b.end - b.start) return a.end - a.start < b.end - b.start;
      return a.start < b.start;
    });
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeGpuUtilization() {
  return std::make_shared<GpuUtilizationSkill>();
}

}  // namespace nsys::skills::builtin
