#include "nsys/protocol/job.h"

#include <utility>

#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, OpenJobParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Optional("paths", out.paths);
  r.Optional("directory", out.directory);
  r.Optional("memoryBudget", out.memory_budget);
  r.Optional("threads", out.threads);
  if (out.paths.has_value() == out.directory.has_value()) {
    FailAt(path, "give `paths` (a list of rank exports) or `directory`, one of the two");
  }
}
void to_json(Json& j, const OpenJobParams& v) {
  j = Json::object();
  SetIfPresent(j, "paths", v.paths);
  SetIfPresent(j, "directory", v.directory);
  if (v.memory_budget) j["memoryBudget"] = ScalarToJson(*v.memory_budget);
  SetIfPresent(j, "threads", v.threads);
}

void FromJson(const Json& j, JobRankInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("rank", out.rank);
  r.Required("path", out.path);
  r.Required("fileSize", out.file_size);
}
void to_json(Json& j, const JobRankInfo& v) {
  j = {{"rank", v.rank}, {"path", v.path}, {"fileSize", v.file_size}};
}

void FromJson(const Json& j, OpenJobResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("jobId", out.job_id);
  r.Required("ranks", out.ranks);
  r.Required("memoryBudgetBytes", out.memory_budget_bytes);
  r.Required("threads", out.threads);
}
void to_json(Json& j, const OpenJobResult& v) {
  j = {{"jobId", v.job_id}, {"ranks", v.ranks}, {"memoryBudgetBytes", v.memory_budget_bytes}, {"threads", v.threads}};
}

void FromJson(const Json& j, JobIdParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("jobId", out.job_id);
}
void to_json(Json& j, const JobIdParams& v) {
  j = {{"jobId", v.job_id}};
}

void FromJson(const Json& j, RunSkillOnJobParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("jobId", out.job_id);
  r.Required("skill", out.skill);
  r.OptionalOr("args", out.args);
  r.Optional("filter", out.filter);
}
void to_json(Json& j, const RunSkillOnJobParams& v) {
  Json args = Json::object();
  for (const auto& [name, value] : v.args) args[name] = ScalarToJson(value);
  j = {{"jobId", v.job_id}, {"skill", v.skill}, {"args", std::move(args)}};
  SetIfPresent(j, "filter", v.filter);
}

void FromJson(const Json& j, RankSummaryInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("rank", out.rank);
  r.Required("path", out.path);
  r.Required("kernels", out.kernels);
  r.Required("gpuTimeNs", out.gpu_time_ns);
  r.Required("ncclKernels", out.nccl_kernels);
  r.Required("ncclTimeNs", out.nccl_time_ns);
  r.Optional("stepTimeNs", out.step_time_ns);
  r.Required("steps", out.steps);
  r.Optional("error", out.error);
}
void to_json(Json& j, const RankSummaryInfo& v) {
  j = {{"rank", v.rank},
       {"path", v.path},
       {"kernels", v.kernels},
       {"gpuTimeNs", v.gpu_time_ns},
       {"ncclKernels", v.nccl_kernels},
       {"ncclTimeNs", v.nccl_time_ns},
       {"steps", v.steps}};
  SetIfPresent(j, "stepTimeNs", v.step_time_ns);
  SetIfPresent(j, "error", v.error);
}

void FromJson(const Json& j, JobMemoryInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("budgetBytes", out.budget_bytes);
  r.Required("peakAccountedBytes", out.peak_accounted_bytes);
  r.Required("loads", out.loads);
  r.Required("evictions", out.evictions);
  r.Required("overBudgetRanks", out.over_budget_ranks);
}
void to_json(Json& j, const JobMemoryInfo& v) {
  j = {{"budgetBytes", v.budget_bytes},
       {"peakAccountedBytes", v.peak_accounted_bytes},
       {"loads", v.loads},
       {"evictions", v.evictions},
       {"overBudgetRanks", v.over_budget_ranks}};
}

void FromJson(const Json& j, JobAnalysisInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("skill", out.skill);
  r.Required("result", out.result);
}
void to_json(Json& j, const JobAnalysisInfo& v) {
  j = {{"skill", v.skill}, {"result", v.result}};
}

void FromJson(const Json& j, JobReportResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("jobId", out.job_id);
  r.Required("ranks", out.ranks);
  r.Required("analyses", out.analyses);
  r.Required("notes", out.notes);
  r.Required("memory", out.memory);
}
void to_json(Json& j, const JobReportResult& v) {
  j = {{"jobId", v.job_id}, {"ranks", v.ranks}, {"analyses", v.analyses}, {"notes", v.notes}, {"memory", v.memory}};
}

void FromJson(const Json& j, ExportJobTraceParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("jobId", out.job_id);
  r.Optional("output", out.output);
  r.Optional("ranksPerNode", out.ranks_per_node);
  r.Optional("minDurationNs", out.min_duration_ns);
  r.Optional("gpu", out.gpu);
  r.Optional("cpu", out.cpu);
  r.Optional("flows", out.flows);
  r.Optional("counters", out.counters);
  if (out.ranks_per_node && *out.ranks_per_node < 0) FailAt(path + ".ranksPerNode", "must not be negative");
  if (out.min_duration_ns && *out.min_duration_ns < 0) FailAt(path + ".minDurationNs", "must not be negative");
}
void to_json(Json& j, const ExportJobTraceParams& v) {
  j = {{"jobId", v.job_id}};
  SetIfPresent(j, "output", v.output);
  SetIfPresent(j, "ranksPerNode", v.ranks_per_node);
  SetIfPresent(j, "minDurationNs", v.min_duration_ns);
  SetIfPresent(j, "gpu", v.gpu);
  SetIfPresent(j, "cpu", v.cpu);
  SetIfPresent(j, "flows", v.flows);
  SetIfPresent(j, "counters", v.counters);
}

void FromJson(const Json& j, AnalyzeJobParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("jobId", out.job_id);
  r.Optional("ranksPerNode", out.ranks_per_node);
  if (out.ranks_per_node && *out.ranks_per_node < 0) FailAt(path + ".ranksPerNode", "must not be negative");
}
void to_json(Json& j, const AnalyzeJobParams& v) {
  j = {{"jobId", v.job_id}};
  SetIfPresent(j, "ranksPerNode", v.ranks_per_node);
}

void FromJson(const Json& j, JobTraceRankInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("rank", out.rank);
  r.Required("offsetNs", out.offset_ns);
  r.Optional("uncertaintyNs", out.uncertainty_ns);
  r.Required("method", out.method);
  r.Required("slices", out.slices);
  r.Optional("error", out.error);
}
void to_json(Json& j, const JobTraceRankInfo& v) {
  j = {{"rank", v.rank}, {"offsetNs", v.offset_ns}, {"method", v.method}, {"slices", v.slices}};
  SetIfPresent(j, "uncertaintyNs", v.uncertainty_ns);
  SetIfPresent(j, "error", v.error);
}

void FromJson(const Json& j, ExportJobTraceResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("path", out.path);
  r.Required("bytes", out.bytes);
  r.Required("sha256", out.sha256);
  r.Required("tracks", out.tracks);
  r.Required("slices", out.slices);
  r.Required("flows", out.flows);
  r.Required("ranks", out.ranks);
  r.OptionalOr("notes", out.notes);
}
void to_json(Json& j, const ExportJobTraceResult& v) {
  j = {{"path", v.path},     {"bytes", v.bytes}, {"sha256", v.sha256}, {"tracks", v.tracks},
       {"slices", v.slices}, {"flows", v.flows}, {"ranks", v.ranks},   {"notes", v.notes}};
}

}  // namespace nsys::protocol
