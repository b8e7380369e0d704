// event_stats: one statistics table over any kind of traced event (kernels, CUDA API calls, memcpys, memsets, NVTX
// ranges, or a GPU's work: its kernels, copies and memsets together), selected by name, copy kind, host memory kind and
// enclosing NVTX range, and grouped by nothing, name, base name (kernels; nsys stats' :base), device, process,
// stream or enclosing NVTX range. It is the skill a typed question is answered from when no summary report has the
// statistic: a count, a total, a share, any percentile of the durations, bytes and bandwidth, and the busy, span and
// idle time of the selected events, each a cell of one row.
//
// Definitions: durations are end - start; the median is NVIDIA's (the mean of the two middle values for an even
// count), p90, p95 and p99 are nearest-rank; share_pct is the group's total over the total of every event of the same
// kind that the filter keeps (before the name, copy kind and NVTX selections); busy_ns is the length of the union of
// the group's intervals, span_ns its first start to last end, idle_ns their difference (guides/analysis.md's idle),
// each on one GPU's timeline and summed over the GPUs, as a total of durations is (host events: one timeline).
// An event is inside an NVTX range when the range encloses it on its thread: kernels, copies and memsets through
// their launch call, API calls themselves, NVTX ranges through an enclosing range (itself excluded).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "common_api_class.h"
#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_intervals.h"
#include "common_kernel_family.h"
#include "common_nvtx_stack.h"
#include "common_rows.h"
#include "nsys/skills/kernel_names.h"
#include "nsys/skills/stats.h"
#include "nsys/support/name_pattern.h"

namespace nsys::skills::builtin {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace event_stats {

enum class Events { kKernels, kApi, kMemcpy, kMemset, kNvtx, kGpu, kGraphs };
constexpr const char* kEventWords[] = {"kernel",           "CUDA API call",
                                       "memory copy",      "memset",
                                       "NVTX range",       "kernel, copy, memset and CUDA graph execution",
                                       "CUDA graph launch"};
// A GPU's work groups kernels by name and copies and memsets by operation: their keys apart from the kernels' names.
constexpr int64_t kMemsetKey = -100;
constexpr int64_t kGraphKeyBase = -1000;  // a CUDA graph execution recorded whole: kGraphKeyBase - its graph id
int64_t CopyKey(int copy_kind) {
  return -1 - copy_kind;
}
enum class GroupBy { kNone, kName, kDevice, kPid, kStream, kRange };

Events EventsOf(const std::string& s) {
  if (s == "api") return Events::kApi;
  if (s == "memcpy") return Events::kMemcpy;
  if (s == "memset") return Events::kMemset;
  if (s == "nvtx") return Events::kNvtx;
  if (s == "gpu") return Events::kGpu;
  if (s == "graphs") return Events::kGraphs;
  return Events::kKernels;
}

GroupBy GroupByOf(const std::string& s) {
  // memory, cause: keyed by the kind (by_memory) or the cause (by_cause)
  if (s == "name" || s == "base_name" || s == "memory" || s == "cause") return GroupBy::kName;
  if (s == "device") return GroupBy::kDevice;
  if (s == "pid") return GroupBy::kPid;
  if (s == "stream") return GroupBy::kStream;
  if (s == "range") return GroupBy::kRange;
  return GroupBy::kNone;
}

// One selected event, as every kind reduces to it.
struct Event {
  engine::Ns start = 0, end = 0;
  int64_t bytes = 0;
  int32_t device = -1, stream = -1;
  uint32_t pid = 0;
  int64_t name_key = 0;   // what groups by name: a StrId, or the copy kind
  int64_t range_key = 0;  // the innermost enclosing NVTX range's name StrId + 1; 0 = none
  int64_t latency = -1;   // GPU work with latency asked: its start - its launch call's start; -1 = none
  int64_t delay = -1;     // and its launch delay: its start - its launch call's end, at least 0; -1 = none
};

// The launch latency of GPU work started at `start` by runtime call `call`: from the call's start to the work's, 0
// when below zero (the GPU's clock a little ahead of the host's); -1 when no call launched it.
int64_t LatencyOf(const engine::Profile& p, int32_t call, engine::Ns start) {
  if (call < 0) return -1;
  return std::max<int64_t>(0, start - p.runtime().start[static_cast<size_t>(call)]);
}

// The launch delay of the same (HTA's, analysis.md's "launch statistics"): from the end of the call to the work's
// start, 0 when below zero (the work started before the call returned); -1 when no call launched it.
int64_t DelayOf(const engine::Profile& p, int32_t call, engine::Ns start) {
  if (call < 0) return -1;
  return std::max<int64_t>(0, start - p.runtime().end[static_cast<size_t>(call)]);
}

// The innermost NVTX range around runtime call `call` (its name id + 1), 0 when none or not attributed.
int64_t RangeKeyOfCall(const engine::Profile& p, int32_t call, bool wanted) {
  if (!wanted || call < 0) return 0;
  const int32_t j = p.runtime().nvtx[static_cast<size_t>(call)];
  return j < 0 ? 0 : int64_t{p.nvtx().name[static_cast<size_t>(j)]} + 1;
}

// The statistics of one group, gathered event by event.
struct Group {
  int64_t key = 0;
  std::vector<int64_t> durations;
  // Each GPU's timeline (one for host events, device -1): its earliest start, latest end and, with detail, its
  // events' intervals.
  struct Place {
    int32_t device;
    engine::Ns first, last;
    std::vector<Interval> intervals;
  };
  std::vector<Place> places;
  int64_t bytes = 0;
  int64_t min_bytes = 0, max_bytes = 0;                         // of its copies and memsets
  int64_t latency_sum = 0, latency_max = 0, latency_count = 0;  // launch latencies, when asked
  int64_t delay_sum = 0, delay_max = 0;                         // launch delays, counted with the latencies
  engine::Ns first = 0, last = 0;                               // earliest start, latest end
};

// Case-insensitive substring matches of interned strings, decided once per string.
// Whether `name` is `api` itself, or `api` with one of NVIDIA's version suffixes: "cudaMalloc_v3020", "_ptsz", "_ptds".
bool IsApiItself(std::string_view name, std::string_view api) {
  if (name.size() < api.size() || !LikePrefix(name, api)) return false;
  std::string_view rest = name.substr(api.size());
  while (!rest.empty()) {
    if (rest.substr(0, 5) == "_ptsz" || rest.substr(0, 5) == "_ptds") {
      rest.remove_prefix(5);
    } else if (rest.size() > 2 && rest.substr(0, 2) == "_v" && std::isdigit(static_cast<unsigned char>(rest[2]))) {
      rest.remove_prefix(2);
      while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
    } else {
      return false;
    }
  }
  return true;
}

class NameMatch {
 public:
  NameMatch(const engine::StringPool& strings, std::string needle, bool whole = false)
      : strings_(strings), needle_(std::move(needle)), whole_(whole) {}
  bool empty() const { return needle_.empty(); }
  bool operator()(engine::StrId id) {
    if (needle_.empty()) return true;
    if (id >= seen_.size()) seen_.resize(std::max<size_t>(id + 1, seen_.size() * 2), -1);
    if (seen_[id] < 0) {
      const std::string_view s = strings_.view(id);
      seen_[id] = (whole_ ? IsApiItself(s, needle_) : Contains(s)) ? 1 : 0;
    }
    return seen_[id] == 1;
  }
  bool Text(std::string_view text) const { return needle_.empty() || Contains(text); }
  // A name left out: one that holds a needle said (an empty needle leaves none out).
  bool Excludes(engine::StrId id) { return !needle_.empty() && (*this)(id); }

 private:
  // A part of the name, any case; with a '*', a name pattern ("layer_*_computation": a family by a placeholder).
  bool Contains(std::string_view s) const {
    return IsNamePattern(needle_) ? NamePatternMatches(s, needle_) : LikeContains(s, needle_);
  }
  const engine::StringPool& strings_;
  std::string needle_;
  bool whole_;
  std::vector<int8_t> seen_;
};

// Which NVTX ranges are, or are nested in, a range whose name contains a text; and whether a CUDA call on a thread
// lies in one (its push/pop stack, then the start/end ranges of its thread).
class RangesNamed {
 public:
  RangesNamed(const engine::Profile& profile, const std::string& text) : profile_(profile) {
    const engine::NvtxTable& nvtx = profile.nvtx();
    NameMatch match(profile.strings(), text);
    // Parents precede their children (the table is sorted by start, end descending), so one pass is enough.
    in_.assign(nvtx.size(), 0);
    for (size_t j = 0; j < nvtx.size(); ++j) {
      const int32_t p = nvtx.parent[j];
      in_[j] = (match(nvtx.name[j]) || (p >= 0 && in_[static_cast<size_t>(p)])) ? 1 : 0;
    }
    start_end_ = StartEndRangesOf(profile);
    for (const auto& list : start_end_->of_thread) {
      for (int32_t j : list) any_start_end_match_ = any_start_end_match_ || match(nvtx.name[static_cast<size_t>(j)]);
    }
    match_ = std::make_unique<NameMatch>(profile.strings(), text);
  }
  // A range row nested in a matching range (the row itself not counted).
  bool Nested(size_t row) const {
    const int32_t p = profile_.nvtx().parent[row];
    return p >= 0 && in_[static_cast<size_t>(p)];
  }
  // A range row that matches, or is nested in one that does.
  bool MatchesOrNested(size_t row) const { return in_[row] != 0; }
  // The runtime call at row `call` (kNone: never in one).
  bool Call(int32_t call) {
    if (call < 0) return false;
    const engine::RuntimeTable& rt = profile_.runtime();
    const auto r = static_cast<size_t>(call);
    if (rt.nvtx[r] >= 0 && in_[static_cast<size_t>(rt.nvtx[r])]) return true;
    if (!any_start_end_match_) return false;
    const int32_t thread = start_end_->threads.Find(PackKey(rt.pid[r], rt.tid[r]));
    if (thread < 0) return false;
    stack_.clear();
    start_end_->AppendEnclosing(static_cast<size_t>(thread), rt.start[r], rt.end[r], profile_.nvtx(), stack_);
    for (int32_t j : stack_) {
      if ((*match_)(profile_.nvtx().name[static_cast<size_t>(j)])) return true;
    }
    return false;
  }

