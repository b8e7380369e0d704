#pragma once
// Diff of two profiles: what changed between a base run and a new run, compared per call and per
// iteration rather than by raw totals (two captures of one job rarely hold the same amount of work: the mfu_2gpu
// pair are equal 300 ms windows holding 32 and 28 iterations). Everything is read through each profile's
// SkillRunner (top_kernels, nvtx_summary, iterations, stream_concurrency, gpu_idle_gaps, nccl_breakdown,
// memory_transfers, phases), so every number is a skill row a user can reproduce.
//
// The verdict covers two measures: the step time (the median iteration time) and the GPU work per step
// (the median of each iteration's summed kernel time), when both profiles have comparable iterations (same kernels
// per iteration); without them, the GPU work is the kernel time of the base's calls at the new per-call durations.
// `DiffOptions::metric` picks one measure instead ("step", "gpu" or "kernel:NAME"). A measure regresses (or
// improves) when its change passes its noise floor AND a Mann-Whitney rank test of its samples (the iterations'
// values; a kernel's per-call durations) says the two distributions differ: the spread of different calls inside
// one profile never hides a shift that hits every call. Each floor is never below DiffOptions::min_noise_floor_pct.
// The comparability score (0..1) says whether the two profiles show the same work.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/nvtx_coverage.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::agent {

struct DiffOptions {
  size_t max_rows = 15;              // kernels and NVTX ranges listed per presence class (0 = all)
  std::string phase_map;             // JSON text for the `phases` skill; empty = no phase table
  double min_noise_floor_pct = 1.0;  // the verdict's noise floor is never below this (run-to-run jitter)
  double comparable_score = 0.7;     // at or above: "comparable"
  double incomparable_score = 0.4;   // below: "not comparable", and the verdict is neutral whatever changed
  // The measures the verdict covers: "" = the step time and the GPU work per step; "step"; "gpu"; "kernel:NAME"
  // (the per-call time of the kernels whose short or demangled name is NAME, else contains it).
  std::string metric;
  double measure_alpha = 0.01;  // a measure's rank test must reach p below this
  double kernel_alpha = 0.001;  // one kernel's or range's rank test (many are tested at once)
};

// Checks `metric` ("", "step", "gpu" or "kernel:NAME" with a non-empty NAME); kInvalidArgument naming the forms.
Status CheckDiffMetric(const std::string& metric);

enum class Verdict { kImproved, kRegressed, kNeutral };
std::string_view VerdictName(Verdict v);  // "improved", "regressed", "neutral"

enum class Presence { kBoth, kAppeared, kDisappeared };
std::string_view PresenceName(Presence p);  // "both", "appeared", "disappeared"

// One kernel (matched by demangled name) or NVTX range (matched by name and style) in the two profiles. Per-call
// figures are averages; per-iteration figures divide the total by the profile's iterations (device-iterations:
// one per device per step) and are NaN when that profile has none. Absent on one side: that side's counts are 0
// and its averages NaN.
struct ItemDelta {
  std::string name;
  std::string short_name;  // kernels: the short (base) name; ranges: the style ("PushPop", "StartEnd")
  Presence presence = Presence::kBoth;
  int64_t base_calls = 0, new_calls = 0;
  int64_t base_total_ns = 0, new_total_ns = 0;
  double base_avg_ns = 0, new_avg_ns = 0;
  double per_call_pct = 0;           // (new_avg - base_avg) / base_avg * 100; NaN unless in both
  double base_per_iteration_ns = 0;  // total / iterations
  double new_per_iteration_ns = 0;
  double base_calls_per_iteration = 0, new_calls_per_iteration = 0;
  // (new_avg - base_avg) * base_calls: what the base's calls would cost more (or less) at the new speed. Ranks
  // the shared rows. For appeared/disappeared rows: +new_total / -base_total.
  double impact_ns = 0;
  // 2 standard errors of the difference of the two means, from the per-call spread (stddev_ns / sqrt(calls) on
  // each side), as a share of base_avg; NaN unless in both. Informative only: a kernel launched with several shapes
  // has a wide spread, so this is not what decides `beyond_noise`.
  double noise_pct = 0;
  // Kernels: the Mann-Whitney p-value of the two profiles' per-call durations; NaN unless in both (and for ranges,
  // which are judged by noise_pct).
  double rank_p = 0;
  // Kernels: rank_p < DiffOptions::kernel_alpha and |per_call_pct| >= min_noise_floor_pct. Ranges: |per_call_pct|
  // > noise_pct.
  bool beyond_noise = false;
};

struct PresenceCounts {
  int64_t both = 0, appeared = 0, disappeared = 0;
};

// Per device id (process ids differ between runs; devices are what a job keeps).
struct DeviceDelta {
  int32_t device_id = 0;
  bool in_base = false, in_new = false;
  int64_t base_span_ns = 0, new_span_ns = 0;      // first op start to last op end (stream_concurrency)
  int64_t base_idle_ns = 0, new_idle_ns = 0;      // no stream busy within the span
  double base_idle_pct = 0, new_idle_pct = 0;     // of the span
  int64_t base_long_gaps = 0, new_long_gaps = 0;  // idle gaps over 1 ms (gpu_idle_gaps)
  int64_t base_long_gap_ns = 0, new_long_gap_ns = 0;
  bool has_comm = false;  // NCCL kernels on either side (nccl_breakdown)
  int64_t base_comm_ns = 0, new_comm_ns = 0;
  double base_overlap_pct = 0, new_overlap_pct = 0;  // communication overlapped by compute
  int64_t base_exposed_ns = 0, new_exposed_ns = 0;   // communication not hidden by compute
};

