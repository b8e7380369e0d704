#pragma once
// Summary statistics and grouping helpers shared by the skills that mirror `nsys stats` summaries.
//
// Definitions follow NVIDIA's reports: the median of an even count is the mean of the two middle values, the
// standard deviation is the sample one (n - 1; 0 for a single value), and "Time (%)" is a share of the sum of
// the listed rows. Grouping never compares strings per row: callers map rows to dense group ids (by StrId or
// a packed 64-bit key through DenseIndex), and SummarizeGroups sorts values by group once (a counting sort),
// so no per-group vectors are allocated.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/skills/huge_pages.h"
#include "nsys/support/value.h"

namespace nsys::skills {

struct SampleSummary {
  int64_t count = 0;
  int64_t total = 0;
  int64_t min = 0;
  int64_t max = 0;
  double avg = 0;
  double median = 0;
  double stddev = 0;  // sample standard deviation; 0 for one value
};

// Summarises `values` (reorders them: nth_element). An empty span gives a zero summary.
SampleSummary Summarize(std::span<int64_t> values);

// Count, total, min, max and the exact first and second moments of a stream of values, one Add() per value: what
// a grouped summary needs besides the median, gathered in the same pass that groups the values.
__extension__ using UInt128 = unsigned __int128;  // GCC and Clang; __extension__ keeps -Wpedantic quiet

// |v| as unsigned, defined for INT64_MIN too.
inline uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

struct RunningMoments {
  int64_t count = 0;
  int64_t total = 0;
  int64_t min = 0;
  int64_t max = 0;
  UInt128 sum_squares = 0;  // exact: no cancellation when the mean dwarfs the spread
  void Add(int64_t v) {
    min = count == 0 || v < min ? v : min;
    max = count == 0 || v > max ? v : max;
    ++count;
    // Unsigned arithmetic wraps instead of overflowing on absurd inputs; StddevFromMoments checks the bounds.
    total = static_cast<int64_t>(static_cast<uint64_t>(total) + static_cast<uint64_t>(v));
    const uint64_t magnitude = Magnitude(v);
    sum_squares += static_cast<UInt128>(magnitude) * magnitude;
  }
};

// The summary of values whose moments are `m` and which are all in `values` (reordered); the median is selected
// with the known min/max bounds, and the standard deviation comes from the exact moments when they cannot have
// overflowed (else from a second pass over `values`).
SampleSummary SummarizeWithMoments(std::span<int64_t> values, const RunningMoments& m);

// A run of integers read in place, held as 32-bit values (non-negative and below 2^32: half the memory and the reads)
// or as 64-bit ones.
struct ValueRun {
  const uint32_t* narrow = nullptr;
  const int64_t* wide = nullptr;
  size_t size = 0;

  int64_t operator[](size_t i) const { return narrow != nullptr ? int64_t{narrow[i]} : wide[i]; }
  ValueRun subspan(size_t at, size_t count) const {
    return narrow != nullptr ? ValueRun{narrow + at, nullptr, count} : ValueRun{nullptr, wide + at, count};
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (narrow != nullptr) {
      for (size_t i = 0; i < size; ++i) fn(int64_t{narrow[i]});
    } else {
      for (size_t i = 0; i < size; ++i) fn(wide[i]);
    }
  }
};

// The summary Summarize() gives of the values in `parts` (e.g. the slices of an index), without reordering them: a
// small input is copied into `scratch` to select its median, a large one is selected in place by read-only passes.
// Only when the exact moments could overflow (values near 2^62) is `in_order` called, to append the values to a
// vector in the order Summarize() would have seen them, for the standard deviation's second pass.
SampleSummary SummarizeInPlace(std::span<const ValueRun> parts, std::vector<int64_t>& scratch,
                               const std::function<void(std::vector<int64_t>&)>& in_order);

// Summaries of values grouped by dense group id. `group_of_row[i]` is the group of row i, or -1 to skip it;
// `value_of_row(i)` is called once per kept row. Returns one summary per group id in [0, num_groups).
template <typename ValueFn>
std::vector<SampleSummary> SummarizeGroups(std::span<const int32_t> group_of_row, size_t num_groups,
                                           ValueFn&& value_of_row);

// The same for several value series over one grouping (e.g. duration and exclusive time): the group layout is
// computed once and one scratch buffer is reused, which matters at tens of millions of rows.
class GroupedSamples {
 public:
  GroupedSamples(std::span<const int32_t> group_of_row, size_t num_groups);
  // When the caller already gathered each group's moments (e.g. while it grouped the rows): their counts give the
  // layout, so neither the counting pass nor the per-value moments are done again.
  GroupedSamples(std::span<const int32_t> group_of_row, std::vector<RunningMoments> moments);
  template <typename ValueFn>
  std::vector<SampleSummary> Summarize(ValueFn&& value_of_row);

 private:
  // Each group's summary from its slice of flat_; big inputs split the groups over two threads.
  void SummarizeAllGroups(const std::vector<RunningMoments>& moments, std::vector<SampleSummary>& out);

