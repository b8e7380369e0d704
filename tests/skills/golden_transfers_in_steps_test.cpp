// transfers_in_steps against SQL: the memcpys per copy kind, tested against the steps the iterations skill reports
// (kernel periodicity: the same device; an NVTX marker: the copy's launching call), or without iterations against
// each process's first-kernel-to-last-kernel span.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

struct TransferTotals {
  int64_t copies = 0, bytes = 0, total = 0, in_step = 0, in_step_ns = 0, pageable = 0, in_step_bytes = 0;
};

std::string Operation(int64_t copy_kind) {
  static const char* const kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                       "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  return std::string("[CUDA memcpy ") + (copy_kind >= 0 && copy_kind <= 10 ? kNames[copy_kind] : "?") + "]";
}

// A step: [start, end) of a process, on one device or any (-1).
struct Step {
  int64_t pid, device, start, end;
};

// `by_launch`: test the launching call's start (same pid and correlationId) instead of the copy's own.
std::map<std::string, TransferTotals> FromSql(const std::string& fixture, const std::vector<Step>& steps,
                                              bool by_launch) {
  FixtureSql sql(fixture);
  std::map<std::string, TransferTotals> out;
  sql.Each(
      "SELECT (m.globalPid >> 24) & 0xFFFFFF, m.deviceId, m.start, m.end, m.bytes, m.copyKind, m.srcKind = 0 OR "
      "m.dstKind = 0, r.start FROM CUPTI_ACTIVITY_KIND_MEMCPY m LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
      "r.correlationId = m.correlationId AND ((r.globalTid >> 24) & 0xFFFFFF) = ((m.globalPid >> 24) & 0xFFFFFF)",
      [&](sqlite3_stmt* st) {
        const int64_t pid = sqlite3_column_int64(st, 0), device = sqlite3_column_int64(st, 1);
        const int64_t start = sqlite3_column_int64(st, 2), dur = sqlite3_column_int64(st, 3) - start;
        const int64_t bytes = sqlite3_column_int64(st, 4);
        const bool has_launch = sqlite3_column_type(st, 7) != SQLITE_NULL;
        const int64_t t = by_launch && has_launch ? sqlite3_column_int64(st, 7) : start;
        TransferTotals& o = out[Operation(sqlite3_column_int64(st, 5))];
        ++o.copies;
        o.bytes += bytes;
        o.total += dur;
        o.pageable += sqlite3_column_int64(st, 6);
        for (const Step& s : steps) {
          if (s.pid == pid && (s.device < 0 || s.device == device) && t >= s.start && t < s.end) {
            ++o.in_step;
            o.in_step_ns += dur;
            o.in_step_bytes += bytes;
            break;
          }
        }
      });
  return out;
}

std::vector<Step> StepsOf(const skills::Table& its, bool any_device) {
  std::vector<Step> steps;
  for (size_t r = 0; r < its.rows.size(); ++r) {
    const int64_t start = IntCell(its, r, "start_ns");
    steps.push_back({IntCell(its, r, "pid"), any_device ? -1 : IntCell(its, r, "device_id"), start,
                     start + IntCell(its, r, "duration_ns")});
  }
  return steps;
}

void ExpectRows(const skills::Table& t, const std::map<std::string, TransferTotals>& expected) {
  ASSERT_FALSE(t.declined);
  ASSERT_EQ(t.rows.size(), expected.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string op = StringCell(t, r, "operation");
    ASSERT_TRUE(expected.count(op)) << op;
    SCOPED_TRACE(op);
    const TransferTotals& e = expected.at(op);
    EXPECT_EQ(IntCell(t, r, "copies"), e.copies);
    EXPECT_EQ(IntCell(t, r, "bytes"), e.bytes);
    EXPECT_EQ(IntCell(t, r, "total_ns"), e.total);
    EXPECT_EQ(IntCell(t, r, "in_step_copies"), e.in_step);
    EXPECT_EQ(IntCell(t, r, "in_step_ns"), e.in_step_ns);
    EXPECT_EQ(IntCell(t, r, "in_step_bytes"), e.in_step_bytes);
    EXPECT_EQ(IntCell(t, r, "pageable_copies"), e.pageable);
  }
}

