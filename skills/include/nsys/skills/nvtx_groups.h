#pragma once
// The NVTX ranges of a profile clustered by nvtx_summary's group, (label, style), and within a group by thread, built
// once per profile and labelling (split_op_id or not) and kept with it (engine::Profile::Derived). Each (group, thread)
// piece lists its rows in row (start) order beside their durations, so the rows of a piece that start in a window are
// one contiguous slice found by binary search, and a process filter keeps or drops whole pieces: a summary reads its
// values in place, with no per-row grouping pass and no scatter.
//
// Memory: 12 bytes per range (its group, and a row id and a 32-bit duration in piece order; 16 in the rare pieces with
// a duration of 2^32 ns or more) plus 12 per range with children listed after it.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/huge_pages.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "nsys/support/value.h"

namespace nsys::skills {

class NvtxGroupIndex {
 public:
  // The index of `profile` for this labelling, built on first use and then kept with the profile. Needs kNvtx loaded.
  static Expected<std::shared_ptr<const NvtxGroupIndex>> Of(const engine::Profile& profile, bool split_op_id,
                                                            const CancelToken& cancel);
  // Of() for a skill's validated arguments: split_op_id as its bool argument says (false when absent).
  static Expected<std::shared_ptr<const NvtxGroupIndex>> ForArgs(const engine::Profile& profile,
                                                                 const std::map<std::string, Value>& args,
                                                                 const CancelToken& cancel);
  // A fresh index, not kept.
  static Expected<std::shared_ptr<const NvtxGroupIndex>> Build(const engine::Profile& profile, bool split_op_id,
                                                               const CancelToken& cancel);

  // Every range's label (all rows were labelled, in row order).
  const NvtxLabels& labels() const { return labels_; }
  // Groups, numbered in the order of their first row.
  size_t size() const { return group_label_.size(); }
  int32_t label(size_t g) const { return group_label_[g]; }
  engine::NvtxStyle style(size_t g) const { return group_style_[g]; }
  int32_t group_of_row(size_t row) const { return group_of_row_[row]; }

  // A group's ranges on one thread form a piece; group g's pieces are [first_piece(g), first_piece(g + 1)).
  size_t first_piece(size_t g) const { return group_first_piece_[g]; }
  size_t thread_of_piece(size_t p) const { return piece_thread_[p]; }
  // Threads as dense ids: PackKey(pid, tid) of each.
  uint64_t thread_key(size_t t) const { return thread_key_[t]; }
  uint32_t pid_of_piece(size_t p) const { return static_cast<uint32_t>(thread_key_[piece_thread_[p]] >> 32); }
  // A piece's rows, ascending, and their durations (end - start) in the same order.
  std::span<const int32_t> rows(size_t piece) const {
    return {rows_.get() + piece_offset_[piece], piece_offset_[piece + 1] - piece_offset_[piece]};
  }
  ValueRun durations(size_t piece) const {
    const size_t n = piece_offset_[piece + 1] - piece_offset_[piece];
    return piece_narrow_[piece] ? ValueRun{narrow_.get() + value_base_[piece], nullptr, n}
                                : ValueRun{nullptr, wide_.get() + value_base_[piece], n};
  }
  // The summed duration of entries [lo, hi) of a piece (running totals kept every kSumBlock entries; sums wrap as
  // int64 additions do).
  int64_t DurationSum(size_t piece, size_t lo, size_t hi) const {
    return static_cast<int64_t>(RunningSum(piece, hi) - RunningSum(piece, lo));
  }
  // The entries [lo, hi) of a piece's rows that lie in rows [first, last) (binary search).
  std::pair<size_t, size_t> Slice(size_t piece, size_t first, size_t last) const {
    const std::span<const int32_t> r = rows(piece);
    const auto lo = std::lower_bound(r.begin(), r.end(), static_cast<int64_t>(first),
                                     [](int32_t row, int64_t x) { return row < x; });
    const auto hi =
        std::lower_bound(lo, r.end(), static_cast<int64_t>(last), [](int32_t row, int64_t x) { return row < x; });
    return {static_cast<size_t>(lo - r.begin()), static_cast<size_t>(hi - r.begin())};
  }

  // The time of the direct children of group g's ranges: for each of its ranges with children listed after it (a
  // child can only be seen once its parent was), by row, the summed duration of those children, as a running total
  // over the group. Children that start more than the longest range's duration after their parent (damaged nesting)
  // are left out, in late_children(), since a window's scan may not reach them.
  std::span<const int32_t> parent_rows(size_t g) const {
    return {parent_rows_.data() + parent_offset_[g], parent_offset_[g + 1] - parent_offset_[g]};
  }
  std::span<const int64_t> child_ns_running(size_t g) const {
    return {child_ns_running_.data() + parent_offset_[g], parent_offset_[g + 1] - parent_offset_[g]};
  }
  struct LateChild {
    int32_t parent;
    int32_t parent_group;
    int32_t child;
    int64_t ns;
  };
  std::span<const LateChild> late_children() const { return late_children_; }

