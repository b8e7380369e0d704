#pragma once
// The set of skills a server or CLI knows: the built-ins, registered explicitly, plus declarative user
// skills loaded from folders (user_skills.h).
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nsys/skills/skill.h"

namespace nsys::skills {

class Registry {
 public:
  // Adds or replaces (by name) a skill.
  void Add(std::shared_ptr<const Skill> skill);
  std::shared_ptr<const Skill> Find(const std::string& name) const;
  // The one "unknown skill" error every front end shows: kNotFound, "unknown skill 'x' (known: a, b, ...)".
  Expected<std::shared_ptr<const Skill>> Get(const std::string& name) const;
  std::vector<std::shared_ptr<const Skill>> List() const;  // sorted by name
  void RemoveIf(const std::function<bool(const Skill&)>& pred);

 private:
  std::vector<std::shared_ptr<const Skill>> skills_;
};

// Registers every built-in skill (skills/builtin/*.cpp).
void RegisterBuiltins(Registry& registry);

// The common arguments every skill accepts, documented once: device (int), pid (int), start and end (double),
// clock ("relative_s": seconds from the profile start, the default; or "capture_ns").
std::vector<ArgSpec> CommonArgs();

// The common arguments followed by the skill's own: everything Run() accepts for this skill.
std::vector<ArgSpec> AllArgs(const Skill& skill);

// Converts command-line text ("5", "0.25", "true", "name") to a value of the argument's type, for front ends that
// receive arguments as strings. Errors (kInvalidArgument) name the argument and the expected type.
Expected<Value> ParseArgText(const ArgSpec& spec, const std::string& text);

// Limits a front end sets for one run.
struct RunOptions {
  // The time budget of any skill's run (not only user skills', despite the name), from when its tables are loaded:
  // past it the skill's token fires and the run answers kLimitExceeded, "Skill 'x' stopped after 5 s (its time
  // budget; see --skill-timeout)." A user skill's SQL stops itself at the same budget with its own message.
  std::chrono::milliseconds user_skill_timeout = kDefaultUserSkillTimeout;
};

// Validates raw arguments (common + the skill's own: unknown names, wrong types, device that does not exist,
// window outside the profile) and runs the skill. Errors are kInvalidArgument with the argument named.
Expected<Table> Run(const Skill& skill, engine::Profile& profile, const Args& raw_args, const CancelToken& cancel = {},
                    const ProgressSink& progress = {}, const RunOptions& options = {});
// The same with a filter in the one filter shape (devices, processes, threads, window) besides the common
// arguments; a set given both ways is kInvalidArgument, and a non-empty thread set for a skill that cannot honour
// it is kUnsupported naming the skill.
Expected<Table> Run(const Skill& skill, engine::Profile& profile, const Args& raw_args,
                    const engine::FilterSpec& filter, const CancelToken& cancel = {}, const ProgressSink& progress = {},
                    const RunOptions& options = {});

// Finds the skill by name (Registry::Get) and runs it.
Expected<Table> RunByName(const Registry& registry, const std::string& skill_name, engine::Profile& profile,
                          const Args& raw_args, const CancelToken& cancel = {}, const ProgressSink& progress = {},
                          const RunOptions& options = {});

}  // namespace nsys::skills
