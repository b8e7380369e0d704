// agent::Diff (in tests/core: it runs through a real Workspace and checks with SQLite) over real fixtures through a
// real Workspace's runners. Numbers are checked against SQL over the exports (sqlite3, read-only), computed here
// independently of the skills.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "nsys/agent/diff.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::agent {
namespace {
using testing::Fixture;

// One row of numbers from a query on a fixture.
std::vector<double> Sql(const std::string& fixture, const std::string& query) {
  sqlite3* db = nullptr;
  std::vector<double> out;
  const std::string uri = "file:" + Fixture(fixture) + "?mode=ro&immutable=1";
  if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "open " << fixture;
    sqlite3_close(db);
    return out;
  }
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, query.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    for (int i = 0; i < sqlite3_column_count(st); ++i) out.push_back(sqlite3_column_double(st, i));
  } else {
    ADD_FAILURE() << sqlite3_errmsg(db) << " in " << query;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

std::set<std::string> KernelNames(const std::string& fixture) {
  sqlite3* db = nullptr;
  std::set<std::string> out;
  const std::string uri = "file:" + Fixture(fixture) + "?mode=ro&immutable=1";
  sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db,
                     "select distinct s.value from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s on s.id = "
                     "k.demangledName",
                     -1, &st, nullptr);
  while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
    out.insert(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

// GPU idle inside each device's span (first op start to last op end): the union of kernels, memcpys and memsets,
// computed with a running maximum of end times.
std::vector<double> IdleOfDevice(const std::string& fixture, int device) {
  return Sql(fixture,
             "with ops as (select deviceId d, start s, end e from CUPTI_ACTIVITY_KIND_KERNEL union all select "
             "deviceId, start, end from CUPTI_ACTIVITY_KIND_MEMCPY union all select deviceId, start, end from "
             "CUPTI_ACTIVITY_KIND_MEMSET), o as (select d, s, e, max(e) over (partition by d order by s, e rows "
             "between unbounded preceding and 1 preceding) pe from ops) select max(e) - min(s), sum(case when pe is "
             "not null and s > pe then s - pe else 0 end) from o where d = " +
                 std::to_string(device));
}

class DiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    core::WorkspaceConfig config;
    config.open.use_cache = false;
    config.default_skill_dirs = false;
    ws_ = std::make_unique<core::Workspace>(config);
  }
  Expected<DiffReport> Run(const std::string& base, const std::string& after, const DiffOptions& options = {},
                           const CancelToken& cancel = {}) {
    auto b = ws_->Open(Fixture(base));
    auto a = ws_->Open(Fixture(after));
    if (!b || !a) return MakeError(ErrorKind::kInternal, "open failed");
    return Diff(*testing::LoadedProfile(*ws_, b->id), core::WorkspaceTestAccess::RunnerFor(*ws_, b->id),
                *testing::LoadedProfile(*ws_, a->id), core::WorkspaceTestAccess::RunnerFor(*ws_, a->id), options,
                cancel);
  }
  std::unique_ptr<core::Workspace> ws_;
};

const ItemDelta* Find(const std::vector<ItemDelta>& items, const std::string& short_name) {
  for (const auto& i : items) {
    if (i.short_name == short_name) return &i;
  }
  return nullptr;
}

