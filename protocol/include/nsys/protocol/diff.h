#pragma once
// nsys/diff: params and the typed result, and the MCP `diff` tool's arguments. The result mirrors
// server/agent's diff.h (wire/diff.h converts); figures a profile cannot give (an average of a kernel it does not
// run, a per-iteration figure without iterations) are absent rather than NaN. Times are ns, shares are percent.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/answer.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"

namespace nsys::protocol {

struct DiffParams {
  std::string base_profile_id;           // "baseProfileId"
  std::string new_profile_id;            // "newProfileId"
  std::optional<std::string> phase_map;  // "phaseMap": JSON text for the `phases` skill
  std::optional<int64_t> max_rows;       // "maxRows": kernels and ranges listed per presence class (0 = all)
  std::optional<std::string> metric;     // "metric": "step" | "gpu" | "kernel:NAME"; absent = step and gpu
  bool operator==(const DiffParams&) const = default;
};

struct DiffItem {  // a kernel (by demangled name) or an NVTX range (by name and style)
  std::string name;
  std::string short_name;  // "shortName": kernels' base name, ranges' style
  std::string presence;    // "both" | "appeared" | "disappeared"
  int64_t base_calls = 0, new_calls = 0;
  int64_t base_total_ns = 0, new_total_ns = 0;
  std::optional<double> base_avg_ns, new_avg_ns, per_call_pct;
  std::optional<double> base_per_iteration_ns, new_per_iteration_ns;
  std::optional<double> base_calls_per_iteration, new_calls_per_iteration;
  double impact_ns = 0;
  std::optional<double> noise_pct;
  std::optional<double> rank_p;  // "rankP": kernels' Mann-Whitney p of the per-call durations
  bool beyond_noise = false;
  bool operator==(const DiffItem&) const = default;
};

struct DiffCounts {
  int64_t both = 0, appeared = 0, disappeared = 0;
  bool operator==(const DiffCounts&) const = default;
};

struct DiffDevice {
  int32_t device_id = 0;
  bool in_base = false, in_new = false;
  int64_t base_span_ns = 0, new_span_ns = 0, base_idle_ns = 0, new_idle_ns = 0;
  std::optional<double> base_idle_pct, new_idle_pct;
  int64_t base_long_gaps = 0, new_long_gaps = 0, base_long_gap_ns = 0, new_long_gap_ns = 0;
  bool has_comm = false;
  int64_t base_comm_ns = 0, new_comm_ns = 0;
  std::optional<double> base_overlap_pct, new_overlap_pct;
  int64_t base_exposed_ns = 0, new_exposed_ns = 0;
  bool operator==(const DiffDevice&) const = default;
};

struct DiffMemcpy {
  std::string operation;
  int64_t base_count = 0, new_count = 0, base_bytes = 0, new_bytes = 0, base_total_ns = 0, new_total_ns = 0;
  std::optional<double> base_per_iteration_ns, new_per_iteration_ns;
  bool operator==(const DiffMemcpy&) const = default;
};

struct DiffPhase {
  std::string phase;
  int64_t base_ranges = 0, new_ranges = 0, base_wall_ns = 0, new_wall_ns = 0, base_gpu_ns = 0, new_gpu_ns = 0;
  std::optional<double> base_coverage, new_coverage;
  bool operator==(const DiffPhase&) const = default;
};

struct DiffIterations {
  int64_t count = 0;
  std::string method;
  std::optional<double> median_ns, robust_sd_ns, median_kernels, median_gpu_busy_ns;
  std::optional<double> median_kernel_ns, robust_sd_kernel_ns;  // "medianKernelNs", "robustSdKernelNs"
  bool operator==(const DiffIterations&) const = default;
};

struct DiffHeadline {
  std::string metric;
  double base_ns = 0, new_ns = 0;
  std::optional<double> change_pct;
  double noise_floor_pct = 0;
  std::string noise_floor_reason;
  std::string measure;                           // "step" | "gpu" | "kernel:NAME"
  std::optional<double> rank_p;                  // "rankP"
  std::optional<double> significant_change_pct;  // "significantChangePct": the base's mix only
  std::string verdict;                           // this measure's own: "improved" | "regressed" | "neutral"
  bool operator==(const DiffHeadline&) const = default;
};

struct DiffComparability {
  double score = 0;
  std::string label;  // "comparable" | "partly comparable" | "not comparable"
  std::vector<std::string> reasons;
  double shared_kernel_time = 0;
  double window_ratio = 0;
  bool same_devices = false;
  bool operator==(const DiffComparability&) const = default;
};

struct DiffResult {
  std::string verdict;  // "improved" | "regressed" | "neutral"
  std::string base_path, new_path;
  DiffComparability comparability;
  std::optional<DiffHeadline> headline;  // absent when nothing could be compared
  std::optional<DiffHeadline> per_call;  // "perCall"
  std::vector<DiffHeadline> measures;    // every measure the verdict covers, each with its own verdict
  DiffIterations base_iterations, new_iterations;
  std::vector<DiffItem> kernels;
  DiffCounts kernel_counts;
  std::vector<DiffItem> ranges;
  DiffCounts range_counts;
  std::vector<DiffDevice> devices;
  std::vector<DiffMemcpy> memcpy;
  std::vector<DiffPhase> phases;
  std::vector<std::string> notes;
  // Each profile's NVTX mapping coverage and the change of its share (new - base), absent when either
  // profile has no kernels.
  std::optional<MappingCoverage> base_coverage, new_coverage;  // "baseCoverage", "newCoverage"
  std::optional<double> coverage_change;                       // "coverageChange"
  Answer answer;
  std::string markdown;
  bool operator==(const DiffResult&) const = default;
};

#define NSYS_DIFF_CONVERSIONS(Type)                                    \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_DIFF_CONVERSIONS(DiffParams)
NSYS_DIFF_CONVERSIONS(DiffItem)
NSYS_DIFF_CONVERSIONS(DiffCounts)
NSYS_DIFF_CONVERSIONS(DiffDevice)
NSYS_DIFF_CONVERSIONS(DiffMemcpy)
NSYS_DIFF_CONVERSIONS(DiffPhase)
NSYS_DIFF_CONVERSIONS(DiffIterations)
NSYS_DIFF_CONVERSIONS(DiffHeadline)
NSYS_DIFF_CONVERSIONS(DiffComparability)
NSYS_DIFF_CONVERSIONS(DiffResult)
#undef NSYS_DIFF_CONVERSIONS

namespace mcp {
struct DiffArgs {  // diff
  std::string base_profile_id;
  std::string new_profile_id;
  std::optional<std::string> phase_map;
  std::optional<int64_t> max_rows;
  std::optional<std::string> metric;
  static constexpr auto Fields() {
    return std::tuple{Arg("base_profile_id", &DiffArgs::base_profile_id),
                      Arg("new_profile_id", &DiffArgs::new_profile_id), Arg("phase_map", &DiffArgs::phase_map),
                      Arg("max_rows", &DiffArgs::max_rows), Arg("metric", &DiffArgs::metric)};
  }
  bool operator==(const DiffArgs&) const = default;
};
void FromJson(const Json& json, DiffArgs& out, const std::string& path);
}  // namespace mcp

}  // namespace nsys::protocol
