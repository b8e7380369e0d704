#pragma once
// Shared plumbing for the built-in skills that look at GPU activity: the GPU operations of each
// (pid, device) as NVIDIA's gpu-starv / gpu-low-util rules define them, a per-string classification cache
// (so no skill compares strings per row), and small formatting helpers for notes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common_intervals.h"
#include "common_rows.h"
#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills::builtin {

// Classifies interned strings once each: operator() computes `classify` on the first sight of an id and
// caches the byte. Per-row cost is one vector lookup.
class NameClassCache {
 public:
  NameClassCache(const engine::StringPool& pool, std::function<uint8_t(std::string_view)> classify)
      : pool_(pool), classify_(std::move(classify)), cache_(pool.size(), kUnknown) {}
  uint8_t operator()(engine::StrId id) {
    if (id >= cache_.size()) cache_.resize(static_cast<size_t>(id) + 1, kUnknown);
    uint8_t& slot = cache_[id];
    if (slot == kUnknown) slot = classify_(pool_.view(id));
    return slot;
  }

 private:
  static constexpr uint8_t kUnknown = 0xFF;  // classify must not return it
  const engine::StringPool& pool_;
  std::function<uint8_t(std::string_view)> classify_;
  std::vector<uint8_t> cache_;
};

// Maps small keys to dense indices. Profiles have a handful of devices/streams, so a linear scan beats
// hashing; a hash map takes over past kLinearLimit keys.
template <typename Key, typename Hash>
class SmallIndex {
 public:
  // Returns the key's index and whether it was just added.
  std::pair<size_t, bool> Get(const Key& key) {
    if (keys_.size() <= kLinearLimit) {
      for (size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i] == key) return {i, false};
      }
    } else if (auto it = map_.find(key); it != map_.end()) {
      return {it->second, false};
    }
    keys_.push_back(key);
    map_.emplace(key, keys_.size() - 1);
    return {keys_.size() - 1, true};
  }
  // The key's index; the key must have been added.
  size_t Find(const Key& key) const {
    if (keys_.size() <= kLinearLimit) {
      for (size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i] == key) return i;
      }
    }
    return map_.at(key);
  }
  const std::vector<Key>& keys() const { return keys_; }

 private:
  static constexpr size_t kLinearLimit = 16;
  std::vector<Key> keys_;
  std::unordered_map<Key, size_t, Hash> map_;
};

// Merges consecutive start-sorted runs of `v` ([0, run_ends[0]), [run_ends[0], run_ends[1]), ...) in place.
template <typename T, typename Less>
void MergeSortedRuns(std::vector<T>& v, const std::vector<size_t>& run_ends, Less less) {
  size_t sorted_end = 0;
  for (size_t end : run_ends) {
    if (sorted_end > 0 && end > sorted_end) {
      std::inplace_merge(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(sorted_end),
                         v.begin() + static_cast<std::ptrdiff_t>(end), less);
    }
    sorted_end = std::max(sorted_end, end);
  }
}

bool StartsWith(std::string_view s, std::string_view prefix);
bool StartsWithNoCase(std::string_view s, std::string_view prefix);
bool ContainsNoCase(std::string_view s, std::string_view needle);

struct GpuOpsOptions {
  bool kernels = true;
  bool memcpy = true;
  bool memset = true;
  // NVIDIA counts these PROFILER_OVERHEAD rows ("CUDA profiling data flush overhead", "CUDA profiling stop
  // overhead", "CUDA profiling overhead"; exact names) as busy on every device of their process, when they
  // lie strictly inside the device's [first op start, last op end].
  bool overhead = true;
  // CUDA graph executions recorded whole (CUPTI_ACTIVITY_KIND_GRAPH_TRACE): GPU work whose kernels the export does
  // not hold. Read with the kernels only (Need::kKernels loads them).
  bool graphs = true;
};

enum class OpKind : uint8_t { kKernel, kMemcpy, kMemset, kGraph };

