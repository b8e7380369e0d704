// Profile::Query against hostile SQL: the FTS3 tokenizer pointer primitive, functions outside the
// allow-list, endless queries (time budget), huge results (byte limit), and a slow query next to others (the pool).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../../server/engine/src/query_pool.h"
#include "../../server/engine/src/sqlite_db.h"
#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

constexpr const char* kEndless =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

// A copy of a real export with an FTS3 table that uses the 'simple' tokenizer, as a crafted profile could carry.
std::string ExportWithFtsTable(const TempDir& dir) {
  const std::string path = dir / "with_fts.sqlite";
  std::filesystem::copy_file(Fixture("mock.sqlite"), path);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db,
                         "CREATE VIRTUAL TABLE notes USING fts3(body, tokenize=simple);"
                         "INSERT INTO notes VALUES ('hello world');",
                         nullptr, nullptr, &err),
            SQLITE_OK)
      << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
  return path;
}

// Runs `body` in a child process and returns what it wrote to the given fd, plus its wait status: a regression that
// reaches the pointer crashes the child, not the test binary.
struct ChildResult {
  int status = 0;
  std::string output;
};
template <typename Fn>
ChildResult InChild(Fn&& body) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    body(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  ChildResult result;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) result.output.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  waitpid(pid, &result.status, 0);
  return result;
}

void Say(int fd, const std::string& line) {
  const std::string text = line + "\n";
  (void)!write(fd, text.data(), text.size());
}

std::string Outcome(const Expected<SqlResult>& r) {
  return r.ok() ? "ran" : r.error().message;
}

// Before the fix this child died with SIGSEGV in sqlite3Fts3InitTokenizer: the first query read a pointer into the
// library, the second installed 0x4141414141414141 as the 'simple' tokenizer and the FTS query called through it.
TEST(QueryHardening, Fts3TokenizerIsRefusedByName) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  TempDir dir;
  const std::string path = ExportWithFtsTable(dir);
  const ChildResult child = InChild([&](int out) {
    auto profile = OpenOrDie(path, TestOptions());
    if (!profile) _exit(3);
    Say(out, "leak: " + Outcome(profile->Query("SELECT hex(fts3_tokenizer('simple'))")));
    Say(out, "install: " + Outcome(profile->Query("SELECT fts3_tokenizer('simple', x'4141414141414141')")));
    Say(out, "use: " + Outcome(profile->Query("SELECT count(*) FROM notes WHERE notes MATCH 'hello'")));
    Say(out, "plain: " + Outcome(profile->Query("SELECT count(*) FROM notes")));
  });
  ASSERT_TRUE(WIFEXITED(child.status)) << "the child died by signal " << WTERMSIG(child.status) << "\n" << child.output;
  EXPECT_EQ(WEXITSTATUS(child.status), 0) << child.output;
  const std::string refused =
      "The query was refused: it calls fts3_tokenizer(), which is not among the functions user queries may call";
  EXPECT_THAT(child.output, HasSubstr("leak: " + refused));
  EXPECT_THAT(child.output, HasSubstr("install: " + refused));
  // MATCH is the FTS auxiliary function match(): refused too, by name.
  EXPECT_THAT(child.output, HasSubstr("use: The query was refused: it calls match()"));
  // Reading the FTS table without its functions works: the tokenizer was never replaced.
  EXPECT_THAT(child.output, HasSubstr("plain: ran"));
}

