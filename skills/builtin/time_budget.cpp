// time_budget: where each GPU's time goes. Each (process, device) span, from its first operation's start
// to its last one's end (kernels, memcpys and memsets with start > 0, as NVIDIA's rules count them), is cut into
// slices that add up to the span to the nanosecond:
//   - kernel time by what the kernels do (tensor-core math, CUDA-core math, memory-bound, other, communication);
//   - copies and memsets that no kernel overlaps, by direction;
//   - idle time, by what the process's host threads were doing: in a synchronizing call, allocating or freeing,
//     launching, in another CUDA call, or in no CUDA call at all. When the export traced OS runtime calls, the
//     idle time with no CUDA call is split further into the part a CUDA-calling thread of the process spent waiting
//     in an OS call (poll, read, a lock) and the part it spent running host code.
// Each instant goes to one slice: the highest-priority one active then, in the order of the Slice enum below (so
// communication overlapped by compute is compute, and a copy overlapped by a kernel is kernel time).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "common_api_class.h"
#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/skills/kernel_names.h"

namespace nsys::skills::builtin {
namespace {

// In priority order: the first active slice takes the instant.
enum Slice : uint8_t {
  kTensorCoreMath,
  kCudaCoreMath,
  kMemoryBound,
  kOtherKernels,
  kCudaGraphs,
  kCommunication,
  kCopyHtoD,
  kCopyDtoH,
  kCopyDtoD,
  kCopyPtoP,
  kCopyUvmHtoD,
  kCopyUvmDtoH,
  kCopyOther,
  kMemset,
  kIdleSync,
  kIdleAllocFree,
  kIdleLaunch,
  kIdleOtherCuda,
  kIdleNoCuda,
  kSliceCount
};
constexpr Slice kFirstIdle = kIdleSync;

struct SliceName {
  const char* id;
  const char* kind;  // "kernel", "copy", "idle"
  const char* description;
};
constexpr std::array<SliceName, kSliceCount> kSlices{{
    {"tensor_core_math", "kernel", "GEMM, convolution or attention kernels on tensor cores"},
    {"cuda_core_math", "kernel",
     "GEMM, convolution or attention kernels on CUDA cores (FP32/FP64 FMA, no tensor cores)"},
    {"memory_bound", "kernel", "elementwise, reduction, softmax, normalization and copy kernels"},
    {"other_kernels", "kernel", "kernels whose name does not say what they do (or whether they use tensor cores)"},
    {"cuda_graphs", "kernel",
     "CUDA graph executions recorded whole (nsys --cuda-graph-trace=graph, its default): GPU work whose kernels the "
     "export does not hold"},
    {"communication", "kernel", "NCCL collectives and peer transfers not overlapped by compute kernels"},
    {"copy_htod", "copy", "host-to-device copies no kernel overlaps"},
    {"copy_dtoh", "copy", "device-to-host copies no kernel overlaps"},
    {"copy_dtod", "copy", "device-to-device copies no kernel overlaps"},
    {"copy_ptop", "copy", "peer-to-peer copies no kernel overlaps"},
    {"copy_uvm_htod", "copy", "unified-memory page migrations host-to-device no kernel overlaps"},
    {"copy_uvm_dtoh", "copy", "unified-memory page migrations device-to-host no kernel overlaps"},
    {"copy_other", "copy", "other copies (host-to-host, arrays) no kernel overlaps"},
    {"memset", "copy", "memsets no kernel or copy overlaps"},
    {"idle_sync", "idle", "GPU idle while a host thread of the process sat in a synchronizing CUDA call"},
    {"idle_alloc_free", "idle", "GPU idle while a host thread allocated or freed memory (cudaMalloc/cudaFree...)"},
    {"idle_launch", "idle", "GPU idle while a host thread was launching work"},
    {"idle_other_cuda", "idle", "GPU idle while a host thread was in another CUDA call"},
    {"idle_no_cuda", "idle", "GPU idle while no host thread of the process was in a CUDA call"},
}};

Slice KernelSlice(std::string_view demangled) {
  const KernelIdentity id = DecodeKernelName(demangled);
  if (id.category == "collective" || id.library == "NCCL") return kCommunication;
  if (id.tensor_cores == true) return kTensorCoreMath;
  const bool math = id.category == "gemm" || id.category == "conv" || id.category == "attention";
  if (math && id.tensor_cores == false) return kCudaCoreMath;
  if (id.category == "elementwise" || id.category == "reduction" || id.category == "softmax" || id.category == "norm" ||
      id.category == "copy") {
    return kMemoryBound;
  }
  return kOtherKernels;
}

// ENUM_CUDA_MEM_KIND's pageable host memory, as MemcpyTable::src_kind/dst_kind hold it.
constexpr int8_t kPageableKind = kPageable;

Slice CopySlice(uint8_t copy_kind) {
  switch (static_cast<engine::CopyKind>(copy_kind)) {
    case engine::CopyKind::kHtoD:
      return kCopyHtoD;
    case engine::CopyKind::kDtoH:
      return kCopyDtoH;
    case engine::CopyKind::kDtoD:
      return kCopyDtoD;
    case engine::CopyKind::kPtoP:
      return kCopyPtoP;
    default:
      break;
  }
  // CUPTI's unified-memory migrations, which the engine keeps as their raw copyKind values.
  if (copy_kind == 11) return kCopyUvmHtoD;
  if (copy_kind == 12) return kCopyUvmDtoH;
  return kCopyOther;
}

// A host call's idle slice by its name: synchronizing calls (and the blocking, non-Async copies and memsets) first,
// then memory management, then launches.
Slice HostCallSlice(std::string_view n) {
  switch (ApiClassOfName(n)) {
    case ApiClass::kSync:
      return kIdleSync;
    case ApiClass::kMemcpy:
    case ApiClass::kMemset:
      return n.find("Async") == std::string_view::npos ? kIdleSync : kIdleOtherCuda;  // the blocking forms wait
    case ApiClass::kAlloc:
    case ApiClass::kFree:
      return kIdleAllocFree;
    case ApiClass::kLaunch:
      return kIdleLaunch;
    default:
      break;
  }
  // Polling the GPU in a loop is a wait too.
  if (LikePrefix(n, "cudaStreamQuery") || LikePrefix(n, "cudaEventQuery")) return kIdleSync;
  return kIdleOtherCuda;
}

struct Piece {
  Ns start, end;
  Slice slice;
};

// Sweeps `pieces` (may overlap) into disjoint segments, each given to the highest-priority slice active in it;
// `emit(start, end, slice_or_count)` is called in time order from the first piece's start to the last end, with
// kSliceCount for a gap where none is active. Pieces arrive sorted by start (both callers read start-sorted tables;
// an unsorted input is sorted first), so the active ones sit in a min-heap of their ends: O(n log k) for k at once,
// not a sort of every edge (the 2 GB export's 3.4M kernels and 5.8M runtime calls took 1.1 s that way).
template <typename Emit>
void Sweep(std::vector<Piece>& pieces, Emit&& emit) {
  if (!std::is_sorted(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.start < b.start; })) {
    std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.start < b.start; });
  }
  using End = std::pair<Ns, uint8_t>;
  std::priority_queue<End, std::vector<End>, std::greater<End>> ends;
  std::array<int64_t, kSliceCount> active{};
  constexpr Ns kNever = INT64_MAX;
  Ns last = pieces.empty() ? 0 : pieces.front().start;
  for (size_t i = 0; i < pieces.size() || !ends.empty();) {
    const Ns t = std::min(i < pieces.size() ? pieces[i].start : kNever, ends.empty() ? kNever : ends.top().first);
    if (t > last) {
      Slice top = kSliceCount;
      for (int s = 0; s < kSliceCount; ++s) {
        if (active[s] > 0) {
          top = static_cast<Slice>(s);
          break;
        }
      }
      emit(last, t, top);
      last = t;
    }
    for (; !ends.empty() && ends.top().first == t; ends.pop()) --active[ends.top().second];
    for (; i < pieces.size() && pieces[i].start == t; ++i) {
      if (pieces[i].end <= pieces[i].start) continue;  // a zero-length piece only marks where the span starts
      ++active[pieces[i].slice];
      ends.push({pieces[i].end, pieces[i].slice});
    }
  }
}

