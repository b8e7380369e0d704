#pragma once
// What a GPU model is, for exports that name the GPU but not its facts.
//
// Exports before 2021 (schema 3.0 and older conversions) often carry TARGET_INFO_GPU with a name and no smCount or
// compute capability, and some carry them only in TARGET_INFO_CUDA_GPU. Launch and tensor-core judgements need the
// SM count and the compute capability, so they come from the model's public specification when the export does not
// say (and every output says where they came from). The table covers NVIDIA's data-centre, workstation and GeForce
// GPUs from Pascal on; an unknown name gives nothing, never a guess.
#include <cstdint>
#include <optional>
#include <string_view>

namespace nsys::engine {

struct GpuModel {
  int32_t sm_count = 0;
  int32_t compute_major = 0, compute_minor = 0;
};

// The model of a GPU name as exports write it ("NVIDIA A100-SXM4-40GB", "Tesla T4", "GeForce GTX 1650",
// "NVIDIA GeForce RTX 4070 Laptop GPU"); nullopt for a name the table does not know. Case, vendor words
// (NVIDIA, GeForce, Tesla, Quadro), "GPU", dashes and memory or board suffixes (40GB, SXM4, HBM3) do not matter,
// except where they change the chip: "RTX 3080 12GB", "H100 PCIe" and laptop parts have their own entries.
std::optional<GpuModel> LookUpGpuModel(std::string_view name);

// Per-SM limits of a compute capability (CUDA C++ Programming Guide, "Technical Specifications per Compute
// Capability"): what an occupancy estimate needs. nullopt for a capability the table does not hold.
struct SmLimits {
  int32_t max_warps = 0, max_blocks = 0;
  int32_t max_registers = 0;
  int64_t max_shared_memory = 0;  // bytes
};
std::optional<SmLimits> SmLimitsOf(int32_t compute_major, int32_t compute_minor);

}  // namespace nsys::engine
