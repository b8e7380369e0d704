// Workspace::ExplainKernel: the profile's kernel (and runtime) tables loaded, then agent::ExplainKernel with the
// profile's memoised skill runner.
#include "nsys/agent/explain.h"

#include "nsys/core/workspace.h"

namespace nsys::core {

Expected<agent::KernelExplanation> Workspace::ExplainKernel(const std::string& profile_id, const std::string& kernel,
                                                            const CancelToken& cancel, const ProgressSink& progress) {
  auto profile = Get(profile_id);
  if (!profile) return profile.error();
  // kKernels resolves each execution's launch call; a no-op once loaded, which is when hovers come.
  if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  return agent::ExplainKernel(**profile, RunnerFor(profile_id), kernel, cancel, (*profile)->info().source_path);
}

}  // namespace nsys::core
