// Opens of one unchanged file share its load (profile, result memo, warm-up); the open ids and distinct loads are
// bounded; opens racing on one file load it once, and a cancelled first open does not break the ones waiting for it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iterator>
#include <latch>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

constexpr int64_t kH100Kernels = 3442;
constexpr int64_t kH100KernelNs = 44829522;  // SUM(end - start) over CUPTI_ACTIVITY_KIND_KERNEL

// Hermetic(), and no table loaded unless a test asks for it (an open does not start loading every event table).
core::WorkspaceConfig HermeticNoBackgroundLoad() {
  core::WorkspaceConfig config = Hermetic();
  config.open.load_all_in_background = false;
  return config;
}

// This process's scratch directory (copies of fixtures to edit, a cache), removed with the object.
class SharingScratchDir {
 public:
  SharingScratchDir() : path_(fs::temp_directory_path() / ("nsys_ai_sharing_test_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~SharingScratchDir() { fs::remove_all(path_); }
  std::string Copy(const std::string& from, const std::string& name) const {
    fs::copy_file(from, path_ / name, fs::copy_options::overwrite_existing);
    return (path_ / name).string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

int64_t KernelNs(engine::Profile& profile) {
  EXPECT_TRUE(profile.Require(engine::Need::kKernelRows).ok());
  const auto& k = profile.kernels();
  int64_t sum = 0;
  for (size_t i = 0; i < k.size(); ++i) sum += k.end[i] - k.start[i];
  return sum;
}

// Adds `ns` to the end of the first kernel, in place (the file keeps its size and inode).
void StretchFirstKernel(const std::string& path, int64_t ns) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  const std::string sql = "PRAGMA journal_mode=MEMORY; UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + " +
                          std::to_string(ns) + " WHERE rowid = (SELECT MIN(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)";
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  EXPECT_EQ(sqlite3_changes(db), 1);
  sqlite3_close(db);
}

size_t ThreadCount() {
  return static_cast<size_t>(std::distance(fs::directory_iterator("/proc/self/task"), fs::directory_iterator()));
}

TEST(WorkspaceSharing, OpensOfOneFileShareTheProfileAndMemoUnderDistinctIds) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(HermeticNoBackgroundLoad());
  auto a = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  auto b = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(a->id, "p1");
  EXPECT_EQ(b->id, "p2");
  EXPECT_EQ(LoadedProfile(workspace, a->id).get(), LoadedProfile(workspace, b->id).get());
  EXPECT_EQ(LoadedProfile(workspace, "p2").get(), LoadedProfile(workspace, a->id).get());
  ASSERT_EQ(workspace.List().size(), 2u);

  // One memo: p2 is answered from what p1 computed.
  const skills::Args args{{"limit", Value(int64_t{3})}};
  auto first = workspace.RunSkill("p1", "top_kernels", args);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = workspace.RunSkill("p2", "top_kernels", args);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->rows, first->rows);
  EXPECT_EQ(MemoStats(workspace, "p2")->hits, 1);
  EXPECT_EQ(MemoStats(workspace, "p1")->misses, 1);
  EXPECT_EQ(MemoStats(workspace, "p1")->results, 1u);

  // Closing one id keeps the other working; closing the last releases the profile.
  std::weak_ptr<engine::Profile> weak = LoadedProfile(workspace, a->id);
  ASSERT_TRUE(workspace.Close("p1").ok());
  EXPECT_FALSE(workspace.Describe("p1").ok());
  auto again = workspace.RunSkill("p2", "top_kernels", {});
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(SumColumn(*again, "instances"), kH100Kernels);
  EXPECT_FALSE(weak.expired());
  ASSERT_TRUE(workspace.Close("p2").ok());
  EXPECT_TRUE(weak.expired());

  // The next open loads afresh, with an empty memo.
  auto fresh = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(fresh->id, "p3");
  EXPECT_EQ(MemoStats(workspace, "p3")->results, 0u);
}

TEST(WorkspaceSharing, SharedOpensStartNoThreadsAndKeepOneWarmUp) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config = HermeticNoBackgroundLoad();
  config.open.load_all_in_background = true;
  config.warm_skills = core::DefaultWarmSkills();
  core::Workspace workspace(config);
  auto first = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(first.ok()) << first.error().message;
  WaitForWarmUp(workspace, first->id);
  const size_t threads = ThreadCount();
  for (int i = 0; i < 30; ++i) {
    auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    EXPECT_EQ(LoadedProfile(workspace, opened->id).get(), LoadedProfile(workspace, first->id).get());
  }
  EXPECT_LE(ThreadCount(), threads);
  // The warm-up's results are every id's: closing the id that started it keeps them.
  ASSERT_TRUE(workspace.Close(first->id).ok());
  EXPECT_EQ(MemoStats(workspace, "p2")->results, config.warm_skills.size());
  ASSERT_TRUE(workspace.RunSkill("p31", "nvtx_summary", {}).ok());
  EXPECT_EQ(MemoStats(workspace, "p31")->hits, 1);
}

