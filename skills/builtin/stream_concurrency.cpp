// stream_concurrency: per device, how long k streams were busy at once (k = 0..max), and per-stream busy time.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

constexpr const char* kViewLevels = "levels";
constexpr const char* kConcurrencyViewStreams = "streams";

struct StreamBusy {
  size_t device = 0;  // slot in the device sweeps
  int64_t ops = 0;
  bool open = false;  // inside a busy interval [cs, ce] of the stream's union
  Ns cs = 0, ce = 0;
  Ns busy = 0;
};

// Time at each concurrency level on one device, swept as ops arrive in start order: a stream's busy interval
// closes once an op of any stream starts after its end (no later op can extend it). O(log S) per op.
struct DeviceSweep {
  int32_t device = 0;
  bool started = false;
  Ns from = 0, to = 0, now = 0;
  size_t busy = 0;
  size_t streams = 0;
  std::vector<Ns> levels;
  std::priority_queue<std::pair<Ns, size_t>, std::vector<std::pair<Ns, size_t>>, std::greater<>> ends;

  void Accrue(Ns t) {
    if (levels.size() <= busy) levels.resize(busy + 1, 0);
    levels[busy] += t - now;
    now = t;
  }
  // Closes every open stream whose busy interval ended before t.
  void Advance(Ns t, std::vector<StreamBusy>& states) {
    while (!ends.empty() && ends.top().first < t) {
      auto [e, s] = ends.top();
      ends.pop();
      StreamBusy& st = states[s];
      if (st.ce != e) {  // extended since it was queued: requeue at its current end
        ends.emplace(st.ce, s);
        continue;
      }
      Accrue(e);
      --busy;
      st.open = false;
      st.busy += st.ce - st.cs;
    }
  }
  void Add(size_t s, Ns start, Ns end, std::vector<StreamBusy>& states) {
    if (!started) {
      started = true;
      from = now = start;
      to = end;
    }
    Advance(start, states);
    StreamBusy& st = states[s];
    ++st.ops;
    to = std::max(to, end);
    if (st.open) {
      st.ce = std::max(st.ce, end);
      return;
    }
    Accrue(start);
    ++busy;
    st.open = true;
    st.cs = start;
    st.ce = std::max(start, end);
    ends.emplace(st.ce, s);
  }
};

// Every stream's state and every device's sweep, fed the ops in start order.
struct Sweeps {
  SmallIndex<StreamKey, StreamKeyHash> index;
  SmallIndex<int32_t, std::hash<int32_t>> device_index;
  std::vector<StreamBusy> streams;
  std::vector<DeviceSweep> devices;

  template <typename OpTable>
  void Add(const OpTable& t, size_t i) {
    auto [k, added] = index.Get(StreamKey{t.pid[i], t.device[i], t.stream[i]});
    if (added) {
      auto [d, new_device] = device_index.Get(t.device[i]);
      if (new_device) {
        devices.emplace_back();
        devices.back().device = t.device[i];
      }
      streams.emplace_back();
      streams.back().device = d;
      ++devices[d].streams;
    }
    devices[streams[k].device].Add(k, t.start[i], t.end[i], streams);
  }

  void Finish() {
    for (DeviceSweep& d : devices) d.Advance(INT64_MAX, streams);
  }