// The connection-level switches hold even without the authorizer (every engine connection gets them).
TEST(QueryHardening, ConnectionsAreHardenedBelowTheAuthorizer) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  auto db = sql::Db::OpenReadOnly(Fixture("mock.sqlite"));
  ASSERT_TRUE(db.ok()) << db.error().message;
  auto setting = [&](int op) {
    int value = -1;
    EXPECT_EQ(sqlite3_db_config(db->get(), op, -1, &value), SQLITE_OK);
    return value;
  };
  EXPECT_EQ(setting(SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER), 0);
  EXPECT_EQ(setting(SQLITE_DBCONFIG_DEFENSIVE), 1);
  EXPECT_EQ(setting(SQLITE_DBCONFIG_TRUSTED_SCHEMA), 0);
  EXPECT_EQ(setting(SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION), 0);
  auto stmt = db->Prepare("SELECT fts3_tokenizer('simple', x'4141414141414141')");
  ASSERT_TRUE(stmt.ok());
  EXPECT_EQ(stmt->Step(), SQLITE_ERROR);
  EXPECT_THAT(db->ErrorMessage(), HasSubstr("fts3tokenize disabled"));
}

class QueryLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    profile_ = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
    ASSERT_TRUE(profile_);
  }
  std::shared_ptr<Profile> profile_;
};

TEST_F(QueryLimitsTest, AllowListedFunctionsRun) {
  auto r = profile_->Query(
      "SELECT abs(-3), round(2.567, 1), printf('%05d', 42), upper(substr('kernel', 1, 3)), coalesce(NULL, 7), "
      "iif(1, 'y', 'n'), sqrt(16.0), log10(1000.0), strftime('%Y', '2024-05-01'), json_extract('{\"a\": 5}', '$.a'), "
      "'{\"b\": 6}' ->> '$.b', (SELECT group_concat(deviceId) FROM (SELECT DISTINCT deviceId FROM "
      "CUPTI_ACTIVITY_KIND_KERNEL ORDER BY deviceId)), (SELECT max(n) FROM (SELECT row_number() OVER (ORDER BY start) "
      "AS n FROM CUPTI_ACTIVITY_KIND_KERNEL))");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->rows.size(), 1u);
  const auto& row = r->rows[0];
  EXPECT_EQ(std::get<int64_t>(row[0]), 3);
  EXPECT_DOUBLE_EQ(std::get<double>(row[1]), 2.6);
  EXPECT_EQ(std::get<std::string>(row[2]), "00042");
  EXPECT_EQ(std::get<std::string>(row[3]), "KER");
  EXPECT_EQ(std::get<int64_t>(row[4]), 7);
  EXPECT_EQ(std::get<std::string>(row[5]), "y");
  EXPECT_DOUBLE_EQ(std::get<double>(row[6]), 4.0);
  EXPECT_DOUBLE_EQ(std::get<double>(row[7]), 3.0);
  EXPECT_EQ(std::get<std::string>(row[8]), "2024");
  EXPECT_EQ(std::get<int64_t>(row[9]), 5);
  EXPECT_EQ(std::get<int64_t>(row[10]), 6);
  EXPECT_EQ(std::get<std::string>(row[11]), "0,1");
  EXPECT_EQ(std::get<int64_t>(row[12]), 3442);  // fixtures/README: 3,442 kernels
}

TEST_F(QueryLimitsTest, OtherFunctionsAreRefusedByName) {
  for (const char* fn : {"load_extension('x')", "sqlite_compileoption_get(0)", "randomblob(16)", "zeroblob(16)",
                         "fts3_tokenizer('porter')", "rtreenode(2, x'00')", "sqlite_version()", "changes()"}) {
    SCOPED_TRACE(fn);
    auto r = profile_->Query(std::string("SELECT ") + fn);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
    const std::string name = std::string(fn).substr(0, std::string(fn).find('('));
    EXPECT_THAT(r.error().message, HasSubstr("The query was refused: it calls " + name + "()"));
  }
}

