#pragma once
// Training-iteration detection, shared by the iterations and mfu skills: by an NVTX range/mark name, or,
// without one, by kernel periodicity.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common_intervals.h"
#include "nsys/skills/skill.h"

namespace nsys::skills::builtin {

struct Iteration {
  uint32_t pid = 0;       // marker mode: the process of the range; kernel mode: the process of the marker kernel
  int32_t device = -1;    // kernel mode: the device; marker mode: the only device of the kernels, else -1
  int64_t index = 0;      // 0-based within (pid, device)
  Ns start = 0, end = 0;  // marker mode: the CPU range (or mark to mark); kernel mode: marker kernel to next
  int64_t kernels = 0;    // kernels in the iteration
  Ns gpu_busy = 0;        // |∪ those kernels|
  Ns kernel_ns = 0;       // Σ those kernels' durations (overlapping kernels each count): the iteration's GPU work
  Ns gpu_start = 0, gpu_end = 0;  // first kernel start, last kernel end (0 when none)
};

// Iterations listed at most, over all devices and processes. A training step holds tens to thousands of kernels; past
// this many, the repeating unit is a layer or one kernel (2M short periodic kernels made 2M rows: 2 GB and 15 s).
// The first are kept (by marker: those that start first; by kernel periodicity: device by device, each in start order),
// and the notes say how many were found.
inline constexpr size_t kMaxIterations = 100000;

struct IterationResult {
  bool found = false;
  int64_t found_count = 0;            // iterations found, of which at most kMaxIterations are in `iterations`
  std::string method;                 // "nvtx_range", "nvtx_mark" or "kernel_period"
  std::string decline_reason;         // when !found
  std::vector<Iteration> iterations;  // sorted by (device, pid, start)
  std::vector<std::string> notes;     // how they were found, coverage
  // How far the iterations can be trusted as a steady loop: "high" for a marker; for kernel periodicity, from the
  // spacing's agreement and the share of the iterations' time in iterations within 3x the median ("low" when a few
  // iterations hold most of the time: autotuning, start-up, no loop at all). See IterationConfidence.
  std::string confidence;
  std::string confidence_reason;
};

// The confidence column's description, shared by the skills that list iterations.
inline constexpr const char* kConfidenceDoc =
    "That the iterations are the steps of a steady loop: high (a marker, or a steady kernel period), medium or low "
    "(a few iterations hold most of the time: autotuning, start-up, no loop); the same on every row";

// `marker` empty = kernel periodicity. Needs kernels, runtime and NVTX loaded.
Expected<IterationResult> DetectIterations(const Context& ctx, const std::string& marker);

// The median iteration duration in ns over all iterations (0 when none).
Ns MedianIterationNs(const std::vector<Iteration>& iterations);

}  // namespace nsys::skills::builtin
