#include <atomic>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "nsys/engine/model.h"

namespace nsys::engine {

StringPool::StringPool() {
  intern(std::string_view());
}  // id 0 is the empty string

StringPool::~StringPool() {
  for (auto& segment : segments_) delete[] segment.load(std::memory_order_relaxed);
}

std::optional<StrId> StringPool::find(std::string_view s) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(s);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

StrId StringPool::intern(std::string_view s) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = index_.find(s); it != index_.end()) return it->second;
  const size_t id = size_.load(std::memory_order_relaxed);
  if (id >= UINT32_MAX) throw std::length_error("StringPool: more than 2^32 strings");
  const Slot slot = Locate(id);
  std::string* segment = segments_[slot.segment].load(std::memory_order_relaxed);
  if (segment == nullptr) {
    segment = new std::string[kFirstSegment << slot.segment];
    segments_[slot.segment].store(segment, std::memory_order_release);
  }
  segment[slot.offset].assign(s.data(), s.size());
  // The key views the pooled copy, which never moves.
  index_.emplace(std::string_view(segment[slot.offset]), static_cast<StrId>(id));
  size_.store(id + 1, std::memory_order_release);
  return static_cast<StrId>(id);
}

int64_t ProfileInfo::rows(std::string_view table) const {
  for (const auto& t : tables)
    if (t.name == table) return t.rows;
  return 0;
}

}  // namespace nsys::engine
