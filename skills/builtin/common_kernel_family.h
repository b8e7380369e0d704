#pragma once
// Kernels of a family as the kernel-name decoder classifies them (DecodeKernelName), for the skills that select
// kernels by one (event_stats, launch_sizes): the `family` argument and its match.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/skill.h"

namespace nsys::skills::builtin {

// The `family` argument: words of a library, a kind of work or an operation, any case; "" = any kernel.
ArgSpec FamilyArg();

// Every word of `family` is the name's library ("FlashAttention", "cuBLAS", "cuFFT", "XLA"), its kind of work
// ("gemm", "attention", "fft") or its operation ("fwd"), any case. Each distinct name is decoded once.
class FamilyMatch {
 public:
  FamilyMatch(const engine::StringPool& strings, std::string_view family);
  bool operator()(engine::StrId id);

 private:
  const engine::StringPool& strings_;
  std::vector<std::string> words_;
  std::vector<int8_t> seen_;
};

}  // namespace nsys::skills::builtin
