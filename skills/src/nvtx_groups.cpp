#include "nsys/skills/nvtx_groups.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <thread>
#include <variant>

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

Expected<std::shared_ptr<const NvtxGroupIndex>> NvtxGroupIndex::ForArgs(const engine::Profile& profile,
                                                                        const std::map<std::string, Value>& args,
                                                                        const CancelToken& cancel) {
  const auto it = args.find("split_op_id");
  const bool* split = it == args.end() ? nullptr : std::get_if<bool>(&it->second);
  return Of(profile, split != nullptr && *split, cancel);
}

Expected<std::shared_ptr<const NvtxGroupIndex>> NvtxGroupIndex::Build(const engine::Profile& profile, bool split_op_id,
                                                                      const CancelToken& cancel) {
  auto labels = NvtxLabels::Build(profile, split_op_id, cancel);
  if (!labels) return labels.error();
  std::shared_ptr<NvtxGroupIndex> index(new NvtxGroupIndex(std::move(labels.value())));
  const engine::NvtxTable& nvtx = profile.nvtx();
  std::vector<uint64_t> piece_keys;
  if (!index->AssignPieces(nvtx, piece_keys, cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  // The pieces' layout and the children's times read the rows' pieces and write apart: two threads.
  bool children_done = false;
  std::thread children([&] { children_done = index->CollectChildTimes(nvtx, piece_keys, cancel); });
  index->LayOut(nvtx, piece_keys);
  children.join();
  if (!children_done) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  index->PiecesToGroups(nvtx, piece_keys);
  index->CountOpIds(nvtx);
  index->SumDurations();
  return std::shared_ptr<const NvtxGroupIndex>(std::move(index));
}

// Every row's piece, in group_of_row_ for now: its group (numbered in first-row order, through a dense vector over
// label * 2 + style) and thread (a dense id) name the piece, numbered in first-row order; `piece_keys` gets
// (group << 32 | thread) of each.
bool NvtxGroupIndex::AssignPieces(const engine::NvtxTable& nvtx, std::vector<uint64_t>& piece_keys,
                                  const CancelToken& cancel) {
  group_of_row_ = MakeHugeArray<int32_t>(nvtx.size());  // every row is written below
  std::vector<int32_t> group_of_label_style;
  std::vector<std::vector<int32_t>> piece_of_thread_group;
  DenseIndex threads;
  uint64_t last_thread_key = ~uint64_t{0};
  size_t t = 0;
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
    const uint64_t thread_key = PackKey(nvtx.pid[i], nvtx.tid[i]);
    if (thread_key != last_thread_key) {
      last_thread_key = thread_key;
      t = static_cast<size_t>(threads.IdOf(thread_key));
      if (t == piece_of_thread_group.size()) piece_of_thread_group.emplace_back();
    }
    std::vector<int32_t>& piece_of_group = piece_of_thread_group[t];
    if (static_cast<size_t>(g) >= piece_of_group.size()) piece_of_group.resize(group_label_.size(), -1);
    int32_t& piece = piece_of_group[static_cast<size_t>(g)];
    if (piece < 0) {
      piece = static_cast<int32_t>(piece_keys.size());
      piece_keys.push_back(PackKey(static_cast<uint32_t>(g), static_cast<uint32_t>(t)));
    }
    group_of_row_[i] = piece;
  }
  thread_key_.resize(threads.size());
  for (size_t k = 0; k < threads.size(); ++k) thread_key_[k] = threads.key(static_cast<int32_t>(k));
  return true;
}

// Rows and durations piece after piece, pieces by (group, thread), each piece's rows in row order (a counting sort).
void NvtxGroupIndex::LayOut(const engine::NvtxTable& nvtx, const std::vector<uint64_t>& piece_keys) {
  FillPieces(nvtx, group_of_row_, OrderPieces(piece_keys));
}

// Each row's group in place of its piece.
void NvtxGroupIndex::PiecesToGroups(const engine::NvtxTable& nvtx, const std::vector<uint64_t>& piece_keys) {
  for (size_t i = 0; i < nvtx.size(); ++i) {
    group_of_row_[i] = static_cast<int32_t>(piece_keys[static_cast<size_t>(group_of_row_[i])] >> 32);
  }
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
  // Each piece's size, and whether its durations all fit 32 bits (then they are kept as such).
  piece_offset_.assign(rank.size() + 1, 0);
  piece_narrow_.assign(rank.size(), 1);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const auto p = static_cast<size_t>(rank[static_cast<size_t>(piece_of_row[i])]);
    ++piece_offset_[p + 1];
    const int64_t ns = nvtx.end[i] - nvtx.start[i];
    if (ns < 0 || ns > int64_t{UINT32_MAX}) piece_narrow_[p] = 0;
  }
  for (size_t p = 0; p < rank.size(); ++p) piece_offset_[p + 1] += piece_offset_[p];
  value_base_.resize(rank.size());
  size_t narrow = 0, wide = 0;
  for (size_t p = 0; p < rank.size(); ++p) {
    size_t& used = piece_narrow_[p] ? narrow : wide;
    value_base_[p] = used;
    used += piece_offset_[p + 1] - piece_offset_[p];
  }
  rows_ = MakeHugeArray<int32_t>(nvtx.size());  // every entry is written below
  narrow_ = MakeHugeArray<uint32_t>(narrow);
  wide_ = MakeHugeArray<int64_t>(wide);
  std::vector<size_t> next(piece_offset_.begin(), piece_offset_.end() - 1);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const auto p = static_cast<size_t>(rank[static_cast<size_t>(piece_of_row[i])]);
    const size_t at = next[p]++;
    rows_[at] = static_cast<int32_t>(i);
    const size_t value = value_base_[p] + (at - piece_offset_[p]);
    const int64_t ns = nvtx.end[i] - nvtx.start[i];
    if (piece_narrow_[p]) {
      narrow_[value] = static_cast<uint32_t>(ns);
    } else {
      wide_[value] = ns;
    }
  }
}

