#pragma once
// Conversions between the core's C++ types and the protocol's typed params/results, and the one mapping from
// engine error kinds to JSON-RPC error codes. The CLI's --format json uses the same converters, so editors and
// scripts see identical JSON.
#include <memory>
#include <string>

#include "nsys/engine/profile.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
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

protocol::ProfileInfo ToProtocolInfo(const engine::ProfileInfo& info);
// {profileId, path, info} plus info.processCount (processes beyond kListedProcesses are counted, not listed).
protocol::Json ProfileSummaryJson(const std::string& profile_id, const engine::ProfileInfo& info);

protocol::SkillDescription Describe(const skills::Skill& skill);
protocol::ArgDescription DescribeArg(const skills::ArgSpec& spec);
protocol::ValueType ToProtocolType(ValueType type);

protocol::RunSkillResult ToRunSkillResult(skills::Table table);
// Cells of a table row as JSON (NaN and infinities become null: JSON cannot carry them).
protocol::Json RowJson(const std::vector<Value>& row);

}  // namespace nsys::wire
