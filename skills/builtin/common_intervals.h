#pragma once
// Interval arithmetic shared by the GPU-time skills: unions, intersections, differences and idle gaps.
// Every function is a linear sweep over inputs already sorted by start; nothing here allocates per event
// beyond the output vectors.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "nsys/engine/model.h"

namespace nsys::skills::builtin {

using engine::Ns;

struct Interval {
  Ns start = 0;
  Ns end = 0;
  Ns length() const { return end > start ? end - start : 0; }
};

// Appends `iv` to a disjoint, start-sorted union under construction. Intervals must arrive in start order;
// touching or overlapping intervals merge; empty ones (end <= start) are ignored.
void AppendToUnion(std::vector<Interval>& merged, Interval iv);

// Union of intervals sorted by start, as disjoint sorted intervals.
std::vector<Interval> UnionOfSorted(const std::vector<Interval>& sorted_by_start);

// Sorts by start, then unions.
std::vector<Interval> UnionOf(std::vector<Interval> intervals);

Ns TotalLength(const std::vector<Interval>& disjoint);

// |a ∩ b| and a \ b for disjoint, sorted a and b.
Ns IntersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b);
std::vector<Interval> Difference(const std::vector<Interval>& a, const std::vector<Interval>& b);

// |disjoint ∩ [lo, hi)|. Binary search for the first interval, so cheap for narrow windows.
Ns ClippedLength(const std::vector<Interval>& disjoint, Ns lo, Ns hi);

// Idle gaps of a set of intervals sorted by start: the holes of their union between the first start and
// the last end. This is exactly what NVIDIA's gpu-starv pairing computes (sort starts and ends separately,
// pair end j with start j+1, keep end < start): at any instant t, #starts <= t minus #ends < t is the
// number of running ops, which is zero exactly inside a hole of the union (tests/skills check the
// equivalence on random inputs). Only gaps longer than `min_length` are returned.
std::vector<Interval> IdleGaps(const std::vector<Interval>& sorted_by_start, Ns min_length);

// |A ∩ b| where the disjoint intervals of A arrive one by one in increasing order (e.g. from
// ForEachUnionInterval or a streaming union) and b is disjoint and sorted: O(|A| + |b|), nothing stored.
class IntersectionSweep {
 public:
  explicit IntersectionSweep(const std::vector<Interval>* b) : b_(b) {}
  void Add(const Interval& a) {
    const std::vector<Interval>& b = *b_;
    while (cursor_ < b.size() && b[cursor_].end <= a.start) ++cursor_;
    for (size_t j = cursor_; j < b.size() && b[j].start < a.end; ++j) {
      total_ += std::min(b[j].end, a.end) - std::max(b[j].start, a.start);
      if (b[j].end > a.end) break;  // may overlap the next interval of A too
      cursor_ = j + 1;
    }
  }
  Ns total() const { return total_; }

 private:
  const std::vector<Interval>* b_;
  size_t cursor_ = 0;
  Ns total_ = 0;
};

// IdleGaps plus the union's total length, in the same single sweep.
struct IdleSweep {
  std::vector<Interval> gaps;  // longer than min_length
  Ns busy = 0;                 // |∪ intervals|
};
IdleSweep SweepIdle(const std::vector<Interval>& sorted_by_start, Ns min_length);

// The same sweep fed one interval at a time (in start order), for callers that stream ops.
class IdleSweeper {
 public:
  explicit IdleSweeper(Ns min_length) : min_length_(min_length) {}
  void Add(const Interval& op) {
    if (!started_) {
      started_ = true;
      covered_from_ = op.start;
      busy_until_ = std::max(op.end, op.start);
      return;
    }
    if (op.start > busy_until_) {
      // Zero-length ops still split a gap, as they do in NVIDIA's start/end pairing.
      if (op.start - busy_until_ > min_length_) out_.gaps.push_back({busy_until_, op.start});
      out_.busy += busy_until_ - covered_from_;
      covered_from_ = op.start;
    }
    busy_until_ = std::max(busy_until_, op.end);
  }
  IdleSweep Finish() {
    if (started_) out_.busy += busy_until_ - covered_from_;
    started_ = false;
    return std::move(out_);
  }

 private:
  Ns min_length_;
  bool started_ = false;
  Ns covered_from_ = 0, busy_until_ = 0;
  IdleSweep out_;
};

// A union built from start-ordered intervals, handing each finished (disjoint) interval to a callback.
class UnionStreamer {
 public:
  template <typename Fn>
  void Add(const Interval& iv, Fn&& on_closed) {
    if (iv.end <= iv.start) return;
    if (open_ && iv.start <= cur_.end) {
      cur_.end = std::max(cur_.end, iv.end);
      return;
    }
    if (open_) on_closed(cur_);
    cur_ = iv;
    open_ = true;
  }
  template <typename Fn>
  void Finish(Fn&& on_closed) {
    if (open_) on_closed(cur_);
    open_ = false;
  }

 private:
  bool open_ = false;
  Interval cur_;
};

// Calls fn(Interval) for each interval of the union of start-sorted intervals, in order, without storing it.
template <typename Fn>
void ForEachUnionInterval(const std::vector<Interval>& sorted_by_start, Fn&& fn) {
  UnionStreamer u;
  for (const Interval& iv : sorted_by_start) u.Add(iv, fn);
  u.Finish(fn);
}

}  // namespace nsys::skills::builtin
