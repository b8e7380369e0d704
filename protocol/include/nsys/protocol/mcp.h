#pragma once
// Typed params of the MCP requests the server reads (initialize, tools/call) and the arguments of its tools. Read
// with Parse<T> like every other shape (methods.h), by the same reader, so messages name fields the same way
// ("arguments.path: expected a string, got a number"). MCP names are snake_case; a tool's arguments object refuses
// members the tool does not declare (an agent's typo should not be silently ignored).
//
// A tool's Args type gives its arguments once, in `static constexpr auto Fields()`: a tuple of ToolArg (a snake_case
// name and the member it is read into). Everything else is derived from that list: the reader (mcp.cpp: a
// std::optional or std::map member may be absent, any other is required), the names CheckArgNames accepts, and the
// MCP input schema (server/mcp/src/tool_schema.h: each member's C++ type gives its JSON Schema type).
//
// Most tools take an editor method's params: their Args type derives from the params struct, and Fields() is
// ParamsArgs<Params>(), the params' own member list (WireFields, wire_fields.h) under snake_case names, less the
// members the tool does not take (Except<&Params::x, ...>); std::tuple_cat adds arguments of the tool's own, listed
// with Arg (analyze's flat start/end/clock for the params' window). Only a tool whose arguments are not params
// members lists them all with Arg/OptionalArg. The Args types of the other tools live beside their editor method's
// params (analyze.h, diff.h, explain.h, ask.h, query.h, job.h) and follow the same pattern.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

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

// ---- Arguments that are an editor method's params ----------------------------------------------------------------

// camelCase to snake_case, the MCP face's one spelling rule ("minDurationNs" -> "min_duration_ns"): an underscore
// before each capital that follows a lower-case letter or a digit, and every capital lower-cased. Tool arguments
// derived from params (ParamsArgs) and tool results (server/mcp's ToolResultJson) are both spelled by it.
constexpr bool StartsSnakeWord(std::string_view camel, size_t i) {
  if (i == 0 || camel[i] < 'A' || camel[i] > 'Z') return false;
  const char before = camel[i - 1];
  return (before >= 'a' && before <= 'z') || (before >= '0' && before <= '9');
}
constexpr size_t SnakeCaseSize(std::string_view camel) {
  size_t size = camel.size();
  for (size_t i = 0; i < camel.size(); ++i) size += StartsSnakeWord(camel, i) ? 1 : 0;
  return size;
}
// Writes the SnakeCaseSize(camel) characters of camel's snake_case spelling to `out`.
constexpr void WriteSnakeCase(std::string_view camel, char* out) {
  for (size_t i = 0; i < camel.size(); ++i) {
    if (StartsSnakeWord(camel, i)) *out++ = '_';
    const bool upper = camel[i] >= 'A' && camel[i] <= 'Z';
    *out++ = upper ? static_cast<char>(camel[i] - 'A' + 'a') : camel[i];
  }
}

// The members of a params struct that a tool does not take, by pointer (a typo does not compile):
// ParamsArgs<ExportTraceParams>(Except<&ExportTraceParams::filter, &ExportTraceParams::gzip>{}).
template <auto... Members>
struct Except {};

