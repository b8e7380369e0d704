// Lazy, parallel, cancellable loading: Require() waits only for what it needs, reports progress, stops the
// loaders when cancelled, and a later Require() resumes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Exec;
using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;

double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// A bigger export for timing-sensitive tests: h100_2gpu_1s repeated 40 times (688k NVTX ranges) by the
// shared scaling tool, made once per test run.
std::string ScaledExport() {
  static TempDir dir;
  static std::string path;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string tool = std::string(NSYS_AI_SOURCE_DIR) + "/../shared/tools/scale_profile.py";
    if (!std::filesystem::exists(tool)) return;
    const std::string out = dir / "h100_x40.sqlite";
    const std::string cmd =
        "python3 '" + tool + "' '" + Fixture("h100_2gpu_1s.sqlite") + "' '" + out + "' --factor 40 > /dev/null";
    if (std::system(cmd.c_str()) == 0) path = out;
  });
  return path;
}

TEST(Loading, CancelStopsTheLoadersAndALaterRequireResumes) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = ScaledExport();
  if (path.empty()) GTEST_SKIP() << "python3 or ../shared/tools/scale_profile.py unavailable";
  // Report often: on an idle machine the whole NVTX load takes less than the default 200 ms interval.
  OpenOptions options = TestOptions();
  options.progress_interval = std::chrono::milliseconds(1);
  auto p = OpenOrDie(path, options);
  ASSERT_TRUE(p);
  CancelToken cancel;
  std::vector<double> percents;
  std::chrono::steady_clock::time_point cancelled_at;
  // Cancel as soon as the load reports rows read, that is, while parts are running on the workers.
  Status s = p->Require(Need::kNvtx, cancel, [&](double pct, const std::string& message) {
    percents.push_back(pct);
    EXPECT_THAT(message, HasSubstr("NVTX_EVENTS"));
    if (message.find(" rows") != std::string::npos && pct > 0 && !cancel.cancelled()) {
      cancelled_at = std::chrono::steady_clock::now();
      cancel.cancel();
    }
  });
  const auto returned_at = std::chrono::steady_clock::now();
  ASSERT_FALSE(s.ok()) << "the load finished before it reported rows; make the export bigger";
  EXPECT_EQ(s.error().kind, ErrorKind::kCancelled);
  EXPECT_THAT(s.error().message, HasSubstr("NVTX_EVENTS"));
  // Generous bound: CI runs tests two at a time on two cores; a loader that ignored the cancel takes seconds.
  EXPECT_LT(returned_at - cancelled_at, std::chrono::milliseconds(2000));
  EXPECT_GT(percents.back(), 0.0);
  EXPECT_LT(percents.back(), 100.0);
  // The loaders really stopped: the process burns (almost) no CPU afterwards.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // interrupted parts unwind
  const double cpu0 = ProcessCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // Two running loaders would burn ~1 CPU-second in this half second; allow for test-harness noise.
  EXPECT_LT(ProcessCpuSeconds() - cpu0, 0.25) << "loaders kept running after the cancel";
  // Resume.
  percents.clear();
  ASSERT_TRUE(p->Require(Need::kNvtx, {}, [&](double pct, const std::string&) { percents.push_back(pct); }).ok());
  EXPECT_EQ(p->nvtx().size(), 16782u * 40);
  ASSERT_FALSE(percents.empty());
  EXPECT_EQ(percents.back(), 100.0);
  EXPECT_TRUE(std::is_sorted(percents.begin(), percents.end()));
}

// A table whose rowids span far more than its rows loads in append mode: one part, rows stored in the order read.
// Cancelled while that part runs and resumed, it holds each row once, as an uninterrupted load does (the resumed
// part used to append after the first attempt's rows: those came twice and as many rows at the end were lost).
TEST(Loading, AnAppendModeTableCancelledAndResumedHoldsEachRowOnce) {
  NSYS_REQUIRE_FIXTURES();
  const std::string scaled = ScaledExport();
  if (scaled.empty()) GTEST_SKIP() << "python3 or ../shared/tools/scale_profile.py unavailable";
  TempDir dir;
  const std::string path = dir / "sparse_rowids.sqlite";
  std::filesystem::copy_file(scaled, path);
  // The last range moves to a far rowid: same rows, a span no file of this size holds.
  Exec(path,
       "UPDATE NVTX_EVENTS SET rowid = rowid + 1000000000000000 WHERE rowid = (SELECT max(rowid) FROM NVTX_EVENTS)");
  auto reference = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(reference);
  ASSERT_TRUE(reference->Require(Need::kNvtx).ok());
  ASSERT_EQ(reference->nvtx().size(), 16782u * 40);

  OpenOptions options = TestOptions();
  options.progress_interval = std::chrono::milliseconds(1);
  auto p = OpenOrDie(path, options);
  ASSERT_TRUE(p);
  CancelToken cancel;
  Status s = p->Require(Need::kNvtx, cancel, [&](double pct, const std::string& message) {
    if (message.find(" rows") != std::string::npos && pct > 0 && !cancel.cancelled()) cancel.cancel();
  });
  ASSERT_FALSE(s.ok()) << "the load finished before it reported rows; make the export bigger";
  ASSERT_EQ(s.error().kind, ErrorKind::kCancelled);
  ASSERT_TRUE(p->Require(Need::kNvtx).ok());
  const NvtxTable &got = p->nvtx(), &want = reference->nvtx();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got.start[i], want.start[i]) << i;
    ASSERT_EQ(got.end[i], want.end[i]) << i;
    ASSERT_EQ(p->NvtxFullName(static_cast<int32_t>(i)), reference->NvtxFullName(static_cast<int32_t>(i))) << i;
  }
}

