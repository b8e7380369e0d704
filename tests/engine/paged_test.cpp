// Exports bigger than memory: columns in spill files and as views of the warm snapshot, and a profile
// opened under a memory budget answering exactly as one held in memory.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../server/engine/src/table_ops.h"
#include "engine_test_util.h"
#include "nsys/engine/column.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::ExpectSameModel;
using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
namespace fs = std::filesystem;

size_t FilesIn(const std::string& dir) {
  if (!fs::exists(dir)) return 0;
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(Column, BehavesAsAVectorOnTheHeap) {
  Column<int64_t> c{5, 3, 9};
  c.push_back(1);
  c.insert(c.end(), {7, 8});
  EXPECT_EQ(c, (std::vector<int64_t>{5, 3, 9, 1, 7, 8}));
  std::sort(c.begin(), c.end());
  EXPECT_EQ(c, (std::vector<int64_t>{1, 3, 5, 7, 8, 9}));
  c.resize(8);
  EXPECT_EQ(c[6], 0);
  EXPECT_EQ(c.back(), 0);
  c.erase(c.begin(), c.begin() + 2);
  EXPECT_EQ(c.ToVector(), (std::vector<int64_t>{5, 7, 8, 9, 0, 0}));
  Column<int64_t> copy = c;
  c.assign(3, 4);
  EXPECT_EQ(c, (std::vector<int64_t>{4, 4, 4}));
  EXPECT_EQ(copy.size(), 6u);
  // inserting a part of the column into itself, as std::vector allows
  Column<int64_t> own{1, 2, 3, 4};
  own.reserve(16);
  own.insert(own.begin() + 1, own.begin() + 2, own.end());
  EXPECT_EQ(own, (std::vector<int64_t>{1, 3, 4, 2, 3, 4}));
  // push_back of an element of the column itself while it grows
  Column<int32_t> self{1};
  for (int i = 0; i < 100; ++i) self.push_back(self[0]);
  EXPECT_EQ(std::accumulate(self.begin(), self.end(), 0), 101);
  EXPECT_FALSE(self.spilled());
}

TEST(Column, LargeColumnsOfASpillingThreadLiveInAnUnlinkedFileOfTheCache) {
  TempDir dir;
  const SpillPolicy policy{dir / "spill", 1 << 16};
  const ColumnBytes before = ColumnBytesNow();
  {
    const ScopedSpill spill(&policy);
    Column<uint32_t> small(100, 7);
    EXPECT_FALSE(small.spilled());  // under the threshold
    Column<uint32_t> big;
    for (uint32_t i = 0; i < 300000; ++i) big.push_back(i * 3);  // crosses the threshold while it grows
    EXPECT_TRUE(big.spilled());
    EXPECT_GE(ColumnBytesNow().spill - before.spill, static_cast<int64_t>(300000 * sizeof(uint32_t)));
    for (uint32_t i = 0; i < 300000; i += 997) ASSERT_EQ(big[i], i * 3);
    // The file has no name: nothing is left in the cache directory, even while the column lives.
    EXPECT_EQ(FilesIn(dir / "spill"), 0u);
    big.resize(1000);
    big.shrink_to_fit();
    EXPECT_EQ(big[999], 999u * 3);
    Column<uint32_t> moved = std::move(big);
    EXPECT_TRUE(moved.spilled());
    EXPECT_EQ(moved.size(), 1000u);
  }
  EXPECT_EQ(ColumnBytesNow().spill, before.spill);  // every mapping was released
}

// Loaders size their staging columns with resize(n) and rely on unwritten slots reading as zero: true on the heap
// (written), in a fresh anonymous or spill mapping (the kernel's zero pages) and in reused storage (written again).
TEST(Column, ResizedColumnsReadAsZeroInEveryStorage) {
  TempDir dir;
  const SpillPolicy policy{dir / "spill", 1 << 20};
  auto all_zero = [](const Column<int64_t>& c) {
    return std::all_of(c.begin(), c.end(), [](int64_t v) { return v == 0; });
  };
  Column<int64_t> small, anon, spilled;
  small.resize(100);
  anon.resize(1 << 18);  // 2 MiB: an anonymous mapping
  EXPECT_TRUE(all_zero(small));
  EXPECT_TRUE(all_zero(anon));
  EXPECT_FALSE(anon.spilled());
  {
    const ScopedSpill spill(&policy);
    spilled.resize(1 << 18);
  }
  EXPECT_TRUE(spilled.spilled());
  EXPECT_TRUE(all_zero(spilled));
  for (Column<int64_t>* c : {&small, &anon, &spilled}) {
    std::fill(c->begin(), c->end(), 7);
    const size_t n = c->size();
    c->clear();  // keeps the storage, with its sevens
    c->resize(n);
    EXPECT_TRUE(all_zero(*c));
    c->resize(n / 2);
    c->resize(n);  // the upper half held sevens
    EXPECT_TRUE(all_zero(*c));
  }
  // Growth keeps the values and zero-fills only the new slots.
  anon.assign(3, 5);
  anon.resize(1 << 19);
  EXPECT_EQ(anon[2], 5);
  EXPECT_EQ(anon[3], 0);
  EXPECT_EQ(anon.back(), 0);
}

// The mapping of /proc/self/smaps that holds `p`: its start address and its VmFlags line; start 0 when none does.
struct MappingOf {
  uintptr_t start = 0;
  std::string flags;
};
MappingOf FindMapping(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  MappingOf found, current;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find('-') < line.find(' ')) {
      inside = lo <= at && at < hi;
      current = MappingOf{lo, {}};
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      current.flags = line;
      found = current;
    }
  }
  return found;
}