  std::span<const int32_t> group_of_row_;
  std::vector<RunningMoments> known_moments_;  // empty unless given
  std::vector<size_t> offset_;
  std::vector<size_t> cursor_;
  // Every value is written before it is read, so no zero-fill: on tens of millions of values the fill alone
  // costs as much as the grouping pass. Huge pages: the first touch of 4 KiB pages cost more than the scatter.
  HugeArray<int64_t> flat_;
  size_t flat_size_ = 0;
};

// Maps 64-bit keys to dense ids 0, 1, 2, ... in first-seen order. Open addressing with linear probing: one
// multiply and usually one probe per lookup, which keeps per-row grouping of millions of rows cheap.
class DenseIndex {
 public:
  DenseIndex() { Rehash(64); }
  // The id of `key`, inserting it when new. Inline: it runs once or twice per row in grouping loops.
  int32_t IdOf(uint64_t key) {
    const size_t mask = slot_ids_.size() - 1;
    size_t slot = Slot(key);
    while (slot_ids_[slot] >= 0) {
      if (slot_keys_[slot] == key) return slot_ids_[slot];
      slot = (slot + 1) & mask;
    }
    return Insert(slot, key);
  }
  // The id of `key`, or -1.
  int32_t Find(uint64_t key) const {
    const size_t mask = slot_ids_.size() - 1;
    size_t slot = Slot(key);
    while (slot_ids_[slot] >= 0) {
      if (slot_keys_[slot] == key) return slot_ids_[slot];
      slot = (slot + 1) & mask;
    }
    return -1;
  }
  uint64_t key(int32_t id) const { return keys_[static_cast<size_t>(id)]; }
  size_t size() const { return keys_.size(); }

 private:
  void Rehash(size_t capacity);
  int32_t Insert(size_t slot, uint64_t key);
  size_t Slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }

  std::vector<uint64_t> slot_keys_;
  std::vector<int32_t> slot_ids_;  // -1 = empty
  std::vector<uint64_t> keys_;     // by id
  int shift_ = 58;
};

inline uint64_t PackKey(uint32_t hi, uint32_t lo) {
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

// Rounds half away from zero to `decimals` places, as the printed `nsys stats` columns are.
double RoundTo(double value, int decimals);
// 100 * part / whole rounded to one decimal ("Time (%)"); a null Value when whole is 0 (SQL's division by zero).
Value PctOf(int64_t part, int64_t whole);

// nsys's API-name rule: a name whose 6th- and 5th-last characters are "_v" loses its last six characters
// ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel"); others ("cudaStreamIsCapturing_v10000") are kept as is.
std::string_view StripApiVersionSuffix(std::string_view name);

// ------------------------------------------------------------------------------------------------------------
inline GroupedSamples::GroupedSamples(std::span<const int32_t> group_of_row, size_t num_groups)
    : group_of_row_(group_of_row), offset_(num_groups + 1, 0) {
  for (int32_t g : group_of_row) {
    if (g >= 0) ++offset_[static_cast<size_t>(g) + 1];
  }
  for (size_t g = 0; g < num_groups; ++g) offset_[g + 1] += offset_[g];
  flat_size_ = offset_[num_groups];
  flat_ = MakeHugeArray<int64_t>(flat_size_);
}

inline GroupedSamples::GroupedSamples(std::span<const int32_t> group_of_row, std::vector<RunningMoments> moments)
    : group_of_row_(group_of_row), known_moments_(std::move(moments)), offset_(known_moments_.size() + 1, 0) {
  for (size_t g = 0; g < known_moments_.size(); ++g) {
    offset_[g + 1] = offset_[g] + static_cast<size_t>(known_moments_[g].count);
  }
  flat_size_ = offset_.back();
  flat_ = MakeHugeArray<int64_t>(flat_size_);
}

template <typename ValueFn>
std::vector<SampleSummary> GroupedSamples::Summarize(ValueFn&& value_of_row) {
  const size_t num_groups = offset_.size() - 1;
  cursor_.assign(offset_.begin(), offset_.end() - 1);
  const bool known = !known_moments_.empty();
  std::vector<RunningMoments> moments(known ? 0 : num_groups);
  constexpr size_t kLine = 8;  // values per 64-byte cache line
  if (flat_size_ < (size_t{1} << 20) || num_groups < 1024) {
    for (size_t i = 0; i < group_of_row_.size(); ++i) {
      const int32_t g = group_of_row_[i];
      if (g < 0) continue;
      const int64_t v = value_of_row(i);
      flat_[cursor_[static_cast<size_t>(g)]++] = v;
      if (!known) moments[static_cast<size_t>(g)].Add(v);
    }
  } else {
    // Scattering millions of values into thousands of groups stalls on a cache miss per store (more open write
    // streams than the core can combine): each group's values gather in a cache-resident line first and are copied
    // out whole. Measured on 16.8M values: 16,582 groups 491 -> 426 ms, but 176 groups 225 -> 260 ms (the plain
    // scatter's few streams stay cached), hence the threshold.
    std::vector<int64_t> line(num_groups * kLine);
    std::vector<uint8_t> filled(num_groups, 0);
    for (size_t i = 0; i < group_of_row_.size(); ++i) {
      const int32_t g = group_of_row_[i];
      if (g < 0) continue;
      const auto gs = static_cast<size_t>(g);
      const int64_t v = value_of_row(i);
      if (!known) moments[gs].Add(v);
      int64_t* buffered = line.data() + gs * kLine;
      buffered[filled[gs]] = v;
      if (++filled[gs] == kLine) {
        std::copy(buffered, buffered + kLine, flat_.get() + cursor_[gs]);
        cursor_[gs] += kLine;
        filled[gs] = 0;
      }
    }
    for (size_t g = 0; g < num_groups; ++g) {
      std::copy(line.data() + g * kLine, line.data() + g * kLine + filled[g], flat_.get() + cursor_[g]);
      cursor_[g] += filled[g];
    }
  }
  std::vector<SampleSummary> out(num_groups);
  SummarizeAllGroups(known ? known_moments_ : moments, out);
  return out;
}

template <typename ValueFn>
std::vector<SampleSummary> SummarizeGroups(std::span<const int32_t> group_of_row, size_t num_groups,
                                           ValueFn&& value_of_row) {
  return GroupedSamples(group_of_row, num_groups).Summarize(std::forward<ValueFn>(value_of_row));
}

}  // namespace nsys::skills
