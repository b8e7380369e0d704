// job_step_heatmap: the ranks x steps matrix of step durations (the data of the clients' heat map), one row per
// cell, with each cell relative to that step's median across ranks.
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "job_common.h"

namespace nsys::skills::job {
namespace {

// Step 1: the matrix; a rank with steps on several devices keeps the longest of each index (the one its
// collectives wait for). Busy times follow the same cell.
void Fill(const std::vector<RankPartial>& ranks, HeatMap& map, std::vector<std::vector<Ns>>& busy) {
  for (const RankPartial& p : ranks) {
    int64_t count = 0;
    for (const StepSample& s : p.steps) count = std::max(count, s.index + 1);
    map.steps = std::max(map.steps, count);
  }
  const auto width = static_cast<size_t>(map.steps);
  for (const RankPartial& p : ranks) {
    std::vector<Ns>& row = map.step_ns.emplace_back(width, -1);
    std::vector<Ns>& b = busy.emplace_back(width, -1);
    for (const StepSample& s : p.steps) {
      const auto i = static_cast<size_t>(s.index);
      if (s.end - s.start > row[i]) {
        row[i] = s.end - s.start;
        b[i] = s.gpu_busy;
      }
    }
  }
}

}  // namespace

Merged<HeatMap> MergeStepHeatMap(const std::vector<RankPartial>& ranks) {
  Merged<HeatMap> m;
  std::vector<std::vector<Ns>> busy;
  Fill(ranks, m.figures, busy);
  Table& t = m.table;
  t.columns = RankColumns();
  t.columns.insert(
      t.columns.end(),
      {builtin::IntCol("step", "Step index on the rank (0-based)"), builtin::IntCol("step_ns", "Step duration"),
       builtin::IntCol("gpu_busy_ns", "|∪ kernels of the step|"),
       builtin::DoubleCol("vs_step_median_pct", "(step_ns - median of this step over the ranks) / that median x 100")});
  for (size_t s = 0; s < static_cast<size_t>(m.figures.steps); ++s) {
    std::vector<Ns> column;
    for (const auto& row : m.figures.step_ns) {
      if (row[s] >= 0) column.push_back(row[s]);
    }
    const Ns median = MedianOf(std::move(column));
    for (size_t r = 0; r < ranks.size(); ++r) {
      const Ns v = m.figures.step_ns[r][s];
      if (v < 0) continue;
      std::vector<Value> row = RankCells(ranks, r);
      row.insert(row.end(),
                 {builtin::I(static_cast<int64_t>(s)), builtin::I(v), builtin::I(busy[r][s]),
                  median > 0 ? builtin::D(100.0 * static_cast<double>(v - median) / static_cast<double>(median))
                             : builtin::Null()});
      t.rows.push_back(std::move(row));
    }
  }
  if (m.figures.steps == 0) {
    t.notes.push_back(NoStepsNote(ranks, "No rank has steps: pass marker=<NVTX range name>."));
  } else {
    t.notes.push_back(fmt::format(
        "{} ranks x {} steps, one row per cell (rank, step), ordered by step then rank; a rank without step k has no "
        "row for it. Steps are matched by index, each timed on its rank's own clock.",
        ranks.size(), m.figures.steps));
  }
  return m;
}

}  // namespace nsys::skills::job
