#pragma once
// Dictionary-encoded columns (model.h's KernelConfig and NvtxAttributes): loader threads intern values into
// one shared Dictionary, each through a small cache of its own, and Finalize makes the encoding canonical.
// Private to the engine.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "nsys/engine/column.h"

namespace nsys::engine {

// Values are compared and hashed as bytes: T must have no padding and be made of 4-byte words.
template <typename T>
concept DictionaryValue = std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T> && sizeof(T) %
                              4 ==
                          0;

// A multiply-xor over the value's 32-bit words: it runs once a loaded row, where the general Hash64 was 6% of
// the ×5000 export's load.
template <DictionaryValue T>
struct BytesHash {
  size_t operator()(const T& v) const {
    uint32_t words[sizeof(T) / 4];
    std::memcpy(words, &v, sizeof v);
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (uint32_t w : words) h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

template <DictionaryValue T>
class Dictionary {
 public:
  uint32_t Intern(const T& v) {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, added] = index_.try_emplace(v, static_cast<uint32_t>(values_.size()));
    if (added) values_.push_back(v);
    return it->second;
  }
  // The values by index, for Finalize; no Intern may run concurrently.
  std::vector<T> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    index_.clear();
    return std::move(values_);
  }
  void Clear() { (void)Take(); }

 private:
  std::mutex mu_;
  std::unordered_map<T, uint32_t, BytesHash<T>> index_;
  std::vector<T> values_;
};

// One loader part's view of a Dictionary: a direct-mapped cache, so the shared lock is taken about once per
// distinct value a part meets (a part reads 262,144 rows; a profile has a few thousand distinct values).
template <DictionaryValue T>
class DictionaryCache {
 public:
  explicit DictionaryCache(Dictionary<T>& dict) : dict_(dict) {}
  uint32_t Intern(const T& v) {
    // Neighbouring rows often repeat a value (one thread's ranges, one kernel's launches): one compare.
    if (last_ && std::memcmp(&last_->value, &v, sizeof v) == 0) return last_->index;
    Slot& slot = slots_[BytesHash<T>{}(v) % kSlots];
    if (!slot.used || std::memcmp(&slot.value, &v, sizeof v) != 0) slot = Slot{v, dict_.Intern(v), true};
    last_ = &slot;
    return slot.index;
  }

 private:
  struct Slot {
    T value{};
    uint32_t index = 0;
    bool used = false;
  };
  static constexpr size_t kSlots = 256;
  Dictionary<T>& dict_;
  std::array<Slot, kSlots> slots_{};
  const Slot* last_ = nullptr;
};

// Makes an encoding canonical: `values` becomes the distinct values the rows use, in ascending order, and
// `index` is rewritten to match. The load's threads interned in whatever order they ran, and rows a part
// dropped (damaged, or read again) may have left unused values: two loads of one export give equal tables.
template <DictionaryValue T>
void CanonicalizeDictionary(Column<uint32_t>& index, std::vector<T>& values) {
  std::vector<uint8_t> used(values.size(), 0);
  for (uint32_t i : index) used[i] = 1;
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < values.size(); ++i)
    if (used[i]) order.push_back(i);
  std::sort(order.begin(), order.end(), [&values](uint32_t a, uint32_t b) { return values[a] < values[b]; });
  std::vector<uint32_t> remap(values.size(), 0);
  std::vector<T> sorted;
  sorted.reserve(order.size());
  for (uint32_t old : order) {
    remap[old] = static_cast<uint32_t>(sorted.size());
    sorted.push_back(values[old]);
  }
  bool identity = sorted.size() == values.size();
  for (uint32_t i = 0; identity && i < remap.size(); ++i) identity = remap[i] == i;
  if (!identity)
    for (uint32_t& i : index) i = remap[i];
  values = std::move(sorted);
}

}  // namespace nsys::engine
