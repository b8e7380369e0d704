// api_in_gaps against a second implementation: the GPU ops and CUDA API calls read with SQL, the idle gaps and the
// per-API overlap computed here with plain sorts and unions.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using Span = std::pair<int64_t, int64_t>;
using Key = std::pair<int64_t, int64_t>;  // (pid, device)

struct Totals {
  int64_t gaps = 0, overlap = 0, calls = 0;
};

// nsys's API-name rule: "cudaLaunchKernel_v7000" -> "cudaLaunchKernel" (the 6th- and 5th-last characters are "_v").
std::string Stripped(const std::string& name) {
  if (name.size() > 6 && name.compare(name.size() - 6, 2, "_v") == 0) return name.substr(0, name.size() - 6);
  return name;
}

// Holes of the union of `ops` at least `min_gap` long.
std::vector<Span> Gaps(std::vector<Span> ops, int64_t min_gap) {
  std::sort(ops.begin(), ops.end());
  std::vector<Span> gaps;
  int64_t until = ops.front().second;
  for (const auto& [s, e] : ops) {
    if (s - until >= min_gap) gaps.emplace_back(until, s);
    until = std::max(until, e);
  }
  return gaps;
}

std::map<std::pair<Key, std::string>, Totals> RecomputedGapTotals(const std::string& fixture, int64_t min_gap) {
  FixtureSql sql(fixture);
  std::map<Key, std::vector<Span>> ops;
  for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
    sql.Each(
        std::string("SELECT (globalPid >> 24) & 0xFFFFFF, deviceId, start, end FROM ") + table + " WHERE start > 0",
        [&](sqlite3_stmt* st) {
          ops[{sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)}].emplace_back(sqlite3_column_int64(st, 2),
                                                                                       sqlite3_column_int64(st, 3));
        });
  }
  struct Call {
    int64_t start, end;
    std::string api;
  };
  std::map<int64_t, std::vector<Call>> calls;
  sql.Each(
      "SELECT (r.globalTid >> 24) & 0xFFFFFF, r.start, r.end, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
      "StringIds "
      "s ON s.id = r.nameId",
      [&](sqlite3_stmt* st) {
        calls[sqlite3_column_int64(st, 0)].push_back(
            {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
             Stripped(reinterpret_cast<const char*>(sqlite3_column_text(st, 3)))});
      });
  std::map<std::pair<Key, std::string>, Totals> out;
  for (const auto& [key, group_ops] : ops) {
    std::set<std::pair<std::string, size_t>> counted;
    for (const Span& gap : Gaps(group_ops, min_gap)) {
      std::map<std::string, std::vector<Span>> parts;
      std::vector<Span> all;
      const std::vector<Call>& pc = calls[key.first];
      for (size_t c = 0; c < pc.size(); ++c) {
        const Span part{std::max(pc[c].start, gap.first), std::min(pc[c].end, gap.second)};
        if (part.second <= part.first) continue;
        parts[pc[c].api].push_back(part);
        all.push_back(part);
        if (counted.insert({pc[c].api, c}).second) ++out[{key, pc[c].api}].calls;
      }
      for (const auto& [api, p] : parts) {
        Totals& t = out[{key, api}];
        ++t.gaps;
        t.overlap += UnionLengthOf(p);
      }
      const int64_t uncovered = gap.second - gap.first - UnionLengthOf(all);
      if (uncovered > 0) {
        Totals& t = out[{key, "(no CUDA call)"}];
        ++t.gaps;
        t.overlap += uncovered;
      }
    }
  }
  return out;
}

void ExpectMatches(const std::string& fixture, double min_gap_us) {
  SCOPED_TRACE(fixture);
  // The premise of the second implementation: no PROFILER_OVERHEAD row that NVIDIA's rules count as GPU busy.
  FixtureSql sql(fixture);
  EXPECT_EQ(
      sql.Int("SELECT count(*) FROM PROFILER_OVERHEAD p JOIN StringIds s ON s.id = p.nameId WHERE s.value IN "
              "('CUDA profiling data flush overhead', 'CUDA profiling stop overhead', 'CUDA profiling overhead')"),
      0);
  NSYS_RUN_SKILL(t, fixture, "api_in_gaps", {{"min_gap_us", Value(min_gap_us)}});
  ASSERT_FALSE(t.declined);
  const auto expected = RecomputedGapTotals(fixture, static_cast<int64_t>(min_gap_us * 1000));
  ASSERT_EQ(t.rows.size(), expected.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto key =
        std::make_pair(Key{IntCell(t, r, "pid"), IntCell(t, r, "device_id")}, StringCell(t, r, "api_name"));
    ASSERT_TRUE(expected.count(key)) << key.second;
    SCOPED_TRACE(key.second);
    EXPECT_EQ(IntCell(t, r, "gaps"), expected.at(key).gaps);
    EXPECT_EQ(IntCell(t, r, "overlap_ns"), expected.at(key).overlap);
    EXPECT_EQ(IntCell(t, r, "calls"), expected.at(key).calls);
  }
}

TEST(ApiInGaps, MatchesSecondImplementation) {
  NSYS_REQUIRE_FIXTURES();
  ExpectMatches("mfu_2gpu_before.sqlite", 50.0);
  ExpectMatches("mfu_2gpu_after.sqlite", 20.0);
  ExpectMatches("h100_2gpu_1s.sqlite", 50.0);
}

TEST(ApiInGaps, GapTimeAddsUp) {
  NSYS_REQUIRE_FIXTURES();
  // At 1 ms the gaps are gpu_idle_gaps' default rows; per (pid, device) the uncovered time plus the time some call
  // covers is their total, so "(no CUDA call)" never exceeds it and gap_share of that row is its share.
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "api_in_gaps", {{"min_gap_us", Value(1000.0)}});
  NSYS_RUN_SKILL(g, "mfu_2gpu_before.sqlite", "gpu_idle_gaps");
  std::map<Key, int64_t> gap_ns, gap_count;
  for (size_t r = 0; r < g.rows.size(); ++r) {
    gap_ns[{IntCell(g, r, "pid"), IntCell(g, r, "device_id")}] += IntCell(g, r, "duration_ns");
    ++gap_count[{IntCell(g, r, "pid"), IntCell(g, r, "device_id")}];
  }
  ASSERT_FALSE(gap_ns.empty());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const Key key{IntCell(t, r, "pid"), IntCell(t, r, "device_id")};
    ASSERT_TRUE(gap_ns.count(key));
    EXPECT_LE(IntCell(t, r, "overlap_ns"), gap_ns[key]);
    EXPECT_LE(IntCell(t, r, "gaps"), gap_count[key]);
    EXPECT_NEAR(DoubleCell(t, r, "gap_share"),
                static_cast<double>(IntCell(t, r, "overlap_ns")) / static_cast<double>(gap_ns[key]), 1e-12);
  }
}

TEST(ApiInGaps, DeclinesWithoutGpuOpsOrApiTrace) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "api_in_gaps");
  EXPECT_TRUE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("no GPU operations"), std::string::npos) << JoinNotes(t);
  // One kernel: no gap at all, so nothing to list (not a decline).
  NSYS_RUN_SKILL(j, "v100_julia.sqlite", "api_in_gaps");
  EXPECT_FALSE(j.declined);
  EXPECT_TRUE(j.rows.empty());
}

}  // namespace
}  // namespace nsys::testing
