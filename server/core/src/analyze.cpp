// Workspace's agent call for `analyze`: the profile and a memoised runner in, agent::Analyze does the rest.
// AnalyzeForEditor adds the profile's source file (nsys/analyze publishes the findings on it).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "nsys/core/workspace.h"

namespace nsys::core {

namespace analyze_features {

Expected<agent::Analysis> Analyze(const Expected<std::shared_ptr<engine::Profile>>& profile,
                                  const agent::SkillRunner& run, const agent::AnalyzeOptions& options,
                                  const agent::FindingSink& on_finding, const CancelToken& cancel,
                                  const ProgressSink& progress) {
  if (!profile) return profile.error();
  // The kernel names tell the GPU's architecture when the export does not name the GPU (agent::Analyze reads them).
  if ((*profile)->info().caps.kernels) {
    if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel, progress); !loaded.ok()) {
      return loaded.error();
    }
  }
  return agent::Analyze(**profile, run, options, on_finding, cancel, progress);
}

// `describe` runs after the analysis, as the handler read it.
Expected<EditorAnalysis> ForEditor(Expected<agent::Analysis> analysis,
                                   const std::function<Expected<OpenedProfile>()>& describe) {
  if (!analysis) return analysis.error();
  auto described = describe();
  return EditorAnalysis{std::move(*analysis),
                        described ? std::optional<std::string>(described->info.source_path) : std::nullopt};
}

}  // namespace analyze_features

Expected<agent::Analysis> Workspace::Analyze(const std::string& profile_id, const agent::AnalyzeOptions& options,
                                             const agent::FindingSink& on_finding, const CancelToken& cancel,
                                             const ProgressSink& progress) {
  return analyze_features::Analyze(Get(profile_id), RunnerFor(profile_id), options, on_finding, cancel, progress);
}

Expected<EditorAnalysis> Workspace::AnalyzeForEditor(const std::string& profile_id,
                                                     const agent::AnalyzeOptions& options,
                                                     const agent::FindingSink& on_finding, const CancelToken& cancel,
                                                     const ProgressSink& progress) {
  return analyze_features::ForEditor(Analyze(profile_id, options, on_finding, cancel, progress),
                                     [&] { return Describe(profile_id); });
}

}  // namespace nsys::core
