// The bounded printf/format, instr, replace, trim, like and glob of user queries: one call can no longer outlast the
// query's budget, and every result is still SQLite's own (compared with a plain connection).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "../../server/engine/src/query_pool.h"
#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;
using BoundedClock = std::chrono::steady_clock;

class BoundedFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    profile_ = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
    ASSERT_TRUE(profile_);
  }
  Expected<SqlResult> Timed(const std::string& sql, std::chrono::milliseconds budget, double* seconds,
                            const CancelToken& cancel = {}) {
    QueryLimits limits;
    limits.time_budget = budget;
    limits.time_budget_hint = "see --skill-timeout";
    const auto start = BoundedClock::now();
    auto r = profile_->Query(sql, cancel, limits);
    *seconds = std::chrono::duration<double>(BoundedClock::now() - start).count();
    return r;
  }
  std::shared_ptr<Profile> profile_;
};

// Six calls that each used to spin 8 s (2e9 repeats) and answer NULL. Now: the 16 MiB value error, before any repeat is
// written.
TEST_F(BoundedFunctionsTest, SixHugePrintfsEndAtOnceWithTheValueLimitError) {
  std::string sql = "SELECT ";
  for (int i = 0; i < 6; ++i) sql += std::string(i ? ", " : "") + "printf('%.*c', 2000000000, 'x')";
  double took = 0;
  auto r = Timed(sql, std::chrono::seconds(1), &took);
  ASSERT_FALSE(r.ok()) << "the calls answered instead of failing";
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(r.error().message, "The query stopped: a value passed 16 MiB (the limit on one value's size).");
  EXPECT_LT(took, 0.5);
  // format() is the same function; a width past the limit fails the same way (SQLite answered NULL).
  for (const char* call : {"format('%.*c', 2000000000, 'x')", "printf('%*c', 2000000000, 'x')",
                           "printf('%.*c', 16777217, 'x')", "printf('%2000000000d', 1)"}) {
    auto big = Timed(std::string("SELECT ") + call, std::chrono::seconds(1), &took);
    ASSERT_FALSE(big.ok()) << call;
    EXPECT_EQ(big.error().kind, ErrorKind::kLimitExceeded) << call;
    EXPECT_LT(took, 0.5) << call;
  }
  // SQLite's printf writes at most the limit less one byte (its terminating NUL counts): so does this one.
  for (const char* call : {"printf('%.*c', 16777215, 'x')", "printf('%16777215d', 1)"}) {
    auto at_limit = Timed(std::string("SELECT length(") + call + ")", std::chrono::seconds(5), &took);
    ASSERT_TRUE(at_limit.ok()) << call << ": " << at_limit.error().message;
    EXPECT_EQ(std::get<int64_t>(at_limit->rows[0][0]), 16777215) << call;
  }
  for (const char* call : {"printf('%.*c', 16777216, 'x')", "printf('%16777216d', 1)"}) {
    auto past = Timed(std::string("SELECT length(") + call + ")", std::chrono::seconds(5), &took);
    ASSERT_FALSE(past.ok()) << call << " answered";
    EXPECT_EQ(past.error().kind, ErrorKind::kLimitExceeded) << call;
  }
}

TEST_F(BoundedFunctionsTest, QuadraticSearchesAnswerInLinearTime) {
  // SQLite's own took 29 s for each of these on 2 MB / 1 MB.
  double took = 0;
  auto r = Timed(
      "WITH v(h, n) AS (SELECT printf('%.*c', 2000000, 'a'), printf('%.*c', 1000000, 'a') || 'b') "
      "SELECT instr(h, n), length(replace(h, n, '')), instr(h || 'b', n), length(replace(h || 'b', n, 'xy')) FROM v",
      std::chrono::seconds(5), &took);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(std::get<int64_t>(r->rows[0][0]), 0);
  EXPECT_EQ(std::get<int64_t>(r->rows[0][1]), 2000000);
  EXPECT_EQ(std::get<int64_t>(r->rows[0][2]), 1000001);
  EXPECT_EQ(std::get<int64_t>(r->rows[0][3]), 1000002);
  EXPECT_LT(took, 1.0);
}

