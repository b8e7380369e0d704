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
  HugeArray<int32_t> thread_of_row = MakeHugeArray<int32_t>(nvtx.size());
  if (!index->AssignGroups(nvtx, thread_of_row, cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  index->LayOut(nvtx, thread_of_row);
  thread_of_row.reset();
  if (!index->CollectChildTimes(nvtx, cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  index->CountOpIds(nvtx);
  index->SumDurations();
  return std::shared_ptr<const NvtxGroupIndex>(std::move(index));
}

// Every row's group, numbered in first-row order, through a dense vector over label * 2 + style; and its thread.
bool NvtxGroupIndex::AssignGroups(const engine::NvtxTable& nvtx, HugeArray<int32_t>& thread_of_row,
                                  const CancelToken& cancel) {
  group_of_row_.resize(nvtx.size());
  std::vector<int32_t> group_of_label_style;
  DenseIndex threads;
  uint64_t last_thread_key = ~uint64_t{0};
  int32_t last_thread = -1;
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
    group_of_row_[i] = g;
    const uint64_t thread_key = PackKey(nvtx.pid[i], nvtx.tid[i]);
    if (thread_key != last_thread_key) {
      last_thread_key = thread_key;
      last_thread = threads.IdOf(thread_key);
    }
    thread_of_row[i] = last_thread;
  }
  thread_key_.resize(threads.size());
  for (size_t t = 0; t < threads.size(); ++t) thread_key_[t] = threads.key(static_cast<int32_t>(t));
  return true;
}

// Rows and durations piece after piece, pieces by (group, thread), each piece's rows in row order (a counting sort).
// `thread_of_row` is overwritten with each row's piece.
void NvtxGroupIndex::LayOut(const engine::NvtxTable& nvtx, HugeArray<int32_t>& thread_of_row) {
  const size_t threads = thread_key_.size();
  std::vector<uint64_t> piece_keys;  // (group << 32 | thread) of each piece, numbered in first-row order
  std::vector<int32_t> dense;        // group * threads + thread -> piece, when small enough
  DenseIndex sparse;
  const bool use_dense = group_label_.size() * threads <= (size_t{1} << 22);
  if (use_dense) dense.assign(group_label_.size() * threads, -1);
  HugeArray<int32_t>& piece_of_row = thread_of_row;
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const auto g = static_cast<uint32_t>(group_of_row_[i]);
    const auto t = static_cast<uint32_t>(thread_of_row[i]);
    int32_t piece;
    if (use_dense) {
      int32_t& slot = dense[static_cast<size_t>(g) * threads + t];
      if (slot < 0) {
        slot = static_cast<int32_t>(piece_keys.size());
        piece_keys.push_back(PackKey(g, t));
      }
      piece = slot;
    } else {
      piece = sparse.IdOf(PackKey(g, t));
      if (static_cast<size_t>(piece) == piece_keys.size()) piece_keys.push_back(PackKey(g, t));
    }
    piece_of_row[i] = piece;
  }
  FillPieces(nvtx, piece_of_row, OrderPieces(piece_keys));
}

// Pieces sorted by (group, thread): each piece id's rank, and the groups' first pieces.
std::vector<int32_t> NvtxGroupIndex::OrderPieces(const std::vector<uint64_t>& piece_keys) {
  std::vector<int32_t> by_key(piece_keys.size());
  for (size_t p = 0; p < by_key.size(); ++p) by_key[p] = static_cast<int32_t>(p);
  std::sort(by_key.begin(), by_key.end(), [&](int32_t a, int32_t b) {
    return piece_keys[static_cast<size_t>(a)] < piece_keys[static_cast<size_t>(b)];
  });
  std::vector<int32_t> rank(piece_keys.size());
  group_first_piece_.assign(group_label_.size() + 1, 0);
  piece_thread_.resize(piece_keys.size());
  for (size_t r = 0; r < by_key.size(); ++r) {
    const uint64_t key = piece_keys[static_cast<size_t>(by_key[r])];
    rank[static_cast<size_t>(by_key[r])] = static_cast<int32_t>(r);
    piece_thread_[r] = static_cast<size_t>(key & 0xFFFFFFFF);
    ++group_first_piece_[static_cast<size_t>(key >> 32) + 1];
  }
  for (size_t g = 0; g < group_label_.size(); ++g) group_first_piece_[g + 1] += group_first_piece_[g];
  return rank;
}

void NvtxGroupIndex::FillPieces(const engine::NvtxTable& nvtx, const HugeArray<int32_t>& piece_of_row,
                                const std::vector<int32_t>& rank) {
  piece_offset_.assign(rank.size() + 1, 0);
  for (size_t i = 0; i < nvtx.size(); ++i)
    ++piece_offset_[static_cast<size_t>(rank[static_cast<size_t>(piece_of_row[i])]) + 1];
  for (size_t p = 0; p < rank.size(); ++p) piece_offset_[p + 1] += piece_offset_[p];
  rows_.resize(nvtx.size());
  durations_.resize(nvtx.size());
  std::vector<size_t> next(piece_offset_.begin(), piece_offset_.end() - 1);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const size_t at = next[static_cast<size_t>(rank[static_cast<size_t>(piece_of_row[i])])]++;
    rows_[at] = static_cast<int32_t>(i);
    durations_[at] = nvtx.end[i] - nvtx.start[i];
  }
}

