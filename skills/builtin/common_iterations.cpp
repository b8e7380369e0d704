#include "common_iterations.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/support/cancel.h"

namespace nsys::skills::builtin {
namespace {

// A periodic kernel name must repeat at least this often, agree on its spacing (in kernels) this often, and
// span this share of the device's kernels.
constexpr int64_t kMinOccurrences = 3;
constexpr double kMinAgreement = 0.8;
constexpr double kMinCoverage = 0.5;

bool KernelSelected(const engine::KernelTable& k, size_t i, const engine::Filter& filter) {
  return filter.AcceptsDevice(k.device[i]) && filter.AcceptsProcess(k.pid[i]);
}

// ---- marker mode ----

using RangesByPid = std::map<uint32_t, std::vector<Interval>>;

// Outermost NVTX ranges whose name matches, per process, in start order.
RangesByPid MatchingRanges(const Context& ctx, NameClassCache& matches) {
  const engine::NvtxTable& nv = ctx.profile.nvtx();
  RangesByPid ranges;
  auto [first, last] = RowRange(nv, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if (!ctx.filter.AcceptsProcess(nv.pid[i])) continue;
    if (nv.end[i] <= nv.start[i] || !matches(nv.name[i])) continue;
    auto& v = ranges[nv.pid[i]];
    if (!v.empty() && nv.start[i] < v.back().end) continue;  // nested in (or overlapping) the previous one
    v.push_back({nv.start[i], nv.end[i]});
  }
  return ranges;
}

// Mark-to-mark intervals of the NVTX marks whose name matches, per process.
RangesByPid MatchingMarkIntervals(const Context& ctx, NameClassCache& matches) {
  const engine::NvtxMarkTable& marks = ctx.profile.nvtx_marks();
  RangesByPid ranges;
  for (size_t i = 0; i < marks.size(); ++i) {
    if (!ctx.filter.InWindow(marks.time[i]) || !ctx.filter.AcceptsProcess(marks.pid[i])) continue;
    if (!matches(marks.name[i])) continue;
    auto& v = ranges[marks.pid[i]];
    if (!v.empty()) v.back().end = marks.time[i];
    v.push_back({marks.time[i], marks.time[i]});
  }
  for (auto& [pid, v] : ranges) {
    if (!v.empty()) v.pop_back();  // the last mark opens no complete iteration
  }
  std::erase_if(ranges, [](const auto& kv) { return kv.second.empty(); });
  return ranges;
}

// The kernels of one marker iteration.
struct IterationKernels {
  int64_t kernels = 0;
  std::vector<Interval> busy;
  int32_t device = -2;  // -2 none yet, -1 several
};

struct KernelPlacement {
  std::map<uint32_t, std::vector<IterationKernels>> of_pid;  // parallel to the ranges
  int64_t by_kernel_start = 0, outside = 0;
};

// Keeps the kMaxIterations ranges that start first, over all processes; returns how many there were.
int64_t KeepFirstRanges(RangesByPid& ranges) {
  std::vector<Ns> starts;
  for (const auto& [pid, v] : ranges) {
    for (const Interval& r : v) starts.push_back(r.start);
  }
  const auto found = static_cast<int64_t>(starts.size());
  if (starts.size() <= kMaxIterations) return found;
  std::nth_element(starts.begin(), starts.begin() + kMaxIterations - 1, starts.end());
  const Ns last = starts[kMaxIterations - 1];
  size_t kept = 0;
  for (auto& [pid, v] : ranges) {  // equal starts at the cut: the first processes' keep theirs, up to the cap
    std::erase_if(v, [&](const Interval& r) { return r.start > last || (r.start == last && kept >= kMaxIterations); });
    kept += v.size();
  }
  std::erase_if(ranges, [](const auto& kv) { return kv.second.empty(); });
  return found;
}

// Kernels join the iteration whose range contains their launching API call (the kernel's own start when the
// call is not in the export). False when cancelled.
bool PlaceKernels(const Context& ctx, const RangesByPid& ranges, KernelPlacement& out) {
  for (auto& [pid, v] : ranges) out.of_pid[pid].resize(v.size());
  const engine::KernelTable& k = ctx.profile.kernels();
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  for (size_t i = 0; i < k.size(); ++i) {
    if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
    auto it = ranges.find(k.pid[i]);
    if (it == ranges.end() || !ctx.filter.AcceptsDevice(k.device[i])) continue;
    Ns t = k.start[i];
    if (k.launch[i] >= 0) {
      t = rt.start[static_cast<size_t>(k.launch[i])];
    } else {
      ++out.by_kernel_start;
    }
    const auto& v = it->second;
    auto pos = std::upper_bound(v.begin(), v.end(), t, [](Ns x, const Interval& r) { return x < r.start; });
    if (pos == v.begin() || t >= std::prev(pos)->end) {
      ++out.outside;
      continue;
    }
    IterationKernels& a = out.of_pid[k.pid[i]][static_cast<size_t>(std::prev(pos) - v.begin())];
    ++a.kernels;
    a.busy.push_back({k.start[i], k.end[i]});
    a.device = a.device == -2 ? k.device[i] : (a.device == k.device[i] ? a.device : -1);
  }
  return true;
}

void AppendMarkerIterations(const RangesByPid& ranges, KernelPlacement& placed, std::vector<Iteration>& out) {
  for (auto& [pid, v] : ranges) {
    for (size_t j = 0; j < v.size(); ++j) {
      IterationKernels& a = placed.of_pid[pid][j];
      Iteration it;
      it.pid = pid;
      it.device = a.device >= 0 ? a.device : -1;
      it.index = static_cast<int64_t>(j);
      it.start = v[j].start;
      it.end = v[j].end;
      it.kernels = a.kernels;
      for (const Interval& iv : a.busy) it.kernel_ns += iv.length();
      std::vector<Interval> u = UnionOf(std::move(a.busy));
      it.gpu_busy = TotalLength(u);
      if (!u.empty()) {
        it.gpu_start = u.front().start;
        it.gpu_end = u.back().end;
      }
      out.push_back(it);
    }
  }
}

void AddMarkerNotes(const std::string& marker, const KernelPlacement& placed, IterationResult& res) {
  if (res.method == "nvtx_range") {
    res.notes.push_back(fmt::format(
        "Iterations are the outermost NVTX ranges whose name contains \"{}\" (case-insensitive), per process; a "
        "kernel belongs to the iteration whose range contains its launching API call.",
        marker));
  } else {
    res.notes.push_back(fmt::format(
        "Iterations run from one NVTX mark whose name contains \"{}\" to the next, per process; a kernel belongs to "
        "the iteration during which its launching API call started.",
        marker));
  }
  if (placed.by_kernel_start > 0) {
    res.notes.push_back(fmt::format(
        "Coverage: {} kernels have no launching API call in the export; they were placed by their own start time.",
        placed.by_kernel_start));
  }
  if (placed.outside > 0) {
    res.notes.push_back(fmt::format("{} kernels of these processes fall outside every iteration.", placed.outside));
  }
}

Expected<IterationResult> ByMarker(const Context& ctx, const std::string& marker) {
  IterationResult res;
  if (!ctx.profile.info().caps.nvtx) {
    res.decline_reason = fmt::format(
        "marker=\"{}\" needs NVTX ranges or marks, and this profile has none; omit marker to detect iterations by "
        "kernel periodicity.",
        marker);
    return res;
  }
  NameClassCache matches(ctx.profile.strings(),
                         [&](std::string_view n) -> uint8_t { return ContainsNoCase(n, marker); });
  RangesByPid ranges = MatchingRanges(ctx, matches);
  res.method = "nvtx_range";
  if (ranges.empty()) {
    ranges = MatchingMarkIntervals(ctx, matches);
    res.method = "nvtx_mark";
  }
  if (ranges.empty()) {
    res.decline_reason = fmt::format(
        "No NVTX range or mark name contains \"{}\" (case-insensitive) in the selection; list range names with the "
        "NVTX summary skill, or omit marker to detect iterations by kernel periodicity.",
        marker);
    return res;
  }
  res.found_count = KeepFirstRanges(ranges);
  KernelPlacement placed;
  if (!PlaceKernels(ctx, ranges, placed)) return CancelledError();
  AppendMarkerIterations(ranges, placed, res.iterations);
  res.found = true;
  AddMarkerNotes(marker, placed, res);
  return res;
}

// ---- kernel periodicity ----

struct Candidate {
  engine::StrId name = 0;
  int64_t period = 0;      // most common spacing between occurrences, in kernels
  double agreement = 0;    // share of spacings equal to the period
  double coverage = 0;     // (last occurrence - first occurrence) / kernels on the device
  size_t first_index = 0;  // position of the first occurrence in the device's kernel sequence
};

// Picks the repeating unit on one device: among kernel names that recur with a steady spacing over most of the
// sequence, the longest period that is not a whole multiple of another candidate's (which would merge
// iterations pairwise); among names with that period, the steadiest, widest, then earliest (the unit's first
// kernel).
std::optional<Candidate> BestCandidate(const std::vector<engine::StrId>& names, size_t string_count) {
  const size_t n = names.size();
  if (n < static_cast<size_t>(kMinOccurrences)) return std::nullopt;
  std::vector<uint32_t> counts(string_count, 0);
  for (engine::StrId id : names) {
    if (id >= counts.size()) counts.resize(static_cast<size_t>(id) + 1, 0);
    ++counts[id];
  }
  // Occurrence positions grouped by name (counting sort).
  std::vector<size_t> offset(counts.size() + 1, 0);
  for (size_t id = 0; id < counts.size(); ++id) offset[id + 1] = offset[id] + counts[id];
  std::vector<uint32_t> positions(n);
  std::vector<size_t> fill(offset.begin(), offset.end() - 1);
  for (size_t i = 0; i < n; ++i) positions[fill[names[i]]++] = static_cast<uint32_t>(i);

  std::vector<Candidate> candidates;
  for (size_t id = 0; id < counts.size(); ++id) {
    if (counts[id] < kMinOccurrences) continue;
    const uint32_t* pos = positions.data() + offset[id];
    const size_t c = counts[id];
    const double coverage = static_cast<double>(pos[c - 1] - pos[0]) / static_cast<double>(n);
    if (coverage < kMinCoverage) continue;
    // The spacing must agree in at least 80% of cases, so it is a majority: Boyer-Moore vote, then a count. O(c).
    int64_t mode = 0, votes = 0;
    for (size_t j = 0; j + 1 < c; ++j) {
      const int64_t gap = pos[j + 1] - pos[j];
      if (votes == 0) mode = gap;
      votes += gap == mode ? 1 : -1;
    }
    int64_t best_run = 0;
    for (size_t j = 0; j + 1 < c; ++j) best_run += (pos[j + 1] - pos[j]) == mode;
    const size_t spacings = c - 1;
    const double agreement = static_cast<double>(best_run) / static_cast<double>(spacings);
    if (agreement < kMinAgreement) continue;
    candidates.push_back({static_cast<engine::StrId>(id), mode, agreement, coverage, pos[0]});
  }
  if (candidates.empty()) return std::nullopt;
  std::vector<int64_t> periods;
  for (const Candidate& c : candidates) periods.push_back(c.period);
  std::sort(periods.begin(), periods.end());
  periods.erase(std::unique(periods.begin(), periods.end()), periods.end());
  int64_t chosen = periods.front();
  for (auto p = periods.rbegin(); p != periods.rend(); ++p) {
    const bool multiple = std::any_of(periods.begin(), periods.end(), [&](int64_t q) { return q < *p && *p % q == 0; });
    if (!multiple) {
      chosen = *p;
      break;
    }
  }
  // Among names with that period: the steadiest, then the widest, then the earliest.
  std::optional<Candidate> best;
  for (const Candidate& c : candidates) {
    if (c.period != chosen) continue;
    if (!best || std::tie(c.agreement, c.coverage) > std::tie(best->agreement, best->coverage) ||
        (c.agreement == best->agreement && c.coverage == best->coverage && c.first_index < best->first_index)) {
      best = c;
    }
  }
  return best;
}

// Selected kernel rows per device, in device id order (counted first so each device's row list is allocated once).
std::map<int32_t, size_t> RowCountsByDevice(const engine::KernelTable& k, size_t first, size_t last,
                                            const engine::Filter& filter) {
  SmallIndex<int32_t, std::hash<int32_t>> device_index;
  std::vector<size_t> device_counts;
  for (size_t i = first; i < last; ++i) {
    if (!KernelSelected(k, i, filter)) continue;
    auto [d, added] = device_index.Get(k.device[i]);
    if (added) device_counts.push_back(0);
    ++device_counts[d];
  }
  std::map<int32_t, size_t> counts_by_device;
  for (size_t d = 0; d < device_counts.size(); ++d) counts_by_device[device_index.keys()[d]] = device_counts[d];
  return counts_by_device;
}

// One iteration from each occurrence of the repeating kernel to the next, on one device's kernel sequence `rows`.
// Adds at most kMaxIterations in all to `out`; returns how many the device has. False when cancelled.
bool AppendPeriodIterations(const engine::KernelTable& k, int32_t device, const std::vector<uint32_t>& rows,
                            const std::vector<engine::StrId>& names, const Candidate& best, const CancelToken& cancel,
                            std::vector<Iteration>& out, int64_t& found) {
  std::vector<size_t> occ;
  for (size_t j = best.first_index; j < rows.size(); ++j) {
    if (names[j] == best.name) occ.push_back(j);
  }
  if (occ.size() > 1) found += static_cast<int64_t>(occ.size() - 1);
  WorkMeter work(cancel);
  for (size_t o = 0; o + 1 < occ.size() && out.size() < kMaxIterations; ++o) {
    if (!work.Add(occ[o + 1] - occ[o])) return false;
    Iteration it;
    it.device = device;
    it.pid = k.pid[rows[occ[o]]];
    it.index = static_cast<int64_t>(o);
    it.start = k.start[rows[occ[o]]];
    it.end = k.start[rows[occ[o + 1]]];
    it.kernels = static_cast<int64_t>(occ[o + 1] - occ[o]);
    UnionStreamer busy;
    Ns last_end = it.start;
    auto add_busy = [&](const Interval& iv) {
      it.gpu_busy += iv.length();
      last_end = iv.end;
    };
    for (size_t j = occ[o]; j < occ[o + 1]; ++j) {
      const Interval kernel{k.start[rows[j]], k.end[rows[j]]};
      it.kernel_ns += kernel.length();
      busy.Add(kernel, add_busy);
    }
    busy.Finish(add_busy);
    it.gpu_start = it.start;
    it.gpu_end = last_end;
    out.push_back(it);
  }
  return true;
}

// Kernel periodicity's confidence: the spacing's agreement (the lowest over the devices) and the steady share, the
// part of the iterations' summed durations in iterations no longer than 3x the median. A steady loop has both near
// 1; autotuning or start-up shows as a few iterations holding most of the time.
void SetPeriodConfidence(IterationResult& res, double agreement) {
  const Ns median = MedianIterationNs(res.iterations);
  Ns all = 0, steady = 0;
  for (const Iteration& it : res.iterations) {
    const Ns d = it.end - it.start;
    all += d;
    if (d <= 3 * median) steady += d;
  }
  const double share = all > 0 ? static_cast<double>(steady) / static_cast<double>(all) : 0.0;
  res.confidence = agreement >= 0.9 && share >= 0.8 ? "high" : agreement >= 0.8 && share >= 0.5 ? "medium" : "low";
  res.confidence_reason = fmt::format(
      "{:.0f}% of the repeating kernel's spacings agree, and iterations within 3x the median duration hold {:.0f}% of "
      "the iterations' time",
      100 * agreement, 100 * share);
  res.notes.push_back(fmt::format("Confidence that these are the steps of a steady loop: {} ({}).", res.confidence,
                                  res.confidence_reason));
}

Expected<IterationResult> ByKernelPeriod(const Context& ctx) {
  IterationResult res;
  res.method = "kernel_period";
  if (!ctx.profile.info().caps.kernels) {
    res.decline_reason = "This profile has no CUDA kernel activity, so iterations cannot be found from kernels.";
    return res;
  }
  const engine::KernelTable& k = ctx.profile.kernels();
  auto [first, last] = RowRange(k, ctx.filter);
  std::vector<uint32_t> rows;
  std::vector<engine::StrId> names;
  double min_agreement = 1.0;
  for (const auto& [device, count] : RowCountsByDevice(k, first, last, ctx.filter)) {
    rows.clear();
    rows.reserve(count);
    for (size_t i = first; i < last; ++i) {
      if (k.device[i] == device && KernelSelected(k, i, ctx.filter)) rows.push_back(static_cast<uint32_t>(i));
    }
    if (ctx.cancel.cancelled()) return CancelledError();
    names.resize(rows.size());
    for (size_t j = 0; j < rows.size(); ++j) names[j] = k.name[rows[j]];
    const std::optional<Candidate> best = BestCandidate(names, ctx.profile.strings().size());
    if (!best) {
      res.notes.push_back(
          fmt::format("Device {}: no kernel name recurs with a steady spacing over {} kernels.", device, rows.size()));
      continue;
    }
    if (!AppendPeriodIterations(k, device, rows, names, *best, ctx.cancel, res.iterations, res.found_count)) {
      return CancelledError();
    }
    min_agreement = std::min(min_agreement, best->agreement);
    std::string shown(ctx.profile.strings().view(best->name));
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    res.notes.push_back(fmt::format(
        "Device {}: kernel \"{}\" recurs every {} kernels ({:.0f}% of its spacings agree; the repeats span {:.0f}% of "
        "the device's {} kernels); each occurrence starts an iteration.",
        device, shown, best->period, 100 * best->agreement, 100 * best->coverage, rows.size()));
  }
  res.found = !res.iterations.empty();
  if (!res.found) {
    res.decline_reason =
        "No repeating kernel pattern was found (no kernel name recurs at least 3 times with a steady spacing over "
        "half of a device's kernels); pass marker=<NVTX range name> to define iterations.";
  } else {
    res.notes.insert(res.notes.begin(),
                     "Iterations were detected by kernel periodicity (no marker given): the repeating unit may be a "
                     "layer or micro-batch rather than a whole training step; pass marker=<NVTX range name> when the "
                     "application marks its steps.");
    SetPeriodConfidence(res, min_agreement);
  }
  return res;
}

}  // namespace

Expected<IterationResult> DetectIterations(const Context& ctx, const std::string& marker) {
  auto res = marker.empty() ? ByKernelPeriod(ctx) : ByMarker(ctx, marker);
  if (res && res->found && res->confidence.empty()) {
    res->confidence = "high";
    res->confidence_reason = "the application marks its iterations";
  }
  if (res && res->found) {
    std::sort(res->iterations.begin(), res->iterations.end(), [](const Iteration& a, const Iteration& b) {
      return std::tie(a.device, a.pid, a.start) < std::tie(b.device, b.pid, b.start);
    });
    if (res->found_count > static_cast<int64_t>(res->iterations.size())) {
      res->notes.push_back(fmt::format(
          "{} iterations were found; only the first {} are listed and summarised. Iterations this many are more "
          "likely layers or single kernels than training steps: pass marker=<NVTX range name> when the application "
          "marks its steps.",
          res->found_count, res->iterations.size()));
    }
  }
  return res;
}

Ns MedianIterationNs(const std::vector<Iteration>& iterations) {
  if (iterations.empty()) return 0;
  std::vector<Ns> d;
  for (const Iteration& it : iterations) d.push_back(it.end - it.start);
  std::sort(d.begin(), d.end());
  const size_t m = d.size() / 2;
  return d.size() % 2 ? d[m] : (d[m - 1] + d[m]) / 2;
}

}  // namespace nsys::skills::builtin
