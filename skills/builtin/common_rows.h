#pragma once
// Row selection by window and small helpers to build result tables.
#include <algorithm>
#include <cstdint>
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
  void Add(int32_t device) {
    const auto d = static_cast<size_t>(std::max(0, device));
    if (d >= seen_.size()) seen_.resize(d + 1, false);
    seen_[d] = true;
  }
  int Count() const { return static_cast<int>(std::count(seen_.begin(), seen_.end(), true)); }
  // "0, 1, 3": the devices in id order.
  std::string List() const {
    std::string list;
    for (size_t d = 0; d < seen_.size(); ++d) {
      if (seen_[d]) list += (list.empty() ? "" : ", ") + std::to_string(d);
    }
    return list;
  }

 private:
  std::vector<bool> seen_;
};

inline Column IntCol(std::string name, std::string description) {
  return Column{std::move(name), ColumnType::kInt, std::move(description)};
}
inline Column DoubleCol(std::string name, std::string description) {
  return Column{std::move(name), ColumnType::kDouble, std::move(description)};
}
inline Column StringCol(std::string name, std::string description) {
  return Column{std::move(name), ColumnType::kString, std::move(description)};
}
inline Column BoolCol(std::string name, std::string description) {
  return Column{std::move(name), ColumnType::kBool, std::move(description)};
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
