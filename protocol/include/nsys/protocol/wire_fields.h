#pragma once
// A protocol struct lists its JSON members once, in `static constexpr auto WireFields()`: a tuple of
// Field(camelName, &member) and OptionalField(camelName, &member). Its reader and writer walk that list
// (protocol/src/by_fields.h), and tests/architecture/client_types_test.cpp checks the VS Code client's types against
// it. The three kinds of member, and what reading and writing do with each:
//   Field, a std::optional member: may be absent or null (nullopt); left out of the JSON when nullopt.
//   Field, any other member:       required ("missing required field"); always written.
//   OptionalField:                 may be absent or null (the member keeps its default); always written.
// A struct whose JSON is more than such a list (checks across members, derived members, members left out when
// empty, nested or renamed shapes) keeps a hand-written reader and writer, and says why beside the struct. Such a
// struct may still list its members when an MCP tool takes them as its arguments (nsys/protocol/mcp.h derives the
// tool's argument list from WireFields): the list then gives each member's name and kind as the hand-written pair
// reads and writes them, which tests/protocol/listed_params_test.cpp checks.
#include <optional>
#include <tuple>

namespace nsys::protocol {

template <typename Owner, typename Member>
struct WireField {
  const char* name;  // the JSON member name (camelCase)
  Member Owner::*member;
  bool defaulted = false;  // OptionalField: absent or null keeps the member's default
};

template <typename M>
constexpr bool kIsStdOptional = false;
template <typename M>
constexpr bool kIsStdOptional<std::optional<M>> = true;

template <typename Owner, typename Member>
constexpr WireField<Owner, Member> Field(const char* name, Member Owner::*member) {
  return {name, member, false};
}
template <typename Owner, typename Member>
constexpr WireField<Owner, Member> OptionalField(const char* name, Member Owner::*member) {
  static_assert(!kIsStdOptional<Member>, "a std::optional member is optional already: list it with Field");
  return {name, member, true};
}

// Whether a reader refuses the JSON without this member.
template <typename Owner, typename Member>
constexpr bool IsRequired(const WireField<Owner, Member>& field) {
  return !field.defaulted && !kIsStdOptional<Member>;
}
// Whether the writer may leave this member out (a std::optional that is nullopt).
template <typename Owner, typename Member>
constexpr bool MayBeOmitted(const WireField<Owner, Member>&) {
  return kIsStdOptional<Member>;
}

}  // namespace nsys::protocol
