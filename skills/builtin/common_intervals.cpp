#include "common_intervals.h"

#include <algorithm>

namespace nsys::skills::builtin {

void AppendToUnion(std::vector<Interval>& merged, Interval iv) {
  if (iv.end <= iv.start) return;
  if (!merged.empty() && iv.start <= merged.back().end) {
    merged.back().end = std::max(merged.back().end, iv.end);
  } else {
    merged.push_back(iv);
  }
}

std::vector<Interval> UnionOfSorted(const std::vector<Interval>& sorted_by_start) {
  std::vector<Interval> merged;
  for (const Interval& iv : sorted_by_start) AppendToUnion(merged, iv);
  return merged;
}

std::vector<Interval> UnionOf(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  return UnionOfSorted(intervals);
}

Ns TotalLength(const std::vector<Interval>& disjoint) {
  Ns total = 0;
  for (const Interval& iv : disjoint) total += iv.length();
  return total;
}

Ns IntersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  Ns total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    Ns lo = std::max(a[i].start, b[j].start);
    Ns hi = std::min(a[i].end, b[j].end);
    if (hi > lo) total += hi - lo;
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

std::vector<Interval> Difference(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  size_t j = 0;
  for (const Interval& iv : a) {
    Ns cursor = iv.start;
    while (j < b.size() && b[j].end <= cursor) ++j;
    size_t k = j;
    while (k < b.size() && b[k].start < iv.end) {
      if (b[k].start > cursor) out.push_back({cursor, b[k].start});
      cursor = std::max(cursor, b[k].end);
      if (cursor >= iv.end) break;
      ++k;
    }
    if (cursor < iv.end) out.push_back({cursor, iv.end});
  }
  return out;
}

Ns ClippedLength(const std::vector<Interval>& disjoint, Ns lo, Ns hi) {
  if (hi <= lo) return 0;
  auto it =
      std::lower_bound(disjoint.begin(), disjoint.end(), lo, [](const Interval& iv, Ns t) { return iv.end <= t; });
  Ns total = 0;
  for (; it != disjoint.end() && it->start < hi; ++it) {
    total += std::min(it->end, hi) - std::max(it->start, lo);
  }
  return total;
}

std::vector<Interval> IdleGaps(const std::vector<Interval>& sorted_by_start, Ns min_length) {
  return SweepIdle(sorted_by_start, min_length).gaps;
}

IdleSweep SweepIdle(const std::vector<Interval>& sorted_by_start, Ns min_length) {
  IdleSweeper sweeper(min_length);
  for (const Interval& op : sorted_by_start) sweeper.Add(op);
  return sweeper.Finish();
}

}  // namespace nsys::skills::builtin
