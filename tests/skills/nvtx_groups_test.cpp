// The per-profile NVTX group index (NvtxGroupIndex) against a direct computation over the rows of real fixtures: the
// same groups, every row once in its (group, thread) piece in row order, the children's time per group, the running
// duration sums and op-id counts; and the lent row slots (NvtxRowSlots).
#include "nsys/skills/nvtx_groups.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

struct GroupIndexCase {
  const char* fixture;
  bool split_op_id;
};

class NvtxGroupIndexTest : public ::testing::TestWithParam<GroupIndexCase> {};

std::shared_ptr<engine::Profile> Loaded(const std::string& fixture) {
  auto profile = OpenFixture(fixture);
  if (profile) EXPECT_TRUE(profile->Require(engine::Need::kNvtx).ok());
  return profile;
}

// Group (by label text and style) -> its rows, computed directly with a fresh labelling.
std::map<std::pair<std::string, int>, std::vector<int32_t>> DirectGroups(const engine::Profile& profile, bool split) {
  auto labels = skills::NvtxLabels::Build(profile, split, {});
  EXPECT_TRUE(labels.ok());
  std::map<std::pair<std::string, int>, std::vector<int32_t>> groups;
  const engine::NvtxTable& nvtx = profile.nvtx();
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const int32_t label = labels.value().LabelOf(i);
    groups[{labels.value().Text(label), static_cast<int>(nvtx.style[i])}].push_back(static_cast<int32_t>(i));
  }
  return groups;
}

TEST_P(NvtxGroupIndexTest, GroupsMatchADirectComputation) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = Loaded(GetParam().fixture);
  ASSERT_TRUE(profile);
  const engine::NvtxTable& nvtx = profile->nvtx();
  ASSERT_GT(nvtx.size(), 0u);
  auto built = skills::NvtxGroupIndex::Build(*profile, GetParam().split_op_id, {});
  ASSERT_TRUE(built.ok());
  const skills::NvtxGroupIndex& index = *built.value();

  std::map<std::pair<std::string, int>, std::vector<int32_t>> from_index;
  std::vector<int> seen(nvtx.size(), 0);
  for (size_t g = 0; g < index.size(); ++g) {
    auto& rows = from_index[{index.labels().Text(index.label(g)), static_cast<int>(index.style(g))}];
    EXPECT_TRUE(rows.empty()) << "two groups for one (label, style)";
    std::set<size_t> threads;
    for (size_t p = index.first_piece(g); p < index.first_piece(g + 1); ++p) {
      EXPECT_TRUE(threads.insert(index.thread_of_piece(p)).second) << "two pieces for one thread";
      const uint64_t key = index.thread_key(index.thread_of_piece(p));
      for (size_t n = 0; n < index.rows(p).size(); ++n) {
        const auto row = static_cast<size_t>(index.rows(p)[n]);
        if (n > 0) EXPECT_LT(index.rows(p)[n - 1], index.rows(p)[n]);
        EXPECT_EQ(index.group_of_row(row), static_cast<int32_t>(g));
        EXPECT_EQ(skills::PackKey(nvtx.pid[row], nvtx.tid[row]), key);
        EXPECT_EQ(index.durations(p)[n], nvtx.end[row] - nvtx.start[row]);
        ++seen[row];
        rows.push_back(static_cast<int32_t>(row));
      }
    }
    std::sort(rows.begin(), rows.end());
  }
  for (size_t i = 0; i < nvtx.size(); ++i) ASSERT_EQ(seen[i], 1) << "row " << i;
  EXPECT_EQ(from_index, DirectGroups(*profile, GetParam().split_op_id));
}