// One process's host CUDA calls as disjoint segments, each with its idle slice.
// `tids` gets the threads that made them.
std::vector<Piece> HostTimeline(const engine::Profile& profile, uint32_t pid, NameClassCache& classes,
                                std::set<uint32_t>& tids) {
  std::vector<Piece> calls;
  if (!profile.info().caps.runtime) return calls;
  const engine::RuntimeTable& rt = profile.runtime();
  for (size_t i = 0; i < rt.size(); ++i) {
    if (rt.pid[i] != pid) continue;
    calls.push_back({rt.start[i], rt.end[i], static_cast<Slice>(classes(rt.name[i]))});
    tids.insert(rt.tid[i]);
  }
  std::vector<Piece> out;
  Sweep(calls, [&](Ns a, Ns b, Slice s) {
    if (s != kSliceCount) out.push_back({a, b, s});
  });
  return out;
}

struct Budget {
  uint32_t pid = 0;
  int32_t device = 0;
  Ns span_start = 0, span_end = 0;
  std::array<Ns, kSliceCount> ns{};
  std::array<int64_t, kSliceCount> bytes{};     // copies and memsets of the slice's kind in the span
  std::array<int64_t, kSliceCount> pageable{};  // of those bytes, copies whose host side is pageable memory
  std::array<Ns, kSliceCount> op_ns{};          // their summed durations (for the achieved bandwidth)
  std::vector<Piece> ops;
  std::vector<std::pair<Ns, Ns>> no_cuda;  // the idle_no_cuda stretches, in time order
  // Of idle_no_cuda: time a CUDA-calling thread of the process sat in a traced OS runtime call, and the call that
  // held most of it; unset when OS runtime calls were not traced or not attributed (see AttributeHostWaits).
  std::optional<Ns> host_wait;
  std::string host_wait_top;
};

