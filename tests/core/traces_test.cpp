// The core's trace API: every face's trace goes through these Workspace calls, so their contract is tested
// here once: the file holds the bytes the stats describe, streaming delivers the same bytes, the cache directory is
// resolved in one place, and a publication writes into the publisher's directory and cleans up on failure.
#include "nsys/core/traces.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "nsys/support/cache_dir.h"
#include "nsys/support/sha256.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory named after the running test, removed with the object.
class TestScratchDir {
 public:
  TestScratchDir()
      : path_(fs::temp_directory_path() / ("nsys_ai_core_traces_" + std::to_string(::getpid()) + "_" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TestScratchDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

core::WorkspaceConfig Config(const fs::path& cache) {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  config.open.cache_dir = cache.string();
  return config;
}

// Keeps what it was asked to publish; fails when told to.
class FakePublisher : public core::TracePublisher {
 public:
  explicit FakePublisher(fs::path dir) : dir_(std::move(dir)) {}
  std::string TraceDirectory() const override { return dir_.string(); }
  Expected<core::PublishedTrace> Publish(core::TraceToPublish trace) override {
    if (fail) return MakeError(ErrorKind::kInternal, "no room");
    published.push_back(trace);
    core::PublishedTrace result;
    result.url = "http://127.0.0.1:1/p/t/";
    result.port = 1;
    return result;
  }
  bool fail = false;
  std::vector<core::TraceToPublish> published;

 private:
  fs::path dir_;
};

TEST(CoreTraces, ExportWritesTheBytesItsStatsDescribeAndStreamingDeliversTheSame) {
  NSYS_REQUIRE_FIXTURES();
  TestScratchDir dir;
  core::Workspace workspace(Config(dir.path() / "cache"));
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened) << opened.error().message;
  core::TraceRequest request;
  request.profile_id = opened->id;
  request.filter.window = engine::WindowSpec{engine::WindowSpec::Clock::kRelativeSeconds, 0.0, 0.5};
  request.output = (dir.path() / "t.pftrace").string();
  auto written = workspace.ExportTrace(request);
  ASSERT_TRUE(written) << written.error().message;
  EXPECT_FALSE(written->streamed);
  EXPECT_EQ(written->path, request.output);
  const std::string bytes = ReadAll(*request.output);
  EXPECT_EQ(written->stats.bytes, static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(written->stats.sha256, support::Sha256::Hex(bytes));
  EXPECT_GT(written->stats.kernels, 0);

  std::string streamed;
  auto sink = [&](std::string_view chunk) -> Status {
    streamed.append(chunk);
    return {};
  };
  auto stream = workspace.ExportTraceStream(request, sink, 64 * 1024);
  ASSERT_TRUE(stream) << stream.error().message;
  EXPECT_TRUE(stream->streamed);
  EXPECT_FALSE(stream->path);
  EXPECT_EQ(streamed, bytes);

  // Without an output: a fresh file in <cache>/exported-traces.
  request.output.reset();
  auto cached = workspace.ExportTrace(request);
  ASSERT_TRUE(cached) << cached.error().message;
  ASSERT_TRUE(cached->path);
  EXPECT_EQ(fs::path(*cached->path).parent_path(), dir.path() / "cache" / "exported-traces");
  EXPECT_EQ(ReadAll(*cached->path), bytes);
}

TEST(CoreTraces, RefusesTheProfileAsOutputAndUnknownIds) {
  NSYS_REQUIRE_FIXTURES();
  TestScratchDir dir;
  const fs::path profile = dir.path() / "p.sqlite";
  fs::copy_file(Fixture("mock.sqlite"), profile);
  core::Workspace workspace(Config(dir.path() / "cache"));
  auto opened = workspace.Open(profile.string());
  ASSERT_TRUE(opened) << opened.error().message;
  core::TraceRequest request;
  request.profile_id = opened->id;
  request.output = profile.string();
  auto refused = workspace.ExportTrace(request);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_FALSE(workspace.CheckTraceOutput(opened->id, profile.string(), true).ok());
  EXPECT_FALSE(core::CheckTraceOutputBeforeOpen(profile.string(), profile.string(), true).ok());
  EXPECT_TRUE(workspace.CheckTraceOutput(opened->id, (dir.path() / "new.pftrace").string(), false).ok());
  request.profile_id = "p9";
  auto unknown = workspace.ExportTrace(request);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
}

TEST(CoreTraces, PublishWritesIntoThePublishersDirectoryAndCleansUpWhenRefused) {
  NSYS_REQUIRE_FIXTURES();
  TestScratchDir dir;
  core::Workspace workspace(Config(dir.path() / "cache"));
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened) << opened.error().message;
  FakePublisher publisher(dir.path() / "served");
  core::TraceRequest request;
  request.profile_id = opened->id;
  request.filter.window = engine::WindowSpec{engine::WindowSpec::Clock::kRelativeSeconds, 0.0, 0.2};
  auto publication = workspace.PublishTrace(request, publisher, "https://perfetto.example");
  ASSERT_TRUE(publication) << publication.error().message;
  ASSERT_EQ(publisher.published.size(), 1u);
  const core::TraceToPublish& sent = publisher.published[0];
  EXPECT_EQ(fs::path(sent.path).parent_path(), dir.path() / "served");
  EXPECT_EQ(support::Sha256::Hex(ReadAll(sent.path)), publication->stats.sha256);
  EXPECT_EQ(sent.file_name, "h100_2gpu_1s.pftrace");
  EXPECT_EQ(sent.title.rfind("h100_2gpu_1s.sqlite (", 0), 0u) << sent.title;
  EXPECT_EQ(sent.perfetto_origin, "https://perfetto.example");
  EXPECT_EQ(publication->published.port, 1);

  publisher.fail = true;
  auto refused = workspace.PublishTrace(request, publisher, "");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "no room");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path() / "served"), fs::directory_iterator()), 1)
      << "the refused trace's file was left behind";

  CancelToken cancelled;
  cancelled.cancel();
  publisher.fail = false;
  auto cancel = workspace.PublishTrace(request, publisher, "", cancelled);
  ASSERT_FALSE(cancel);
  EXPECT_EQ(cancel.error().kind, ErrorKind::kCancelled);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path() / "served"), fs::directory_iterator()), 1);
}

TEST(CoreTraces, TheCacheDirectoryIsResolvedInOnePlace) {
  EXPECT_EQ(support::ResolveCacheDir("/somewhere"), "/somewhere");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = xdg ? xdg : "";
  ::setenv("XDG_CACHE_HOME", "/x/cache", 1);
  EXPECT_EQ(support::ResolveCacheDir(""), "/x/cache/nsys-ai");
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  EXPECT_EQ(core::Workspace(config).CacheDir(), "/x/cache/nsys-ai");
  if (xdg)
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
}

TEST(CoreTraces, NamesAndTitlesComeFromTheSourceFile) {
  engine::ProfileInfo info;
  info.path = "/tmp/cache/abc.sqlite";
  info.source_path = "/data/run7.nsys-rep";
  EXPECT_EQ(core::TraceFileName(info), "run7.pftrace");
  engine::ResolvedWindow whole;
  EXPECT_EQ(core::TraceTitle(info, whole), "run7.nsys-rep");
  engine::ResolvedWindow part;
  part.whole = false;
  part.description = "0.100 s to 0.200 s";
  EXPECT_EQ(core::TraceTitle(info, part), "run7.nsys-rep (0.100 s to 0.200 s)");
  info.source_path.clear();
  info.path.clear();
  EXPECT_EQ(core::TraceFileName(info), "profile.pftrace");
}

}  // namespace
}  // namespace nsys::testing
