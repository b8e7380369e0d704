// phases: NVTX ranges mapped to phases by substrings and `re:` regexes, checked against SQL over the export (range
// counts, the union of their time, the kernels launched inside them on the launching thread), and its bad input.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

// NVTX names as the engine groups them: text or textId, without PyTorch's ", op_id = N".
constexpr const char* kNames =
    "with raw as (select n.start, coalesce(n.end, n.start) as end_, n.globalTid, n.eventType, coalesce(n.text, "
    "s.value) as t from NVTX_EVENTS n left join StringIds s on s.id = n.textId where n.eventType in (59, 60)), "
    "names as (select start, end_, globalTid, case when instr(t, ', op_id = ') > 0 then substr(t, 1, instr(t, ', "
    "op_id = ') - 1) else t end as name from raw)";

const std::string kMap = R"({"matmul": ["aten::mm", "aten::addmm"], "elementwise": ["re:^aten::(add|mul)$"]})";
const std::string kMatmul = "(instr(name, 'aten::mm') > 0 or instr(name, 'aten::addmm') > 0)";
const std::string kElementwise = "name in ('aten::add', 'aten::mul')";

void CheckPhase(const FixtureSql& sql, const skills::Table& t, const std::string& phase, const std::string& match) {
  const int row = FindRow(t, "phase", phase);
  ASSERT_GE(row, 0) << phase;
  const auto r = static_cast<size_t>(row);
  EXPECT_EQ(IntCell(t, r, "ranges"), sql.Int(std::string(kNames) + " select count(*) from names where " + match));
  EXPECT_EQ(IntCell(t, r, "wall_ns"),
            UnionLengthOf(sql.Intervals(std::string(kNames) + " select start, end_ from names where " + match)));
  // Kernels whose launch call (same pid and correlationId) lies inside a matching range on the same thread.
  const std::string launched =
      std::string(kNames) + ", m as materialized (select start, end_, globalTid from names where " + match +
      ") select count(*), coalesce(sum(k.end - k.start), 0) from CUPTI_ACTIVITY_KIND_KERNEL k join "
      "CUPTI_ACTIVITY_KIND_RUNTIME r on r.correlationId = k.correlationId and ((r.globalTid >> 24) & 16777215) = "
      "((k.globalPid >> 24) & 16777215) where exists (select 1 from m where m.globalTid = r.globalTid and m.start <= "
      "r.start and m.end_ >= r.end)";
  int64_t kernels = -1, gpu_ns = -1;
  sql.Each(launched, [&](sqlite3_stmt* st) {
    kernels = sqlite3_column_int64(st, 0);
    gpu_ns = sqlite3_column_int64(st, 1);
  });
  EXPECT_EQ(IntCell(t, r, "kernels"), kernels) << phase;
  EXPECT_EQ(IntCell(t, r, "gpu_ns"), gpu_ns) << phase;
  const int64_t in_phase = IntCell(t, r, "in_phase_ns");
  EXPECT_GE(in_phase, gpu_ns);
  EXPECT_DOUBLE_EQ(DoubleCell(t, r, "coverage"), static_cast<double>(gpu_ns) / static_cast<double>(in_phase));
}

TEST(GoldenPhases, SubstringsAndRegexesOnH100MatchSql) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "phases", {{"phase_map", Value{kMap}}});
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(StringCell(t, 0, "phase"), "matmul");  // the map's order
  EXPECT_EQ(StringCell(t, 1, "phase"), "elementwise");
  FixtureSql sql("h100_2gpu_1s.sqlite");
  CheckPhase(sql, t, "matmul", kMatmul);
  CheckPhase(sql, t, "elementwise", kElementwise);
  EXPECT_GT(IntCell(t, 0, "kernels"), 0);
  EXPECT_GT(IntCell(t, 1, "kernels"), 0);
}

TEST(GoldenPhases, AProfileWithoutKernelsStillHasRangesAndWallTime) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "phases",
                 {{"phase_map", Value{std::string(R"({"all": ["re:."]})")}}});
  ASSERT_EQ(t.rows.size(), 1u);
  FixtureSql sql("titanrtx_tensorrt_nvtx.sqlite");
  EXPECT_EQ(IntCell(t, 0, "ranges"),
            sql.Int(std::string(kNames) + " select count(*) from names where length(name) > 0"));
  EXPECT_EQ(IntCell(t, 0, "gpu_ns"), 0);
  EXPECT_TRUE(IsNull(Cell(t, 0, "coverage")));
}

TEST(GoldenPhases, NoNvtxIsDeclined) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "v100_julia.sqlite", "phases", {{"phase_map", Value{kMap}}});
  EXPECT_TRUE(t.declined);
  EXPECT_NE(JoinNotes(t).find("no NVTX data"), std::string::npos);
}

TEST(GoldenPhases, BadMapsAreInvalidArgumentsNamingTheProblem) {
  NSYS_REQUIRE_FIXTURES();
  const std::pair<std::string, std::string> cases[] = {
      {"{not json", "not valid JSON"},
      {"[\"prefill\"]", "not a non-empty JSON object"},
      {"{}", "not a non-empty JSON object"},
      {R"({"a": "prefill"})", "phase \"a\" needs a non-empty array of patterns"},
      {R"({"a": []})", "phase \"a\" needs a non-empty array of patterns"},
      {R"({"a": [1]})", "phase \"a\" has a pattern that is not a string"},
      {R"({"a": ["re:(unclosed"]})", "phase \"a\": bad regex \"(unclosed\""},
      {R"({"a": [""]})", "empty pattern"},
  };
  for (const auto& [map, message] : cases) {
    auto r = RunSkill("h100_2gpu_1s.sqlite", "phases", {{"phase_map", Value{map}}});
    ASSERT_FALSE(r.ok()) << map;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument) << map;
    EXPECT_EQ(r.error().message.rfind("phase_map: ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find(message), std::string::npos) << r.error().message;
  }
  auto missing = RunSkill("h100_2gpu_1s.sqlite", "phases", {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace nsys::testing