// The budget's time in the slices of one kind ("kernel", "copy", "idle").
Ns KindTotal(const Budget& b, std::string_view kind) {
  Ns total = 0;
  for (int s = 0; s < kSliceCount; ++s) {
    if (kSlices[s].kind == kind) total += b.ns[s];
  }
  return total;
}

void AddNoCuda(Budget& b, Ns a, Ns e) {
  b.ns[kIdleNoCuda] += e - a;
  if (!b.no_cuda.empty() && b.no_cuda.back().second == a) {
    b.no_cuda.back().second = e;
  } else {
    b.no_cuda.emplace_back(a, e);
  }
}

// Adds an idle gap [a, b) to the budget, split by the host timeline (sorted, disjoint); `cursor` walks it.
void AddIdle(Budget& b, Ns a, Ns e, const std::vector<Piece>& host, size_t& cursor) {
  while (cursor < host.size() && host[cursor].end <= a) ++cursor;
  Ns t = a;
  for (size_t h = cursor; h < host.size() && host[h].start < e; ++h) {
    const Ns from = std::max(t, host[h].start), to = std::min(e, host[h].end);
    if (from > t) AddNoCuda(b, t, from);
    if (to > from) b.ns[host[h].slice] += to - from;
    t = std::max(t, to);
  }
  if (e > t) AddNoCuda(b, t, e);
}

// What a process's CUDA-calling threads did in its idle_no_cuda stretches, from the OS runtime calls the export
// traced (OSRT_API): how long at least one of them sat in such a call (poll, read, a lock, a sleep), and the call
// that held most of that time. The rest of the stretches they ran host code, as far as the trace tells. Asked only
// for a budget whose idle_no_cuda holds at least kAttributeShare of its span; with more calls than the query
// limits allow, the budget stays unattributed and a note says why.
constexpr double kAttributeShare = 0.05;
constexpr int64_t kMaxOsrtRows = 500000;

