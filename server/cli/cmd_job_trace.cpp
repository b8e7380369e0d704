// `nsys-ai job-trace DIR|FILES... [-o FILE]`: every rank of a job in one Perfetto trace, each rank a
// track group, on the job's clock (Workspace::ExportJobTrace; the same result as nsys/exportJobTrace).
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "commands.h"
#include "job_args.h"
#include "nsys/support/human_bytes.h"
#include "nsys/wire/job.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

std::string Offset(const protocol::JobTraceRankInfo& r) {
  const std::string offset = fmt::format("{:+.3f} ms", static_cast<double>(r.offset_ns) / 1e6);
  if (!r.uncertainty_ns) return offset;
  return fmt::format("{} ± {:.1f} µs", offset, static_cast<double>(*r.uncertainty_ns) / 1e3);
}

int RunRunTrace(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kTextOrJson);
  if (!format_value) return UsageError("job-trace", format_value.error().message);
  const std::string& format = *format_value;
  auto request = JobRequestFromArgs(ctx.args, ctx.args.positionals());
  if (!request) return UsageError("job-trace", request.error().message);
  protocol::ExportJobTraceParams params;
  params.output = ctx.args.Value("--output");
  if (!params.output) return UsageError("job-trace", "--output FILE is required");
  if (auto n = ctx.args.Value("--ranks-per-node")) {
    char* end = nullptr;
    const long long v = std::strtoll(n->c_str(), &end, 10);
    if (n->empty() || *end != '\0' || v < 0 || v > static_cast<long long>(core::kMaxJobRanks)) {
      return UsageError("job-trace", fmt::format("--ranks-per-node must be a whole number from 0, not '{}'", *n));
    }
    params.ranks_per_node = v;
  }
  core::Workspace workspace(ctx.config);
  auto job = workspace.OpenJob(*request);
  if (!job) return FailWith(job.error());
  params.job_id = job->id;
  auto trace = workspace.ExportJobTrace(wire::ToJobTraceRequest(params), {},
                                        TerminalProgress(fmt::format("{} ranks", job->ranks.size())));
  ClearTerminalProgress();
  if (!trace) return FailWith(trace.error());
  const protocol::ExportJobTraceResult result = wire::ToExportJobTraceResult(*trace);
  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(result)).c_str());
    return kExitOk;
  }
  std::printf("wrote %s: %s, %lld tracks, %lld kernels, %lld CUDA API calls, %lld NVTX ranges, %lld flows\n",
              result.path.c_str(), support::HumanBytes(result.bytes).c_str(), static_cast<long long>(result.tracks),
              static_cast<long long>(result.slices.kernels), static_cast<long long>(result.slices.cuda_api),
              static_cast<long long>(result.slices.nvtx_ranges), static_cast<long long>(result.flows));
  for (const auto& r : result.ranks) {
    if (r.error) {
      std::printf("  %s: left out: %s\n", r.rank.c_str(), r.error->c_str());
    } else {
      std::printf("  %s: clock %s (%s), %lld slices\n", r.rank.c_str(), Offset(r).c_str(), r.method.c_str(),
                  static_cast<long long>(r.slices));
    }
  }
  for (const auto& note : result.notes) std::printf("note: %s\n", note.c_str());
  std::printf("Open it at https://ui.perfetto.dev (Open trace file): one track group per rank.\n");
  return kExitOk;
}

}  // namespace

Command JobTraceCommand() {
  Command command;
  command.name = "job-trace";
  command.aliases = {"run-trace"};  // its name before "job" named the multi-rank noun
  command.synopsis = "DIR | FILE... -o FILE [options]";
  command.summary = "every rank of a job in one Perfetto trace, a track group per rank, on the job's aligned clock";
  command.details =
      "The ranks' clocks are aligned as job_clock_alignment reports (session start times, refined by the ends of\n"
      "matched NCCL collectives; rank 0's node is the reference): each rank's times are moved by its node's offset.\n"
      "Ranks are loaded one at a time under --memory-budget; a rank that cannot be read is left out and named.";
  command.options = JobOptions();
  command.options.erase(command.options.begin() + 1);  // --mpi: the trace is written by one process
  command.options.push_back({"--output", 1, "FILE", "the trace file to write (required)", false, "-o"});
  command.options.push_back(
      {"--ranks-per-node", 1, "N", "consecutive ranks that share a node's clock (default 0: each rank its own)"});
  command.options.push_back(FormatOption(kTextOrJson, "the nsys/exportJobTrace result"));
  command.min_positionals = 1;
  command.max_positionals = core::kMaxJobRanks;
  command.run = RunRunTrace;
  return command;
}

}  // namespace nsys::cli
