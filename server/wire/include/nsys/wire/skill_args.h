#pragma once
// Skill arguments from the wire: the wire's filter as the engine's one filter shape, and MCP tool arguments as the
// skill's typed values. The runner checks the values themselves (ranges, choices) once, for every face.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nsys/engine/window.h"
#include "nsys/protocol/methods.h"
#include "nsys/skills/skill.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// The wire's window (absent = the whole profile) as the engine's WindowSpec.
engine::WindowSpec ToWindowSpec(const std::optional<protocol::Window>& window);

// The wire's filter as the engine's FilterSpec, for Workspace::RunSkill: sets of devices, processes and threads, and
// the window. kInvalidArgument naming the member for a process or thread id that cannot be one. Whether the ids
// exist, whether the skill can select threads, and a set also given as a common argument are the runner's checks.
Expected<engine::FilterSpec> ToFilterSpec(const protocol::Filter& filter);

// MCP's run_skill args as the skill's typed values. Agents often send numbers as strings ("5") or integers as 5.0:
// those are converted when the skill (nullptr: unknown, left to the runner's "unknown skill") declares the argument
// with that type; anything else is left to the runner's checks, whose messages name the argument.
Expected<skills::Args> ToolSkillArgs(const std::map<std::string, protocol::Scalar>& args, const skills::Skill* skill);

// A command-line argument (`--arg NAME=VALUE`, `--device N`, ...) as the skill's typed value, added to `args`.
// kInvalidArgument names the skill's arguments when `name` is not one, the allowed values when `text` is not one
// of them, or the type when `text` does not parse.
Status AddArgText(const skills::Skill& skill, const std::string& name, const std::string& text, skills::Args& args);
// The same against a list of argument specs (a job skill's: core::JobSkillArgSpecs).
Status AddArgText(const std::string& skill_name, const std::vector<skills::ArgSpec>& specs, const std::string& name,
                  const std::string& text, skills::Args& args);

}  // namespace nsys::wire
