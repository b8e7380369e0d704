// gpu_idle_causes: why each GPU had nothing to do. Every idle interval of a (process, device) (the holes of the union
// of its kernels, copies and memsets between its first and last one, exactly time_budget's idle slices) is split
// into what the device waited for, and the four parts add up to the interval:
//   launch_starved  the host had not yet issued the op that ended the gap (its launch call ended after the gap began),
//                   and no synchronizing call of the process was running;
//   sync            the same, while a host thread of the process sat in a synchronizing call (NVIDIA's
//                   synchronization records, else its list of synchronizing calls: common_host_sync.h);
//   dependency      the op was issued, but its stream waited on a CUDA event (cudaStreamWaitEvent, CUPTI's
//                   synchronization record of syncType 2) whose recorded work had not finished: up to that work's end;
//   unexplained     the op was issued and nothing the export records held it (launch latency between back-to-back
//                   ops, or a wait whose event record the export lacks: counted in `unresolved_waits`).
// The event a wait names is resolved to its record (CUPTI_ACTIVITY_KIND_CUDA_EVENT) by eventSyncId where both
// tables have it, else by eventId and time (the process's latest record of that event before the wait); the event
// completes at the record's device timestamp where collected, else when the last op its stream had been given
// before the record call ends.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "common_gpu_ops.h"
#include "common_host_sync.h"
#include "common_intervals.h"
#include "common_rows.h"
#include "nsys/engine/model.h"
#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/value.h"

