// job_nccl's exposed communication split into skew, transfer and rest, checked against the source export, where the
// two processes share one clock: written here from SQL, the k-th ncclDevKernel_SendRecv of each process is paired by
// k (both processes run one communication stream); each kernel's exposed time is what the union of its process's
// other kernels does not cover; the wait ends at the later start of the pair, and the transfer is bounded by the
// shorter kernel of the pair.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis_test_sql.h"
#include "job_test_util.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using namespace skills::job;
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

Intervals UnionOf(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto& iv : v) {
    if (iv.second <= iv.first) continue;
    if (!out.empty() && iv.first <= out.back().second) {
      out.back().second = std::max(out.back().second, iv.second);
    } else {
      out.push_back(iv);
    }
  }
  return out;
}

int64_t Uncovered(const Intervals& u, int64_t from, int64_t to) {
  int64_t covered = 0;
  for (const auto& [a, b] : u) covered += std::max<int64_t>(0, std::min(b, to) - std::max(a, from));
  return (to - from) - covered;
}

struct Expected {
  int64_t exposed = 0, skew = 0, transfer = 0, rest = 0;
};

// Per process of the source (in pid order): the split written from SQL.
std::vector<Expected> FromSql(const std::string& source, const std::vector<uint32_t>& pids) {
  FixtureSql sql(source);
  auto where = [](uint32_t pid, const char* names) {
    return " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE ((k.globalPid >> 24) & "
           "16777215) = " +
           std::to_string(pid) + " AND s.value " + names + " ORDER BY k.start";
  };
  std::vector<Intervals> comm, compute;
  for (uint32_t pid : pids) {
    comm.push_back(sql.Intervals("SELECT k.start, k.end" + where(pid, "LIKE 'ncclDevKernel_SendRecv%'")));
    compute.push_back(UnionOf(sql.Intervals("SELECT k.start, k.end" + where(pid, "NOT LIKE '%nccl%'"))));
  }
  std::vector<Expected> out(pids.size());
  const size_t paired = std::min(comm[0].size(), comm[1].size());
  for (size_t k = 0; k < std::max(comm[0].size(), comm[1].size()); ++k) {
    const bool both = k < paired;
    const int64_t last = both ? std::max(comm[0][k].first, comm[1][k].first) : 0;
    const int64_t shortest =
        both ? std::min(comm[0][k].second - comm[0][k].first, comm[1][k].second - comm[1][k].first) : 0;
    for (size_t p = 0; p < 2; ++p) {
      if (k >= comm[p].size()) continue;
      const auto [s, e] = comm[p][k];
      const int64_t exposed = Uncovered(compute[p], s, e);
      out[p].exposed += exposed;
      if (!both) {
        out[p].rest += exposed;
        continue;
      }
      const int64_t wait = std::clamp<int64_t>(last - s, 0, e - s);
      const int64_t skew = Uncovered(compute[p], s, s + wait);
      const int64_t transfer = std::min(exposed - skew, shortest);
      out[p].skew += skew;
      out[p].transfer += transfer;
      out[p].rest += exposed - skew - transfer;
    }
  }
  return out;
}

void ExpectRow(const skills::Table& t, size_t row, const Expected& e) {
  EXPECT_EQ(StringCell(t, row, "collective"), "SendRecv");
  EXPECT_EQ(IntCell(t, row, "exposed_ns"), e.exposed);
  EXPECT_EQ(IntCell(t, row, "skew_ns"), e.skew);
  EXPECT_EQ(IntCell(t, row, "transfer_ns"), e.transfer);
  EXPECT_EQ(IntCell(t, row, "rest_ns"), e.rest);
  EXPECT_EQ(IntCell(t, row, "skew_ns") + IntCell(t, row, "transfer_ns") + IntCell(t, row, "rest_ns"),
            IntCell(t, row, "exposed_ns"));
}

TEST(JobNcclExposure, SkewAndTransferPerRankMatchTheSourceWrittenFromSql) {
  NSYS_REQUIRE_FIXTURES();
  struct Source {
    const char* file;
    std::vector<uint32_t> pids;
  };
  for (const Source& src :
       {Source{"mfu_2gpu_before.sqlite", {144, 145}}, Source{"mfu_2gpu_after.sqlite", {148, 149}}}) {
    SCOPED_TRACE(src.file);
    const SplitJob& job = Split(src.file);
    ASSERT_TRUE(job.ok);
    ASSERT_EQ(job.partials.size(), 2u);
    const std::vector<Expected> want = FromSql(src.file, src.pids);
    const Merged<std::vector<NcclRankStats>> m = MergeNccl(job.partials, AlignClocks(job.partials, job.node_of_rank));
    ASSERT_EQ(m.table.rows.size(), 4u);  // per rank: "all", then SendRecv
    for (size_t r = 0; r < 2; ++r) {
      ASSERT_EQ(job.manifest[r].source_pid, src.pids[r]);
      ExpectRow(m.table, 2 * r + 1, want[r]);
      EXPECT_EQ(IntCell(m.table, 2 * r, "skew_ns"), want[r].skew);  // the "all" row: SendRecv is the only kind
      EXPECT_GT(want[r].skew, 0);
      EXPECT_GT(want[r].transfer, 0);
    }
  }
}

// With 2 ms of skew between nodes and 8 copies of each process, the aligned clocks give every copy its source
// process's split: the last of the 16 starts is the later of the pair, and the shortest kernel the shorter one.
TEST(JobNcclExposure, AlignedClocksGiveEveryCopyItsSourcesSplit) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_after.sqlite", "--replicate 8 --ranks-per-node 4 --skew-ns 2000000");
  ASSERT_TRUE(job.ok);
  ASSERT_EQ(job.partials.size(), 16u);
  const std::vector<Expected> want = FromSql("mfu_2gpu_after.sqlite", {148, 149});
  const Merged<std::vector<NcclRankStats>> m = MergeNccl(job.partials, AlignClocks(job.partials, job.node_of_rank));
  ASSERT_EQ(m.table.rows.size(), 32u);
  for (size_t r = 0; r < 16; ++r) {
    SCOPED_TRACE(r);
    ExpectRow(m.table, 2 * r + 1, want[job.manifest[r].source_pid == 148 ? 0 : 1]);
  }
}

// A rank alone has no instance to match: its exposed time is all rest.
TEST(JobNcclExposure, AnInstanceOnOneRankIsAllRest) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_before.sqlite");
  ASSERT_TRUE(job.ok);
  const std::vector<RankPartial> alone{job.partials[0]};
  const Merged<std::vector<NcclRankStats>> m = MergeNccl(alone, AlignClocks(alone, {}));
  ASSERT_EQ(m.table.rows.size(), 2u);
  EXPECT_GT(IntCell(m.table, 1, "exposed_ns"), 0);
  EXPECT_EQ(IntCell(m.table, 1, "skew_ns"), 0);
  EXPECT_EQ(IntCell(m.table, 1, "transfer_ns"), 0);
  EXPECT_EQ(IntCell(m.table, 1, "rest_ns"), IntCell(m.table, 1, "exposed_ns"));
  EXPECT_EQ(IntCell(m.table, 1, "matched"), 0);
}

}  // namespace
}  // namespace nsys::testing
