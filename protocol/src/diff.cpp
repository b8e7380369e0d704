#include "nsys/protocol/diff.h"

#include "json_read.h"

namespace nsys::protocol {

namespace {

// Each result shape lists its members once (name on the wire, member); writing and reading both walk the list.
// Optional members are left out when absent and read as absent when null.
struct Writer {
  Json& j;
  template <typename T>
  void operator()(const char* key, const std::optional<T>& value) const {
    if (value) j[key] = *value;
  }
  template <typename T>
  void operator()(const char* key, const T& value) const {
    j[key] = value;
  }
};

struct Reader {
  const ObjectReader& r;
  template <typename T>
  void operator()(const char* key, std::optional<T>& value) const {
    r.Optional(key, value);
  }
  template <typename T>
  void operator()(const char* key, T& value) const {
    r.OptionalOr(key, value);
  }
};

template <typename S, typename V>
void Fields(S& s, V&& f) {
  if constexpr (std::is_same_v<std::remove_const_t<S>, DiffItem>) {
    f("name", s.name), f("shortName", s.short_name), f("presence", s.presence), f("baseCalls", s.base_calls);
    f("newCalls", s.new_calls), f("baseTotalNs", s.base_total_ns), f("newTotalNs", s.new_total_ns);
    f("baseAvgNs", s.base_avg_ns), f("newAvgNs", s.new_avg_ns), f("perCallPct", s.per_call_pct);
    f("basePerIterationNs", s.base_per_iteration_ns), f("newPerIterationNs", s.new_per_iteration_ns);
    f("baseCallsPerIteration", s.base_calls_per_iteration), f("newCallsPerIteration", s.new_calls_per_iteration);
    f("impactNs", s.impact_ns), f("noisePct", s.noise_pct), f("rankP", s.rank_p), f("beyondNoise", s.beyond_noise);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffCounts>) {
    f("both", s.both), f("appeared", s.appeared), f("disappeared", s.disappeared);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffDevice>) {
    f("deviceId", s.device_id), f("inBase", s.in_base), f("inNew", s.in_new), f("baseSpanNs", s.base_span_ns);
    f("newSpanNs", s.new_span_ns), f("baseIdleNs", s.base_idle_ns), f("newIdleNs", s.new_idle_ns);
    f("baseIdlePct", s.base_idle_pct), f("newIdlePct", s.new_idle_pct), f("baseLongGaps", s.base_long_gaps);
    f("newLongGaps", s.new_long_gaps), f("baseLongGapNs", s.base_long_gap_ns), f("newLongGapNs", s.new_long_gap_ns);
    f("hasComm", s.has_comm), f("baseCommNs", s.base_comm_ns), f("newCommNs", s.new_comm_ns);
    f("baseOverlapPct", s.base_overlap_pct), f("newOverlapPct", s.new_overlap_pct);
    f("baseExposedNs", s.base_exposed_ns), f("newExposedNs", s.new_exposed_ns);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffMemcpy>) {
    f("operation", s.operation), f("baseCount", s.base_count), f("newCount", s.new_count);
    f("baseBytes", s.base_bytes), f("newBytes", s.new_bytes), f("baseTotalNs", s.base_total_ns);
    f("newTotalNs", s.new_total_ns), f("basePerIterationNs", s.base_per_iteration_ns);
    f("newPerIterationNs", s.new_per_iteration_ns);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffPhase>) {
    f("phase", s.phase), f("baseRanges", s.base_ranges), f("newRanges", s.new_ranges);
    f("baseWallNs", s.base_wall_ns), f("newWallNs", s.new_wall_ns), f("baseGpuNs", s.base_gpu_ns);
    f("newGpuNs", s.new_gpu_ns), f("baseCoverage", s.base_coverage), f("newCoverage", s.new_coverage);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffIterations>) {
    f("count", s.count), f("method", s.method), f("medianNs", s.median_ns), f("robustSdNs", s.robust_sd_ns);
    f("medianKernels", s.median_kernels), f("medianGpuBusyNs", s.median_gpu_busy_ns);
    f("medianKernelNs", s.median_kernel_ns), f("robustSdKernelNs", s.robust_sd_kernel_ns);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffHeadline>) {
    f("metric", s.metric), f("baseNs", s.base_ns), f("newNs", s.new_ns), f("changePct", s.change_pct);
    f("noiseFloorPct", s.noise_floor_pct), f("noiseFloorReason", s.noise_floor_reason);
    f("measure", s.measure), f("rankP", s.rank_p), f("significantChangePct", s.significant_change_pct);
    f("verdict", s.verdict);
  } else if constexpr (std::is_same_v<std::remove_const_t<S>, DiffComparability>) {
    f("score", s.score), f("label", s.label), f("reasons", s.reasons), f("sharedKernelTime", s.shared_kernel_time);
    f("windowRatio", s.window_ratio), f("sameDevices", s.same_devices);
  } else {
    static_assert(std::is_same_v<std::remove_const_t<S>, DiffResult>);
    f("verdict", s.verdict), f("basePath", s.base_path), f("newPath", s.new_path);
    f("comparability", s.comparability), f("headline", s.headline), f("perCall", s.per_call);
    f("measures", s.measures);
    f("baseIterations", s.base_iterations), f("newIterations", s.new_iterations), f("kernels", s.kernels);
    f("kernelCounts", s.kernel_counts), f("ranges", s.ranges), f("rangeCounts", s.range_counts);
    f("devices", s.devices), f("memcpy", s.memcpy), f("phases", s.phases), f("notes", s.notes);
    f("baseCoverage", s.base_coverage), f("newCoverage", s.new_coverage), f("coverageChange", s.coverage_change);
    f("answer", s.answer), f("markdown", s.markdown);
  }
}

template <typename T>
void Write(Json& j, const T& v) {
  j = Json::object();
  Fields(v, Writer{j});
}

template <typename T>
void Read(const Json& j, T& out, const std::string& path) {
  ObjectReader r(j, path);
  Fields(out, Reader{r});
}

}  // namespace

void FromJson(const Json& j, DiffParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("baseProfileId", out.base_profile_id);
  r.Required("newProfileId", out.new_profile_id);
  r.Optional("phaseMap", out.phase_map);
  r.Optional("maxRows", out.max_rows);
  r.Optional("metric", out.metric);
}
void to_json(Json& j, const DiffParams& v) {
  j = {{"baseProfileId", v.base_profile_id}, {"newProfileId", v.new_profile_id}};
  SetIfPresent(j, "phaseMap", v.phase_map);
  SetIfPresent(j, "maxRows", v.max_rows);
  SetIfPresent(j, "metric", v.metric);
}

#define NSYS_DIFF_BY_FIELDS(Type)                                    \
  void FromJson(const Json& j, Type& out, const std::string& path) { \
    Read(j, out, path);                                              \
  }                                                                  \
  void to_json(Json& j, const Type& v) {                             \
    Write(j, v);                                                     \
  }
NSYS_DIFF_BY_FIELDS(DiffItem)
NSYS_DIFF_BY_FIELDS(DiffCounts)
NSYS_DIFF_BY_FIELDS(DiffDevice)
NSYS_DIFF_BY_FIELDS(DiffMemcpy)
NSYS_DIFF_BY_FIELDS(DiffPhase)
NSYS_DIFF_BY_FIELDS(DiffIterations)
NSYS_DIFF_BY_FIELDS(DiffHeadline)
NSYS_DIFF_BY_FIELDS(DiffComparability)
NSYS_DIFF_BY_FIELDS(DiffResult)
#undef NSYS_DIFF_BY_FIELDS

}  // namespace nsys::protocol
