#pragma once
// The NVTX ranges that enclose a CUDA call on its thread, shared by the skills that place GPU work inside ranges
// (nvtx_kernel_map, nvtx_gpu_projection): the push/pop stack from RuntimeTable::nvtx (the innermost range) up
// through NvtxTable::parent, then the (rare) start/end ranges that begin and end on the call's thread.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/stats.h"

namespace nsys::skills::builtin {

// Appends range `innermost` and its push/pop ancestors, innermost first, at most `limit` of them (nothing when
// innermost is -1); true when an ancestor was left out.
inline bool AppendPushPopStack(int32_t innermost, const engine::NvtxTable& nvtx, std::vector<int32_t>& stack,
                               size_t limit = SIZE_MAX) {
  size_t taken = 0;
  for (int32_t j = innermost; j >= 0; j = nvtx.parent[static_cast<size_t>(j)]) {
    if (taken++ == limit) return true;
    stack.push_back(j);
  }
  return false;
}

// The enclosing ranges a launch is counted in, at most: real nesting is tens deep, and a profile of 100,000 nested
// ranges made every kernel 100,000 (range, kernel) pairs (gigabytes on a few thousand kernels). Past it a launch
// counts in its innermost ranges only, and the skill says how many launches that was.
inline constexpr size_t kMaxEnclosingRanges = 256;

// Keeps the kMaxEnclosingRanges innermost ranges of `stack` (latest start first, then earliest end), in no particular
// order; true when it dropped some.
inline bool KeepInnermost(std::vector<int32_t>& stack, const engine::NvtxTable& nvtx) {
  if (stack.size() <= kMaxEnclosingRanges) return false;
  const auto inner_first = [&nvtx](int32_t a, int32_t b) {
    const auto as = static_cast<size_t>(a), bs = static_cast<size_t>(b);
    if (nvtx.start[as] != nvtx.start[bs]) return nvtx.start[as] > nvtx.start[bs];
    return nvtx.end[as] < nvtx.end[bs];
  };
  std::nth_element(stack.begin(), stack.begin() + kMaxEnclosingRanges, stack.end(), inner_first);
  stack.resize(kMaxEnclosingRanges);
  return true;
}

// Start/end ranges that begin and end on one thread, per thread, in start order.
struct StartEndRangesByThread {
  DenseIndex threads;                           // PackKey(pid, tid) -> thread id
  std::vector<std::vector<int32_t>> of_thread;  // thread id -> its start/end ranges
  engine::Ns max_duration = 0;                  // the longest of them

  static StartEndRangesByThread Build(const engine::NvtxTable& nvtx) {
    StartEndRangesByThread out;
    for (size_t j = 0; j < nvtx.size(); ++j) {
      if (nvtx.style[j] != engine::NvtxStyle::kStartEnd || nvtx.Attributes(j).end_tid != nvtx.tid[j]) continue;
      const auto t = static_cast<size_t>(out.threads.IdOf(PackKey(nvtx.pid[j], nvtx.tid[j])));
      if (t >= out.of_thread.size()) out.of_thread.resize(t + 1);
      out.of_thread[t].push_back(static_cast<int32_t>(j));
      out.max_duration = std::max(out.max_duration, nvtx.end[j] - nvtx.start[j]);
    }
    return out;
  }

  // Appends the start/end ranges of thread id `thread` that contain the call [call_start, call_end], the latest
  // start first; a thread id with no start/end ranges adds nothing. Past `limit` of them it stops at the next later
  // start (ranges starting together are all appended, for KeepInnermost to order by their ends) and sets `*more`.
  // Returns the ranges it looked at (the work done: a caller's WorkMeter counts it).
  size_t AppendEnclosing(size_t thread, engine::Ns call_start, engine::Ns call_end, const engine::NvtxTable& nvtx,
                         std::vector<int32_t>& stack, size_t limit = SIZE_MAX, bool* more = nullptr) const {
    if (thread >= of_thread.size()) return 0;
    const auto& list = of_thread[thread];
    auto it = std::upper_bound(list.begin(), list.end(), call_start,
                               [&](engine::Ns t, int32_t j) { return t < nvtx.start[static_cast<size_t>(j)]; });
    size_t looked = 0, taken = 0;
    engine::Ns last_start = 0;
    while (it != list.begin()) {
      --it;
      ++looked;
      const auto j = static_cast<size_t>(*it);
      if (nvtx.start[j] < call_start - max_duration) break;
      if (nvtx.end[j] < call_end) continue;
      if (taken >= limit && nvtx.start[j] != last_start) {
        if (more) *more = true;
        break;
      }
      stack.push_back(*it);
      ++taken;
      last_start = nvtx.start[j];
    }
    return looked;
  }
};

// The profile's start/end ranges by thread, built once and kept with the profile (their thread index is complete: look
// threads up with Find).
inline std::shared_ptr<const StartEndRangesByThread> StartEndRangesOf(const engine::Profile& profile) {
  return std::static_pointer_cast<const StartEndRangesByThread>(profile.Derived("skills.nvtx_start_end_by_thread", [&] {
    return std::static_pointer_cast<const void>(
        std::make_shared<const StartEndRangesByThread>(StartEndRangesByThread::Build(profile.nvtx())));
  }));
}

}  // namespace nsys::skills::builtin
