#pragma once
// Results of skills on one open profile, kept for reuse. A profile is immutable once opened and every skill is a
// pure function of (skill, arguments, profile), so a repeated request (an editor re-rendering a view, a hover, an
// agent calling the same tool twice) is answered from here instead of rescanning tens of millions of rows.
//
// Bounded in bytes: each result is charged its key (the call's canonical text, which holds every argument) and its
// table as BytesOf() counts it; least recently used results go first, and a result larger than the whole budget is
// not kept. The default budget is kDefaultBudgetBytes per open profile. Thread-safe.
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "nsys/skills/skill.h"

namespace nsys::skills {

class ResultMemo {
 public:
  static constexpr size_t kDefaultBudgetBytes = size_t{128} << 20;

  explicit ResultMemo(size_t max_bytes = kDefaultBudgetBytes) : max_bytes_(max_bytes) {}

  // The stored result of `skill` with exactly these raw arguments, or null. A skill object that was replaced
  // (user skills reloaded) never matches the results of its predecessor.
  std::shared_ptr<const Table> Find(const std::shared_ptr<const Skill>& skill, const Args& args);
  // Whether a result is stored, without counting a hit or a miss or refreshing its recency.
  bool Contains(const std::shared_ptr<const Skill>& skill, const Args& args) const;
  // Stores a result; one larger than the whole budget is not kept.
  void Store(const std::shared_ptr<const Skill>& skill, const Args& args, std::shared_ptr<const Table> table);

  struct Stats {
    int64_t hits = 0;
    int64_t misses = 0;
    size_t results = 0;
    size_t bytes = 0;      // charged for the stored results (keys and tables); never above max_bytes
    size_t max_bytes = 0;  // the budget
  };
  Stats stats() const;

  // The canonical text of a call, for the key: the skill's name, then each argument as name=type:value in name
  // order (Args is ordered), so equal calls give equal keys.
  static std::string KeyOf(const Skill& skill, const Args& args);
  // The memory a table holds: its vectors, one Value per cell, and the heap bytes of its strings (column names and
  // descriptions, text cells, notes).
  static size_t BytesOf(const Table& table);

 private:
  struct Entry {
    std::shared_ptr<const Skill> skill;
    std::shared_ptr<const Table> table;
    size_t bytes = 0;
    std::list<const std::string*>::iterator lru;
  };
  using Map = std::unordered_map<std::string, Entry>;
  void EraseLocked(Map::iterator it);
  void EvictLocked();

  const size_t max_bytes_;
  mutable std::mutex mu_;
  Map entries_;
  std::list<const std::string*> lru_;  // keys of entries_ (stable: the map is node-based), most recent first
  size_t bytes_ = 0;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

}  // namespace nsys::skills
