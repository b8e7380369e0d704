// CUDA graph executions recorded whole (nsys --cuda-graph-trace=graph, its default) as GPU work.
//
// The export is derived, not captured: tests/cuda_graph_export.h says from what and how, citing NVIDIA's schema.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "../cuda_graph_export.h"
#include "../derived_export.h"
#include "analysis_test_sql.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

constexpr int64_t kPid = 111;

struct Opened {
  std::unique_ptr<DerivedExport> copy;
  std::shared_ptr<engine::Profile> profile;
};

Opened OpenCapture(const std::vector<std::string>& edits) {
  Opened o;
  o.copy = std::make_unique<DerivedExport>(std::string(kH100), edits);
  EXPECT_TRUE(o.copy->ok()) << o.copy->error();
  engine::OpenOptions options;
  options.use_cache = false;
  auto p = engine::Profile::Open(o.copy->path(), options);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  if (p.ok()) o.profile = *p;
  return o;
}

Opened OpenGraphLevel() {
  return OpenCapture(GraphLevelEdits());
}

Opened OpenNodeLevel() {
  return OpenCapture(NodeLevelEdits());
}

using Spans = std::vector<std::pair<int64_t, int64_t>>;

// This process's peak resident memory so far, bytes.
int64_t PeakRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;
}

TEST(CudaGraphs, GraphLevelRecordsAreGpuWorkInTheTimeBudget) {
  NSYS_REQUIRE_FIXTURES();
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  ASSERT_TRUE(o.profile->Require(engine::Need::kKernels).ok());
  EXPECT_TRUE(o.profile->info().caps.graphs);
  const engine::GraphTable& g = o.profile->graphs();
  FixtureSql source(kH100);  // one launch per 10 ms of the window that had kernels
  ASSERT_EQ(static_cast<int64_t>(g.size()),
            source.Int("SELECT count(DISTINCT (start - " + std::to_string(kGraphFrom) +
                       ") / 10000000) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 0 AND start >= " +
                       std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo)));
  ASSERT_GE(g.size(), 10u);
  // Each execution is joined to its cudaGraphLaunch call (same process, correlation id), where the window cut from a
  // longer capture kept a launch call for one of its kernels (README: not every kernel has its runtime row).
  size_t linked = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g.device[i], 0);
    EXPECT_EQ(g.pid[i], kPid);
    EXPECT_EQ(g.graph_id[i], 7);
    EXPECT_EQ(g.launch[i] >= 0, g.correlation_id[i] != 0);
    if (g.launch[i] < 0) continue;
    ++linked;
    EXPECT_EQ(o.profile->strings().view(o.profile->runtime().name[static_cast<size_t>(g.launch[i])]),
              "cudaGraphLaunch_v10000");
  }
  EXPECT_GE(linked, 5u);
  auto t = skills::RunByName(Builtins(), "time_budget", *o.profile, {});
  ASSERT_TRUE(t.ok());
  // Independently, from SQL over the original export: the union of device 0's ops once the window's kernels are one
  // span per graph launch, and the part of the graphs' union no remaining kernel covers (kernels come first).
  FixtureSql sql(kH100);
  const std::string pid0 = "((globalPid >> 24) & 16777215) = 111 AND deviceId = 0 AND start > 0";
  const std::string outside =
      " AND NOT (start >= " + std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo) + ")";
  const Spans kernels = sql.Intervals("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + pid0 + outside);
  const Spans graphs =
      sql.Intervals("SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + pid0 +
                    " AND start >= " + std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo) +
                    " GROUP BY (start - " + std::to_string(kGraphFrom) + ") / 10000000");
  Spans ops = kernels;
  ops.insert(ops.end(), graphs.begin(), graphs.end());
  for (const char* table : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
    const Spans more = sql.Intervals(std::string("SELECT start, end FROM ") + table + " WHERE " + pid0);
    ops.insert(ops.end(), more.begin(), more.end());
  }
  Spans kernels_and_graphs = kernels;
  kernels_and_graphs.insert(kernels_and_graphs.end(), graphs.begin(), graphs.end());
  int64_t busy = 0, idle = 0, in_graphs = 0, span = 0;
  for (size_t r = 0; r < t->rows.size(); ++r) {
    if (IntCell(*t, r, "pid") != kPid) continue;
    span = IntCell(*t, r, "span_ns");
    (StringCell(*t, r, "kind") == "idle" ? idle : busy) += IntCell(*t, r, "time_ns");
    if (StringCell(*t, r, "slice") == "cuda_graphs") in_graphs = IntCell(*t, r, "time_ns");
  }
  EXPECT_EQ(busy, UnionLengthOf(ops));
  EXPECT_EQ(busy + idle, span);
  EXPECT_EQ(in_graphs, UnionLengthOf(kernels_and_graphs) - UnionLengthOf(kernels));
  EXPECT_GT(in_graphs, 0);
}

