// thread_utilization: per CPU thread, time inside CUDA API calls and NVTX ranges over the window.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_host_sync.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

// A running union of start-ordered intervals that keeps only its total: O(1) memory per thread.
struct StreamingUnion {
  Ns cur_start = 0, cur_end = -1, total = 0;
  void Add(Ns s, Ns e) {
    if (e <= s) return;
    if (s > cur_end) {
      if (cur_end > cur_start) total += cur_end - cur_start;
      cur_start = s;
      cur_end = e;
    } else {
      cur_end = std::max(cur_end, e);
    }
  }
  Ns Total() const { return total + (cur_end > cur_start ? cur_end - cur_start : 0); }
};

struct ThreadStats {
  uint32_t pid = 0, tid = 0;
  StreamingUnion api, sync, nvtx;
  int64_t calls = 0, ranges = 0;
  std::vector<Ns> per_api;  // by dense API index
};

// Per-thread statistics, one entry per (pid, tid) in first-seen order.
class Threads {
 public:
  explicit Threads(const engine::StringPool& strings)
      : strings_(strings),
        dense_(strings.size(), -1),
        is_sync_(strings, [](std::string_view n) -> uint8_t { return HostSyncOfName(n) != HostSync::kNone; }) {}

  // Runtime calls overlapping [lo, hi), clipped to it. False when cancelled.
  bool AddApiCalls(const Context& ctx, Ns lo, Ns hi) {
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    auto [first, last] = OverlapRange(rt, ctx.filter);
    uint32_t last_pid = UINT32_MAX, last_tid = UINT32_MAX;
    ThreadStats* ts = nullptr;
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
      if (!ctx.filter.AcceptsProcess(rt.pid[i]) || !ctx.filter.AcceptsThread(rt.pid[i], rt.tid[i])) continue;
      if (rt.end[i] < lo || rt.start[i] >= hi) continue;
      const Ns s = std::max(rt.start[i], lo), e = std::min(rt.end[i], hi);
      if (rt.pid[i] != last_pid || rt.tid[i] != last_tid) {
        ts = &ThreadOf(rt.pid[i], rt.tid[i]);
        last_pid = rt.pid[i];
        last_tid = rt.tid[i];
      }
      ts->api.Add(s, e);
      ++ts->calls;
      const size_t d = DenseApi(rt.name[i]);
      if (ts->per_api.size() <= d) ts->per_api.resize(api_names_.size(), 0);
      ts->per_api[d] += e - s;
      if (api_is_sync_[d]) ts->sync.Add(s, e);
    }
    return true;
  }

  // Outermost push/pop ranges overlapping [lo, hi), clipped to it. False when cancelled.
  bool AddNvtxRanges(const Context& ctx, Ns lo, Ns hi) {
    const engine::NvtxTable& nv = ctx.profile.nvtx();
    auto [first, last] = OverlapRange(nv, ctx.filter);
    for (size_t i = first; i < last; ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
      // Nested ranges lie inside their parent on the same thread, so the outermost ones make the same union.
      if (nv.parent[i] != engine::kNone || nv.style[i] != engine::NvtxStyle::kPushPop) continue;
      if (!ctx.filter.AcceptsProcess(nv.pid[i]) || !ctx.filter.AcceptsThread(nv.pid[i], nv.tid[i])) continue;
      const Ns s = std::max(nv.start[i], lo), e = std::min(nv.end[i], hi);
      if (e <= s) continue;
      ThreadStats& ts = ThreadOf(nv.pid[i], nv.tid[i]);
      ts.nvtx.Add(s, e);
      ++ts.ranges;
    }
    return true;
  }

  void SortBusiestFirst() {
    std::sort(threads_.begin(), threads_.end(), [](const ThreadStats& a, const ThreadStats& b) {
      const Ns aa = a.api.Total(), ab = b.api.Total();
      if (aa != ab) return aa > ab;
      const Ns na = a.nvtx.Total(), nb = b.nvtx.Total();
      if (na != nb) return na > nb;
      return std::tie(a.pid, a.tid) < std::tie(b.pid, b.tid);
    });
  }

  // The API with the most time on the thread ("" without API calls).
  std::string TopApi(const ThreadStats& ts) const {
    if (ts.per_api.empty()) return {};
    const size_t best =
        static_cast<size_t>(std::max_element(ts.per_api.begin(), ts.per_api.end()) - ts.per_api.begin());
    return std::string(strings_.view(api_names_[best]));
  }

  const std::vector<ThreadStats>& list() const { return threads_; }

 private:
  ThreadStats& ThreadOf(uint32_t pid, uint32_t tid) {
    auto [k, added] = index_.Get((static_cast<uint64_t>(pid) << 32) | tid);
    if (added) {
      threads_.emplace_back();
      threads_.back().pid = pid;
      threads_.back().tid = tid;
    }
    return threads_[k];
  }

  // Dense API ids, so that per-thread per-API totals need no hashing per row.
  size_t DenseApi(engine::StrId name) {
    if (name >= dense_.size()) dense_.resize(static_cast<size_t>(name) + 1, -1);
    if (dense_[name] < 0) {
      dense_[name] = static_cast<int32_t>(api_names_.size());
      api_names_.push_back(name);
      api_is_sync_.push_back(is_sync_(name));
    }
    return static_cast<size_t>(dense_[name]);
  }

  const engine::StringPool& strings_;
  std::vector<ThreadStats> threads_;
  SmallIndex<uint64_t, std::hash<uint64_t>> index_;
  std::vector<engine::StrId> api_names_;
  std::vector<uint8_t> api_is_sync_;
  std::vector<int32_t> dense_;
  NameClassCache is_sync_;
};

