#include "common_gpu_peaks.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace nsys::skills::builtin {

const std::vector<GpuPeak>& GpuPeakTable() {
  // Dense BF16/FP16 tensor TFLOP/s, FP8 and TF32 where the project's reference (docs: analysis guide) lists
  // them, and memory bandwidth in GB/s. A100 40GB PCIe is from NVIDIA's A100 datasheet (same 312 TFLOP/s,
  // 1,555 GB/s as the 40GB SXM).
  static const std::vector<GpuPeak> kTable = {
      {"A100 40GB SXM", 312, 0, 0, 1555},
      {"A100 80GB SXM", 312, 0, 0, 2039},
      {"A100 40GB PCIe", 312, 0, 0, 1555},
      {"A100 80GB PCIe", 312, 0, 0, 1935},
      {"H100 SXM", 989, 1979, 495, 3350},
      {"H100 PCIe", 756, 0, 0, 2000},
      {"H100 NVL", 835, 0, 0, 3900},
      {"H200", 989, 0, 0, 4800},
      {"B200", 2250, 4500, 0, 7700},
      {"L40S", 362, 733, 0, 864},
      {"A10", 125, 0, 0, 600},
  };
  return kTable;
}

namespace {

std::vector<std::string> Tokens(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : name) {
    if (ch == ' ' || ch == '-' || ch == '_' || ch == '/' || ch == ',') {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

const GpuPeak* ByKey(std::string_view key) {
  for (const GpuPeak& p : GpuPeakTable()) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

}  // namespace

const GpuPeak* MatchGpuPeak(std::string_view name) {
  const std::vector<std::string> t = Tokens(name);
  auto has = [&](std::string_view tok) { return std::find(t.begin(), t.end(), tok) != t.end(); };
  auto has_prefix = [&](std::string_view prefix) {
    return std::any_of(t.begin(), t.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
  };
  const bool pcie = has("PCIE");
  const bool sxm = has_prefix("SXM");
  const bool nvl = has("NVL");
  if (has("H100")) {
    if (nvl) return ByKey("H100 NVL");
    if (pcie) return ByKey("H100 PCIe");
    if (sxm || has("HBM3")) return ByKey("H100 SXM");
    return nullptr;  // form factor unknown: SXM, PCIe and NVL peaks differ
  }
  if (has("H200")) return nvl ? nullptr : ByKey("H200");  // H200 NVL has lower clocks: not in the table
  if (has("B200")) return ByKey("B200");
  if (has("L40S")) return ByKey("L40S");
  if (has("A10")) return ByKey("A10");
  if (has("A100")) {
    const bool gb80 = has("80GB"), gb40 = has("40GB");
    if (gb80 == gb40) return nullptr;  // memory size unknown: the bandwidth would be a guess
    if (pcie) return ByKey(gb80 ? "A100 80GB PCIe" : "A100 40GB PCIe");
    if (sxm) return ByKey(gb80 ? "A100 80GB SXM" : "A100 40GB SXM");
    return nullptr;
  }
  return nullptr;
}

double PeakTflops(const GpuPeak& peak, std::string_view dtype) {
  if (dtype == "bf16" || dtype == "fp16") return peak.bf16_tflops;
  if (dtype == "fp8") return peak.fp8_tflops;
  if (dtype == "tf32") return peak.tf32_tflops;
  return 0;
}

}  // namespace nsys::skills::builtin
