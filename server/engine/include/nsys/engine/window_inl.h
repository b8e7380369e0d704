#pragma once
// The templates of window.h (it includes this file at its end).
#include <algorithm>
#include <cstddef>
#include <utility>

#include "nsys/engine/model.h"

namespace nsys::engine {

template <typename Table>
std::pair<size_t, size_t> StartRange(const Table& t, Ns begin, Ns end) {
  auto first = std::lower_bound(t.start.begin(), t.start.end(), begin);
  auto last = std::lower_bound(first, t.start.end(), end);
  return {static_cast<size_t>(first - t.start.begin()), static_cast<size_t>(last - t.start.begin())};
}

}  // namespace nsys::engine