// Large columns ask for transparent huge pages and start on a 2 MiB boundary, spilled ones included: a shared file
// mapping the kernel maps in 4 KiB pages made the paged x5000 export's attribution 29 s instead of 18 s (a TLB
// miss per random access, a fault per page written). "hg" in VmFlags is the advice (MADV_HUGEPAGE).
TEST(Column, LargeColumnsAskForHugePagesOnHugePageBoundaries) {
  TempDir dir;
  const SpillPolicy policy{dir / "spill", 1 << 20}, small_policy{dir / "spill", 4096};
  constexpr size_t kRows = size_t{1} << 20;  // 8 MiB of int64_t
  Column<int64_t> anon, spilled;
  anon.resize(kRows);
  {
    const ScopedSpill spill(&policy);
    spilled.resize(kRows);
    ASSERT_TRUE(spilled.spilled());
  }
  for (Column<int64_t>* c : {&anon, &spilled}) {
    const MappingOf m = FindMapping(c->data());
    ASSERT_NE(m.start, 0u) << "no mapping holds the column";
    if (m.flags.find(" hg") == std::string::npos && !std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
      GTEST_SKIP() << "this kernel has no transparent huge pages";
    EXPECT_NE(m.flags.find(" hg"), std::string::npos) << (c == &anon ? "anonymous: " : "spilled: ") << m.flags;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(c->data()) % (2 << 20), 0u) << (c == &anon ? "anonymous" : "spilled");
    std::fill(c->begin(), c->end(), 3);
  }
  // A spilled column that cannot grow in place (a page is mapped right after it) moves: the advice and the
  // alignment go with it.
  void* after = mmap(spilled.data() + kRows, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  const void* before_move = spilled.data();
  {
    const ScopedSpill spill(&policy);
    spilled.resize(kRows * 4);
  }
  if (after != MAP_FAILED) {
    EXPECT_NE(static_cast<const void*>(spilled.data()), before_move);
    munmap(after, 4096);
  }
  const MappingOf grown = FindMapping(spilled.data());
  EXPECT_NE(grown.flags.find(" hg"), std::string::npos) << grown.flags;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(spilled.data()) % (2 << 20), 0u);
  EXPECT_EQ(spilled[kRows - 1], 3);
  EXPECT_EQ(spilled[kRows], 0);
  // A spill column under 2 MiB may start anywhere; grown past it, it starts on a boundary like the others.
  Column<int64_t> small;
  {
    const ScopedSpill spill(&small_policy);
    small.assign(1000, 5);
    ASSERT_TRUE(small.spilled());
    small.resize(kRows);
  }
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.data()) % (2 << 20), 0u);
  EXPECT_NE(FindMapping(small.data()).flags.find(" hg"), std::string::npos);
  EXPECT_EQ(small[999], 5);
  EXPECT_EQ(small[1000], 0);
}

