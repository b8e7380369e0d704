#pragma once
// Jobs: N rank exports opened as one. nsys/openJob {paths | directory, memoryBudget?, threads?} →
// {jobId, ranks, memoryBudgetBytes, threads}; nsys/closeJob {jobId} → null; nsys/runSkillOnJob {jobId, skill,
// args?, filter?} → a RunSkillResult whose rows lead with a `rank` column (or a job skill's table); nsys/jobReport
// {jobId} → per-rank kernels, GPU, NCCL and step time, and every job skill's table; nsys/exportJobTrace {jobId,
// output?, ranksPerNode?, ...} → the trace of every rank on the job's clock; nsys/analyzeJob {jobId, ranksPerNode?}
// → the cross-rank findings as nsys/analyze's result. Mirrors core/job.h and core/traces.h
// (wire/job.h converts).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

namespace method {  // beside the others (methods.h): every method name is protocol::method::kX
inline constexpr std::string_view kOpenJob = "nsys/openJob";
inline constexpr std::string_view kCloseJob = "nsys/closeJob";
inline constexpr std::string_view kRunSkillOnJob = "nsys/runSkillOnJob";
inline constexpr std::string_view kJobReport = "nsys/jobReport";
inline constexpr std::string_view kExportJobTrace = "nsys/exportJobTrace";
inline constexpr std::string_view kAnalyzeJob = "nsys/analyzeJob";
}  // namespace method

// Read and written by its field list, and the reader then checks: give paths or directory, one of the two.
struct OpenJobParams {  // nsys/openJob
  std::optional<std::vector<std::string>> paths;
  std::optional<std::string> directory;
  // Bytes (an integer) or a size ("4G", "512M"); absent = the session's or the server's.
  std::optional<Scalar> memory_budget;
  std::optional<int64_t> threads;  // ranks loaded at once, 1..64; absent = 2
  static constexpr auto WireFields() {
    using S = OpenJobParams;
    return std::tuple{Field("paths", &S::paths), Field("directory", &S::directory),
                      Field("memoryBudget", &S::memory_budget), Field("threads", &S::threads)};
  }
  bool operator==(const OpenJobParams&) const = default;
};

struct JobRankInfo {
  std::string rank;  // the file name without its extension
  std::string path;
  int64_t file_size = 0;
  static constexpr auto WireFields() {
    using S = JobRankInfo;
    return std::tuple{Field("rank", &S::rank), Field("path", &S::path), Field("fileSize", &S::file_size)};
  }
  bool operator==(const JobRankInfo&) const = default;
};

struct OpenJobResult {
  std::string job_id;
  std::vector<JobRankInfo> ranks;
  int64_t memory_budget_bytes = 0;
  int64_t threads = 0;
  static constexpr auto WireFields() {
    using S = OpenJobResult;
    return std::tuple{Field("jobId", &S::job_id), Field("ranks", &S::ranks),
                      Field("memoryBudgetBytes", &S::memory_budget_bytes), Field("threads", &S::threads)};
  }
  bool operator==(const OpenJobResult&) const = default;
};

struct JobIdParams {  // nsys/closeJob (result null), nsys/jobReport
  std::string job_id;
  static constexpr auto WireFields() {
    using S = JobIdParams;
    return std::tuple{Field("jobId", &S::job_id)};
  }
  bool operator==(const JobIdParams&) const = default;
};

struct RunSkillOnJobParams {  // nsys/runSkillOnJob: nsys/runSkill's params with jobId for profileId
  std::string job_id;
  std::string skill;
  std::map<std::string, Scalar> args;
  std::optional<Filter> filter;
  static constexpr auto WireFields() {
    using S = RunSkillOnJobParams;
    return std::tuple{Field("jobId", &S::job_id), Field("skill", &S::skill), OptionalField("args", &S::args),
                      Field("filter", &S::filter)};
  }
  bool operator==(const RunSkillOnJobParams&) const = default;
};

