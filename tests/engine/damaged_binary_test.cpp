// Damaged rows and in-place edits against the real binary (build/nsys-ai): damaged copies of a fixture give the counts
// in `info --check`, in the skill notes and totals, and an int64-wide span exports; an in-place edit that keeps size,
// inode and mtime is not answered from the warm cache. Fixtures are copied, never touched.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::AllowNulls;
using ::nsys::testing::Exec;
using ::nsys::testing::Fixture;
using ::nsys::testing::TempDir;
namespace fs = std::filesystem;

struct BinaryRun {
  int exit_code = -1;
  std::string out;
};

// Runs build/nsys-ai with its cache in `cache_home`; stdout and stderr together.
BinaryRun RunBinary(const std::string& cache_home, const std::vector<std::string>& args) {
  std::string cmd = "XDG_CACHE_HOME='" + cache_home + "' '" + NSYS_AI_BINARY + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " 2>&1";
  BinaryRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The sum of a CSV column (by header name) over the data rows.
int64_t SumCsvColumn(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string line;
  int index = -1;
  int64_t sum = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        cells.push_back(cell), cell.clear();
      else
        cell += c;
    }
    cells.push_back(cell);
    if (index < 0) {
      for (size_t i = 0; i < cells.size(); ++i)
        if (cells[i] == column) index = static_cast<int>(i);
      continue;
    }
    if (static_cast<size_t>(index) < cells.size() && !cells[static_cast<size_t>(index)].empty() &&
        std::isdigit(static_cast<unsigned char>(cells[static_cast<size_t>(index)][0])))
      sum += std::stoll(cells[static_cast<size_t>(index)]);
  }
  return sum;
}

class DamagedBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    if (!fs::exists(NSYS_AI_BINARY)) GTEST_SKIP() << "build nsys-ai first";
    fs::copy_file(Fixture("h100_2gpu_1s.sqlite"), copy_);
    AllowNulls(copy_);
  }
  TempDir dir_;
  std::string copy_ = dir_ / "damaged.sqlite";
  std::string cache_ = dir_ / "cache";
};

TEST_F(DamagedBinary, NullStartsAreCountedInInfoAndSkillNotes) {
  const BinaryRun before =
      RunBinary(cache_, {"skill", "run", "top_kernels", copy_, "--format", "csv", "--arg", "limit=0"});
  ASSERT_EQ(before.exit_code, 0) << before.out;
  const int64_t calls_before = SumCsvColumn(before.out, "instances");
  EXPECT_EQ(calls_before, 3442);
  Exec(copy_, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid IN (100, 200, 300);");

  const BinaryRun info = RunBinary(cache_, {"info", copy_, "--check"});
  ASSERT_EQ(info.exit_code, 0) << info.out;
  EXPECT_NE(info.out.find("Damaged rows 3 skipped"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("CUPTI_ACTIVITY_KIND_KERNEL: 3 rows skipped (3 with a NULL or non-integer start or end)"),
            std::string::npos)
      << info.out;

  const BinaryRun after =
      RunBinary(cache_, {"skill", "run", "top_kernels", copy_, "--format", "csv", "--arg", "limit=0"});
  ASSERT_EQ(after.exit_code, 0) << after.out;
  EXPECT_EQ(SumCsvColumn(after.out, "instances"), calls_before - 3);
  const BinaryRun notes = RunBinary(cache_, {"skill", "run", "top_kernels", copy_});
  EXPECT_NE(notes.out.find("Damaged data in CUPTI_ACTIVITY_KIND_KERNEL: 3 rows skipped"), std::string::npos)
      << notes.out;

  // Warm (from the snapshot the runs above left): known at open, without --check.
  const BinaryRun warm = RunBinary(cache_, {"info", copy_, "--format", "json"});
  EXPECT_NE(warm.out.find("\"rowsChecked\": true"), std::string::npos) << warm.out;
  EXPECT_NE(warm.out.find("\"badTime\": 3"), std::string::npos) << warm.out;
}

TEST_F(DamagedBinary, HugeDeviceIdCostsNoMemoryByItsValue) {
  Exec(copy_,
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 2147483647 WHERE rowid = 1;"
       "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = 2147483647 WHERE rowid = 1;");
  // The peak RSS of the children this process waited for (every binary run of this suite stays far below it).
  struct rusage before {};
  getrusage(RUSAGE_CHILDREN, &before);
  for (const char* skill : {"top_kernels", "memory_transfers"}) {
    const BinaryRun r =
        RunBinary(cache_, {"skill", "run", skill, copy_, "--format", "csv", "--arg", "per_device=true"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("2147483647"), std::string::npos) << skill << " output: " << r.out;
  }
  struct rusage after {};
  getrusage(RUSAGE_CHILDREN, &after);
  EXPECT_LT(after.ru_maxrss, 150 * 1024) << "peak RSS of a child, KB";  // was 270 MB more by device id
}

TEST_F(DamagedBinary, Int64WideSpanExportsWithoutAllocatingBySpan) {
  // A kernel from just above -2^62 to just below 2^62: valid by the row rule, so it stays, and the span is
  // almost 2^63 ns.
  Exec(copy_,
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -4611686018427387903, \"end\" = 4611686018427387903 "
       "WHERE rowid = 1;");
  const std::string out = dir_ / "out.perfetto-trace";
  const BinaryRun r = RunBinary(cache_, {"export", copy_, "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_GT(fs::file_size(out), 1000u);
}

TEST_F(DamagedBinary, InPlaceEditWithRestoredMtimeIsNotAnsweredFromCache) {
  const BinaryRun first =
      RunBinary(cache_, {"skill", "run", "top_kernels", copy_, "--format", "csv", "--arg", "limit=0"});
  ASSERT_EQ(first.exit_code, 0);
  // Same size (an UPDATE of values of the same width rewrites pages in place), same inode, mtime restored.
  struct stat before {};
  ASSERT_EQ(stat(copy_.c_str(), &before), 0);
  Exec(copy_, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid IN (10, 20);");
  const timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, copy_.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(stat(copy_.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_ino, before.st_ino);
  const BinaryRun second =
      RunBinary(cache_, {"skill", "run", "top_kernels", copy_, "--format", "csv", "--arg", "limit=0"});
  ASSERT_EQ(second.exit_code, 0);
  EXPECT_EQ(SumCsvColumn(second.out, "instances"), SumCsvColumn(first.out, "instances") - 2);
}

}  // namespace
}  // namespace nsys::engine
