#pragma once
// Jobs spread over MPI processes, for jobs too big for one machine: `mpirun -n K nsys-ai job-report DIR --mpi`. Every
// process lists the job's files the same way, takes its share (a contiguous block of ranks in rank order, ShareOf),
// loads only those and computes their halves (core::Workspace::ReportJobRanks / JobPartialsOfRanks); process 0
// gathers the halves as bytes (MPI_Gatherv; partials in skills::job::EncodePartial's form), decodes them and merges
// (MergeJobReport / MergeJobSkill), the same merge a single process runs, so the result is the same.
//
// Used only by the CLI. Built with MPI when CMake finds it (option NSYS_AI_MPI); without it every call here fails
// with kUnsupported.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/core/job.h"
#include "nsys/core/workspace.h"
#include "nsys/skills/skill.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::mpi {

// Whether this binary was built with MPI.
bool Built();

// The ranks (indices into a job of `n` ranks) process `process` of `processes` loads: a contiguous block, the first
// n % processes processes taking one more. Gathered in process order, the blocks are the job's rank order.
std::vector<size_t> ShareOf(size_t n, int process, int processes);

// What a process of the job gets back: on process 0 the result, elsewhere nothing (the job's answer is printed
// once). An error on any process (a rank file it cannot list, a codec failure) is returned on process 0 as well.
template <typename T>
struct MpiResult {
  bool root = false;
  std::optional<T> value;  // on process 0
};

// `nsys-ai job-report --mpi`: opens the job in `workspace` on every process (MPI_Init / MPI_Finalize inside). The
// report's memory figures are summed over the processes (budget: one process's).
Expected<MpiResult<core::JobReport>> ReportJob(core::Workspace& workspace, const core::JobRequest& request,
                                               const CancelToken& cancel = {}, const ProgressSink& progress = {});

// `nsys-ai skill run JOB_SKILL --job DIR --mpi`: a job skill (skills::job::JobSkills) with `args` as
// Workspace::RunSkillOnJob's (its own and `marker`, `ranks_per_node`).
Expected<MpiResult<skills::Table>> RunSkillOnJob(core::Workspace& workspace, const core::JobRequest& request,
                                                 const std::string& skill, const skills::Args& args,
                                                 const CancelToken& cancel = {}, const ProgressSink& progress = {});

// The byte form of one process's share, exposed for tests (the codec is what MPI moves): rank parts and partials
// with their errors; decoding checks every length against the buffer (kInvalidArgument, never a crash).
std::string EncodeReportParts(const std::vector<core::RankReportPart>& parts, const core::JobMemoryStats& memory);
Expected<std::vector<core::RankReportPart>> DecodeReportParts(std::string_view bytes, core::JobMemoryStats* memory);
std::string EncodePartials(const std::vector<Expected<skills::job::RankPartial>>& parts);
Expected<std::vector<Expected<skills::job::RankPartial>>> DecodePartials(std::string_view bytes);

}  // namespace nsys::mpi
