#pragma once
// Results of skills on one open profile, kept for reuse. A profile is immutable once opened and every skill is a
// pure function of (skill, arguments, profile), so a repeated request (an editor re-rendering a view, a hover, an
// agent calling the same tool twice) is answered from here instead of rescanning tens of millions of rows.
// Bounded by the cells it holds (least recently used results go first); thread-safe.
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
  explicit ResultMemo(size_t max_cells = 1'000'000) : max_cells_(max_cells) {}

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
    size_t cells = 0;
  };
  Stats stats() const;

  // The canonical text of a call, for the key: the skill's name, then each argument as name=type:value in name
  // order (Args is ordered), so equal calls give equal keys.
  static std::string KeyOf(const Skill& skill, const Args& args);

 private:
  struct Entry {
    std::shared_ptr<const Skill> skill;
    std::shared_ptr<const Table> table;
    size_t cells = 0;
    std::list<std::string>::iterator lru;
  };
  void EvictLocked();

  const size_t max_cells_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // most recently used first
  size_t cells_ = 0;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

}  // namespace nsys::skills
