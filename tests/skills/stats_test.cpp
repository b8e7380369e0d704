// Summary statistics and grouping helpers, checked against direct definitions on random data (both the small-n
// nth_element path and the large-n radix-select path), plus the nsys formatting rules.
#include "nsys/skills/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace nsys::skills {
namespace {

SampleSummary Direct(std::vector<int64_t> v) {
  SampleSummary s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.count = static_cast<int64_t>(n);
  for (int64_t x : v) s.total += x;
  s.min = v.front();
  s.max = v.back();
  s.avg = static_cast<double>(s.total) / static_cast<double>(n);
  s.median =
      n % 2 ? static_cast<double>(v[n / 2]) : (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2;
  double sq = 0;
  for (int64_t x : v) sq += (static_cast<double>(x) - s.avg) * (static_cast<double>(x) - s.avg);
  s.stddev = n > 1 ? std::sqrt(sq / static_cast<double>(n - 1)) : 0;
  return s;
}

void ExpectSame(const std::vector<int64_t>& values) {
  std::vector<int64_t> copy = values;
  const SampleSummary got = Summarize(copy);
  const SampleSummary want = Direct(values);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.min, want.min);
  EXPECT_EQ(got.max, want.max);
  EXPECT_DOUBLE_EQ(got.median, want.median) << "n=" << values.size();
  EXPECT_NEAR(got.stddev, want.stddev, 1e-9 * (1 + want.stddev));
}

TEST(Summarize, MatchesTheDefinitionsOnRandomData) {
  std::mt19937_64 rng(42);
  for (size_t n : {1u, 2u, 3u, 10u, 1001u, 40000u, 40001u, 200000u, 200001u}) {
    for (int distribution = 0; distribution < 4; ++distribution) {
      std::vector<int64_t> v(n);
      for (auto& x : v) {
        switch (distribution) {
          case 0:  // kernel-like durations
            x = 1000 + static_cast<int64_t>(rng() % 500000);
            break;
          case 1:  // heavy tail: mostly tiny, a few seconds long
            x = (rng() % 100 == 0) ? static_cast<int64_t>(rng() % 4000000000ull) : static_cast<int64_t>(rng() % 3000);
            break;
          case 2:  // few distinct values (many ties around the median)
            x = static_cast<int64_t>(rng() % 3) * 1000;
            break;
          default:  // negative and huge values (queue times can be negative before filtering)
            x = static_cast<int64_t>(rng() % (1ull << 44)) - (1ll << 43);
            break;
        }
      }
      ExpectSame(v);
    }
  }
}

TEST(Summarize, EdgeCases) {
  std::vector<int64_t> empty;
  EXPECT_EQ(Summarize(empty).count, 0);
  ExpectSame({5});
  ExpectSame({7, 7});
  ExpectSame(std::vector<int64_t>(100000, 42));  // all equal, radix path
  std::vector<int64_t> two_values(100000, 1);
  std::fill(two_values.begin() + 50000, two_values.end(), 1000000000);
  ExpectSame(two_values);  // even count straddling a gap: median is the mean of 1 and 1e9
}

TEST(SummarizeGroups, GroupsAndSkips) {
  const std::vector<int32_t> group = {0, 1, -1, 0, 1, 1};
  const std::vector<int64_t> value = {10, 5, 999, 30, 7, 6};
  const auto s = SummarizeGroups(group, 2, [&](size_t i) { return value[i]; });
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].count, 2);
  EXPECT_EQ(s[0].total, 40);
  EXPECT_DOUBLE_EQ(s[0].median, 20.0);
  EXPECT_EQ(s[1].count, 3);
  EXPECT_DOUBLE_EQ(s[1].median, 6.0);
  EXPECT_EQ(s[1].max, 7);
}

