// trace_output.h: which outputs a trace may replace, the file writer's rename, and the bounded trace cache.
#include "nsys/trace/trace_output.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/engine/profile.h"
#include "nsys/trace/trace_writer.h"

namespace nsys::trace {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class TraceOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nsys-ai-trace-output-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // A real trace of mock.sqlite, written at `path` (no checks: a fixture for the checks).
  std::string RealTrace() {
    engine::OpenOptions options;
    options.use_cache = false;
    auto profile = engine::Profile::Open(nsys::testing::Fixture("mock.sqlite"), options);
    EXPECT_TRUE(profile.ok());
    std::string bytes;
    auto stats = ExportTrace(**profile, {}, [&](std::string_view chunk) {
      bytes.append(chunk);
      return Status();
    });
    EXPECT_TRUE(stats.ok());
    return bytes;
  }
  fs::path dir_;
};

TEST_F(TraceOutput, LooksLikeTraceOnlyForOurTraces) {
  NSYS_REQUIRE_FIXTURES();
  const std::string trace = RealTrace();
  EXPECT_TRUE(LooksLikeTrace(trace));
  EXPECT_TRUE(LooksLikeTrace(std::string_view(trace).substr(0, 4096)));  // a head is enough
  EXPECT_FALSE(LooksLikeTrace(ReadAll(nsys::testing::Fixture("mock.sqlite")).substr(0, 4096)));
  EXPECT_FALSE(LooksLikeTrace(ReadAll(nsys::testing::Fixture("a100_2proc_mpi.nsys-rep")).substr(0, 4096)));
  EXPECT_FALSE(LooksLikeTrace(""));
  EXPECT_FALSE(LooksLikeTrace("\x0a\x05hello"));                     // a record, but not a TracePacket we write
  EXPECT_FALSE(LooksLikeTrace(std::string("\x0a\x7f\x50\x01", 4)));  // truncated first packet
  EXPECT_FALSE(LooksLikeTrace("just some notes\n"));
}

TEST_F(TraceOutput, RefusesProfilesByIdentityWhateverThePath) {
  const fs::path profile = dir_ / "p.sqlite";
  Write(profile, std::string("SQLite format 3\0", 16) + "rest");
  OutputPolicy policy;
  policy.profiles.push_back(*FileIdOf(profile.string()));
  policy.force = true;  // never enough for a profile
  fs::create_symlink(profile, dir_ / "link");
  fs::create_symlink(dir_ / "link", dir_ / "link2");
  fs::create_hard_link(profile, dir_ / "hard");
  for (const fs::path& p : {profile, dir_ / "link", dir_ / "link2", dir_ / "hard", dir_ / "." / "p.sqlite"}) {
    auto checked = CheckTraceOutput(p.string(), policy);
    ASSERT_FALSE(checked.ok()) << p;
    EXPECT_EQ(checked.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_THAT(checked.error().message, HasSubstr("is a profile opened in this session")) << p;
  }
  auto linked = CheckTraceOutput((dir_ / "link").string(), policy);
  EXPECT_THAT(linked.error().message, HasSubstr(profile.string()));  // names where the link leads
}

TEST_F(TraceOutput, RefusesWhatIsNotARegularFile) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  fs::create_symlink(dir_ / "nowhere", dir_ / "dangling");
  OutputPolicy force;
  force.force = true;
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/null", "a character device"},
      {(dir_ / "fifo").string(), "a FIFO"},
      {dir_.string(), "a directory"},
      {(dir_ / "dangling").string(), "symlink to a file that does not"},
      {(dir_ / "no" / "x").string(), "does not exist"},
  };
  for (const auto& [path, why] : cases) {
    auto checked = CheckTraceOutput(path, force);
    ASSERT_FALSE(checked.ok()) << path;
    EXPECT_THAT(checked.error().message, HasSubstr(why)) << path;
  }
}