// Calls fn(kind, row) for each kernel, memcpy, memset and graph execution (as `options` selects) that starts inside
// the filter's window, passes its device/pid filter and has start > 0 (as NVIDIA's rules), in start order across the
// tables: a merge of the start-sorted tables, so per-group consumers see their ops in order without sorting. Returns
// false when cancelled.
template <typename Fn>
bool ForEachGpuOp(const engine::Profile& profile, const engine::Filter& filter, const GpuOpsOptions& options,
                  const CancelToken& cancel, Fn&& fn) {
  const engine::KernelTable& k = profile.kernels();
  const engine::MemcpyTable& m = profile.memcpys();
  const engine::MemsetTable& s = profile.memsets();
  const engine::GraphTable& g = profile.graphs();
  std::pair<size_t, size_t> kr{0, 0}, mr{0, 0}, sr{0, 0}, gr{0, 0};
  if (options.kernels) kr = RowRange(k, filter);
  if (options.memcpy) mr = RowRange(m, filter);
  if (options.memset) sr = RowRange(s, filter);
  if (options.kernels && options.graphs) gr = RowRange(g, filter);
  constexpr Ns kDone = INT64_MAX;
  auto accept = [&](const auto& t, size_t i) {
    return t.start[i] > 0 && filter.AcceptsDevice(t.device[i]) && filter.AcceptsProcess(t.pid[i]);
  };
  for (size_t n = 1;; ++n) {
    if ((n & 0xFFFF) == 0 && cancel.cancelled()) return false;
    const Ns ks = kr.first < kr.second ? k.start[kr.first] : kDone;
    const Ns ms = mr.first < mr.second ? m.start[mr.first] : kDone;
    const Ns ss = sr.first < sr.second ? s.start[sr.first] : kDone;
    const Ns gs = gr.first < gr.second ? g.start[gr.first] : kDone;
    if (ks <= ms && ks <= ss && ks <= gs) {
      if (ks == kDone) break;
      const size_t i = kr.first++;
      if (accept(k, i)) fn(OpKind::kKernel, i);
    } else if (ms <= ss && ms <= gs) {
      const size_t i = mr.first++;
      if (accept(m, i)) fn(OpKind::kMemcpy, i);
    } else if (ss <= gs) {
      const size_t i = sr.first++;
      if (accept(s, i)) fn(OpKind::kMemset, i);
    } else {
      const size_t i = gr.first++;
      if (accept(g, i)) fn(OpKind::kGraph, i);
    }
  }
  return true;
}

// The same, handing `fn(table, row)` the op's own table (KernelTable, MemcpyTable, MemsetTable or GraphTable), for
// consumers that read only the columns the tables share (start, end, device, stream, pid, launch).
template <typename Fn>
bool ForEachGpuOpRow(const engine::Profile& profile, const engine::Filter& filter, const GpuOpsOptions& options,
                     const CancelToken& cancel, Fn&& fn) {
  const engine::KernelTable& k = profile.kernels();
  const engine::MemcpyTable& m = profile.memcpys();
  const engine::MemsetTable& s = profile.memsets();
  const engine::GraphTable& g = profile.graphs();
  return ForEachGpuOp(profile, filter, options, cancel, [&](OpKind kind, size_t i) {
    switch (kind) {
      case OpKind::kKernel:
        fn(k, i);
        break;
      case OpKind::kMemcpy:
        fn(m, i);
        break;
      case OpKind::kMemset:
        fn(s, i);
        break;
      case OpKind::kGraph:
        fn(g, i);
        break;
    }
  });
}

// One process's GPU operations on one device.
struct GpuOpGroup {
  uint32_t pid = 0;
  int32_t device = 0;
  int64_t kernels = 0;
  int64_t memcpys = 0;
  int64_t memsets = 0;
  int64_t overheads = 0;  // counted PROFILER_OVERHEAD rows (see GpuOpsOptions::overhead)
  int64_t graphs = 0;     // CUDA graph executions recorded whole
  Ns first_start = 0;     // of kernels/memcpys/memsets: overhead rows never extend the span
  Ns last_end = 0;
  std::vector<Interval> overhead_ops;  // sorted by start
};

struct PidDevice {
  uint32_t pid;
  int32_t device;
  bool operator==(const PidDevice&) const = default;
};
struct PidDeviceHash {
  size_t operator()(const PidDevice& k) const {
    return std::hash<uint64_t>()((static_cast<uint64_t>(k.pid) << 32) | static_cast<uint32_t>(k.device));
  }
};
// A CUDA stream of a process on a device (stream ids are per process and device), for per-stream views.
struct StreamKey {
  uint32_t pid;
  int32_t device;
  int32_t stream;
  bool operator==(const StreamKey&) const = default;
};
struct StreamKeyHash {
  size_t operator()(const StreamKey& k) const {
    return std::hash<uint64_t>()((static_cast<uint64_t>(k.pid) << 40) ^ (static_cast<uint64_t>(k.device) << 32) ^
                                 static_cast<uint32_t>(k.stream));
  }
};