TEST(Column, AViewReadsInPlaceAndCopiesItselfOnlyToGrow) {
  auto backing = std::make_shared<std::vector<int32_t>>(std::vector<int32_t>{10, 20, 30});
  const int64_t views = ColumnBytesNow().view;
  Column<int32_t> v = Column<int32_t>::View(backing->data(), backing->size(), backing);
  EXPECT_TRUE(v.mapped_view());
  EXPECT_EQ(v.data(), backing->data());
  EXPECT_EQ(ColumnBytesNow().view - views, 12);
  v.push_back(40);  // grows: the view becomes storage of its own
  EXPECT_FALSE(v.mapped_view());
  EXPECT_NE(v.data(), backing->data());
  EXPECT_EQ(v, (std::vector<int32_t>{10, 20, 30, 40}));
  EXPECT_EQ(*backing, (std::vector<int32_t>{10, 20, 30}));
  EXPECT_EQ(ColumnBytesNow().view, views);
}

// Every column of every table, value for value.
template <typename Table>
void ExpectSameColumns(const Table& a, const Table& b, const char* what) {
  std::vector<size_t> sizes_a, sizes_b;
  std::vector<bool> equal;
  ForEachColumn(const_cast<Table&>(a), [&](auto& col) { sizes_a.push_back(col.size()); });
  ForEachColumn(const_cast<Table&>(b), [&](auto& col) { sizes_b.push_back(col.size()); });
  EXPECT_EQ(sizes_a, sizes_b) << what;
  if (sizes_a != sizes_b) return;
  size_t k = 0;
  ForEachColumn(const_cast<Table&>(a), [&](auto& col) {
    size_t j = 0;
    ForEachColumn(const_cast<Table&>(b), [&](auto& other) {
      if (j++ != k) return;
      using A = std::remove_reference_t<decltype(col[0])>;
      using B = std::remove_reference_t<decltype(other[0])>;
      if constexpr (std::is_same_v<A, B>) {
        EXPECT_TRUE(std::equal(col.begin(), col.end(), other.begin(), other.end())) << what << " column " << k;
      }
    });
    ++k;
  });
}

void ExpectSameTables(const Profile& a, const Profile& b) {
  ExpectSameModel(a, b);
  ExpectSameColumns(a.kernels(), b.kernels(), "kernels");
  ExpectSameColumns(a.runtime(), b.runtime(), "runtime");
  ExpectSameColumns(a.memcpys(), b.memcpys(), "memcpy");
  ExpectSameColumns(a.memsets(), b.memsets(), "memset");
  ExpectSameColumns(a.syncs(), b.syncs(), "sync");
  ExpectSameColumns(a.nvtx(), b.nvtx(), "nvtx");
  ExpectSameColumns(a.nvtx_marks(), b.nvtx_marks(), "nvtx marks");
  ExpectSameColumns(a.overhead(), b.overhead(), "overhead");
  const AttributionCoverage ca = a.coverage(), cb = b.coverage();
  EXPECT_EQ(ca.with_nvtx_time_ns, cb.with_nvtx_time_ns);
  EXPECT_EQ(ca.with_launch, cb.with_launch);
  EXPECT_EQ(ca.kernel_time_ns, cb.kernel_time_ns);
}

class PagedProfile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    reference_ = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
    ASSERT_TRUE(reference_);
    ASSERT_TRUE(reference_->Require(kAllTables).ok());
  }
  // Under a budget of twice the model minus one byte: the model is just over half of it, so paged. Columns from
  // 4 KiB spill (the default threshold, 4 MiB, is above every column of the fixture).
  OpenOptions Budgeted() const {
    OpenOptions o = TestOptions(cache_.path());
    o.memory_budget_bytes = 2 * static_cast<uint64_t>(reference_->info().model_bytes) - 1;
    o.spill_threshold_bytes = 4096;
    return o;
  }
  TempDir cache_;
  std::shared_ptr<Profile> reference_;
};