TEST_F(DiffTest, MfuBeforeAfterIsComparableAndComparedPerCallAndPerIteration) {
  auto r = Run("mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite");
  ASSERT_TRUE(r) << r.error().message;
  // The same 27 demangled kernels run in both windows: all kernel time is shared.
  ASSERT_EQ(KernelNames("mfu_2gpu_before.sqlite"), KernelNames("mfu_2gpu_after.sqlite"));
  EXPECT_DOUBLE_EQ(r->comparability.shared_kernel_time, 1.0);
  EXPECT_TRUE(r->comparability.same_devices);
  EXPECT_GT(r->comparability.score, 0.95);
  EXPECT_EQ(r->comparability.label, "comparable");
  EXPECT_EQ(r->kernel_counts.appeared, 0);
  EXPECT_EQ(r->kernel_counts.disappeared, 0);
  EXPECT_EQ(r->kernel_counts.both, 27);

  // Per call, not raw totals: SendRecv's average per call from SQL on each export.
  const ItemDelta* sr = Find(r->kernels, "ncclDevKernel_SendRecv");
  ASSERT_NE(sr, nullptr);
  const auto sb = Sql("mfu_2gpu_before.sqlite",
                      "select count(*), avg(end - start), sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL k join "
                      "StringIds s on s.id = k.shortName where s.value = 'ncclDevKernel_SendRecv'");
  const auto sa = Sql("mfu_2gpu_after.sqlite",
                      "select count(*), avg(end - start), sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL k join "
                      "StringIds s on s.id = k.shortName where s.value = 'ncclDevKernel_SendRecv'");
  EXPECT_EQ(sr->base_calls, 66);
  EXPECT_EQ(sr->new_calls, 62);
  EXPECT_EQ(sr->base_calls, static_cast<int64_t>(sb[0]));
  EXPECT_EQ(sr->new_calls, static_cast<int64_t>(sa[0]));
  EXPECT_NEAR(sr->base_avg_ns, sb[1], 0.01);
  EXPECT_NEAR(sr->new_avg_ns, sa[1], 0.01);
  EXPECT_NEAR(sr->per_call_pct, (sa[1] - sb[1]) / sb[1] * 100, 1e-6);  // +41.4%
  EXPECT_NEAR(sr->per_call_pct, 41.4, 0.1);
  EXPECT_FALSE(sr->beyond_noise);  // NCCL per-call spread is several times its mean
  // Per iteration: total over the iterations the `iterations` skill found (32 before, 28 after).
  EXPECT_EQ(r->base_iterations.count, 32);
  EXPECT_EQ(r->new_iterations.count, 28);
  EXPECT_NEAR(sr->base_per_iteration_ns, sb[2] / 32, 1e-6);
  EXPECT_NEAR(sr->new_per_iteration_ns, sa[2] / 28, 1e-6);

  // The headline is the median iteration time: 16.727 ms before, 18.914 ms after (same 119 kernels per iteration).
  EXPECT_EQ(r->headline.metric, "median iteration time");
  EXPECT_EQ(r->base_iterations.median_kernels, 119);
  EXPECT_EQ(r->new_iterations.median_kernels, 119);
  EXPECT_NEAR(r->headline.base_ns, 16.727e6, 0.01e6);
  EXPECT_NEAR(r->headline.new_ns, 18.914e6, 0.01e6);
  EXPECT_GT(r->headline.change_pct, r->headline.noise_floor_pct);
  EXPECT_GE(r->headline.noise_floor_pct, 1.0);
  EXPECT_EQ(r->verdict, Verdict::kRegressed);
  ASSERT_TRUE(r->per_call.has_value());
  EXPECT_EQ(r->per_call->metric, "kernel time per call (the base's mix)");
  // The per-call measure is the base's shared kernel calls at both averages: its base is the base's kernel time.
  const auto kb = Sql("mfu_2gpu_before.sqlite", "select sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL");
  EXPECT_NEAR(r->per_call->base_ns, kb[0], 1.0);

  // Idle per device, against the union of GPU ops in SQL.
  for (const auto& d : r->devices) {
    const auto ib = IdleOfDevice("mfu_2gpu_before.sqlite", d.device_id);
    const auto ia = IdleOfDevice("mfu_2gpu_after.sqlite", d.device_id);
    EXPECT_EQ(d.base_span_ns, static_cast<int64_t>(ib[0])) << d.device_id;
    EXPECT_EQ(d.base_idle_ns, static_cast<int64_t>(ib[1])) << d.device_id;
    EXPECT_EQ(d.new_idle_ns, static_cast<int64_t>(ia[1])) << d.device_id;
    EXPECT_TRUE(d.has_comm);
    EXPECT_EQ(d.base_overlap_pct, 0.0);  // SendRecv never runs beside compute on one stream
  }
  ASSERT_EQ(r->devices.size(), 2u);
  EXPECT_NEAR(r->devices[0].base_idle_pct, 8.68, 0.01);
  EXPECT_NEAR(r->devices[0].new_idle_pct, 19.76, 0.01);

  // Memory copies by direction (copyKind 8 = device to device).
  const auto mb =
      Sql("mfu_2gpu_before.sqlite",
          "select count(*), sum(bytes), sum(end - start) from CUPTI_ACTIVITY_KIND_MEMCPY where copyKind = 8");
  const auto ma =
      Sql("mfu_2gpu_after.sqlite",
          "select count(*), sum(bytes), sum(end - start) from CUPTI_ACTIVITY_KIND_MEMCPY where copyKind = 8");
  bool saw_dtod = false;
  for (const auto& m : r->memcpy) {
    if (m.operation != "[CUDA memcpy DtoD]") continue;
    saw_dtod = true;
    EXPECT_EQ(m.base_count, static_cast<int64_t>(mb[0]));
    EXPECT_EQ(m.new_count, static_cast<int64_t>(ma[0]));
    EXPECT_EQ(m.base_bytes, static_cast<int64_t>(mb[1]));
    EXPECT_EQ(m.new_bytes, static_cast<int64_t>(ma[1]));
    EXPECT_NEAR(m.base_per_iteration_ns, mb[2] / 32, 1e-6);
  }
  EXPECT_TRUE(saw_dtod);

  // NVTX ranges per call, PyTorch's op_id and seq suffixes folded (the names recur in both runs).
  const ItemDelta* es = nullptr;
  for (const auto& i : r->ranges) es = i.name == "aten::empty_strided" ? &i : es;
  ASSERT_NE(es, nullptr);
  const std::string q =
      "select count(*), avg(end - start) from NVTX_EVENTS where eventType = 59 and (text = 'aten::empty_strided' or "
      "text like 'aten::empty_strided, op_id = %' or text like 'aten::empty_strided, seq = %')";
  const auto eb = Sql("mfu_2gpu_before.sqlite", q);
  const auto ea = Sql("mfu_2gpu_after.sqlite", q);
  EXPECT_EQ(es->base_calls, static_cast<int64_t>(eb[0]));  // 1858
  EXPECT_EQ(es->new_calls, static_cast<int64_t>(ea[0]));   // 1654
  EXPECT_NEAR(es->per_call_pct, (ea[1] - eb[1]) / eb[1] * 100, 1e-6);
  EXPECT_TRUE(es->beyond_noise);
  EXPECT_LT(r->range_counts.appeared + r->range_counts.disappeared, r->range_counts.both);

  // The answer: facts with numbers, evidence from both files, a verify command per file.
  const Answer& a = r->answer;
  EXPECT_NE(a.summary.find("Regressed: the median iteration time is 18.914 ms"), std::string::npos) << a.summary;
  EXPECT_NE(a.verify.find("nsys-ai skill run iterations " + Fixture("mfu_2gpu_before.sqlite")), std::string::npos);
  EXPECT_NE(a.verify.find("nsys-ai skill run iterations " + Fixture("mfu_2gpu_after.sqlite")), std::string::npos);
  EXPECT_EQ(a.confidence, Confidence::kHigh);
  ASSERT_GE(a.evidence.size(), 8u);
  EXPECT_EQ(a.evidence[0].call.skill, "iterations");
  EXPECT_EQ(a.evidence[0].rows.size(), 32u);
  EXPECT_EQ(a.evidence[1].rows.size(), 28u);
  EXPECT_FALSE(a.hypotheses.empty());  // busy time per iteration moved far less than the iteration
  EXPECT_NE(r->markdown.find("## Comparability: "), std::string::npos);
  EXPECT_NE(r->markdown.find("| ncclDevKernel_SendRecv | both | 66 → 62 |"), std::string::npos) << r->markdown;
}

