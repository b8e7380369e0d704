// CUDA graph executions recorded whole (nsys --cuda-graph-trace=graph, its default) as GPU work.
//
// The export is derived, not captured: tests/cuda_graph_export.h says from what and how, citing NVIDIA's schema.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
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

Opened OpenGraphLevel() {
  Opened o;
  o.copy = std::make_unique<DerivedExport>(std::string(kH100), testing::GraphLevelEdits());
  EXPECT_TRUE(o.copy->ok()) << o.copy->error();
  engine::OpenOptions options;
  options.use_cache = false;
  auto p = engine::Profile::Open(o.copy->path(), options);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  if (p.ok()) o.profile = *p;
  return o;
}

using Spans = std::vector<std::pair<int64_t, int64_t>>;

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

}  // namespace
}  // namespace nsys::testing
