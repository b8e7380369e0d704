#pragma once
// Links between tables: GPU op -> launching runtime call on (pid, correlationId), runtime call -> innermost
// enclosing push/pop NVTX range on its thread, and the coverage of those links. Private to the engine.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "nsys/engine/model.h"

namespace nsys::engine {

// (pid, correlationId) -> runtime row. correlationId is unique only within a process, so the pid is part of
// the key. Per pid, a vector sorted by correlationId (near-linear to build: calls are in time order and
// CUPTI numbers them in call order); lookups are a merge join of sorted lists, not a hash map of millions.
class LaunchIndex {
 public:
  explicit LaunchIndex(const RuntimeTable& runtime);
  // launch[i] = the runtime row of (pid[i], correlation[i]), or kNone.
  void Resolve(const Column<uint32_t>& pid, const Column<uint32_t>& correlation, Column<int32_t>& launch) const;

 private:
  struct Entry {
    uint32_t correlation;
    int32_t row;
  };
  std::unordered_map<uint32_t, std::vector<Entry>> by_pid_;
};

// runtime.nvtx[i] = the innermost push/pop range on the same (pid, tid) with start <= call.start and
// call.end <= end, or kNone. One sweep over both tables in time order, walking NVTX parent links.
void ResolveRuntimeNvtx(RuntimeTable& runtime, const NvtxTable& nvtx);

AttributionCoverage ComputeCoverage(const KernelTable& kernels, const RuntimeTable& runtime);

}  // namespace nsys::engine
