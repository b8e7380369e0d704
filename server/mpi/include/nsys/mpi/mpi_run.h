#pragma once
// Runs spread over an MPI job, for runs too big for one machine: `mpirun -n K nsys-ai run-report DIR --mpi`. Every
// process lists the run's files the same way, takes its share (a contiguous block of ranks in rank order, ShareOf),
// loads only those and computes their halves (core::Workspace::ReportRunRanks / RunPartialsOfRanks); process 0
// gathers the halves as bytes (MPI_Gatherv; partials in skills::run::EncodePartial's form), decodes them and merges
// (MergeRunReport / MergeRunSkill), the same merge a single process runs, so the result is the same.
//
// Used only by the CLI. Built with MPI when CMake finds it (option NSYS_AI_MPI); without it every call here fails
// with kUnsupported.
#include <optional>
#include <string>
#include <vector>

#include "nsys/core/run.h"
#include "nsys/core/workspace.h"
#include "nsys/skills/skill.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::mpi {

// Whether this binary was built with MPI.
bool Built();

// The ranks (indices into a run of `n` ranks) process `process` of `processes` loads: a contiguous block, the first
// n % processes processes taking one more. Gathered in process order, the blocks are the run's rank order.
std::vector<size_t> ShareOf(size_t n, int process, int processes);

// What a process of the job gets back: on process 0 the result, elsewhere nothing (the job's answer is printed
// once). An error on any process (a rank file it cannot list, a codec failure) is returned on process 0 as well.
template <typename T>
struct JobResult {
  bool root = false;
  std::optional<T> value;  // on process 0
};

// `nsys-ai run-report --mpi`: opens the run in `workspace` on every process (MPI_Init / MPI_Finalize inside). The
// report's memory figures are summed over the processes (budget: one process's).
Expected<JobResult<core::RunReport>> ReportRun(core::Workspace& workspace, const core::RunRequest& request,
                                               const CancelToken& cancel = {}, const ProgressSink& progress = {});

// `nsys-ai skill run RUN_SKILL --run DIR --mpi`: a run skill (skills::run::RunSkills) with `args` as
// Workspace::RunSkillOnRun's (its own and `marker`, `ranks_per_node`).
Expected<JobResult<skills::Table>> RunSkillOnRun(core::Workspace& workspace, const core::RunRequest& request,
                                                 const std::string& skill, const skills::Args& args,
                                                 const CancelToken& cancel = {}, const ProgressSink& progress = {});

// The byte form of one process's share, exposed for tests (the codec is what MPI moves): rank parts and partials
// with their errors; decoding checks every length against the buffer (kInvalidArgument, never a crash).
std::string EncodeReportParts(const std::vector<core::RankReportPart>& parts, const core::RunMemoryStats& memory);
Expected<std::vector<core::RankReportPart>> DecodeReportParts(std::string_view bytes, core::RunMemoryStats* memory);
std::string EncodePartials(const std::vector<Expected<skills::run::RankPartial>>& parts);
Expected<std::vector<Expected<skills::run::RankPartial>>> DecodePartials(std::string_view bytes);

}  // namespace nsys::mpi