TEST(Summarize, StddevStaysExactWhenTheMeanDwarfsTheSpread) {
  // Timestamps-sized values with a spread of 1: a one-pass double formula loses every digit here.
  std::vector<int64_t> v = {1'000'000'000'000'000, 1'000'000'000'000'001, 1'000'000'000'000'002};
  EXPECT_DOUBLE_EQ(Summarize(v).stddev, 1.0);
  // Values so large that the exact 128-bit moments could overflow take the two-pass path.
  const int64_t big = int64_t{1} << 62;
  std::vector<int64_t> huge = {big, big - 2, big - 4, -big};
  ExpectSame(huge);
}

TEST(SummarizeGroups, ManyValuesOverTwoThreadsMatchTheDefinitions) {
  // Above the two-thread threshold (2^21 values), in groups of very different sizes.
  std::mt19937_64 rng(7);
  const size_t n = (size_t{1} << 21) + 12345;
  std::vector<int32_t> group(n);
  std::vector<int64_t> value(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    group[i] = r % 10 == 0 ? -1 : static_cast<int32_t>((r >> 8) % 7 == 0 ? 0 : 1 + (r >> 16) % 5);
    value[i] = static_cast<int64_t>((r >> 20) % 1'000'000) + ((r >> 8) % 7 == 0 ? 5'000'000'000 : 0);
  }
  const auto got = SummarizeGroups(group, 6, [&](size_t i) { return value[i]; });
  ASSERT_EQ(got.size(), 6u);
  for (int32_t g = 0; g < 6; ++g) {
    std::vector<int64_t> members;
    for (size_t i = 0; i < n; ++i) {
      if (group[i] == g) members.push_back(value[i]);
    }
    const SampleSummary want = Direct(members);
    EXPECT_EQ(got[g].count, want.count) << g;
    EXPECT_EQ(got[g].total, want.total) << g;
    EXPECT_EQ(got[g].min, want.min) << g;
    EXPECT_EQ(got[g].max, want.max) << g;
    EXPECT_DOUBLE_EQ(got[g].median, want.median) << g;
    EXPECT_NEAR(got[g].stddev, want.stddev, 1e-9 * (1 + want.stddev)) << g;
  }
}

TEST(SummarizeGroups, ThousandsOfGroupsOverMillionsOfValuesMatchTheDefinitions) {
  // The line-buffered scatter (from 2^20 values in 1024 groups): every group, including its last partial line, holds
  // exactly its values.
  std::mt19937_64 rng(11);
  const size_t n = (size_t{1} << 20) + 777;
  const int32_t groups = 3001;
  std::vector<int32_t> group(n);
  std::vector<int64_t> value(n);
  std::vector<std::vector<int64_t>> members(groups);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    group[i] = r % 13 == 0 ? -1 : static_cast<int32_t>((r >> 8) % (r % 5 == 0 ? 7 : groups));
    value[i] = static_cast<int64_t>((r >> 24) % 100'000);
    if (group[i] >= 0) members[static_cast<size_t>(group[i])].push_back(value[i]);
  }
  const auto got = SummarizeGroups(group, groups, [&](size_t i) { return value[i]; });
  ASSERT_EQ(got.size(), static_cast<size_t>(groups));
  for (int32_t g = 0; g < groups; ++g) {
    if (members[static_cast<size_t>(g)].empty()) continue;
    const SampleSummary want = Direct(members[static_cast<size_t>(g)]);
    ASSERT_EQ(got[g].count, want.count) << g;
    ASSERT_EQ(got[g].total, want.total) << g;
    ASSERT_EQ(got[g].min, want.min) << g;
    ASSERT_EQ(got[g].max, want.max) << g;
    ASSERT_DOUBLE_EQ(got[g].median, want.median) << g;
  }
}

// GroupedSamples given the moments its caller gathered while grouping gives exactly what it computes itself: small and
// large inputs, few groups and thousands (both scatters), huge values (the standard deviation's second pass).
TEST(GroupedSamples, GivenMomentsGiveTheSameSummaries) {
  std::mt19937_64 rng(31);
  for (const auto& [n, groups] :
       {std::pair<size_t, int32_t>{50, 3}, {(size_t{1} << 20) + 99, 5}, {(size_t{1} << 20) + 4321, 2000}}) {
    std::vector<int32_t> group(n);
    std::vector<int64_t> value(n);
    std::vector<RunningMoments> moments(static_cast<size_t>(groups));
    for (size_t i = 0; i < n; ++i) {
      const uint64_t r = rng();
      group[i] = r % 11 == 0 ? -1 : static_cast<int32_t>((r >> 8) % static_cast<uint64_t>(groups));
      value[i] = r % 97 == 0 ? (int64_t{1} << 61) + static_cast<int64_t>(r % 1000) : static_cast<int64_t>(r % 700'000);
      if (group[i] >= 0) moments[static_cast<size_t>(group[i])].Add(value[i]);
    }
    auto value_of = [&](size_t i) { return value[i]; };
    const auto want = SummarizeGroups(group, static_cast<size_t>(groups), value_of);
    const auto got = GroupedSamples(group, moments).Summarize(value_of);
    ASSERT_EQ(got.size(), want.size());
    for (size_t g = 0; g < want.size(); ++g) {
      ASSERT_EQ(got[g].count, want[g].count) << n << " " << g;
      ASSERT_EQ(got[g].total, want[g].total) << g;
      ASSERT_EQ(got[g].min, want[g].min) << g;
      ASSERT_EQ(got[g].max, want[g].max) << g;
      ASSERT_DOUBLE_EQ(got[g].median, want[g].median) << g;
      ASSERT_DOUBLE_EQ(got[g].stddev, want[g].stddev) << g;
      ASSERT_GT(got[g].count, 0) << g;
    }
  }
}

// SummarizeInPlace over runs held as 32-bit and 64-bit values, split at arbitrary points, equals Summarize() of the
// same values in the same order: small inputs (nth_element), large ones (radix select over several runs, odd and even
// counts), 64-bit values beyond 2^32, and values large enough for the standard deviation's second pass.
TEST(SummarizeInPlace, MixedRunsMatchSummarize) {
  std::mt19937_64 rng(27);
  for (size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{1000}, size_t{40000}, size_t{70001}, size_t{100000}}) {
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<int64_t> values(n);
      for (int64_t& v : values) {
        v = static_cast<int64_t>(rng() % 5000000);
        if (kind == 1 && rng() % 7 == 0) v = static_cast<int64_t>((uint64_t{1} << 32) + rng() % 100000);
        if (kind == 2 && rng() % 5 == 0) v = int64_t{1} << 61;
      }
      // Runs of random lengths; a run is narrow when every value in it fits 32 bits.
      std::vector<uint32_t> narrow(n);
      std::vector<ValueRun> runs;
      for (size_t at = 0; at < n;) {
        const size_t len = std::min(n - at, size_t{1} + static_cast<size_t>(rng() % (n / 3 + 1)));
        bool fits = true;
        for (size_t i = at; i < at + len; ++i) fits = fits && values[i] >= 0 && values[i] <= int64_t{UINT32_MAX};
        if (fits) {
          for (size_t i = at; i < at + len; ++i) narrow[i] = static_cast<uint32_t>(values[i]);
          runs.push_back(ValueRun{narrow.data() + at, nullptr, len});
        } else {
          runs.push_back(ValueRun{nullptr, values.data() + at, len});
        }
        at += len;
      }
      std::vector<int64_t> scratch;
      bool asked_in_order = false;
      const SampleSummary got = SummarizeInPlace(runs, scratch, [&](std::vector<int64_t>& out) {
        asked_in_order = true;
        out.insert(out.end(), values.begin(), values.end());
      });
      std::vector<int64_t> copy = values;
      const SampleSummary want = Summarize(copy);
      EXPECT_EQ(got.count, want.count);
      EXPECT_EQ(got.total, want.total);
      EXPECT_EQ(got.min, want.min);
      EXPECT_EQ(got.max, want.max);
      EXPECT_EQ(got.avg, want.avg);
      EXPECT_EQ(got.median, want.median) << "n=" << n << " kind=" << kind;
      EXPECT_EQ(got.stddev, want.stddev) << "n=" << n << " kind=" << kind;
      EXPECT_EQ(asked_in_order, kind == 2 && n > 1 && want.max == (int64_t{1} << 61)) << "n=" << n;
    }
  }
}

TEST(HugePages, BigBlocksAreWholeAlignedHugePagesAndSmallOnesOrdinary) {
  // A block from 8 MiB up starts on a 2 MiB boundary (what lets the kernel back it with huge pages) and every byte of
  // it is usable; vectors grow through the threshold keeping their values, and a grouping can live in one.
  HugePageAllocator<int64_t> alloc;
  const size_t n = (size_t{9} << 20) / sizeof(int64_t) + 3;
  int64_t* big = alloc.allocate(n);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big) % (size_t{2} << 20), 0u);
  for (size_t i = 0; i < n; ++i) big[i] = static_cast<int64_t>(i) * 3;
  int64_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += big[i];
  EXPECT_EQ(sum, static_cast<int64_t>(3 * (n - 1) * n / 2));
  alloc.deallocate(big, n);
  int64_t* small = alloc.allocate(10);
  small[9] = 42;
  EXPECT_EQ(small[9], 42);
  alloc.deallocate(small, 10);

  HugeVector<int32_t> group;
  for (int32_t i = 0; i < (5 << 20); ++i) group.push_back(i % 3 == 0 ? -1 : i % 2);  // 20 MiB: grows past 8 MiB
  EXPECT_EQ(group.back(), 1);  // 5242879 is odd and not a multiple of 3
  const auto got = SummarizeGroups(group, 2, [](size_t i) { return static_cast<int64_t>(i % 1000 + i / 1000); });
  std::vector<int64_t> members[2];
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i] >= 0) members[group[i]].push_back(static_cast<int64_t>(i % 1000 + i / 1000));
  }
  for (int g = 0; g < 2; ++g) {
    const SampleSummary want = Direct(members[g]);
    EXPECT_EQ(got[g].count, want.count) << g;
    EXPECT_EQ(got[g].total, want.total) << g;
    EXPECT_EQ(got[g].min, want.min) << g;
    EXPECT_EQ(got[g].max, want.max) << g;
    EXPECT_DOUBLE_EQ(got[g].median, want.median) << g;
  }
  HugeArray<int32_t> scratch = MakeHugeArray<int32_t>(size_t{3} << 20);
  scratch[(size_t{3} << 20) - 1] = 7;
  EXPECT_EQ(scratch[(size_t{3} << 20) - 1], 7);
}

