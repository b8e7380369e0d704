#pragma once
// Typed params of the MCP requests the server reads (initialize, tools/call) and the arguments of its tools. Read
// with Parse<T> like every other shape (methods.h), by the same reader, so messages name fields the same way
// ("arguments.path: expected a string, got a number"). MCP names are snake_case; a tool's arguments object refuses
// members the tool does not declare (an agent's typo should not be silently ignored).
//
// A tool's Args type lists its arguments once, in `static constexpr auto Fields()`: a tuple of Arg(name, &member).
// Everything else is derived from that list: the reader (mcp.cpp: a std::optional or std::map member may be absent,
// any other is required), the names CheckArgNames accepts, and the MCP input schema (server/mcp/src/tool_schema.h:
// each member's C++ type gives its JSON Schema type). The Args types of the other tools live beside their editor
// method's params (analyze.h, diff.h, explain.h, ask.h, methods.h) and follow the same pattern.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/methods.h"

namespace nsys::protocol::mcp {

// One argument of a tool: its snake_case name and the member it is read into. `optional` marks a member whose type
// does not say so (open_in_perfetto's profile_id: a job's trace is asked by job_id instead).
template <typename Owner, typename Member>
struct ToolArg {
  const char* name;
  Member Owner::*member;
  bool optional = false;
};
template <typename Owner, typename Member>
constexpr ToolArg<Owner, Member> Arg(const char* name, Member Owner::*member) {
  return {name, member, false};
}
template <typename Owner, typename Member>
constexpr ToolArg<Owner, Member> OptionalArg(const char* name, Member Owner::*member) {
  return {name, member, true};
}

// Whether an argument of this member type may be absent (the reader's and the schema's one rule).
template <typename M>
constexpr bool kMayBeAbsent = false;
template <typename M>
constexpr bool kMayBeAbsent<std::optional<M>> = true;
template <typename M>
constexpr bool kMayBeAbsent<std::map<std::string, M>> = true;

template <typename Owner, typename Member>
constexpr bool IsRequired(const ToolArg<Owner, Member>& arg) {
  return !arg.optional && !kMayBeAbsent<Member>;
}

// The argument names of T, in its Fields() order.
template <typename T>
std::vector<std::string> ArgNames() {
  return std::apply([](const auto&... arg) { return std::vector<std::string>{arg.name...}; }, T::Fields());
}

struct InitializeParams {                  // initialize (MCP)
  std::string protocol_version;            // "protocolVersion"
  std::optional<std::string> client_name;  // "clientInfo.name", when it is a string
  bool operator==(const InitializeParams&) const = default;
};

struct CallToolParams {  // tools/call
  std::string name;
  Json arguments;  // null when absent; the tool reads it (ParseToolArgs below)
  bool operator==(const CallToolParams&) const = default;
};

struct OpenProfileArgs {  // open_profile
  std::string path;
  std::optional<bool> no_cache;
  static constexpr auto Fields() {
    return std::tuple{Arg("path", &OpenProfileArgs::path), Arg("no_cache", &OpenProfileArgs::no_cache)};
  }
  bool operator==(const OpenProfileArgs&) const = default;
};

struct ProfileIdArgs {  // profile_info, close_profile
  std::string profile_id;
  static constexpr auto Fields() { return std::tuple{Arg("profile_id", &ProfileIdArgs::profile_id)}; }
  bool operator==(const ProfileIdArgs&) const = default;
};

struct NoArgs {  // list_skills
  static constexpr auto Fields() { return std::tuple{}; }
  bool operator==(const NoArgs&) const = default;
};

struct RunSkillArgs {  // run_skill
  std::string profile_id;
  std::string skill;
  std::map<std::string, Scalar> args;  // converted to the skill's argument types by wire::ToolSkillArgs
  // The protocol's one filter shape, as nsys/runSkill's `filter`; the common args in `args` are its alias.
  std::optional<Filter> filter;
  static constexpr auto Fields() {
    return std::tuple{Arg("profile_id", &RunSkillArgs::profile_id), Arg("skill", &RunSkillArgs::skill),
                      Arg("args", &RunSkillArgs::args), Arg("filter", &RunSkillArgs::filter)};
  }
  bool operator==(const RunSkillArgs&) const = default;
};

// export_trace: nsys/exportTrace's params under their snake_case names (no filter, no gzip: MCP results are
// text). The reader also checks what the editor method's conversion would, so errors name the tool's arguments:
// min_duration_ns and each pid must not be negative, a pid fits 24 bits.
struct ExportTraceArgs : ExportTraceParams {
  static constexpr auto Fields() {
    return std::tuple{Arg("profile_id", &ExportTraceArgs::profile_id),
                      Arg("window", &ExportTraceArgs::window),
                      Arg("devices", &ExportTraceArgs::devices),
                      Arg("pids", &ExportTraceArgs::pids),
                      Arg("min_duration_ns", &ExportTraceArgs::min_duration_ns),
                      Arg("output", &ExportTraceArgs::output)};
  }
  void Check(const std::string& path) const;
  bool operator==(const ExportTraceArgs&) const = default;
};

// open_in_perfetto: nsys/openInPerfetto's params in snake_case. The reader checks that exactly one of profile_id
// and job_id is given, window only with profile_id, ranks_per_node only with job_id and not negative.
struct OpenInPerfettoArgs : OpenInPerfettoParams {
  static constexpr auto Fields() {
    return std::tuple{OptionalArg("profile_id", &OpenInPerfettoArgs::profile_id),
                      Arg("window", &OpenInPerfettoArgs::window), Arg("job_id", &OpenInPerfettoArgs::job_id),
                      Arg("ranks_per_node", &OpenInPerfettoArgs::ranks_per_node)};
  }
  void Check(const std::string& path) const;
  bool operator==(const OpenInPerfettoArgs&) const = default;
};

// close_profile's and close_job's results. A result lists its members once too, under the editor protocol's names;
// its writer (to_json) is generated from the list (mcp.cpp), and the MCP tool table spells them in snake_case.
struct ClosedProfile {
  std::string profile_id;
  bool closed = true;
  static constexpr auto Fields() {
    return std::tuple{Arg("profileId", &ClosedProfile::profile_id), Arg("closed", &ClosedProfile::closed)};
  }
  bool operator==(const ClosedProfile&) const = default;
};
struct ClosedJob {
  std::string job_id;
  bool closed = true;
  static constexpr auto Fields() {
    return std::tuple{Arg("jobId", &ClosedJob::job_id), Arg("closed", &ClosedJob::closed)};
  }
  bool operator==(const ClosedJob&) const = default;
};
void to_json(Json& json, const ClosedProfile& value);
void to_json(Json& json, const ClosedJob& value);

#define NSYS_MCP_CONVERSIONS(Type) void FromJson(const Json& json, Type& out, const std::string& path);
NSYS_MCP_CONVERSIONS(InitializeParams)
NSYS_MCP_CONVERSIONS(CallToolParams)
NSYS_MCP_CONVERSIONS(OpenProfileArgs)
NSYS_MCP_CONVERSIONS(ProfileIdArgs)
NSYS_MCP_CONVERSIONS(NoArgs)
NSYS_MCP_CONVERSIONS(RunSkillArgs)
NSYS_MCP_CONVERSIONS(ExportTraceArgs)
NSYS_MCP_CONVERSIONS(OpenInPerfettoArgs)
#undef NSYS_MCP_CONVERSIONS

// kInvalidArgument when `arguments` (an object) has a member not in `known`, naming the tool and the valid names
// ("unknown argument 'x' for tool list_skills (valid: none)"). Anything but an object passes: Parse reports it.
Status CheckArgNames(const Json& arguments, const std::string& tool, const std::vector<std::string>& known);

// A tool's arguments: the name check, then Parse<T>(arguments, "arguments"); absent arguments read as {}.
template <typename T>
Expected<T> ParseToolArgs(const Json& arguments, const std::string& tool) {
  if (Status known = CheckArgNames(arguments, tool, ArgNames<T>()); !known) return known.error();
  return Parse<T>(arguments, "arguments");
}

}  // namespace nsys::protocol::mcp