 private:
  const engine::Profile& profile_;
  std::vector<uint8_t> in_;
  std::shared_ptr<const StartEndRangesByThread> start_end_;
  bool any_start_end_match_ = false;
  std::unique_ptr<NameMatch> match_;
  std::vector<int32_t> stack_;
};

// Where the events must be: inside a range whose name contains the `inside` text, and not in one whose name contains
// the `outside` text (GPU work through its launch call; a range itself not one of those it is outside). The two are
// complements: inside X and outside X together are every event (a range named X itself aside).
class InsideRanges {
 public:
  InsideRanges(const engine::Profile& profile, const std::string& inside, const std::string& outside = {}) {
    if (!inside.empty()) inside_.emplace(profile, inside);
    if (!outside.empty()) outside_.emplace(profile, outside);
  }
  bool active() const { return inside_ || outside_; }
  bool RangeInside(size_t row) const {
    return (!inside_ || inside_->Nested(row)) && (!outside_ || !outside_->MatchesOrNested(row));
  }
  bool CallInside(int32_t call) { return (!inside_ || inside_->Call(call)) && (!outside_ || !outside_->Call(call)); }

 private:
  std::optional<RangesNamed> inside_, outside_;
};

// What the run selects, and the groups it fills.
class Collector {
 public:
  Collector(GroupBy by, bool detail) : by_(by), detail_(detail) {}
  // With share_within_group, grouped by device, process or stream: each group's events of the kind are its base.
  void ShareWithinGroups() { within_ = by_ == GroupBy::kDevice || by_ == GroupBy::kPid || by_ == GroupBy::kStream; }
  void AddToAll(engine::Ns duration, int32_t device = -1, int32_t stream = -1, uint32_t pid = 0, int64_t bytes = 0) {
    all_total_ += duration;
    ++all_count_;
    all_bytes_ += bytes;
    if (within_) {
      const int64_t key = PlaceKey(device, stream, pid);
      place_all_[key] += duration;
      ++place_count_[key];
      place_bytes_[key] += bytes;
    }
  }
  // The base of a group's share: its place's events of the kind, or every one the filter keeps.
  int64_t AllOf(int64_t key) const { return within_ ? Find(place_all_, key) : all_total_; }
  // The base of a group's share of the count, the same way.
  int64_t AllCountOf(int64_t key) const { return within_ ? Find(place_count_, key) : all_count_; }
  // The base of a group's share of the bytes (copies and memsets), the same way.
  int64_t AllBytesOf(int64_t key) const { return within_ ? Find(place_bytes_, key) : all_bytes_; }
  void AddMatched() { ++matched_; }  // selected by name, kind, class and range, before the bounds
  int64_t matched() const { return matched_; }
  // With `nth`, only the nth event selected by start (1 the first, -1 the last to start) is grouped: the events are
  // kept until Finish picks it ("the second Model range", "the first sample kernel").
  void OnlyThe(int64_t nth) { nth_ = nth; }
  // With `skip`, the first `skip` selected events by start (the last -skip when negative) are left out: "leaving out
  // the first (warm-up) iteration". Kept until Finish, as `nth`'s are.
  void LeaveOut(int64_t skip) { skip_ = skip; }
  // A base only (share_of_profile's second pass): every event counts into the base, none is grouped.
  void BaseOnly() { base_only_ = true; }
  // The share's base from another pass: every event of the kind in the whole profile (share_of_profile).
  void SetAll(int64_t total, int64_t count, int64_t bytes) {
    all_total_ = total;
    all_count_ = count;
    all_bytes_ = bytes;
  }
  int64_t all_bytes() const { return all_bytes_; }
  int64_t all_count() const { return all_count_; }
  void Add(const Event& e) {
    if (base_only_) return;
    if (nth_ != 0 || skip_ != 0) {
      picked_.push_back(e);
      return;
    }
    AddToGroup(e);
  }
  // Groups the nth event when `nth` was asked (none when fewer were selected); nothing otherwise.
  void Finish() {
    const auto by_start = [](const Event& a, const Event& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    };
    if (skip_ != 0) {
      const size_t n = picked_.size(), k = std::min(n, static_cast<size_t>(skip_ > 0 ? skip_ : -skip_));
      picked_of_ = n;
      std::sort(picked_.begin(), picked_.end(), by_start);
      const size_t from = skip_ > 0 ? k : 0, to = skip_ > 0 ? n : n - k;
      for (size_t i = from; i < to; ++i) AddToGroup(picked_[i]);
      picked_ = {};
      skip_ = 0;
      return;
    }
    if (nth_ == 0) return;
    const size_t n = picked_.size(), k = static_cast<size_t>(nth_ > 0 ? nth_ : -nth_);
    picked_of_ = n;
    if (k > n) return;
    const size_t at = nth_ > 0 ? k - 1 : n - k;
    std::nth_element(picked_.begin(), picked_.begin() + static_cast<std::ptrdiff_t>(at), picked_.end(), by_start);
    const Event chosen = picked_[at];
    picked_ = {};
    nth_ = 0;
    AddToGroup(chosen);
  }
  std::vector<Group>& groups() { return groups_; }
  int64_t all_total() const { return all_total_; }
  size_t picked_of() const { return picked_of_; }  // with `nth`: how many events it was picked from