TEST_F(BoundedFunctionsTest, LongTrimsStopAtTheBudgetAndOnCancel) {
  // ltrim of 1 MB against a 1 MB set: SQLite's loop is 1e12 comparisons. It now checks the budget as it goes.
  const std::string sql = "SELECT length(ltrim(printf('%.*c', 1000000, 'a'), printf('%.*c', 1000000, 'b') || 'a'))";
  double took = 0;
  auto r = Timed(sql, std::chrono::milliseconds(500), &took);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(r.error().message, "The query stopped after 0.5 s (its time budget; see --skill-timeout).");
  EXPECT_LT(took, 1.5);
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel.cancel();
  });
  auto cancelled = Timed(sql, std::chrono::seconds(60), &took, cancel);
  canceller.join();
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(took, 1.5);
}

TEST_F(BoundedFunctionsTest, HugeLikeAndGlobAreRefusedByTheirLimit) {
  // 1 MB of text against 1,000 bytes after a '%' (or '*'): 1.1 s in SQLite's matcher; 16 MB would take minutes.
  double took = 0;
  for (const char* sql :
       {"SELECT printf('%.*c', 1000000, 'a') LIKE '%' || replace(printf('%.*c', 500, 'x'), 'x', 'a_') || 'b'",
        "SELECT printf('%.*c', 1000000, 'a') GLOB '*' || replace(printf('%.*c', 500, 'x'), 'x', 'a?') || 'b'"}) {
    auto r = Timed(sql, std::chrono::seconds(5), &took);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded) << sql;
    EXPECT_THAT(r.error().message, HasSubstr("the limit on one match")) << sql;
    EXPECT_LT(took, 0.5);
  }
  // A long text with a short tail, or a long pattern with no wildcard, is matched.
  auto ok = Timed(
      "SELECT printf('%.*c', 8000000, 'a') LIKE '%ab', printf('%.*c', 40000, 'a') = printf('%.*c', 40000, "
      "'a'), printf('%.*c', 40000, 'a') LIKE printf('%.*c', 40000, 'A')",
      std::chrono::seconds(5), &took);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(std::get<int64_t>(ok->rows[0][0]), 0);
  EXPECT_EQ(std::get<int64_t>(ok->rows[0][2]), 1);
}