namespace detail {

// A listed member as a tool argument named `name`: an OptionalField is an OptionalArg.
template <typename Owner, typename Member>
constexpr ToolArg<Owner, Member> ArgOf(const char* name, const WireField<Owner, Member>& field) {
  return {name, field.member, field.defaulted};
}

// Params' I-th listed name in snake_case, stored once (a constant the ToolArg points into).
template <typename Params, size_t I>
constexpr auto SnakeName() {
  constexpr std::string_view camel = std::get<I>(Params::WireFields()).name;
  std::array<char, SnakeCaseSize(camel) + 1> name{};
  WriteSnakeCase(camel, name.data());
  return name;
}
template <typename Params, size_t I>
inline constexpr auto kSnakeName = SnakeName<Params, I>();

template <auto Member, typename Owner, typename M>
constexpr bool IsMember(const WireField<Owner, M>& field) {
  if constexpr (std::is_same_v<decltype(Member), M Owner::*>) {
    return field.member == Member;
  } else {
    return false;
  }
}

// Params' I-th listed member as a tuple of its ToolArg, or an empty tuple when it is one of Excluded.
template <typename Params, size_t I, auto... Excluded>
constexpr auto ArgUnlessExcluded() {
  constexpr auto field = std::get<I>(Params::WireFields());
  if constexpr ((IsMember<Excluded>(field) || ...)) {
    return std::tuple{};
  } else {
    return std::tuple{ArgOf(kSnakeName<Params, I>.data(), field)};
  }
}

template <typename Params, auto Member, size_t... I>
constexpr bool Lists(std::index_sequence<I...>) {
  constexpr auto fields = Params::WireFields();
  return (IsMember<Member>(std::get<I>(fields)) || ...);
}

template <typename Params, auto... Excluded, size_t... I>
constexpr auto ArgsOfFields(std::index_sequence<I...>) {
  return std::tuple_cat(ArgUnlessExcluded<Params, I, Excluded...>()...);
}

}  // namespace detail

// The arguments of a tool that takes Params' members: Params::WireFields() in its order, each name in snake_case,
// each member's kind kept (a Field required unless a std::optional, an OptionalField optional), less the members
// in Except.
template <typename Params, auto... Excluded>
constexpr auto ParamsArgs(Except<Excluded...> = {}) {
  constexpr auto kIndices = std::make_index_sequence<std::tuple_size_v<decltype(Params::WireFields())>>();
  static_assert((detail::Lists<Params, Excluded>(kIndices) && ...), "Except names a member Params does not list");
  return detail::ArgsOfFields<Params, Excluded...>(kIndices);
}

// ---- The MCP requests and the tools' arguments --------------------------------------------------------------------

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

struct OpenProfileArgs : OpenProfileParams {  // open_profile: nsys/openProfile's params
  static constexpr auto Fields() { return ParamsArgs<OpenProfileParams>(); }
  bool operator==(const OpenProfileArgs&) const = default;
};

struct ProfileIdArgs : ProfileIdParams {  // profile_info, close_profile
  static constexpr auto Fields() { return ParamsArgs<ProfileIdParams>(); }
  bool operator==(const ProfileIdArgs&) const = default;
};

struct NoArgs {  // list_skills (as nsys/listSkills, nothing)
  static constexpr auto Fields() { return std::tuple{}; }
  bool operator==(const NoArgs&) const = default;
};

// run_skill: nsys/runSkill's params. `args` are converted to the skill's argument types by wire::ToolSkillArgs;
// `filter` is the protocol's one filter shape, with the common args in `args` as its alias.
struct RunSkillArgs : RunSkillParams {
  static constexpr auto Fields() { return ParamsArgs<RunSkillParams>(); }
  bool operator==(const RunSkillArgs&) const = default;
};

// export_trace: nsys/exportTrace's params under their snake_case names (no filter, no gzip: MCP results are
// text). The reader also checks what the editor method's conversion would, so errors name the tool's arguments:
// min_duration_ns and each pid must not be negative, a pid fits 24 bits.
struct ExportTraceArgs : ExportTraceParams {
  static constexpr auto Fields() {
    return ParamsArgs<ExportTraceParams>(Except<&ExportTraceParams::filter, &ExportTraceParams::gzip>{});
  }
  void Check(const std::string& path) const;
  bool operator==(const ExportTraceArgs&) const = default;
};

// open_in_perfetto: nsys/openInPerfetto's params in snake_case (profile_id optional, as the params list it). The
// reader checks that exactly one of profile_id and job_id is given, window only with profile_id, ranks_per_node only
// with job_id and not negative.
struct OpenInPerfettoArgs : OpenInPerfettoParams {
  static constexpr auto Fields() { return ParamsArgs<OpenInPerfettoParams>(); }
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
