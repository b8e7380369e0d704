// job_kernel_imbalance: kernel time per rank and how unevenly it is spread (max vs mean), compute and
// communication apart.
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "job_common.h"

namespace nsys::skills::job {

Merged<ImbalanceStats> MergeKernelImbalance(const std::vector<RankPartial>& ranks) {
  Merged<ImbalanceStats> m;
  ImbalanceStats& f = m.figures;
  Ns total = 0;
  for (const RankPartial& p : ranks) {
    f.kernel_ns.push_back(p.kernel_ns);
    total += p.kernel_ns;
  }
  if (!ranks.empty()) {
    const auto [lo, hi] = std::minmax_element(f.kernel_ns.begin(), f.kernel_ns.end());
    f.min_ns = *lo;
    f.max_ns = *hi;
    f.slowest_rank = static_cast<size_t>(hi - f.kernel_ns.begin());
    f.mean_ns = total / static_cast<Ns>(ranks.size());
    f.imbalance_pct =
        f.mean_ns > 0 ? 100.0 * static_cast<double>(f.max_ns - f.mean_ns) / static_cast<double>(f.mean_ns) : 0;
  }
  Table& t = m.table;
  t.columns = RankColumns();
  t.columns.insert(t.columns.end(), {builtin::IntCol("kernels", "Kernels on the rank"),
                                     builtin::IntCol("kernel_ns", "Σ kernel durations"),
                                     builtin::IntCol("compute_ns", "Σ durations of non-communication kernels"),
                                     builtin::IntCol("comm_ns", "Σ durations of communication kernels"),
                                     builtin::DoubleCol("vs_mean_pct", "(kernel_ns - mean over ranks) / mean x 100")});
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankPartial& p = ranks[r];
    std::vector<Value> row = RankCells(ranks, r);
    row.insert(row.end(),
               {builtin::I(p.kernels), builtin::I(p.kernel_ns), builtin::I(p.compute_ns), builtin::I(p.comm_ns),
                f.mean_ns > 0
                    ? builtin::D(100.0 * static_cast<double>(p.kernel_ns - f.mean_ns) / static_cast<double>(f.mean_ns))
                    : builtin::Null()});
    t.rows.push_back(std::move(row));
  }
  if (!ranks.empty()) {
    t.notes.push_back(fmt::format(
        "Kernel time per rank from {} to {} (mean {}); imbalance (max - mean) / mean = {}, the most on rank {} ({}).",
        builtin::FormatDuration(f.min_ns), builtin::FormatDuration(f.max_ns), builtin::FormatDuration(f.mean_ns),
        builtin::FormatPct(f.imbalance_pct), f.slowest_rank, ranks[f.slowest_rank].label));
  }
  return m;
}

}  // namespace nsys::skills::job
