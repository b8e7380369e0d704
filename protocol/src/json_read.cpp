#include "json_read.h"

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <variant>

namespace nsys::protocol {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

}  // namespace

void FailAt(const std::string& path, std::string problem) {
  throw FieldError(path, problem);
}

namespace detail {
Status RunReader(const std::function<void()>& read) {
  try {
    read();
  } catch (const FieldError& e) {
    return MakeError(ErrorKind::kInvalidArgument, e.what());
  }
  return {};
}
}  // namespace detail

const char* DescribeType(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

void FailExpected(const Json& j, const std::string& path, const char* what) {
  FailAt(path, std::string("expected ") + what + ", got " + DescribeType(j));
}

int64_t ReadInteger(const Json& j, const std::string& path, int64_t min, int64_t max) {
  int64_t value = 0;
  if (j.is_number_unsigned()) {
    const auto u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(kInt64Max)) FailAt(path, "integer out of range");
    value = static_cast<int64_t>(u);
  } else if (j.is_number_integer()) {
    value = j.get<int64_t>();
  } else if (j.is_number_float()) {
    // JavaScript prints large integers as 1e+21; accept integral values that a double holds exactly.
    const double d = j.get<double>();
    constexpr double kExact = 9007199254740992.0;  // 2^53
    if (std::trunc(d) != d) FailAt(path, "expected an integer, got a fractional number");
    if (std::fabs(d) > kExact) FailAt(path, "integer out of range");
    value = static_cast<int64_t>(d);
  } else {
    FailExpected(j, path, "an integer");
  }
  if (value < min || value > max) FailAt(path, "integer out of range");
  return value;
}

void FromJson(const Json& j, std::string& out, const std::string& path) {
  if (!j.is_string()) FailExpected(j, path, "a string");
  out = j.get<std::string>();
}

void FromJson(const Json& j, Json& out, const std::string&) {
  out = j;
}

void FromJson(const Json& j, bool& out, const std::string& path) {
  if (!j.is_boolean()) FailExpected(j, path, "a boolean");
  out = j.get<bool>();
}

void FromJson(const Json& j, double& out, const std::string& path) {
  if (!j.is_number()) FailExpected(j, path, "a number");
  out = j.get<double>();
}

void FromJson(const Json& j, int64_t& out, const std::string& path) {
  out = ReadInteger(j, path, kInt64Min, kInt64Max);
}

void FromJson(const Json& j, int32_t& out, const std::string& path) {
  out = static_cast<int32_t>(
      ReadInteger(j, path, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}

void FromJson(const Json& j, Scalar& out, const std::string& path) {
  if (j.is_null()) {
    out = std::monostate{};
  } else if (j.is_boolean()) {
    out = j.get<bool>();
  } else if (j.is_number_integer()) {  // includes unsigned
    out = ReadInteger(j, path, kInt64Min, kInt64Max);
  } else if (j.is_number_float()) {
    out = j.get<double>();
  } else if (j.is_string()) {
    out = j.get<std::string>();
  } else {
    FailExpected(j, path, "a number, string, boolean or null");
  }
}

void FromJson(const Json& j, RequestId& out, const std::string& path) {
  if (j.is_string()) {
    out = j.get<std::string>();
  } else if (j.is_number_integer()) {
    out = ReadInteger(j, path, kInt64Min, kInt64Max);
  } else {
    FailExpected(j, path, "an integer or a string");
  }
}

void FromJson(const Json& j, ProgressToken& out, const std::string& path) {
  if (j.is_string()) {
    out = j.get<std::string>();
  } else if (j.is_number_integer()) {
    out = ReadInteger(j, path, kInt64Min, kInt64Max);
  } else {
    FailExpected(j, path, "an integer or a string");
  }
}

Json ScalarToJson(const Scalar& value) {
  return std::visit(
      [](const auto& v) -> Json {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
          return nullptr;
        } else {
          return v;
        }
      },
      value);
}

Json ProgressTokenToJson(const ProgressToken& token) {
  return std::visit([](const auto& v) -> Json { return v; }, token);
}

}  // namespace nsys::protocol
