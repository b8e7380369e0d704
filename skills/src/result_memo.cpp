#include "nsys/skills/result_memo.h"

#include <fmt/format.h>

#include <type_traits>

namespace nsys::skills {
namespace {

// Rows x columns plus the notes: a fair measure of a table's memory without walking its strings.
size_t CellsOf(const Table& table) {
  return table.rows.size() * std::max<size_t>(1, table.columns.size()) + table.notes.size() + 1;
}

}  // namespace

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
  const size_t cells = CellsOf(*table);
  if (cells > max_cells_) return;
  const std::string key = KeyOf(*skill, args);
  std::lock_guard lock(mu_);
  if (auto it = entries_.find(key); it != entries_.end()) {
    cells_ -= it->second.cells;
    lru_.erase(it->second.lru);
    entries_.erase(it);
  }
  lru_.push_front(key);
  entries_.emplace(key, Entry{skill, std::move(table), cells, lru_.begin()});
  cells_ += cells;
  EvictLocked();
}

void ResultMemo::EvictLocked() {
  while (cells_ > max_cells_ && !lru_.empty()) {
    auto it = entries_.find(lru_.back());
    cells_ -= it->second.cells;
    entries_.erase(it);
    lru_.pop_back();
  }
}

ResultMemo::Stats ResultMemo::stats() const {
  std::lock_guard lock(mu_);
  return {hits_, misses_, entries_.size(), cells_};
}

}  // namespace nsys::skills
