// The oracle of jobs: the rank files of one split (split_ranks.py, no replication, no skew), analysed as a job,
// give rank by rank exactly the per-process numbers of the source export. Expected figures come from read-only SQL
// on the source (per process: (globalPid >> 24) & 0xFFFFFF) or from the built-in skill on the source filtered to the
// rank's process (pid=...), whose own tests check it against SQL.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "analysis_test_sql.h"
#include "job_test_util.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using namespace skills::job;

const char* const kSources[] = {"mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "a100_2proc_mpi.sqlite"};

std::string PidWhere(uint32_t pid) {
  return " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE ((k.globalPid >> 24) & "
         "16777215) = " +
         std::to_string(pid);
}

TEST(JobOracle, KernelTimePerRankIsThePerProcessSumOfTheSource) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* source : kSources) {
    SCOPED_TRACE(source);
    const SplitJob& job = Split(source);
    ASSERT_TRUE(job.ok);
    ASSERT_EQ(job.partials.size(), 2u);  // each source has two processes with GPU work
    FixtureSql sql(source);
    const Merged<ImbalanceStats> m = MergeKernelImbalance(job.partials);
    int64_t total = 0;
    for (size_t r = 0; r < job.partials.size(); ++r) {
      const std::string where = PidWhere(job.manifest[r].source_pid);
      EXPECT_EQ(job.partials[r].kernels, sql.Int("SELECT count(*)" + where));
      EXPECT_EQ(m.figures.kernel_ns[r], sql.Int("SELECT sum(k.end - k.start)" + where));
      EXPECT_EQ(IntCell(m.table, r, "kernel_ns"), m.figures.kernel_ns[r]);
      EXPECT_EQ(IntCell(m.table, r, "comm_ns"),
                sql.Int("SELECT coalesce(sum(k.end - k.start), 0)" + where + " AND s.value LIKE 'nccl%'"));
      EXPECT_EQ(StringCell(m.table, r, "rank"), job.manifest[r].file);
      total += m.figures.kernel_ns[r];
    }
    EXPECT_EQ(m.figures.mean_ns, total / 2);
  }
  // Pinned (sqlite3 CLI: SELECT (globalPid>>24)&16777215, sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1):
  // mfu_2gpu_before pid 144 = 270875926 ns, pid 145 = 264324724 ns.
  const Merged<ImbalanceStats> before = MergeKernelImbalance(Split("mfu_2gpu_before.sqlite").partials);
  EXPECT_EQ(before.figures.kernel_ns, (std::vector<int64_t>{270875926, 264324724}));
  EXPECT_EQ(before.figures.slowest_rank, 0u);
  EXPECT_NEAR(before.figures.imbalance_pct, 100.0 * (270875926 - 267600325) / 267600325.0, 1e-9);
}

TEST(JobOracle, NcclPerRankAndCollectiveIsThePerProcessSumOfTheSource) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* source : kSources) {
    SCOPED_TRACE(source);
    const SplitJob& job = Split(source);
    ASSERT_TRUE(job.ok);
    FixtureSql sql(source);
    const Merged<std::vector<NcclRankStats>> m = MergeNccl(job.partials, AlignClocks(job.partials, job.node_of_rank));
    size_t row = 0;
    for (size_t r = 0; r < job.partials.size(); ++r) {
      const std::string where = PidWhere(job.manifest[r].source_pid) + " AND s.value LIKE 'ncclDevKernel_SendRecv%'";
      const int64_t count = sql.Int("SELECT count(*)" + where);
      if (count == 0) continue;  // a100_2proc_mpi: MPI, no NCCL
      const int64_t busy = UnionLengthOf(sql.Intervals("SELECT k.start, k.end" + where));
      // Two rows per rank: "all" and SendRecv (the only collective in the mfu exports).
      for (const char* kind : {"all", "SendRecv"}) {
        ASSERT_LT(row, m.table.rows.size());
        EXPECT_EQ(IntCell(m.table, row, "rank_index"), static_cast<int64_t>(r));
        EXPECT_EQ(StringCell(m.table, row, "collective"), kind);
        EXPECT_EQ(IntCell(m.table, row, "count"), count);
        EXPECT_EQ(IntCell(m.table, row, "total_ns"), sql.Int("SELECT sum(k.end - k.start)" + where));
        EXPECT_EQ(IntCell(m.table, row, "busy_ns"), busy);
        EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(m.table, row, "bandwidth_gbps")));  // sizes unknown
        ++row;
      }
    }
    EXPECT_EQ(row, m.table.rows.size());
  }
  // Pinned (sqlite3 CLI, SendRecv kernels of pid 144 in mfu_2gpu_before): 33 kernels, 17172652 ns, as nccl_breakdown's
  // own test pins for device 0.
  const Merged<std::vector<NcclRankStats>> before =
      MergeNccl(Split("mfu_2gpu_before.sqlite").partials,
                AlignClocks(Split("mfu_2gpu_before.sqlite").partials, Split("mfu_2gpu_before.sqlite").node_of_rank));
  EXPECT_EQ(before.figures[0].count, 33);
  EXPECT_EQ(before.figures[0].total_ns, 17172652);
  EXPECT_TRUE(MergeNccl(Split("a100_2proc_mpi.sqlite").partials, {}).table.rows.empty());
}