// Every idle interval still splits into parts that add up, a graph's launch call being the one that issued it.
// gpus counts a GPU's graph executions recorded whole as its work: the derived capture's device 0 runs every one.
TEST(CudaGraphs, TheGpusSkillCountsGraphExecutionsAsWork) {
  NSYS_REQUIRE_FIXTURES();
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  auto t = skills::RunByName(Builtins(), "gpus", *o.profile, {});
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_TRUE(o.profile->Require(engine::Need::kKernels).ok());
  int64_t launches = 0;
  for (size_t r = 0; r < t->rows.size(); ++r) {
    if (IntCell(*t, r, "device_id") != 0) continue;
    launches = IntCell(*t, r, "graph_launches");
    EXPECT_EQ(IntCell(*t, r, "ran_work"), 1);
  }
  EXPECT_EQ(launches, static_cast<int64_t>(o.profile->graphs().size()));
  EXPECT_GE(launches, 10);
}

TEST(CudaGraphs, IdleCausesAddUpWithGraphs) {
  NSYS_REQUIRE_FIXTURES();
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  auto causes = skills::RunByName(Builtins(), "gpu_idle_causes", *o.profile, {});
  auto budget = skills::RunByName(Builtins(), "time_budget", *o.profile, {});
  ASSERT_TRUE(causes.ok() && budget.ok());
  int64_t idle = 0;
  for (size_t r = 0; r < budget->rows.size(); ++r) {
    if (IntCell(*budget, r, "pid") == kPid && StringCell(*budget, r, "kind") == "idle")
      idle += IntCell(*budget, r, "time_ns");
  }
  const int row = [&] {
    for (size_t r = 0; r < causes->rows.size(); ++r)
      if (IntCell(*causes, r, "pid") == kPid) return static_cast<int>(r);
    return -1;
  }();
  ASSERT_GE(row, 0);
  const auto r = static_cast<size_t>(row);
  EXPECT_EQ(IntCell(*causes, r, "gpu_idle_ns"), idle);
  EXPECT_EQ(IntCell(*causes, r, "launch_starved_ns") + IntCell(*causes, r, "sync_ns") +
                IntCell(*causes, r, "dependency_ns") + IntCell(*causes, r, "unexplained_ns"),
            idle);
}

