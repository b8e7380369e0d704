#pragma once
// What the editor needs of a profile's NVTX ranges besides the nvtx_range_kernels skill's rows, to lead from a
// kernel to its source: per range label its longest instance (to reveal it), and its kernels (calls, GPU time,
// per-launch percentiles); per kernel the stacks of ranges around its launches, innermost first, so that a caller can
// find the innermost range a source tree annotates. Labels are nvtx_range_kernels' (NvtxLabels, PyTorch's op ids
// grouped) and kernels are placed in ranges with the same stack (common_nvtx_stack.h). The whole profile, no filter.
#include <cstdint>
#include <string>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills {

struct NvtxRangeBreakdown {
  struct RangeKernel {
    int32_t kernel = 0;  // index into kernels
    int64_t calls = 0;   // launches inside the range's instances
    int64_t gpu_ns = 0;
    int64_t p50_ns = 0;  // per launch, nearest rank; 0 when !percentiles
    int64_t p90_ns = 0;
  };
  struct Range {
    std::string label;  // as nvtx_range_kernels names it ("<domain>:<text>" when its domain has a name)
    std::string text;   // the range's own text (without the domain prefix; PyTorch's op id dropped)
    int64_t instances = 0;
    int64_t threads = 0;
    int64_t wall_ns = 0;
    engine::Ns longest_start = 0, longest_end = 0;  // the longest instance (the first of equals)
    std::vector<RangeKernel> kernels;               // most GPU time first
  };
  struct Kernel {
    std::string short_name;
    std::vector<std::string> names;  // the demangled names under this short name
    int64_t calls = 0;               // every launch in the profile
    int64_t gpu_ns = 0;
  };
  struct Stack {
    int32_t kernel = 0;           // index into kernels
    std::vector<int32_t> ranges;  // labels around the launch, innermost (latest start) first, each once
    int64_t calls = 0;
    int64_t gpu_ns = 0;
  };

  bool nvtx_data = false;
  bool kernel_data = false;  // kernels and runtime calls (launches) present
  bool percentiles = false;  // RangeKernel p50/p90 computed (not past kMaxPercentileSamples)
  // Launches inside more than builtin::kMaxEnclosingRanges (256) ranges: each counted in its 256 innermost only.
  int64_t deep_launches = 0;
  std::vector<Range> ranges;  // by label id
  std::vector<Kernel> kernels;
  std::vector<Stack> stacks;
};

// Per-launch percentiles keep one duration per (launch, enclosing range): past this many the pass skips them.
inline constexpr size_t kMaxPercentileSamples = 16u << 20;

// Needs engine::Need::kNvtx loaded, and kAttribution when the profile has kernels and runtime calls. A profile
// without NVTX ranges gives an empty breakdown (nvtx_data false).
Expected<NvtxRangeBreakdown> ComputeNvtxRangeBreakdown(const engine::Profile& profile, const CancelToken& cancel);

}  // namespace nsys::skills