TEST_F(TraceOutput, ReplacesTracesAndEmptyFilesAndOthersOnlyWithForce) {
  NSYS_REQUIRE_FIXTURES();
  Write(dir_ / "t.pftrace", RealTrace());
  Write(dir_ / "empty", "");
  Write(dir_ / "notes", "notes");
  Write(dir_ / "db", std::string("SQLite format 3\0", 16));
  Write(dir_ / "r.nsys-rep", "NVIDIA Tegra Profiler Report 1.\n");
  const OutputPolicy plain;
  OutputPolicy force;
  force.force = true;
  EXPECT_TRUE(CheckTraceOutput((dir_ / "t.pftrace").string(), plain).ok());
  EXPECT_TRUE(CheckTraceOutput((dir_ / "empty").string(), plain).ok());
  EXPECT_TRUE(CheckTraceOutput((dir_ / "new.pftrace").string(), plain).ok());
  auto notes = CheckTraceOutput((dir_ / "notes").string(), plain);
  ASSERT_FALSE(notes.ok());
  EXPECT_THAT(notes.error().message, HasSubstr("exists and is not a Perfetto trace"));
  EXPECT_TRUE(CheckTraceOutput((dir_ / "notes").string(), force).ok());
  EXPECT_FALSE(CheckTraceOutput((dir_ / "db").string(), force).ok());
  EXPECT_FALSE(CheckTraceOutput((dir_ / "r.nsys-rep").string(), force).ok());
  // A link to a trace resolves to the trace: the rename goes there and the link stays a link.
  fs::create_symlink(dir_ / "t.pftrace", dir_ / "l");
  auto via_link = CheckTraceOutput((dir_ / "l").string(), plain);
  ASSERT_TRUE(via_link.ok());
  EXPECT_EQ(via_link->resolved, fs::canonical(dir_ / "t.pftrace").string());
}

TEST_F(TraceOutput, ExportToFileKeepsLinksAndRechecksBeforeTheRename) {
  NSYS_REQUIRE_FIXTURES();
  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(nsys::testing::Fixture("mock.sqlite"), options);
  ASSERT_TRUE(profile.ok());
  Write(dir_ / "t.pftrace", RealTrace());
  fs::create_symlink(dir_ / "t.pftrace", dir_ / "l");
  auto stats = ExportTraceToFile(**profile, {}, (dir_ / "l").string());
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_TRUE(fs::is_symlink(dir_ / "l"));
  EXPECT_EQ(static_cast<int64_t>(fs::file_size(dir_ / "t.pftrace")), stats->bytes);
  // The profile being exported is protected without being named in the policy.
  fs::create_symlink(nsys::testing::Fixture("mock.sqlite"), dir_ / "to-profile");
  auto refused = ExportTraceToFile(**profile, {}, (dir_ / "to-profile").string());
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("is a profile"));

  // Something appears at the target while the trace is written: Commit() refuses and leaves it alone.
  auto target = CheckTraceOutput((dir_ / "late.pftrace").string(), {});
  ASSERT_TRUE(target.ok());
  std::string temp;
  {
    auto writer = TraceFileWriter::Create(*target, {});
    ASSERT_TRUE(writer.ok());
    temp = writer->temp_path();
    EXPECT_EQ(fs::path(temp).parent_path(), fs::canonical(dir_));  // beside the target
    ASSERT_TRUE(writer->Write("\x0a\x02\x50\x01").ok());
    Write(dir_ / "late.pftrace", "someone else's file");
    EXPECT_FALSE(writer->Commit().ok());
    EXPECT_EQ(ReadAll(dir_ / "late.pftrace"), "someone else's file");
  }
  EXPECT_FALSE(fs::exists(temp)) << "the writer's temporary file outlived it";
}