namespace nsys::skills::builtin {
namespace {

constexpr Ns kNever = std::numeric_limits<Ns>::min();
constexpr int32_t kStreamWaitEvent = 2;  // ENUM_CUPTI_SYNC_TYPE: CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT
constexpr const char* kEventTable = "CUPTI_ACTIVITY_KIND_CUDA_EVENT";
constexpr int64_t kMaxEventRecords = 2'000'000;

enum Part : uint8_t { kLaunchStarved, kSync, kDependency, kUnexplained, kPartCount };
constexpr std::array<const char*, kPartCount> kPartNames{"launch-starved", "sync", "dependency", "unexplained"};

// One idle interval and the op whose start ended it.
struct Gap {
  Interval idle;
  int32_t launch = -1;      // the op's launch call (runtime row), -1 when the export does not hold it
  StreamKey stream{};       // the op's stream
  Ns prev_launch = kNever;  // when the stream's previous op was launched (its call's start)
  bool migration = false;   // the op is a unified-memory migration (CUPTI copyKind 11 or 12), which no call launches
};

struct Group {
  uint32_t pid = 0;
  int32_t device = 0;
  Ns first_start = 0, last_end = 0, busy = 0;
  int64_t gaps = 0;
  std::array<Ns, kPartCount> parts{};
  int64_t waits = 0, unresolved = 0, no_launch = 0, migrations = 0;
};

// A CUDA event record (cudaEventRecord): where it was recorded and when its work completed.
struct EventRecord {
  uint32_t pid = 0;
  int64_t event_id = -1, sync_id = -1;
  StreamKey stream{};
  uint32_t correlation = 0;
  Ns timestamp = 0;        // device-side completion, 0 when not collected
  Ns call_start = kNever;  // the record call's start, kNever when the call is not in the export
  Ns completes = kNever;   // resolved below
};

struct KeyHash {
  size_t operator()(const std::pair<uint32_t, int64_t>& k) const {
    return std::hash<int64_t>()(k.second) ^ (static_cast<size_t>(k.first) << 1);
  }
};

// Step 1: the export's event records, read with the columns its schema has (none when the table is absent).
std::vector<EventRecord> ReadEventRecords(const engine::Profile& p, const CancelToken& cancel,
                                          std::vector<std::string>& notes) {
  auto probe = p.Query(fmt::format("SELECT * FROM {} LIMIT 0", kEventTable), cancel);
  if (!probe) return {};
  auto has = [&](std::string_view c) {
    return std::find(probe->columns.begin(), probe->columns.end(), c) != probe->columns.end();
  };
  const std::string sql =
      fmt::format("SELECT globalPid, eventId, {}, deviceId, streamId, correlationId, {} FROM {}",
                  has("eventSyncId") ? "eventSyncId" : "NULL", has("timestamp") ? "timestamp" : "NULL", kEventTable);
  engine::QueryLimits limits;
  limits.max_rows = kMaxEventRecords;
  auto r = p.Query(sql, cancel, limits);
  if (!r) return {};
  if (r->total_rows > static_cast<int64_t>(r->rows.size())) {
    notes.push_back(
        fmt::format("The export holds {} CUDA event records, more than the {} read: waits on the others "
                    "count as unresolved.",
                    r->total_rows, kMaxEventRecords));
  }
  std::vector<EventRecord> out;
  out.reserve(r->rows.size());
  auto num = [](const Value& v, int64_t fallback) {
    return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : fallback;
  };
  for (const auto& row : r->rows) {
    EventRecord e;
    e.pid = engine::PidOf(num(row[0], 0));
    e.event_id = num(row[1], -1);
    e.sync_id = num(row[2], -1);
    e.stream = {e.pid, static_cast<int32_t>(num(row[3], -1)), static_cast<int32_t>(num(row[4], -1))};
    e.correlation = static_cast<uint32_t>(num(row[5], 0));
    e.timestamp = num(row[6], 0);
    out.push_back(e);
  }
  return out;
}

// The records' order: by process, event and call start, so that a wait finds the latest record before it.
bool RecordBefore(const EventRecord& a, const EventRecord& b) {
  return std::tie(a.pid, a.event_id, a.call_start) < std::tie(b.pid, b.event_id, b.call_start);
}

// Step 2: each record's call start, from the runtime row of the same process and correlation id.
void FindRecordCalls(const engine::RuntimeTable& rt, std::vector<EventRecord>& records) {
  if (records.empty()) return;
  std::unordered_map<std::pair<uint32_t, int64_t>, size_t, KeyHash> want;
  for (size_t i = 0; i < records.size(); ++i) want.emplace(std::make_pair(records[i].pid, records[i].correlation), i);
  std::unordered_map<std::pair<uint32_t, int64_t>, Ns, KeyHash> found;
  for (size_t i = 0; i < rt.size(); ++i) {
    const auto key = std::make_pair(rt.pid[i], static_cast<int64_t>(rt.correlation_id[i]));
    if (want.count(key)) found.emplace(key, rt.start[i]);
  }
  for (EventRecord& e : records) {
    const auto it = found.find({e.pid, e.correlation});
    if (it != found.end()) e.call_start = it->second;
  }
  std::sort(records.begin(), records.end(), RecordBefore);
}

// The ops of the streams events were recorded on: (launch call start, end), in launch order.
using StreamOps = std::unordered_map<StreamKey, std::vector<std::pair<Ns, Ns>>, StreamKeyHash>;

// Step 3: one sweep of the ops in start order: each (pid, device)'s busy time, and each gap handed to `on_gap` (with
// its group's index) with the op that ended it and when its stream's previous op was launched; and the ops of the
// recording streams. Gaps are not kept: a 2 GB export has millions.
template <typename OnGap>
Expected<std::vector<Group>> SweepGaps(const Context& ctx, StreamOps& recording, OnGap&& on_gap) {
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  SmallIndex<PidDevice, PidDeviceHash> index;
  std::vector<Group> groups;
  std::vector<Ns> covered_from, busy_until;
  std::unordered_map<StreamKey, Ns, StreamKeyHash> last_launch;
  auto add = [&](const auto& t, size_t i) {
    const auto [g, added] = index.Get(PidDevice{t.pid[i], t.device[i]});
    const Ns start = t.start[i], end = std::max(t.end[i], t.start[i]);
    const Ns launch = t.launch[i] >= 0 ? rt.start[static_cast<size_t>(t.launch[i])] : kNever;
    const StreamKey key{t.pid[i], t.device[i], t.stream[i]};
    if (added) {
      groups.push_back(Group{t.pid[i], t.device[i], start, end});
      covered_from.push_back(start);
      busy_until.push_back(end);
    } else if (start > busy_until[g]) {
      const auto prev = last_launch.find(key);
      bool migration = false;
      if constexpr (std::is_same_v<std::decay_t<decltype(t)>, engine::MemcpyTable>) migration = t.copy_kind[i] >= 11;
      ++groups[g].gaps;
      on_gap(
          g, groups[g],
          Gap{{busy_until[g], start}, t.launch[i], key, prev == last_launch.end() ? kNever : prev->second, migration});
      groups[g].busy += busy_until[g] - covered_from[g];
      covered_from[g] = start;
    }
    busy_until[g] = std::max(busy_until[g], end);
    groups[g].last_end = std::max(groups[g].last_end, end);
    if (launch != kNever) last_launch[key] = launch;
    if (auto r = recording.find(key); r != recording.end()) r->second.emplace_back(launch, end);
  };
  if (!ForEachGpuOpRow(ctx.profile, ctx.filter, GpuOpsOptions{.overhead = false}, ctx.cancel, add)) {
    return CancelledError();
  }
  for (size_t g = 0; g < groups.size(); ++g) groups[g].busy += busy_until[g] - covered_from[g];
  return groups;
}

// Step 4: when each record's event completed: its device timestamp, else the end of the last op its stream had
// been given before the record call (kNever: nothing was pending, the event completed at once).
void ResolveCompletions(std::vector<EventRecord>& records, StreamOps& recording) {
  for (auto& [key, ops] : recording) std::sort(ops.begin(), ops.end());
  for (EventRecord& e : records) {
    if (e.timestamp > 0) {
      e.completes = e.timestamp;
      continue;
    }
    const auto it = recording.find(e.stream);
    if (e.call_start == kNever || it == recording.end()) continue;
    const auto& ops = it->second;
    const auto before = std::lower_bound(ops.begin(), ops.end(), std::make_pair(e.call_start, kNever));
    Ns done = kNever;
    for (auto o = ops.begin(); o != before; ++o) done = std::max(done, o->second);
    e.completes = done;
  }
}

// The stream waits of the profile, per waiting stream, in call order; with the record each resolves to.
struct Wait {
  Ns start = 0;
  const EventRecord* record = nullptr;  // null: not resolved
};
using StreamWaits = std::unordered_map<StreamKey, std::vector<Wait>, StreamKeyHash>;

// Step 5: each wait's record: by eventSyncId where both sides carry it, else the process's latest record of the
// same event whose call began before the wait.
StreamWaits MatchWaits(const engine::SyncTable& syncs, const std::vector<EventRecord>& records) {
  std::unordered_map<std::pair<uint32_t, int64_t>, const EventRecord*, KeyHash> by_sync_id;
  for (const EventRecord& e : records) {
    if (e.sync_id >= 0) by_sync_id.emplace(std::make_pair(e.pid, e.sync_id), &e);
  }
  StreamWaits waits;
  for (size_t i = 0; i < syncs.size(); ++i) {
    if (syncs.sync_type[i] != kStreamWaitEvent) continue;
    Wait w{syncs.start[i], nullptr};
    if (const auto it = by_sync_id.find({syncs.pid[i], syncs.event_sync_id[i]});
        syncs.event_sync_id[i] >= 0 && it != by_sync_id.end()) {
      w.record = it->second;
    } else {
      EventRecord probe;
      probe.pid = syncs.pid[i];
      probe.event_id = syncs.event_id[i];
      probe.call_start = syncs.start[i];
      auto after = std::upper_bound(records.begin(), records.end(), probe, RecordBefore);
      if (after != records.begin()) {
        const EventRecord& r = *std::prev(after);
        if (r.pid == probe.pid && r.event_id == probe.event_id && r.call_start != kNever) w.record = &r;
      }
    }
    waits[StreamKey{syncs.pid[i], syncs.device[i], syncs.stream[i]}].push_back(w);
  }
  for (auto& [key, list] : waits) {
    std::sort(list.begin(), list.end(), [](const Wait& a, const Wait& b) { return a.start < b.start; });
  }
  return waits;
}

// Each process's time in synchronizing calls, as a union of disjoint intervals in time order.
std::map<uint32_t, std::vector<Interval>> SyncTime(const engine::Profile& p) {
  HostSyncCalls kinds(p.runtime(), &p.syncs(), p.strings());
  const engine::RuntimeTable& rt = p.runtime();
  std::map<uint32_t, std::vector<Interval>> by_pid;
  for (size_t i = 0; i < rt.size(); ++i) {
    if (kinds.Of(i) == HostSync::kNone) continue;
    AppendToUnion(by_pid[rt.pid[i]], {rt.start[i], rt.end[i]});  // the calls are start-sorted
  }
  return by_pid;
}

// Step 6: one gap's four parts.
void SplitGap(const Gap& gap, const engine::RuntimeTable& rt, const std::vector<Interval>* sync_time,
              const StreamWaits& waits, Group& g) {
  const Ns a = gap.idle.start, b = gap.idle.end;
  if (gap.launch < 0) {
    g.parts[kUnexplained] += b - a;
    ++(gap.migration ? g.migrations : g.no_launch);
    return;
  }
  const Ns call_start = rt.start[static_cast<size_t>(gap.launch)];
  const Ns issued = std::clamp(rt.end[static_cast<size_t>(gap.launch)], a, b);
  const Ns in_sync = sync_time != nullptr ? ClippedLength(*sync_time, a, issued) : 0;
  g.parts[kSync] += in_sync;
  g.parts[kLaunchStarved] += issued - a - in_sync;
  Ns held_until = kNever;
  bool unresolved = false, waited = false;
  if (const auto it = waits.find(gap.stream); it != waits.end()) {
    const auto& list = it->second;
    auto w =
        std::lower_bound(list.begin(), list.end(), gap.prev_launch, [](const Wait& x, Ns at) { return x.start < at; });
    for (; w != list.end() && w->start <= call_start; ++w) {
      waited = true;
      if (w->record == nullptr) {
        unresolved = true;
      } else {
        held_until = std::max(held_until, w->record->completes);
      }
    }
  }
  const Ns dependency = held_until > issued ? std::min(held_until, b) - issued : 0;
  g.parts[kDependency] += dependency;
  g.parts[kUnexplained] += b - issued - dependency;
  g.waits += waited;
  g.unresolved += unresolved && dependency == 0;
}

Table Render(std::vector<Group>& groups, const Context& ctx, std::vector<std::string> notes) {
  std::sort(groups.begin(), groups.end(),
            [](const Group& a, const Group& b) { return std::tie(a.pid, a.device) < std::tie(b.pid, b.device); });
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               IntCol("span_ns", "First GPU op start to last op end (kernels, copies, memsets)"),
               IntCol("gpu_idle_ns", "span_ns minus the union of the ops: the sum of the four parts"),
               IntCol("gaps", "Idle intervals"),
               IntCol("launch_starved_ns",
                      "Idle before the host issued the next op (its launch call ended after "
                      "the gap began), no synchronizing call running"),
               IntCol("sync_ns",
                      "Idle before the host issued the next op, while a host thread of the process sat "
                      "in a synchronizing CUDA call"),
               IntCol("dependency_ns",
                      "Idle after the next op was issued while its stream waited on a CUDA "
                      "event whose recorded work had not finished"),
               IntCol("unexplained_ns", "Idle after the next op was issued that no recorded wait explains"),
               DoubleCol("launch_starved_pct", "launch_starved_ns / gpu_idle_ns x 100"),
               DoubleCol("sync_pct", "sync_ns / gpu_idle_ns x 100"),
               DoubleCol("dependency_pct", "dependency_ns / gpu_idle_ns x 100"),
               DoubleCol("unexplained_pct", "unexplained_ns / gpu_idle_ns x 100"),
               DoubleCol("idle_span_pct", "gpu_idle_ns / span_ns x 100"),
               StringCol("largest", "The largest part: launch-starved, sync, dependency or unexplained"),
               IntCol("waited_gaps", "Gaps whose op's stream waited on an event before it was issued"),
               IntCol("unresolved_waits", "Of those, gaps whose event record the export does not hold")};
  int64_t unresolved = 0, no_launch = 0, migrations = 0;
  for (const Group& g : groups) {
    const Ns span = g.last_end - g.first_start, idle = span - g.busy;
    auto pct = [](Ns part, Ns whole) {
      return whole > 0 ? D(100.0 * static_cast<double>(part) / static_cast<double>(whole)) : Null();
    };
    const size_t largest = static_cast<size_t>(std::max_element(g.parts.begin(), g.parts.end()) - g.parts.begin());
    t.rows.push_back({I(g.pid), I(g.device), I(span), I(idle), I(g.gaps), I(g.parts[kLaunchStarved]), I(g.parts[kSync]),
                      I(g.parts[kDependency]), I(g.parts[kUnexplained]), pct(g.parts[kLaunchStarved], idle),
                      pct(g.parts[kSync], idle), pct(g.parts[kDependency], idle), pct(g.parts[kUnexplained], idle),
                      pct(idle, span), idle > 0 ? S(kPartNames[largest]) : Null(), I(g.waits), I(g.unresolved)});
    unresolved += g.unresolved;
    no_launch += g.no_launch;
    migrations += g.migrations;
  }
  notes.insert(notes.begin(),
               "Why each GPU idled: every idle interval of a (process, device) between its first and last op, split "
               "into launch-starved (the host had not issued the next op), sync (the same, while the host sat in a "
               "synchronizing call), dependency (issued, but its stream waited on an event whose work had not "
               "finished) and unexplained; the parts add up to gpu_idle_ns, which equals time_budget's idle slices.");
  if (unresolved > 0) {
    notes.push_back(
        fmt::format("{} gaps follow a stream wait (cudaStreamWaitEvent) whose event record the export "
                    "does not hold ({} is empty or absent), so their waits count as unexplained.",
                    unresolved, kEventTable));
  }
  if (migrations > 0) {
    notes.push_back(
        fmt::format("{} gaps end with a unified-memory migration, which no call launches (a page fault "
                    "or a prefetch starts it): unexplained.",
                    migrations));
  }
  if (no_launch > 0) {
    notes.push_back(
        fmt::format("{} gaps end with an op whose launch call is not in the export (an export cut from a "
                    "longer capture loses some): unexplained.",
                    no_launch));
  }
  t.notes = std::move(notes);
  t.notes.push_back(WindowNote(ctx.filter));
  return t;
}

class GpuIdleCausesSkill final : public Skill {
 public:
  std::string name() const override { return "gpu_idle_causes"; }
  std::string description() const override {
    return "Why each GPU idled: its idle time split into launch-starved (the host had not issued the next op), host "
           "sync, dependency (a stream waiting on an event) and unexplained, adding up to the idle time.";
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kRuntime |
           engine::Need::kSync;
  }

