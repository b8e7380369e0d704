// Readers of the MCP params and tool arguments (nsys/protocol/mcp.h), on the same ObjectReader as methods.cpp. Every
// tool's Args reader is generated here from its Fields() list, and so are the writers of the ask and query tools'
// arguments and of close_profile's and close_job's results.
#include "nsys/protocol/mcp.h"

#include <algorithm>
#include <type_traits>

#include "json_read.h"
#include "nsys/protocol/analyze.h"
#include "nsys/protocol/ask.h"
#include "nsys/protocol/diff.h"
#include "nsys/protocol/explain.h"
#include "nsys/protocol/job.h"
#include "nsys/protocol/query.h"

namespace nsys::protocol::mcp {

namespace {

template <typename M>
constexpr bool kIsOptional = false;
template <typename M>
constexpr bool kIsOptional<std::optional<M>> = true;

template <typename Owner, typename Member, typename T>
void ReadArg(const ObjectReader& r, const ToolArg<Owner, Member>& arg, T& out) {
  Member& member = out.*arg.member;
  if constexpr (kIsOptional<Member>) {
    r.Optional(arg.name, member);
  } else if (IsRequired(arg)) {
    r.Required(arg.name, member);
  } else {
    r.OptionalOr(arg.name, member);
  }
}

// Reads every argument of T::Fields() (absent or null: missing if required, else left at its default), then T's own
// cross-argument checks when it has them.
template <typename T>
void ReadToolArgs(const Json& j, T& out, const std::string& path) {
  const ObjectReader r(j, path, ObjectReader::Style::kToolArguments);
  std::apply([&](const auto&... arg) { (ReadArg(r, arg, out), ...); }, T::Fields());
  if constexpr (requires { out.Check(path); }) out.Check(path);
}

}  // namespace

Status CheckArgNames(const Json& arguments, const std::string& tool, const std::vector<std::string>& known) {
  if (!arguments.is_object()) return {};
  for (const auto& [key, value] : arguments.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string valid;
    for (const auto& k : known) valid += (valid.empty() ? "" : ", ") + k;
    return MakeError(ErrorKind::kInvalidArgument, "unknown argument '" + key + "' for tool " + tool +
                                                      " (valid: " + (valid.empty() ? "none" : valid) + ")");
  }
  return {};
}

void FromJson(const Json& j, InitializeParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("protocolVersion", out.protocol_version);
  // clientInfo is only logged: a malformed one is ignored rather than refused.
  if (const Json* info = r.Find("clientInfo"); info && info->is_object()) {
    if (const auto name = info->find("name"); name != info->end() && name->is_string()) {
      out.client_name = name->get<std::string>();
    }
  }
}

void FromJson(const Json& j, CallToolParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  const Json* arguments = r.Find("arguments");
  out.arguments = arguments ? *arguments : Json();
}

void ExportTraceArgs::Check(const std::string& path) const {
  if (min_duration_ns && *min_duration_ns < 0) FailAt(FieldPath(path, "min_duration_ns"), "must not be negative");
  if (!pids) return;
  for (size_t i = 0; i < pids->size(); ++i) {
    const int64_t pid = (*pids)[i];
    if (pid < 0 || pid > 0xFFFFFF) {
      FailAt(IndexPath(FieldPath(path, "pids"), i), std::to_string(pid) + " is not a process id (0 to 16777215)");
    }
  }
}

void OpenInPerfettoArgs::Check(const std::string& path) const {
  if (job_id && !profile_id.empty()) FailAt(path, "give profile_id or job_id, not both");
  if (!job_id && profile_id.empty()) FailAt(path, "give profile_id (a profile's trace) or job_id (a job's)");
  if (job_id && window) {
    FailAt(FieldPath(path, "window"), "applies to a profile's trace; a job's trace holds each rank whole");
  }
  if (!job_id && ranks_per_node) FailAt(FieldPath(path, "ranks_per_node"), "applies to a job's trace (job_id)");
  if (ranks_per_node && *ranks_per_node < 0) FailAt(FieldPath(path, "ranks_per_node"), "must not be negative");
}

namespace {
// Writes every member of T::Fields() under its name (an empty std::optional is left out).
template <typename T>
Json WriteFields(const T& value) {
  Json j = Json::object();
  std::apply(
      [&](const auto&... arg) {
        auto write = [&](const auto& one) {
          const auto& member = value.*one.member;
          if constexpr (kIsOptional<std::remove_cvref_t<decltype(member)>>) {
            if (member) j[one.name] = *member;
          } else {
            j[one.name] = member;
          }
        };
        (write(arg), ...);
      },
      T::Fields());
  return j;
}
}  // namespace

void to_json(Json& j, const ClosedProfile& v) {
  j = WriteFields(v);
}
void to_json(Json& j, const ClosedJob& v) {
  j = WriteFields(v);
}

#define NSYS_TOOL_ARGS_READER(Type)                                  \
  void FromJson(const Json& j, Type& out, const std::string& path) { \
    ReadToolArgs(j, out, path);                                      \
  }
NSYS_TOOL_ARGS_READER(OpenProfileArgs)
NSYS_TOOL_ARGS_READER(ProfileIdArgs)
NSYS_TOOL_ARGS_READER(NoArgs)
NSYS_TOOL_ARGS_READER(RunSkillArgs)
NSYS_TOOL_ARGS_READER(ExportTraceArgs)
NSYS_TOOL_ARGS_READER(OpenInPerfettoArgs)
NSYS_TOOL_ARGS_READER(AnalyzeArgs)
NSYS_TOOL_ARGS_READER(DiffArgs)
NSYS_TOOL_ARGS_READER(ExplainKernelArgs)
NSYS_TOOL_ARGS_READER(OpenJobArgs)
NSYS_TOOL_ARGS_READER(JobIdArgs)
NSYS_TOOL_ARGS_READER(AnalyzeJobArgs)
#undef NSYS_TOOL_ARGS_READER

}  // namespace nsys::protocol::mcp

namespace nsys::protocol {
// The ask tool's Args type lives in namespace protocol (ask.h); its reader and writer are generated here all the
// same, the writer under the tool's names (the params' writer, which it would otherwise reach, writes camelCase).
void FromJson(const Json& j, AskToolArgs& out, const std::string& path) {
  mcp::ReadToolArgs(j, out, path);
}
void to_json(Json& j, const AskToolArgs& v) {
  j = mcp::WriteFields(v);
}
// The query tool's too (query.h).
void FromJson(const Json& j, QueryToolArgs& out, const std::string& path) {
  mcp::ReadToolArgs(j, out, path);
}
void to_json(Json& j, const QueryToolArgs& v) {
  j = mcp::WriteFields(v);
}
}  // namespace nsys::protocol