 private:
  void AddToGroup(const Event& e) {
    int64_t key = 0;
    switch (by_) {
      case GroupBy::kNone:
        break;
      case GroupBy::kName:
        key = e.name_key;
        break;
      case GroupBy::kDevice:
      case GroupBy::kPid:
      case GroupBy::kStream:
        key = PlaceKey(e.device, e.stream, e.pid);
        break;
      case GroupBy::kRange:
        key = e.range_key;
        break;
    }
    auto [it, fresh] = index_.try_emplace(key, groups_.size());
    if (fresh)
      groups_.push_back(Group{.key = key, .min_bytes = e.bytes, .max_bytes = e.bytes, .first = e.start, .last = e.end});
    Group& g = groups_[it->second];
    g.min_bytes = std::min(g.min_bytes, e.bytes);
    g.max_bytes = std::max(g.max_bytes, e.bytes);
    if (e.latency >= 0) {
      g.latency_max = std::max(g.latency_max, e.latency);
      g.latency_sum += e.latency;
      ++g.latency_count;
      g.delay_max = std::max(g.delay_max, e.delay);
      g.delay_sum += e.delay;
    }
    g.durations.push_back(e.end - e.start);
    g.bytes += e.bytes;
    g.first = std::min(g.first, e.start);
    g.last = std::max(g.last, e.end);
    auto place =
        std::find_if(g.places.begin(), g.places.end(), [&](const Group::Place& p) { return p.device == e.device; });
    if (place == g.places.end()) {
      place = g.places.insert(g.places.end(), Group::Place{e.device, e.start, e.end, {}});
    } else {
      place->first = std::min(place->first, e.start);
      place->last = std::max(place->last, e.end);
    }
    if (detail_) place->intervals.push_back(Interval{e.start, e.end});
  }
  static int64_t Find(const std::unordered_map<int64_t, int64_t>& by_place, int64_t key) {
    const auto it = by_place.find(key);
    return it == by_place.end() ? 0 : it->second;
  }
  // A device's, process's or stream's key, as Add groups by it.
  int64_t PlaceKey(int32_t device, int32_t stream, uint32_t pid) const {
    if (by_ == GroupBy::kDevice) return device;
    if (by_ == GroupBy::kPid) return pid;
    return (static_cast<int64_t>(device) << 32) | static_cast<uint32_t>(stream);
  }
  bool within_ = false;
  std::unordered_map<int64_t, int64_t> place_all_, place_count_, place_bytes_;
  GroupBy by_;
  bool detail_;  // keep the intervals (busy, idle) and sort for the percentiles
  std::unordered_map<int64_t, size_t> index_;
  std::vector<Group> groups_;
  int64_t all_total_ = 0, all_count_ = 0, all_bytes_ = 0;
  bool base_only_ = false;
  int64_t matched_ = 0;
  int64_t nth_ = 0;
  int64_t skip_ = 0;
  std::vector<Event> picked_;
  size_t picked_of_ = 0;
};

struct Selection {
  std::string name;
  std::string copy_kind;    // "" = any
  int64_t stream = -1;      // -1 = any
  bool ranges = false;      // group by the enclosing NVTX range
  bool whole = false;       // API calls: the whole name, version suffixes aside
  std::string api_class;    // API calls: only this class (common_api_class.h), "" = any
  int memory = -1;          // copies and memsets: only those whose host-side memory is this ENUM_CUDA_MEM_KIND id
  int cause = -1;           // copies: only migrations of this ENUM_CUDA_UNIF_MEM_MIGRATION cause
  bool gpu = false;         // a GPU's work: copies and memsets keyed apart from kernel names
  bool latency = false;     // GPU work: the launch latency (start - the launch call's start) and delay too
  bool base_names = false;  // kernels keyed by their base (short) name, as nsys stats' `:base` reports them
  // GPU work: only that launched by a CUDA call of this whole name ("cuLaunchKernelEx"), version suffixes aside.
  std::string launched_by;
  // API calls: only those that launched a kernel whose name holds `launches` (by runtime row; empty = any call).
  std::string launches;
  std::vector<uint8_t> launched;
  // Kernels: only those of this family (FamilyMatch); "" = any.
  std::string family;
  // Kernels, API calls, NVTX ranges: not those whose name contains this (a name pattern, '|' between alternatives);
  // "" = none left out.
  std::string except;
  // Copies and memsets grouped by their host side's memory kind (group_by memory): the key is the ENUM_CUDA_MEM_KIND
  // id.
  bool by_memory = false;
  // Unified-memory migrations grouped by the driver's cause (group_by cause): the key is the cause's id.
  bool by_cause = false;
  // Bounds on each event, -1 = none: its duration (ns) and, for copies and memsets, its size (bytes), exclusive.
  int64_t longer_than = -1, shorter_than = -1, larger_than = -1, smaller_than = -1;
  bool Keeps(engine::Ns duration, int64_t bytes) const {
    return (longer_than < 0 || duration > longer_than) && (shorter_than < 0 || duration < shorter_than) &&
           (larger_than < 0 || bytes > larger_than) && (smaller_than < 0 || bytes < smaller_than);
  }
  // Kernels: only launches whose grid has fewer blocks than their GPU has SMs (guides/analysis.md: a grid of fewer
  // blocks than SMs leaves SMs empty). A GPU whose SM count the export does not give keeps none.
  bool grid_below_sms = false;
  std::unordered_map<int32_t, int64_t> sms;  // device id -> its SM count, when grid_below_sms
  bool KeepsGrid(const engine::KernelConfig& c, int32_t device) const {
    const auto it = sms.find(device);
    return it != sms.end() && it->second > 0 && BlocksOf(c) < it->second;
  }
};

// A unified-memory migration ("Unified HtoD") is a copy of its own kind: "HtoD" alone does not select it, "Unified"
// selects every migration and "Unified HtoD" the one direction.
bool CopyKindMatches(const std::string& wanted, int copy_kind) {
  if (wanted.empty() || wanted == "any") return true;
  const std::string name = CopyKindName(copy_kind);
  if (LikePrefix(name, "Unified ") != LikePrefix(wanted, "Unified")) return false;
  return LikeContains(name, wanted);
}

// A copy's host side's ENUM_CUDA_MEM_KIND id: the source of a host-to-device copy, the destination of a
// device-to-host one, else its source.
int64_t HostMemoryOf(const engine::MemcpyTable& m, size_t i) {
  return m.copy_kind[i] == 2 ? m.dst_kind[i] : m.src_kind[i];
}

// The ENUM_CUDA_MEM_KIND ids' names, in id order, as nsys names them; a `memory` argument names one of the first five.
constexpr std::string_view kMemoryKinds[] = {"pageable", "pinned",        "device",         "array",
                                             "managed",  "device static", "managed static", "unknown"};
constexpr size_t kMemoryKindsNamed = 5;

// The name of an ENUM_CUDA_MEM_KIND id.
std::string MemoryKindName(int64_t id) {
  return id >= 0 && static_cast<size_t>(id) < std::size(kMemoryKinds) ? std::string(kMemoryKinds[id])
                                                                      : fmt::format("memory kind {}", id);
}

// The id an argument names in a table of an enum's names in id order (`memory`, `cause`), or -1 for any.
int IdNamed(std::span<const std::string_view> names, const std::string& s) {
  const auto at = std::find(names.begin(), names.end(), s);
  return at == names.end() ? -1 : static_cast<int>(at - names.begin());
}

// Why the driver migrated unified memory, NVIDIA's ENUM_CUDA_UNIF_MEM_MIGRATION ids in order: the `cause` argument's
// values and group_by cause's group names (the enum's labels, "Speculative prefecth" spelled right).
constexpr std::string_view kMigrationCauses[] = {"unknown",  "user_prefetch",  "page_fault", "speculative_prefetch",
                                                 "eviction", "access_counters"};

std::string MigrationCauseName(int64_t id) {
  if (id < 0) return "(no cause recorded)";
  std::string name = static_cast<size_t>(id) < std::size(kMigrationCauses) ? std::string(kMigrationCauses[id])
                                                                           : fmt::format("migration cause {}", id);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

// A copy's host side: the source of a host-to-device copy, the destination of a device-to-host one, else either.
bool CopyMemoryMatches(int wanted, const engine::MemcpyTable& m, size_t i) {
  if (wanted < 0) return true;
  if (m.copy_kind[i] == 1) return m.src_kind[i] == wanted;
  if (m.copy_kind[i] == 2) return m.dst_kind[i] == wanted;
  return m.src_kind[i] == wanted || m.dst_kind[i] == wanted;
}

// Kernels, copies and memsets share their shape: device, stream, pid and a launch call.
template <typename Table, typename NameOf, typename BytesOf, typename KeepRow>
bool CollectGpuOps(const engine::Profile& p, const Table& t, const engine::Filter& filter, const Selection& sel,
                   InsideRanges& inside, Collector& out, const CancelToken& cancel, NameOf&& name_of,
                   BytesOf&& bytes_of, KeepRow&& keep) {
  const auto [first, last] = RowRange(t, filter);
  std::optional<NameMatch> launched_by;
  if (!sel.launched_by.empty()) launched_by.emplace(p.strings(), sel.launched_by, true);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    if (!filter.AcceptsDevice(t.device[i]) || !filter.AcceptsProcess(t.pid[i])) continue;
    if (sel.stream >= 0 && t.stream[i] != sel.stream) continue;
    out.AddToAll(t.end[i] - t.start[i], t.device[i], t.stream[i], t.pid[i], bytes_of(i));
    if (!keep(i)) continue;
    if (inside.active() && !inside.CallInside(t.launch[i])) continue;
    if (launched_by && (t.launch[i] < 0 || !(*launched_by)(p.runtime().name[static_cast<size_t>(t.launch[i])])))
      continue;
    out.AddMatched();
    if (!sel.Keeps(t.end[i] - t.start[i], bytes_of(i))) continue;
    if constexpr (std::is_same_v<Table, engine::KernelTable>) {
      // Only then: a kernel's configuration is not loaded unless the bound needs it (Need::kKernelConfig).
      if (sel.grid_below_sms && !sel.KeepsGrid(t.Config(i), t.device[i])) continue;
    }
    out.Add(Event{t.start[i], t.end[i], bytes_of(i), t.device[i], t.stream[i], t.pid[i], name_of(i),
                  RangeKeyOfCall(p, t.launch[i], sel.ranges), sel.latency ? LatencyOf(p, t.launch[i], t.start[i]) : -1,
                  sel.latency ? DelayOf(p, t.launch[i], t.start[i]) : -1});
  }
  return true;
}

bool CollectKernels(const engine::Profile& p, const engine::Filter& filter, const Selection& sel, InsideRanges& inside,
                    Collector& out, const CancelToken& cancel) {
  if (sel.memory >= 0 || sel.cause >= 0) return true;  // a kernel has no host memory, no migration cause
  const engine::KernelTable& k = p.kernels();
  // One matcher serves the short and the demangled names: it decides once per interned string of the one pool.
  NameMatch match(p.strings(), sel.name, sel.whole), except(p.strings(), sel.except);
  FamilyMatch family(p.strings(), sel.family);
  return CollectGpuOps(
      p, k, filter, sel, inside, out, cancel,
      [&](size_t i) { return int64_t{sel.base_names ? k.short_name[i] : k.name[i]}; },
      [](size_t) { return int64_t{0}; },
      [&](size_t i) {
        return (match(k.short_name[i]) || match(k.name[i])) && family(k.name[i]) &&
               !(except.Excludes(k.short_name[i]) || except.Excludes(k.name[i]));
      });
}

bool CollectCopies(const engine::Profile& p, const engine::Filter& filter, const Selection& sel, InsideRanges& inside,
                   Collector& out, const CancelToken& cancel) {
  const engine::MemcpyTable& m = p.memcpys();
  NameMatch match(p.strings(), sel.name);
  return CollectGpuOps(
      p, m, filter, sel, inside, out, cancel,
      [&](size_t i) {
        return sel.by_cause    ? int64_t{m.migration_cause[i]}
               : sel.by_memory ? HostMemoryOf(m, i)
               : sel.gpu       ? CopyKey(m.copy_kind[i])
                               : int64_t{m.copy_kind[i]};
      },
      [&](size_t i) { return m.bytes[i]; },
      [&](size_t i) {
        return CopyKindMatches(sel.copy_kind, m.copy_kind[i]) && CopyMemoryMatches(sel.memory, m, i) &&
               (sel.cause < 0 || m.migration_cause[i] == sel.cause) && match.Text(MemcpyOperationName(m.copy_kind[i]));
      });
}

bool CollectMemsets(const engine::Profile& p, const engine::Filter& filter, const Selection& sel, InsideRanges& inside,
                    Collector& out, const CancelToken& cancel) {
  const engine::MemsetTable& m = p.memsets();
  const bool named = NameMatch(p.strings(), sel.name).Text("[CUDA memset]");
  return CollectGpuOps(
      p, m, filter, sel, inside, out, cancel,
      [&](size_t i) { return sel.by_memory ? int64_t{m.mem_kind[i]}
                             : sel.gpu     ? kMemsetKey
                                           : int64_t{0}; },
      [&](size_t i) { return m.bytes[i]; },
      [&](size_t i) { return named && sel.cause < 0 && (sel.memory < 0 || m.mem_kind[i] == sel.memory); });
}

// CUDA graph executions recorded whole (--cuda-graph-trace=graph), as a GPU's work: "[CUDA graph N]".
bool CollectGraphs(const engine::Profile& p, const engine::Filter& filter, const Selection& sel, InsideRanges& inside,
                   Collector& out, const CancelToken& cancel) {
  if (sel.memory >= 0 || sel.cause >= 0) return true;  // an execution has no host memory, no migration cause
  const engine::GraphTable& g = p.graphs();
  const NameMatch match(p.strings(), sel.name);
  return CollectGpuOps(
      p, g, filter, sel, inside, out, cancel, [&](size_t i) { return kGraphKeyBase - g.graph_id[i]; },
      [](size_t) { return int64_t{0}; },
      [&](size_t i) { return match.Text(fmt::format("[CUDA graph {}]", g.graph_id[i])); });
}

// Whether the export records any CUDA graph: an execution row, or a kernel configuration with a graph id.
bool RecordsGraphs(const engine::Profile& p) {
  if (p.info().caps.graphs && p.graphs().size() > 0) return true;
  if (!p.info().caps.kernels) return false;
  const auto& configs = p.kernels().configs;
  return std::any_of(configs.begin(), configs.end(), [](const engine::KernelConfig& c) { return c.graph_id != 0; });
}

// Node-level replays (--cuda-graph-trace=node) in the shape of a GPU op table, for CollectGpuOps: one row per
// launch call, from its first kernel's start to its last one's end, in start order (each begins at its first kernel).
struct GraphReplays {
  std::vector<engine::Ns> start, end;
  std::vector<int32_t> device, stream, launch;
  std::vector<uint32_t> pid;
  std::vector<int64_t> graph_id;
  size_t size() const { return start.size(); }
};

std::optional<GraphReplays> ReplaysOf(const engine::Profile& p, const engine::Filter& filter,
                                      const CancelToken& cancel) {
  GraphReplays r;
  if (!p.info().caps.kernels) return r;
  std::unordered_map<int32_t, size_t> at;  // launch call -> its replay's row
  const engine::KernelTable& k = p.kernels();
  const auto [first, last] = RowRange(k, filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return std::nullopt;
    const uint32_t graph = k.Config(i).graph_id;
    if (graph == 0 || k.launch[i] < 0) continue;  // a replay is its launch call: without one, no launch to count
    auto [it, fresh] = at.try_emplace(k.launch[i], r.size());
    if (fresh) {
      r.start.push_back(k.start[i]);  // the first kernel of the replay: kernels come in start order
      r.end.push_back(k.end[i]);
      r.device.push_back(k.device[i]);
      r.stream.push_back(k.stream[i]);
      r.launch.push_back(k.launch[i]);
      r.pid.push_back(k.pid[i]);
      r.graph_id.push_back(graph);
    }
    r.end[it->second] = std::max(r.end[it->second], k.end[i]);
  }
  return r;
}

// CUDA graph launches, as nsys recorded them: an execution recorded whole (--cuda-graph-trace=graph) is one launch; a
// node-level replay is another. Named "CUDA graph N", each through its launch call as any GPU op is.
bool CollectGraphLaunches(const engine::Profile& p, const engine::Filter& filter, const Selection& sel,
                          InsideRanges& inside, Collector& out, const CancelToken& cancel) {
  if (sel.memory >= 0 || sel.cause >= 0) return true;  // a launch has no host memory, no migration cause
  const NameMatch match(p.strings(), sel.name);
  const auto collect = [&](const auto& t) {
    return CollectGpuOps(
        p, t, filter, sel, inside, out, cancel, [&](size_t i) { return t.graph_id[i]; },
        [](size_t) { return int64_t{0}; },
        [&](size_t i) { return match.Text(fmt::format("CUDA graph {}", t.graph_id[i])); });
  };
  if (p.info().caps.graphs && !collect(p.graphs())) return false;
  const std::optional<GraphReplays> replays = ReplaysOf(p, filter, cancel);
  return replays && collect(*replays);
}

// The CUDA calls that launched a kernel whose name (or base name) holds `name` on a GPU the filter keeps, by runtime
// row: "the cudaLaunchKernel calls that launched trsm_right_kernel".
std::vector<uint8_t> CallsThatLaunched(const engine::Profile& p, const engine::Filter& filter,
                                       const std::string& name) {
  std::vector<uint8_t> out(p.runtime().size(), 0);
  const engine::KernelTable& k = p.kernels();
  NameMatch match(p.strings(), name);
  for (size_t i = 0; i < k.size(); ++i) {
    const int32_t call = k.launch[i];
    if (call < 0 || static_cast<size_t>(call) >= out.size() || !filter.AcceptsDevice(k.device[i])) continue;
    if (match(k.short_name[i]) || match(k.name[i])) out[static_cast<size_t>(call)] = 1;
  }
  return out;
}

bool CollectApi(const engine::Profile& p, const engine::Filter& filter, const Selection& sel, InsideRanges& inside,
                Collector& out, const CancelToken& cancel) {
  const engine::RuntimeTable& rt = p.runtime();
  NameMatch match(p.strings(), sel.name, sel.whole), except(p.strings(), sel.except);
  std::vector<int8_t> in_class;  // by name id: -1 unknown, else whether the call is of sel.api_class
  const auto of_class = [&](engine::StrId id) {
    if (sel.api_class.empty()) return true;
    if (id >= in_class.size()) in_class.resize(std::max<size_t>(id + 1, in_class.size() * 2), -1);
    if (in_class[id] < 0) in_class[id] = ApiClassName(ApiClassOfName(p.strings().view(id))) == sel.api_class ? 1 : 0;
    return in_class[id] == 1;
  };
  const auto [first, last] = RowRange(rt, filter);
  // Some exports record a call twice, as its name and as its versioned entry ("cudaMemcpy" and "cudaMemcpy_v3020"),
  // one inside the other with one correlation id: a call is counted once. The twin starts within the call, so the
  // last few calls' ids are enough to find it.
  // A driver call inside a runtime call ("cuLaunchKernel" in "cudaLaunchKernel") is another call: only a twin of the
  // same name, version suffixes aside, is dropped.
  std::array<std::pair<uint64_t, engine::StrId>, 16> recent{};
  size_t next = 0;
  const auto twin = [&](uint64_t key, engine::StrId name) {
    return std::any_of(recent.begin(), recent.end(), [&](const auto& r) {
      if (r.first != key) return false;
      const std::string_view a = p.strings().view(name), b = p.strings().view(r.second);
      return IsApiItself(a, b) || IsApiItself(b, a);
    });
  };
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    if (!filter.AcceptsProcess(rt.pid[i])) continue;
    if (const uint32_t corr = rt.correlation_id[i]; corr != 0) {
      const uint64_t key = (static_cast<uint64_t>(rt.pid[i]) << 32) | corr;
      if (twin(key, rt.name[i])) continue;
      recent[next++ % recent.size()] = {key, rt.name[i]};
    }
    out.AddToAll(rt.end[i] - rt.start[i], -1, -1, rt.pid[i]);
    if (!match(rt.name[i]) || !of_class(rt.name[i]) || except.Excludes(rt.name[i])) continue;
    if (!sel.launches.empty() && (i >= sel.launched.size() || !sel.launched[i])) continue;
    if (inside.active() && !inside.CallInside(static_cast<int32_t>(i))) continue;
    out.AddMatched();
    if (!sel.Keeps(rt.end[i] - rt.start[i], 0)) continue;
    out.Add(Event{rt.start[i], rt.end[i], 0, -1, -1, rt.pid[i], int64_t{rt.name[i]},
                  RangeKeyOfCall(p, static_cast<int32_t>(i), sel.ranges)});
  }
  return true;
}

bool CollectRanges(const engine::Profile& p, const engine::Filter& filter, const Selection& sel, InsideRanges& inside,
                   Collector& out, const CancelToken& cancel) {
  const engine::NvtxTable& n = p.nvtx();
  NameMatch match(p.strings(), sel.name, sel.whole), except(p.strings(), sel.except);
  const auto [first, last] = RowRange(n, filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && cancel.cancelled()) return false;
    if (!filter.AcceptsProcess(n.pid[i])) continue;
    out.AddToAll(n.end[i] - n.start[i], -1, -1, n.pid[i]);
    if (!match(n.name[i]) || except.Excludes(n.name[i])) continue;
    if (inside.active() && !inside.RangeInside(i)) continue;
    out.AddMatched();
    if (!sel.Keeps(n.end[i] - n.start[i], 0)) continue;
    const int32_t parent = n.parent[i];
    out.Add(Event{n.start[i], n.end[i], 0, -1, -1, n.pid[i], int64_t{n.name[i]},
                  parent < 0 ? 0 : int64_t{n.name[static_cast<size_t>(parent)]} + 1});
  }
  return true;
}

