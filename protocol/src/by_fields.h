#pragma once
// Internal to nsys_protocol: the reader and writer of a struct that lists its members in WireFields()
// (nsys/protocol/wire_fields.h). The reader takes the members in list order with ObjectReader, so an error names
// the first bad member by its JSON path as a hand-written reader does. A header declares FromJson and to_json as for
// every other type; the .cpp defines both with NSYS_CONVERSIONS_BY_FIELDS(Type).
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "json_read.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

// The JSON of one member's value. Cells and skill arguments (Scalar) go through ScalarToJson (NaN and infinities
// become null), progress tokens and request ids (an integer or a string) through their own writers, clocks are
// written by name; anything else by its to_json. Declared before the templates that call them: ADL does not look in
// namespace nsys::protocol for a std::variant.
inline Json ToWire(const Scalar& value) {
  return ScalarToJson(value);
}
inline Json ToWire(const ProgressToken& token) {
  return ProgressTokenToJson(token);
}
inline Json ToWire(const RequestId& id) {
  return IdToJson(id);
}
inline Json ToWire(WindowClock clock) {
  return std::string(ToString(clock));
}
template <typename T>
Json ToWire(const T& value) {
  return value;
}
template <typename T>
Json ToWire(const std::vector<T>& values) {
  Json out = Json::array();
  for (const T& value : values) out.push_back(ToWire(value));
  return out;
}
template <typename T>
Json ToWire(const std::map<std::string, T>& values) {
  Json out = Json::object();
  for (const auto& [key, value] : values) out[key] = ToWire(value);
  return out;
}

template <typename Owner, typename Member>
void ReadField(const ObjectReader& r, const WireField<Owner, Member>& field, Owner& out) {
  Member& member = out.*field.member;
  if constexpr (kIsStdOptional<Member>) {
    r.Optional(field.name, member);
  } else if (field.defaulted) {
    r.OptionalOr(field.name, member);
  } else {
    r.Required(field.name, member);
  }
}

template <typename Owner, typename Member>
void WriteField(Json& j, const WireField<Owner, Member>& field, const Owner& value) {
  const Member& member = value.*field.member;
  if constexpr (kIsStdOptional<Member>) {
    if (member) j[field.name] = ToWire(*member);
  } else {
    j[field.name] = ToWire(member);
  }
}

template <typename T>
void ReadFields(const Json& j, T& out, const std::string& path) {
  const ObjectReader r(j, path);
  std::apply([&](const auto&... field) { (ReadField(r, field, out), ...); }, T::WireFields());
}

template <typename T>
void WriteFields(Json& j, const T& value) {
  j = Json::object();
  std::apply([&](const auto&... field) { (WriteField(j, field, value), ...); }, T::WireFields());
}

}  // namespace nsys::protocol

// Defines the FromJson and to_json a header declared for Type from Type::WireFields().
#define NSYS_CONVERSIONS_BY_FIELDS(Type)                             \
  void FromJson(const Json& j, Type& out, const std::string& path) { \
    ReadFields(j, out, path);                                        \
  }                                                                  \
  void to_json(Json& j, const Type& value) {                         \
    WriteFields(j, value);                                           \
  }
