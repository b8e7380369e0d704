// Bad input gives a clear error naming the problem, never a crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <filesystem>
#include <random>
#include <string>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;

Error OpenError(const std::string& path, const OpenOptions& options = TestOptions()) {
  auto p = Profile::Open(path, options);
  EXPECT_FALSE(p.ok()) << path << " opened but should not have";
  return p.ok() ? Error{} : p.error();
}

// A real SQLite database that is not an export.
void MakeSqlite(const std::string& path, const std::string& ddl) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, ddl.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

TEST(OpenErrors, MissingFile) {
  TempDir dir;
  Error e = OpenError(dir / "nope.sqlite");
  EXPECT_EQ(e.kind, ErrorKind::kNotFound);
  EXPECT_THAT(e.message, HasSubstr("No such file"));
  EXPECT_THAT(e.message, HasSubstr("nope.sqlite"));
}

TEST(OpenErrors, Directory) {
  TempDir dir;
  Error e = OpenError(dir.path());
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("is a directory"));
}

// Root reads any file, so as root the check runs in a child that drops to user "nobody" first.
TEST(OpenErrors, NoReadPermission) {
  TempDir dir;
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  const std::string path = dir / "locked.sqlite";
  MakeSqlite(path, "CREATE TABLE NVTX_EVENTS(start INTEGER);");
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  auto check = [&path]() -> bool {
    auto p = Profile::Open(path, TestOptions());
    return !p.ok() && p.error().kind == ErrorKind::kBadInput &&
           p.error().message.find("Permission denied") != std::string::npos &&
           p.error().message.find("locked.sqlite") != std::string::npos;
  };
  if (geteuid() != 0) {
    EXPECT_TRUE(check());
    return;
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(2);
    _exit(check() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "as user nobody, Open() did not report 'Permission denied'";
}

TEST(OpenErrors, EmptyFile) {
  TempDir dir;
  testing::WriteFile(dir / "empty.sqlite", "");
  Error e = OpenError(dir / "empty.sqlite");
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("is empty (0 bytes)"));
}

TEST(OpenErrors, RandomBytes) {
  TempDir dir;
  std::mt19937 rng(42);
  std::string junk(100000, '\0');
  for (char& c : junk) c = static_cast<char>(rng());
  testing::WriteFile(dir / "junk.sqlite", junk);
  Error e = OpenError(dir / "junk.sqlite");
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("is not a SQLite database"));
}

TEST(OpenErrors, TextFile) {
  TempDir dir;
  testing::WriteFile(dir / "notes.sqlite", "just some text\n");
  Error e = OpenError(dir / "notes.sqlite");
  EXPECT_THAT(e.message, HasSubstr("is not a SQLite database"));
}

TEST(OpenErrors, SqliteButNotAnExport) {
  TempDir dir;
  MakeSqlite(dir / "app.sqlite", "CREATE TABLE users(id INTEGER, name TEXT); INSERT INTO users VALUES (1, 'a');");
  Error e = OpenError(dir / "app.sqlite");
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("is not an Nsight Systems export: no CUPTI or NVTX tables"));
}

TEST(OpenErrors, TruncatedExport) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string full = testing::ReadFile(testing::Fixture("h100_2gpu_1s.sqlite"));
  testing::WriteFile(dir / "cut.sqlite", full.substr(0, full.size() / 2));  // whole pages: only SQLite can tell
  Error e = OpenError(dir / "cut.sqlite");
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("truncated"));
  EXPECT_THAT(e.message, HasSubstr("cut.sqlite"));
}

// Cut near the end: the schema is intact, so Open() succeeds, and loading the tables reports the damage.
TEST(OpenErrors, TruncatedTailFailsOnLoad) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string full = testing::ReadFile(testing::Fixture("h100_2gpu_1s.sqlite"));
  const size_t keep = (full.size() * 9 / 10) / 4096 * 4096;
  testing::WriteFile(dir / "tail.sqlite", full.substr(0, keep));
  auto p = Profile::Open(dir / "tail.sqlite", TestOptions());
  Error e;
  if (p.ok()) {
    Status s = (*p)->Require(kAllTables);
    ASSERT_FALSE(s.ok()) << "a truncated export loaded without error";
    e = s.error();
  } else {
    e = p.error();
  }
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("truncated"));
}

