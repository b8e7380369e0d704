// gpu_idle_causes: each GPU's idle time split into launch-starved, sync, dependency and unexplained. Checked three
// ways: on every fixture the parts add up to the idle time and that equals time_budget's idle slices; on real
// exports the host part (launch-starved and sync) and the issued part are recomputed from SQL over the export with a
// sweep written here; and on exports derived from a real one, the waits that the capture's event records resolve
// become dependency only when the event's work ended after the op was issued.
//
// The derived exports are not captured: they are mfu_2gpu_after.sqlite with rows added to its (empty)
// CUPTI_ACTIVITY_KIND_CUDA_EVENT table, following the nsys SQLite export schema that the fixture itself declares for
// that table (timestamp: "The device-side CUDA Event completion timestamp. 0 if not collected"; eventSyncId: "CUDA
// Event Sync ID to link event record API to related synchronization APIs") and CUPTI's CUpti_ActivityCudaEvent2
// record (docs.nvidia.com/cupti/api/structCUpti__ActivityCudaEvent2.html).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../derived_export.h"
#include "analysis_test_sql.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using Key = std::pair<int64_t, int64_t>;  // (pid, device)

struct Parts {
  int64_t idle = 0, launch_starved = 0, sync = 0, dependency = 0, unexplained = 0, waited = 0, unresolved = 0;
};

std::map<Key, Parts> PartsOf(const skills::Table& t) {
  std::map<Key, Parts> out;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    Parts& p = out[{IntCell(t, r, "pid"), IntCell(t, r, "device_id")}];
    p.idle = IntCell(t, r, "gpu_idle_ns");
    p.launch_starved = IntCell(t, r, "launch_starved_ns");
    p.sync = IntCell(t, r, "sync_ns");
    p.dependency = IntCell(t, r, "dependency_ns");
    p.unexplained = IntCell(t, r, "unexplained_ns");
    p.waited = IntCell(t, r, "waited_gaps");
    p.unresolved = IntCell(t, r, "unresolved_waits");
  }
  return out;
}