// The bases of gpu_share, over every kernel, copy, memset and CUDA graph execution recorded whole the filter keeps:
// their summed duration (a share of GPU time's base) and, when asked, each GPU's span of them (first start to last
// end: a share of the GPU span's base).
struct GpuBase {
  int64_t total = -1;  // < 0: not asked
  std::map<int32_t, std::pair<engine::Ns, engine::Ns>> spans;
  // The GPU spans of the devices `places` are on, summed.
  int64_t SpanOf(const std::vector<Group::Place>& places) const {
    int64_t sum = 0;
    for (const Group::Place& p : places) {
      if (const auto it = spans.find(p.device); it != spans.end()) sum += it->second.second - it->second.first;
    }
    return sum;
  }
};

// One pass over a table's rows the filter (and `stream`, unless < 0) keeps: their durations summed into the base, and
// with `spans` each GPU's span widened by them.
template <typename Table>
void AddOps(const Table& t, const engine::Filter& filter, int64_t stream, bool spans, GpuBase& base) {
  const auto [first, last] = RowRange(t, filter);
  for (size_t i = first; i < last; ++i) {
    if (!filter.AcceptsDevice(t.device[i]) || !filter.AcceptsProcess(t.pid[i])) continue;
    if (stream >= 0 && t.stream[i] != stream) continue;
    base.total += t.end[i] - t.start[i];
    if (!spans) continue;
    auto [it, fresh] = base.spans.try_emplace(t.device[i], t.start[i], t.end[i]);
    if (!fresh) {
      it->second.first = std::min(it->second.first, t.start[i]);
      it->second.second = std::max(it->second.second, t.end[i]);
    }
  }
}

