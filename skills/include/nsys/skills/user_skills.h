#pragma once
// Declarative user skills: one JSON file per skill (`<name>.skill.json`) in a folder, loaded at start and on
// reload, no rebuild. A file holds
//
//   {
//     "name": "longest_kernels",                       snake_case, unique
//     "description": "The N longest kernel launches.", one line
//     "args": [ {"name": "limit", "type": "int", "description": "...", "default": 20, "min": 0} ],   optional;
//                                                       an argument may also say "required", "min"/"max" (numbers)
//                                                       or "choices" (strings), checked by the runner
//     "sql": "SELECT ... LIMIT :limit",                 one read-only statement; may also be an array of lines
//     "requires_tables": ["CUPTI_ACTIVITY_KIND_KERNEL"],   optional: declines, naming the table, when absent
//     "max_rows": 10000,                                optional cap on returned rows (default 10000, at most
//                                                       kMaxUserSkillRows)
//     "notes": ["..."]                                  optional, copied into the result's notes
//   }
//
// Arguments are bound as SQL parameters (":limit"), never spliced into the text. Besides its own arguments the
// SQL may use :window_start_ns and :window_end_ns (the resolved window on the capture clock; the whole profile
// when none was given), :device and :pid (NULL when not given; a filter of several devices or processes is refused
// with kUnsupported when the SQL binds them, since a parameter holds one value). Statements that write, ATTACH or set
// PRAGMAs are refused when the file loads and again by the engine when it runs; the engine also refuses functions
// outside its allow-list (core scalar, aggregate, window, date/time, math, JSON), naming the function.
//
// Limits on one run: the SQL stops after the run's time budget (RunOptions::user_skill_timeout, 5 s by default), and
// its returned rows may take at most kUserSkillResultBytes; both end the run with kLimitExceeded naming the limit.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nsys/skills/skill.h"

namespace nsys::skills {

// The most rows a user skill may ask for with "max_rows" (a file asking for more is refused when it loads).
inline constexpr int64_t kMaxUserSkillRows = 100000;
// The memory the rows of one user skill's result may take (as engine::SqlResult::bytes counts it).
inline constexpr size_t kUserSkillResultBytes = size_t{64} << 20;

struct UserSkillLoad {
  std::vector<std::shared_ptr<const Skill>> skills;
  std::vector<std::string> warnings;  // one per bad file or conflict, naming the file and the problem
};

// Loads every `*.skill.json` in `dirs`, in order (missing folders are skipped silently: the defaults often do not
// exist). When two files define the same name, the later folder wins and a warning says so. Never throws.
UserSkillLoad LoadUserSkills(const std::vector<std::string>& dirs);

// Parses one skill definition; `origin` (usually the file path) is named in errors and in the skill's notes.
Expected<std::shared_ptr<const Skill>> ParseUserSkill(const std::string& json_text, const std::string& origin);

// $XDG_CONFIG_HOME/nsys-ai/skills (or ~/.config/nsys-ai/skills), then ./.nsys-ai/skills in the working directory.
std::vector<std::string> DefaultUserSkillDirs();

// True for skills made by LoadUserSkills/ParseUserSkill (for Registry::RemoveIf on reload).
bool IsUserSkill(const Skill& skill);
// The file a user skill came from; empty for built-ins.
std::string UserSkillOrigin(const Skill& skill);

// The check applied at load time: a single SELECT/WITH statement with no write, ATTACH, PRAGMA or transaction
// keyword outside string literals and comments. Returns an empty string when acceptable, else the reason.
std::string CheckReadOnlySql(const std::string& sql);

}  // namespace nsys::skills
