#pragma once
// Helpers shared by the job merges (job_*.cpp): medians, the `rank` columns, matched collective instances.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common_rows.h"
#include "nsys/skills/job_partials.h"

namespace nsys::skills::job {

// The median of integer values (the mean of the two middle ones, rounded down, for an even count); 0 when empty.
inline Ns MedianOf(std::vector<Ns> v) {
  if (v.empty()) return 0;
  const size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  const Ns hi = v[m];
  if (v.size() % 2) return hi;
  const Ns lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m));
  // lo + (hi - lo) / 2 rounds toward lo; floor keeps MedianOf(x + c) == MedianOf(x) + c for every integer c.
  const Ns diff = hi - lo;
  return lo + diff / 2;
}

// The note of a step skill when no rank has steps: why, as the ranks said it (ReadSteps keeps the iterations
// search's reason as "No steps: ..." in each rank's notes: no kernel repeats with a steady period, or the marker
// matches no range), each distinct reason once, so a job without step markers says that kernel periodicity was
// tried too. `fallback` when no rank gave one.
inline std::string NoStepsNote(const std::vector<RankPartial>& ranks, const std::string& fallback) {
  constexpr std::string_view kPrefix = "No steps: ";
  std::vector<std::string> reasons;
  for (const RankPartial& p : ranks) {
    for (const std::string& n : p.notes) {
      if (!n.starts_with(kPrefix)) continue;
      std::string reason = n.substr(kPrefix.size());
      if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(std::move(reason));
    }
  }
  if (reasons.empty()) return fallback;
  std::string note = "No rank has steps.";
  for (const std::string& r : reasons) note += " " + r;
  return note;
}

// The two leading columns of every per-rank row: the rank, named by its export as every job table names it (the
// `rank` column of `skill run --job`), and its place among the ranks analysed.
inline std::vector<Column> RankColumns() {
  return {builtin::StringCol("rank", "The rank: its export's name"),
          builtin::IntCol("rank_index", "Its place among the ranks analysed (files in name order)")};
}
inline std::vector<Value> RankCells(const std::vector<RankPartial>& ranks, size_t r) {
  return {builtin::S(ranks[r].label), builtin::I(static_cast<int64_t>(r))};
}

// A collective instance as matched across ranks: (kind, channel, ordinal).
using InstanceKey = std::tuple<uint8_t, int32_t, int64_t>;
inline InstanceKey KeyOf(const CollectiveSample& c) {
  return {c.kind, c.channel, c.ordinal};
}

// For each instance seen on at least `min_ranks` ranks: the rank's sample per rank (nullptr where absent). With
// `shifts` (ClockAlignment::ordinal_shift), a rank's ordinals are moved onto rank 0's.
using OrdinalShifts = std::vector<std::map<std::pair<uint8_t, int32_t>, int64_t>>;
std::map<InstanceKey, std::vector<const CollectiveSample*>> MatchInstances(const std::vector<RankPartial>& ranks,
                                                                           size_t min_ranks,
                                                                           const OrdinalShifts& shifts = {});

// The ordinal shift of every rank against rank 0 (job_ordinal_shift.cpp).
OrdinalShifts FindOrdinalShifts(const std::vector<RankPartial>& ranks);

// job_stragglers' table: per rank (by_rank) or the `limit` instances that cost most (0 = all).
Table StragglerTable(const std::vector<RankPartial>& ranks, const std::vector<int32_t>& node_of_rank, bool by_rank,
                     int64_t limit);

}  // namespace nsys::skills::job