struct RankSummaryInfo {
  std::string rank;
  std::string path;
  int64_t kernels = 0;
  int64_t gpu_time_ns = 0;  // Σ kernel durations
  int64_t nccl_kernels = 0;
  int64_t nccl_time_ns = 0;
  std::optional<int64_t> step_time_ns;  // the median iteration, when iterations are found
  int64_t steps = 0;
  std::optional<std::string> error;  // the rank could not be read
  static constexpr auto WireFields() {
    using S = RankSummaryInfo;
    return std::tuple{Field("rank", &S::rank),
                      Field("path", &S::path),
                      Field("kernels", &S::kernels),
                      Field("gpuTimeNs", &S::gpu_time_ns),
                      Field("ncclKernels", &S::nccl_kernels),
                      Field("ncclTimeNs", &S::nccl_time_ns),
                      Field("stepTimeNs", &S::step_time_ns),
                      Field("steps", &S::steps),
                      Field("error", &S::error)};
  }
  bool operator==(const RankSummaryInfo&) const = default;
};

struct JobMemoryInfo {
  int64_t budget_bytes = 0;
  int64_t peak_accounted_bytes = 0;  // the most the job's ranks held at once, by estimate
  int64_t loads = 0;                 // rank opens (first opens and reopens)
  int64_t evictions = 0;             // ranks dropped to stay within the budget
  int64_t over_budget_ranks = 0;     // ranks that alone exceed the budget
  static constexpr auto WireFields() {
    using S = JobMemoryInfo;
    return std::tuple{Field("budgetBytes", &S::budget_bytes), Field("peakAccountedBytes", &S::peak_accounted_bytes),
                      Field("loads", &S::loads), Field("evictions", &S::evictions),
                      Field("overBudgetRanks", &S::over_budget_ranks)};
  }
  bool operator==(const JobMemoryInfo&) const = default;
};

struct JobAnalysisInfo {  // one cross-rank analysis: a job skill's result with its default arguments
  std::string skill;
  RunSkillResult result;
  static constexpr auto WireFields() {
    using S = JobAnalysisInfo;
    return std::tuple{Field("skill", &S::skill), Field("result", &S::result)};
  }
  bool operator==(const JobAnalysisInfo&) const = default;
};

struct JobReportResult {
  std::string job_id;
  std::vector<RankSummaryInfo> ranks;
  std::vector<JobAnalysisInfo> analyses;
  std::vector<std::string> notes;
  JobMemoryInfo memory;
  static constexpr auto WireFields() {
    using S = JobReportResult;
    return std::tuple{Field("jobId", &S::job_id), Field("ranks", &S::ranks), Field("analyses", &S::analyses),
                      Field("notes", &S::notes), Field("memory", &S::memory)};
  }
  bool operator==(const JobReportResult&) const = default;
};

// Read and written by its field list, and the reader then checks: ranksPerNode and minDurationNs must not be negative.
struct ExportJobTraceParams {              // nsys/exportJobTrace: one Perfetto trace of every rank on the job's clock
  std::string job_id;                      // "jobId"
  std::optional<std::string> output;       // a file to write; absent = a fresh file in the server's trace cache
  std::optional<int64_t> ranks_per_node;   // "ranksPerNode": consecutive ranks sharing a clock; absent/0 = each its own
  std::optional<int64_t> min_duration_ns;  // "minDurationNs": shorter slices are left out
  std::optional<bool> gpu, cpu, flows, counters;  // what to write (each absent = true)
  static constexpr auto WireFields() {
    using S = ExportJobTraceParams;
    return std::tuple{Field("jobId", &S::job_id),
                      Field("output", &S::output),
                      Field("ranksPerNode", &S::ranks_per_node),
                      Field("minDurationNs", &S::min_duration_ns),
                      Field("gpu", &S::gpu),
                      Field("cpu", &S::cpu),
                      Field("flows", &S::flows),
                      Field("counters", &S::counters)};
  }
  bool operator==(const ExportJobTraceParams&) const = default;
};

// Read and written by its field list, and the reader then checks: ranksPerNode must not be negative.
struct AnalyzeJobParams {  // nsys/analyzeJob → an AnalyzeResult (protocol/analyze.h) of the cross-rank causes
  std::string job_id;
  std::optional<int64_t> ranks_per_node;  // as the job skills' (clock alignment nodes)
  static constexpr auto WireFields() {
    using S = AnalyzeJobParams;
    return std::tuple{Field("jobId", &S::job_id), Field("ranksPerNode", &S::ranks_per_node)};
  }
  bool operator==(const AnalyzeJobParams&) const = default;
};

