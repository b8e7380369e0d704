// Test data for the source mapping: a small C++ file written for these tests, whose scope macros name
// ranges recorded in h200_nvfuser_nvtx.sqlite (nvFuser's FUSER_PERF_SCOPE ranges). It is never compiled.
#include <cstdint>

#define FUSER_PERF_SCOPE(name) ScopedRange _scoped_range(name)

struct ScopedRange {
  explicit ScopedRange(const char* name);
  ~ScopedRange();
};

void runFusion(int64_t segments) {
  FUSER_PERF_SCOPE("KernelExecutor::runFusion");
  for (int64_t i = 0; i < segments; ++i) {
    FUSER_PERF_SCOPE("ExecutorRunFusion::cuLaunchKernel");
    launchSegment(i);
  }
}

void allocateIntermediates(int64_t bytes) {
  FUSER_PERF_SCOPE("KernelExecutor::runFusion::intermediates");
  zeroBuffer(bytes);
  fillBuffer(bytes);
}
