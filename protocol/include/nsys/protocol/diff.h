#pragma once
// nsys/diff: params and the typed result, and the MCP `diff` tool's arguments. The result mirrors
// server/agent's diff.h (wire/diff.h converts); figures a profile cannot give (an average of a kernel it does not
// run, a per-iteration figure without iterations) are absent rather than NaN. Times are ns, shares are percent.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/answer.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct DiffParams {
  std::string base_profile_id;
  std::string new_profile_id;
  std::optional<std::string> phase_map;  // JSON text for the `phases` skill
  std::optional<int64_t> max_rows;       // kernels and ranges listed per presence class (0 = all)
  std::optional<std::string> metric;     // "step" | "gpu" | "kernel:NAME"; absent = step and gpu
  static constexpr auto WireFields() {
    using S = DiffParams;
    return std::tuple{Field("baseProfileId", &S::base_profile_id), Field("newProfileId", &S::new_profile_id),
                      Field("phaseMap", &S::phase_map), Field("maxRows", &S::max_rows), Field("metric", &S::metric)};
  }
  bool operator==(const DiffParams&) const = default;
};

struct DiffItem {  // a kernel (by demangled name) or an NVTX range (by name and style)
  std::string name;
  std::string short_name;  // kernels' base name, ranges' style
  std::string presence;    // "both" | "appeared" | "disappeared"
  int64_t base_calls = 0, new_calls = 0;
  int64_t base_total_ns = 0, new_total_ns = 0;
  std::optional<double> base_avg_ns, new_avg_ns, per_call_pct;
  std::optional<double> base_per_iteration_ns, new_per_iteration_ns;
  std::optional<double> base_calls_per_iteration, new_calls_per_iteration;
  double impact_ns = 0;
  std::optional<double> noise_pct;
  std::optional<double> rank_p;  // kernels' Mann-Whitney p of the per-call durations
  bool beyond_noise = false;
  static constexpr auto WireFields() {
    using S = DiffItem;
    return std::tuple{OptionalField("name", &S::name),
                      OptionalField("shortName", &S::short_name),
                      OptionalField("presence", &S::presence),
                      OptionalField("baseCalls", &S::base_calls),
                      OptionalField("newCalls", &S::new_calls),
                      OptionalField("baseTotalNs", &S::base_total_ns),
                      OptionalField("newTotalNs", &S::new_total_ns),
                      Field("baseAvgNs", &S::base_avg_ns),
                      Field("newAvgNs", &S::new_avg_ns),
                      Field("perCallPct", &S::per_call_pct),
                      Field("basePerIterationNs", &S::base_per_iteration_ns),
                      Field("newPerIterationNs", &S::new_per_iteration_ns),
                      Field("baseCallsPerIteration", &S::base_calls_per_iteration),
                      Field("newCallsPerIteration", &S::new_calls_per_iteration),
                      OptionalField("impactNs", &S::impact_ns),
                      Field("noisePct", &S::noise_pct),
                      Field("rankP", &S::rank_p),
                      OptionalField("beyondNoise", &S::beyond_noise)};
  }
  bool operator==(const DiffItem&) const = default;
};