TEST_F(DiffTest, UnrelatedProfilesHaveLowComparabilityAndNoVerdict) {
  auto r = Run("h100_2gpu_1s.sqlite", "v100_julia.sqlite");
  ASSERT_TRUE(r) << r.error().message;
  std::set<std::string> shared;
  const auto a = KernelNames("h100_2gpu_1s.sqlite");
  for (const auto& n : KernelNames("v100_julia.sqlite")) {
    if (a.count(n)) shared.insert(n);
  }
  EXPECT_TRUE(shared.empty());
  EXPECT_EQ(r->comparability.shared_kernel_time, 0.0);
  EXPECT_FALSE(r->comparability.same_devices);
  EXPECT_LT(r->comparability.score, 0.1);
  EXPECT_EQ(r->comparability.label, "not comparable");
  EXPECT_EQ(r->verdict, Verdict::kNeutral);
  EXPECT_EQ(r->answer.confidence, Confidence::kLow);
  EXPECT_NE(r->answer.summary.find("not comparable"), std::string::npos) << r->answer.summary;
  EXPECT_EQ(r->kernel_counts.both, 0);
  EXPECT_EQ(r->kernel_counts.appeared, static_cast<int64_t>(KernelNames("v100_julia.sqlite").size()));
  EXPECT_EQ(r->kernel_counts.disappeared, static_cast<int64_t>(a.size()));
  EXPECT_FALSE(r->answer.recommendations.empty());
}

