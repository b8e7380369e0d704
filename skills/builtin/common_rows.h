#pragma once
// Row selection by window and small helpers to build result tables.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nsys/engine/window.h"
#include "nsys/skills/skill.h"

namespace nsys::skills::builtin {

// Rows of a start-sorted table that start inside the filter's window ([begin, end)); all rows when no
// window was asked for (so a zero-length event at the very end of the profile still counts).
template <typename Table>
std::pair<size_t, size_t> RowRange(const Table& t, const engine::Filter& filter) {
  if (filter.window.whole) return {0, t.size()};
  return engine::StartRange(t, filter.window.begin, filter.window.end);
}

// Rows that may overlap the window: those starting in [begin - max_duration, end). Callers still test
// each row's end.
template <typename Table>
std::pair<size_t, size_t> OverlapRange(const Table& t, const engine::Filter& filter) {
  if (filter.window.whole) return {0, t.size()};
  return engine::StartRange(t, filter.window.begin - t.max_duration, filter.window.end);
}

// The devices of the selected rows, for the notes that say which devices a total adds up.
class DevicesSeen {
 public:
  // Kept by id in a set, never indexed by it: a damaged row's id may be anything up to 2^31-1. Consecutive rows
  // mostly share a device, so the last one is remembered to keep the per-row cost at one compare.
  void Add(int32_t device) {
    device = std::max(0, device);
    if (device == last_) return;
    seen_.insert(last_ = device);
  }
  int Count() const { return static_cast<int>(seen_.size()); }
  // "0, 1, 3": the devices in id order.
  std::string List() const {
    std::string list;
    for (int32_t d : seen_) list += (list.empty() ? "" : ", ") + std::to_string(d);
    return list;
  }

 private:
  std::set<int32_t> seen_;
  int32_t last_ = -1;
};

inline Column IntCol(std::string name, std::string description) {
  return Column{std::move(name), ValueType::kInt, std::move(description)};
}
inline Column DoubleCol(std::string name, std::string description) {
  return Column{std::move(name), ValueType::kDouble, std::move(description)};
}
inline Column StringCol(std::string name, std::string description) {
  return Column{std::move(name), ValueType::kString, std::move(description)};
}
inline Column BoolCol(std::string name, std::string description) {
  return Column{std::move(name), ValueType::kBool, std::move(description)};
}

inline Value I(int64_t v) {
  return Value(v);
}
inline Value D(double v) {
  return Value(v);
}
inline Value S(std::string v) {
  return Value(std::move(v));
}
inline Value Null() {
  return Value();
}

}  // namespace nsys::skills::builtin
