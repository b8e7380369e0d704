#pragma once
// Analyze for a job of rank exports: the causes that only show across ranks, from the job skills' typed
// figures (skills/job_partials.h), as findings in the one answer shape (answer.h), ranked by time at stake:
//  - stragglers: the rank the others wait for at the collectives (job_stragglers), the others' waiting time at stake;
//  - kernel imbalance: a rank with more kernel time than the mean (job_kernel_imbalance), the others' idle at stake;
//  - step-time spread: ranks whose median step differs (job_step_times), the faster ranks' idle per step at stake.
// Severity is the share at stake of the ranks' time together (Σ over ranks of each export's span): high from 10%,
// medium from 3%, as Analyze's; a finding below 0.5% is not reported. The core gathers the figures (core owns jobs).
#include <string>
#include <vector>

#include "nsys/agent/analyze.h"
#include "nsys/skills/job_partials.h"

namespace nsys::agent {

struct JobFigures {
  std::vector<std::string> ranks;  // the answering ranks' names, in partial order
  std::string verify_target;       // what `--job` names in verify commands (the job's directory, or its files)
  int64_t ranks_per_node = 0;      // the clock alignment's argument, repeated in verify commands
  engine::Ns total_span_ns = 0;    // Σ over ranks of their exports' spans
  skills::job::Merged<skills::job::StragglerStats> stragglers;  // its table by rank
  skills::job::Merged<skills::job::ImbalanceStats> imbalance;
  skills::job::Merged<skills::job::StepStats> steps;
  std::vector<std::string> notes;  // ranks left out, and why
};

Analysis AnalyzeJob(const JobFigures& figures);

}  // namespace nsys::agent