struct MemcpyDelta {
  std::string operation;  // memory_transfers' operation ("[CUDA memcpy HtoD]", "[CUDA memset]")
  int64_t base_count = 0, new_count = 0;
  int64_t base_bytes = 0, new_bytes = 0;
  int64_t base_total_ns = 0, new_total_ns = 0;
  double base_per_iteration_ns = 0, new_per_iteration_ns = 0;  // NaN without iterations
};

struct PhaseDelta {
  std::string phase;
  int64_t base_ranges = 0, new_ranges = 0;
  int64_t base_wall_ns = 0, new_wall_ns = 0;
  int64_t base_gpu_ns = 0, new_gpu_ns = 0;
  double base_coverage = 0, new_coverage = 0;
};

struct IterationStats {
  int64_t count = 0;          // device-iterations found by the `iterations` skill
  std::string method;         // "marker" / "kernel_period", from its rows' notes; empty when none
  double median_ns = 0;       // of duration_ns (NaN when none)
  double robust_sd_ns = 0;    // 1.4826 x the median absolute deviation
  double median_kernels = 0;  // kernels per iteration
  double median_gpu_busy_ns = 0;
  double median_kernel_ns = 0;               // of kernel_ns: the summed kernel time of an iteration (its GPU work)
  double robust_sd_kernel_ns = 0;            // 1.4826 x its median absolute deviation
  std::vector<double> durations, kernel_ns;  // every iteration's, for the rank tests (not in the wire form)
};

// One measure the verdict covers.
struct Headline {
  // "median iteration time", "median GPU work per iteration", "kernel time per call (the base's mix)" or
  // "time per call of NAME"
  std::string metric;
  std::string measure;  // the --metric name it answers to: "step", "gpu" or "kernel:NAME"
  double base_ns = 0, new_ns = 0;
  double change_pct = 0;  // (new - base) / base * 100; positive = slower
  double noise_floor_pct = 0;
  std::string noise_floor_reason;  // how the floor was derived, with its figures
  // The rank test behind the verdict: the iterations' values, the kernel's per-call durations, or (the base's mix)
  // van Elteren's test stratified by kernel. NaN when no test could be run. rank_z > 0: the new values rank higher.
  double rank_p = 0;
  double rank_z = 0;
  // The base's mix only: the change counted from the kernels whose own rank test passes kernel_alpha. The mix
  // changes beyond noise when its change passes the floor and either this does too or the stratified test passes
  // measure_alpha in the same direction (one kernel's shift is diluted in the stratified test; many kernels' small
  // samples are not enough for their own tests).
  double significant_change_pct = 0;
  Verdict verdict = Verdict::kNeutral;  // this measure's own verdict
};

struct Comparability {
  double score = 0;                  // 0..1
  std::string label;                 // "comparable", "partly comparable", "not comparable"
  std::vector<std::string> reasons;  // one sentence per factor, with its figure
  double shared_kernel_time = 0;     // time-weighted share of kernel time in kernels both profiles have
  double window_ratio = 0;           // shorter / longer profile duration
  bool same_devices = false;         // same device ids (and models when both exports name them)
};

struct DiffReport {
  std::string base_path, new_path;
  Comparability comparability;
  IterationStats base_iterations, new_iterations;
  // The measure the verdict names: the first that regressed, else the first that improved, else the first judged.
  Headline headline;
  std::optional<Headline> per_call;     // the per-call kernel measure, when the headline is the iteration time
  std::vector<Headline> measures;       // every measure the verdict covers, each with its own verdict
  Verdict verdict = Verdict::kNeutral;  // regressed when any measure regressed; improved when any improved and none
                                        // regressed
  std::vector<ItemDelta> kernels;       // shared (by |impact|), then appeared, then disappeared (by total), each capped
  PresenceCounts kernel_counts;
  std::vector<ItemDelta> ranges;  // NVTX ranges, the same order
  PresenceCounts range_counts;
  std::vector<DeviceDelta> devices;
  std::vector<MemcpyDelta> memcpy;
  std::vector<PhaseDelta> phases;  // with DiffOptions::phase_map
  std::vector<std::string> notes;  // what could not be compared and why
  // Each profile's NVTX mapping coverage (skills/nvtx_coverage.h), filled by core's Workspace::Diff when
  // both profiles have kernels.
  std::optional<skills::NvtxCoverage> base_coverage, new_coverage;
  Answer answer;         // the verdict in the one answer shape
  std::string markdown;  // the whole report for terminals and editors
};

// The diff of `base` and `after`, each read through its runner. kCancelled when cancelled; kInvalidArgument for a
// bad phase map; a skill that declines (data absent) only leaves its part out, with a note.
Expected<DiffReport> Diff(const engine::Profile& base, const SkillRunner& base_run, const engine::Profile& after,
                          const SkillRunner& after_run, const DiffOptions& options, const CancelToken& cancel);

}  // namespace nsys::agent
