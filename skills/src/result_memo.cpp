#include "nsys/skills/result_memo.h"

#include <fmt/format.h>

#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace nsys::skills {
namespace {

// Heap bytes of a string beyond the object itself (none while it fits the small-string buffer).
size_t HeapBytes(const std::string& s) {
  static const size_t kInline = std::string().capacity();
  return s.capacity() > kInline ? s.capacity() + 1 : 0;
}

// What one entry costs besides its table: the key (stored once, in the map), the map node and the LRU node.
size_t EntryOverhead(const std::string& key) {
  constexpr size_t kNodes = 96;  // an unordered_map node with its Entry and bucket, plus a list node
  return sizeof(std::string) + HeapBytes(key) + kNodes;
}

}  // namespace

size_t ResultMemo::BytesOf(const Table& table) {
  size_t bytes = sizeof(Table) + table.columns.capacity() * sizeof(Column);
  for (const Column& c : table.columns) bytes += HeapBytes(c.name) + HeapBytes(c.description);
  bytes += table.rows.capacity() * sizeof(std::vector<Value>);
  for (const auto& row : table.rows) {
    bytes += row.capacity() * sizeof(Value);
    for (const Value& v : row) {
      if (const auto* s = std::get_if<std::string>(&v)) bytes += HeapBytes(*s);
    }
  }
  bytes += table.notes.capacity() * sizeof(std::string);
  for (const auto& note : table.notes) bytes += HeapBytes(note);
  return bytes;
}

std::string ResultMemo::KeyOf(const Skill& skill, const Args& args) {
  std::string key = skill.name();
  for (const auto& [name, value] : args) {
    key += '\n';
    key += name;
    std::visit(
        [&key](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::monostate>) {
            key += "=null";
          } else if constexpr (std::is_same_v<T, bool>) {
            key += v ? "=bool:true" : "=bool:false";
          } else if constexpr (std::is_same_v<T, int64_t>) {
            key += fmt::format("=int:{}", v);
          } else if constexpr (std::is_same_v<T, double>) {
            key += fmt::format("=double:{}", v);  // shortest round-trip form: distinct doubles stay distinct
          } else {
            key += fmt::format("=string:{}:{}", v.size(), v);
          }
        },
        value);
  }
  return key;
}

std::shared_ptr<const Table> ResultMemo::Find(const std::shared_ptr<const Skill>& skill, const Args& args) {
  const std::string key = KeyOf(*skill, args);
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.skill != skill) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return it->second.table;
}

bool ResultMemo::Contains(const std::shared_ptr<const Skill>& skill, const Args& args) const {
  const std::string key = KeyOf(*skill, args);
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  return it != entries_.end() && it->second.skill == skill;
}

void ResultMemo::Store(const std::shared_ptr<const Skill>& skill, const Args& args,
                       std::shared_ptr<const Table> table) {
  std::string key = KeyOf(*skill, args);
  const size_t bytes = EntryOverhead(key) + BytesOf(*table);
  std::lock_guard lock(mu_);
  if (auto it = entries_.find(key); it != entries_.end()) EraseLocked(it);
  if (bytes > max_bytes_) return;
  auto it = entries_.emplace(std::move(key), Entry{skill, std::move(table), bytes, {}}).first;
  lru_.push_front(&it->first);
  it->second.lru = lru_.begin();
  bytes_ += bytes;
  EvictLocked();
}

void ResultMemo::EraseLocked(Map::iterator it) {
  bytes_ -= it->second.bytes;
  lru_.erase(it->second.lru);
  entries_.erase(it);
}

void ResultMemo::EvictLocked() {
  while (bytes_ > max_bytes_ && !lru_.empty()) EraseLocked(entries_.find(*lru_.back()));
}

ResultMemo::Stats ResultMemo::stats() const {
  std::lock_guard lock(mu_);
  return {hits_, misses_, entries_.size(), bytes_, max_bytes_};
}

}  // namespace nsys::skills