// `spans`: each GPU's span too (with detail only: its share needs the group's busy time).
GpuBase GpuBaseOf(const engine::Profile& p, const engine::Filter& filter, int64_t stream, bool spans) {
  const engine::Capabilities& caps = p.info().caps;
  GpuBase base;
  base.total = 0;
  if (caps.kernels) AddOps(p.kernels(), filter, stream, spans, base);
  if (caps.memcpy) AddOps(p.memcpys(), filter, stream, spans, base);
  if (caps.memset) AddOps(p.memsets(), filter, stream, spans, base);
  if (caps.graphs) AddOps(p.graphs(), filter, stream, spans, base);
  return base;
}

// Nearest-rank percentile of sorted values: the smallest value with at least p% of the values at or below it.
int64_t NearestRank(const std::vector<int64_t>& sorted, double p) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * n));
  return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

std::string GroupName(const engine::Profile& p, Events events, GroupBy by, int64_t key, bool by_memory, bool by_cause) {
  if (by_memory) return MemoryKindName(key);
  if (by_cause) return MigrationCauseName(key);
  switch (by) {
    case GroupBy::kNone:
      return "all";
    case GroupBy::kDevice:
      return fmt::format("device {}", key);
    case GroupBy::kPid:
      return fmt::format("process {}", key);
    case GroupBy::kStream:
      return fmt::format("device {} stream {}", key >> 32, static_cast<int32_t>(key & 0xFFFFFFFF));
    case GroupBy::kRange:
      return key == 0 ? "(no NVTX range)" : std::string(p.strings().view(static_cast<engine::StrId>(key - 1)));
    case GroupBy::kName:
      break;
  }
  if (events == Events::kMemcpy) return MemcpyOperationName(static_cast<int>(key));
  if (events == Events::kMemset || (events == Events::kGpu && key == kMemsetKey)) return "[CUDA memset]";
  if (events == Events::kGpu && key <= kGraphKeyBase) return fmt::format("[CUDA graph {}]", kGraphKeyBase - key);
  if (events == Events::kGpu && key < 0) return MemcpyOperationName(static_cast<int>(-1 - key));
  if (events == Events::kGraphs) return fmt::format("CUDA graph {}", key);
  return std::string(p.strings().view(static_cast<engine::StrId>(key)));
}

// The idle gaps gaps, max_gap_ns and avg_gap_ns count: those longer than `longer` and shorter than `shorter` (-1: no
// bound).
struct GapBounds {
  int64_t longer = -1, shorter = -1;
  bool Any() const { return longer >= 0 || shorter >= 0; }
  bool Keeps(int64_t gap) const { return gap > longer && (shorter < 0 || gap < shorter); }
  std::string Note() const {
    std::string within = longer >= 0 ? fmt::format("longer than {} ns", longer) : std::string();
    if (shorter >= 0) within += fmt::format("{}shorter than {} ns", within.empty() ? "" : " and ", shorter);
    return "gaps, max_gap_ns and avg_gap_ns count only the idle gaps " + within + ".";
  }
};

// gpu_total < 0: not asked.
// `detail` false: no percentiles and no busy or idle time (nulls), which need a sort of every duration and interval.
// `all_count`: how many events of the kind the filter keeps (count_share_pct's base); `all_bytes` their bytes.
// Long: the row's cells in the order of Columns(), one expression each, after the group's union and gaps.
std::vector<Value> RowOf(Group& g, const std::string& name, int64_t all_total, int64_t all_count, int64_t all_bytes,
                         bool has_bytes, const GpuBase& gpu, int64_t matched, bool detail, const GapBounds& bounds) {
  const int64_t gpu_total = gpu.total;
  const int64_t gpu_span = gpu_total < 0 || !detail ? 0 : gpu.SpanOf(g.places);
  std::vector<int64_t>& d = g.durations;
  const SampleSummary s = Summarize(std::span<int64_t>(d));
  int64_t busy = 0, gaps = 0, max_gap = 0, gap_sum = 0;
  const engine::Ns first = g.first, last = g.last;
  int64_t span = 0;  // each GPU's first start to last end, summed
  for (const Group::Place& p : g.places) span += p.last - p.first;
  if (detail) {
    // Each GPU's own timeline: its union, span and gaps, summed over the GPUs (as kernel time is), so a group on two
    // GPUs is busy, idle and spanned in GPU time. Host events are one timeline.
    for (Group::Place& p : g.places) {
      std::sort(p.intervals.begin(), p.intervals.end(),
                [](const Interval& a, const Interval& b) { return a.start < b.start; });
      const std::vector<Interval> pieces = UnionOfSorted(p.intervals);
      for (size_t i = 0; i < pieces.size(); ++i) {
        busy += pieces[i].end - pieces[i].start;
        if (i == 0) continue;
        // The idle time between two pieces of the union: none of the group running on that GPU.
        const int64_t gap = pieces[i].start - pieces[i - 1].end;
        if (!bounds.Keeps(gap)) continue;
        ++gaps;
        gap_sum += gap;
        max_gap = std::max<int64_t>(max_gap, gap);
      }
    }
    std::sort(d.begin(), d.end());  // after Summarize, which reorders them
  }
  const auto rank = [&](double p) { return detail ? I(NearestRank(d, p)) : Null(); };
  const auto pct = [&](int64_t part) {
    return detail && span > 0 ? D(std::round(1e4 * static_cast<double>(part) / static_cast<double>(span)) / 100.0)
                              : (detail ? D(0.0) : Null());
  };
  const double share = all_total > 0 ? 100.0 * static_cast<double>(s.total) / static_cast<double>(all_total) : 0.0;
  return {S(name),
          I(s.count),
          I(matched),
          I(s.total),
          D(std::round(share * 100.0) / 100.0),
          I(all_total),
          gpu_total < 0 ? Null() : I(gpu_total),
          gpu_total <= 0 ? Null()
                         : D(std::round(1e4 * static_cast<double>(s.total) / static_cast<double>(gpu_total)) / 100.0),
          D(std::round(s.avg * 10.0) / 10.0),
          D(s.median),
          rank(90),
          rank(95),
          rank(99),
          I(s.min),
          I(s.max),
          D(std::round(s.stddev * 10.0) / 10.0),
          has_bytes ? I(g.bytes) : Null(),
          has_bytes ? D(std::round(10.0 * static_cast<double>(g.bytes) / static_cast<double>(s.count)) / 10.0) : Null(),
          has_bytes && s.total > 0 ? D(static_cast<double>(g.bytes) / static_cast<double>(s.total)) : Null(),
          detail ? I(busy) : Null(),
          pct(busy),
          pct(span - busy),
          I(span),
          detail ? I(span - busy) : Null(),
          I(first),
          I(last),
          has_bytes ? I(g.min_bytes) : Null(),
          has_bytes ? I(g.max_bytes) : Null(),
          g.latency_count > 0
              ? D(std::round(10.0 * static_cast<double>(g.latency_sum) / static_cast<double>(g.latency_count)) / 10.0)
              : Null(),
          g.latency_count > 0 ? I(g.latency_max) : Null(),
          g.latency_count > 0
              ? D(std::round(10.0 * static_cast<double>(g.delay_sum) / static_cast<double>(g.latency_count)) / 10.0)
              : Null(),
          g.latency_count > 0 ? I(g.delay_max) : Null(),
          detail ? I(gaps) : Null(),
          detail ? I(max_gap) : Null(),
          I(all_count),
          all_count > 0 ? D(std::round(1e4 * static_cast<double>(s.count) / static_cast<double>(all_count)) / 100.0)
                        : D(0.0),
          gpu_total < 0 || !detail ? Null() : I(gpu_span),
          gpu_total < 0 || !detail ? Null()
          : gpu_span > 0 ? D(std::round(1e4 * static_cast<double>(busy) / static_cast<double>(gpu_span)) / 100.0)
                         : D(0.0),
          has_bytes ? I(all_bytes) : Null(),
          !has_bytes      ? Null()
          : all_bytes > 0 ? D(std::round(1e4 * static_cast<double>(g.bytes) / static_cast<double>(all_bytes)) / 100.0)
                          : D(0.0),
          !detail    ? Null()
          : gaps > 0 ? D(std::round(10.0 * static_cast<double>(gap_sum) / static_cast<double>(gaps)) / 10.0)
                     : D(0.0)};
}

