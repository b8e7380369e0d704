#include "nsys/skills/nvtx_groups.h"

#include <algorithm>

namespace nsys::skills {

Expected<std::shared_ptr<const NvtxGroupIndex>> NvtxGroupIndex::Of(const engine::Profile& profile, bool split_op_id,
                                                                   const CancelToken& cancel) {
  std::shared_ptr<const NvtxGroupIndex> unkept;
  Error failure;
  auto kept = profile.Derived(split_op_id ? "skills.nvtx_groups.split_op_id" : "skills.nvtx_groups", [&] {
    auto built = Build(profile, split_op_id, cancel);
    if (!built) {
      failure = built.error();
      return std::shared_ptr<const void>();
    }
    // Labels without their domain prefixes (the domain names could not be read) are not kept: a later call retries.
    if (!built.value()->labels().warning().empty()) {
      unkept = std::move(built.value());
      return std::shared_ptr<const void>();
    }
    return std::static_pointer_cast<const void>(std::move(built.value()));
  });
  if (kept) return std::static_pointer_cast<const NvtxGroupIndex>(kept);
  if (unkept) return unkept;
  return failure;
}

Expected<std::shared_ptr<const NvtxGroupIndex>> NvtxGroupIndex::Build(const engine::Profile& profile, bool split_op_id,
                                                                      const CancelToken& cancel) {
  auto labels = NvtxLabels::Build(profile, split_op_id, cancel);
  if (!labels) return labels.error();
  std::shared_ptr<NvtxGroupIndex> index(new NvtxGroupIndex(std::move(labels.value())));
  const engine::NvtxTable& nvtx = profile.nvtx();
  HugeArray<int32_t> group_of_row = MakeHugeArray<int32_t>(nvtx.size());
  if (!index->AssignGroups(nvtx, group_of_row, cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  index->LayOut(nvtx, group_of_row);
  if (!index->CollectChildTimes(nvtx, group_of_row, cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  index->CountOpIds(nvtx);
  return std::shared_ptr<const NvtxGroupIndex>(std::move(index));
}

// Every row's group, numbered in first-row order, through a dense vector over label * 2 + style.
bool NvtxGroupIndex::AssignGroups(const engine::NvtxTable& nvtx, HugeArray<int32_t>& group_of_row,
                                  const CancelToken& cancel) {
  std::vector<int32_t> group_of_label_style;
  for (size_t i = 0; i < nvtx.size(); ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    const int32_t label = labels_.LabelOf(i);
    const size_t slot = static_cast<size_t>(label) * 2 + static_cast<size_t>(nvtx.style[i]);
    if (slot >= group_of_label_style.size()) {
      group_of_label_style.resize(std::max(slot + 1, 2 * group_of_label_style.size()), -1);
    }
    int32_t& g = group_of_label_style[slot];
    if (g < 0) {
      g = static_cast<int32_t>(group_label_.size());
      group_label_.push_back(label);
      group_style_.push_back(nvtx.style[i]);
    }
    group_of_row[i] = g;
  }
  return true;
}

// Rows and durations group after group, each group's in row order (a counting sort by group).
void NvtxGroupIndex::LayOut(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& group_of_row) {
  offset_.assign(group_label_.size() + 1, 0);
  for (size_t i = 0; i < nvtx.size(); ++i) ++offset_[static_cast<size_t>(group_of_row[i]) + 1];
  for (size_t g = 0; g < group_label_.size(); ++g) offset_[g + 1] += offset_[g];
  rows_.resize(nvtx.size());
  durations_.resize(nvtx.size());
  std::vector<int64_t> next(offset_.begin(), offset_.end() - 1);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const auto at = static_cast<size_t>(next[static_cast<size_t>(group_of_row[i])]++);
    rows_[at] = static_cast<int32_t>(i);
    durations_[at] = nvtx.end[i] - nvtx.start[i];
  }
}

// Each range's children listed after it, summed per parent (a child listed before its parent is never counted, as a
// scan that meets the child first cannot know the parent's group yet).
bool NvtxGroupIndex::CollectChildTimes(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& group_of_row,
                                       const CancelToken& cancel) {
  HugeVector<int64_t> child_ns(nvtx.size(), 0);
  HugeVector<uint8_t> has_child(nvtx.size(), 0);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    const int32_t p = nvtx.parent[i];
    if (p < 0 || static_cast<size_t>(p) >= i) continue;
    const auto ps = static_cast<size_t>(p);
    const int64_t ns = nvtx.end[i] - nvtx.start[i];
    if (nvtx.start[i] - nvtx.start[ps] > nvtx.max_duration) {
      late_children_.push_back({p, group_of_row[ps], static_cast<int32_t>(i), ns});
      continue;
    }
    child_ns[ps] += ns;
    has_child[ps] = 1;
  }
  LayOutParents(nvtx, group_of_row, child_ns, has_child);
  return true;
}

// The parents group after group, each group's by row, with the running total of their children's time.
void NvtxGroupIndex::LayOutParents(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& group_of_row,
                                   const HugeVector<int64_t>& child_ns, const HugeVector<uint8_t>& has_child) {
  parent_offset_.assign(group_label_.size() + 1, 0);
  for (size_t p = 0; p < nvtx.size(); ++p) {
    if (has_child[p]) ++parent_offset_[static_cast<size_t>(group_of_row[p]) + 1];
  }
  for (size_t g = 0; g < group_label_.size(); ++g) parent_offset_[g + 1] += parent_offset_[g];
  parent_rows_.resize(parent_offset_.back());
  child_ns_running_.resize(parent_offset_.back());
  std::vector<size_t> next(parent_offset_.begin(), parent_offset_.end() - 1);
  for (size_t p = 0; p < nvtx.size(); ++p) {
    if (!has_child[p]) continue;
    const auto g = static_cast<size_t>(group_of_row[p]);
    const size_t at = next[g]++;
    parent_rows_[at] = static_cast<int32_t>(p);
    child_ns_running_[at] = (at > parent_offset_[g] ? child_ns_running_[at - 1] : 0) + child_ns[p];
  }
}

void NvtxGroupIndex::CountOpIds(const engine::NvtxTable& nvtx) {
  op_id_rows_before_block_.assign(nvtx.size() / kOpBlock + 1, 0);
  int64_t n = 0;
  for (size_t i = 0; i < nvtx.size(); ++i) {
    if (i % kOpBlock == 0) op_id_rows_before_block_[i / kOpBlock] = n;
    n += nvtx.op_id[i] >= 0;
  }
  if (nvtx.size() % kOpBlock == 0) op_id_rows_before_block_.back() = n;
}

}  // namespace nsys::skills