struct DiffCounts {
  int64_t both = 0, appeared = 0, disappeared = 0;
  static constexpr auto WireFields() {
    using S = DiffCounts;
    return std::tuple{OptionalField("both", &S::both), OptionalField("appeared", &S::appeared),
                      OptionalField("disappeared", &S::disappeared)};
  }
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
  static constexpr auto WireFields() {
    using S = DiffDevice;
    return std::tuple{OptionalField("deviceId", &S::device_id),
                      OptionalField("inBase", &S::in_base),
                      OptionalField("inNew", &S::in_new),
                      OptionalField("baseSpanNs", &S::base_span_ns),
                      OptionalField("newSpanNs", &S::new_span_ns),
                      OptionalField("baseIdleNs", &S::base_idle_ns),
                      OptionalField("newIdleNs", &S::new_idle_ns),
                      Field("baseIdlePct", &S::base_idle_pct),
                      Field("newIdlePct", &S::new_idle_pct),
                      OptionalField("baseLongGaps", &S::base_long_gaps),
                      OptionalField("newLongGaps", &S::new_long_gaps),
                      OptionalField("baseLongGapNs", &S::base_long_gap_ns),
                      OptionalField("newLongGapNs", &S::new_long_gap_ns),
                      OptionalField("hasComm", &S::has_comm),
                      OptionalField("baseCommNs", &S::base_comm_ns),
                      OptionalField("newCommNs", &S::new_comm_ns),
                      Field("baseOverlapPct", &S::base_overlap_pct),
                      Field("newOverlapPct", &S::new_overlap_pct),
                      OptionalField("baseExposedNs", &S::base_exposed_ns),
                      OptionalField("newExposedNs", &S::new_exposed_ns)};
  }
  bool operator==(const DiffDevice&) const = default;
};

struct DiffMemcpy {
  std::string operation;
  int64_t base_count = 0, new_count = 0, base_bytes = 0, new_bytes = 0, base_total_ns = 0, new_total_ns = 0;
  std::optional<double> base_per_iteration_ns, new_per_iteration_ns;
  static constexpr auto WireFields() {
    using S = DiffMemcpy;
    return std::tuple{OptionalField("operation", &S::operation),
                      OptionalField("baseCount", &S::base_count),
                      OptionalField("newCount", &S::new_count),
                      OptionalField("baseBytes", &S::base_bytes),
                      OptionalField("newBytes", &S::new_bytes),
                      OptionalField("baseTotalNs", &S::base_total_ns),
                      OptionalField("newTotalNs", &S::new_total_ns),
                      Field("basePerIterationNs", &S::base_per_iteration_ns),
                      Field("newPerIterationNs", &S::new_per_iteration_ns)};
  }
  bool operator==(const DiffMemcpy&) const = default;
};

struct DiffPhase {
  std::string phase;
  int64_t base_ranges = 0, new_ranges = 0, base_wall_ns = 0, new_wall_ns = 0, base_gpu_ns = 0, new_gpu_ns = 0;
  std::optional<double> base_coverage, new_coverage;
  static constexpr auto WireFields() {
    using S = DiffPhase;
    return std::tuple{OptionalField("phase", &S::phase),           OptionalField("baseRanges", &S::base_ranges),
                      OptionalField("newRanges", &S::new_ranges),  OptionalField("baseWallNs", &S::base_wall_ns),
                      OptionalField("newWallNs", &S::new_wall_ns), OptionalField("baseGpuNs", &S::base_gpu_ns),
                      OptionalField("newGpuNs", &S::new_gpu_ns),   Field("baseCoverage", &S::base_coverage),
                      Field("newCoverage", &S::new_coverage)};
  }
  bool operator==(const DiffPhase&) const = default;
};

struct DiffIterations {
  int64_t count = 0;
  std::string method;
  std::optional<double> median_ns, robust_sd_ns, median_kernels, median_gpu_busy_ns;
  std::optional<double> median_kernel_ns, robust_sd_kernel_ns;
  static constexpr auto WireFields() {
    using S = DiffIterations;
    return std::tuple{OptionalField("count", &S::count),
                      OptionalField("method", &S::method),
                      Field("medianNs", &S::median_ns),
                      Field("robustSdNs", &S::robust_sd_ns),
                      Field("medianKernels", &S::median_kernels),
                      Field("medianGpuBusyNs", &S::median_gpu_busy_ns),
                      Field("medianKernelNs", &S::median_kernel_ns),
                      Field("robustSdKernelNs", &S::robust_sd_kernel_ns)};
  }
  bool operator==(const DiffIterations&) const = default;
};