struct JobTraceRankInfo {
  std::string rank;
  int64_t offset_ns = 0;                  // its node's clock minus the reference's, subtracted
  std::optional<int64_t> uncertainty_ns;  // absent when unknown
  std::string method;                     // "reference", "nccl_ends", "session_start" or "none"
  int64_t slices = 0;
  std::optional<std::string> error;  // the rank is not in the trace: why
  static constexpr auto WireFields() {
    using S = JobTraceRankInfo;
    return std::tuple{
        Field("rank", &S::rank),     Field("offsetNs", &S::offset_ns), Field("uncertaintyNs", &S::uncertainty_ns),
        Field("method", &S::method), Field("slices", &S::slices),      Field("error", &S::error)};
  }
  bool operator==(const JobTraceRankInfo&) const = default;
};

struct ExportJobTraceResult {
  std::string path;
  int64_t bytes = 0;
  std::string sha256;
  int64_t tracks = 0;
  TraceSliceCounts slices;
  int64_t flows = 0;
  std::vector<JobTraceRankInfo> ranks;
  std::vector<std::string> notes;  // the clock alignment's
  static constexpr auto WireFields() {
    using S = ExportJobTraceResult;
    return std::tuple{Field("path", &S::path),     Field("bytes", &S::bytes),        Field("sha256", &S::sha256),
                      Field("tracks", &S::tracks), Field("slices", &S::slices),      Field("flows", &S::flows),
                      Field("ranks", &S::ranks),   OptionalField("notes", &S::notes)};
  }
  bool operator==(const ExportJobTraceResult&) const = default;
};

void FromJson(const Json& json, OpenJobParams& out, const std::string& path);
void to_json(Json& json, const OpenJobParams& value);
void FromJson(const Json& json, JobRankInfo& out, const std::string& path);
void to_json(Json& json, const JobRankInfo& value);
void FromJson(const Json& json, OpenJobResult& out, const std::string& path);
void to_json(Json& json, const OpenJobResult& value);
void FromJson(const Json& json, JobIdParams& out, const std::string& path);
void to_json(Json& json, const JobIdParams& value);
void FromJson(const Json& json, RunSkillOnJobParams& out, const std::string& path);
void to_json(Json& json, const RunSkillOnJobParams& value);
void FromJson(const Json& json, RankSummaryInfo& out, const std::string& path);
void to_json(Json& json, const RankSummaryInfo& value);
void FromJson(const Json& json, JobMemoryInfo& out, const std::string& path);
void to_json(Json& json, const JobMemoryInfo& value);
void FromJson(const Json& json, JobAnalysisInfo& out, const std::string& path);
void to_json(Json& json, const JobAnalysisInfo& value);
void FromJson(const Json& json, ExportJobTraceParams& out, const std::string& path);
void to_json(Json& json, const ExportJobTraceParams& value);
void FromJson(const Json& json, AnalyzeJobParams& out, const std::string& path);
void to_json(Json& json, const AnalyzeJobParams& value);
void FromJson(const Json& json, JobTraceRankInfo& out, const std::string& path);
void to_json(Json& json, const JobTraceRankInfo& value);
void FromJson(const Json& json, ExportJobTraceResult& out, const std::string& path);
void to_json(Json& json, const ExportJobTraceResult& value);
void FromJson(const Json& json, JobReportResult& out, const std::string& path);
void to_json(Json& json, const JobReportResult& value);

namespace mcp {
// The job tools take the job methods' params in snake_case. Their reader is the tools' (mcp.cpp), not the params':
// open_job's one of paths and directory and analyze_job's ranks_per_node not negative are the core's checks.
struct OpenJobArgs : OpenJobParams {  // open_job: nsys/openJob's params
  static constexpr auto Fields() { return ParamsArgs<OpenJobParams>(); }
  bool operator==(const OpenJobArgs&) const = default;
};
struct JobIdArgs : JobIdParams {  // job_report, close_job: nsys/jobReport's and nsys/closeJob's params
  static constexpr auto Fields() { return ParamsArgs<JobIdParams>(); }
  bool operator==(const JobIdArgs&) const = default;
};
struct AnalyzeJobArgs : AnalyzeJobParams {  // analyze_job: nsys/analyzeJob's params
  static constexpr auto Fields() { return ParamsArgs<AnalyzeJobParams>(); }
  bool operator==(const AnalyzeJobArgs&) const = default;
};
void FromJson(const Json& json, OpenJobArgs& out, const std::string& path);
void FromJson(const Json& json, JobIdArgs& out, const std::string& path);
void FromJson(const Json& json, AnalyzeJobArgs& out, const std::string& path);
}  // namespace mcp

}  // namespace nsys::protocol