// The one row of an ungrouped call that selected nothing: 0, with how many the bounds left out and the bases.
std::vector<Value> NothingRow(const std::vector<Column>& columns, const Collector& out) {
  std::vector<Value> row(columns.size(), Null());
  const auto set = [&](std::string_view name, Value v) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].name == name) row[c] = std::move(v);
    }
  };
  set("group", S("all"));
  set("count", I(0));
  set("matched_count", I(out.matched()));
  set("total_ns", I(0));
  set("share_pct", D(0.0));
  set("all_ns", I(out.all_total()));
  set("all_count", I(out.AllCountOf(0)));
  set("count_share_pct", D(0.0));
  if (out.AllBytesOf(0) > 0) {  // copies or memsets (kernels, calls and ranges move no bytes)
    set("all_bytes", I(out.AllBytesOf(0)));
    set("bytes_share_pct", D(0.0));
  }
  return row;
}

std::vector<Column> Columns() {
  return {
      StringCol("group",
                "The group: its name, \"device N\", \"process N\", \"device N stream S\", an NVTX range, or \"all\""),
      IntCol("count", "Events in the group"),
      IntCol("matched_count", "Events of every group that pass the selections but the duration and size bounds"),
      IntCol("total_ns", "Summed duration"),
      DoubleCol("share_pct", "total_ns / all_ns x 100"),
      IntCol("all_ns",
             "Summed duration of every event of this kind the filter keeps (before the name, copy kind "
             "and NVTX selections): share_pct's base"),
      IntCol("gpu_all_ns",
             "With gpu_share: summed duration of every kernel, copy, memset and CUDA graph execution recorded whole "
             "the filter keeps"),
      DoubleCol("gpu_share_pct", "With gpu_share: total_ns / gpu_all_ns x 100, the group's share of GPU time"),
      DoubleCol("avg_ns", "Mean duration"),
      DoubleCol("med_ns", "Median duration (the mean of the middle two for an even count)"),
      IntCol("p90_ns", "90th percentile duration (nearest rank)"),
      IntCol("p95_ns", "95th percentile duration (nearest rank)"),
      IntCol("p99_ns", "99th percentile duration (nearest rank)"),
      IntCol("min_ns", "Shortest"),
      IntCol("max_ns", "Longest"),
      DoubleCol("stddev_ns", "Sample standard deviation"),
      IntCol("bytes", "Copies and memsets: summed size; null for other events"),
      DoubleCol("avg_bytes", "Copies and memsets: mean size, bytes"),
      DoubleCol("gb_per_s", "bytes / total_ns, GB/s (1 GB = 1e9 bytes)"),
      IntCol("busy_ns", "Length of the union of the group's intervals on each GPU, summed over the GPUs"),
      DoubleCol("busy_pct", "busy_ns / span_ns x 100: how much of its span the group kept busy"),
      DoubleCol("idle_pct", "(span_ns - busy_ns) / span_ns x 100: how much of its span none of it ran"),
      IntCol("span_ns", "First start to last end of the group on each GPU, summed over the GPUs"),
      IntCol("idle_ns", "span_ns - busy_ns: time in the span with none of the group's events running"),
      IntCol("first_start_ns", "Earliest start (capture clock)"),
      IntCol("last_end_ns", "Latest end (capture clock)"),
      IntCol("min_bytes", "Copies and memsets: the smallest one's size"),
      IntCol("max_bytes", "Copies and memsets: the largest one's size"),
      DoubleCol("avg_latency_ns",
                "With latency: mean launch latency, from the start of the CUDA call that launched each kernel, copy or "
                "memset to its start on the GPU"),
      IntCol("max_latency_ns", "With latency: the longest launch latency"),
      DoubleCol("avg_delay_ns",
                "With latency: mean launch delay, from the end of the CUDA call that launched each kernel, copy or "
                "memset to its start on the GPU, 0 when it started before the call returned (HTA's launch delay)"),
      IntCol("max_delay_ns", "With latency: the longest launch delay"),
      IntCol("gaps",
             "Idle gaps in the span: the intervals between the union's pieces, none of the group running (with "
             "gap_longer_than_ns or gap_shorter_than_ns: only those within the bounds)"),
      IntCol("max_gap_ns", "The longest idle gap counted in gaps (0 when there is none)"),
      IntCol("all_count",
             "How many events of this kind the filter keeps (before the name, copy kind and NVTX "
             "selections): count_share_pct's base"),
      DoubleCol("count_share_pct", "count / all_count x 100: the group's share of the events by number"),
      IntCol("gpu_span_ns",
             "With gpu_share and detail: the span of every kernel, copy, memset and CUDA graph execution the filter "
             "keeps on each GPU the group ran on (first start to last end), summed over those GPUs"),
      DoubleCol(
          "gpu_span_share_pct",
          "With gpu_share and detail: busy_ns / gpu_span_ns x 100, how much of its GPUs' span the group kept busy"),
      IntCol("all_bytes",
             "Copies and memsets: bytes of every event of this kind the filter keeps (before the name, copy kind and "
             "NVTX selections): bytes_share_pct's base"),
      DoubleCol("bytes_share_pct", "Copies and memsets: bytes / all_bytes x 100, the group's share of the bytes"),
      DoubleCol("avg_gap_ns", "The mean length of the idle gaps counted in gaps (0 when there is none)")};
}

