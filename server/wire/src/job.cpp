#include "nsys/wire/job.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <variant>

#include "nsys/support/path_text.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/trace.h"

namespace nsys::wire {

Expected<uint64_t> ToMemoryBudget(const protocol::Scalar& value) {
  if (const auto* bytes = std::get_if<int64_t>(&value)) {
    if (*bytes <= 0) return MakeError(ErrorKind::kInvalidArgument, "memoryBudget must be more than 0 bytes");
    return static_cast<uint64_t>(*bytes);
  }
  if (const auto* text = std::get_if<std::string>(&value)) {
    auto parsed = core::ParseByteSize(*text);
    if (!parsed) return MakeError(ErrorKind::kInvalidArgument, "memoryBudget: " + parsed.error().message);
    return parsed;
  }
  return MakeError(ErrorKind::kInvalidArgument, "memoryBudget must be a number of bytes or a size such as \"4G\"");
}

Expected<core::JobRequest> ToJobRequest(const protocol::OpenJobParams& params, uint64_t session_budget) {
  core::JobRequest request;
  if (params.paths) request.paths = *params.paths;
  if (params.directory) request.directory = *params.directory;
  request.memory_budget_bytes = session_budget;
  if (params.memory_budget) {
    auto budget = ToMemoryBudget(*params.memory_budget);
    if (!budget) return budget.error();
    request.memory_budget_bytes = *budget;
  }
  if (params.threads) {
    if (*params.threads < 1 || *params.threads > 64) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("threads must be 1 to 64 (ranks loaded at once), not {}", *params.threads));
    }
    request.threads = static_cast<int>(*params.threads);
  }
  return request;
}

protocol::OpenJobResult ToOpenJobResult(const core::OpenedJob& job) {
  protocol::OpenJobResult result;
  result.job_id = job.id;
  for (const auto& rank : job.ranks)
    result.ranks.push_back({rank.rank, support::PathToText(rank.path), rank.file_size});
  result.memory_budget_bytes = static_cast<int64_t>(job.memory_budget_bytes);
  result.threads = job.threads;
  return result;
}

protocol::JobReportResult ToJobReportResult(const core::JobReport& report) {
  protocol::JobReportResult result;
  result.job_id = report.job_id;
  for (const auto& rank : report.ranks) {
    protocol::RankSummaryInfo info;
    info.rank = rank.rank;
    info.path = support::PathToText(rank.path);
    info.kernels = rank.kernels;
    info.gpu_time_ns = rank.gpu_time_ns;
    info.nccl_kernels = rank.nccl_kernels;
    info.nccl_time_ns = rank.nccl_time_ns;
    info.step_time_ns = rank.step_time_ns;
    info.steps = rank.steps;
    if (!rank.error.empty()) info.error = rank.error;
    result.ranks.push_back(std::move(info));
  }
  for (const auto& analysis : report.analyses)
    result.analyses.push_back({analysis.skill, ToRunSkillResult(analysis.table)});
  result.notes = report.notes;
  result.memory.budget_bytes = static_cast<int64_t>(report.memory.budget_bytes);
  result.memory.peak_accounted_bytes = static_cast<int64_t>(report.memory.peak_accounted_bytes);
  result.memory.loads = report.memory.loads;
  result.memory.evictions = report.memory.evictions;
  result.memory.over_budget_ranks = static_cast<int64_t>(report.memory.over_budget_ranks);
  return result;
}

core::JobTraceRequest ToJobTraceRequest(const protocol::ExportJobTraceParams& params) {
  core::JobTraceRequest request;
  request.job_id = params.job_id;
  request.output = params.output;
  request.ranks_per_node = params.ranks_per_node.value_or(0);
  request.min_duration_ns = params.min_duration_ns.value_or(0);
  request.gpu = params.gpu.value_or(true);
  request.cpu = params.cpu.value_or(true);
  request.flows = params.flows.value_or(true);
  request.counters = params.counters.value_or(true);
  return request;
}

protocol::ExportJobTraceResult ToExportJobTraceResult(const core::JobTraceExport& trace) {
  const core::TraceStats& stats = trace.stats;
  protocol::ExportJobTraceResult result;
  result.path = support::PathToText(trace.path);
  result.bytes = stats.bytes;
  result.sha256 = stats.sha256;
  result.tracks = stats.tracks;
  result.slices = ToTraceSliceCounts(stats);
  result.flows = stats.flows;
  for (const auto& r : trace.ranks) {
    protocol::JobTraceRankInfo info{r.rank, r.offset_ns, std::nullopt, r.method, r.slices, std::nullopt};
    if (r.uncertainty_ns >= 0) info.uncertainty_ns = r.uncertainty_ns;
    if (!r.error.empty()) info.error = r.error;
    result.ranks.push_back(std::move(info));
  }
  result.notes = trace.notes;
  return result;
}

}  // namespace nsys::wire