TEST(WorkspaceSharing, ChangedFilesAreNotShared) {
  NSYS_REQUIRE_FIXTURES();
  SharingScratchDir dir;
  const std::string path = dir.Copy(Fixture("h100_2gpu_1s.sqlite"), "profile.sqlite");
  core::Workspace workspace(HermeticNoBackgroundLoad());
  auto original = workspace.Open(path);
  ASSERT_TRUE(original.ok()) << original.error().message;
  EXPECT_EQ(KernelNs(*LoadedProfile(workspace, original->id)), kH100KernelNs);

  // A copy with one row changed, renamed over the opened path.
  const std::string edited = dir.Copy(Fixture("h100_2gpu_1s.sqlite"), "edited.sqlite");
  StretchFirstKernel(edited, 1000);
  fs::rename(edited, path);
  auto replaced = workspace.Open(path);
  ASSERT_TRUE(replaced.ok()) << replaced.error().message;
  EXPECT_NE(LoadedProfile(workspace, replaced->id).get(), LoadedProfile(workspace, original->id).get());
  EXPECT_EQ(KernelNs(*LoadedProfile(workspace, replaced->id)), kH100KernelNs + 1000);

  // Edited in place with its size, inode and mtime kept (`rsync --inplace -t`): only ctime tells.
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  StretchFirstKernel(path, 2000);
  const timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_ino, before.st_ino);
  ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  auto in_place = workspace.Open(path);
  ASSERT_TRUE(in_place.ok()) << in_place.error().message;
  EXPECT_NE(LoadedProfile(workspace, in_place->id).get(), LoadedProfile(workspace, replaced->id).get());
  EXPECT_EQ(KernelNs(*LoadedProfile(workspace, in_place->id)), kH100KernelNs + 3000);

  // Unchanged since: shared.
  auto same = workspace.Open(path);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(LoadedProfile(workspace, same->id).get(), LoadedProfile(workspace, in_place->id).get());
}

TEST(WorkspaceSharing, OpensWithDifferentLoadingOptionsAreNotShared) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(HermeticNoBackgroundLoad());
  engine::OpenOptions cached = workspace.config().open;
  cached.use_cache = true;
  SharingScratchDir dir;
  cached.cache_dir = dir.path();
  auto plain = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  auto with_cache = workspace.Open(Fixture("h100_2gpu_1s.sqlite"), cached);
  ASSERT_TRUE(plain.ok() && with_cache.ok());
  EXPECT_NE(LoadedProfile(workspace, plain->id).get(), LoadedProfile(workspace, with_cache->id).get());
  EXPECT_EQ(LoadedProfile(workspace, workspace.Open(Fixture("h100_2gpu_1s.sqlite"), cached)->id).get(),
            LoadedProfile(workspace, with_cache->id).get());
}