TEST_P(NvtxGroupIndexTest, ChildTimesSumsAndOpIdsMatchADirectComputation) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = Loaded(GetParam().fixture);
  ASSERT_TRUE(profile);
  const engine::NvtxTable& nvtx = profile->nvtx();
  auto built = skills::NvtxGroupIndex::Build(*profile, GetParam().split_op_id, {});
  ASSERT_TRUE(built.ok());
  const skills::NvtxGroupIndex& index = *built.value();

  // Each group's children's time, as nvtx_summary's scan of the whole profile adds it up.
  std::vector<int64_t> direct(index.size(), 0);
  for (size_t i = 0; i < nvtx.size(); ++i) {
    const int32_t p = nvtx.parent[i];
    if (p >= 0 && static_cast<size_t>(p) < i) {
      direct[static_cast<size_t>(index.group_of_row(static_cast<size_t>(p)))] += nvtx.end[i] - nvtx.start[i];
    }
  }
  std::vector<int64_t> from_index(index.size(), 0);
  for (size_t g = 0; g < index.size(); ++g) {
    if (!index.child_ns_running(g).empty()) from_index[g] = index.child_ns_running(g).back();
  }
  for (const auto& late : index.late_children()) from_index[static_cast<size_t>(late.parent_group)] += late.ns;
  EXPECT_EQ(from_index, direct);

  // Duration sums over slices, and op-id counts, at a few cut points.
  for (size_t p = 0; p < index.first_piece(index.size()); ++p) {
    const size_t n = index.rows(p).size();
    for (size_t lo : {size_t{0}, n / 3, n / 2}) {
      for (size_t hi : {lo, (lo + n) / 2, n}) {
        int64_t sum = 0;
        for (size_t k = lo; k < hi; ++k) sum += index.durations(p)[k];
        EXPECT_EQ(index.DurationSum(p, lo, hi), sum) << "piece " << p << " [" << lo << ", " << hi << ")";
      }
    }
  }
  int64_t with_op_id = 0;
  for (size_t i = 0; i <= nvtx.size(); ++i) {
    if (i % 97 == 0 || i == nvtx.size()) EXPECT_EQ(index.RowsWithOpIdBefore(nvtx, i), with_op_id) << "row " << i;
    if (i < nvtx.size()) with_op_id += nvtx.op_id[i] >= 0;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, NvtxGroupIndexTest,
                         ::testing::Values(GroupIndexCase{"h100_2gpu_1s.sqlite", false},
                                           GroupIndexCase{"h100_2gpu_1s.sqlite", true},
                                           GroupIndexCase{"h200_nvfuser_nvtx.sqlite", false},
                                           GroupIndexCase{"titanrtx_tensorrt_nvtx.sqlite", false},
                                           GroupIndexCase{"titanrtx_tensorrt_nvtx.sqlite", true}),
                         [](const auto& info) {
                           std::string name = info.param.fixture;
                           name = name.substr(0, name.find('.'));
                           return name + (info.param.split_op_id ? "_split" : "");
                         });

TEST(NvtxGroupIndex, IsKeptWithTheProfile) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = Loaded("h100_2gpu_1s.sqlite");
  ASSERT_TRUE(profile);
  auto first = skills::NvtxGroupIndex::Of(*profile, false, {});
  auto again = skills::NvtxGroupIndex::Of(*profile, false, {});
  auto split = skills::NvtxGroupIndex::Of(*profile, true, {});
  ASSERT_TRUE(first.ok() && again.ok() && split.ok());
  EXPECT_EQ(first.value().get(), again.value().get());
  EXPECT_NE(first.value().get(), split.value().get());
  EXPECT_EQ(first.value()->size(), 176u);  // nvtx_summary's 176 (name, style) rows on this fixture
  EXPECT_EQ(split.value()->size(), 16582u);
}

TEST(NvtxGroupIndex, ACancelledBuildIsNotKept) {
  NSYS_REQUIRE_FIXTURES();
  engine::OpenOptions options;  // a profile of its own: other tests may have kept this fixture's index
  options.use_cache = false;
  auto opened = engine::Profile::Open(Fixture("titanrtx_tensorrt_nvtx.sqlite"), options);
  ASSERT_TRUE(opened.ok());
  auto profile = opened.value();
  ASSERT_TRUE(profile->Require(engine::Need::kNvtx).ok());
  CancelToken cancelled;
  cancelled.cancel();
  auto failed = skills::NvtxGroupIndex::Of(*profile, true, cancelled);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kCancelled);
  EXPECT_TRUE(skills::NvtxGroupIndex::Of(*profile, true, {}).ok());
}

TEST(NvtxRowSlots, ALeaseIsPutBackUnmarkedAndASecondBorrowerGetsItsOwn) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = Loaded("h100_2gpu_1s.sqlite");
  ASSERT_TRUE(profile);
  const size_t rows = profile->nvtx().size();
  {
    auto lease = skills::NvtxRowSlots::Borrow(*profile);
    lease.Set(0, 7);
    lease.Set(rows - 1, 9);
    lease.Set(0, 8);
    EXPECT_EQ(lease.Get(0), 8);
    auto second = skills::NvtxRowSlots::Borrow(*profile);  // the shared array is lent: a fresh one
    EXPECT_EQ(second.Get(0), -1);
    second.Set(1, 3);
  }
  auto lease = skills::NvtxRowSlots::Borrow(*profile);
  for (size_t i = 0; i < rows; ++i) ASSERT_EQ(lease.Get(i), -1) << "row " << i;
}

}  // namespace
}  // namespace nsys::testing