// The GPU operations of each (pid, device) as NVIDIA's gpu-starv / gpu-low-util see them, in two passes and
// without materializing them: Scan() finds the groups, their counts and spans (needed before any per-op work,
// e.g. for chunking), and Stream() then delivers every op of every group in start order.
class GpuOpGroups {
 public:
  // Groups come sorted by (pid, device). Needs kKernels | kMemcpy | kMemset | kOverhead loaded.
  static Expected<GpuOpGroups> Scan(const engine::Profile& profile, const engine::Filter& filter,
                                    const GpuOpsOptions& options, const CancelToken& cancel);
  const std::vector<GpuOpGroup>& groups() const { return groups_; }

  // Calls fn(group_index, Interval) for every op, overhead rows included, in start order within each group.
  template <typename Fn>
  bool Stream(const engine::Profile& profile, const engine::Filter& filter, const CancelToken& cancel, Fn&& fn) const {
    const engine::KernelTable& k = profile.kernels();
    const engine::MemcpyTable& m = profile.memcpys();
    const engine::MemsetTable& s = profile.memsets();
    const engine::GraphTable& gt = profile.graphs();
    std::vector<size_t> next_overhead(groups_.size(), 0);
    auto deliver = [&](size_t g, const Interval& iv) {
      const std::vector<Interval>& oh = groups_[g].overhead_ops;
      for (size_t& c = next_overhead[g]; c < oh.size() && oh[c].start <= iv.start; ++c) fn(g, oh[c]);
      fn(g, iv);
    };
    const bool ok = ForEachGpuOp(profile, filter, options_, cancel, [&](OpKind kind, size_t i) {
      switch (kind) {
        case OpKind::kKernel:
          deliver(index_.Find({k.pid[i], k.device[i]}), {k.start[i], k.end[i]});
          break;
        case OpKind::kMemcpy:
          deliver(index_.Find({m.pid[i], m.device[i]}), {m.start[i], m.end[i]});
          break;
        case OpKind::kMemset:
          deliver(index_.Find({s.pid[i], s.device[i]}), {s.start[i], s.end[i]});
          break;
        case OpKind::kGraph:
          deliver(index_.Find({gt.pid[i], gt.device[i]}), {gt.start[i], gt.end[i]});
          break;
      }
    });
    for (size_t g = 0; g < groups_.size(); ++g) {
      const std::vector<Interval>& oh = groups_[g].overhead_ops;
      for (size_t& c = next_overhead[g]; c < oh.size(); ++c) fn(g, oh[c]);
    }
    return ok;
  }

 private:
  GpuOpsOptions options_;
  std::vector<GpuOpGroup> groups_;
  SmallIndex<PidDevice, PidDeviceHash> index_;  // (pid, device) -> position in groups_
};

// The exact overhead names NVIDIA's 2022.4.2 rules count.
bool IsCountedOverheadName(std::string_view name);

// A kCancelled error, for loops that observe the token.
Error CancelledError();

// "12.345 ms", "1.234 s", "850 ns": a short human duration for notes.
std::string FormatDuration(Ns ns);
// "37.5%" with one decimal.
std::string FormatPct(double pct);
// A sentence naming the window the skill looked at, e.g. "Window: whole profile." for notes.
std::string WindowNote(const engine::Filter& filter);

// A kernel launch's grid in blocks and its block in threads (a dimension the export leaves 0 counts as 1):
// launch_sizes' columns and event_stats' grid_below_sms bound read the same sizes.
inline int64_t BlocksOf(const engine::KernelConfig& c) {
  return static_cast<int64_t>(std::max(1, c.grid_x)) * std::max(1, c.grid_y) * std::max(1, c.grid_z);
}
inline int64_t ThreadsPerBlockOf(const engine::KernelConfig& c) {
  return static_cast<int64_t>(std::max(1, c.block_x)) * std::max(1, c.block_y) * std::max(1, c.block_z);
}

// Device ids seen in GPU activity or listed in the profile info, sorted.
std::vector<int32_t> DeviceIds(const engine::ProfileInfo& info);
// The device's name from the profile info, or "" when the export has none.
std::string DeviceName(const engine::ProfileInfo& info, int32_t device);

}  // namespace nsys::skills::builtin
