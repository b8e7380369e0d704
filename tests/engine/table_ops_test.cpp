// The sort and permutation used on every loaded table, against std::stable_sort on many shapes of input.
#include "../../server/engine/src/table_ops.h"

#include <gtest/gtest.h>

#include <random>

#include "../../server/engine/src/loaders.h"

namespace nsys::engine {
namespace {

// Checks SortByTime on a runtime table built from `starts` against a stable sort of (start, end, row).
void CheckSort(const std::vector<Ns>& starts, const std::vector<Ns>& ends) {
  RuntimeTable t;
  ResizeTable(t, starts.size());
  for (size_t i = 0; i < starts.size(); ++i) {
    t.start[i] = starts[i];
    t.end[i] = ends[i];
    t.correlation_id[i] = static_cast<uint32_t>(i);  // remembers the original row
  }
  std::vector<uint32_t> expected(starts.size());
  for (uint32_t i = 0; i < expected.size(); ++i) expected[i] = i;
  std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) {
    return starts[a] < starts[b] || (starts[a] == starts[b] && ends[a] < ends[b]);
  });
  SortByTime(t);
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(t.correlation_id[i], expected[i]) << "row " << i;
    ASSERT_EQ(t.start[i], starts[expected[i]]);
    ASSERT_EQ(t.end[i], ends[expected[i]]);
  }
}

TEST(TableOps, SortShapes) {
  std::mt19937_64 rng(7);
  // Sorted, reversed, random with ties, two interleaved runs per block (as a two-process export), one outlier.
  std::vector<Ns> sorted(1000), reversed(1000), random(5000), interleaved, outlier(3000), ends;
  for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<Ns>(i);
  for (size_t i = 0; i < reversed.size(); ++i) reversed[i] = static_cast<Ns>(reversed.size() - i);
  for (auto& v : random) v = static_cast<Ns>(rng() % 300);
  for (int block = 0; block < 50; ++block) {
    for (int proc = 0; proc < 2; ++proc)
      for (int i = 0; i < 100; ++i) interleaved.push_back(block * 1000 + i * 7 + proc * 3);
  }
  for (size_t i = 0; i < outlier.size(); ++i) outlier[i] = static_cast<Ns>(i);
  outlier[1500] = 1000000;
  for (const auto* starts : {&sorted, &reversed, &random, &interleaved, &outlier}) {
    ends.assign(starts->size(), 0);
    for (size_t i = 0; i < ends.size(); ++i) ends[i] = (*starts)[i] + static_cast<Ns>(rng() % 5);
    CheckSort(*starts, ends);
  }
  CheckSort({}, {});
  CheckSort({5}, {6});
}

TEST(TableOps, NvtxOrderPutsParentsFirst) {
  NvtxTable t;
  ResizeTable(t, 3);
  t.start = {10, 10, 5};
  t.end = {12, 20, 30};
  t.op_id = {0, 1, 2};
  SortByTime(t, /*end_descending=*/true);
  EXPECT_EQ(t.op_id, (std::vector<int64_t>{2, 1, 0}));
}

TEST(TableOps, CompactKeepsOrder) {
  KernelTable t;
  ResizeTable(t, 5);
  t.start = {1, 2, 3, 4, 5};
  CompactTable(t, {1, 0, 1, 0, 1});
  EXPECT_EQ(t.start, (std::vector<Ns>{1, 3, 5}));
  EXPECT_EQ(t.launch.size(), 3u);
}

TEST(TableOps, SplitOpId) {
  EXPECT_EQ(SplitOpId("aten::mm, op_id = 317126"), (std::pair<std::string_view, int64_t>{"aten::mm", 317126}));
  EXPECT_EQ(SplitOpId("aten::mm, op_id = 0").second, 0);
  EXPECT_EQ(SplitOpId(", op_id = 5"), (std::pair<std::string_view, int64_t>{"", 5}));
  // Anything that would not print back identically stays whole, with op_id -1.
  for (const char* whole : {"aten::mm", "aten::mm, op_id = 007", "aten::mm, op_id = ", "aten::mm,op_id = 5",
                            "aten::mm, op_id = 5 ", "aten::mm, op_id = -5", "aten::mm, op_id = 1234567890123456789",
                            "aten::mm, seq = 5, op_id = 5, sizes = []", "12345", ""}) {
    SCOPED_TRACE(whole);
    EXPECT_EQ(SplitOpId(whole).second, -1);
    EXPECT_EQ(SplitOpId(whole).first, whole);
  }
  for (const char* text : {"aten::mm, op_id = 317126", "a, op_id = 1, op_id = 2", "x, op_id = 0", "aten::mm"}) {
    auto [name, id] = SplitOpId(text);
    EXPECT_EQ(FormatNvtxName(name, id), text);
  }
}

}  // namespace
}  // namespace nsys::engine
