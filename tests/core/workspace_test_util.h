#pragma once
// Helpers of the core tests that several files use: the workspace's test hooks, a Workspace configuration that reads
// and writes nothing of the user's, and the sum of a skill result's integer column. Shared rather than copied per file
// so that the unity build, which compiles several test files as one translation unit, sees one definition.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "nsys/core/workspace.h"

namespace nsys::core {

// The workspace's test hooks (its private Get, MemoStats, WaitForWarmUp, KeptNvtxTrees and FiguresOf), kept out of
// its public API. RunnerFor and WaitForAiParagraphs are still public because tests/agent/ calls them directly; the
// other tests reach them here, so that they can go private once tests/agent/ does too.
struct WorkspaceTestAccess {
  static std::shared_ptr<engine::Profile> Profile(const Workspace& workspace, const std::string& id) {
    auto profile = workspace.Get(id);
    return profile ? *profile : nullptr;
  }
  static Expected<skills::ResultMemo::Stats> MemoStats(const Workspace& workspace, const std::string& id) {
    return workspace.MemoStats(id);
  }
  static void WaitForWarmUp(Workspace& workspace, const std::string& id) { workspace.WaitForWarmUp(id); }
  // The NVTX trees nsys/nvtxTree keeps for a profile, most recently used first (empty for an unknown id).
  static std::vector<std::shared_ptr<const skills::NvtxTree>> NvtxTrees(const Workspace& workspace,
                                                                        const std::string& id) {
    return workspace.KeptNvtxTrees(id);
  }
  // A profile's range figures (sources.h), computed once per loaded profile.
  static Expected<std::shared_ptr<const RangeFigureTable>> Figures(Workspace& workspace, const std::string& id) {
    return workspace.FiguresOf(id);
  }
  // The agent's skill runner on an open profile (RunSkill through the result memo).
  static agent::SkillRunner RunnerFor(Workspace& workspace, const std::string& id) { return workspace.RunnerFor(id); }
  // Until no AI paragraph is being written, at most `timeout`.
  static bool WaitForAiParagraphs(Workspace& workspace, std::chrono::milliseconds timeout) {
    return workspace.WaitForAiParagraphs(timeout);
  }
};

}  // namespace nsys::core

namespace nsys::testing {

// The loaded profile behind an open id (null when the id is not open), to compare identities or query it with SQL.
inline std::shared_ptr<engine::Profile> LoadedProfile(const core::Workspace& workspace, const std::string& id) {
  return core::WorkspaceTestAccess::Profile(workspace, id);
}
// Hits, misses and size of an open profile's result memo.
inline Expected<skills::ResultMemo::Stats> MemoStats(const core::Workspace& workspace, const std::string& id) {
  return core::WorkspaceTestAccess::MemoStats(workspace, id);
}
// Blocks until the profile's warm-up (WorkspaceConfig::warm_skills) has finished.
inline void WaitForWarmUp(core::Workspace& workspace, const std::string& id) {
  core::WorkspaceTestAccess::WaitForWarmUp(workspace, id);
}

// No user skill folders from $HOME, no cache reads or writes.
inline core::WorkspaceConfig Hermetic() {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  return config;
}

inline int64_t SumColumn(const skills::Table& table, const std::string& column) {
  size_t index = 0;
  while (index < table.columns.size() && table.columns[index].name != column) ++index;
  int64_t sum = 0;
  for (const auto& row : table.rows) sum += std::get<int64_t>(row.at(index));
  return sum;
}

}  // namespace nsys::testing