// cuda_graphs on both captures: the graph-level one gives the executions (count, time, the launch calls' host time
// once per launch); the node-level one groups the graph's kernels by their replay. Expected values from SQL over the
// captured export, chunked as the derivation chunks it.
TEST(CudaGraphs, NodeLevelKernelsGroupByReplayAndGraphLevelExecutionsCount) {
  NSYS_REQUIRE_FIXTURES();
  FixtureSql sql(kH100);
  const std::string window =
      "deviceId = 0 AND start >= " + std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo);
  const std::string linked =
      "EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = "
      "k.correlationId AND ((r.globalTid >> 24) & 16777215) = 111)";
  const std::string chunks = GraphChunksSql();
  const int64_t launches = sql.Int("SELECT count(*) FROM (" + chunks + ") WHERE with_call > 0");
  const int64_t kernels = sql.Int("SELECT sum(n) FROM (" + chunks + ") WHERE with_call > 0");
  const int64_t gpu_ns = sql.Int("SELECT sum(busy) FROM (" + chunks + ") WHERE with_call > 0");
  const int64_t spans = sql.Int("SELECT sum(span) FROM (" + chunks + ") WHERE with_call > 0");
  ASSERT_GE(launches, 5);

  Opened node = OpenNodeLevel();
  ASSERT_TRUE(node.profile);
  auto t = skills::RunByName(Builtins(), "cuda_graphs", *node.profile, {});
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->rows.size(), 1u);
  EXPECT_EQ(StringCell(*t, 0, "recorded"), "node");
  EXPECT_EQ(IntCell(*t, 0, "graph_id"), 7);
  EXPECT_EQ(IntCell(*t, 0, "launches"), launches);
  EXPECT_EQ(IntCell(*t, 0, "kernels"), kernels);
  EXPECT_EQ(IntCell(*t, 0, "gpu_ns"), gpu_ns);
  EXPECT_DOUBLE_EQ(DoubleCell(*t, 0, "kernels_per_launch"), static_cast<double>(kernels) / launches);
  EXPECT_DOUBLE_EQ(DoubleCell(*t, 0, "span_ns_per_launch"), static_cast<double>(spans) / launches);
  // The launch calls' host time, once per launch: the renamed calls of the captured export.
  const int64_t calls = sql.Int(
      "SELECT sum(r.end - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE "
      "((r.globalTid >> 24) & 16777215) = 111 AND r.correlationId IN (SELECT min(CASE WHEN " +
      linked + " THEN correlationId END) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE " + window + " GROUP BY " +
      NodeLevelChunkSql() + ")");
  EXPECT_EQ(IntCell(*t, 0, "launch_call_ns"), calls);

  Opened graph = OpenGraphLevel();
  ASSERT_TRUE(graph.profile);
  auto g = skills::RunByName(Builtins(), "cuda_graphs", *graph.profile, {});
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(g->rows.size(), 1u);
  EXPECT_EQ(StringCell(*g, 0, "recorded"), "graph");
  EXPECT_EQ(IntCell(*g, 0, "launches"), sql.Int("SELECT count(*) FROM (" + chunks + ")"));
  EXPECT_EQ(IntCell(*g, 0, "launch_call_ns"), calls);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(*g, 0, "kernels")));
  EXPECT_TRUE(Contains(JoinNotes(*g), "nsys profile --cuda-graph-trace=node"));
  // A profile without graphs says so.
  NSYS_RUN_SKILL(none, kH100, "cuda_graphs");
  EXPECT_TRUE(none.rows.empty());
  EXPECT_TRUE(Contains(JoinNotes(none), "records no CUDA graph"));
}

