// A job's report computed by a launched batch task (initializationOptions.runLauncher, e.g. `srun -N 8`): the launcher
// runs `nsys-ai job-report RANKS... --mpi --format json --progress-lines`, whose progress lines come back as progress
// and whose JSON is the result.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/support/child_process.h"
#include "stores.h"

namespace nsys::core {
namespace {

// The binary a launcher runs: the configured one, else this process's own.
std::string LaunchedBinary(const std::string& configured) {
  if (!configured.empty()) return configured;
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string("nsys-ai");
}

// "nsys-ai-progress 42.0 rank0003 done (4/64)" -> (42.0, "rank0003 done (4/64)"); false for any other line.
bool ParseProgressLine(const std::string& line, double& percent, std::string& message) {
  const std::string prefix = std::string(kProgressLinePrefix) + " ";
  if (line.rfind(prefix, 0) != 0) return false;
  char* end = nullptr;
  percent = std::strtod(line.c_str() + prefix.size(), &end);
  if (end == line.c_str() + prefix.size()) return false;
  message = *end == ' ' ? std::string(end + 1) : std::string(end);
  return true;
}

}  // namespace

namespace job_launch_features {

Expected<std::string> Launch(const Expected<std::shared_ptr<JobEntry>>& entry, const std::vector<std::string>& launcher,
                             const std::string& launch_binary, const CancelToken& cancel,
                             const ProgressSink& progress) {
  if (!entry) return entry.error();
  if (launcher.empty() || launcher[0].empty())
    return MakeError(ErrorKind::kInvalidArgument, "the job launcher is empty");
  std::vector<std::string> argv = launcher;
  argv.push_back(LaunchedBinary(launch_binary));
  argv.push_back("job-report");
  for (const JobRank& rank : (*entry)->ranks->ranks()) argv.push_back(rank.path);
  for (const char* flag : {"--mpi", "--format", "json", "--progress-lines", "--memory-budget"}) argv.push_back(flag);
  argv.push_back(std::to_string((*entry)->job.memory_budget_bytes));
  double best = 0;  // the job's processes report apart: progress only moves forward
  auto on_line = [&](const std::string& line) {
    double percent = 0;
    std::string message;
    if (!ParseProgressLine(line, percent, message)) return;
    best = std::max(best, std::clamp(percent, 0.0, 100.0));
    if (progress) progress(best, message);
  };
  auto job = support::RunProcess(argv, on_line, cancel);
  if (!job) return job.error();
  if (job->exit_code != 0) {
    std::string tail = job->error_tail;
    if (tail.size() > 2000) tail = "..." + tail.substr(tail.size() - 2000);
    return MakeError(ErrorKind::kInternal, fmt::format("The job launcher `{}` failed (exit status {}): {}",
                                                       fmt::join(launcher, " "), job->exit_code, tail));
  }
  return std::move(job->out);
}

}  // namespace job_launch_features

Expected<std::string> Workspace::LaunchJobReport(const std::string& job_id, const std::vector<std::string>& launcher,
                                                 const CancelToken& cancel, const ProgressSink& progress) {
  return job_launch_features::Launch(JobEntryOf(job_id), launcher, config().launch_binary, cancel, progress);
}

}  // namespace nsys::core
