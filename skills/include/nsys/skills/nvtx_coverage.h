#pragma once
// How much kernel time an NVTX annotation maps one-to-one onto kernels: the share of all kernel time (kernels
// starting in the filter window) launched inside an innermost range (no nested range of it launches a kernel) whose
// every instance in the window launches exactly one kernel. Computed by the same pass as the nvtx_range_kernels
// skill, so core can report it beside profile info.
#include <cstdint>

#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills {

struct NvtxCoverage {
  int64_t kernel_ns_total = 0;  // summed duration of the kernels starting in the window (device/process filters)
  int64_t mapped_ns = 0;        // of which launched inside an innermost one-kernel-per-call range
  double share = 0;             // mapped_ns / kernel_ns_total; 0 without kernels
};

// Needs engine::Need::kAttribution loaded. A profile without NVTX ranges or kernels gives share 0.
Expected<NvtxCoverage> ComputeNvtxCoverage(const engine::Profile& profile, const engine::Filter& filter,
                                           const CancelToken& cancel);

}  // namespace nsys::skills