TEST(WorkspaceSharing, OpenIdsAndDistinctLoadsAreBounded) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config = HermeticNoBackgroundLoad();
  config.max_loaded_profiles = 2;
  config.max_open_ids = 4;
  core::Workspace workspace(config);
  ASSERT_TRUE(workspace.Open(Fixture("h100_2gpu_1s.sqlite")).ok());  // p1
  ASSERT_TRUE(workspace.Open(Fixture("mock.sqlite")).ok());          // p2
  auto third = workspace.Open(Fixture("v100_julia.sqlite"));
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(third.error().message,
            "too many open profiles (limit 2 distinct files loaded at once): close one with nsys/closeProfile");
  // Sharing a loaded file costs only an id.
  ASSERT_TRUE(workspace.Open(Fixture("h100_2gpu_1s.sqlite")).ok());  // p3
  ASSERT_TRUE(workspace.Open(Fixture("mock.sqlite")).ok());          // p4
  auto fifth = workspace.Open(Fixture("mock.sqlite"));
  ASSERT_FALSE(fifth.ok());
  EXPECT_EQ(fifth.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(fifth.error().message, "too many open profiles (limit 4 open ids): close one with nsys/closeProfile");
  // A file stays loaded while any id refers to it.
  ASSERT_TRUE(workspace.Close("p1").ok());
  EXPECT_EQ(workspace.Open(Fixture("v100_julia.sqlite")).error().kind, ErrorKind::kLimitExceeded);
  ASSERT_TRUE(workspace.Close("p3").ok());
  auto julia = workspace.Open(Fixture("v100_julia.sqlite"));
  ASSERT_TRUE(julia.ok()) << julia.error().message;
  EXPECT_EQ(julia->id, "p5");
  // Failed opens give their reservation back: many of them leave room for the last id.
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(workspace.Open(Fixture("README.md")).error().kind, ErrorKind::kLimitExceeded);
  }
  ASSERT_TRUE(workspace.Close("p5").ok());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(workspace.Open(Fixture("README.md")).error().kind, ErrorKind::kBadInput);
  CancelToken cancelled;
  cancelled.cancel();
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(workspace.Open(Fixture("v100_julia.sqlite"), cancelled).error().kind, ErrorKind::kCancelled);
  }
  EXPECT_TRUE(workspace.Open(Fixture("v100_julia.sqlite")).ok());
  EXPECT_TRUE(workspace.Open(Fixture("v100_julia.sqlite")).ok());
  EXPECT_EQ(workspace.List().size(), 4u);
}

TEST(WorkspaceSharing, RacingOpensOfOneFileLoadItOnce) {
  NSYS_REQUIRE_FIXTURES();
  std::atomic<int> loads{0};
  core::WorkspaceConfig config = HermeticNoBackgroundLoad();
  config.opener = [&loads](const std::string& path, const engine::OpenOptions& options, const ProgressSink& progress,
                           const CancelToken& cancel) {
    ++loads;
    std::this_thread::sleep_for(milliseconds(100));  // every racer arrives while the load is under way
    return engine::Profile::Open(path, options, progress, cancel);
  };
  core::Workspace workspace(config);
  constexpr int kRacers = 8;
  std::latch start(kRacers);
  std::vector<Expected<core::OpenedProfile>> results(kRacers, Error{});
  std::vector<std::thread> threads;
  for (int i = 0; i < kRacers; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      results[i] = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(loads.load(), 1);
  std::set<std::string> ids;
  for (const auto& result : results) {
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(LoadedProfile(workspace, result->id).get(), LoadedProfile(workspace, results[0]->id).get());
    ids.insert(result->id);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kRacers));
}

// Holds the first load until the test lets it go; later loads run the engine's open.
struct HeldOpener {
  std::mutex mu;
  std::condition_variable cv;
  int loads = 0;
  bool waiter_waiting = false;  // the second open reported that it waits for the first's load

  void NoteWaiting() {
    std::lock_guard lock(mu);
    waiter_waiting = true;
    cv.notify_all();
  }
  void AwaitLoads(int n) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return loads >= n; });
  }
  void AwaitWaiter() {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return waiter_waiting; });
  }
};

ProgressSink NotifyWhenWaiting(HeldOpener& held) {
  return [&held](double, const std::string& message) {
    if (message.find("waiting for another open") != std::string::npos) held.NoteWaiting();
  };
}

