#pragma once
// The JSON shape of a protocol type, derived from the C++ type itself: strings, numbers, booleans, arrays, maps,
// unions (std::variant), and objects whose members come from the struct's field list (WireFields(), wire_fields.h).
// A struct without a field list (a hand-written reader and writer that says why beside the struct) is an opaque
// object known by name only, unless it names the type its JSON is (`using WireShape = std::vector<CodeLens>;`). The
// capability catalogue (capabilities.h) gives each method's params and result as shapes; from them come the clients'
// generated declarations (client_declarations.cpp) and the bind tables' check that a handler takes and returns its
// row's types.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <variant>
#include <vector>

#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct Shape;
// Lazy: a shape is built when first asked for, so that types that hold each other (or themselves) describe each other.
using ShapeFn = const Shape& (*)();

struct ShapeMember {
  std::string name;  // the JSON member name
  ShapeFn shape;
  bool omitted_when_absent = false;  // a std::optional member: the writer leaves it out when absent
  bool defaulted = false;            // OptionalField: a reader takes its absence as the default
};

struct Shape {
  enum class Kind { kString, kInteger, kNumber, kBoolean, kNull, kAny, kArray, kMap, kUnion, kObject, kOpaque };
  Kind kind = Kind::kAny;
  const std::type_info* type = nullptr;  // the C++ type
  std::string name;                      // kObject and kOpaque: the struct's name without namespaces
  std::vector<ShapeFn> elements;         // kArray and kMap: the element; kUnion: the alternatives
  std::vector<ShapeMember> members;      // kObject: the field list, in its order
};

// The struct's name as written in C++, without its namespaces ("AnalyzeResult").
std::string ShapeName(const std::type_info& type);

template <typename T>
const Shape& ShapeOf();

namespace shape_detail {

template <typename T>
concept Listed = requires {
  T::WireFields();
};
template <typename T>
constexpr bool kIsVector = false;
template <typename T>
constexpr bool kIsVector<std::vector<T>> = true;
template <typename T>
constexpr bool kIsStringMap = false;
template <typename T>
constexpr bool kIsStringMap<std::map<std::string, T>> = true;
template <typename T>
constexpr bool kIsVariant = false;
template <typename... T>
constexpr bool kIsVariant<std::variant<T...>> = true;

template <typename... T>
std::vector<ShapeFn> Alternatives(const std::variant<T...>*) {
  return {&ShapeOf<T>...};
}

template <typename Owner, typename Member>
ShapeMember MemberOf(const WireField<Owner, Member>& field) {
  if constexpr (kIsStdOptional<Member>) {
    return {field.name, &ShapeOf<typename Member::value_type>, true, false};
  } else {
    return {field.name, &ShapeOf<Member>, false, field.defaulted};
  }
}

template <typename T>
Shape Describe() {
  using K = Shape::Kind;
  Shape s;
  s.type = &typeid(T);
  if constexpr (std::is_same_v<T, std::string>) {
    s.kind = K::kString;
  } else if constexpr (std::is_same_v<T, bool>) {
    s.kind = K::kBoolean;
  } else if constexpr (std::is_integral_v<T>) {
    s.kind = K::kInteger;
  } else if constexpr (std::is_floating_point_v<T>) {
    s.kind = K::kNumber;
  } else if constexpr (std::is_enum_v<T>) {
    s.kind = K::kString;  // enums go on the wire by name
  } else if constexpr (std::is_same_v<T, std::monostate>) {
    s.kind = K::kNull;
  } else if constexpr (std::is_same_v<T, Json>) {
    s.kind = K::kAny;
  } else if constexpr (kIsStdOptional<T>) {
    s.kind = K::kUnion;
    s.elements = {&ShapeOf<typename T::value_type>, &ShapeOf<std::monostate>};
  } else if constexpr (kIsVector<T>) {
    s.kind = K::kArray;
    s.elements = {&ShapeOf<typename T::value_type>};
  } else if constexpr (kIsStringMap<T>) {
    s.kind = K::kMap;
    s.elements = {&ShapeOf<typename T::mapped_type>};
  } else if constexpr (kIsVariant<T>) {
    s.kind = K::kUnion;
    s.elements = Alternatives(static_cast<const T*>(nullptr));
  } else if constexpr (requires { typename T::WireShape; }) {
    s = Describe<typename T::WireShape>();  // a hand-written struct whose JSON is another type's (an array, null)
    s.type = &typeid(T);
  } else if constexpr (Listed<T>) {
    s.kind = K::kObject;
    s.name = ShapeName(typeid(T));
    std::apply([&](const auto&... field) { (s.members.push_back(MemberOf(field)), ...); }, T::WireFields());
  } else {
    static_assert(std::is_class_v<T>, "a protocol member of a type the shapes do not know");
    s.kind = K::kOpaque;
    s.name = ShapeName(typeid(T));
  }
  return s;
}

}  // namespace shape_detail

template <typename T>
const Shape& ShapeOf() {
  static const Shape shape = shape_detail::Describe<T>();
  return shape;
}

}  // namespace nsys::protocol
