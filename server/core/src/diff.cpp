// Workspace::Diff: the agent's diff over two open profiles, each through its own result memo.
#include "nsys/agent/diff.h"

#include "nsys/core/workspace.h"

namespace nsys::core {

Expected<agent::DiffReport> Workspace::Diff(const std::string& base_id, const std::string& new_id,
                                            const agent::DiffOptions& options, const CancelToken& cancel,
                                            const ProgressSink& progress) {
  auto base = Get(base_id);
  if (!base) return base.error();
  auto after = Get(new_id);
  if (!after) return after.error();
  if (progress) progress(0, "comparing " + base_id + " with " + new_id);
  auto report = agent::Diff(**base, RunnerFor(base_id), **after, RunnerFor(new_id), options, cancel);
  if (progress) progress(100, "compared");
  return report;
}

}  // namespace nsys::core