TEST_F(PagedProfile, TheModelSizeIsTheRowsTimesTheColumnWidths) {
  // The dictionaries (launch configurations, NVTX attributes: a few KB) are not counted.
  // Bytes a row: kernels 48, runtime calls 40, copies 56 (a migration's cause: 1), memsets 49, syncs 56 (eventId and
  // eventSyncId: 16), NVTX rows 41, profiler overhead 28.
  const ProfileInfo& info = reference_->info();
  const int64_t expected = info.rows("CUPTI_ACTIVITY_KIND_KERNEL") * 48 +
                           info.rows("CUPTI_ACTIVITY_KIND_RUNTIME") * 40 +
                           info.rows("CUPTI_ACTIVITY_KIND_MEMCPY") * 56 + info.rows("CUPTI_ACTIVITY_KIND_MEMSET") * 49 +
                           info.rows("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION") * 56 + info.rows("NVTX_EVENTS") * 41 +
                           info.rows("PROFILER_OVERHEAD") * 28;
  EXPECT_EQ(info.model_bytes, expected);
  EXPECT_GT(info.model_bytes, 1'000'000);
  EXPECT_FALSE(info.paged);  // no budget
}

TEST_F(PagedProfile, AtHalfTheBudgetTheTablesAreHeldInMemory) {
  OpenOptions o = Budgeted();
  o.memory_budget_bytes += 1;  // the model is exactly half: not over it
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), o);
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().paged);
}

TEST_F(PagedProfile, ASpilledLoadAndAMappedReopenAnswerAsTheHeldModel) {
  const std::string spill_dir = cache_ / "spill";
  {
    auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), Budgeted());
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->info().paged);
    EXPECT_FALSE(p->info().from_cache);
    const int64_t spilled_before = ColumnBytesNow().spill;
    ASSERT_TRUE(p->Require(kAllTables).ok());
    // At least the NVTX table's eight-byte columns (start, end, op_id: 16782 rows each) are in spill files, and the
    // files have no name in the cache directory.
    EXPECT_GE(ColumnBytesNow().spill - spilled_before, 3 * 16782 * 8);
    EXPECT_TRUE(p->nvtx().start.spilled());
    EXPECT_TRUE(p->kernels().start.spilled());  // 3442 x 8 bytes
    EXPECT_FALSE(p->memsets().start.spilled());
    ExpectSameTables(*reference_, *p);
    EXPECT_EQ(FilesIn(spill_dir), 0u);
  }  // closing writes the snapshot
  const int64_t views = ColumnBytesNow().view;
  auto warm = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), Budgeted());
  ASSERT_TRUE(warm);
  EXPECT_TRUE(warm->info().from_cache);
  EXPECT_TRUE(warm->info().paged);
  ASSERT_TRUE(warm->Require(kAllTables).ok());
  EXPECT_TRUE(warm->kernels().start.mapped_view());
  EXPECT_TRUE(warm->nvtx().name.mapped_view());
  // Every column is a view: the restored tables hold (about) the model's bytes in views, nothing on the heap.
  EXPECT_GE(ColumnBytesNow().view - views, warm->info().model_bytes * 9 / 10);
  ExpectSameTables(*reference_, *warm);
}

// `paged` says what happens. When no spill file can be made (here <cache>/spill is a file), the tables are
// held in memory and `paged` is false, with the same answers.
TEST_F(PagedProfile, WhenNoSpillFileCanBeMadeTheTablesAreHeldAndNotCalledPaged) {
  std::ofstream(cache_ / "spill") << "not a directory";
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), Budgeted());
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->info().paged);
  const int64_t spilled_before = ColumnBytesNow().spill;
  ASSERT_TRUE(p->Require(kAllTables).ok());
  EXPECT_EQ(ColumnBytesNow().spill, spilled_before);
  EXPECT_FALSE(p->nvtx().start.spilled());
  ExpectSameTables(*reference_, *p);
}

TEST_F(PagedProfile, WithoutABudgetAWarmReopenCopiesTheTables) {
  {
    auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions(cache_.path()));
    ASSERT_TRUE(p->Require(kAllTables).ok());
  }
  auto warm = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions(cache_.path()));
  ASSERT_TRUE(warm->Require(kAllTables).ok());
  EXPECT_TRUE(warm->info().from_cache);
  EXPECT_FALSE(warm->kernels().start.mapped_view());
  ExpectSameTables(*reference_, *warm);
}

}  // namespace
}  // namespace nsys::engine
