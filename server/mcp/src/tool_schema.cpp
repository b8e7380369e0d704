#include "tool_schema.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string_view>
#include <utility>

#include "nsys/wire/converters.h"
#include "nsys/wire/query.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

// Every MCP tool argument's description, once, by name: the same name means the same thing in every tool.
constexpr std::pair<std::string_view, std::string_view> kDescriptions[] = {
    {"path",
     "Path of the .sqlite export or the .nsys-rep / .qdrep report (absolute, or relative to the server's working "
     "directory)."},
    {"no_cache", "Neither read nor write the warm-reopen cache."},
    {"profile_id", "The id open_profile returned (\"p1\")."},
    {"base_profile_id", "The id open_profile returned for the base (before) profile."},
    {"new_profile_id", "The id open_profile returned for the new (after) profile."},
    {"skill", "The analysis to run (see list_skills)."},
    {"question", "The question."},
    {"conversation_id", "From a previous ask result, so that follow-ups work."},
    {"queries", "The Queries, answered in order (1 to 16)."},
    {"kernel", "The kernel: its demangled name, its short name, or a unique part of the name (case-insensitive)."},
    {"start", "Start of the window to analyse (seconds from the profile start unless clock is \"capture_ns\")."},
    {"end", "End of the window (seconds from the profile start unless clock is \"capture_ns\")."},
    {"clock", "The clock of start and end: relative_s (seconds from the profile start, the default) or capture_ns."},
    {"window",
     "The time window: {start?, end?, clock?}; start/end are seconds from the profile start unless clock is "
     "\"capture_ns\". Absent: the whole profile."},
    {"filter",
     "What the skill looks at: {window?: {start?, end?, clock?}, devices?: [GPU ids], processes?: [pids], threads?: "
     "[global thread ids]}; an absent or empty member means all. The same as the common args (start, end, clock, "
     "device, pid) in args, which are its alias; naming one thing both ways is an error."},
    {"devices", "Only these GPUs (absent: every GPU)."},
    {"pids", "Only these processes (absent: every process)."},
    {"min_duration_ns", "Leave out slices shorter than this many ns."},
    {"output",
     "The trace file to write. An existing file is replaced only when it is a Perfetto trace; never a profile."},
    {"phase_map",
     "JSON text mapping phase names to NVTX range patterns (substrings, or \"re:\" regexes), e.g. {\"prefill\": "
     "[\"prefill\"], \"decode\": [\"re:^decode\"]}."},
    {"max_rows", "Kernels and NVTX ranges listed per class (shared, appeared, disappeared); 0 = all. Default 15."},
    {"metric",
     "The measure the verdict covers: step (the median iteration time), gpu (the GPU work per step), or kernel:NAME "
     "(one kernel's time per call). Default: step and gpu."},
    {"job_id", "The id open_job returned (\"j1\")."},
    {"ranks_per_node", "Consecutive ranks that share a node and its clock (absent or 0: each rank its own node)."},
    {"directory", "A directory whose *.sqlite / *.nsys-rep / *.qdrep files are the ranks (one export per process)."},
    {"paths", "The rank files instead of a directory."},
    {"memory_budget", "Bytes the loaded ranks may hold, or a size such as \"4G\" (default: the server's)."},
    {"threads", "Ranks loaded at once, 1 to 64 (default 2)."},
};

// run_skill's `args`: every skill's common arguments, named with their types.
std::string SkillArgsDescription() {
  std::string common;
  const protocol::ListSkillsResult listing = wire::ToListSkillsResult({}, wire::CommonArgs::kSeparate);
  for (const auto& arg : *listing.common_args) {
    common += fmt::format("{}{} ({})", common.empty() ? "" : ", ", arg.name, protocol::ToString(arg.type));
  }
  return "Arguments of the skill by name (see list_skills). Every skill accepts " + common +
         "; start/end are seconds from the profile start unless clock is \"capture_ns\".";
}

}  // namespace

Json SchemaOf<protocol::Scalar>::Get() {
  Json types = Json::array();
  for (const char* type : {"integer", "number", "string", "boolean", "null"}) types.push_back({{"type", type}});
  return {{"anyOf", std::move(types)}};
}

Json SchemaOf<protocol::WindowClock>::Get() {
  return {{"type", "string"}, {"enum", {"relative_s", "capture_ns"}}};
}

Json SchemaOf<protocol::Window>::Get() {
  Json start = SchemaOf<double>::Get();
  start["description"] = "Start of the window.";
  Json end = SchemaOf<double>::Get();
  end["description"] = "End of the window.";
  return {{"type", "object"},
          {"properties",
           {{"start", std::move(start)}, {"end", std::move(end)}, {"clock", SchemaOf<protocol::WindowClock>::Get()}}},
          {"additionalProperties", false}};
}

Json SchemaOf<protocol::QuerySpec>::Get() {
  return wire::QuerySchema();
}

Json SchemaOf<protocol::Filter>::Get() {
  Json devices = SchemaOf<std::vector<int32_t>>::Get();
  devices["description"] = "CUDA device ids.";
  Json processes = SchemaOf<std::vector<int64_t>>::Get();
  processes["description"] = "Process ids.";
  Json threads = SchemaOf<std::vector<int64_t>>::Get();
  threads["description"] = "Global thread ids (only skills that select threads accept them).";
  return {{"type", "object"},
          {"properties",
           {{"window", SchemaOf<protocol::Window>::Get()},
            {"devices", std::move(devices)},
            {"processes", std::move(processes)},
            {"threads", std::move(threads)}}},
          {"additionalProperties", false}};
}

void DescribeArgument(const std::string& name, Json& property, const core::Workspace& workspace) {
  if (name == "args") {
    property["description"] = SkillArgsDescription();
    return;
  }
  for (const auto& [known, description] : kDescriptions) {
    if (known != name) continue;
    property["description"] = std::string(description);
    if (name == "skill") {
      Json names = Json::array();
      for (const auto& skill : workspace.Skills()) names.push_back(skill->name());
      property["enum"] = std::move(names);
    }
    return;
  }
  throw std::logic_error("MCP tool argument '" + name + "' has no description (server/mcp/src/tool_schema.cpp)");
}

}  // namespace nsys::mcp