TEST_F(TraceOutput, TraceCacheKeepsTheNewestWithinItsLimits) {
  const fs::path dir = dir_ / "cache";
  TraceCacheLimits limits;
  limits.max_files = 3;
  limits.max_bytes = 250;
  std::vector<std::string> paths;
  {
    TraceCache cache(dir.string(), limits);
    for (int i = 0; i < 6; ++i) {
      auto path = cache.NewPath("p");
      ASSERT_TRUE(path.ok());
      Write(*path, std::string(100, 'x'));
      paths.push_back(*path);
      cache.Added(*path);
      EXPECT_TRUE(fs::exists(*path));  // the newest always stays
    }
    // 3 files allowed, but 250 bytes: the two newest.
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
    EXPECT_EQ(files, 2u);
    EXPECT_TRUE(fs::exists(paths[5]));
    EXPECT_TRUE(fs::exists(paths[4]));
    EXPECT_FALSE(fs::exists(paths[3]));
    EXPECT_EQ(fs::status(dir).permissions() & fs::perms::all, fs::perms::owner_all);

    // A trace left by a process that no longer runs is swept on the next write; unrelated files stay.
    Write(dir / "old.999999999.1.pftrace", "left behind");
    Write(dir / "README", "not ours");
    auto next = cache.NewPath("p");
    Write(*next, "y");
    cache.Added(*next);
    EXPECT_FALSE(fs::exists(dir / "old.999999999.1.pftrace"));
    EXPECT_TRUE(fs::exists(dir / "README"));
  }
  for (const auto& p : paths) EXPECT_FALSE(fs::exists(p)) << "removed when the cache is destroyed";
}

TEST_F(TraceOutput, TraceCacheDropsTracesOlderThanItsAge) {
  TraceCacheLimits limits;
  limits.max_age = std::chrono::seconds(60);
  TraceCache cache((dir_ / "c").string(), limits);
  auto first = cache.NewPath("p");
  Write(*first, "a");
  cache.Added(*first);
  fs::last_write_time(*first, fs::file_time_type::clock::now() - std::chrono::hours(2));
  auto second = cache.NewPath("p");
  Write(*second, "b");
  cache.Added(*second);
  EXPECT_FALSE(fs::exists(*first));
  EXPECT_TRUE(fs::exists(*second));
}

// Traces were once written 0644, readable by every user. A new trace is 0600 (it describes the user's runs); one that
// replaces a file keeps that file's mode, as an editor saving over it would. The trace cache's directory is this
// user's, 0700.
TEST_F(TraceOutput, ANewTraceIsPrivateAndAReplacedFileKeepsItsMode) {
  auto mode_of = [](const fs::path& p) { return fs::status(p).permissions() & fs::perms::mask; };
  const OutputPolicy plain;
  auto write_trace = [&](const fs::path& path) {
    auto target = CheckTraceOutput(path.string(), plain);
    ASSERT_TRUE(target.ok()) << target.error().message;
    auto writer = TraceFileWriter::Create(*target, plain);
    ASSERT_TRUE(writer.ok()) << writer.error().message;
    ASSERT_TRUE(writer->Write("trace bytes").ok());
    ASSERT_TRUE(writer->Commit().ok());
  };
  const mode_t old_umask = ::umask(0);
  write_trace(dir_ / "new.pftrace");
  Write(dir_ / "shared.pftrace", "");  // an empty file may be replaced
  fs::permissions(dir_ / "shared.pftrace", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_trace(dir_ / "shared.pftrace");
  ::umask(old_umask);
  EXPECT_EQ(mode_of(dir_ / "new.pftrace"), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(mode_of(dir_ / "shared.pftrace"), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(ReadAll(dir_ / "shared.pftrace"), "trace bytes");

  fs::create_directories(dir_ / "cache" / "exported-traces");
  fs::permissions(dir_ / "cache" / "exported-traces", fs::perms::all);
  TraceCache cache((dir_ / "cache" / "exported-traces").string(), TraceCacheLimits{});
  ASSERT_TRUE(cache.NewPath("p").ok());
  EXPECT_EQ(mode_of(dir_ / "cache" / "exported-traces"), fs::perms::owner_all);
  EXPECT_EQ(mode_of(dir_ / "cache"), fs::perms::owner_all);
}

}  // namespace
}  // namespace nsys::trace