struct DiffHeadline {
  std::string metric;
  double base_ns = 0, new_ns = 0;
  std::optional<double> change_pct;
  double noise_floor_pct = 0;
  std::string noise_floor_reason;
  std::string measure;  // "step" | "gpu" | "kernel:NAME"
  std::optional<double> rank_p;
  std::optional<double> significant_change_pct;  // the base's mix only
  std::string verdict;                           // this measure's own: "improved" | "regressed" | "neutral"
  static constexpr auto WireFields() {
    using S = DiffHeadline;
    return std::tuple{OptionalField("metric", &S::metric),
                      OptionalField("baseNs", &S::base_ns),
                      OptionalField("newNs", &S::new_ns),
                      Field("changePct", &S::change_pct),
                      OptionalField("noiseFloorPct", &S::noise_floor_pct),
                      OptionalField("noiseFloorReason", &S::noise_floor_reason),
                      OptionalField("measure", &S::measure),
                      Field("rankP", &S::rank_p),
                      Field("significantChangePct", &S::significant_change_pct),
                      OptionalField("verdict", &S::verdict)};
  }
  bool operator==(const DiffHeadline&) const = default;
};

struct DiffComparability {
  double score = 0;
  std::string label;  // "comparable" | "partly comparable" | "not comparable"
  std::vector<std::string> reasons;
  double shared_kernel_time = 0;
  double window_ratio = 0;
  bool same_devices = false;
  static constexpr auto WireFields() {
    using S = DiffComparability;
    return std::tuple{OptionalField("score", &S::score),
                      OptionalField("label", &S::label),
                      OptionalField("reasons", &S::reasons),
                      OptionalField("sharedKernelTime", &S::shared_kernel_time),
                      OptionalField("windowRatio", &S::window_ratio),
                      OptionalField("sameDevices", &S::same_devices)};
  }
  bool operator==(const DiffComparability&) const = default;
};

struct DiffResult {
  std::string verdict;  // "improved" | "regressed" | "neutral"
  std::string base_path, new_path;
  DiffComparability comparability;
  std::optional<DiffHeadline> headline;  // absent when nothing could be compared
  std::optional<DiffHeadline> per_call;
  std::vector<DiffHeadline> measures;  // every measure the verdict covers, each with its own verdict
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
  std::optional<MappingCoverage> base_coverage, new_coverage;
  std::optional<double> coverage_change;
  Answer answer;
  std::string markdown;
  static constexpr auto WireFields() {
    using S = DiffResult;
    return std::tuple{OptionalField("verdict", &S::verdict),
                      OptionalField("basePath", &S::base_path),
                      OptionalField("newPath", &S::new_path),
                      OptionalField("comparability", &S::comparability),
                      Field("headline", &S::headline),
                      Field("perCall", &S::per_call),
                      OptionalField("measures", &S::measures),
                      OptionalField("baseIterations", &S::base_iterations),
                      OptionalField("newIterations", &S::new_iterations),
                      OptionalField("kernels", &S::kernels),
                      OptionalField("kernelCounts", &S::kernel_counts),
                      OptionalField("ranges", &S::ranges),
                      OptionalField("rangeCounts", &S::range_counts),
                      OptionalField("devices", &S::devices),
                      OptionalField("memcpy", &S::memcpy),
                      OptionalField("phases", &S::phases),
                      OptionalField("notes", &S::notes),
                      Field("baseCoverage", &S::base_coverage),
                      Field("newCoverage", &S::new_coverage),
                      Field("coverageChange", &S::coverage_change),
                      OptionalField("answer", &S::answer),
                      OptionalField("markdown", &S::markdown)};
  }
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
struct DiffArgs : DiffParams {  // diff: nsys/diff's params
  static constexpr auto Fields() { return ParamsArgs<DiffParams>(); }
  bool operator==(const DiffArgs&) const = default;
};
void FromJson(const Json& json, DiffArgs& out, const std::string& path);
}  // namespace mcp

}  // namespace nsys::protocol
