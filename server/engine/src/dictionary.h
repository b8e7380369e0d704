#pragma once
// Dictionary-encoded columns (model.h's KernelConfig and NvtxAttributes): loader threads intern values into
// one shared Dictionary, each through a small cache of its own, and Finalize makes the encoding canonical.
// Private to the engine.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <utility>
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

// One loader part's view of a Dictionary: an open-addressing table of every value the part has met, so the
// shared lock is taken once per distinct value a part meets (a part reads 131,072 to 262,144 rows; a profile has
// a few hundred to a few thousand distinct values). It grows to stay at most half full.
template <DictionaryValue T>
class DictionaryCache {
 public:
  explicit DictionaryCache(Dictionary<T>& dict) : dict_(dict), slots_(kFirstSlots) {}
  uint32_t Intern(const T& v) {
    // Neighbouring rows often repeat a value (one thread's ranges, one kernel's launches): one compare.
    if (last_ < slots_.size() && std::memcmp(&slots_[last_].value, &v, sizeof v) == 0) return slots_[last_].index;
    const size_t mask = slots_.size() - 1;
    for (size_t i = BytesHash<T>{}(v)&mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.used && std::memcmp(&slot.value, &v, sizeof v) == 0) {
        last_ = i;
        return slot.index;
      }
      if (!slot.used) {
        slot = Slot{v, dict_.Intern(v), true};
        const uint32_t index = slot.index;
        last_ = i;
        if (++used_ * 2 > slots_.size()) Grow();
        return index;
      }
    }
  }

 private:
  struct Slot {
    T value{};
    uint32_t index = 0;
    bool used = false;
  };
  static constexpr size_t kFirstSlots = 512;  // a power of two

  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.used) continue;
      size_t i = BytesHash<T>{}(s.value) & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = s;
    }
    last_ = SIZE_MAX;
  }

  Dictionary<T>& dict_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
  size_t last_ = SIZE_MAX;
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
