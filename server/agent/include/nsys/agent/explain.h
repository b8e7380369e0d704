#pragma once
// Explain one kernel, for editor hovers: what it is (decoded from its name), its numbers in this profile (calls, GPU
// time and share per device, p50/p90, launch overhead, launch configuration, an occupancy estimate when the GPU's
// limits are in the export), the NVTX ranges that launch it, and what to look at. Cheap by design: one pass over the
// kernel table's columns plus the memoised nvtx_kernel_map result (warmed by long-lived front ends), so a hover is
// answered in milliseconds once the profile is loaded.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/agent/skill_runner.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/kernel_names.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::agent {

struct KernelDeviceStats {
  int32_t device = 0;
  int64_t calls = 0;
  int64_t total_ns = 0;
  double share = 0;  // of the device's summed kernel time (0..1)
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
};

// The launch calls of the kernel's executions (same process, same correlation id).
struct KernelLaunchOverhead {
  int64_t launched = 0;      // executions with a launch call in the export
  std::string api;           // the most used launch API ("cudaLaunchKernel")
  int64_t api_p50_ns = 0;    // launch call duration
  int64_t queue_p50_ns = 0;  // kernel start minus the call's end, over launches where it is not negative
};

struct KernelLaunchConfig {
  std::array<int32_t, 3> grid{}, block{};
  int32_t registers_per_thread = 0;
  int32_t static_shared_bytes = 0;
  int32_t dynamic_shared_bytes = 0;
  int64_t calls = 0;  // executions with this configuration
};

// Theoretical occupancy of the most used configuration on its GPU (CUDA occupancy rules: warps, registers, shared
// memory and blocks per SM), and how the grid fills the GPU.
struct KernelOccupancy {
  int32_t device = 0;
  std::string gpu;
  double occupancy = 0;  // active warps / max warps per SM (0..1)
  int32_t blocks_per_sm = 0;
  int32_t warps_per_block = 0;
  std::string limited_by;  // "registers", "shared memory", "warps", "blocks per SM"
  int32_t sm_count = 0;
  int64_t grid_blocks = 0;
  double waves = 0;  // grid blocks / (blocks per SM x SMs)
};

struct KernelNvtxRange {
  std::string range;
  int64_t calls = 0;  // kernel executions launched inside the range
  int64_t total_ns = 0;
};

struct KernelExplanation {
  std::string kernel;  // the demangled name (the one with the most time when several matched)
  std::string short_name;
  std::string matched_by;             // "name", "short name" or "substring"
  std::vector<std::string> variants;  // the demangled names explained together (more than one for a short name)
  skills::KernelIdentity identity;
  int64_t calls = 0;
  int64_t total_ns = 0;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  std::vector<KernelDeviceStats> devices;  // by device id
  // Launch overhead and configurations are read from this many executions, spread evenly over all of them (all of
  // them up to 4096): the per-execution lookups they need would otherwise cost more than a hover may.
  int64_t sampled_calls = 0;
  std::optional<KernelLaunchOverhead> launch;
  std::string launch_note;  // without `launch`: what is known of the launches (a CUDA graph's launch calls), or ""
  std::vector<KernelLaunchConfig> configs;  // most used first, at most 3
  int64_t distinct_configs = 0;
  std::optional<KernelOccupancy> occupancy;
  std::string occupancy_note;         // why there is no estimate, when there is none
  std::vector<KernelNvtxRange> nvtx;  // by time, at most 5
  std::string nvtx_note;              // what the NVTX attribution rests on, or why there is none
  std::vector<std::string> look_at;   // what to look at, most important first
  std::string verify;                 // a runnable command that shows the same kernel's numbers
  std::string markdown;
};

// A CUDA graph's name as the timeline writes it ("CUDA graph 7") explains that graph's launches instead: their count
// and durations, per device and NVTX range, how nsys recorded them, and the launch calls' host time.
// kNotFound "no kernel named 'X' in this profile; closest: a, b, c" when nothing matches; kInvalidArgument when a
// substring matches several kernels (naming some) or the name is empty; kUnsupported when the profile has no
// kernels. `profile_path` goes into the verify command.
Expected<KernelExplanation> ExplainKernel(const engine::Profile& profile, const SkillRunner& run,
                                          const std::string& kernel, const CancelToken& cancel,
                                          const std::string& profile_path = {});

// The Markdown of an explanation (also in KernelExplanation::markdown).
std::string RenderExplanationMarkdown(const KernelExplanation& e);

}  // namespace nsys::agent