Status AttributeHostWaits(const engine::Profile& p, Budget& b, const std::set<uint32_t>& tids,
                          const CancelToken& cancel, std::vector<std::string>& notes) {
  if (b.no_cuda.empty() || tids.empty()) return {};
  std::string tid_list;
  for (uint32_t tid : tids) tid_list += (tid_list.empty() ? "" : ",") + std::to_string(tid);
  const std::string sql = fmt::format(
      "SELECT start, end, (SELECT value FROM StringIds WHERE id = nameId) FROM OSRT_API "
      "WHERE ((globalTid >> 24) & 16777215) = {} AND (globalTid & 16777215) IN ({}) AND start < {} AND end > {} "
      "ORDER BY start",
      b.pid, tid_list, b.no_cuda.back().second, b.no_cuda.front().first);
  engine::QueryLimits limits;
  limits.max_rows = kMaxOsrtRows;
  auto r = p.Query(sql, cancel, limits);
  if (!r) return r.error().kind == ErrorKind::kCancelled ? Status(r.error()) : Status();
  if (r->total_rows > static_cast<int64_t>(r->rows.size())) {
    notes.push_back(
        fmt::format("pid {}: {} OS runtime calls overlap its idle time, more than the {} this skill "
                    "attributes, so host_wait_ns is not given.",
                    b.pid, r->total_rows, kMaxOsrtRows));
    return {};
  }
  std::map<std::string, Ns> by_name;
  std::vector<std::pair<Ns, Ns>> waits;  // the calls' union, in time order
  const auto& gaps = b.no_cuda;
  for (const auto& row : r->rows) {
    if (!std::holds_alternative<int64_t>(row[0]) || !std::holds_alternative<int64_t>(row[1])) continue;
    const Ns s = std::get<int64_t>(row[0]), e = std::get<int64_t>(row[1]);
    if (e <= s) continue;
    auto g = std::lower_bound(gaps.begin(), gaps.end(), s,
                              [](const std::pair<Ns, Ns>& gap, Ns t) { return gap.second <= t; });
    Ns overlap = 0;
    for (; g != gaps.end() && g->first < e; ++g) overlap += std::min(e, g->second) - std::max(s, g->first);
    if (overlap > 0) {
      by_name[std::holds_alternative<std::string>(row[2]) ? std::get<std::string>(row[2]) : "(unnamed)"] += overlap;
    }
    if (!waits.empty() && s <= waits.back().second) {
      waits.back().second = std::max(waits.back().second, e);
    } else {
      waits.emplace_back(s, e);
    }
  }
  Ns wait = 0;
  for (size_t i = 0, j = 0; i < waits.size() && j < gaps.size();) {
    const Ns from = std::max(waits[i].first, gaps[j].first), to = std::min(waits[i].second, gaps[j].second);
    if (to > from) wait += to - from;
    (waits[i].second < gaps[j].second) ? ++i : ++j;
  }
  b.host_wait = wait;
  Ns top = 0;
  for (const auto& [name, ns] : by_name) {
    if (ns > top) top = ns, b.host_wait_top = name;
  }
  return {};
}

class TimeBudgetSkill final : public Skill {
 public:
  std::string name() const override { return "time_budget"; }
  std::string description() const override {
    return "Where each GPU's time goes: every (process, device) span cut into slices that add up to it exactly: "
           "tensor-core, CUDA-core, memory-bound, other and communication kernels; copies by direction; idle time by "
           "what the host was doing.";
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kRuntime;
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::Profile& p = ctx.profile;
    if (!p.info().caps.kernels && !p.info().caps.memcpy && !p.info().caps.memset) {
      return Declined("This profile has no GPU operations (kernels, memcpys or memsets), so no GPU time to split.");
    }
    auto groups = GroupOps(ctx);
    if (!groups) return groups.error();
    if (groups->empty()) return Declined("No GPU operation starts inside the selected window, devices and processes.");
    NameClassCache host_classes(p.strings(), [](std::string_view n) { return static_cast<uint8_t>(HostCallSlice(n)); });
    std::map<uint32_t, std::pair<std::vector<Piece>, std::set<uint32_t>>> host_of_pid;
    std::vector<std::string> notes;
    for (Budget& b : *groups) {
      if (ctx.cancel.cancelled()) return CancelledError();
      auto [it, added] = host_of_pid.try_emplace(b.pid);
      if (added) it->second.first = HostTimeline(p, b.pid, host_classes, it->second.second);
      Split(b, it->second.first);
      if (p.info().caps.osrt &&
          static_cast<double>(b.ns[kIdleNoCuda]) >= kAttributeShare * static_cast<double>(b.span_end - b.span_start)) {
        if (Status s = AttributeHostWaits(p, b, it->second.second, ctx.cancel, notes); !s) return s.error();
      }
      b.no_cuda.clear();
      b.no_cuda.shrink_to_fit();
    }
    return Render(*groups, ctx, notes);
  }

