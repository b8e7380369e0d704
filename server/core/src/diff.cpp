// Workspace::Diff: the agent's diff over two open profiles, each through its own result memo.
#include "nsys/agent/diff.h"

#include <fmt/format.h>

#include <string>

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
  // The diff's rank tests read each kernel's per-call durations from the kernel tables.
  for (auto* profile : {&*base, &*after}) {
    if (!(*profile)->info().caps.kernels) continue;
    if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel); !loaded.ok()) return loaded.error();
  }
  auto report = agent::Diff(**base, RunnerFor(base_id), **after, RunnerFor(new_id), options, cancel);
  if (!report) return report;
  // The mapping coverage of both: whether a refinement of the NVTX annotation converged.
  if ((*base)->info().caps.kernels && (*after)->info().caps.kernels) {
    if (progress) progress(90, "mapping coverage");
    auto base_coverage = MappingCoverage(base_id, cancel);
    auto new_coverage = MappingCoverage(new_id, cancel);
    if (base_coverage && new_coverage) {
      report->base_coverage = *base_coverage;
      report->new_coverage = *new_coverage;
      report->markdown += fmt::format(
          "\n**NVTX mapping coverage** (kernel time launched inside an innermost range whose calls each launch one "
          "kernel): {:.1f}% → {:.1f}% ({:+.1f} points).\n",
          100.0 * base_coverage->share, 100.0 * new_coverage->share,
          100.0 * (new_coverage->share - base_coverage->share));
    } else {
      const Error& e = base_coverage ? new_coverage.error() : base_coverage.error();
      if (e.kind == ErrorKind::kCancelled) return e;
      report->notes.push_back("The NVTX mapping coverage could not be computed: " + e.message);
    }
  }
  if (progress) progress(100, "compared");
  return report;
}

}  // namespace nsys::core
