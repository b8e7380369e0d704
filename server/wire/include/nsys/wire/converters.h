#pragma once
// Conversions between the core's C++ types and the protocol's typed params/results, and the one mapping from
// engine error kinds to JSON-RPC error codes. The CLI's --format json uses the same converters, so editors and
// scripts see identical JSON.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/engine/profile.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
#include "nsys/skills/nvtx_coverage.h"
#include "nsys/skills/registry.h"
#include "nsys/skills/skill.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// kInvalidArgument/kNotFound → -32602, kBadInput/kUnsupported/kLimitExceeded → -32803, kCancelled → -32800,
// kInternal → -32603.
int ErrorCodeFor(ErrorKind kind);
protocol::ResponseError ToResponseError(const Error& error);

// How many processes profileInfo lists (it always gives the count as info.processCount).
inline constexpr size_t kListedProcesses = 64;

// Processes beyond kListedProcesses are counted (processCount), not listed. The damaged-row counts are read now
// (they grow as tables load).
protocol::ProfileInfo ToProtocolInfo(const engine::ProfileInfo& info);
// `coverage`: the profile's mapping coverage when known (core::Workspace::KnownMappingCoverage), else null.
protocol::ProfileSummary ToProfileSummary(const std::string& profile_id, const engine::ProfileInfo& info,
                                          const std::optional<skills::NvtxCoverage>& coverage = std::nullopt);
protocol::MappingCoverage ToMappingCoverage(const skills::NvtxCoverage& coverage);
protocol::ProfileSummary ToProfileSummary(const core::OpenedProfile& opened);
// The CLI's form (`info --format json`): the same without the session's handle.
protocol::CliProfileSummary ToCliProfileSummary(const core::OpenedProfile& opened);

protocol::SkillDescription Describe(const skills::Skill& skill);
protocol::ArgDescription DescribeArg(const skills::ArgSpec& spec);

// Where the arguments every skill accepts (device, pid, start, end, clock) go in a skill listing.
enum class CommonArgs {
  kSeparate,  // once, in commonArgs (nsys/listSkills)
  kFolded,    // in each skill's args, ahead of its own (MCP's list_skills: an agent reads one skill at a time)
  kOmitted,   // nowhere (the CLI's `skill list --format json`)
};
protocol::ListSkillsResult ToListSkillsResult(const std::vector<std::shared_ptr<const skills::Skill>>& skills,
                                              CommonArgs common);

protocol::RunSkillResult ToRunSkillResult(skills::Table table);
// Moves the rows of `result` into partial results of at most `chunk` rows each (the first also carries the
// columns) and sets result.streamed_rows; `result` keeps its columns, notes and declined.
std::vector<protocol::RunSkillPartialResult> StreamRows(protocol::RunSkillResult& result, size_t chunk);

}  // namespace nsys::wire