TEST(WorkspaceSharing, AnOpenWaitingForACancelledLoadLoadsTheFileItself) {
  NSYS_REQUIRE_FIXTURES();
  HeldOpener held;
  core::WorkspaceConfig config = HermeticNoBackgroundLoad();
  config.opener = [&held](const std::string& path, const engine::OpenOptions& options, const ProgressSink& progress,
                          const CancelToken& cancel) -> Expected<std::shared_ptr<engine::Profile>> {
    int n;
    {
      std::lock_guard lock(held.mu);
      n = ++held.loads;
      held.cv.notify_all();
    }
    if (n == 1) {  // the first load runs until it is cancelled, as a long one would
      while (!cancel.cancelled()) std::this_thread::sleep_for(milliseconds(5));
      return MakeError(ErrorKind::kCancelled, "cancelled");
    }
    return engine::Profile::Open(path, options, progress, cancel);
  };
  core::Workspace workspace(config);
  CancelToken first_cancel;
  Expected<core::OpenedProfile> first = Error{};
  Expected<core::OpenedProfile> second = Error{};
  std::thread a([&] { first = workspace.Open(Fixture("h100_2gpu_1s.sqlite"), first_cancel); });
  held.AwaitLoads(1);
  std::thread b(
      [&] { second = workspace.Open(Fixture("h100_2gpu_1s.sqlite"), CancelToken{}, NotifyWhenWaiting(held)); });
  held.AwaitWaiter();
  first_cancel.cancel();
  a.join();
  b.join();
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().kind, ErrorKind::kCancelled);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), kH100Kernels);
  EXPECT_EQ(held.loads, 2);
  ASSERT_EQ(workspace.List().size(), 1u);
  EXPECT_EQ(workspace.List()[0].id, second->id);
}

TEST(WorkspaceSharing, AnOpenCancelledAfterItsLoadStillSharesTheLoadWithTheWaiters) {
  NSYS_REQUIRE_FIXTURES();
  HeldOpener held;
  CancelToken first_cancel;
  core::WorkspaceConfig config = HermeticNoBackgroundLoad();
  config.opener = [&](const std::string& path, const engine::OpenOptions& options, const ProgressSink& progress,
                      const CancelToken& cancel) {
    {
      std::lock_guard lock(held.mu);
      ++held.loads;
      held.cv.notify_all();
    }
    auto opened = engine::Profile::Open(path, options, progress, cancel);
    held.AwaitWaiter();
    first_cancel.cancel();  // the client gives up just as the load completes
    return opened;
  };
  core::Workspace workspace(config);
  Expected<core::OpenedProfile> first = Error{};
  Expected<core::OpenedProfile> second = Error{};
  std::thread a([&] { first = workspace.Open(Fixture("h100_2gpu_1s.sqlite"), first_cancel); });
  std::thread b([&] {
    held.AwaitLoads(1);
    second = workspace.Open(Fixture("h100_2gpu_1s.sqlite"), CancelToken{}, NotifyWhenWaiting(held));
  });
  a.join();
  b.join();
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().kind, ErrorKind::kCancelled);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(held.loads, 1);
  EXPECT_EQ(second->info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), kH100Kernels);
  EXPECT_EQ(workspace.List().size(), 1u);
}

TEST(WorkspaceSharing, AWaitingOpenCanBeCancelledWithoutDisturbingTheLoad) {
  NSYS_REQUIRE_FIXTURES();
  HeldOpener held;
  std::atomic<bool> release{false};
  core::WorkspaceConfig config = HermeticNoBackgroundLoad();
  config.opener = [&](const std::string& path, const engine::OpenOptions& options, const ProgressSink& progress,
                      const CancelToken& cancel) {
    {
      std::lock_guard lock(held.mu);
      ++held.loads;
      held.cv.notify_all();
    }
    while (!release) std::this_thread::sleep_for(milliseconds(5));
    return engine::Profile::Open(path, options, progress, cancel);
  };
  core::Workspace workspace(config);
  Expected<core::OpenedProfile> first = Error{};
  std::thread a([&] { first = workspace.Open(Fixture("h100_2gpu_1s.sqlite")); });
  held.AwaitLoads(1);
  CancelToken waiter_cancel;
  Expected<core::OpenedProfile> waiter = Error{};
  std::thread b(
      [&] { waiter = workspace.Open(Fixture("h100_2gpu_1s.sqlite"), waiter_cancel, NotifyWhenWaiting(held)); });
  held.AwaitWaiter();
  const auto t0 = std::chrono::steady_clock::now();
  waiter_cancel.cancel();
  b.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  ASSERT_FALSE(waiter.ok());
  EXPECT_EQ(waiter.error().kind, ErrorKind::kCancelled);
  release = true;
  a.join();
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(held.loads, 1);
  ASSERT_EQ(workspace.List().size(), 1u);
  ASSERT_TRUE(workspace.Close(first->id).ok());
  EXPECT_TRUE(workspace.List().empty());
}

}  // namespace
}  // namespace nsys::testing
