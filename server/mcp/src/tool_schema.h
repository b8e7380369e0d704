#pragma once
// Internal to nsys_mcp: a tool's JSON Schema inputSchema, derived from its Args type's Fields() (protocol/mcp.h).
// Each argument's JSON type comes from its member's C++ type (SchemaOf below: a type with no entry does not
// compile), whether it is required from the same rule the reader follows, and its description from one catalogue
// keyed by argument name (tool_schema.cpp: an argument with no description throws when the tools are listed, which
// every MCP test does).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/query.h"

namespace nsys::mcp {

template <typename M>
struct SchemaOf;  // SchemaOf<M>::Get(): the JSON Schema of a member of type M, without its description
template <>
struct SchemaOf<std::string> {
  static protocol::Json Get() { return {{"type", "string"}}; }
};
template <>
struct SchemaOf<bool> {
  static protocol::Json Get() { return {{"type", "boolean"}}; }
};
template <>
struct SchemaOf<int64_t> {
  static protocol::Json Get() { return {{"type", "integer"}}; }
};
template <>
struct SchemaOf<int32_t> {
  static protocol::Json Get() { return {{"type", "integer"}}; }
};
template <>
struct SchemaOf<double> {
  static protocol::Json Get() { return {{"type", "number"}}; }
};
template <>
struct SchemaOf<protocol::Scalar> {
  static protocol::Json Get();  // anyOf the five scalar types (some consumers accept only one "type")
};
template <>
struct SchemaOf<protocol::WindowClock> {
  static protocol::Json Get();
};
template <>
struct SchemaOf<protocol::Window> {
  static protocol::Json Get();
};
template <>
struct SchemaOf<protocol::Filter> {
  static protocol::Json Get();
};
template <>
struct SchemaOf<protocol::QuerySpec> {
  static protocol::Json Get();  // wire::QuerySchema: the one schema of a Query
};
template <typename M>
struct SchemaOf<std::optional<M>> {
  static protocol::Json Get() { return SchemaOf<M>::Get(); }
};
template <typename M>
struct SchemaOf<std::vector<M>> {
  static protocol::Json Get() { return {{"type", "array"}, {"items", SchemaOf<M>::Get()}}; }
};
template <typename M>
struct SchemaOf<std::map<std::string, M>> {
  static protocol::Json Get() { return {{"type", "object"}, {"additionalProperties", SchemaOf<M>::Get()}}; }
};

// Adds the catalogue's description of argument `name` to `property` (and what depends on the workspace: the skill
// names as run_skill's `skill` enum). Throws std::logic_error for an argument the catalogue does not describe.
void DescribeArgument(const std::string& name, protocol::Json& property, const core::Workspace& workspace);

// {"type": "object", "properties", "additionalProperties": false, "required"?}.
template <typename Args>
protocol::Json InputSchema(const core::Workspace& workspace) {
  protocol::Json properties = protocol::Json::object();
  protocol::Json required = protocol::Json::array();
  std::apply(
      [&](const auto&... arg) {
        auto add = [&](const auto& one) {
          protocol::Json property = SchemaOf<std::remove_cvref_t<decltype(std::declval<Args&>().*one.member)>>::Get();
          DescribeArgument(one.name, property, workspace);
          properties[one.name] = std::move(property);
          if (protocol::mcp::IsRequired(one)) required.push_back(one.name);
        };
        (add(arg), ...);
      },
      Args::Fields());
  protocol::Json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

}  // namespace nsys::mcp
