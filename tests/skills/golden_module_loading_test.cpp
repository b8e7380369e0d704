// module_loading against SQL: the loading/linking/compilation calls per (pid, API) and those that started after the
// process's first kernel.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

struct Calls {
  int64_t calls = 0, total = 0, max = 0, during = 0, during_ns = 0;
};

// The API names the skill matches, as SQL LIKE patterns (GLOB: case-sensitive, as the skill's prefixes are).
const char* const kMatched =
    "(s.value GLOB 'cuModuleLoad*' OR s.value GLOB 'cuLibraryLoad*' OR s.value GLOB 'cudaLibraryLoad*' OR "
    "s.value GLOB 'cuLink*' OR s.value GLOB 'nvrtc*' OR s.value GLOB 'nvJitLink*')";

std::map<std::pair<int64_t, std::string>, Calls> ModuleLoadCallsFromSql(const std::string& fixture) {
  FixtureSql sql(fixture);
  std::map<std::pair<int64_t, std::string>, Calls> out;
  sql.Each(std::string("WITH fk AS (SELECT (globalPid >> 24) & 0xFFFFFF pid, min(start) first FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1) "
                       "SELECT (r.globalTid >> 24) & 0xFFFFFF p, s.value, count(*), sum(r.end - r.start), "
                       "max(r.end - r.start), sum(r.start > fk.first), "
                       "sum(CASE WHEN r.start > fk.first THEN r.end - r.start ELSE 0 END) "
                       "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                       "LEFT JOIN fk ON fk.pid = (r.globalTid >> 24) & 0xFFFFFF WHERE ") +
               kMatched + " GROUP BY 1, 2",
           [&](sqlite3_stmt* st) {
             Calls& c = out[{sqlite3_column_int64(st, 0), reinterpret_cast<const char*>(sqlite3_column_text(st, 1))}];
             c.calls = sqlite3_column_int64(st, 2);
             c.total = sqlite3_column_int64(st, 3);
             c.max = sqlite3_column_int64(st, 4);
             c.during = sqlite3_column_int64(st, 5);
             c.during_ns = sqlite3_column_int64(st, 6);
           });
  return out;
}

void ExpectModuleLoadingMatchesSql(const std::string& fixture) {
  SCOPED_TRACE(fixture);
  NSYS_RUN_SKILL(t, fixture, "module_loading");
  ASSERT_FALSE(t.declined);
  const auto expected = ModuleLoadCallsFromSql(fixture);
  ASSERT_EQ(t.rows.size(), expected.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto key = std::make_pair(IntCell(t, r, "pid"), StringCell(t, r, "api_name"));
    ASSERT_TRUE(expected.count(key)) << key.second;
    const Calls& c = expected.at(key);
    EXPECT_EQ(IntCell(t, r, "calls"), c.calls);
    EXPECT_EQ(IntCell(t, r, "total_ns"), c.total);
    EXPECT_EQ(IntCell(t, r, "max_ns"), c.max);
    EXPECT_EQ(IntCell(t, r, "calls_during_run"), c.during);
    EXPECT_EQ(IntCell(t, r, "ns_during_run"), c.during_ns);
  }
}

TEST(ModuleLoading, MatchesSql) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* f : {"h200_nvfuser_nvtx.sqlite", "v100_julia.sqlite", "mfu_2gpu_before.sqlite",
                        "h100_2gpu_1s.sqlite", "a100_2proc_mpi.sqlite", "mock.sqlite"}) {
    ExpectModuleLoadingMatchesSql(f);
  }
}

TEST(ModuleLoading, NvfuserJitsInsideTheRun) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "module_loading");
  // nvFuser compiles its fusions while running: every cuLibraryLoadData (13 calls, 13.27 ms) comes after the first
  // kernel. cuModuleGetLoadingMode (a query) is not listed.
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(StringCell(t, 0, "api_name"), "cuLibraryLoadData");
  EXPECT_EQ(IntCell(t, 0, "calls"), 13);
  EXPECT_EQ(IntCell(t, 0, "total_ns"), 13269073);
  EXPECT_EQ(IntCell(t, 0, "calls_during_run"), 13);
  EXPECT_EQ(StringCell(t, 1, "api_name"), "cuModuleLoadDataEx");
  EXPECT_EQ(FindRow(t, "api_name", "cuModuleGetLoadingMode"), -1);
  // Julia loads its one module before its one kernel: nothing during the run.
  NSYS_RUN_SKILL(j, "v100_julia.sqlite", "module_loading");
  ASSERT_EQ(j.rows.size(), 1u);
  EXPECT_EQ(IntCell(j, 0, "calls"), 1);
  EXPECT_EQ(IntCell(j, 0, "calls_during_run"), 0);
  // Profiles without loading calls say so and list nothing; they do not decline.
  NSYS_RUN_SKILL(m, "mfu_2gpu_before.sqlite", "module_loading");
  EXPECT_FALSE(m.declined);
  EXPECT_TRUE(m.rows.empty());
  EXPECT_NE(JoinNotes(m).find("No module loading"), std::string::npos);
}

TEST(ModuleLoading, DeclinesWithoutCudaApiTrace) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "module_loading");
  EXPECT_TRUE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("CUPTI_ACTIVITY_KIND_RUNTIME"), std::string::npos) << JoinNotes(t);
}

}  // namespace
}  // namespace nsys::testing
