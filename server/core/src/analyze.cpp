// Workspace's agent call for `analyze`: the profile and a memoised runner in, agent::Analyze does the rest.
#include "nsys/core/workspace.h"

namespace nsys::core {

Expected<agent::Analysis> Workspace::Analyze(const std::string& profile_id, const agent::AnalyzeOptions& options,
                                             const agent::FindingSink& on_finding, const CancelToken& cancel,
                                             const ProgressSink& progress) {
  auto profile = Get(profile_id);
  if (!profile) return profile.error();
  return agent::Analyze(**profile, RunnerFor(profile_id), options, on_finding, cancel, progress);
}

}  // namespace nsys::core