// Each range's children listed after it, summed per parent (a child listed before its parent is never counted, as a
// scan that meets the child first cannot know the parent's group yet).
bool NvtxGroupIndex::CollectChildTimes(const engine::NvtxTable& nvtx, const CancelToken& cancel) {
  HugeVector<int64_t> child_ns(nvtx.size(), 0);
  HugeVector<uint8_t> has_child(nvtx.size(), 0);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    const int32_t p = nvtx.parent[i];
    if (p < 0 || static_cast<size_t>(p) >= i) continue;
    const auto ps = static_cast<size_t>(p);
    const int64_t ns = nvtx.end[i] - nvtx.start[i];
    if (nvtx.start[i] - nvtx.start[ps] > nvtx.max_duration) {
      late_children_.push_back({p, group_of_row_[ps], static_cast<int32_t>(i), ns});
      continue;
    }
    child_ns[ps] += ns;
    has_child[ps] = 1;
  }
  LayOutParents(nvtx, child_ns, has_child);
  return true;
}

// The parents group after group, each group's by row, with the running total of their children's time.
void NvtxGroupIndex::LayOutParents(const engine::NvtxTable& nvtx, const HugeVector<int64_t>& child_ns,
                                   const HugeVector<uint8_t>& has_child) {
  parent_offset_.assign(group_label_.size() + 1, 0);
  for (size_t p = 0; p < nvtx.size(); ++p) {
    if (has_child[p]) ++parent_offset_[static_cast<size_t>(group_of_row_[p]) + 1];
  }
  for (size_t g = 0; g < group_label_.size(); ++g) parent_offset_[g + 1] += parent_offset_[g];
  parent_rows_.resize(parent_offset_.back());
  child_ns_running_.resize(parent_offset_.back());
  std::vector<size_t> next(parent_offset_.begin(), parent_offset_.end() - 1);
  for (size_t p = 0; p < nvtx.size(); ++p) {
    if (!has_child[p]) continue;
    const auto g = static_cast<size_t>(group_of_row_[p]);
    const size_t at = next[g]++;
    parent_rows_[at] = static_cast<int32_t>(p);
    child_ns_running_[at] = (at > parent_offset_[g] ? child_ns_running_[at - 1] : 0) + child_ns[p];
  }
}

void NvtxGroupIndex::SumDurations() {
  running_sum_.assign(durations_.size() / kSumBlock + 1, 0);
  uint64_t sum = 0;
  for (size_t e = 0; e < durations_.size(); ++e) {
    if (e % kSumBlock == 0) running_sum_[e / kSumBlock] = sum;
    sum += static_cast<uint64_t>(durations_[e]);
  }
  if (durations_.size() % kSumBlock == 0) running_sum_.back() = sum;
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

NvtxRowSlots NvtxRowSlots::Borrow(const engine::Profile& profile) {
  const size_t rows = profile.nvtx().size();
  NvtxRowSlots lease;
  lease.shared_ = std::static_pointer_cast<const Shared>(profile.Derived("skills.nvtx_row_slots", [&] {
    auto shared = std::make_shared<Shared>();
    shared->slots.assign(rows, -1);
    return std::static_pointer_cast<const void>(std::shared_ptr<const Shared>(std::move(shared)));
  }));
  lease.lock_ = std::unique_lock<std::mutex>(lease.shared_->mu, std::try_to_lock);
  if (lease.lock_.owns_lock()) {
    lease.slots_ = lease.shared_->slots.data();
  } else {
    lease.own_.assign(rows, -1);
    lease.slots_ = lease.own_.data();
  }
  return lease;
}

NvtxRowSlots::~NvtxRowSlots() {
  if (lock_.owns_lock()) {
    for (int32_t row : set_) slots_[static_cast<size_t>(row)] = -1;
  }
}

}  // namespace nsys::skills