TEST(TransfersInSteps, KernelPeriodStepsMatchSql) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* f : {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite"}) {
    SCOPED_TRACE(f);
    NSYS_RUN_SKILL(t, f, "transfers_in_steps");
    NSYS_RUN_SKILL(its, f, "iterations");
    ASSERT_FALSE(its.declined);
    ExpectRows(t, FromSql(f, StepsOf(its, /*any_device=*/false), /*by_launch=*/false));
  }
  // h100: 450 HtoD copies (50.9 GB, fixtures README), of which some run before the first step.
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "transfers_in_steps");
  const int htod = FindRow(t, "operation", "[CUDA memcpy HtoD]");
  ASSERT_GE(htod, 0);
  EXPECT_EQ(IntCell(t, static_cast<size_t>(htod), "copies"), 450);
  EXPECT_GT(IntCell(t, static_cast<size_t>(htod), "in_step_copies"), 0);
  EXPECT_LT(IntCell(t, static_cast<size_t>(htod), "in_step_copies"), 450);
}

TEST(TransfersInSteps, MarkerStepsPlaceCopiesByTheirLaunchCall) {
  NSYS_REQUIRE_FIXTURES();
  for (const auto& [fixture, marker] :
       {std::pair<std::string, std::string>{"h200_nvfuser_nvtx.sqlite", "runFusionWithInputs"},
        {"h100_2gpu_1s.sqlite", "aten::copy_"}}) {
    SCOPED_TRACE(fixture);
    const skills::Args args{{"marker", Value(marker)}};
    NSYS_RUN_SKILL(t, fixture, "transfers_in_steps", args);
    NSYS_RUN_SKILL(its, fixture, "iterations", args);
    ASSERT_FALSE(its.declined);
    const std::vector<Step> steps = StepsOf(its, /*any_device=*/true);
    ExpectRows(t, FromSql(fixture, steps, /*by_launch=*/true));
    if (fixture == "h100_2gpu_1s.sqlite") {
      // The case tells the rules apart: PyTorch's aten::copy_ ranges end before most of their DtoD copies start on
      // the GPU, so placing copies by their own start would count far fewer.
      EXPECT_GT(FromSql(fixture, steps, true).at("[CUDA memcpy DtoD]").in_step,
                FromSql(fixture, steps, false).at("[CUDA memcpy DtoD]").in_step);
    }
  }
}

TEST(TransfersInSteps, WithoutIterationsUsesTheKernelSpan) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "transfers_in_steps");
  EXPECT_NE(JoinNotes(t).find("no iterations were found"), std::string::npos) << JoinNotes(t);
  FixtureSql sql("a100_2proc_mpi.sqlite");
  std::vector<Step> spans;
  sql.Each(
      "SELECT (globalPid >> 24) & 0xFFFFFF, min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1",
      [&](sqlite3_stmt* st) {
        spans.push_back({sqlite3_column_int64(st, 0), -1, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)});
      });
  ASSERT_EQ(spans.size(), 2u);
  ExpectRows(t, FromSql("a100_2proc_mpi.sqlite", spans, /*by_launch=*/false));
}

TEST(TransfersInSteps, DeclinesWithoutMemcpys) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* f : {"titanrtx_tensorrt_nvtx.sqlite", "v100_julia.sqlite"}) {
    NSYS_RUN_SKILL(t, f, "transfers_in_steps");
    EXPECT_TRUE(t.declined) << f;
    EXPECT_TRUE(t.rows.empty());
    EXPECT_NE(JoinNotes(t).find("CUPTI_ACTIVITY_KIND_MEMCPY"), std::string::npos) << JoinNotes(t);
  }
}

}  // namespace
}  // namespace nsys::testing
