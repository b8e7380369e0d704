#pragma once
// Runs: N rank exports opened as one. nsys/openRun {paths | directory, memoryBudget?, threads?} →
// {runId, ranks, memoryBudgetBytes, threads}; nsys/closeRun {runId} → null; nsys/runSkillOnRun {runId, skill,
// args?, filter?} → a RunSkillResult whose rows lead with a `rank` column (or a run skill's table); nsys/runReport
// {runId} → per-rank kernels, GPU, NCCL and step time, and every run skill's table; nsys/exportRunTrace {runId,
// output?, ranksPerNode?, ...} → the trace of every rank on the run's clock; nsys/analyzeRun {runId, ranksPerNode?}
// → the cross-rank findings as nsys/analyze's result. Mirrors core/run.h and core/traces.h
// (wire/run.h converts).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"

namespace nsys::protocol {

namespace method {  // beside the others (methods.h): every method name is protocol::method::kX
inline constexpr std::string_view kOpenRun = "nsys/openRun";
inline constexpr std::string_view kCloseRun = "nsys/closeRun";
inline constexpr std::string_view kRunSkillOnRun = "nsys/runSkillOnRun";
inline constexpr std::string_view kRunReport = "nsys/runReport";
inline constexpr std::string_view kExportRunTrace = "nsys/exportRunTrace";
inline constexpr std::string_view kAnalyzeRun = "nsys/analyzeRun";
}  // namespace method

struct OpenRunParams {  // nsys/openRun
  std::optional<std::vector<std::string>> paths;
  std::optional<std::string> directory;
  // "memoryBudget": bytes (an integer) or a size ("4G", "512M"); absent = the session's or the server's.
  std::optional<Scalar> memory_budget;
  std::optional<int64_t> threads;  // ranks loaded at once, 1..64; absent = 2
  bool operator==(const OpenRunParams&) const = default;
};

struct RunRankInfo {
  std::string rank;  // the file name without its extension
  std::string path;
  int64_t file_size = 0;  // "fileSize"
  bool operator==(const RunRankInfo&) const = default;
};

struct OpenRunResult {
  std::string run_id;  // "runId"
  std::vector<RunRankInfo> ranks;
  int64_t memory_budget_bytes = 0;  // "memoryBudgetBytes"
  int64_t threads = 0;
  bool operator==(const OpenRunResult&) const = default;
};

struct RunIdParams {   // nsys/closeRun (result null), nsys/runReport
  std::string run_id;  // "runId"
  bool operator==(const RunIdParams&) const = default;
};

struct RunSkillOnRunParams {  // nsys/runSkillOnRun: nsys/runSkill's params with runId for profileId
  std::string run_id;         // "runId"
  std::string skill;
  std::map<std::string, Scalar> args;
  std::optional<Filter> filter;
  bool operator==(const RunSkillOnRunParams&) const = default;
};

struct RankSummaryInfo {
  std::string rank;
  std::string path;
  int64_t kernels = 0;
  int64_t gpu_time_ns = 0;              // "gpuTimeNs": Σ kernel durations
  int64_t nccl_kernels = 0;             // "ncclKernels"
  int64_t nccl_time_ns = 0;             // "ncclTimeNs"
  std::optional<int64_t> step_time_ns;  // "stepTimeNs": the median iteration, when iterations are found
  int64_t steps = 0;
  std::optional<std::string> error;  // the rank could not be read
  bool operator==(const RankSummaryInfo&) const = default;
};

struct RunMemoryInfo {
  int64_t budget_bytes = 0;          // "budgetBytes"
  int64_t peak_accounted_bytes = 0;  // "peakAccountedBytes": the most the run's ranks held at once, by estimate
  int64_t loads = 0;                 // rank opens (first opens and reopens)
  int64_t evictions = 0;             // ranks dropped to stay within the budget
  int64_t over_budget_ranks = 0;     // "overBudgetRanks": ranks that alone exceed the budget
  bool operator==(const RunMemoryInfo&) const = default;
};

struct RunAnalysisInfo {  // one cross-rank analysis: a run skill's result with its default arguments
  std::string skill;
  RunSkillResult result;
  bool operator==(const RunAnalysisInfo&) const = default;
};

struct RunReportResult {
  std::string run_id;  // "runId"
  std::vector<RankSummaryInfo> ranks;
  std::vector<RunAnalysisInfo> analyses;
  std::vector<std::string> notes;
  RunMemoryInfo memory;
  bool operator==(const RunReportResult&) const = default;
};

struct ExportRunTraceParams {              // nsys/exportRunTrace: one Perfetto trace of every rank on the run's clock
  std::string run_id;                      // "runId"
  std::optional<std::string> output;       // a file to write; absent = a fresh file in the server's trace cache
  std::optional<int64_t> ranks_per_node;   // "ranksPerNode": consecutive ranks sharing a clock; absent/0 = each its own
  std::optional<int64_t> min_duration_ns;  // "minDurationNs": shorter slices are left out
  std::optional<bool> gpu, cpu, flows, counters;  // what to write (each absent = true)
  bool operator==(const ExportRunTraceParams&) const = default;
};

struct AnalyzeRunParams {  // nsys/analyzeRun → an AnalyzeResult (protocol/analyze.h) of the cross-rank causes
  std::string run_id;      // "runId"
  std::optional<int64_t> ranks_per_node;  // "ranksPerNode": as the run skills' (clock alignment nodes)
  bool operator==(const AnalyzeRunParams&) const = default;
};

struct RunTraceRankInfo {
  std::string rank;
  int64_t offset_ns = 0;                  // "offsetNs": its node's clock minus the reference's, subtracted
  std::optional<int64_t> uncertainty_ns;  // "uncertaintyNs": absent when unknown
  std::string method;                     // "reference", "nccl_ends", "session_start" or "none"
  int64_t slices = 0;
  std::optional<std::string> error;  // the rank is not in the trace: why
  bool operator==(const RunTraceRankInfo&) const = default;
};

struct ExportRunTraceResult {
  std::string path;
  int64_t bytes = 0;
  std::string sha256;
  int64_t tracks = 0;
  TraceSliceCounts slices;
  int64_t flows = 0;
  std::vector<RunTraceRankInfo> ranks;
  std::vector<std::string> notes;  // the clock alignment's
  bool operator==(const ExportRunTraceResult&) const = default;
};

void FromJson(const Json& json, OpenRunParams& out, const std::string& path);
void to_json(Json& json, const OpenRunParams& value);
void FromJson(const Json& json, RunRankInfo& out, const std::string& path);
void to_json(Json& json, const RunRankInfo& value);
void FromJson(const Json& json, OpenRunResult& out, const std::string& path);
void to_json(Json& json, const OpenRunResult& value);
void FromJson(const Json& json, RunIdParams& out, const std::string& path);
void to_json(Json& json, const RunIdParams& value);
void FromJson(const Json& json, RunSkillOnRunParams& out, const std::string& path);
void to_json(Json& json, const RunSkillOnRunParams& value);
void FromJson(const Json& json, RankSummaryInfo& out, const std::string& path);
void to_json(Json& json, const RankSummaryInfo& value);
void FromJson(const Json& json, RunMemoryInfo& out, const std::string& path);
void to_json(Json& json, const RunMemoryInfo& value);
void FromJson(const Json& json, RunAnalysisInfo& out, const std::string& path);
void to_json(Json& json, const RunAnalysisInfo& value);
void FromJson(const Json& json, ExportRunTraceParams& out, const std::string& path);
void to_json(Json& json, const ExportRunTraceParams& value);
void FromJson(const Json& json, AnalyzeRunParams& out, const std::string& path);
void to_json(Json& json, const AnalyzeRunParams& value);
void FromJson(const Json& json, RunTraceRankInfo& out, const std::string& path);
void to_json(Json& json, const RunTraceRankInfo& value);
void FromJson(const Json& json, ExportRunTraceResult& out, const std::string& path);
void to_json(Json& json, const ExportRunTraceResult& value);
void FromJson(const Json& json, RunReportResult& out, const std::string& path);
void to_json(Json& json, const RunReportResult& value);

namespace mcp {
struct OpenRunArgs : OpenRunParams {  // open_run (MCP tool): nsys/openRun's params in snake_case
  static constexpr auto Fields() {
    return std::tuple{Arg("paths", &OpenRunArgs::paths), Arg("directory", &OpenRunArgs::directory),
                      Arg("memory_budget", &OpenRunArgs::memory_budget), Arg("threads", &OpenRunArgs::threads)};
  }
  bool operator==(const OpenRunArgs&) const = default;
};
struct RunIdArgs {  // run_report, close_run
  std::string run_id;
  static constexpr auto Fields() { return std::tuple{Arg("run_id", &RunIdArgs::run_id)}; }
  bool operator==(const RunIdArgs&) const = default;
};
struct AnalyzeRunArgs {  // analyze_run
  std::string run_id;
  std::optional<int64_t> ranks_per_node;
  static constexpr auto Fields() {
    return std::tuple{Arg("run_id", &AnalyzeRunArgs::run_id), Arg("ranks_per_node", &AnalyzeRunArgs::ranks_per_node)};
  }
  bool operator==(const AnalyzeRunArgs&) const = default;
};
void FromJson(const Json& json, OpenRunArgs& out, const std::string& path);
void FromJson(const Json& json, RunIdArgs& out, const std::string& path);
void FromJson(const Json& json, AnalyzeRunArgs& out, const std::string& path);
}  // namespace mcp

}  // namespace nsys::protocol
