// job_nccl: NCCL time (and bandwidth where sizes are known) per rank and per collective, with the spread across
// ranks of each collective's time.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_nccl.h"
#include "job_common.h"

namespace nsys::skills::job {
namespace {

constexpr uint8_t kAllKinds = 0xFF;

NcclRankStats NcclStatsOf(size_t r, const CollectiveTotals& c) {
  NcclRankStats s{r, c.kind, c.count, c.total_ns, c.busy_ns, c.bytes, -1};
  if (c.bytes >= 0 && c.busy_ns > 0) s.bandwidth_gbps = static_cast<double>(c.bytes) / static_cast<double>(c.busy_ns);
  return s;
}

// The rank's "all" row: every communication kernel.
NcclRankStats AllOf(size_t r, const RankPartial& p) {
  NcclRankStats s{r, kAllKinds, 0, p.comm_ns, p.comm_busy_ns, -1, -1};
  for (const CollectiveTotals& c : p.collective_totals) s.count += c.count;
  return s;
}

void AddSpreadNotes(const std::vector<RankPartial>& ranks, const std::vector<NcclRankStats>& stats, Table& t) {
  std::map<uint8_t, std::pair<const NcclRankStats*, const NcclRankStats*>> extremes;  // kind -> (least, most)
  for (const NcclRankStats& s : stats) {
    auto [it, added] = extremes.emplace(s.kind, std::make_pair(&s, &s));
    if (s.total_ns < it->second.first->total_ns) it->second.first = &s;
    if (s.total_ns > it->second.second->total_ns) it->second.second = &s;
  }
  for (const auto& [kind, ex] : extremes) {
    t.notes.push_back(fmt::format("{}: from {} on rank {} ({}) to {} on rank {} ({}).", CollectiveKindName(kind),
                                  builtin::FormatDuration(ex.first->total_ns), ex.first->rank,
                                  ranks[ex.first->rank].label, builtin::FormatDuration(ex.second->total_ns),
                                  ex.second->rank, ranks[ex.second->rank].label));
  }
}

// |[from, to) minus the covered parts|: the exposed time of a kernel's stretch.
Ns ExposedIn(const CollectiveSample& c, Ns from, Ns to) {
  Ns covered = 0;
  for (const auto& [a, b] : c.covered) covered += std::max<Ns>(0, std::min(b, to) - std::max(a, from));
  return (to - from) - covered;
}

// One kernel's exposed time split into skew, transfer and rest (NcclRankStats).
struct ExposureSplit {
  Ns exposed = 0, skew = 0, transfer = 0, rest = 0;
  int64_t matched = 0;  // kernels matched to the same instance on another rank
};
using SplitKey = std::pair<size_t, uint8_t>;  // (rank, kind)

// Step 1: every kernel's split. A matched instance's last start (on the aligned clock) ends each rank's wait, and
// the shortest participant's duration bounds the transfer; an instance on one rank only is all rest.
std::map<SplitKey, ExposureSplit> SplitExposure(const std::vector<RankPartial>& ranks, const ClockAlignment& clocks) {
  std::map<SplitKey, ExposureSplit> out;
  std::set<const CollectiveSample*> matched;
  for (const auto& [key, samples] : MatchInstances(ranks, 2, clocks.ordinal_shift)) {
    Ns last = 0, shortest = 0;
    bool any = false;
    for (size_t r = 0; r < samples.size(); ++r) {
      if (!samples[r]) continue;
      const Ns start = clocks.ToRunClock(r, samples[r]->start), d = samples[r]->end - samples[r]->start;
      last = any ? std::max(last, start) : start;
      shortest = any ? std::min(shortest, d) : d;
      any = true;
    }
    for (size_t r = 0; r < samples.size(); ++r) {
      const CollectiveSample* c = samples[r];
      if (!c) continue;
      matched.insert(c);
      const Ns wait = std::clamp(last - clocks.ToRunClock(r, c->start), Ns{0}, c->end - c->start);
      ExposureSplit& e = out[{r, c->kind}];
      const Ns exposed = ExposedIn(*c, c->start, c->end), skew = ExposedIn(*c, c->start, c->start + wait);
      const Ns transfer = std::min(exposed - skew, shortest);
      e.exposed += exposed, e.skew += skew, e.transfer += transfer, e.rest += exposed - skew - transfer;
      ++e.matched;
    }
  }
  for (size_t r = 0; r < ranks.size(); ++r) {
    for (const CollectiveSample& c : ranks[r].collectives) {
      if (matched.count(&c)) continue;
      const Ns exposed = ExposedIn(c, c.start, c.end);
      ExposureSplit& e = out[{r, c.kind}];
      e.exposed += exposed, e.rest += exposed;
    }
  }
  return out;
}

// Step 2: the splits onto the rows (a rank's "all" row sums its kinds).
void AddSplits(const std::vector<RankPartial>& ranks, const ClockAlignment& clocks, std::vector<NcclRankStats>& stats) {
  const std::map<SplitKey, ExposureSplit> split = SplitExposure(ranks, clocks);
  for (NcclRankStats& s : stats) {
    for (const auto& [key, e] : split) {
      if (key.first != s.rank || (s.kind != kAllKinds && key.second != s.kind)) continue;
      s.exposed_ns += e.exposed, s.skew_ns += e.skew, s.transfer_ns += e.transfer, s.rest_ns += e.rest;
      s.matched += e.matched;
    }
  }
}

}  // namespace

Merged<std::vector<NcclRankStats>> MergeNccl(const std::vector<RankPartial>& ranks, const ClockAlignment& clocks) {
  Merged<std::vector<NcclRankStats>> m;
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (ranks[r].collective_totals.empty()) continue;
    m.figures.push_back(AllOf(r, ranks[r]));
    for (const CollectiveTotals& c : ranks[r].collective_totals) m.figures.push_back(NcclStatsOf(r, c));
  }
  AddSplits(ranks, clocks, m.figures);
  Table& t = m.table;
  t.columns = RankColumns();
  t.columns.insert(
      t.columns.end(),
      {builtin::StringCol("collective", "Collective parsed from the kernel name; \"all\" = every communication kernel"),
       builtin::IntCol("count", "Kernels"), builtin::IntCol("total_ns", "Σ kernel durations"),
       builtin::DoubleCol("avg_ns", "Mean kernel duration"),
       builtin::IntCol("busy_ns", "|∪ these kernels| on the rank's devices"),
       builtin::IntCol("bytes", "Message bytes; null when the export does not give them"),
       builtin::DoubleCol("bandwidth_gbps", "bytes / busy_ns (GB/s); null when bytes are unknown"),
       builtin::IntCol("exposed_ns", "Σ of each kernel's time that no compute kernel of the rank's device overlaps"),
       builtin::IntCol("skew_ns",
                       "Of exposed_ns, the time before the last rank started the same collective instance (aligned "
                       "clock): this rank waited for the others"),
       builtin::IntCol("transfer_ns",
                       "Of exposed_ns after the wait, up to the shortest participant's duration of each instance: "
                       "the transfer itself"),
       builtin::IntCol("rest_ns",
                       "exposed_ns - skew_ns - transfer_ns: the kernel ran longer than the fastest participant, or "
                       "the instance ran on no other rank"),
       builtin::IntCol("matched", "Kernels matched to the same instance on another rank")});
  for (const NcclRankStats& s : m.figures) {
    std::vector<Value> row = RankCells(ranks, s.rank);
    row.insert(row.end(),
               {builtin::S(CollectiveKindName(s.kind)), builtin::I(s.count), builtin::I(s.total_ns),
                builtin::D(static_cast<double>(s.total_ns) / static_cast<double>(std::max<int64_t>(1, s.count))),
                builtin::I(s.busy_ns), s.bytes >= 0 ? builtin::I(s.bytes) : builtin::Null(),
                s.bandwidth_gbps >= 0 ? builtin::D(s.bandwidth_gbps) : builtin::Null(), builtin::I(s.exposed_ns),
                builtin::I(s.skew_ns), builtin::I(s.transfer_ns), builtin::I(s.rest_ns), builtin::I(s.matched)});
    t.rows.push_back(std::move(row));
  }
  t.notes.push_back(builtin::kCommPatternsNote);
  if (m.figures.empty()) {
    t.notes.push_back("No rank has communication kernels.");
    return m;
  }
  AddSpreadNotes(ranks, m.figures, t);
  t.notes.push_back(
      "Exposed communication is split as NVIDIA's Megatron-Bridge analysis and TraceLens do: skew is the part of each "
      "kernel spent waiting for the last rank to join the same collective instance (instances matched by kind, "
      "communication stream and order, starts on the aligned clock: job_clock_alignment), transfer the part up to the "
      "shortest participant's duration, which stands for the transfer itself.");
  t.notes.push_back(
      "Bandwidth is not reported: kernel rows carry no message sizes, and the engine does not decode NCCL's NVTX "
      "payloads, so bytes per collective are unknown here.");
  return m;
}

}  // namespace nsys::skills::job