 private:
  // Every selected op into its (pid, device) budget, with its slice, bytes and the span.
  static Expected<std::vector<Budget>> GroupOps(const Context& ctx) {
    const engine::Profile& p = ctx.profile;
    NameClassCache kernel_classes(p.strings(), [](std::string_view n) { return static_cast<uint8_t>(KernelSlice(n)); });
    // A profile has a handful of (pid, device) pairs: a small index, not a map lookup per operation.
    SmallIndex<PidDevice, PidDeviceHash> index;
    std::vector<Budget> out;
    auto add = [&](const auto& t, size_t i, Slice slice, int64_t bytes, bool pageable) {
      const auto [at, added] = index.Get(PidDevice{t.pid[i], t.device[i]});
      if (added) out.emplace_back();
      Budget& b = out[at];
      if (b.ops.empty()) b.pid = t.pid[i], b.device = t.device[i], b.span_start = t.start[i], b.span_end = t.end[i];
      b.span_start = std::min(b.span_start, t.start[i]);
      b.span_end = std::max(b.span_end, t.end[i]);
      b.ops.push_back({t.start[i], t.end[i], slice});
      b.bytes[slice] += bytes;
      if (pageable) b.pageable[slice] += bytes;
      b.op_ns[slice] += std::max<Ns>(0, t.end[i] - t.start[i]);
    };
    const bool ok =
        ForEachGpuOp(p, ctx.filter, GpuOpsOptions{.overhead = false}, ctx.cancel, [&](OpKind kind, size_t i) {
          switch (kind) {
            case OpKind::kKernel:
              add(p.kernels(), i, static_cast<Slice>(kernel_classes(p.kernels().name[i])), 0, false);
              break;
            case OpKind::kMemcpy:
              add(p.memcpys(), i, CopySlice(p.memcpys().copy_kind[i]), p.memcpys().bytes[i],
                  p.memcpys().src_kind[i] == kPageableKind || p.memcpys().dst_kind[i] == kPageableKind);
              break;
            case OpKind::kMemset:
              add(p.memsets(), i, kMemset, p.memsets().bytes[i], false);
              break;
            case OpKind::kGraph:
              add(p.graphs(), i, kCudaGraphs, 0, false);
              break;
          }
        });
    if (!ok) return CancelledError();
    std::sort(out.begin(), out.end(),
              [](const Budget& a, const Budget& b) { return std::tie(a.pid, a.device) < std::tie(b.pid, b.device); });
    return out;
  }

  // The sweep of one budget's ops: busy instants to the top slice, gaps to the host's idle slices.
  static void Split(Budget& b, const std::vector<Piece>& host) {
    size_t cursor = 0;
    Sweep(b.ops, [&](Ns a, Ns e, Slice s) {
      if (s == kSliceCount) {
        AddIdle(b, a, e, host, cursor);
      } else {
        b.ns[s] += e - a;
      }
    });
    b.ops.clear();
    b.ops.shrink_to_fit();
  }