TEST(DenseIndex, AssignsIdsInFirstSeenOrderAndGrows) {
  DenseIndex index;
  for (uint64_t k = 0; k < 100000; ++k) EXPECT_EQ(index.IdOf(k * 7919), static_cast<int32_t>(k));
  for (uint64_t k = 0; k < 100000; ++k) EXPECT_EQ(index.Find(k * 7919), static_cast<int32_t>(k));
  EXPECT_EQ(index.Find(3), -1);
  EXPECT_EQ(index.size(), 100000u);
  EXPECT_EQ(index.key(5), 5u * 7919);
}

TEST(NsysFormatting, PercentRoundingAndApiSuffix) {
  EXPECT_DOUBLE_EQ(std::get<double>(PctOf(1, 3)), 33.3);
  EXPECT_DOUBLE_EQ(std::get<double>(PctOf(2, 3)), 66.7);
  EXPECT_TRUE(IsNull(PctOf(1, 0)));
  EXPECT_DOUBLE_EQ(RoundTo(2.25, 1), 2.3);  // half away from zero, as nsys prints
  EXPECT_EQ(StripApiVersionSuffix("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(StripApiVersionSuffix("cudaStreamIsCapturing_v10000"), "cudaStreamIsCapturing_v10000");
  EXPECT_EQ(StripApiVersionSuffix("cudaMalloc"), "cudaMalloc");
  EXPECT_EQ(StripApiVersionSuffix("_v"), "_v");
}

}  // namespace
}  // namespace nsys::skills
