// Workspace's agent call for `analyze`: the profile and a memoised runner in, agent::Analyze does the rest.
// AnalyzeForEditor adds the profile's source file (nsys/analyze publishes the findings on it).
#include <optional>
#include <string>
#include <utility>

#include "nsys/core/workspace.h"

namespace nsys::core {

Expected<agent::Analysis> Workspace::Analyze(const std::string& profile_id, const agent::AnalyzeOptions& options,
                                             const agent::FindingSink& on_finding, const CancelToken& cancel,
                                             const ProgressSink& progress) {
  auto profile = Get(profile_id);
  if (!profile) return profile.error();
  // The kernel names tell the GPU's architecture when the export does not name the GPU (agent::Analyze reads them).
  if ((*profile)->info().caps.kernels) {
    if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel, progress); !loaded.ok()) {
      return loaded.error();
    }
  }
  return agent::Analyze(**profile, RunnerFor(profile_id), options, on_finding, cancel, progress);
}

Expected<EditorAnalysis> Workspace::AnalyzeForEditor(const std::string& profile_id,
                                                     const agent::AnalyzeOptions& options,
                                                     const agent::FindingSink& on_finding, const CancelToken& cancel,
                                                     const ProgressSink& progress) {
  auto analysis = Analyze(profile_id, options, on_finding, cancel, progress);
  if (!analysis) return analysis.error();
  auto described = Describe(profile_id);  // after the analysis, as the handler read it
  return EditorAnalysis{std::move(*analysis),
                        described ? std::optional<std::string>(described->info.source_path) : std::nullopt};
}

}  // namespace nsys::core