  static Table Render(const std::vector<Budget>& groups, const Context& ctx, const std::vector<std::string>& notes) {
    Table t;
    t.columns = {IntCol("pid", "Process id"),
                 IntCol("device_id", "GPU device"),
                 StringCol("slice", "What the GPU was doing (or why it idled)"),
                 StringCol("kind", "kernel, copy or idle"),
                 IntCol("time_ns", "Time of the span in this slice; the slices of a (pid, device) add up to span_ns"),
                 DoubleCol("span_pct", "time_ns / span_ns x 100"),
                 IntCol("span_ns", "First GPU operation start to last end, for this process on this device"),
                 DoubleCol("kernel_pct",
                           "Share of the span in kernels (every kernel slice), x 100: the same on each row "
                           "of the span"),
                 IntCol("bytes", "Copies and memsets: bytes moved by this slice's operations in the span"),
                 IntCol("pageable_bytes", "Copies: of those bytes, copies from or to pageable (unpinned) host memory"),
                 DoubleCol("gb_per_s", "Copies and memsets: bytes / the operations' summed durations (achieved GB/s)"),
                 IntCol("host_wait_ns",
                        "idle_no_cuda, when OS runtime calls were traced: of time_ns, the time a CUDA-calling thread "
                        "of the process sat in an OS call (poll, read, a lock, a sleep)"),
                 IntCol("host_compute_ns",
                        "idle_no_cuda, when OS runtime calls were traced: time_ns - host_wait_ns, the time those "
                        "threads ran host code outside any CUDA or traced OS call"),
                 StringCol("host_wait_top", "idle_no_cuda: the OS call that held most of host_wait_ns"),
                 StringCol("description", "What the slice counts")};
    for (const Budget& b : groups) {
      const Ns span = b.span_end - b.span_start;
      const Ns kernels = KindTotal(b, "kernel");
      const Value kernel_pct = span > 0 ? D(100.0 * static_cast<double>(kernels) / static_cast<double>(span)) : Null();
      for (int s = 0; s < kSliceCount; ++s) {
        if (b.ns[s] == 0) continue;
        const bool copy = std::string_view(kSlices[s].kind) == "copy";
        const bool attributed = s == kIdleNoCuda && b.host_wait.has_value();
        t.rows.push_back(
            {I(b.pid), I(b.device), S(kSlices[s].id), S(kSlices[s].kind), I(b.ns[s]),
             span > 0 ? D(100.0 * static_cast<double>(b.ns[s]) / static_cast<double>(span)) : Null(), I(span),
             kernel_pct, copy ? I(b.bytes[s]) : Null(), copy ? I(b.pageable[s]) : Null(),
             copy && b.op_ns[s] > 0 ? D(static_cast<double>(b.bytes[s]) / static_cast<double>(b.op_ns[s])) : Null(),
             attributed ? I(*b.host_wait) : Null(), attributed ? I(b.ns[s] - *b.host_wait) : Null(),
             attributed && !b.host_wait_top.empty() ? S(b.host_wait_top) : Null(), S(kSlices[s].description)});
      }
      t.notes.push_back(Headline(b));
    }
    t.notes.push_back(
        "Each instant of a span goes to one slice, the first active in this order: tensor-core math, CUDA-core math, "
        "memory-bound, other kernels, CUDA graph executions recorded whole, communication, copies (HtoD, DtoH, DtoD, "
        "PtoP, unified-memory HtoD and DtoH, "
        "other), memsets; when no "
        "operation runs, the host's state: a synchronizing call (including blocking cudaMemcpy/cudaMemset), "
        "allocation or free, a launch, another CUDA call, or none. Kernel kinds come from the kernel names "
        "(see explain); a name that does not say is 'other kernels'.");
    t.notes.insert(t.notes.end(), notes.begin(), notes.end());
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }

  // "pid 123, device 0: span 969.1 ms; the largest slice is copy_htod (95.0%), kernels 2.3% ..."
  static std::string Headline(const Budget& b) {
    const Ns span = b.span_end - b.span_start;
    int top = 0;
    for (int s = 1; s < kSliceCount; ++s) {
      if (b.ns[s] > b.ns[top]) top = s;
    }
    const Ns kernels = KindTotal(b, "kernel"), copies = KindTotal(b, "copy"), idle = KindTotal(b, "idle");
    auto pct = [&](Ns v) { return span > 0 ? 100.0 * static_cast<double>(v) / static_cast<double>(span) : 0.0; };
    return fmt::format(
        "pid {}, device {}: span {}; the largest slice is {} ({:.1f}%); kernels {:.1f}%, copies and memsets not "
        "overlapped by kernels {:.1f}%, idle {:.1f}%.",
        b.pid, b.device, FormatDuration(span), kSlices[top].id, pct(b.ns[top]), pct(kernels), pct(copies), pct(idle));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeTimeBudget() {
  return std::make_shared<TimeBudgetSkill>();
}

}  // namespace nsys::skills::builtin