TEST_F(DiffTest, AProfileAgainstItselfIsNeutralAndFullyComparable) {
  auto r = Run("h100_2gpu_1s.sqlite", "h100_2gpu_1s.sqlite");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->comparability.score, 1.0);
  EXPECT_EQ(r->verdict, Verdict::kNeutral);
  EXPECT_EQ(r->headline.change_pct, 0.0);
  for (const auto& k : r->kernels) EXPECT_EQ(k.per_call_pct, 0.0) << k.name;
}

TEST_F(DiffTest, AProfileWithoutKernelsOnOneSideIsNotComparable) {
  auto r = Run("titanrtx_tensorrt_nvtx.sqlite", "mfu_2gpu_after.sqlite");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->comparability.label, "not comparable");
  EXPECT_EQ(r->verdict, Verdict::kNeutral);
  bool noted = false;
  for (const auto& n : r->notes) noted = noted || n.find("top_kernels declined on the base profile") == 0;
  EXPECT_TRUE(noted);
}

TEST_F(DiffTest, APhaseMapAddsPhasesOfBothProfiles) {
  DiffOptions options;
  options.phase_map = R"({"pre_forward": ["FSDP::pre_forward"], "copies": ["re:^aten::copy_$"]})";
  auto r = Run("mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", options);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->phases.size(), 2u);
  EXPECT_EQ(r->phases[0].phase, "pre_forward");
  const std::string q =
      "select count(*) from NVTX_EVENTS where eventType in (59, 60) and coalesce(text, (select value from StringIds "
      "where id = textId)) like 'FSDP::pre_forward%'";
  EXPECT_EQ(r->phases[0].base_ranges, static_cast<int64_t>(Sql("mfu_2gpu_before.sqlite", q)[0]));
  EXPECT_EQ(r->phases[0].new_ranges, static_cast<int64_t>(Sql("mfu_2gpu_after.sqlite", q)[0]));
  EXPECT_GT(r->phases[1].base_gpu_ns, 0);
  EXPECT_NE(r->markdown.find("## Phases"), std::string::npos);

  options.phase_map = R"({"bad": ["re:[z-a]"]})";
  auto bad = Run("mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", options);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("bad regex"), std::string::npos) << bad.error().message;
}

TEST_F(DiffTest, CancelledBeforeStartIsCancelled) {
  CancelToken cancel;
  cancel.cancel();
  auto r = Run("mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", {}, cancel);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
}

}  // namespace
}  // namespace nsys::agent
