// The job skills (job_partials.h's JobSkills): each a merge of the ranks' partials into one Table.
#include <algorithm>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common_rows.h"
#include "job_common.h"

namespace nsys::skills::job {
namespace {

std::string StringArg(const Args& args, const std::string& name, const std::string& fallback) {
  auto it = args.find(name);
  if (it == args.end()) return fallback;
  if (const auto* s = std::get_if<std::string>(&it->second)) return *s;
  return fallback;
}
int64_t IntArg(const Args& args, const std::string& name, int64_t fallback) {
  auto it = args.find(name);
  if (it == args.end()) return fallback;
  if (const auto* i = std::get_if<int64_t>(&it->second)) return *i;
  return fallback;
}

std::vector<JobSkill> Build() {
  using Ranks = std::vector<RankPartial>;
  using Nodes = std::vector<int32_t>;
  std::vector<JobSkill> list;
  list.push_back({"job_clock_alignment",
                  "Each node's clock offset against rank 0's node and its uncertainty: session start times, refined "
                  "by the ends of matched NCCL collectives.",
                  {},
                  [](const Ranks& r, const Nodes& n, const Args&) { return MergeClockTable(r, n).table; }});
  list.push_back({"job_step_times",
                  "Per-rank step (training iteration) time and the spread across ranks.",
                  {},
                  [](const Ranks& r, const Nodes&, const Args&) { return MergeStepTimes(r).table; }});
  list.push_back(
      {"job_stragglers",
       "The rank the others wait for at each collective (the last to start, on the aligned clock) and the time lost.",
       {{"by",
         ValueType::kString,
         "rank: one row per rank; instance: the collective instances that cost most",
         Value(std::string("rank")),
         false,
         {"rank", "instance"}},
        LimitArg(50, "by=instance: at most this many instances, most time lost first (0 = all)")},
       [](const Ranks& r, const Nodes& n, const Args& a) {
         return StragglerTable(r, n, StringArg(a, "by", "rank") == "rank", IntArg(a, "limit", 50));
       }});
  list.push_back(
      {"job_nccl",
       "NCCL/RCCL time per rank and per collective, its exposed part split into skew (waiting for the last rank) and "
       "transfer, and bandwidth where sizes are known.",
       {},
       [](const Ranks& r, const Nodes& n, const Args&) { return MergeNccl(r, AlignClocks(r, n)).table; }});
  list.push_back({"job_overlap",
                  "Compute/communication overlap per rank (HTA's convention).",
                  {},
                  [](const Ranks& r, const Nodes&, const Args&) { return MergeOverlap(r).table; }});
  list.push_back({"job_kernel_imbalance",
                  "Kernel time per rank and its imbalance across ranks (max vs mean).",
                  {},
                  [](const Ranks& r, const Nodes&, const Args&) { return MergeKernelImbalance(r).table; }});
  list.push_back({"job_step_heatmap",
                  "Ranks x steps: every step's duration per rank, against that step's median (the heat map's data).",
                  {},
                  [](const Ranks& r, const Nodes&, const Args&) { return MergeStepHeatMap(r).table; }});
  return list;
}

}  // namespace

const std::vector<JobSkill>& JobSkills() {
  static const std::vector<JobSkill> list = Build();
  return list;
}

const JobSkill* FindJobSkill(const std::string& name) {
  // "run_stragglers" and the rest: the names from before "job" named the multi-rank noun, accepted as aliases.
  const std::string_view old_prefix = "run_";
  const std::string wanted = name.starts_with(old_prefix) ? "job_" + name.substr(old_prefix.size()) : name;
  for (const JobSkill& s : JobSkills()) {
    if (s.name == wanted) return &s;
  }
  return nullptr;
}

}  // namespace nsys::skills::job