// A kernel summary needs the kernel rows only: it does not wait for (or load) the runtime table and the links.
TEST(Loading, KernelRowsDoNotLoadTheRuntimeTable) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernelRows).ok());
  EXPECT_EQ(p->kernels().size(), 3442u);
  EXPECT_EQ(p->runtime().size(), 0u) << "the runtime table loaded for a kernel-rows request";
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  EXPECT_EQ(p->kernels().size(), 3442u);
  EXPECT_GT(p->runtime().size(), 0u);
  ASSERT_EQ(p->kernels().launch.size(), 3442u);
  const int64_t linked =
      std::count_if(p->kernels().launch.begin(), p->kernels().launch.end(), [](int32_t r) { return r >= 0; });
  // SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r
  //   WHERE r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24)) -> 1632 (the capture
  // starts after the launches of the others).
  EXPECT_EQ(linked, 1632);
}

TEST(Loading, CancelledBeforeStartLoadsNothing) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  CancelToken cancel;
  cancel.cancel();
  Status s = p->Require(Need::kKernels, cancel);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::kCancelled);
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  EXPECT_EQ(p->kernels().size(), 3442u);
}

// The first answer does not wait for tables it does not need: kernels are ready while NVTX still loads.
TEST(Loading, KernelsDoNotWaitForNvtx) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = ScaledExport();
  if (path.empty()) GTEST_SKIP() << "python3 or ../shared/tools/scale_profile.py unavailable";
  OpenOptions options = TestOptions();
  options.load_all_in_background = true;
  auto p = OpenOrDie(path, options);
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kKernels).ok());
  EXPECT_EQ(p->kernels().size(), 3442u * 40);
  // NVTX (688k rows) is loaded after kernels in background order; asking for it now still works.
  ASSERT_TRUE(p->Require(Need::kAttribution).ok());
  EXPECT_EQ(p->coverage().kernels, 3442 * 40);
  EXPECT_EQ(p->coverage().with_nvtx, 1632 * 40);
}

TEST(Loading, ConcurrentRequiresFromManyThreads) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("mfu_2gpu_after.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  const Need needs[] = {Need::kKernels, Need::kNvtx,    Need::kAttribution, Need::kMemcpy | Need::kSync,
                        kAllTables,     Need::kOverhead};
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (Need n : needs)
    threads.emplace_back([&, n] {
      if (!p->Require(n).ok()) ++failures;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(p->kernels().size(), 3587u);
  EXPECT_EQ(p->nvtx().size(), 17113u);
  EXPECT_EQ(p->memcpys().size(), 904u);
}

TEST(Loading, WorkerThreadCountsGiveTheSameTables) {
  NSYS_REQUIRE_FIXTURES();
  for (int threads : {1, 3}) {
    OpenOptions options = TestOptions();
    options.worker_threads = threads;
    auto p = OpenOrDie(Fixture("mfu_2gpu_before.sqlite"), options);
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(kAllTables).ok());
    EXPECT_EQ(p->kernels().size(), 4010u);
    EXPECT_EQ(p->coverage().with_launch, 3986);
  }
}

TEST(Loading, AbsentTablesLoadEmpty) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("titanrtx_tensorrt_nvtx.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(kAllTables).ok());
  EXPECT_EQ(p->kernels().size(), 0u);
  EXPECT_EQ(p->runtime().size(), 0u);
  EXPECT_EQ(p->coverage().kernels, 0);
  EXPECT_EQ(p->nvtx().size(), 21996u);
}

}  // namespace
}  // namespace nsys::engine