std::vector<std::string> AllFixtures() {
  std::vector<std::string> out;
  for (const char* dir : {"", "realworld/"}) {
    const std::filesystem::path folder = std::filesystem::path(FixturesDir()) / dir;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      // empty_export.sqlite holds no events at all: it does not open (engine tests check its error).
      if (entry.path().extension() == ".sqlite" && entry.path().filename() != "empty_export.sqlite")
        out.push_back(dir + entry.path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GpuIdleCauses, PartsAddUpToTheTimeBudgetsIdleOnEveryFixture) {
  NSYS_REQUIRE_FIXTURES();
  int checked = 0;
  for (const std::string& fixture : AllFixtures()) {
    SCOPED_TRACE(fixture);
    auto causes = RunSkill(fixture, "gpu_idle_causes");
    auto budget = RunSkill(fixture, "time_budget");
    if (!causes.ok() || !budget.ok()) {
      EXPECT_EQ(causes.ok(), budget.ok()) << "one of the two skills ran where the other failed";
      continue;
    }
    EXPECT_EQ(causes->declined, budget->declined);
    if (causes->declined) continue;
    std::map<Key, int64_t> budget_idle;
    for (size_t r = 0; r < budget->rows.size(); ++r) {
      if (StringCell(*budget, r, "kind") == "idle") {
        budget_idle[{IntCell(*budget, r, "pid"), IntCell(*budget, r, "device_id")}] += IntCell(*budget, r, "time_ns");
      }
    }
    for (const auto& [key, p] : PartsOf(*causes)) {
      EXPECT_EQ(p.launch_starved + p.sync + p.dependency + p.unexplained, p.idle) << key.first << "/" << key.second;
      EXPECT_EQ(p.idle, budget_idle[key]) << key.first << "/" << key.second;
      EXPECT_GE(std::min({p.launch_starved, p.sync, p.dependency, p.unexplained}), 0);
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);  // every (process, device) with GPU work over the 19 exports that have any
}

// The sweep written here from SQL: every kernel, copy and memset of the export (start > 0) with its launch call's
// end; per (pid, device) in start order, each hole of the union is split at the end of the call that launched the op
// that ends it. The part before is the host's (launch-starved or sync), the part after the device's.
struct HostAndIssued {
  int64_t host = 0, issued = 0, no_launch = 0;
};

std::map<Key, HostAndIssued> SweepFromSql(const std::string& fixture) {
  FixtureSql sql(fixture);
  struct Op {
    int64_t start, end, pid, device, kind, launch_end;
    bool has_launch;
  };
  std::vector<Op> ops;
  auto read = [&](const char* table, int64_t kind) {
    if (sql.Int(fmt::format("SELECT count(*) FROM sqlite_master WHERE name = '{}'", table)) == 0) return;
    sql.Each(fmt::format("SELECT o.start, o.end, (o.globalPid >> 24) & 0xFFFFFF, o.deviceId, r.end IS NOT NULL, "
                         "r.end FROM {} o LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = o.correlationId "
                         "AND ((r.globalTid >> 24) & 0xFFFFFF) = ((o.globalPid >> 24) & 0xFFFFFF) WHERE o.start > 0",
                         table),
             [&](sqlite3_stmt* st) {
               ops.push_back({sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                              sqlite3_column_int64(st, 3), kind, sqlite3_column_int64(st, 5),
                              sqlite3_column_int64(st, 4) != 0});
             });
  };
  read("CUPTI_ACTIVITY_KIND_KERNEL", 0);
  read("CUPTI_ACTIVITY_KIND_MEMCPY", 1);
  read("CUPTI_ACTIVITY_KIND_MEMSET", 2);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const Op& a, const Op& b) { return std::tie(a.start, a.kind) < std::tie(b.start, b.kind); });
  std::map<Key, int64_t> busy_until;
  std::map<Key, HostAndIssued> out;
  for (const Op& o : ops) {
    const Key key{o.pid, o.device};
    auto it = busy_until.find(key);
    if (it == busy_until.end()) {
      busy_until[key] = std::max(o.start, o.end);
      out[key];
      continue;
    }
    const int64_t a = it->second, b = o.start;
    if (b > a) {
      if (!o.has_launch) {
        out[key].no_launch += b - a;
      } else {
        const int64_t issued = std::clamp(o.launch_end, a, b);
        out[key].host += issued - a;
        out[key].issued += b - issued;
      }
    }
    it->second = std::max(it->second, o.end);
  }
  return out;
}

TEST(GpuIdleCauses, HostAndIssuedPartsMatchASweepOverSql) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* fixture :
       {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "realworld/rtx2080ti_cufcm_cufft.sqlite",
        "realworld/titanrtx_pytorch_dnn_colocation_b.sqlite", "realworld/t4_openmp_offload_solver.sqlite"}) {
    SCOPED_TRACE(fixture);
    NSYS_RUN_SKILL(t, fixture, "gpu_idle_causes");
    const auto expected = SweepFromSql(fixture);
    const auto got = PartsOf(t);
    ASSERT_EQ(got.size(), expected.size());
    for (const auto& [key, e] : expected) {
      const Parts& p = got.at(key);
      EXPECT_EQ(p.launch_starved + p.sync, e.host) << key.first << "/" << key.second;
      EXPECT_EQ(p.dependency + p.unexplained, e.issued + e.no_launch) << key.first << "/" << key.second;
    }
  }
}

// Only time the host spent in a synchronizing call before it issued the op is sync; on these real exports some is.
TEST(GpuIdleCauses, SyncIsHostTimeInSynchronizingCallsBeforeTheOpWasIssued) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "realworld/rtx2080ti_cufcm_cufft.sqlite", "gpu_idle_causes");
  const Parts p = PartsOf(t).begin()->second;
  EXPECT_GT(p.sync, 0);
  EXPECT_GT(p.launch_starved, 100 * p.sync);  // the host mostly prepared work: the expert's "launch-bound" reading
  EXPECT_EQ(StringCell(t, 0, "largest"), "launch-starved");
  // The synchronizing calls' total time bounds the sync part (SQL over the runtime table, NVIDIA's names).
  FixtureSql sql("realworld/rtx2080ti_cufcm_cufft.sqlite");
  const int64_t in_sync_calls = sql.Int(
      "SELECT sum(r.end - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId WHERE "
      "s.value LIKE 'cudaDeviceSynchronize%' OR s.value LIKE 'cudaStreamSynchronize%' OR s.value LIKE "
      "'cudaEventSynchronize%' OR s.value LIKE 'cudaThreadSynchronize%'");
  EXPECT_LE(p.sync, in_sync_calls);
}

// A derived export: mfu_2gpu_after with one CUDA event record for each eventSyncId its stream waits name.
struct Derived {
  std::map<Key, Parts> parts;
  std::string notes;
};

