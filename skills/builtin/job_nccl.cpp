// job_nccl: NCCL time (and bandwidth where sizes are known) per rank and per collective, with the spread across
// ranks of each collective's time.
#include <fmt/format.h>

#include <algorithm>
#include <map>
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

}  // namespace

Merged<std::vector<NcclRankStats>> MergeNccl(const std::vector<RankPartial>& ranks) {
  Merged<std::vector<NcclRankStats>> m;
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (ranks[r].collective_totals.empty()) continue;
    m.figures.push_back(AllOf(r, ranks[r]));
    for (const CollectiveTotals& c : ranks[r].collective_totals) m.figures.push_back(NcclStatsOf(r, c));
  }
  Table& t = m.table;
  t.columns = RankColumns();
  t.columns.insert(
      t.columns.end(),
      {builtin::StringCol("collective", "Collective parsed from the kernel name; \"all\" = every communication kernel"),
       builtin::IntCol("count", "Kernels"), builtin::IntCol("total_ns", "Σ kernel durations"),
       builtin::DoubleCol("avg_ns", "Mean kernel duration"),
       builtin::IntCol("busy_ns", "|∪ these kernels| on the rank's devices"),
       builtin::IntCol("bytes", "Message bytes; null when the export does not give them"),
       builtin::DoubleCol("bandwidth_gbps", "bytes / busy_ns (GB/s); null when bytes are unknown")});
  for (const NcclRankStats& s : m.figures) {
    std::vector<Value> row = RankCells(ranks, s.rank);
    row.insert(row.end(),
               {builtin::S(CollectiveKindName(s.kind)), builtin::I(s.count), builtin::I(s.total_ns),
                builtin::D(static_cast<double>(s.total_ns) / static_cast<double>(std::max<int64_t>(1, s.count))),
                builtin::I(s.busy_ns), s.bytes >= 0 ? builtin::I(s.bytes) : builtin::Null(),
                s.bandwidth_gbps >= 0 ? builtin::D(s.bandwidth_gbps) : builtin::Null()});
    t.rows.push_back(std::move(row));
  }
  t.notes.push_back(builtin::kCommPatternsNote);
  if (m.figures.empty()) {
    t.notes.push_back("No rank has communication kernels.");
    return m;
  }
  AddSpreadNotes(ranks, m.figures, t);
  t.notes.push_back(
      "Bandwidth is not reported: kernel rows carry no message sizes, and the engine does not decode NCCL's NVTX "
      "payloads, so bytes per collective are unknown here.");
  return m;
}

}  // namespace nsys::skills::job
