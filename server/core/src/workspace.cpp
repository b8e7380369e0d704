#include "nsys/core/workspace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "nsys/core/log.h"
#include "nsys/skills/user_skills.h"

namespace nsys::core {
namespace {

// "p12" → 12, for listing profiles in the order they were opened.
int IdNumber(const std::string& id) {
  return id.size() > 1 ? std::atoi(id.c_str() + 1) : 0;
}

std::string JoinSkillNames(const skills::Registry& registry) {
  std::string names;
  for (const auto& skill : registry.List()) {
    if (!names.empty()) names += ", ";
    names += skill->name();
  }
  return names;
}

// User skills from folders, added to `registry` (which holds the built-ins). A user skill may not take a built-in's
// name: the built-ins are the ones checked against nsys, so shadowing one by accident would be a silent surprise.
std::vector<std::string> LoadUserSkillsInto(skills::Registry& registry, const std::vector<std::string>& dirs) {
  auto load = skills::LoadUserSkills(dirs);
  for (auto& skill : load.skills) {
    if (auto existing = registry.Find(skill->name()); existing && !skills::IsUserSkill(*existing)) {
      load.warnings.push_back(fmt::format("user skill '{}' in {} has the name of a built-in skill; it was not loaded",
                                          skill->name(), skills::UserSkillOrigin(*skill)));
      continue;
    }
    registry.Add(std::move(skill));
  }
  return load.warnings;
}

}  // namespace

Workspace::Workspace(WorkspaceConfig config) : config_(std::move(config)) {
  for (const auto& warning : ReloadSkills()) LogWarn(warning);
}

Expected<OpenedProfile> Workspace::Open(const std::string& path, const ProgressSink& progress,
                                        const CancelToken& cancel) {
  return Open(path, config().open, progress, cancel);
}

Expected<OpenedProfile> Workspace::Open(const std::string& path, const engine::OpenOptions& options,
                                        const ProgressSink& progress, const CancelToken& cancel) {
  if (path.empty()) return MakeError(ErrorKind::kInvalidArgument, "no profile path was given");
  auto opened = engine::Profile::Open(path, options, progress, cancel);
  if (!opened) return opened.error();
  // The load is done outside the lock: several profiles can load at once.
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, fmt::format("opening {} was cancelled", path));
  std::lock_guard lock(mu_);
  OpenedProfile result{fmt::format("p{}", next_id_++), std::move(opened.value())};
  profiles_[result.id] = result.profile;
  LogInfo(fmt::format("opened {} as {}", path, result.id));
  return result;
}

Status Workspace::Close(const std::string& id) {
  std::lock_guard lock(mu_);
  if (profiles_.erase(id) == 0) return MakeError(ErrorKind::kNotFound, fmt::format("no open profile has id '{}'", id));
  LogInfo(fmt::format("closed {}", id));
  return {};
}

Expected<std::shared_ptr<engine::Profile>> Workspace::Get(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = profiles_.find(id);
  if (it == profiles_.end()) {
    std::vector<std::string> open;
    for (const auto& [key, _] : profiles_) open.push_back(key);
    std::sort(open.begin(), open.end(), [](const auto& a, const auto& b) { return IdNumber(a) < IdNumber(b); });
    return MakeError(ErrorKind::kNotFound,
                     open.empty() ? fmt::format("no open profile has id '{}' (no profile is open)", id)
                                  : fmt::format("no open profile has id '{}' (open: {})", id, fmt::join(open, ", ")));
  }
  return it->second;
}

std::vector<OpenedProfile> Workspace::List() const {
  std::vector<OpenedProfile> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, profile] : profiles_) result.push_back({id, profile});
  }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return IdNumber(a.id) < IdNumber(b.id); });
  return result;
}

std::vector<std::shared_ptr<const skills::Skill>> Workspace::Skills() const {
  std::lock_guard lock(mu_);
  return registry_.List();
}

std::shared_ptr<const skills::Skill> Workspace::FindSkill(const std::string& name) const {
  std::lock_guard lock(mu_);
  return registry_.Find(name);
}

std::vector<std::string> Workspace::ReloadSkills() {
  std::vector<std::string> dirs;
  {
    std::lock_guard lock(mu_);
    if (config_.default_skill_dirs) dirs = skills::DefaultUserSkillDirs();
    for (const auto& dir : config_.skill_dirs) {
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    }
  }
  // Built outside the lock (reading user folders touches the disk), then swapped in whole, so a reader never
  // sees a half-loaded registry.
  skills::Registry fresh;
  skills::RegisterBuiltins(fresh);
  std::vector<std::string> warnings = LoadUserSkillsInto(fresh, dirs);
  std::lock_guard lock(mu_);
  registry_ = std::move(fresh);
  return warnings;
}

std::vector<std::string> Workspace::AddSkillDirs(const std::vector<std::string>& dirs) {
  {
    std::lock_guard lock(mu_);
    for (const auto& dir : dirs) {
      if (std::find(config_.skill_dirs.begin(), config_.skill_dirs.end(), dir) == config_.skill_dirs.end()) {
        config_.skill_dirs.push_back(dir);
      }
    }
  }
  return ReloadSkills();
}

Expected<skills::Table> Workspace::RunSkill(const std::string& profile_id, const std::string& skill_name,
                                            const skills::Args& args, const CancelToken& cancel,
                                            const ProgressSink& progress) {
  auto profile = Get(profile_id);
  if (!profile) return profile.error();
  std::shared_ptr<const skills::Skill> skill;
  {
    std::lock_guard lock(mu_);
    skill = registry_.Find(skill_name);
    if (!skill) {
      return MakeError(ErrorKind::kNotFound,
                       fmt::format("unknown skill '{}' (known: {})", skill_name, JoinSkillNames(registry_)));
    }
  }
  // The profile and the skill are held by shared_ptr: closing the profile or reloading skills meanwhile is safe.
  return skills::Run(*skill, **profile, args, cancel, progress);
}

}  // namespace nsys::core
