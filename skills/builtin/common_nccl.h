#pragma once
// Communication-kernel recognition shared by nccl_breakdown and any skill that splits GPU time into
// compute and communication.
#include <cstdint>
#include <string>
#include <string_view>

#include "common_gpu_ops.h"

namespace nsys::skills::builtin {

// Collective kinds parsed from kernel names. kNone = not a communication kernel.
enum class Collective : uint8_t {
  kNone = 0,
  kAllReduce,
  kReduceScatter,
  kAllGather,
  kAllToAll,
  kSendRecv,
  kSend,
  kRecv,
  kBroadcast,
  kReduce,
  kGeneric,  // ncclDevKernel_Generic and other NCCL kernels that do not name their collective
  kCount
};

// Per-collective slots: one for each kind, then kAllComm for every communication kernel together.
inline constexpr size_t kKinds = static_cast<size_t>(Collective::kCount);
inline constexpr size_t kAllComm = kKinds;

const char* CollectiveName(Collective c);

// A kernel is communication when its name (short or demangled, "void " and namespaces ignored) starts with
// nccl, rccl or hccl (any case): ncclDevKernel_*, ncclKernel_*, ncclAllReduceRingLLKernel..., rccl*, hccl*.
// Returns the collective parsed from the rest of the name, kGeneric when none is named.
Collective ClassifyCommKernel(std::string_view name);

// Classifies kernel rows, caching per name id: the short name first, then the demangled name (a short name like
// "SendRecv" does not start with nccl when the demangled one does).
class CommKernelClassifier {
 public:
  explicit CommKernelClassifier(const engine::StringPool& strings)
      : classify_(strings, [](std::string_view n) -> uint8_t { return static_cast<uint8_t>(ClassifyCommKernel(n)); }) {}
  Collective Of(const engine::KernelTable& k, size_t row) {
    const uint8_t kind = classify_(k.short_name[row]);
    return static_cast<Collective>(kind != 0 ? kind : classify_(k.name[row]));
  }

 private:
  NameClassCache classify_;
};

// The name patterns, stated in notes so that a miss is visible rather than silent.
inline constexpr const char* kCommPatternsNote =
    "Communication kernels are those whose name starts with nccl, rccl or hccl (any case; e.g. ncclDevKernel_*, "
    "ncclKernel_*); the collective is parsed from the name (AllReduce, ReduceScatter, AllGather, AllToAll, "
    "SendRecv, Send, Recv, Broadcast, Reduce; Generic when the name does not say).";

}  // namespace nsys::skills::builtin