Derived RunDerived(const std::vector<std::string>& edits) {
  DerivedExport copy("mfu_2gpu_after.sqlite", edits);
  EXPECT_TRUE(copy.ok()) << copy.error();
  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(copy.path(), options);
  EXPECT_TRUE(profile.ok());
  if (!profile.ok()) return {};
  auto t = skills::RunByName(Builtins(), "gpu_idle_causes", **profile, {});
  EXPECT_TRUE(t.ok());
  if (!t.ok()) return {};
  return {PartsOf(*t), JoinNotes(*t)};
}

std::string RecordsBySyncId(const std::string& timestamp) {
  return "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT (timestamp, deviceId, contextId, streamId, correlationId, "
         "globalPid, eventId, eventSyncId) SELECT " +
         timestamp +
         ", deviceId, contextId, 7, NULL, globalPid, eventId, eventSyncId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION "
         "WHERE syncType = 2 GROUP BY globalPid, eventSyncId";
}

TEST(GpuIdleCauses, AWaitOnAnEventThatCompletedLateIsDependency) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_after.sqlite", "gpu_idle_causes");
  const auto captured = PartsOf(t);
  const Parts c = captured.at({148, 0});
  ASSERT_EQ(c.waited, 30);  // the capture's own stream waits, before 30 ops that ended a gap
  EXPECT_EQ(c.unresolved, 30);
  EXPECT_EQ(c.dependency, 0);
  EXPECT_TRUE(Contains(JoinNotes(t), "30 gaps follow a stream wait"));

  // Each event completes only after the end of the capture: every waited op was held from its launch to its start.
  const Derived late = RunDerived({RecordsBySyncId("9000000000000000000")});
  const Parts& l = late.parts.at({148, 0});
  EXPECT_EQ(l.waited, 30);
  EXPECT_EQ(l.unresolved, 0);
  EXPECT_GT(l.dependency, 0);
  EXPECT_EQ(l.launch_starved, c.launch_starved);
  EXPECT_EQ(l.sync, c.sync);
  EXPECT_EQ(l.dependency + l.unexplained, c.unexplained);
  EXPECT_EQ(late.parts.at({149, 1}).dependency, 0);  // its waits precede no gap
  EXPECT_FALSE(Contains(late.notes, "follow a stream wait"));

  // Each event completed at the start of the capture: the waits held nothing.
  const Derived early = RunDerived({RecordsBySyncId("1")});
  const Parts& e = early.parts.at({148, 0});
  EXPECT_EQ(e.unresolved, 0);
  EXPECT_EQ(e.dependency, 0);
  EXPECT_EQ(e.unexplained, c.unexplained);
}

// Without eventSyncId (older exports), a wait's event is the process's latest record of the same eventId before it;
// with no device timestamp, it completes when its stream's work queued before the record call ends. Here each record
// is the cudaEventRecord call its thread made last before the wait, on the stream of the kernel that thread launched
// last before it: that work ended before the gap, so the waits are resolved and hold nothing.
TEST(GpuIdleCauses, AWaitResolvedByEventIdOnWorkAlreadyDoneIsNotDependency) {
  NSYS_REQUIRE_FIXTURES();
  const std::string records =
      "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT (timestamp, deviceId, contextId, streamId, correlationId, globalPid, "
      "eventId, eventSyncId) SELECT 0, s.deviceId, s.contextId, "
      "(SELECT k.streamId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME l ON l.correlationId = "
      "k.correlationId AND l.globalTid = w.globalTid WHERE l.start < w.start ORDER BY l.start DESC LIMIT 1), "
      "(SELECT r.correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds n ON n.id = r.nameId WHERE n.value "
      "LIKE 'cudaEventRecord%' AND r.globalTid = w.globalTid AND r.start < w.start ORDER BY r.start DESC LIMIT 1), "
      "s.globalPid, s.eventId, NULL FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s JOIN CUPTI_ACTIVITY_KIND_RUNTIME w ON "
      "w.correlationId = s.correlationId AND ((w.globalTid >> 24) & 0xFFFFFF) = ((s.globalPid >> 24) & 0xFFFFFF) "
      "WHERE s.syncType = 2";
  NSYS_RUN_SKILL(t, "mfu_2gpu_after.sqlite", "gpu_idle_causes");
  const Parts c = PartsOf(t).at({148, 0});
  const Derived by_id = RunDerived({records});
  const Parts& d = by_id.parts.at({148, 0});
  EXPECT_EQ(d.waited, 30);
  EXPECT_EQ(d.unresolved, 0);
  EXPECT_EQ(d.dependency, 0);
  EXPECT_EQ(d.unexplained, c.unexplained);
}

}  // namespace
}  // namespace nsys::testing
