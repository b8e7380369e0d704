#pragma once
// A table cell / argument value: the engine's JSON-free currency between skills and front ends.
#include <cstdint>
#include <string>
#include <variant>

namespace nsys {

using Value = std::variant<std::monostate, bool, int64_t, double, std::string>;

inline bool IsNull(const Value& v) {
  return std::holds_alternative<std::monostate>(v);
}

}  // namespace nsys
