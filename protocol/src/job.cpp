#include "nsys/protocol/job.h"

#include <string>

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, OpenJobParams& out, const std::string& path) {
  ReadFields(j, out, path);
  if (out.paths.has_value() == out.directory.has_value()) {
    FailAt(path, "give `paths` (a list of rank exports) or `directory`, one of the two");
  }
}
void to_json(Json& j, const OpenJobParams& v) {
  WriteFields(j, v);
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
  ReadFields(j, out, path);
  if (out.ranks_per_node && *out.ranks_per_node < 0) FailAt(path + ".ranksPerNode", "must not be negative");
  if (out.min_duration_ns && *out.min_duration_ns < 0) FailAt(path + ".minDurationNs", "must not be negative");
}
void to_json(Json& j, const ExportJobTraceParams& v) {
  WriteFields(j, v);
}

void FromJson(const Json& j, AnalyzeJobParams& out, const std::string& path) {
  ReadFields(j, out, path);
  if (out.ranks_per_node && *out.ranks_per_node < 0) FailAt(path + ".ranksPerNode", "must not be negative");
}
void to_json(Json& j, const AnalyzeJobParams& v) {
  WriteFields(j, v);
}

NSYS_CONVERSIONS_BY_FIELDS(JobTraceRankInfo)
NSYS_CONVERSIONS_BY_FIELDS(ExportJobTraceResult)

}  // namespace nsys::protocol
