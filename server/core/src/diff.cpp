// Workspace::Diff: the agent's diff over two open profiles, each through its own result memo.
#include "nsys/agent/diff.h"

#include <fmt/format.h>

#include <functional>
#include <memory>
#include <string>

#include "nsys/core/workspace.h"

namespace nsys::core {

namespace diff_features {

// What a diff needs of each side: the profile, its memoised runner and its mapping coverage.
struct DiffSide {
  Expected<std::shared_ptr<engine::Profile>> profile;
  agent::SkillRunner run;
  std::function<Expected<skills::NvtxCoverage>()> coverage;
};

// The mapping coverage of both: whether a refinement of the NVTX annotation converged.
Status AddCoverage(agent::DiffReport& report, const DiffSide& base, const DiffSide& after) {
  auto base_coverage = base.coverage();
  auto new_coverage = after.coverage();
  if (base_coverage && new_coverage) {
    report.base_coverage = *base_coverage;
    report.new_coverage = *new_coverage;
    report.markdown += fmt::format(
        "\n**NVTX mapping coverage** (kernel time launched inside an innermost range whose calls each launch one "
        "kernel): {:.1f}% → {:.1f}% ({:+.1f} points).\n",
        100.0 * base_coverage->share, 100.0 * new_coverage->share,
        100.0 * (new_coverage->share - base_coverage->share));
    return {};
  }
  const Error& e = base_coverage ? new_coverage.error() : base_coverage.error();
  if (e.kind == ErrorKind::kCancelled) return e;
  report.notes.push_back("The NVTX mapping coverage could not be computed: " + e.message);
  return {};
}

Expected<agent::DiffReport> Compare(const DiffSide& base, const DiffSide& after, const std::string& what,
                                    const agent::DiffOptions& options, const CancelToken& cancel,
                                    const ProgressSink& progress) {
  if (!base.profile) return base.profile.error();
  if (!after.profile) return after.profile.error();
  if (progress) progress(0, "comparing " + what);
  // The diff's rank tests read each kernel's per-call durations from the kernel tables.
  for (const auto* profile : {&*base.profile, &*after.profile}) {
    if (!(*profile)->info().caps.kernels) continue;
    if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel); !loaded.ok()) return loaded.error();
  }
  auto report = agent::Diff(**base.profile, base.run, **after.profile, after.run, options, cancel);
  if (!report) return report;
  if ((*base.profile)->info().caps.kernels && (*after.profile)->info().caps.kernels) {
    if (progress) progress(90, "mapping coverage");
    if (Status added = AddCoverage(*report, base, after); !added.ok()) return added.error();
  }
  if (progress) progress(100, "compared");
  return report;
}

}  // namespace diff_features

Expected<agent::DiffReport> Workspace::Diff(const std::string& base_id, const std::string& new_id,
                                            const agent::DiffOptions& options, const CancelToken& cancel,
                                            const ProgressSink& progress) {
  diff_features::DiffSide base{Get(base_id), RunnerFor(base_id), [&] { return MappingCoverage(base_id, cancel); }};
  diff_features::DiffSide after{Get(new_id), RunnerFor(new_id), [&] { return MappingCoverage(new_id, cancel); }};
  return diff_features::Compare(base, after, base_id + " with " + new_id, options, cancel, progress);
}

}  // namespace nsys::core