// Each range's children listed after it, summed per parent (a child listed before its parent is never counted, as a
// scan that meets the child first cannot know the parent's group yet). A child that starts later than the longest
// range after its parent is listed on its own (late_children_). Reads the rows' pieces (group_of_row_ during the
// build).
bool NvtxGroupIndex::CollectChildTimes(const engine::NvtxTable& nvtx, const std::vector<uint64_t>& piece_keys,
                                       const CancelToken& cancel) {
  auto group_of = [&](size_t row) {
    return static_cast<int32_t>(piece_keys[static_cast<size_t>(group_of_row_[row])] >> 32);
  };
  auto regular_parent = [&](size_t i) -> int32_t {  // -1: none (or listed after the child); -2 - p: late
    const int32_t p = nvtx.parent[i];
    if (p < 0 || static_cast<size_t>(p) >= i) return -1;
    return nvtx.start[i] - nvtx.start[static_cast<size_t>(p)] > nvtx.max_duration ? -2 - p : p;
  };
  // The parents as a bit per row, and each parent's rank in row order from the bits (no per-row array).
  std::vector<uint64_t> is_parent(nvtx.size() / 64 + 1, 0);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    const int32_t p = regular_parent(i);
    if (p >= 0) {
      is_parent[static_cast<size_t>(p) / 64] |= uint64_t{1} << (static_cast<size_t>(p) % 64);
    } else if (p < -1) {
      const auto ps = static_cast<size_t>(-2 - p);
      late_children_.push_back({-2 - p, group_of(ps), static_cast<int32_t>(i), nvtx.end[i] - nvtx.start[i]});
    }
  }
  std::vector<uint32_t> parents_before(is_parent.size() + 1, 0);
  for (size_t w = 0; w < is_parent.size(); ++w) {
    parents_before[w + 1] = parents_before[w] + static_cast<uint32_t>(std::popcount(is_parent[w]));
  }
  HugeVector<int64_t> child_ns(parents_before.back(), 0);  // by parent rank
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const int32_t p = regular_parent(i);
    if (p < 0) continue;
    const auto ps = static_cast<size_t>(p);
    const uint64_t below = is_parent[ps / 64] & ((uint64_t{1} << (ps % 64)) - 1);
    child_ns[parents_before[ps / 64] + static_cast<uint32_t>(std::popcount(below))] += nvtx.end[i] - nvtx.start[i];
  }
  LayOutParents(is_parent, child_ns, group_of);
  return true;
}

// The parents group after group, each group's by row, with the running total of their children's time.
void NvtxGroupIndex::LayOutParents(const std::vector<uint64_t>& is_parent, const HugeVector<int64_t>& child_ns,
                                   const std::function<int32_t(size_t)>& group_of) {
  auto for_each_parent = [&](auto&& f) {  // f(row, rank), in row order
    size_t rank = 0;
    for (size_t w = 0; w < is_parent.size(); ++w) {
      for (uint64_t bits = is_parent[w]; bits != 0; bits &= bits - 1) f(w * 64 + std::countr_zero(bits), rank++);
    }
  };
  parent_offset_.assign(group_label_.size() + 1, 0);
  for_each_parent([&](size_t p, size_t) { ++parent_offset_[static_cast<size_t>(group_of(p)) + 1]; });
  for (size_t g = 0; g < group_label_.size(); ++g) parent_offset_[g + 1] += parent_offset_[g];
  parent_rows_.resize(parent_offset_.back());
  child_ns_running_.resize(parent_offset_.back());
  std::vector<size_t> next(parent_offset_.begin(), parent_offset_.end() - 1);
  for_each_parent([&](size_t p, size_t rank) {
    const auto g = static_cast<size_t>(group_of(p));
    const size_t at = next[g]++;
    parent_rows_[at] = static_cast<int32_t>(p);
    child_ns_running_[at] = (at > parent_offset_[g] ? child_ns_running_[at - 1] : 0) + child_ns[rank];
  });
}

void NvtxGroupIndex::SumDurations() {
  const size_t pieces = piece_offset_.size() - 1;
  piece_block_.resize(pieces + 1);
  block_sum_.clear();
  for (size_t p = 0; p < pieces; ++p) {
    piece_block_[p] = block_sum_.size();
    const ValueRun values = durations(p);
    uint64_t sum = 0;
    for (size_t k = 0; k < values.size; ++k) {
      if (k % kSumBlock == 0) block_sum_.push_back(sum);
      sum += static_cast<uint64_t>(values[k]);
    }
    block_sum_.push_back(sum);  // the whole piece: its count is a multiple of kSumBlock or not
  }
  piece_block_[pieces] = block_sum_.size();
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
