// Workspace::AnalyzeRun: the run skills' figures gathered for agent::AnalyzeRun (agent/run_analyze.h).
#include "nsys/agent/run_analyze.h"

#include <filesystem>

#include "nsys/core/workspace.h"
#include "stores.h"

namespace nsys::core {

Expected<agent::Analysis> Workspace::AnalyzeRun(const std::string& run_id, int64_t ranks_per_node,
                                                const CancelToken& cancel, const ProgressSink& progress) {
  if (ranks_per_node < 0) return MakeError(ErrorKind::kInvalidArgument, "ranks_per_node must not be negative");
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  auto partials = PartialsOf(**entry, "", cancel, progress);
  if (!partials) return partials.error();
  const auto& ranks = (*partials)->ranks;
  const auto nodes = NodesOfRanks((*partials)->index, ranks_per_node);

  agent::RunFigures figures;
  for (const auto& rank : ranks) {
    figures.ranks.push_back(rank.label);
    figures.total_span_ns += std::max<engine::Ns>(0, rank.last_ns - rank.first_ns);
  }
  const auto& all = (*entry)->run.ranks;
  figures.verify_target = all.empty() ? run_id : std::filesystem::path(all.front().path).parent_path().string();
  figures.ranks_per_node = ranks_per_node;
  figures.notes = (*partials)->notes;
  figures.stragglers = skills::run::MergeStragglers(ranks, skills::run::AlignClocks(ranks, nodes));
  const skills::run::RunSkill* stragglers = skills::run::FindRunSkill("run_stragglers");
  auto by_rank =
      CheckRunSkillArgs(*stragglers, {{"by", Value(std::string("rank"))}, {"ranks_per_node", Value(ranks_per_node)}});
  if (!by_rank) return by_rank.error();
  figures.stragglers.table = stragglers->merge(ranks, nodes, *by_rank);
  figures.imbalance = skills::run::MergeKernelImbalance(ranks);
  figures.steps = skills::run::MergeStepTimes(ranks);
  return agent::AnalyzeRun(figures);
}

}  // namespace nsys::core