TEST_F(QueryLimitsTest, EndlessQueryStopsAtItsTimeBudget) {
  QueryLimits limits;
  limits.time_budget = std::chrono::milliseconds(300);
  limits.time_budget_hint = "see --skill-timeout";
  const auto t0 = Clock::now();
  auto r = profile_->Query(kEndless, {}, limits);
  const auto elapsed = Clock::now() - t0;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(r.error().message, "The query stopped after 0.3 s (its time budget; see --skill-timeout).");
  EXPECT_GE(elapsed, std::chrono::milliseconds(300));
  EXPECT_LT(elapsed, std::chrono::milliseconds(300 + 700));
  // Cancellation still reads as cancellation when a budget is set.
  CancelToken cancel;
  std::thread stopper([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  limits.time_budget = std::chrono::seconds(10);
  auto cancelled = profile_->Query(kEndless, cancel, limits);
  stopper.join();
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().kind, ErrorKind::kCancelled);
  EXPECT_TRUE(profile_->Query("SELECT count(*) FROM StringIds").ok());
}

TEST_F(QueryLimitsTest, SlowQueryDoesNotHoldUpOthers) {
  QueryLimits slow;
  slow.time_budget = std::chrono::seconds(3);
  std::atomic<bool> slow_done{false};
  std::thread endless([&] {
    auto r = profile_->Query(kEndless, {}, slow);
    EXPECT_FALSE(r.ok());
    slow_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the endless query has its connection
  const auto t0 = Clock::now();
  auto quick = profile_->Query("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  const auto elapsed = Clock::now() - t0;
  ASSERT_TRUE(quick.ok()) << quick.error().message;
  EXPECT_EQ(std::get<int64_t>(quick->rows[0][0]), 3442);
  EXPECT_LT(elapsed, std::chrono::seconds(1));
  EXPECT_FALSE(slow_done.load());  // it really ran alongside
  endless.join();
}

TEST_F(QueryLimitsTest, WaitingForAConnectionIsCancellable) {
  QueryLimits slow;
  slow.time_budget = std::chrono::seconds(2);
  std::vector<std::thread> holders;
  for (size_t i = 0; i < QueryPool::kMaxConnections; ++i)
    holders.emplace_back([&] { EXPECT_FALSE(profile_->Query(kEndless, {}, slow).ok()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // every connection is busy
  CancelToken cancel;
  cancel.cancel();
  auto waiting = profile_->Query("SELECT 1", cancel);
  ASSERT_FALSE(waiting.ok());
  EXPECT_EQ(waiting.error().kind, ErrorKind::kCancelled);
  // Without cancel, it gets a connection once a budget ends.
  const auto t0 = Clock::now();
  auto later = profile_->Query("SELECT 1");
  EXPECT_TRUE(later.ok());
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(3));
  for (auto& t : holders) t.join();
}

TEST_F(QueryLimitsTest, ResultIsBoundedInBytes) {
  // 100,000 rows of a 1,000-byte text: about 100 MB as values, over the default 64 MiB.
  const std::string wide =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) "
      "SELECT x, printf('%.1000c', 'a') AS pad FROM c";
  auto r = profile_->Query(wide);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_THAT(r.error().message, HasSubstr("its result passed 64 MiB (the result size limit)"));
  QueryLimits small;
  small.max_result_bytes = size_t{1} << 20;
  auto s = profile_->Query(wide, {}, small);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("its result passed 1 MiB"));
  // Rows past max_rows are counted, not kept, so they cost nothing.
  small.max_rows = 100;
  auto capped = profile_->Query(wide, {}, small);
  ASSERT_TRUE(capped.ok()) << capped.error().message;
  EXPECT_EQ(capped->rows.size(), 100u);
  EXPECT_EQ(capped->total_rows, 100000);
  EXPECT_LT(capped->bytes, size_t{200} * 1024);
  EXPECT_GT(capped->bytes, size_t{100} * 1000);
}

TEST_F(QueryLimitsTest, OneValueIsBoundedInBytes) {
  // printf() alone returns NULL past the limit; concatenation reports it.
  auto r = profile_->Query("SELECT length(printf('%.*c', 10000000, 'x') || printf('%.*c', 10000000, 'y'))");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_THAT(r.error().message, HasSubstr("a value passed 16 MiB"));
  auto fits = profile_->Query("SELECT length(printf('%.*c', 1000000, 'x'))");
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  EXPECT_EQ(std::get<int64_t>(fits->rows[0][0]), 1000000);
}

}  // namespace
}  // namespace nsys::engine
