#pragma once
// The NVTX ranges of a profile clustered by nvtx_summary's group, (label, style), built once per profile and
// labelling (split_op_id or not) and kept with it (engine::Profile::Derived). Each group's rows are listed in row
// (start) order beside their durations, so the rows of a group that start in a window are one contiguous slice found
// by binary search: a summary reads its values in place, with no per-row grouping pass and no scatter, and sees them
// in the same order as a scan of the rows would.
//
// Memory: 12 bytes per range (row id and duration) plus 12 per range with children listed after it.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/huge_pages.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills {

class NvtxGroupIndex {
 public:
  // The index of `profile` for this labelling, built on first use and then kept with the profile. Needs kNvtx loaded.
  static Expected<std::shared_ptr<const NvtxGroupIndex>> Of(const engine::Profile& profile, bool split_op_id,
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
  // Group g's rows, ascending, and their durations (end - start) in the same order.
  std::span<const int32_t> rows(size_t g) const {
    return {rows_.data() + offset_[g], static_cast<size_t>(offset_[g + 1] - offset_[g])};
  }
  std::span<const int64_t> durations(size_t g) const {
    return {durations_.data() + offset_[g], static_cast<size_t>(offset_[g + 1] - offset_[g])};
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
  NvtxGroupIndex(NvtxLabels labels) : labels_(std::move(labels)) {}
  bool AssignGroups(const engine::NvtxTable& nvtx, HugeArray<int32_t>& group_of_row, const CancelToken& cancel);
  void LayOut(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& group_of_row);
  bool CollectChildTimes(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& group_of_row,
                         const CancelToken& cancel);
  void LayOutParents(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& group_of_row,
                     const HugeVector<int64_t>& child_ns, const HugeVector<uint8_t>& has_child);
  void CountOpIds(const engine::NvtxTable& nvtx);

  static constexpr size_t kOpBlock = 256;

  NvtxLabels labels_;
  std::vector<int32_t> group_label_;
  std::vector<engine::NvtxStyle> group_style_;
  std::vector<int64_t> offset_;  // group -> its first entry in rows_ / durations_; one past the end last
  HugeVector<int32_t> rows_;     // huge pages: tens of millions of rows
  HugeVector<int64_t> durations_;
  std::vector<size_t> parent_offset_;  // group -> its first entry in parent_rows_ / child_ns_running_
  HugeVector<int32_t> parent_rows_;
  HugeVector<int64_t> child_ns_running_;
  std::vector<int64_t> op_id_rows_before_block_;
  std::vector<LateChild> late_children_;
};

}  // namespace nsys::skills