class EventStats final : public Skill {
 public:
  std::string name() const override { return "event_stats"; }
  std::string description() const override {
    return "Count, total, share, mean, median, p90, p95, p99, min, max, bytes, bandwidth, busy and idle time of "
           "kernels, CUDA API calls, memcpys, memsets, NVTX ranges, CUDA graph launches or a GPU's work (kernels, "
           "copies and memsets together), selected by name, copy kind, host memory kind and enclosing NVTX range, "
           "grouped by name, device, process or stream.";
  }
  engine::Need needs() const override {
    using engine::Need;
    return Need::kKernelRows | Need::kKernelConfig | Need::kRuntime | Need::kMemcpy | Need::kMemset | Need::kNvtx |
           Need::kAttribution | Need::kGraphs;
  }
  // The launch latency needs the calls that launched the work, whatever else is asked.
  engine::Need needs_for(const Args& args) const override {
    using engine::Need;
    const auto said = [&](const char* k) {
      auto it = args.find(k);
      return it != args.end() && std::holds_alternative<std::string>(it->second) &&
             !std::get<std::string>(it->second).empty();
    };
    // The launch relation: the calls that launched the work, and for `launches` the kernels they launched.
    const Need launch = said("launched_by") ? Need::kAttribution | Need::kRuntime
                        : said("launches")  ? Need::kAttribution | Need::kRuntime | Need::kKernelRows
                                            : Need{};
    return NeedsForKind(args) | (FlagIn(args, "latency") ? Need::kAttribution | Need::kRuntime : Need{}) |
           (FlagIn(args, "grid_below_sms") ? Need::kKernelConfig : Need{}) | launch;  // the launches' grids
  }
  engine::Need NeedsForKind(const Args& args) const {
    using engine::Need;
    const auto text = [&](const char* k) {
      auto it = args.find(k);
      return it == args.end() || !std::holds_alternative<std::string>(it->second) ? std::string()
                                                                                  : std::get<std::string>(it->second);
    };
    const Events events = EventsOf(text("events"));
    // Inside or outside named ranges, or by the range around each event: the ranges and the calls' links to them.
    const bool ranged = !text("inside").empty() || !text("outside").empty() || text("group_by") == "range";
    if (events == Events::kGraphs) {
      Need graphs = Need::kGraphs | Need::kKernels | Need::kKernelConfig;  // kKernels: a replay is its launch call
      if (ranged) graphs = graphs | Need::kAttribution | Need::kNvtx;
      return graphs;
    }
    if ((FlagIn(args, "gpu_share") && events != Events::kApi && events != Events::kNvtx) || events == Events::kGpu) {
      Need all = Need::kKernelRows | Need::kMemcpy | Need::kMemset | Need::kGraphs;
      if (ranged) all = all | Need::kAttribution | Need::kNvtx;
      return all;
    }
    if (ranged) {
      const Need attribution = Need::kAttribution | Need::kNvtx;
      if (events == Events::kMemcpy) return attribution | Need::kMemcpy;
      if (events == Events::kMemset) return attribution | Need::kMemset;
      return attribution;
    }
    switch (events) {
      case Events::kKernels:
        return Need::kKernelRows;
      case Events::kApi:
        return Need::kRuntime;
      case Events::kMemcpy:
        return Need::kMemcpy;
      case Events::kMemset:
        return Need::kMemset;
      case Events::kNvtx:
        return Need::kNvtx;
      case Events::kGpu:
      case Events::kGraphs:
        break;
    }
    return needs();
  }
  // Long: one declarative list of the arguments, each with its description, choices and bounds.
  std::vector<ArgSpec> args() const override {
    return {
        {"events",
         ValueType::kString,
         "Which events: kernels, api (CUDA runtime and driver calls), memcpy, memset, nvtx, gpu (every kernel, "
         "copy, memset and CUDA graph execution recorded whole: a GPU's work), or graphs (CUDA graph launches, named "
         "\"CUDA graph N\": an execution recorded whole, or a node-level replay from its first kernel's start to its "
         "last one's end)",
         Value(std::string("kernels")),
         false,
         {"kernels", "api", "memcpy", "memset", "nvtx", "gpu", "graphs"}},
        {"name", ValueType::kString,
         "Only events whose name contains this text, any case, '*' matching any run of characters "
         "(layer_*_computation: a family by its placeholder) (kernels: short or demangled name; memcpy: the "
         "operation, e.g. HtoD)",
         Value(std::string())},
        {"copy_kind", ValueType::kString,
         "memcpy only: HtoD, DtoH, DtoD, HtoH, PtoP, ...; Unified (every unified-memory migration), Unified HtoD, "
         "Unified DtoH (any = every kind)",
         Value(std::string("any"))},
        {"memory",
         ValueType::kString,
         "Copies and memsets: only those whose host-side memory is of this kind (a host-to-device copy's source, a "
         "device-to-host copy's destination); empty = any",
         Value(std::string()),
         false,
         {"", "pageable", "pinned", "device", "array", "managed"}},
        {"cause",
         ValueType::kString,
         "Copies: only the unified-memory migrations the driver made for this cause, as the export classifies them "
         "(ENUM_CUDA_UNIF_MEM_MIGRATION): user_prefetch, page_fault (coherence), speculative_prefetch, eviction, "
         "access_counters, unknown; empty = any copy",
         Value(std::string()),
         false,
         {"", "unknown", "user_prefetch", "page_fault", "speculative_prefetch", "eviction", "access_counters"}},
        {"inside", ValueType::kString,
         "Only events inside an NVTX range whose name contains this text, '*' matching any run (GPU work through its "
         "launch call)",
         Value(std::string())},
        {"outside", ValueType::kString,
         "Only events in no NVTX range whose name contains this text (GPU work through its launch call; work with no "
         "launch call known is in none; a range named so is not outside it): inside's complement",
         Value(std::string())},
        {"except", ValueType::kString,
         "Kernels, API calls, NVTX ranges: leave out those whose name contains this text, any case, '*' matching any "
         "run, '|' between alternatives",
         Value(std::string())},
        {"group_by",
         ValueType::kString,
         "One row per: none, name, base_name (kernels by their base name, template arguments and parameters left out, "
         "as nsys stats' :base; other events by name), device, pid, stream, or range (the innermost NVTX range around "
         "the event or its launch call), or memory (copies and memsets: the host side's memory kind, pageable, pinned, "
         "...), or cause (copies: a unified-memory migration's cause, page fault, speculative prefetch, ...)",
         Value(std::string("none")),
         false,
         {"none", "name", "base_name", "device", "pid", "stream", "range", "memory", "cause"}},
        {"whole_name", ValueType::kBool,
         "API calls: `name` is the whole call name, NVIDIA's version suffixes aside (cudaMalloc matches "
         "cudaMalloc_v3020, not cudaMallocManaged)",
         Value(false)},
        {"api_class",
         ValueType::kString,
         "API calls: only calls of this class by NVIDIA's API reference (sync, alloc, free, module, setup, launch, "
         "memcpy, memset); empty = any",
         Value(std::string()),
         false,
         {"", "sync", "alloc", "free", "module", "setup", "launch", "memcpy", "memset"}},
        {"longer_than_ns",
         ValueType::kInt,
         "Only events longer than this, ns (-1 = no bound)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0},
        {"shorter_than_ns",
         ValueType::kInt,
         "Only events shorter than this, ns (-1 = no bound)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0},
        {"larger_than_bytes",
         ValueType::kInt,
         "Copies and memsets: only those larger than this (-1 = no bound)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0},
        {"smaller_than_bytes",
         ValueType::kInt,
         "Copies and memsets: only those smaller than this (-1 = no bound)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0},
        {"gap_longer_than_ns",
         ValueType::kInt,
         "With detail: gaps, max_gap_ns and avg_gap_ns count only the idle gaps longer than this, ns (-1 = no bound)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0},
        {"gap_shorter_than_ns",
         ValueType::kInt,
         "With detail: gaps, max_gap_ns and avg_gap_ns count only the idle gaps shorter than this, ns (-1 = no bound)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0},
        {"grid_below_sms", ValueType::kBool,
         "Kernels: only launches whose grid has fewer blocks than their GPU has SMs (TARGET_INFO_GPU; a GPU the export "
         "gives no SM count for keeps none)",
         Value(false)},
        {"launched_by", ValueType::kString,
         "Kernels, copies and memsets: only those launched by a CUDA call of this whole name, version suffixes aside "
         "(cuLaunchKernelEx; correlation ids)",
         Value(std::string())},
        {"launches", ValueType::kString,
         "API calls: only those that launched a kernel whose name contains this (any case; correlation ids)",
         Value(std::string())},
        {"share_within_group", ValueType::kBool,
         "With group_by device, pid or stream: share_pct and all_ns are of the group's own events of the kind (each "
         "GPU's kernel time), not of every one the filter keeps",
         Value(false)},
        {"share_of_profile", ValueType::kBool,
         "The shares' bases (all_ns, all_count, all_bytes, gpu_all_ns) are of every event of the kind in the whole "
         "profile, before the window, device, process and stream selections (what share of all kernel time ran on "
         "stream 14, on GPU 1, in the first second); ignored with share_within_group",
         Value(false)},
        FamilyArg(),
        {"detail", ValueType::kBool,
         "Percentiles (p90, p95, p99) and busy, idle and utilization too; false leaves them null and saves a sort of "
         "every duration and interval (about a second on 3 million kernels)",
         Value(true)},
        {"latency", ValueType::kBool,
         "Kernels, copies and memsets: also their launch latency, from the start of the CUDA call that launched each "
         "to its start on the GPU (loads the CUDA API calls)",
         Value(false)},
        {"gpu_share", ValueType::kBool,
         "Also each group's share of GPU time (of every kernel, copy and memset the filter keeps) and of its GPUs' "
         "span of them (loads those tables)",
         Value(false)},
        {"stream",
         ValueType::kInt,
         "Kernels, copies and memsets: only this CUDA stream (-1 = any)",
         Value(int64_t{-1}),
         false,
         {},
         -1.0,
         2147483647.0},
        {"nth",
         ValueType::kInt,
         "Only the nth of the selected events by start time: 1 the first, 2 the second, -1 the last to start, -2 the "
         "one before it (0 = every one); its row's first_start_ns and last_end_ns are its start and end",
         Value(int64_t{0}),
         false,
         {},
         -1e9,
         1e9},
        {"skip",
         ValueType::kInt,
         "Leave out the first N of the selected events by start time (the last -N when negative; 0 = none): the "
         "warm-up iterations; not with nth",
         Value(int64_t{0}),
         false,
         {},
         -1e9,
         1e9},
        LimitArg(0, "Show only the first N rows, by total time (0 = all)."),
    };
  }

  // Long: each selection argument read and checked where set, then the events collected, ranked and made rows.
  Expected<Table> run(const Context& ctx) const override {
    const Events events = EventsOf(ArgString(ctx, "events"));
    if (Table absent = Absent(ctx.profile.info().caps, events); absent.declined) return absent;
    if (events == Events::kGraphs && !RecordsGraphs(ctx.profile))
      return Declined(
          "The export records no CUDA graph: no graph execution (CUPTI_ACTIVITY_KIND_GRAPH_TRACE) and no kernel with "
          "a graph id.");
    const GroupBy by = GroupByOf(ArgString(ctx, "group_by"));
    Selection sel{ArgString(ctx, "name"), ArgString(ctx, "copy_kind"), ArgInt(ctx, "stream"),
                  by == GroupBy::kRange && ctx.profile.info().caps.nvtx, ArgBool(ctx, "whole_name")};
    sel.api_class = ArgString(ctx, "api_class");
    sel.longer_than = ArgInt(ctx, "longer_than_ns");
    sel.shorter_than = ArgInt(ctx, "shorter_than_ns");
    sel.larger_than = ArgInt(ctx, "larger_than_bytes");
    sel.smaller_than = ArgInt(ctx, "smaller_than_bytes");
    sel.grid_below_sms = ArgBool(ctx, "grid_below_sms");
    if (sel.grid_below_sms) {
      if (events != Events::kKernels)
        return MakeError(ErrorKind::kInvalidArgument,
                         "grid_below_sms bounds kernel launches: use it with events=kernels");
      for (const auto& d : ctx.profile.info().devices) sel.sms[d.id] = d.sm_count;
    }
    sel.memory = IdNamed(std::span(kMemoryKinds, kMemoryKindsNamed), ArgString(ctx, "memory"));
    sel.cause = IdNamed(kMigrationCauses, ArgString(ctx, "cause"));
    sel.by_cause = ArgString(ctx, "group_by") == "cause";
    if (sel.cause >= 0 && events != Events::kMemcpy && events != Events::kGpu)
      return MakeError(ErrorKind::kInvalidArgument,
                       "cause and group_by cause select unified-memory migrations: events memcpy");
    // A GPU's work keys kernels by name: only copies can be keyed by a cause.
    if (sel.by_cause && events != Events::kMemcpy)
      return MakeError(ErrorKind::kInvalidArgument, "group_by cause groups copies: events memcpy");
    sel.gpu = events == Events::kGpu;
    sel.latency = ArgBool(ctx, "latency") && ctx.profile.info().caps.runtime;
    sel.base_names = ArgString(ctx, "group_by") == "base_name";
    sel.by_memory = ArgString(ctx, "group_by") == "memory";
    if (sel.by_memory && events != Events::kMemcpy && events != Events::kMemset)
      return MakeError(ErrorKind::kInvalidArgument,
                       "group_by memory groups copies and memsets: events memcpy or memset");
    sel.launched_by = ArgString(ctx, "launched_by");
    sel.launches = ArgString(ctx, "launches");
    if ((!sel.launched_by.empty() && (events == Events::kApi || events == Events::kNvtx)) ||
        (!sel.launches.empty() && events != Events::kApi))
      return MakeError(ErrorKind::kInvalidArgument,
                       "launched_by selects GPU work (kernels, copies, memsets), launches selects API calls");
    if (!sel.launches.empty()) sel.launched = CallsThatLaunched(ctx.profile, ctx.filter, sel.launches);
    sel.family = ArgString(ctx, "family");
    if (!sel.family.empty() && events != Events::kKernels)
      return MakeError(ErrorKind::kInvalidArgument, "family selects kernels: use it with events=kernels");
    sel.except = ArgString(ctx, "except");
    // Without NVTX ranges no event is inside one (none is selected) and every event is outside them.
    const bool nvtx = ctx.profile.info().caps.nvtx;
    const bool no_ranges = !ArgString(ctx, "inside").empty() && !nvtx;
    InsideRanges inside(ctx.profile, no_ranges ? std::string() : ArgString(ctx, "inside"),
                        nvtx ? ArgString(ctx, "outside") : std::string());
    const bool detail = ArgBool(ctx, "detail");
    const GapBounds gap_bounds{ArgInt(ctx, "gap_longer_than_ns"), ArgInt(ctx, "gap_shorter_than_ns")};
    if (gap_bounds.Any() && !detail)
      return MakeError(ErrorKind::kInvalidArgument,
                       "gap_longer_than_ns and gap_shorter_than_ns bound the idle gaps, which only detail computes: "
                       "use them with detail=true");
    Collector out(by, detail);
    if (ArgBool(ctx, "share_within_group")) out.ShareWithinGroups();
    if (ArgInt(ctx, "nth") != 0 && ArgInt(ctx, "skip") != 0)
      return MakeError(ErrorKind::kInvalidArgument, "nth picks one event and skip leaves some out: use one of them");
    out.OnlyThe(ArgInt(ctx, "nth"));
    out.LeaveOut(ArgInt(ctx, "skip"));
    // Inside a range of an export without NVTX: nothing is selected (the note says why), never everything.
    if (!no_ranges && !Collect(ctx, events, sel, inside, out)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    // The share of the profile: a second pass over every event of the kind, with no selection, for the base.
    const engine::Filter whole;
    const bool of_profile = ArgBool(ctx, "share_of_profile") && !ArgBool(ctx, "share_within_group");
    if (of_profile) {
      const Context whole_ctx{ctx.profile, whole, ctx.args, ctx.cancel, ctx.user_skill_timeout};
      Selection every{"", "", -1, false, false};
      every.gpu = sel.gpu;
      InsideRanges no_ranges_asked(ctx.profile, std::string(), std::string());
      Collector base(GroupBy::kNone, false);
      base.BaseOnly();
      if (!Collect(whole_ctx, events, every, no_ranges_asked, base))
        return MakeError(ErrorKind::kCancelled, "Cancelled.");
      out.SetAll(base.all_total(), base.all_count(), base.all_bytes());
    }
    out.Finish();
    std::vector<Group>& groups = out.groups();
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
      int64_t ta = 0, tb = 0;
      for (int64_t d : a.durations) ta += d;
      for (int64_t d : b.durations) tb += d;
      return ta != tb ? ta > tb : a.key < b.key;
    });
    Table table;
    table.columns = Columns();
    const int64_t limit = ArgInt(ctx, "limit");
    const bool has_bytes = events == Events::kMemcpy || events == Events::kMemset;
    const bool gpu_op = events == Events::kKernels || events == Events::kGpu || events == Events::kGraphs || has_bytes;
    const GpuBase gpu = ArgBool(ctx, "gpu_share") && gpu_op ? GpuBaseOf(ctx.profile, of_profile ? whole : ctx.filter,
                                                                        of_profile ? -1 : sel.stream, detail)
                                                            : GpuBase{};
    // Nothing selected, one group asked for: a row that says 0 (and how many the bounds left out), not no row.
    if (groups.empty() && by == GroupBy::kNone) table.rows.push_back(NothingRow(table.columns, out));
    for (size_t g = 0; g < groups.size() && (limit <= 0 || g < static_cast<size_t>(limit)); ++g) {
      table.rows.push_back(RowOf(groups[g],
                                 GroupName(ctx.profile, events, by, groups[g].key, sel.by_memory, sel.by_cause),
                                 out.AllOf(groups[g].key), out.AllCountOf(groups[g].key), out.AllBytesOf(groups[g].key),
                                 has_bytes, gpu, out.matched(), detail, gap_bounds));
    }
    Notes(ctx, events, no_ranges, groups.size(), table);
    if (gap_bounds.Any()) table.notes.push_back(gap_bounds.Note());
    if (of_profile)
      table.notes.push_back(
          "share_of_profile: the shares' base (all_ns, all_count, all_bytes, gpu_all_ns) is every event of the kind in "
          "the whole profile, before the window, device, process and stream selections.");
    if (!nvtx && !ArgString(ctx, "outside").empty())
      table.notes.push_back("The export has no NVTX ranges: every event is outside them.");
    if (const int64_t nth = ArgInt(ctx, "nth"); nth != 0) {
      table.notes.push_back(
          fmt::format("Only event nth={} by start time of the {} selected (1 = the first to start, "
                      "-1 = the last); none when fewer were selected.",
                      nth, out.picked_of()));
    }
    if (const int64_t skip = ArgInt(ctx, "skip"); skip != 0) {
      table.notes.push_back(fmt::format("The {} {} of the {} selected events by start time are left out.",
                                        skip > 0 ? "first" : "last", skip > 0 ? skip : -skip, out.picked_of()));
    }
    return table;
  }

 private:
  static Table Absent(const engine::Capabilities& caps, Events events) {
    switch (events) {
      case Events::kKernels:
        if (!caps.kernels)
          return Declined(
              "This profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): kernels were not traced.");
        break;
      case Events::kApi:
        if (!caps.runtime) return Declined("The export has no CUDA API calls (no CUPTI_ACTIVITY_KIND_RUNTIME table).");
        break;
      case Events::kMemcpy:
        if (!caps.memcpy) return Declined("The export has no memory copies (no CUPTI_ACTIVITY_KIND_MEMCPY table).");
        break;
      case Events::kMemset:
        if (!caps.memset) return Declined("The export has no memsets (no CUPTI_ACTIVITY_KIND_MEMSET table).");
        break;
      case Events::kNvtx:
        if (!caps.nvtx) return Declined("The export has no NVTX ranges (no NVTX_EVENTS table).");
        break;
      case Events::kGpu:
        if (!caps.kernels && !caps.memcpy && !caps.memset && !caps.graphs)
          return Declined("The export has no GPU work: no kernel, memory copy or memset table.");
        break;
      case Events::kGraphs:
        break;  // run() declines when no graph is recorded, which the capabilities do not say
    }
    return Table{};
  }

  static bool Collect(const Context& ctx, Events events, const Selection& sel, InsideRanges& inside, Collector& out) {
    switch (events) {
      case Events::kKernels:
        return CollectKernels(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel);
      case Events::kApi:
        return CollectApi(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel);
      case Events::kMemcpy:
        return CollectCopies(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel);
      case Events::kMemset:
        return CollectMemsets(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel);
      case Events::kNvtx:
        return CollectRanges(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel);
      case Events::kGpu: {
        const engine::Capabilities& caps = ctx.profile.info().caps;
        return (!caps.kernels || CollectKernels(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel)) &&
               (!caps.memcpy || CollectCopies(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel)) &&
               (!caps.memset || CollectMemsets(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel)) &&
               (!caps.graphs || CollectGraphs(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel));
      }
      case Events::kGraphs:
        return CollectGraphLaunches(ctx.profile, ctx.filter, sel, inside, out, ctx.cancel);
    }
    return true;
  }

  static void Notes(const Context& ctx, Events events, bool no_ranges, size_t groups, Table& table) {
    table.notes.push_back(fmt::format(
        "Events that start in {} ({}); durations are end - start; share_pct is of every {} the filter keeps.",
        ctx.filter.window.whole ? "the whole profile" : ctx.filter.window.description,
        ctx.filter.devices.empty() && ctx.filter.processes.empty() ? "every device and process"
                                                                   : "the devices and processes asked for",
        kEventWords[static_cast<size_t>(events)]));
    if (table.rows.empty()) table.notes.push_back("No event matches the selection in the window and filters.");
    if (table.rows.size() < groups)
      table.notes.push_back(fmt::format("Showing the first {} of {} groups.", table.rows.size(), groups));
    if ((events == Events::kApi || events == Events::kNvtx) && !ctx.filter.devices.empty())
      table.notes.push_back("API calls and NVTX ranges run on CPU threads: the device filter does not select them.");
    if (no_ranges)
      table.notes.push_back("The export has no NVTX ranges: no event can be inside one, so none was selected.");
  }
};

}  // namespace event_stats

std::shared_ptr<const Skill> MakeEventStats() {
  using namespace event_stats;  // this file's own helpers
  return std::make_shared<EventStats>();
}

}  // namespace nsys::skills::builtin