  Expected<Table> run(const Context& ctx) const override {
    const engine::Profile& p = ctx.profile;
    if (!p.info().caps.kernels && !p.info().caps.memcpy && !p.info().caps.memset) {
      return Declined("This profile has no GPU operations (kernels, memcpys or memsets), so no idle time to split.");
    }
    std::vector<std::string> notes;
    std::vector<EventRecord> records = ReadEventRecords(p, ctx.cancel, notes);
    FindRecordCalls(p.runtime(), records);
    StreamOps recording;
    for (const EventRecord& e : records) recording.try_emplace(e.stream);
    const StreamWaits waits = MatchWaits(p.syncs(), records);  // the records' completions are resolved after the sweep
    const auto sync_time = SyncTime(p);
    std::vector<std::pair<size_t, Gap>> pending;  // gaps after waits on resolved records, split once they complete
    auto on_gap = [&](size_t g, Group& group, const Gap& gap) {
      if (!records.empty() && waits.count(gap.stream)) {
        pending.emplace_back(g, gap);
        return;
      }
      const auto s = sync_time.find(group.pid);
      SplitGap(gap, p.runtime(), s == sync_time.end() ? nullptr : &s->second, waits, group);
    };
    auto groups = SweepGaps(ctx, recording, on_gap);
    if (!groups) return groups.error();
    if (groups->empty()) return Declined("No GPU operation starts inside the selected window, devices and processes.");
    ResolveCompletions(records, recording);
    for (const auto& [g, gap] : pending) {
      Group& group = (*groups)[g];
      const auto s = sync_time.find(group.pid);
      SplitGap(gap, p.runtime(), s == sync_time.end() ? nullptr : &s->second, waits, group);
    }
    return Render(*groups, ctx, std::move(notes));
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeGpuIdleCauses() {
  return std::make_shared<GpuIdleCausesSkill>();
}

}  // namespace nsys::skills::builtin
