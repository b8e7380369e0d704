// The sort and permutation used on every loaded table, against std::stable_sort on many shapes of input.
#include "../../server/engine/src/table_ops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

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
  // Merged, then over the budget: sorted runs of 100 whose windows reach back ever further, then random rows.
  std::vector<Ns> merged_then_random;
  for (int run = 0; run < 40; ++run)
    for (int i = 0; i < 100; ++i) merged_then_random.push_back(run * 50 + i * 3 - run * run);
  for (int i = 0; i < 20000; ++i) merged_then_random.push_back(static_cast<Ns>(rng() % 4000));
  for (const auto* starts : {&sorted, &reversed, &random, &interleaved, &outlier, &merged_then_random}) {
    ends.assign(starts->size(), 0);
    for (size_t i = 0; i < ends.size(); ++i) ends[i] = (*starts)[i] + static_cast<Ns>(rng() % 5);
    CheckSort(*starts, ends);
  }
  CheckSort({}, {});
  CheckSort({5}, {6});
}

// The loader's way: each part sorted as it is read (SortSlotRange, damaged slots to the part's end), then the
// table compacted and its sorted parts merged (SortByTime). Equal to a stable sort of the kept rows.
TEST(TableOps, PartsSortedAsTheyLoadMergeToTheStableOrder) {
  std::mt19937_64 rng(11);
  for (bool end_descending : {false, true}) {
    for (size_t part_rows : {size_t{1}, size_t{7}, size_t{1000}, size_t{4096}}) {
      SCOPED_TRACE(::testing::Message() << "part " << part_rows << " end_descending " << end_descending);
      const size_t n = 20000;
      NvtxTable t;
      ResizeTable(t, n);
      std::vector<uint8_t> slots(n, kSlotKept);
      for (size_t i = 0; i < n; ++i) {
        // Written as ranges end: a range's children before it, so starts fall back within a few hundred rows.
        t.start[i] = static_cast<Ns>(i * 10) - static_cast<Ns>(rng() % 3000);
        t.end[i] = t.start[i] + static_cast<Ns>(rng() % 4);  // ties on (start, end) too
        t.parent[i] = static_cast<int32_t>(i);               // remembers the original row
        if (rng() % 50 == 0) slots[i] = kSlotBadSpan;
      }
      std::vector<uint32_t> expected;
      for (uint32_t i = 0; i < n; ++i)
        if (slots[i] == kSlotKept) expected.push_back(i);
      const NvtxTable original = t;
      std::stable_sort(expected.begin(), expected.end(),
                       [&](uint32_t a, uint32_t b) { return TimeLess(original, end_descending, a, b); });
      for (size_t lo = 0; lo < n; lo += part_rows)
        SortSlotRange(t, slots, kSlotKept, lo, lo + part_rows, end_descending);
      for (size_t lo = 0; lo < n; lo += part_rows) {  // each part: its kept rows first, the damaged ones after
        const size_t hi = std::min(n, lo + part_rows);
        const auto first_damaged =
            std::find_if(slots.begin() + lo, slots.begin() + hi, [](uint8_t s) { return s != kSlotKept; });
        ASSERT_TRUE(std::all_of(first_damaged, slots.begin() + hi, [](uint8_t s) { return s == kSlotBadSpan; }));
      }
      for (uint8_t& s : slots) s = s == kSlotKept;
      CompactTable(t, slots);
      SortByTime(t, end_descending);
      ASSERT_EQ(t.size(), expected.size());
      for (size_t i = 0; i < expected.size(); ++i) {
        ASSERT_EQ(t.parent[i], static_cast<int32_t>(expected[i])) << "row " << i;
        ASSERT_EQ(t.start[i], original.start[expected[i]]);
      }
    }
  }
}

// Loads intern values in the order their threads ran: the canonical encoding is the used values, ascending.
TEST(TableOps, CanonicalDictionaryKeepsTheUsedValuesInOrder) {
  std::vector<NvtxAttributes> values{{3, 0, 0, 7}, {1, 0, 0, 7}, {2, 0, 0, 7}, {1, 0, 0, 5}};
  Column<uint32_t> index{0, 3, 0, 1, 3};  // value 2 ({2,0,0,7}) is left by a part that was read again
  CanonicalizeDictionary(index, values);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_TRUE((values[0] == NvtxAttributes{1, 0, 0, 5}));
  EXPECT_TRUE((values[1] == NvtxAttributes{1, 0, 0, 7}));
  EXPECT_TRUE((values[2] == NvtxAttributes{3, 0, 0, 7}));
  EXPECT_EQ(index, (std::vector<uint32_t>{2, 0, 2, 1, 0}));

  Dictionary<KernelConfig> dict;  // interning from two caches gives one index a value
  DictionaryCache<KernelConfig> a(dict), b(dict);
  KernelConfig x, y;
  x.grid_x = 128, y.grid_x = 256, y.mangled_name = 9;
  EXPECT_EQ(a.Intern(x), 0u);
  EXPECT_EQ(b.Intern(y), 1u);
  EXPECT_EQ(b.Intern(x), 0u);
  EXPECT_EQ(a.Intern(y), 1u);
  const std::vector<KernelConfig> taken = dict.Take();
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_TRUE(taken[1] == y);
}

TEST(TableOps, NvtxOrderPutsParentsFirst) {
  NvtxTable t;
  ResizeTable(t, 3);
  t.start = {10, 10, 5};
  t.end = {12, 20, 30};
  t.op_id = {0, 1, 2};
  SortByTime(t, /*end_descending=*/true);
  EXPECT_EQ(t.op_id, (std::vector<int32_t>{2, 1, 0}));
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
  EXPECT_EQ(SplitOpId("x, op_id = 2147483647"), (std::pair<std::string_view, int64_t>{"x", 2147483647}));
  // Anything that would not print back identically stays whole, with op_id -1; so does a number over the model's
  // 32 bits (the name keeps it, so the full text is still exact).
  for (const char* whole :
       {"aten::mm", "aten::mm, op_id = 007", "aten::mm, op_id = ", "aten::mm,op_id = 5", "aten::mm, op_id = 5 ",
        "aten::mm, op_id = -5", "aten::mm, op_id = 1234567890123456789", "x, op_id = 2147483648",
        "x, op_id = 99999999999", "aten::mm, seq = 5, op_id = 5, sizes = []", "12345", ""}) {
    SCOPED_TRACE(whole);
    EXPECT_EQ(SplitOpId(whole).second, -1);
    EXPECT_EQ(SplitOpId(whole).first, whole);
  }
  for (const char* text :
       {"aten::mm, op_id = 317126", "a, op_id = 1, op_id = 2", "x, op_id = 0", "aten::mm", "x, op_id = 2147483648"}) {
    auto [name, id] = SplitOpId(text);
    EXPECT_EQ(FormatNvtxName(name, id), text);
  }
}

}  // namespace
}  // namespace nsys::engine
