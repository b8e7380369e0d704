#pragma once
// How the agent runs skills: through the Workspace's result memo (core binds it), so an agent's calls are answered
// from the same cache as a client's and cost nothing the second time. The agent never opens profiles itself.
#include <functional>
#include <string>

#include "nsys/engine/window.h"
#include "nsys/skills/skill.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::agent {

using SkillRunner = std::function<Expected<skills::Table>(const std::string& skill, const skills::Args& args,
                                                          const engine::FilterSpec& filter, const CancelToken& cancel)>;

}  // namespace nsys::agent