  // How many rows before `row` carry a PyTorch op id (a count kept every kOpBlock rows, the rest counted).
  int64_t RowsWithOpIdBefore(const engine::NvtxTable& nvtx, size_t row) const {
    int64_t n = op_id_rows_before_block_[row / kOpBlock];
    for (size_t i = row / kOpBlock * kOpBlock; i < row; ++i) n += nvtx.op_id[i] >= 0;
    return n;
  }

 private:
  explicit NvtxGroupIndex(NvtxLabels labels) : labels_(std::move(labels)) {}
  bool AssignPieces(const engine::NvtxTable& nvtx, std::vector<uint64_t>& piece_keys, const CancelToken& cancel);
  void LayOut(const engine::NvtxTable& nvtx, const std::vector<uint64_t>& piece_keys);
  std::vector<int32_t> OrderPieces(const std::vector<uint64_t>& piece_keys);
  void FillPieces(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& piece_of_row,
                  const std::vector<int32_t>& rank);
  void PiecesToGroups(const engine::NvtxTable& nvtx, const std::vector<uint64_t>& piece_keys);
  bool CollectChildTimes(const engine::NvtxTable& nvtx, const std::vector<uint64_t>& piece_keys,
                         const CancelToken& cancel);
  void LayOutParents(const std::vector<uint64_t>& is_parent, const HugeVector<int64_t>& child_ns,
                     const std::function<int32_t(size_t)>& group_of);
  void CountOpIds(const engine::NvtxTable& nvtx);

  void SumDurations();
  // The sum of a piece's durations [0, k), modulo 2^64.
  uint64_t RunningSum(size_t piece, size_t k) const {
    const ValueRun values = durations(piece);
    uint64_t sum = block_sum_[piece_block_[piece] + k / kSumBlock];
    for (size_t e = k / kSumBlock * kSumBlock; e < k; ++e) sum += static_cast<uint64_t>(values[e]);
    return sum;
  }

  static constexpr size_t kOpBlock = 256;
  static constexpr size_t kSumBlock = 64;

  NvtxLabels labels_;
  std::vector<int32_t> group_label_;
  std::vector<engine::NvtxStyle> group_style_;
  HugeArray<int32_t> group_of_row_;  // huge pages: tens of millions of rows
  std::vector<uint64_t> thread_key_;
  std::vector<size_t> group_first_piece_;  // one past the last group: the number of pieces
  std::vector<size_t> piece_thread_;
  std::vector<size_t> piece_offset_;  // piece -> its first entry in rows_; one past the end last
  HugeArray<int32_t> rows_;
  // A piece's durations, in narrow_ from value_base_ when they all fit 32 bits (nearly every piece), else in wide_.
  std::vector<uint8_t> piece_narrow_;
  std::vector<size_t> value_base_;
  HugeArray<uint32_t> narrow_;
  HugeArray<int64_t> wide_;
  std::vector<size_t> piece_block_;    // piece -> its first running total in block_sum_
  std::vector<uint64_t> block_sum_;    // per piece, its durations [0, k * kSumBlock) summed, per k, then all of them
  std::vector<size_t> parent_offset_;  // group -> its first entry in parent_rows_ / child_ns_running_
  HugeVector<int32_t> parent_rows_;
  HugeVector<int64_t> child_ns_running_;
  std::vector<int64_t> op_id_rows_before_block_;
  std::vector<LateChild> late_children_;
};

// One int32 per NVTX row, -1 at rest, kept with the profile and lent to one pass at a time (a pass that finds it lent
// gets a fresh one): a pass that marks a few million of tens of millions of rows then pays neither a fill nor the page
// faults of a fresh array. Rows set are put back to -1 when the lease ends.
class NvtxRowSlots {
 public:
  static NvtxRowSlots Borrow(const engine::Profile& profile);
  NvtxRowSlots(NvtxRowSlots&&) = default;
  NvtxRowSlots& operator=(NvtxRowSlots&&) = delete;
  ~NvtxRowSlots();

  int32_t Get(size_t row) const { return slots_[row]; }
  void Set(size_t row, int32_t value) {
    if (slots_[row] < 0) set_.push_back(static_cast<int32_t>(row));
    slots_[row] = value;
  }

 private:
  struct Shared {
    mutable std::mutex mu;
    mutable HugeVector<int32_t> slots;
  };
  NvtxRowSlots() = default;

  std::shared_ptr<const Shared> shared_;
  std::unique_lock<std::mutex> lock_;
  HugeVector<int32_t> own_;
  int32_t* slots_ = nullptr;
  HugeVector<int32_t> set_;
};

}  // namespace nsys::skills