  std::vector<size_t> DeviceOrder() const {
    std::vector<size_t> order(devices.size());
    for (size_t d = 0; d < order.size(); ++d) order[d] = d;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return devices[a].device < devices[b].device; });
    return order;
  }

  // Device di's rows (its streams, busiest first, or its concurrency levels) and its summary note.
  void AddDevice(size_t di, bool per_stream, Table& t) const {
    const DeviceSweep& d = devices[di];
    const Ns span = d.to - d.from;
    auto pct = [&](Ns v) { return span > 0 ? D(100.0 * static_cast<double>(v) / static_cast<double>(span)) : Null(); };
    size_t max_level = 0;
    double weighted = 0;
    Ns busy_any = 0;
    for (size_t lv = 0; lv < d.levels.size(); ++lv) {
      if (d.levels[lv] > 0) max_level = lv;
      weighted += static_cast<double>(lv) * static_cast<double>(d.levels[lv]);
      if (lv > 0) busy_any += d.levels[lv];
    }
    if (per_stream) {
      std::vector<size_t> ids;
      for (size_t k = 0; k < streams.size(); ++k) {
        if (streams[k].device == di) ids.push_back(k);
      }
      std::sort(ids.begin(), ids.end(), [&](size_t a, size_t b) { return streams[a].busy > streams[b].busy; });
      for (size_t k : ids) {
        const StreamKey& key = index.keys()[k];
        t.rows.push_back(
            {I(d.device), I(key.pid), I(key.stream), I(streams[k].ops), I(streams[k].busy), pct(streams[k].busy)});
      }
    } else {
      for (size_t lv = 0; lv <= max_level && lv < d.levels.size(); ++lv) {
        t.rows.push_back({I(d.device), I(lv), I(d.levels[lv]), pct(d.levels[lv])});
      }
    }
    t.notes.push_back(fmt::format(
        "Device {}: {} streams over {} (first op start to last op end); at most {} busy at once; at least one busy "
        "{} of the span; mean concurrency while busy {:.2f}.",
        d.device, d.streams, FormatDuration(span), max_level,
        FormatPct(span > 0 ? 100.0 * static_cast<double>(busy_any) / static_cast<double>(span) : 0),
        busy_any > 0 ? weighted / static_cast<double>(busy_any) : 0.0));
  }
};

class StreamConcurrencySkill final : public Skill {
 public:
  std::string name() const override { return "stream_concurrency"; }
  std::string description() const override {
    return "Per device: time with k CUDA streams busy at once, the maximum concurrency, and per-stream busy time.";
  }
  std::vector<ArgSpec> args() const override {
    return {{"view",
             ValueType::kString,
             "\"levels\": time at each concurrency level per device; \"streams\": busy time per stream.",
             Value(std::string(kViewLevels)),
             false,
             {kViewLevels, kConcurrencyViewStreams}}};
  }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset; }

  Expected<Table> run(const Context& ctx) const override {
    const auto& caps = ctx.profile.info().caps;
    if (!caps.kernels && !caps.memcpy && !caps.memset) {
      return Declined(
          "This profile has no GPU operations (no kernel, memcpy or memset activity), so stream "
          "concurrency cannot be measured.");
    }
    Sweeps sweeps;
    auto add = [&](const auto& t, size_t i) { sweeps.Add(t, i); };
    const bool ok = ForEachGpuOpRow(ctx.profile, ctx.filter, GpuOpsOptions{}, ctx.cancel, add);
    if (!ok) return CancelledError();
    sweeps.Finish();

    const bool per_stream = ArgString(ctx, "view") == kConcurrencyViewStreams;
    Table t = EmptyTable(per_stream);
    for (size_t di : sweeps.DeviceOrder()) sweeps.AddDevice(di, per_stream, t);
    t.notes.insert(t.notes.begin(),
                   "A stream is busy while any of its kernels, memcpys or memsets runs (its ops are unioned first). "
                   "Percentages are of each device's span from its first op start to its last op end.");
    if (sweeps.streams.empty()) t.notes.push_back("No GPU operations in the selection.");
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }

 private:
  static Table EmptyTable(bool per_stream) {
    Table t;
    if (per_stream) {
      t.columns = {IntCol("device_id", "GPU device id"),
                   IntCol("pid", "Process id"),
                   IntCol("stream_id", "CUDA stream"),
                   IntCol("ops", "Kernels, memcpys and memsets"),
                   IntCol("busy_ns", "Union of op time on the stream"),
                   DoubleCol("busy_pct", "busy_ns / device span x 100")};
    } else {
      t.columns = {IntCol("device_id", "GPU device id"), IntCol("streams_busy", "Number of streams running an op"),
                   IntCol("time_ns", "Time at exactly this many busy streams"),
                   DoubleCol("time_pct", "time_ns / device span x 100")};
    }
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeStreamConcurrency() {
  return std::make_shared<StreamConcurrencySkill>();
}

}  // namespace nsys::skills::builtin
