// Profile::Query: read-only statements only, refused before they run; cancellable; capped.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;

class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    profile_ = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
    ASSERT_TRUE(profile_);
  }
  Error Refused(const std::string& sql) {
    auto r = profile_->Query(sql);
    EXPECT_FALSE(r.ok()) << "ran: " << sql;
    return r.ok() ? Error{} : r.error();
  }
  std::shared_ptr<Profile> profile_;
};

TEST_F(QueryTest, Select) {
  auto r = profile_->Query(
      "SELECT deviceId, count(*) AS n, sum(end - start) AS t FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId "
      "ORDER BY deviceId");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->columns, (std::vector<std::string>{"deviceId", "n", "t"}));
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(std::get<int64_t>(r->rows[0][0]), 0);
  EXPECT_EQ(std::get<int64_t>(r->rows[0][1]) + std::get<int64_t>(r->rows[1][1]), 3442);
  EXPECT_EQ(r->total_rows, 2);
}

TEST_F(QueryTest, TypesAndNulls) {
  auto r = profile_->Query("SELECT 1, 2.5, 'x', NULL, x'00ff'");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(r->rows[0][0]), 1);
  EXPECT_DOUBLE_EQ(std::get<double>(r->rows[0][1]), 2.5);
  EXPECT_EQ(std::get<std::string>(r->rows[0][2]), "x");
  EXPECT_TRUE(IsNull(r->rows[0][3]));
  EXPECT_EQ(std::get<std::string>(r->rows[0][4]), "<blob, 2 bytes>");
}

TEST_F(QueryTest, WithExplainAndCommentsAndTrailingSemicolon) {
  EXPECT_TRUE(
      profile_->Query("  -- kernels\n WITH k AS (SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL) SELECT count(*) FROM k;")
          .ok());
  EXPECT_TRUE(profile_->Query("/* plan */ EXPLAIN QUERY PLAN SELECT * FROM StringIds WHERE id = 3").ok());
  // Schema introspection through table-valued pragma functions is read-only and allowed.
  auto r = profile_->Query("SELECT name FROM pragma_table_info('StringIds')");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->rows.size(), 2u);
}

TEST_F(QueryTest, CapsRowsButCountsThemAll) {
  auto r = profile_->Query("SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL", {}, {.max_rows = 10});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows.size(), 10u);
  EXPECT_EQ(r->total_rows, 3442);
}

TEST_F(QueryTest, RefusesWrites) {
  for (const char* sql :
       {"DELETE FROM StringIds", "INSERT INTO StringIds VALUES (999999, 'x')", "UPDATE StringIds SET value = 'x'",
        "DROP TABLE StringIds", "CREATE TABLE t(x)", "CREATE INDEX i ON CUPTI_ACTIVITY_KIND_KERNEL(start)", "VACUUM",
        "BEGIN", "REINDEX", "ANALYZE"}) {
    SCOPED_TRACE(sql);
    Error e = Refused(sql);
    EXPECT_EQ(e.kind, ErrorKind::kInvalidArgument);
    EXPECT_THAT(e.message, HasSubstr("read-only"));
  }
}

TEST_F(QueryTest, RefusesAttachPragmaAndMultipleStatements) {
  EXPECT_THAT(Refused("ATTACH DATABASE '/tmp/x.db' AS x").message, HasSubstr("starts with ATTACH"));
  EXPECT_THAT(Refused("DETACH DATABASE main").message, HasSubstr("read-only"));
  EXPECT_THAT(Refused("PRAGMA query_only=0").message, HasSubstr("starts with PRAGMA"));
  EXPECT_THAT(Refused("PRAGMA table_info(StringIds)").message, HasSubstr("starts with PRAGMA"));
  EXPECT_THAT(Refused("SELECT 1; DELETE FROM StringIds").message, HasSubstr("Only one statement"));
  EXPECT_THAT(Refused("SELECT 1; SELECT 2").message, HasSubstr("Only one statement"));
  // Writes hidden behind a SELECT-looking start are stopped by the authorizer or stmt_readonly.
  EXPECT_THAT(Refused("WITH x AS (SELECT 1) DELETE FROM StringIds").message, HasSubstr("refused"));
  EXPECT_THAT(Refused("SELECT * FROM pragma_journal_mode").message, HasSubstr("refused"));
  EXPECT_THAT(Refused("SELECT * FROM pragma_journal_mode('delete')").message, HasSubstr("refused"));
  EXPECT_THAT(Refused("SELECT * FROM pragma_query_only(0)").message, HasSubstr("refused"));
  EXPECT_THAT(Refused("EXPLAIN DELETE FROM StringIds").message, HasSubstr("refused"));
  EXPECT_THAT(Refused("SELECT load_extension('x')").message, HasSubstr("refused"));
  EXPECT_THAT(Refused("").message, HasSubstr("read-only"));
  EXPECT_THAT(Refused("SELECT * FROM no_such_table").message, HasSubstr("no such table"));
}

TEST_F(QueryTest, NamedParametersAreBound) {
  Profile::SqlParams params{{"dev", Value(int64_t{1})}, {"min_ns", Value(1000.5)}, {"unused", Value(std::string("x"))}};
  auto r = profile_->Query(
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = :dev AND end - start > :min_ns", params, {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  Sql sql(Fixture("h100_2gpu_1s.sqlite"));
  EXPECT_EQ(std::get<int64_t>(r->rows[0][0]),
            sql.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1 AND end - start > 1000.5"));
  // Text is bound, not spliced: a quote in the value is data.
  auto t = profile_->Query("SELECT count(*) FROM StringIds WHERE value = $v OR @w IS NULL",
                           {{"v", Value(std::string("x' OR 1=1 --"))}}, {});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(std::get<int64_t>(t->rows[0][0]), sql.Int("SELECT count(*) FROM StringIds"));  // @w is NULL
  auto b = profile_->Query("SELECT :flag, :missing", {{"flag", Value(true)}}, {});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(std::get<int64_t>(b->rows[0][0]), 1);
  EXPECT_TRUE(IsNull(b->rows[0][1]));
  // The same refusals apply.
  EXPECT_FALSE(profile_->Query("DELETE FROM StringIds WHERE id = :id", {{"id", Value(int64_t{1})}}, {}).ok());
}

TEST_F(QueryTest, Cancellable) {
  CancelToken cancel;
  std::thread stopper([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel.cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  // A cross join of 16,782 x 16,782 NVTX rows: minutes if not stopped.
  auto r = profile_->Query("SELECT count(*) FROM NVTX_EVENTS a, NVTX_EVENTS b WHERE a.start + b.end = 7", cancel);
  stopper.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  // The connection is usable afterwards.
  EXPECT_TRUE(profile_->Query("SELECT count(*) FROM StringIds").ok());
}

}  // namespace
}  // namespace nsys::engine
