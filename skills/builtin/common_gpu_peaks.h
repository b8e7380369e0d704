#pragma once
// A versioned table of dense GPU peaks (tensor TFLOP/s per dtype, memory bandwidth) for MFU/MBU, and the
// matching of Nsight's device names ("NVIDIA H100 80GB HBM3", "NVIDIA A100-PCIE-40GB") to its rows.
// Unknown names match nothing: callers decline rather than guess.
#include <string>
#include <string_view>
#include <vector>

namespace nsys::skills::builtin {

inline constexpr const char* kGpuPeakTableVersion = "gpu-peaks/2025-01 (dense figures; datasheets print sparse, 2x)";

struct GpuPeak {
  std::string key;         // "H100 SXM"
  double bf16_tflops = 0;  // dense BF16/FP16 tensor
  double fp8_tflops = 0;   // 0 = not in the table
  double tf32_tflops = 0;  // 0 = not in the table
  double memory_gbs = 0;   // GB/s
};

const std::vector<GpuPeak>& GpuPeakTable();

// The row for a device name or a user's GPU string ("H100 SXM", "a100 80gb pcie"), or nullptr.
const GpuPeak* MatchGpuPeak(std::string_view name);

// The dense peak for a dtype ("bf16", "fp16", "fp8", "tf32"); 0 when the table has no figure.
double PeakTflops(const GpuPeak& peak, std::string_view dtype);

}  // namespace nsys::skills::builtin