// NVTX attribution through the graph's launch: an execution is projected onto the NVTX ranges around its
// cudaGraphLaunch, as a kernel is onto those around its launch call. The coverage note counts the executions with the
// GPU ops: the window's kernels leave the count, the executions come in, and each joined one has its launch call.
TEST(CudaGraphs, NvtxProjectionCountsGraphExecutionsThroughTheirLaunch) {
  NSYS_REQUIRE_FIXTURES();
  auto coverage = [](const skills::Table& t) {
    const std::regex re(R"(Coverage: (\d+) GPU ops; (\d+) have a launch call)");
    std::smatch m;
    const std::string notes = JoinNotes(t);
    EXPECT_TRUE(std::regex_search(notes, m, re)) << notes;
    return std::make_pair(std::stoll(m[1]), std::stoll(m[2]));
  };
  NSYS_RUN_SKILL(captured, kH100, "nvtx_gpu_projection", {{"limit", Value(int64_t{0})}});
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  auto derived = skills::RunByName(Builtins(), "nvtx_gpu_projection", *o.profile, {{"limit", Value(int64_t{0})}});
  ASSERT_TRUE(derived.ok()) << derived.error().message;
  FixtureSql sql(kH100);
  const std::string window =
      " FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE deviceId = 0 AND start >= " + std::to_string(kGraphFrom) +
      " AND start < " + std::to_string(kGraphTo);
  const int64_t moved = sql.Int("SELECT count(*)" + window);
  const int64_t moved_launched =
      sql.Int("SELECT count(*)" + window +
              " AND EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND "
              "((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & 16777215))");
  const engine::GraphTable& g = o.profile->graphs();
  int64_t joined = 0;
  for (size_t i = 0; i < g.size(); ++i) joined += g.launch[i] >= 0;
  const auto [ops_before, launched_before] = coverage(captured);
  const auto [ops_after, launched_after] = coverage(*derived);
  EXPECT_EQ(ops_after, ops_before - moved + static_cast<int64_t>(g.size()));
  EXPECT_EQ(launched_after, launched_before - moved_launched + joined);
  EXPECT_GT(joined, 0);
}

// The typed question's skill: a GPU's work (events=gpu) holds the graph executions, so its busy and idle time are
// the time budget's, and an execution is grouped as "[CUDA graph N]".
TEST(CudaGraphs, AGpusWorkInEventStatsHoldsTheExecutions) {
  NSYS_REQUIRE_FIXTURES();
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  skills::Args args{{"events", Value(std::string("gpu"))}, {"device", Value(int64_t{0})}};
  auto all = skills::RunByName(Builtins(), "event_stats", *o.profile, args);
  ASSERT_TRUE(all.ok()) << all.error().message;
  auto budget = skills::RunByName(Builtins(), "time_budget", *o.profile, {{"device", Value(int64_t{0})}});
  ASSERT_TRUE(budget.ok());
  int64_t busy = 0, idle = 0;
  for (size_t r = 0; r < budget->rows.size(); ++r)
    (StringCell(*budget, r, "kind") == "idle" ? idle : busy) += IntCell(*budget, r, "time_ns");
  ASSERT_EQ(all->rows.size(), 1u);
  EXPECT_EQ(IntCell(*all, 0, "busy_ns"), busy);
  EXPECT_EQ(IntCell(*all, 0, "idle_ns"), idle);
  args["group_by"] = Value(std::string("name"));
  args["limit"] = Value(int64_t{0});
  auto by_name = skills::RunByName(Builtins(), "event_stats", *o.profile, args);
  ASSERT_TRUE(by_name.ok());
  const int row = FindRow(*by_name, "group", "[CUDA graph 7]");
  ASSERT_GE(row, 0);
  EXPECT_EQ(IntCell(*by_name, static_cast<size_t>(row), "count"), static_cast<int64_t>(o.profile->graphs().size()));
}

