#pragma once
// The C++ API of nsys-ai: what the LSP layer, the CLI and (later) MCP and the agent call. It knows no JSON-RPC;
// it is thread-safe, and long calls take a CancelToken and a ProgressSink.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "nsys/engine/cancel.h"
#include "nsys/engine/expected.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"

namespace nsys::core {

struct WorkspaceConfig {
  engine::OpenOptions open;             // cache on/off, cache dir, loader threads
  std::vector<std::string> skill_dirs;  // user skill folders, loaded after the default ones
  bool default_skill_dirs = true;  // also ~/.config/nsys-ai/skills and ./.nsys-ai/skills (skills::DefaultUserSkillDirs)
};

struct OpenedProfile {
  std::string id;  // "p1", "p2", ...: stable for the session
  std::shared_ptr<engine::Profile> profile;
};

class Workspace {
 public:
  explicit Workspace(WorkspaceConfig config);

  Expected<OpenedProfile> Open(const std::string& path, const ProgressSink& progress = {},
                               const CancelToken& cancel = {});
  // The same with per-call options (e.g. an editor asking for one profile without the cache).
  Expected<OpenedProfile> Open(const std::string& path, const engine::OpenOptions& options,
                               const ProgressSink& progress = {}, const CancelToken& cancel = {});
  Status Close(const std::string& id);
  Expected<std::shared_ptr<engine::Profile>> Get(const std::string& id) const;
  std::vector<OpenedProfile> List() const;

  // Skills: built-ins plus user skills. ReloadSkills re-reads the user folders and returns warnings (bad files).
  std::vector<std::shared_ptr<const skills::Skill>> Skills() const;
  std::vector<std::string> ReloadSkills();
  // Adds user skill folders (those not already known) and reloads; returns the reload's warnings.
  std::vector<std::string> AddSkillDirs(const std::vector<std::string>& dirs);
  std::shared_ptr<const skills::Skill> FindSkill(const std::string& name) const;
  Expected<skills::Table> RunSkill(const std::string& profile_id, const std::string& skill, const skills::Args& args,
                                   const CancelToken& cancel = {}, const ProgressSink& progress = {});

  // A copy: skill folders can change (AddSkillDirs) while other threads read the configuration.
  WorkspaceConfig config() const {
    std::lock_guard lock(mu_);
    return config_;
  }

 private:
  WorkspaceConfig config_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<engine::Profile>> profiles_;
  int next_id_ = 1;
  skills::Registry registry_;
};

}  // namespace nsys::core
