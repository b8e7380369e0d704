// Workspace::ExportJobTrace: a job's ranks in one Perfetto trace on the job's clock (core/traces.h JobTraceRequest).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/core/traces.h"
#include "nsys/core/workspace.h"
#include "nsys/support/sha256.h"
#include "nsys/trace/trace_output.h"
#include "stores.h"
#include "trace_features.h"

namespace nsys::core {
namespace {

// Step 1's result: per rank of the job, its clock offset (or why it has none: the error its partial met).
std::vector<JobTraceRank> RankClocks(const std::vector<JobRank>& ranks, const std::vector<size_t>& index,
                                     const skills::job::ClockAlignment& clocks,
                                     const std::map<size_t, std::string>& errors) {
  std::vector<JobTraceRank> out(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    out[i].rank = ranks[i].rank;
    const auto error = errors.find(i);
    out[i].error = error != errors.end() ? error->second : "the rank could not be read";
  }
  for (size_t k = 0; k < index.size(); ++k) {
    JobTraceRank& r = out[index[k]];
    r.error.clear();
    r.offset_ns = clocks.rank_offset_ns[k];
    r.uncertainty_ns = clocks.rank_uncertainty_ns[k];
    for (const auto& node : clocks.nodes) {
      if (node.node == clocks.rank_node[k]) r.method = node.method;
    }
  }
  return out;
}

void AddCounts(TraceStats& total, const TraceStats& part, engine::Ns offset, bool& have_span) {
  total.packets += part.packets;
  total.tracks += part.tracks;
  total.kernels += part.kernels;
  total.memcpys += part.memcpys;
  total.memsets += part.memsets;
  total.graphs += part.graphs;
  total.api_calls += part.api_calls;
  total.nvtx_ranges += part.nvtx_ranges;
  total.nvtx_marks += part.nvtx_marks;
  total.counter_values += part.counter_values;
  total.flows += part.flows;
  total.interned_names += part.interned_names;
  total.clamped_slices += part.clamped_slices;
  total.clamped_gpu_slices += part.clamped_gpu_slices;
  total.skipped_short += part.skipped_short;
  total.seconds += part.seconds;
  total.cpu_seconds += part.cpu_seconds;
  if (part.slices() + part.nvtx_marks == 0) return;
  const engine::Ns first = part.first_ns + offset, last = part.last_ns + offset;
  total.first_ns = have_span ? std::min(total.first_ns, first) : first;
  total.last_ns = have_span ? std::max(total.last_ns, last) : last;
  have_span = true;
}

}  // namespace

namespace job_trace_features {

// The three named steps share the checked output and the running totals; split, they would pass them through.
// Long: three steps (the clocks, the output, each rank's part) over one output and one set of totals.
Expected<JobTraceExport> Export(const Expected<std::shared_ptr<JobEntry>>& entry, const JobTraceRequest& request,
                                const trace_features::CacheOf& cache, const trace::OutputPolicy& base,
                                const CancelToken& cancel, const ProgressSink& progress) {
  if (!entry) return entry.error();
  if (request.ranks_per_node < 0 || request.min_duration_ns < 0) {
    return MakeError(ErrorKind::kInvalidArgument, "ranks_per_node and min_duration_ns must not be negative");
  }
  RankSet& ranks = *(*entry)->ranks;
  auto half = [&](double base) -> ProgressSink {
    if (!progress) return {};
    return [&progress, base](double pct, const std::string& msg) { progress(base + pct / 2, msg); };
  };

  // Step 1: the job's clock, from the ranks' partials (the same alignment the job skills report).
  auto partials = PartialsOf(**entry, "", cancel, half(0));
  if (!partials) return partials.error();
  const auto nodes = NodesOfRanks((*partials)->index, request.ranks_per_node);
  const skills::job::ClockAlignment clocks = skills::job::AlignClocks((*partials)->ranks, nodes);
  JobTraceExport out;
  out.ranks = RankClocks(ranks.ranks(), (*partials)->index, clocks, (*partials)->errors);
  out.notes = clocks.notes;

  // Step 2: the output, checked as a profile's trace is (the job's files are among the protected ones).
  auto output = trace_features::TargetFor(request.output, fmt::format("job-{}", request.job_id), cache);
  if (!output) return output.error();
  out.path = output->path;
  trace::OutputPolicy policy = base;
  policy.force = request.force;
  auto target = trace::CheckTraceOutput(out.path, policy);
  if (!target) return target.error();
  auto file = trace::TraceFileWriter::Create(std::move(*target), policy);
  if (!file) return file.error();

  // Step 3: each rank's part, in rank order, on the job's clock.
  trace::TraceOptions options;
  options.min_duration_ns = request.min_duration_ns;
  options.gpu = request.gpu;
  options.cpu = request.cpu;
  options.flows = request.flows;
  options.counters = request.counters;
  support::Sha256 sha;
  bool have_span = false;
  const ProgressSink write_progress = half(50);
  for (size_t i = 0; i < ranks.ranks().size(); ++i) {
    JobTraceRank& rank = out.ranks[i];
    if (!rank.error.empty()) continue;
    options.part =
        trace::TracePart{static_cast<uint32_t>(i + 1), static_cast<uint64_t>(i + 1) << 32, -rank.offset_ns, rank.rank};
    const std::vector<size_t> only{i};
    int64_t rank_bytes = 0;
    auto statuses = ranks.ForEachRank(trace::NeedsFor(options),
                                      [&](size_t, engine::Profile& profile) -> Status {
                                        auto sink = [&](std::string_view chunk) {
                                          sha.Update(chunk);
                                          rank_bytes += static_cast<int64_t>(chunk.size());
                                          return file->Write(chunk);
                                        };
                                        auto stats = trace::ExportTrace(profile, options, sink, cancel);
                                        if (!stats) return stats.error();
                                        out.stats.bytes += stats->bytes;
                                        rank.slices = stats->slices();
                                        AddCounts(out.stats, *stats, -rank.offset_ns, have_span);
                                        return {};
                                      },
                                      &only, cancel, {});
    if (!statuses[i]) {
      // Cancelled, or failed after part of the rank was written (a full disk): the file would not be a whole trace,
      // so the export fails (the writer removes its temporary file). A rank that could not be loaded is left out.
      if (statuses[i].error().kind == ErrorKind::kCancelled || rank_bytes > 0) return statuses[i].error();
      rank.error = statuses[i].error().message;
    }
    if (write_progress) {
      write_progress(100.0 * static_cast<double>(i + 1) / static_cast<double>(ranks.ranks().size()),
                     fmt::format("{} written ({}/{})", rank.rank, i + 1, ranks.ranks().size()));
    }
  }
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The job's trace export was cancelled.");
  if (Status committed = file->Commit(); !committed.ok()) return committed.error();
  out.stats.sha256 = sha.FinishHex();
  out.stats.window = "whole job";
  trace_features::Written(*output);
  return out;
}

}  // namespace job_trace_features

Expected<JobTraceExport> Workspace::ExportJobTrace(const JobTraceRequest& request, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  const auto cache = [this]() -> trace::TraceCache& { return TraceCache(); };
  return job_trace_features::Export(JobEntryOf(request.job_id), request, cache, TraceOutputPolicy(), cancel, progress);
}

}  // namespace nsys::core