TEST(OpenErrors, TruncatedMidPage) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string full = testing::ReadFile(testing::Fixture("mock.sqlite"));
  testing::WriteFile(dir / "cut.sqlite", full.substr(0, full.size() - 1000));
  Error e = OpenError(dir / "cut.sqlite");
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("is truncated"));
}

// empty_export.sqlite has StringIds, ThreadNames and TARGET_INFO_* but no metadata and no event table: an
// export of a capture that recorded nothing. Every answer about it would be empty, so Open says why instead.
TEST(OpenErrors, EmptyExportIsAClearError) {
  NSYS_REQUIRE_FIXTURES();
  Error e = OpenError(testing::Fixture("empty_export.sqlite"));
  EXPECT_EQ(e.kind, ErrorKind::kBadInput);
  EXPECT_THAT(e.message, HasSubstr("is an Nsight Systems export with no events"));
  EXPECT_THAT(e.message, HasSubstr("no export metadata table"));
  EXPECT_THAT(e.message, HasSubstr("empty_export.sqlite"));
}

TEST(OpenErrors, NsysRepWithoutNsys) {
  TempDir dir;
  testing::WriteFile(dir / "run1.nsys-rep", "NVIDIA Tegra Profiler Report 1.\n(the rest of a report)");
  OpenOptions options = TestOptions();
  options.nsys_binary = "nsys-not-installed-here";
  Error e = OpenError(dir / "run1.nsys-rep", options);
  EXPECT_EQ(e.kind, ErrorKind::kNotFound);
  EXPECT_THAT(e.message, HasSubstr("nsys export --type sqlite -o run1.sqlite " + (dir / "run1.nsys-rep")));
  EXPECT_THAT(e.message, HasSubstr("not found on PATH"));
}

// Characters that mean something in a file: URI must reach SQLite as part of the name.
TEST(OpenErrors, PathsWithUriCharactersOpen) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string path = dir / "run #1 ?x=%41 & more.sqlite";
  std::filesystem::copy_file(testing::Fixture("mock.sqlite"), path);
  auto p = Profile::Open(path, TestOptions());
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE((*p)->Require(kAllTables).ok());
  EXPECT_EQ((*p)->kernels().size(), 2u);
  EXPECT_TRUE((*p)->Query("SELECT count(*) FROM StringIds").ok());
}

// A file named like a report (.qdrep, .nsys-rep, any case) that starts neither as a report nor as SQLite: a plain
// "not a report", never an nsys run or "is not a SQLite database".
TEST(OpenErrors, NamedLikeAReportButNotOne) {
  TempDir dir;
  OpenOptions options = TestOptions();
  options.nsys_binary = "/nonexistent/nsys";  // were it run, the error would say so
  for (const char* name : {"old.qdrep", "new.nsys-rep", "SHOUT.QDREP"}) {
    testing::WriteFile(dir / name, "not really a report");
    Error e = OpenError(dir / name, options);
    EXPECT_EQ(e.kind, ErrorKind::kBadInput) << name;
    EXPECT_THAT(e.message, HasSubstr("'" + (dir / name) +
                                     "' is not an Nsight Systems report: it does not start "
                                     "with a report's header (\"NVIDIA Tegra Profiler Report\")"));
    EXPECT_THAT(e.message, ::testing::Not(HasSubstr("/nonexistent/nsys")));
    EXPECT_THAT(e.message, ::testing::Not(HasSubstr("nsys export")));
  }
  Error empty = OpenError(dir / "gone.qdrep", options);
  EXPECT_EQ(empty.kind, ErrorKind::kNotFound);
}

TEST(OpenErrors, MissingNsysRep) {
  TempDir dir;
  Error e = OpenError(dir / "gone.nsys-rep");
  EXPECT_EQ(e.kind, ErrorKind::kNotFound);
  EXPECT_THAT(e.message, HasSubstr("No such file"));
}

}  // namespace
}  // namespace nsys::engine
