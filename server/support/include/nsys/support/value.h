#pragma once
// A table cell / argument value: the engine's JSON-free currency between skills and front ends.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace nsys {

using Value = std::variant<std::monostate, bool, int64_t, double, std::string>;

// The type of a skill argument, a table column or a wire value: one enum for all three.
enum class ValueType { kInt, kDouble, kString, kBool };

// "int", "double", "string", "bool": the names the wire and the skill files use.
inline std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kInt:
      return "int";
    case ValueType::kDouble:
      return "double";
    case ValueType::kString:
      return "string";
    case ValueType::kBool:
      return "bool";
  }
  return "string";
}

inline bool IsNull(const Value& v) {
  return std::holds_alternative<std::monostate>(v);
}

}  // namespace nsys
