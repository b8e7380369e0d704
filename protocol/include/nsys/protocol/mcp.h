#pragma once
// Typed params of the MCP requests the server reads (initialize, tools/call) and the arguments of its tools. Read
// with Parse<T> like every other shape (methods.h), by the same reader, so messages name fields the same way
// ("arguments.path: expected a string, got a number"). MCP names are snake_case; a tool's arguments object refuses
// members the tool does not declare (an agent's typo should not be silently ignored).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/methods.h"

namespace nsys::protocol::mcp {

struct InitializeParams {                  // initialize (MCP)
  std::string protocol_version;            // "protocolVersion"
  std::optional<std::string> client_name;  // "clientInfo.name", when it is a string
  bool operator==(const InitializeParams&) const = default;
};

struct CallToolParams {  // tools/call
  std::string name;
  Json arguments;  // null when absent; the tool reads it (ToolArgs below)
  bool operator==(const CallToolParams&) const = default;
};

struct OpenProfileArgs {  // open_profile
  static std::vector<std::string> Names() { return {"path", "no_cache"}; }
  std::string path;
  std::optional<bool> no_cache;
  bool operator==(const OpenProfileArgs&) const = default;
};

struct ProfileIdArgs {  // profile_info, close_profile
  static std::vector<std::string> Names() { return {"profile_id"}; }
  std::string profile_id;
  bool operator==(const ProfileIdArgs&) const = default;
};

struct NoArgs {  // list_skills
  static std::vector<std::string> Names() { return {}; }
  bool operator==(const NoArgs&) const = default;
};

struct RunSkillArgs {  // run_skill
  static std::vector<std::string> Names() { return {"profile_id", "skill", "args"}; }
  std::string profile_id;
  std::string skill;
  std::map<std::string, Scalar> args;  // converted to the skill's argument types by wire::ToolSkillArgs
  bool operator==(const RunSkillArgs&) const = default;
};

#define NSYS_MCP_CONVERSIONS(Type) void FromJson(const Json& json, Type& out, const std::string& path);
NSYS_MCP_CONVERSIONS(InitializeParams)
NSYS_MCP_CONVERSIONS(CallToolParams)
NSYS_MCP_CONVERSIONS(OpenProfileArgs)
NSYS_MCP_CONVERSIONS(ProfileIdArgs)
NSYS_MCP_CONVERSIONS(NoArgs)
NSYS_MCP_CONVERSIONS(RunSkillArgs)
#undef NSYS_MCP_CONVERSIONS

// kInvalidArgument when `arguments` (an object) has a member not in `known`, naming the tool and the valid names
// ("unknown argument 'x' for tool list_skills (valid: none)"). Anything but an object passes: Parse reports it.
Status CheckArgNames(const Json& arguments, const std::string& tool, const std::vector<std::string>& known);

// A tool's arguments: the name check, then Parse<T>(arguments, "arguments"); absent arguments read as {}.
template <typename T>
Expected<T> ParseToolArgs(const Json& arguments, const std::string& tool) {
  if (Status known = CheckArgNames(arguments, tool, T::Names()); !known) return known.error();
  return Parse<T>(arguments, "arguments");
}

}  // namespace nsys::protocol::mcp
