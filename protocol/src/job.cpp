#include "nsys/protocol/job.h"

#include <string>

#include "by_fields.h"
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

NSYS_CONVERSIONS_BY_FIELDS(JobRankInfo)
NSYS_CONVERSIONS_BY_FIELDS(OpenJobResult)
NSYS_CONVERSIONS_BY_FIELDS(JobIdParams)
NSYS_CONVERSIONS_BY_FIELDS(RunSkillOnJobParams)
NSYS_CONVERSIONS_BY_FIELDS(RankSummaryInfo)
NSYS_CONVERSIONS_BY_FIELDS(JobMemoryInfo)
NSYS_CONVERSIONS_BY_FIELDS(JobAnalysisInfo)
NSYS_CONVERSIONS_BY_FIELDS(JobReportResult)

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

NSYS_CONVERSIONS_BY_FIELDS(JobTraceRankInfo)
NSYS_CONVERSIONS_BY_FIELDS(ExportJobTraceResult)

}  // namespace nsys::protocol
