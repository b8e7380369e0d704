// Profiles built to starve the server (issue 38), derived at test time from the shipped h100_2gpu_1s.sqlite
// (tests/derived_export.h).
//
// Item 3: a profile of 400,000 nested NVTX ranges around every launch of one thread. Each kernel used to cost
// the whole depth in (range, kernel) pairs and steps between two looks at the cancel token (every 65,536 kernels), so
// nvtx_kernel_map ignored its budget, $/cancelRequest and closeProfile for minutes and grew by gigabytes. Now a launch
// counts in its 256 innermost ranges (the skill says how many launches that was), and only those are walked. The
// same thread also has 400,000 short start/end ranges before its first call and one around all of them: those cost a
// scan per launch that no cap shortens, and there the token is read by work done.
//
// Item 5: 250,000 short kernels of two alternating names after the real ones made one iteration per pair, each a row
// (2M kernels: 2 GB and 15 s). Now at most kMaxIterations (100,000) are listed, and the notes say how many there were.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <variant>

#include "derived_export.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/nvtx_range_breakdown.h"
#include "nsys/skills/registry.h"
#include "nsys/support/cancel.h"
#include "sanitizers.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using DeepClock = std::chrono::steady_clock;

// The thread that launches the most kernels in h100_2gpu_1s (816 of them, by SQL below).
constexpr const char* kThread = "281476855758960";
// Under the sanitizers each step costs tens of times more: a tenth of the ranges still passes the 256-range cap by far
// and keeps the scans long enough to cancel a quarter of the way.
#if NSYS_AI_TEST_ASAN
constexpr int kDepth = 40000;
#else
constexpr int kDepth = 400000;
#endif

// Short start/end ranges before the thread's first call (none holds a call), and one long range around everything:
// it makes the longest start/end range span the profile, so every launch's scan runs back over all the short ones.
std::string ScannedRanges() {
  return fmt::format(
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) "
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {0}) "
      "SELECT (SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME) - 3 * {0} - 10 + 2 * i, "
      "(SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME) - 3 * {0} - 9 + 2 * i, 60, "
      "'short', {1} FROM n UNION ALL "
      "SELECT (SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME) - 5 * {0} - 10, "
      "(SELECT MAX(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME) + 10, 60, 'long', {1}",
      kDepth - 1, kThread);
}

std::string DeepRanges() {
  return fmt::format(
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) "
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {0} - 1) "
      "SELECT (SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME) - {0} - 1 + i, "
      "(SELECT MAX(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME) + {0} + 1 - i, 59, 'deep', {1} FROM n",
      kDepth, kThread);
}

double Seconds(DeepClock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// A budget past the 5 s default: under the sanitizers these runs take several times as long, and the budget's stop
// is not what is tested here (the cancel test below fires the token itself).
skills::RunOptions Patient() {
  skills::RunOptions options;
  options.user_skill_timeout = std::chrono::minutes(2);
  return options;
}

TEST(HostileProfiles, DeepNestingCountsInTheInnermostRangesAndReadsTheTokenByWork) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  DerivedExport copy("h100_2gpu_1s.sqlite", {DeepRanges(), ScannedRanges()});
  ASSERT_TRUE(copy.ok()) << copy.error();
  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(copy.path(), options);
  ASSERT_TRUE(profile) << profile.error().message;

  // SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId =
  // k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) WHERE r.globalTid = 281476855758960  -> 816
  const auto started = DeepClock::now();
  auto map =
      skills::RunByName(Builtins(), "nvtx_kernel_map", **profile, {{"limit", Value(int64_t{0})}}, {}, {}, Patient());
  const double whole = Seconds(DeepClock::now() - started);
  ASSERT_TRUE(map) << map.error().message;
  bool said = false;
  for (const std::string& note : map->notes) {
    said |= note ==
            "816 kernels were launched inside more than 256 nested NVTX ranges: each counts in its 256 "
            "innermost ranges only.";
  }
  EXPECT_TRUE(said) << "no note of the launches cut to their innermost ranges";
  int64_t in_deep = 0;
  for (size_t r = 0; r < map->rows.size(); ++r) {
    const Value& range = Cell(*map, r, "nvtx_range");
    if (std::holds_alternative<std::string>(range) && std::get<std::string>(range) == "deep") {
      in_deep += IntCell(*map, r, "kern_inst");
    }
  }
  EXPECT_EQ(in_deep, 816) << "each launch of the thread counts once in the 'deep' group of its kernel";

  auto breakdown = skills::ComputeNvtxRangeBreakdown(**profile, CancelToken{});
  ASSERT_TRUE(breakdown) << breakdown.error().message;
  EXPECT_EQ(breakdown->deep_launches, 816);
  for (const auto& stack : breakdown->stacks) EXPECT_LE(stack.ranges.size(), 256u);

  // The same run again (the profile's derived data are kept), cancelled a quarter of the way through the scans: it
  // stops at once. Before, it looked at the token once, before the first kernel, and ran to the end.
  CancelToken cancel;
  const auto quarter = std::chrono::duration_cast<DeepClock::duration>(std::chrono::duration<double>(whole / 4));
  std::thread canceller([cancel, quarter] {
    std::this_thread::sleep_for(quarter);
    cancel.cancel();
  });
  const auto again = DeepClock::now();
  auto cancelled = skills::RunByName(Builtins(), "nvtx_kernel_map", **profile, {{"limit", Value(int64_t{0})}}, cancel,
                                     {}, Patient());
  const double took = Seconds(DeepClock::now() - again);
  canceller.join();
  ASSERT_FALSE(cancelled) << "ran to the end in " << took << " s (the whole run took " << whole << " s)";
  EXPECT_EQ(cancelled.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(took, whole / 4 + 0.25 + whole / 10) << "the whole run took " << whole << " s";
}

TEST(HostileProfiles, IterationsPastTheCapAreCountedNotListed) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  // 250,000 copies of the first kernel, 1 us apart after the last one, named alternately vectorized_gather_kernel
  // (string 331030) and string 1 of the export.
  DerivedExport copy(
      "h100_2gpu_1s.sqlite",
      {"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT k.* FROM CUPTI_ACTIVITY_KIND_KERNEL k, (WITH RECURSIVE "
       "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250000) SELECT i FROM n) WHERE k.rowid = 1",
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 156400000000 + 1000 * rowid, end = 156400000000 + 1000 * rowid "
       "+ 500, shortName = CASE rowid % 2 WHEN 0 THEN 331030 ELSE 1 END, demangledName = CASE rowid % 2 WHEN 0 THEN "
       "331029 ELSE 1 END WHERE rowid > 3442"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(copy.path(), options);
  ASSERT_TRUE(profile) << profile.error().message;
  auto t = skills::RunByName(Builtins(), "iterations", **profile, {}, {}, {}, Patient());
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->rows.size(), 100000u);
  bool said = false;
  for (const std::string& note : t->notes) {
    said |= note.find("iterations were found; only the first 100000 are listed and summarised") != std::string::npos;
  }
  EXPECT_TRUE(said) << "no note of the iterations left out";
  auto outliers = skills::RunByName(Builtins(), "iteration_outliers", **profile, {}, {}, {}, Patient());
  ASSERT_TRUE(outliers) << outliers.error().message;
  EXPECT_LE(outliers->rows.size(), 100000u);
}

}  // namespace
}  // namespace nsys::testing
