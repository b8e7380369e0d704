// job_overlap: compute/communication overlap per rank (HTA's convention, as nccl_breakdown per device).
#include <fmt/format.h>

#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "job_common.h"

namespace nsys::skills::job {

Merged<std::vector<OverlapRankStats>> MergeOverlap(const std::vector<RankPartial>& ranks) {
  Merged<std::vector<OverlapRankStats>> m;
  Table& t = m.table;
  t.columns = RankColumns();
  t.columns.insert(t.columns.end(),
                   {builtin::IntCol("compute_busy_ns", "|∪ compute kernels| (per device, summed)"),
                    builtin::IntCol("comm_busy_ns", "|∪ communication kernels| (per device, summed)"),
                    builtin::IntCol("overlap_ns", "|∪ compute ∩ ∪ communication|"),
                    builtin::IntCol("exposed_ns", "|∪ communication \\ ∪ compute|: communication with no compute"),
                    builtin::DoubleCol("overlap_pct", "overlap_ns / comm_busy_ns x 100; null without communication")});
  Ns exposed = 0, busy = 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankPartial& p = ranks[r];
    OverlapRankStats s{r, p.compute_busy_ns, p.comm_busy_ns, p.comm_overlap_ns, p.comm_busy_ns - p.comm_overlap_ns, 0};
    if (s.comm_busy_ns > 0) {
      s.overlap_pct = 100.0 * static_cast<double>(s.overlap_ns) / static_cast<double>(s.comm_busy_ns);
    }
    exposed += s.exposed_ns;
    busy += s.comm_busy_ns;
    std::vector<Value> row = RankCells(ranks, r);
    row.insert(row.end(), {builtin::I(s.compute_busy_ns), builtin::I(s.comm_busy_ns), builtin::I(s.overlap_ns),
                           builtin::I(s.exposed_ns), s.comm_busy_ns > 0 ? builtin::D(s.overlap_pct) : builtin::Null()});
    t.rows.push_back(std::move(row));
    m.figures.push_back(s);
  }
  t.notes.push_back(
      "Overlap convention (HTA, as nccl_breakdown): overlap_pct = |∪compute ∩ ∪comm| / |∪comm|, exposed = "
      "|∪comm \\ ∪compute|, per device and summed over the rank's devices; compute = every non-communication kernel.");
  if (busy > 0) {
    t.notes.push_back(fmt::format("Over the job, {} of {} communication time is exposed (not hidden by compute).",
                                  builtin::FormatDuration(exposed), builtin::FormatDuration(busy)));
  } else {
    t.notes.push_back("No rank has communication kernels.");
  }
  return m;
}

}  // namespace nsys::skills::job