class ThreadUtilizationSkill final : public Skill {
 public:
  std::string name() const override { return "thread_utilization"; }
  std::string description() const override {
    return "Per CPU thread: time inside CUDA API calls (and blocking syncs) and inside NVTX ranges over the window, "
           "busiest threads first.";
  }
  std::vector<ArgSpec> args() const override {
    return {LimitArg(20, "Maximum threads to return, busiest first; 0 returns every thread.")};
  }
  engine::Need needs() const override { return engine::Need::kRuntime | engine::Need::kNvtx; }
  bool filters_threads() const override { return true; }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    if (!info.caps.runtime && !info.caps.nvtx) {
      return Declined(
          "This profile has neither a CUDA API trace nor NVTX ranges, so there is no per-thread CPU "
          "activity to measure.");
    }
    const Ns lo = ctx.filter.window.whole ? info.start_ns : ctx.filter.window.begin;
    const Ns hi = ctx.filter.window.whole ? info.end_ns : ctx.filter.window.end;
    const Ns window = hi - lo;

    Threads threads(ctx.profile.strings());
    if (info.caps.runtime && !threads.AddApiCalls(ctx, lo, hi)) return CancelledError();
    if (info.caps.nvtx && !threads.AddNvtxRanges(ctx, lo, hi)) return CancelledError();
    threads.SortBusiestFirst();

    Table t = EmptyTable();
    auto pct = [&](Ns v) {
      return window > 0 ? D(100.0 * static_cast<double>(v) / static_cast<double>(window)) : Null();
    };
    for (const ThreadStats& ts : threads.list()) {
      t.rows.push_back({I(ts.pid), I(ts.tid), S(ThreadName(info, ts.pid, ts.tid)), I(ts.api.Total()),
                        pct(ts.api.Total()), I(ts.calls), I(ts.sync.Total()), S(threads.TopApi(ts)), I(ts.nvtx.Total()),
                        pct(ts.nvtx.Total()), I(ts.ranges)});
    }
    AddNotes(ctx, window, t);
    return t;
  }

 private:
  static Table EmptyTable() {
    Table t;
    t.columns = {IntCol("pid", "Process id"),
                 IntCol("tid", "Thread id"),
                 StringCol("thread_name", "Thread name from the export, when named"),
                 IntCol("cuda_api_ns", "Union of CUDA API call time on the thread, clipped to the window"),
                 DoubleCol("cuda_api_pct", "cuda_api_ns / window length x 100"),
                 IntCol("cuda_api_calls", "CUDA API calls overlapping the window"),
                 IntCol("sync_ns", "Time in blocking synchronization calls (device/stream/event/context sync)"),
                 StringCol("top_api", "The API with the most time on this thread"),
                 IntCol("nvtx_ns", "Union of push/pop NVTX range time on the thread, clipped to the window"),
                 DoubleCol("nvtx_pct", "nvtx_ns / window length x 100"),
                 IntCol("nvtx_ranges", "Outermost push/pop NVTX ranges overlapping the window")};
    return t;
  }

  // The notes, and the limit applied to the rows.
  static void AddNotes(const Context& ctx, Ns window, Table& t) {
    const engine::ProfileInfo& info = ctx.profile.info();
    t.notes.push_back(fmt::format(
        "Per CPU thread, the time covered by CUDA API calls and by push/pop NVTX ranges, each as a union (nested or "
        "overlapping calls count once) clipped to the window of {}; percentages are of that window length, per "
        "thread. Start/end NVTX ranges are not thread-bound and are left out.",
        FormatDuration(window)));
    if (!info.caps.runtime) t.notes.push_back("This profile has no CUDA API trace: only NVTX time is reported.");
    if (!info.caps.nvtx) t.notes.push_back("This profile has no NVTX ranges: only CUDA API time is reported.");
    if (!ctx.filter.devices.empty()) {
      t.notes.push_back("CPU threads carry no device id, so the device filter does not narrow this list.");
    }
    t.notes.push_back(WindowNote(ctx.filter));
    const int64_t limit = ArgInt(ctx, "limit");
    if (limit > 0 && t.rows.size() > static_cast<size_t>(limit)) {
      t.notes.push_back(
          fmt::format("Showing the {} busiest of {} threads; pass limit=0 for all.", limit, t.rows.size()));
      t.rows.resize(static_cast<size_t>(limit));
    }
  }

  static std::string ThreadName(const engine::ProfileInfo& info, uint32_t pid, uint32_t tid) {
    auto it = std::lower_bound(info.threads.begin(), info.threads.end(), std::make_pair(pid, tid),
                               [](const engine::Thread& th, const std::pair<uint32_t, uint32_t>& k) {
                                 return std::make_pair(th.pid, th.tid) < k;
                               });
    return it != info.threads.end() && it->pid == pid && it->tid == tid ? it->name : std::string();
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeThreadUtilization() {
  return std::make_shared<ThreadUtilizationSkill>();
}

}  // namespace nsys::skills::builtin