// events=graphs: one event per launch, whichever way nsys recorded it. Graph level: each execution. Node level: each
// replay, from its first kernel's start to its last one's end. Expected from SQL over the captured export, chunked as
// the derivation chunks it; a profile without graphs declines, and says why.
TEST(CudaGraphs, EventStatsCountsLaunchesFromEitherCapture) {
  NSYS_REQUIRE_FIXTURES();
  FixtureSql sql(kH100);
  const std::string chunks = GraphChunksSql();
  const skills::Args args{
      {"events", Value(std::string("graphs"))}, {"group_by", Value(std::string("name"))}, {"limit", Value(int64_t{0})}};

  Opened graph = OpenGraphLevel();
  ASSERT_TRUE(graph.profile);
  auto g = skills::RunByName(Builtins(), "event_stats", *graph.profile, args);
  ASSERT_TRUE(g.ok()) << g.error().message;
  ASSERT_EQ(g->rows.size(), 1u);
  EXPECT_EQ(StringCell(*g, 0, "group"), "CUDA graph 7");
  EXPECT_EQ(IntCell(*g, 0, "count"), sql.Int("SELECT count(*) FROM (" + chunks + ")"));
  EXPECT_EQ(IntCell(*g, 0, "total_ns"), sql.Int("SELECT sum(span) FROM (" + chunks + ")"));
  EXPECT_EQ(IntCell(*g, 0, "max_ns"), sql.Int("SELECT max(span) FROM (" + chunks + ")"));

  Opened node = OpenNodeLevel();
  ASSERT_TRUE(node.profile);
  auto n = skills::RunByName(Builtins(), "event_stats", *node.profile, args);
  ASSERT_TRUE(n.ok()) << n.error().message;
  ASSERT_EQ(n->rows.size(), 1u);
  EXPECT_EQ(StringCell(*n, 0, "group"), "CUDA graph 7");
  EXPECT_EQ(IntCell(*n, 0, "count"), sql.Int("SELECT count(*) FROM (" + chunks + ") WHERE with_call > 0"));
  EXPECT_EQ(IntCell(*n, 0, "total_ns"), sql.Int("SELECT sum(span) FROM (" + chunks + ") WHERE with_call > 0"));
  // Selected by name as every event is: another graph's id selects none.
  auto other = skills::RunByName(Builtins(), "event_stats", *node.profile,
                                 {{"events", Value(std::string("graphs"))}, {"name", Value(std::string("graph 8"))}});
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(IntCell(*other, 0, "count"), 0);

  NSYS_RUN_SKILL(none, kH100, "event_stats", {{"events", Value(std::string("graphs"))}});
  EXPECT_TRUE(none.declined);
  EXPECT_TRUE(Contains(JoinNotes(none), "records no CUDA graph")) << JoinNotes(none);
}

// A share of GPU time counts the executions recorded whole in its base, as the GPU's busy time does.
TEST(CudaGraphs, GpuShareCountsTheExecutionsInItsBase) {
  NSYS_REQUIRE_FIXTURES();
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  auto t = skills::RunByName(Builtins(), "event_stats", *o.profile,
                             {{"events", Value(std::string("gpu"))}, {"gpu_share", Value(true)}});
  ASSERT_TRUE(t.ok());
  FixtureSql sql(kH100);  // every op of the captured export: the derivation only regroups the window's kernels
  const int64_t ops = sql.Int(
      "SELECT (SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE NOT (deviceId = 0 AND start >= " +
      std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo) +
      ")) + (SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY) + (SELECT coalesce(sum(end - start), 0) FROM "
      "CUPTI_ACTIVITY_KIND_MEMSET)");
  int64_t executions = 0;
  const engine::GraphTable& g = o.profile->graphs();
  for (size_t i = 0; i < g.size(); ++i) executions += g.end[i] - g.start[i];
  EXPECT_EQ(IntCell(*t, 0, "gpu_all_ns"), ops + executions);
  EXPECT_NEAR(DoubleCell(*t, 0, "gpu_share_pct"), 100.0, 1e-9);
}

// The code lenses' figures (nvtx_range_kernels): a range's GPU time counts the graph executions its cudaGraphLaunch
// calls launched, as it counts the kernels its launch calls launched. Checked against event_stats, which selects GPU
// work inside a range by its launch call apart (kernels, then graph launches).
TEST(CudaGraphs, ARangesGpuTimeCountsTheGraphsItLaunched) {
  NSYS_REQUIRE_FIXTURES();
  Opened o = OpenGraphLevel();
  ASSERT_TRUE(o.profile);
  auto ranges = skills::RunByName(Builtins(), "nvtx_range_kernels", *o.profile, {{"limit", Value(int64_t{0})}});
  ASSERT_TRUE(ranges.ok()) << ranges.error().message;
  const int row = FindRow(*ranges, "name", "aten::pow");
  ASSERT_GE(row, 0);
  const auto r = static_cast<size_t>(row);
  int64_t count = 0, total = 0;
  for (const char* events : {"kernels", "graphs"}) {
    auto t = skills::RunByName(Builtins(), "event_stats", *o.profile,
                               {{"events", Value(std::string(events))}, {"inside", Value(std::string("aten::pow"))}});
    ASSERT_TRUE(t.ok());
    count += IntCell(*t, 0, "count");
    total += IntCell(*t, 0, "total_ns");
  }
  EXPECT_EQ(IntCell(*ranges, r, "kernels"), count);
  EXPECT_EQ(IntCell(*ranges, r, "gpu_ns"), total);
  EXPECT_EQ(StringCell(*ranges, r, "top_kernel"), "CUDA graph 7");  // its launches hold most of the range's time
  EXPECT_GT(total, 2 * IntCell(*ranges, r, "gpu_ns") / 3);
}

