// `nsys-ai job-report DIR|FILES...`: a job of rank exports, one line per rank. `skill run NAME --job DIR`
// lives in cmd_skill.cpp and shares JobRequestFromArgs.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "job_args.h"
#include "nsys/mpi/mpi_job.h"
#include "nsys/support/human_bytes.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/job.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {

Expected<core::JobRequest> JobRequestFromArgs(const ParsedArgs& args, const std::vector<std::string>& files) {
  core::JobRequest request;
  std::error_code ec;
  std::vector<std::string> paths;  // paths or their file:// URIs (support/path_text.h)
  for (const auto& file : files) paths.push_back(support::PathFromText(file));
  if (paths.size() == 1 && std::filesystem::is_directory(paths[0], ec)) {
    request.directory = paths[0];
  } else {
    request.paths = std::move(paths);
  }
  if (auto threads = args.Value("--threads")) {
    char* end = nullptr;
    const long n = std::strtol(threads->c_str(), &end, 10);
    if (threads->empty() || *end != '\0' || n < 1 || n > 64) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("--threads must be 1 to 64, not '{}'", *threads));
    }
    request.threads = static_cast<int>(n);
  }
  return request;
}

std::vector<OptionSpec> JobOptions() {
  return {{"--threads", 1, "N", "ranks loaded at once (default 2); the budget is the global --memory-budget"},
          {"--mpi", 0, "", "spread the ranks over an MPI job (mpirun -n K nsys-ai ... --mpi): process 0 prints"}};
}

namespace {

// --progress-lines: "nsys-ai-progress 42.0 rank0003 done (4/64)" lines on stderr, for the server that launched this
// process (initializationOptions.runLauncher) to forward as $/progress.
ProgressSink LineProgress() {
  auto mu = std::make_shared<std::mutex>();
  return [mu](double percent, const std::string& message) {
    std::lock_guard lock(*mu);
    std::string text = message;
    for (char& c : text)
      if (c == '\n' || c == '\r') c = ' ';
    std::fprintf(stderr, "%s %.1f %s\n", core::kProgressLinePrefix, percent, text.c_str());
    std::fflush(stderr);
  };
}

protocol::RunSkillResult ReportTable(const protocol::JobReportResult& report) {
  protocol::RunSkillResult table;
  table.columns = {{"rank", ValueType::kString, ""},      {"kernels", ValueType::kInt, ""},
                   {"gpu_time_ns", ValueType::kInt, ""},  {"nccl_kernels", ValueType::kInt, ""},
                   {"nccl_time_ns", ValueType::kInt, ""}, {"step_time_ns", ValueType::kInt, ""},
                   {"steps", ValueType::kInt, ""},        {"error", ValueType::kString, ""}};
  for (const auto& rank : report.ranks) {
    table.rows.push_back({rank.rank, rank.kernels, rank.gpu_time_ns, rank.nccl_kernels, rank.nccl_time_ns,
                          rank.step_time_ns ? protocol::Scalar{*rank.step_time_ns} : protocol::Scalar{}, rank.steps,
                          rank.error ? protocol::Scalar{*rank.error} : protocol::Scalar{}});
  }
  table.notes = report.notes;
  return table;
}

int RunRunReport(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kTableFormats);
  if (!format_value) return UsageError("job-report", format_value.error().message);
  const auto format = ParseOutputFormat(*format_value);
  auto request = JobRequestFromArgs(ctx.args, ctx.args.positionals());
  if (!request) return UsageError("job-report", request.error().message);
  core::Workspace workspace(ctx.config);
  std::optional<core::JobReport> report;
  const bool lines = ctx.args.Has("--progress-lines");
  if (ctx.args.Has("--mpi")) {  // every process its share; process 0 merges and prints, the others print nothing
    auto job =
        mpi::ReportJob(workspace, *request, {}, lines ? LineProgress() : TerminalProgress("this process's ranks"));
    ClearTerminalProgress();
    if (!job) return FailWith(job.error());
    if (!job->value) return kExitOk;
    report = std::move(*job->value);
  } else {
    auto job = workspace.OpenJob(*request);
    if (!job) return FailWith(job.error());
    auto done = workspace.ReportJob(
        job->id, {}, lines ? LineProgress() : TerminalProgress(fmt::format("{} ranks", job->ranks.size())));
    ClearTerminalProgress();
    if (!done) return FailWith(done.error());
    report = std::move(*done);
  }
  const protocol::JobReportResult result = wire::ToJobReportResult(*report);
  if (*format == OutputFormat::kJson) {
    std::printf("%s\n", JsonText(protocol::Json(result)).c_str());
    return kExitOk;
  }
  const protocol::RunSkillResult table = ReportTable(result);
  std::fputs(RenderTable(table, *format).c_str(), stdout);
  std::FILE* notes_out = *format == OutputFormat::kCsv ? stderr : stdout;
  if (notes_out == stdout) std::fputs("\n", stdout);
  for (const auto& note : table.notes) std::fprintf(notes_out, "note: %s\n", note.c_str());
  for (const auto& analysis : result.analyses) {  // the cross-rank analyses, one table each
    if (*format == OutputFormat::kCsv) {
      std::printf("\n");
    } else {
      std::printf(*format == OutputFormat::kMarkdown ? "\n## %s\n\n" : "\n%s\n", analysis.skill.c_str());
    }
    if (!analysis.result.columns.empty()) std::fputs(RenderTable(analysis.result, *format).c_str(), stdout);
    for (const auto& note : analysis.result.notes) std::fprintf(notes_out, "note: %s\n", note.c_str());
  }
  std::fprintf(notes_out, "note: memory: budget %s, peak held by estimate %s, %lld rank loads, %lld dropped.\n",
               support::HumanBytes(result.memory.budget_bytes).c_str(),
               support::HumanBytes(result.memory.peak_accounted_bytes).c_str(),
               static_cast<long long>(result.memory.loads), static_cast<long long>(result.memory.evictions));
  return kExitOk;
}

}  // namespace

Command JobReportCommand() {
  Command command;
  command.name = "job-report";
  command.aliases = {"run-report"};  // its name before "job" named the multi-rank noun
  command.synopsis = "DIR | FILE... [options]";
  command.summary =
      "a job of rank exports (a directory of *.sqlite / *.nsys-rep / *.qdrep, or the files): one line per rank";
  command.details =
      "Ranks are named by their file names and ordered naturally (rank2 before rank10). Ranks load a few at a time\n"
      "and are dropped again under --memory-budget. Per rank: kernels, GPU time (Σ kernel durations), NCCL kernels\n"
      "and time, and the median step (iteration) time when iterations are found. With --mpi under mpirun (or srun),\n"
      "each process loads only its share of the ranks and process 0 merges their partial results: the same report.";
  command.options = JobOptions();
  command.options.push_back(FormatOption(kTableFormats));
  command.options.push_back({"--progress-lines", 0, "",
                             "progress as 'nsys-ai-progress PERCENT MESSAGE' lines on stderr (what a server that "
                             "launched this job reads)"});
  command.min_positionals = 1;
  command.max_positionals = core::kMaxJobRanks;
  command.run = RunRunReport;
  return command;
}

}  // namespace nsys::cli
