// Workspace::AnalyzeJob: the job skills' figures gathered for agent::AnalyzeJob (agent/job_analyze.h).
#include "nsys/agent/job_analyze.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>

#include "nsys/core/workspace.h"
#include "stores.h"

namespace nsys::core {

namespace job_analyze_features {

Expected<agent::Analysis> AnalyzeJob(const Expected<std::shared_ptr<JobEntry>>& entry, const std::string& job_id,
                                     int64_t ranks_per_node, const CancelToken& cancel, const ProgressSink& progress) {
  if (ranks_per_node < 0) return MakeError(ErrorKind::kInvalidArgument, "ranks_per_node must not be negative");
  if (!entry) return entry.error();
  auto partials = PartialsOf(**entry, "", cancel, progress);
  if (!partials) return partials.error();
  const auto& ranks = (*partials)->ranks;
  const auto nodes = NodesOfRanks((*partials)->index, ranks_per_node);

  agent::JobFigures figures;
  for (const auto& rank : ranks) {
    figures.ranks.push_back(rank.label);
    figures.total_span_ns += std::max<engine::Ns>(0, rank.last_ns - rank.first_ns);
  }
  const auto& all = (*entry)->job.ranks;
  figures.verify_target = all.empty() ? job_id : std::filesystem::path(all.front().path).parent_path().string();
  figures.ranks_per_node = ranks_per_node;
  figures.notes = (*partials)->notes;
  figures.stragglers = skills::job::MergeStragglers(ranks, skills::job::AlignClocks(ranks, nodes));
  const skills::job::JobSkill* stragglers = skills::job::FindJobSkill("job_stragglers");
  auto by_rank =
      CheckJobSkillArgs(*stragglers, {{"by", Value(std::string("rank"))}, {"ranks_per_node", Value(ranks_per_node)}});
  if (!by_rank) return by_rank.error();
  figures.stragglers.table = stragglers->merge(ranks, nodes, *by_rank);
  figures.imbalance = skills::job::MergeKernelImbalance(ranks);
  figures.steps = skills::job::MergeStepTimes(ranks);
  return agent::AnalyzeJob(figures);
}

}  // namespace job_analyze_features

Expected<agent::Analysis> Workspace::AnalyzeJob(const std::string& job_id, int64_t ranks_per_node,
                                                const CancelToken& cancel, const ProgressSink& progress) {
  return job_analyze_features::AnalyzeJob(JobEntryOf(job_id), job_id, ranks_per_node, cancel, progress);
}

}  // namespace nsys::core
