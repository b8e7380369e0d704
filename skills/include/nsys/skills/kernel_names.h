#pragma once
// What a CUDA kernel is, read from its demangled name: which library wrote it (cuBLAS, CUTLASS, FlashAttention,
// NCCL, cuDNN, PyTorch, Triton, nvFuser, ...), what kind of work it does, in which precision, with which tile, and
// whether it runs on tensor cores. Names are all a profile says about library kernels, and libraries encode these
// facts in them by convention; the decoder is a table of those conventions (kernel_names.cpp), so a new family is one
// row. A name no row knows decodes to an empty library and category "other": the caller says "unknown", never
// guesses.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/support/cancel.h"

namespace nsys::skills {

struct KernelIdentity {
  std::string library;    // "cuBLAS", "cuBLASLt", "CUTLASS", "FlashAttention", "NCCL", "cuDNN", "PyTorch", ... or ""
  std::string category;   // "gemm", "conv", "attention", "elementwise", "reduction", "softmax", "norm",
                          // "collective", "copy", "fft", "other"
  std::string operation;  // "AllReduce", "fwd", "bwd", "add", "split-K reduce", ... or ""
  std::string precision;  // "fp16", "bf16", "fp32", "tf32", "fp8", "int8", "fp64", "int64", ... or "" (unknown)
  std::string tile;       // "128x256x64" (M x N x K), "128x64" when the name gives two sizes, or ""
  std::optional<bool> tensor_cores;  // unset when the name does not say
  std::string summary;               // one line: "cuBLAS GEMM, bf16, tile 192x192x64, on tensor cores"
};

KernelIdentity DecodeKernelName(std::string_view demangled);

// Every library the decoder can name (KernelIdentity::library), as it spells them: the words a question may use for
// a family of kernels ("the cuFFT kernels", "XLA's fusions").
std::span<const std::string_view> KernelLibraries();

// "yes", "no" or "unknown", as tables and Markdown print KernelIdentity::tensor_cores.
std::string_view TensorCoreWord(const std::optional<bool>& tensor_cores);

// What a GPU offers a kernel (TARGET_INFO_GPU): what tensor cores it has and the per-SM limits an occupancy estimate
// needs. Zero means the export does not say.
struct GpuArch {
  int32_t device = 0;
  std::string name;
  int32_t compute_major = 0, compute_minor = 0;
  int32_t sm_count = 0;
  int32_t max_warps_per_sm = 0, max_blocks_per_sm = 0;
  int32_t max_registers_per_sm = 0;
  int64_t max_shared_memory_per_sm = 0;  // bytes
  int32_t warp_size = 32;
};

// The GPUs of the export with their limits (one small query of TARGET_INFO_GPU). What that table does not say (exports
// before 2021 name fewer columns) comes from the profile's devices (TARGET_INFO_CUDA_GPU, or the GPU's model) and
// the per-SM limits of their compute capability; empty when the export names no GPU.
std::vector<GpuArch> ReadGpuArch(const engine::Profile& profile, const CancelToken& cancel);

// "has tensor cores (compute capability 8.0: FP16, BF16, TF32, INT8, FP64)" and the like, for notes.
std::string TensorCoreSupport(const GpuArch& gpu);

}  // namespace nsys::skills
