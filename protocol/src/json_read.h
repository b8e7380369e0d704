#pragma once
// Internal to nsys_protocol: readers that name the bad field by its JSON path, shared by methods.cpp and
// lsp_types.cpp. A reader stops at the first bad field by throwing FieldError, which never leaves the library:
// Parse<T> (detail::RunReader) turns it into an nsys::Error. Nested readers stay one line per field this way.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/support/path_text.h"

namespace nsys::protocol {

class FieldError : public std::runtime_error {
 public:
  FieldError(const std::string& path, const std::string& problem) : std::runtime_error(path + ": " + problem) {}
};

[[noreturn]] void FailAt(const std::string& path, std::string problem);
// "expected a number, got a string"
[[noreturn]] void FailExpected(const Json& j, const std::string& path, const char* what);
const char* DescribeType(const Json& j);

inline std::string FieldPath(const std::string& path, const char* key) {
  return path.empty() ? key : path + "." + key;
}
inline std::string IndexPath(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

int64_t ReadInteger(const Json& j, const std::string& path, int64_t min, int64_t max);

// Primitives. Declared before the templates below so that their unqualified calls find them.
void FromJson(const Json& j, std::string& out, const std::string& path);
void FromJson(const Json& j, bool& out, const std::string& path);
void FromJson(const Json& j, double& out, const std::string& path);
void FromJson(const Json& j, int64_t& out, const std::string& path);
void FromJson(const Json& j, int32_t& out, const std::string& path);
void FromJson(const Json& j, Scalar& out, const std::string& path);
void FromJson(const Json& j, RequestId& out, const std::string& path);  // an integer or a string
void FromJson(const Json& j, ProgressToken& out, const std::string& path);
void FromJson(const Json& j, WindowClock& out, const std::string& path);
void FromJson(const Json& j, ValueType& out, const std::string& path);
void FromJson(const Json& j, LogLevel& out, const std::string& path);
void FromJson(const Json& j, MessageType& out, const std::string& path);
void FromJson(const Json& j, Json& out, const std::string& path);  // any JSON value, null included

template <typename T>
void FromJson(const Json& j, std::vector<T>& out, const std::string& path) {
  if (!j.is_array()) FailExpected(j, path, "an array");
  out.clear();
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    T item{};
    FromJson(j[i], item, IndexPath(path, i));
    out.push_back(std::move(item));
  }
}

template <typename T>
void FromJson(const Json& j, std::map<std::string, T>& out, const std::string& path) {
  if (!j.is_object()) FailExpected(j, path, "an object");
  out.clear();
  for (const auto& [key, value] : j.items()) FromJson(value, out[key], FieldPath(path, key.c_str()));
}

// Reads the members of one object, naming each by its path.
class ObjectReader {
 public:
  // kProtocol: an absent required member is a "missing required field"; null is a value of the wrong type.
  // kToolArguments (MCP tools): absent or null is a "missing required argument" (agents send null for "not given").
  enum class Style { kProtocol, kToolArguments };
  ObjectReader(const Json& j, std::string path, Style style = Style::kProtocol)
      : j_(j), path_(std::move(path)), style_(style) {
    if (!j.is_object()) FailExpected(j, path_, "an object");
  }

  template <typename T>
  void Required(const char* key, T& out) const {
    const auto it = j_.find(key);
    if (style_ == Style::kToolArguments && (it == j_.end() || it->is_null())) {
      FailAt(FieldPath(path_, key), "missing required argument");
    }
    if (it == j_.end()) FailAt(FieldPath(path_, key), "missing required field");
    FromJson(*it, out, FieldPath(path_, key));
  }

  // Absent or null → nullopt.
  template <typename T>
  void Optional(const char* key, std::optional<T>& out) const {
    const auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) {
      out.reset();
      return;
    }
    T value{};
    FromJson(*it, value, FieldPath(path_, key));
    out = std::move(value);
  }

  // Keeps `out` (its default) when the member is absent or null.
  template <typename T>
  void OptionalOr(const char* key, T& out) const {
    const auto it = j_.find(key);
    if (it != j_.end() && !it->is_null()) FromJson(*it, out, FieldPath(path_, key));
  }

  const Json* Find(const char* key) const {
    const auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  std::string PathOf(const char* key) const { return FieldPath(path_, key); }

 private:
  const Json& j_;  // the reader must not outlive the JSON it reads
  std::string path_;
  Style style_;
};

template <typename Enum, size_t N>
Enum ReadEnum(const Json& j, const std::string& path, const std::pair<const char*, Enum> (&names)[N]) {
  if (j.is_string()) {
    for (const auto& [name, value] : names) {
      if (j.get<std::string>() == name) return value;
    }
  }
  std::string expected = "one of";
  for (size_t i = 0; i < N; ++i) expected += std::string(i == 0 ? " \"" : ", \"") + names[i].first + "\"";
  // The value is quoted bounded (support/path_text.h): a client's 20 MiB string is not echoed whole.
  FailAt(path, "expected " + expected + ", got " +
                   (j.is_string() ? "\"" + support::QuoteInput(j.get<std::string>()) + "\"" : DescribeType(j)));
}

template <typename Enum, size_t N>
std::string_view EnumName(Enum value, const std::pair<const char*, Enum> (&names)[N]) {
  for (const auto& [name, v] : names) {
    if (v == value) return name;
  }
  return "unknown";
}

template <typename T>
void SetIfPresent(Json& j, const char* key, const std::optional<T>& value) {
  if (value) j[key] = *value;
}

}  // namespace nsys::protocol