// Graph records from a hostile export: a text start, an end before the start, a graph id near 2^62, a device id of
// 2^31 - 1 and a launch with no correlation id or process. The bad rows are skipped and counted; every skill that
// reads graphs still answers, and the huge ids cost no memory by their value (no table is indexed by them).
TEST(CudaGraphs, DamagedGraphRecordsAreSkippedOrReadAsTheySay) {
  NSYS_REQUIRE_FIXTURES();
  std::vector<std::string> edits = GraphLevelEdits();
  for (const char* damage : {
           "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET start = 'abc' WHERE rowid = 1",
           "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET \"end\" = start - 5 WHERE rowid = 2",
           "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET graphId = 4611686018427387904 WHERE rowid = 3",
           "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET deviceId = 2147483647 WHERE rowid = 4",
           "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET correlationId = NULL, globalPid = NULL WHERE rowid = 5",
       })
    edits.emplace_back(damage);
  Opened damaged = OpenCapture(edits);
  ASSERT_TRUE(damaged.profile);
  engine::Profile& profile = *damaged.profile;
  ASSERT_TRUE(profile.Require(engine::Need::kKernels).ok());
  FixtureSql sql(kH100);
  const int64_t launches = sql.Int("SELECT count(DISTINCT (start - " + std::to_string(kGraphFrom) +
                                   ") / 10000000) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 0 AND start >= " +
                                   std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo));
  EXPECT_EQ(static_cast<int64_t>(profile.graphs().size()), launches - 2);
  const auto damage = profile.info().row_checks->Of("CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
  ASSERT_TRUE(damage.has_value());
  EXPECT_EQ(damage->bad_time, 1);
  EXPECT_EQ(damage->bad_span, 1);
  const auto& g = profile.graphs();
  bool huge_id = false, huge_device = false;
  for (size_t i = 0; i < g.size(); ++i) {
    huge_id = huge_id || g.graph_id[i] == 4611686018427387904;
    huge_device = huge_device || g.device[i] == 2147483647;
  }
  EXPECT_TRUE(huge_id);
  EXPECT_TRUE(huge_device);
  const auto before = PeakRssBytes();
  for (const char* skill : {"cuda_graphs", "time_budget", "gpu_idle_causes", "gpu_idle_gaps", "nvtx_gpu_projection"}) {
    auto t = skills::RunByName(Builtins(), skill, profile, {});
    EXPECT_TRUE(t.ok()) << skill << ": " << (t.ok() ? "" : t.error().message);
  }
  auto by_name =
      skills::RunByName(Builtins(), "event_stats", profile,
                        {{"events", Value(std::string("graphs"))}, {"group_by", Value(std::string("name"))}});
  ASSERT_TRUE(by_name.ok());
  EXPECT_GE(FindRow(*by_name, "group", "CUDA graph 4611686018427387904"), 0);
  int64_t counted = 0;
  for (size_t r = 0; r < by_name->rows.size(); ++r) counted += IntCell(*by_name, r, "count");
  EXPECT_EQ(counted, launches - 2);
  EXPECT_LT(PeakRssBytes() - before, int64_t{256} << 20);  // nothing sized by a device or graph id
}

}  // namespace
}  // namespace nsys::testing