TEST(JobOracle, OverlapPerRankIsNcclBreakdownOfTheSourceDevice) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* source : {"mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite"}) {
    SCOPED_TRACE(source);
    const SplitJob& job = Split(source);
    ASSERT_TRUE(job.ok);
    const Merged<std::vector<OverlapRankStats>> m = MergeOverlap(job.partials);
    for (size_t r = 0; r < job.partials.size(); ++r) {
      // Each process of the mfu exports runs on its own device: nccl_breakdown's "all" row of that device.
      ASSERT_EQ(job.partials[r].devices.size(), 1u);
      NSYS_RUN_SKILL(nb, source, "nccl_breakdown",
                     {{"device", Value(static_cast<int64_t>(job.partials[r].devices[0]))}});
      ASSERT_EQ(StringCell(nb, 0, "collective"), "all");
      EXPECT_EQ(m.figures[r].comm_busy_ns, IntCell(nb, 0, "comm_busy_ns"));
      EXPECT_EQ(m.figures[r].exposed_ns, IntCell(nb, 0, "exposed_ns"));
      EXPECT_DOUBLE_EQ(m.figures[r].overlap_pct, DoubleCell(nb, 0, "overlap_pct"));
      // Compute busy: the union of the process's non-NCCL kernels, by SQL.
      FixtureSql sql(source);
      EXPECT_EQ(m.figures[r].compute_busy_ns,
                UnionLengthOf(sql.Intervals("SELECT k.start, k.end" + PidWhere(job.manifest[r].source_pid) +
                                            " AND s.value NOT LIKE 'nccl%'")));
    }
  }
}

// Steps: the rank's iterations are the source's iterations skill filtered to the rank's process.
TEST(JobOracle, StepTimesAndHeatMapAreTheSourceIterationsPerProcess) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* source : kSources) {
    SCOPED_TRACE(source);
    const SplitJob& job = Split(source);
    ASSERT_TRUE(job.ok);
    const Merged<StepStats> steps = MergeStepTimes(job.partials);
    const Merged<HeatMap> heat = MergeStepHeatMap(job.partials);
    for (size_t r = 0; r < job.partials.size(); ++r) {
      NSYS_RUN_SKILL(it, source, "iterations", {{"pid", Value(static_cast<int64_t>(job.manifest[r].source_pid))}});
      ASSERT_EQ(job.partials[r].steps.size(), it.rows.size());
      if (it.declined) {  // a100_2proc_mpi: no kernel name recurs steadily in either process; the rank says so too
        EXPECT_EQ(std::string(source), "a100_2proc_mpi.sqlite");
        EXPECT_EQ(steps.figures.ranks[r].steps, 0);
        EXPECT_TRUE(std::holds_alternative<std::monostate>(Cell(steps.table, r, "median_ns")));
        EXPECT_NE(JoinNotes(it).find("No repeating kernel pattern"), std::string::npos);
        continue;
      }
      std::vector<int64_t> durations;
      for (size_t i = 0; i < it.rows.size(); ++i) {
        durations.push_back(IntCell(it, i, "duration_ns"));
        EXPECT_EQ(heat.figures.step_ns[r][static_cast<size_t>(IntCell(it, i, "iteration"))], durations.back());
      }
      std::sort(durations.begin(), durations.end());
      const StepStats::Rank& s = steps.figures.ranks[r];
      EXPECT_EQ(s.steps, static_cast<int64_t>(durations.size()));
      EXPECT_EQ(s.min_ns, durations.front());
      EXPECT_EQ(s.max_ns, durations.back());
      const size_t mid = durations.size() / 2;
      EXPECT_EQ(s.median_ns, durations.size() % 2 ? durations[mid] : (durations[mid - 1] + durations[mid]) / 2);
      EXPECT_EQ(StringCell(steps.table, r, "method"), "kernel_period");
    }
    const StepStats& f = steps.figures;
    if (f.ranks[0].steps == 0) continue;
    EXPECT_EQ(f.spread_ns, std::max(f.ranks[0].median_ns, f.ranks[1].median_ns) -
                               std::min(f.ranks[0].median_ns, f.ranks[1].median_ns));
  }
}

// Steps by an NVTX marker (PartialOptions::step_marker): the outermost ranges named so, per process, as the source's
// iterations skill finds them with marker= and pid=.
TEST(JobOracle, MarkerStepsAreTheSourceIterationsPerProcess) {
  NSYS_REQUIRE_FIXTURES();
  const std::string marker = "RegisterPostBackwardFunction";
  const SplitJob& job = Split("mfu_2gpu_after.sqlite", "", marker);
  ASSERT_TRUE(job.ok);
  const Merged<StepStats> steps = MergeStepTimes(job.partials);
  for (size_t r = 0; r < job.partials.size(); ++r) {
    NSYS_RUN_SKILL(it, "mfu_2gpu_after.sqlite", "iterations",
                   {{"pid", Value(static_cast<int64_t>(job.manifest[r].source_pid))}, {"marker", Value(marker)}});
    ASSERT_FALSE(it.declined);
    EXPECT_EQ(job.partials[r].step_method, "nvtx_range");
    ASSERT_EQ(job.partials[r].steps.size(), it.rows.size());
    for (size_t i = 0; i < it.rows.size(); ++i) {
      EXPECT_EQ(job.partials[r].steps[i].end - job.partials[r].steps[i].start, IntCell(it, i, "duration_ns"));
      EXPECT_EQ(job.partials[r].steps[i].kernels, IntCell(it, i, "kernels"));
    }
    EXPECT_EQ(StringCell(steps.table, r, "method"), "nvtx_range");
  }
  // sqlite3 CLI: 15 NVTX ranges named "RegisterPostBackwardFunction, seq = ..." per process (30 in all, eventType 59).
  EXPECT_EQ(job.partials[0].steps.size(), 15u);
}

}  // namespace
}  // namespace nsys::testing