// typeof(E) || ':' || quote(E), or "error: <message>", on a plain SQLite connection with the same value limit.
std::string PlainSqlite(const std::string& expr) {
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, QueryConnection::kMaxValueBytes);
  sqlite3_stmt* stmt = nullptr;
  std::string out;
  const std::string sql = "SELECT typeof(" + expr + ") || ':' || quote(" + expr + ")";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    out = std::string("error: ") + sqlite3_errmsg(db);
  } else if (sqlite3_step(stmt) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    out = text ? std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt, 0))) : "NULL";
  } else {
    out = std::string("error: ") + sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// instr and replace find each match by searching a window that grows, so a match may start anywhere in it or cross its
// end: every start position 0..2,500 of a needle of 1 to 130 bytes, behind a near miss (the needle less one byte),
// against SQLite's own answers. One subquery per needle length; both sides see the same text.
TEST_F(BoundedFunctionsTest, MatchesAtEveryOffsetAreSqlitesOwn) {
  for (int length : {1, 2, 5, 33, 130}) {
    const std::string needle = "printf('%.*c', " + std::to_string(length) + ", 'b')";
    const std::string hay = "(printf('%.*c', x, 'a') || printf('%.*c', " + std::to_string(length - 1) +
                            ", 'b') || 'a' || " + needle + " || 'a' || " + needle + ")";
    const std::string expr =
        "(WITH RECURSIVE p(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM p WHERE x < 2500) "
        "SELECT group_concat(instr(" +
        hay + ", " + needle + ") || '/' || replace(" + hay + ", " + needle + ", 'xyz'), ',') FROM p)";
    const std::string plain = PlainSqlite(expr);
    ASSERT_EQ(plain.rfind("text:", 0), 0u) << plain.substr(0, 200);
    auto ours = profile_->Query("SELECT typeof(" + expr + ") || ':' || quote(" + expr + ")");
    ASSERT_TRUE(ours.ok()) << ours.error().message;
    ASSERT_EQ(ours->rows.size(), 1u);
    EXPECT_TRUE(std::get<std::string>(ours->rows[0][0]) == plain) << "needle of " << length << " bytes";
  }
}

TEST_F(BoundedFunctionsTest, ResultsAreSqlitesOwn) {
  const std::vector<std::string> exprs = {
      // printf / format
      "printf('%05d', 42)",
      "printf('%s|%d|%f|%e|%g|%x|%X|%o|%c|%q|%Q|%w|%%', 'a''b', -7, 3.5, 1e10, 0.0001, 255, "
      "255, 8, 'zq', 'it''s', NULL, 'x\"y')",
      "printf('%-10s|%10.3s|', 'left', 'abcdef')",
      "printf('%.*c', 5, 'é')",
      "printf('%*c|', -5, 'x')",
      "printf('%!.3c', 'é')",
      "printf('%,d', 1234567)",
      "printf('%lld %ld', 9, 10)",
      "printf('%5.2f', 3.14159)",
      "printf('%T')",
      "printf('')",
      "printf('%n')",
      "printf('%s', NULL)",
      "printf('%.0c', 'x')",
      "printf('%c', NULL)",
      "printf('%z', 'abc')",
      "printf('%r %r %r', 1, 2, 23)",
      "printf('%p', 255)",
      "printf('%i', '12abc')",
      "printf(NULL)",
      "printf()",
      "format('%d-%s', 1, 'a')",
      "printf('%.*c', 4294967298, 'x')",
      "printf('%.*c', -3, 'x')",
      "printf(x'00')",
      "printf('%s')",
      "printf('%d %d', 1)",
      "printf('%5%')",
      "printf('%.3s', 'abcdef')",
      "printf('%!.3s', 'éééé')",
      "printf(5)",
      "printf('%*.*c|', 6, 3, 'y')",
      "printf('%.*5c', 3, 'q')",
      "printf('%#x %#o %+d % d', 255, 8, 5, 5)",
      "printf('%!.20g', 0.1)",
      "printf('%.3c%s', 'ab', 'tail')",
      "printf('%y and after')",
      "printf('%0*d', 8, 42)",
      "length(printf('%.*c', 16000000, 'x'))",
      "printf('%-*d|', -5, 3)",
      "printf('%.*f', -2, 3.14159)",
      "printf('%10.4e', 123.456)",
      "printf('%,.2f', 1234567.891)",
      "printf('%s %s', 1, 2.5)",
      "printf('%d', 'abc')",
      "printf('%x', -1)",
      "printf('%+.3g', 1e-300)",
      "printf('100%% %d%%', 5)",
      "printf('%')",
      "printf('abc%')",
      "printf('%5s|%!5s|%.2s|%!.2s', 'é', 'é', 'éé', 'éé')",
      "printf('%d %u %o %#X', 9223372036854775807, -1, 8, 255)",
      "printf('%e', 'x')",
      "printf('%i %s', NULL, NULL)",
      "printf('%lf %lld %ld', 2.5, 2.5, '7')",
      "printf('%-+08.3f|% 5d|%05s', 2.5, 42, 'ab')",
      "printf('%.100f', 1.0/3)",
      "printf('%30.20g', 2.0/3)",
      "printf('%*.*s|', 8, 2, 'abcdef')",
      "printf('%.*s', 4294967298, 'abcdef')",
      "printf('%5-d', 1)",
      "printf('%l5d', 1)",
      "printf('%*5d', 3, 1)",
      "printf('a%.3.4db', 1)",
      "printf('%r', -1)",
      "printf('%,d', -1234)",
      "printf('%#o %#x %!g %!f', 0, 0, 1.0, 2.0)",
      "format('%d%%', 50)",
      "printf('%s', x'4142')",
      // instr
      "instr('abc', '')",
      "instr('', '')",
      "instr(x'616263', 'c')",
      "instr('éa', 'a')",
      "instr('aéb', 'b')",
      "instr('abc', NULL)",
      "instr(NULL, 'a')",
      "instr(123, 2)",
      "instr(x'00ff00', x'ff')",
      "instr('abc', x'63')",
      "instr('ééé', 'é')",
      "instr('abcabc', 'cab')",
      "instr(CAST(x'80414141' AS TEXT), 'A')",
      "instr(CAST(x'41804142' AS TEXT), CAST(x'8041' AS TEXT))",
      "instr(CAST(x'8041' AS TEXT), CAST(x'80' AS TEXT))",
      "instr('abc', 'abcd')",
      "instr(1.5, '.')",
      // replace
      "replace('abc', '', 'z')",
      "replace(5, '', 'x')",
      "replace('abc', x'00', 'z')",
      "replace('aaaa', 'aa', 'b')",
      "replace('abcabc', 'bc', 'XYZ')",
      "replace(NULL, 'a', 'b')",
      "replace('a', NULL, 'b')",
      "replace('a', 'a', NULL)",
      "replace(123, 2, 9)",
      "replace('aaa', 'a', '')",
      "replace(x'610062', x'00', '-')",
      "replace('ééé', 'é', 'e')",
      "replace('abc', 'abcd', 'x')",
      "replace(1.25, '.', ',')",
      "length(replace(printf('%.*c', 8388608, 'a'), 'a', 'bb'))",
      "length(replace(printf('%.*c', 8388608, 'a') || "
      "'a', 'a', 'bb'))",
      // trim
      "trim('xxaxx', 'x')",
      "trim('xxaxx', '')",
      "trim(5, 'x')",
      "trim('  a  ', ' ')",
      "trim('abcba', 'ab')",
      "trim('éaé', 'é')",
      "trim(NULL, 'x')",
      "trim('a', NULL)",
      "rtrim('abcxyx', 'xy')",
      "ltrim('xyxabc', 'yx')",
      "trim(CAST(x'c3a9c3' AS TEXT), CAST(x'c3' AS TEXT))",
      "ltrim(12300, '1')",
      "rtrim(12300, '0')",
      "trim('  a  ')",
      "ltrim(x'2020', ' ')",
      // like / glob
      "like('a%', 'abc')",
      "like('A%', 'abc')",
      "like('%b%', 'abc')",
      "like('_b_', 'abc')",
      "like('a\\%', 'a%', '\\')",
      "like('a%%', 'a%', '%')",
      "like('a%_', 'a_', '_')",
      "like('ab', NULL)",
      "like(NULL, 'a')",
      "like('é%', 'Éa')",
      "'abc' LIKE 'ABC'",
      "'abc' LIKE 'a%' ESCAPE 'x'",
      "glob('a*', 'abc')",
      "glob('A*', 'abc')",
      "glob('[a-c]*', 'bcd')",
      "glob('[^a]*', 'bcd')",
      "glob('*?', '')",
      "like('a', 'a', 'ab')",
      "like('a', 'a', '')",
      "like('a', 'a', NULL)",
      "'x' GLOB NULL",
      "like(5, 5)",
      "like('%', x'00')",
      "'a[b' GLOB 'a[[]b'",
  };
  for (const std::string& expr : exprs) {
    const std::string plain = PlainSqlite(expr);
    auto ours = profile_->Query("SELECT typeof(" + expr + ") || ':' || quote(" + expr + ")");
    if (plain.rfind("error: ", 0) == 0) {
      ASSERT_FALSE(ours.ok()) << expr << " answered where SQLite fails with " << plain;
      if (plain == "error: string or blob too big") {
        EXPECT_EQ(ours.error().kind, ErrorKind::kLimitExceeded) << expr;  // the 16 MiB value error
      } else {
        EXPECT_THAT(ours.error().message, HasSubstr(plain.substr(7))) << expr;
      }
      continue;
    }
    ASSERT_TRUE(ours.ok()) << expr << ": " << ours.error().message;
    ASSERT_EQ(ours->rows.size(), 1u) << expr;
    const Value& cell = ours->rows[0][0];
    const std::string got = std::holds_alternative<std::string>(cell) ? std::get<std::string>(cell) : "NULL";
    EXPECT_EQ(got, plain) << expr;
  }
}

}  // namespace
}  // namespace nsys::engine
