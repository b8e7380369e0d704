// job_step_times: each rank's step (training iteration) time and the spread across ranks.
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "job_common.h"

namespace nsys::skills::job {
namespace {

StepStats::Rank StepStatsOf(size_t r, const RankPartial& p) {
  StepStats::Rank s;
  s.rank = r;
  s.steps = static_cast<int64_t>(p.steps.size());
  if (p.steps.empty()) return s;
  std::vector<Ns> d;
  Ns total = 0;
  for (const StepSample& st : p.steps) {
    d.push_back(st.end - st.start);
    total += d.back();
  }
  s.mean_ns = total / s.steps;
  s.min_ns = *std::min_element(d.begin(), d.end());
  s.max_ns = *std::max_element(d.begin(), d.end());
  s.median_ns = MedianOf(std::move(d));
  return s;
}

}  // namespace

Merged<StepStats> MergeStepTimes(const std::vector<RankPartial>& ranks) {
  Merged<StepStats> m;
  std::vector<Ns> medians;
  for (size_t r = 0; r < ranks.size(); ++r) {
    m.figures.ranks.push_back(StepStatsOf(r, ranks[r]));
    if (m.figures.ranks.back().steps > 0) medians.push_back(m.figures.ranks.back().median_ns);
  }
  if (!medians.empty()) {
    const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
    m.figures.spread_ns = *hi - *lo;
    const Ns mid = MedianOf(medians);
    m.figures.spread_pct = mid > 0 ? 100.0 * static_cast<double>(m.figures.spread_ns) / static_cast<double>(mid) : 0;
  }
  Table& t = m.table;
  t.columns = RankColumns();
  t.columns.insert(
      t.columns.end(),
      {builtin::StringCol("method", "How steps were found: nvtx_range, nvtx_mark or kernel_period"),
       builtin::IntCol("steps", "Steps found on the rank"), builtin::IntCol("median_ns", "Median step duration"),
       builtin::IntCol("mean_ns", "Mean step duration (rounded down)"), builtin::IntCol("min_ns", "Shortest step"),
       builtin::IntCol("max_ns", "Longest step"),
       builtin::DoubleCol("vs_job_median_pct", "(rank median - median of the ranks' medians) / that median x 100")});
  const Ns job_median = MedianOf(medians);
  for (const StepStats::Rank& s : m.figures.ranks) {
    std::vector<Value> row = RankCells(ranks, s.rank);
    const bool any = s.steps > 0;
    row.insert(row.end(),
               {builtin::S(ranks[s.rank].step_method), builtin::I(s.steps),
                any ? builtin::I(s.median_ns) : builtin::Null(), any ? builtin::I(s.mean_ns) : builtin::Null(),
                any ? builtin::I(s.min_ns) : builtin::Null(), any ? builtin::I(s.max_ns) : builtin::Null(),
                any && job_median > 0 ? builtin::D(100.0 * static_cast<double>(s.median_ns - job_median) /
                                                   static_cast<double>(job_median))
                                      : builtin::Null()});
    t.rows.push_back(std::move(row));
  }
  if (medians.empty()) {
    t.notes.push_back(
        NoStepsNote(ranks, "No rank has steps: pass marker=<NVTX range name> if the application marks its steps."));
  } else {
    t.notes.push_back(fmt::format(
        "Spread of the ranks' median step times: {} ({}) over {} ranks with steps; step durations are on each rank's "
        "own clock, so no alignment is needed.",
        builtin::FormatDuration(m.figures.spread_ns), builtin::FormatPct(m.figures.spread_pct), medians.size()));
  }
  return m;
}

}  // namespace nsys::skills::job
