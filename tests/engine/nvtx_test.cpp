// NVTX ranges: names (op_id split and exact rebuild), styles, marks, and push/pop nesting, checked against SQL
// and against a brute-force nesting computed here from the raw rows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TestOptions;

struct RawRange {
  int64_t start, end;
  uint32_t pid, tid;
  int type;
  std::string text;
};

// Ranges in the engine's order: (start, end descending, rowid).
std::vector<RawRange> SqlRanges(const std::string& path) {
  std::vector<RawRange> out;
  Sql(path).Each(
      "SELECT n.start, coalesce(n.end, n.start), (n.globalTid >> 24) & 16777215, n.globalTid & 16777215, n.eventType, "
      "coalesce(n.text, s.value, '') FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
      "WHERE n.eventType IN (59, 60) ORDER BY n.start, coalesce(n.end, n.start) DESC, n.rowid",
      [&](sqlite3_stmt* s) {
        out.push_back(RawRange{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                               static_cast<uint32_t>(sqlite3_column_int64(s, 2)),
                               static_cast<uint32_t>(sqlite3_column_int64(s, 3)), sqlite3_column_int(s, 4),
                               reinterpret_cast<const char*>(sqlite3_column_text(s, 5))});
      });
  return out;
}

TEST(Nvtx, NamesRoundTripByteForByte) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* name :
       {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite"}) {
    SCOPED_TRACE(name);
    auto p = OpenOrDie(Fixture(name), TestOptions());
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(Need::kNvtx).ok());
    const NvtxTable& n = p->nvtx();
    const std::vector<RawRange> raw = SqlRanges(Fixture(name));
    ASSERT_EQ(n.size(), raw.size());
    size_t with_op_id = 0;
    for (size_t i = 0; i < raw.size(); ++i) {
      ASSERT_EQ(n.start[i], raw[i].start) << i;
      ASSERT_EQ(n.end[i], raw[i].end) << i;
      ASSERT_EQ(p->NvtxFullName(static_cast<int32_t>(i)), raw[i].text) << i;
      EXPECT_EQ(n.style[i], raw[i].type == 59 ? NvtxStyle::kPushPop : NvtxStyle::kStartEnd);
      with_op_id += n.op_id[i] >= 0;
    }
    if (std::string(name) == "h100_2gpu_1s.sqlite") {
      EXPECT_EQ(n.size(), 16782u);
      EXPECT_EQ(static_cast<int64_t>(with_op_id),
                Sql(Fixture(name)).Int("SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE '%, op_id = %'"));
    }
  }
}

TEST(Nvtx, PyTorchOpIdsAreSplit) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("h100_2gpu_1s.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kNvtx).ok());
  const NvtxTable& n = p->nvtx();
  // "aten::view, op_id = 314290" becomes the name "aten::view" and the number 314290 (each of the two
  // processes numbers its ops, so the number alone is not unique).
  bool found = false;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string_view op = p->strings().view(n.name[i]);
    if (n.op_id[i] >= 0) {
      EXPECT_EQ(op.find(", op_id = "), std::string_view::npos) << op;
    }
    if (n.op_id[i] == 314290 && op == "aten::view") {
      EXPECT_EQ(p->NvtxFullName(static_cast<int32_t>(i)), "aten::view, op_id = 314290");
      found = true;
    }
  }
  EXPECT_TRUE(found);
  // Interning the operator names makes the pool tiny compared with the 16,782 distinct texts.
  EXPECT_LT(p->strings().size(), 1000u);
  EXPECT_GT(Sql(Fixture("h100_2gpu_1s.sqlite")).Int("SELECT count(DISTINCT text) FROM NVTX_EVENTS"), 10000);
}

TEST(Nvtx, StartEndRangesTextIdsAndDomainCreates) {
  NSYS_REQUIRE_FIXTURES();
  const std::string path = Fixture("titanrtx_tensorrt_nvtx.sqlite");
  auto p = OpenOrDie(path, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->Require(Need::kNvtx).ok());
  const NvtxTable& n = p->nvtx();
  EXPECT_EQ(n.size(), 21996u);  // 19,552 push/pop + 2,444 start/end; the 2 domain creates are not ranges
  size_t start_end = 0;
  for (size_t i = 0; i < n.size(); ++i) {
    if (n.style[i] != NvtxStyle::kStartEnd) continue;
    ++start_end;
    EXPECT_EQ(n.parent[i], kNone);
    EXPECT_EQ(n.Depth(i), 0);
  }
  EXPECT_EQ(start_end, 2444u);
  EXPECT_EQ(p->nvtx_marks().size(), 0u);
  // Names registered through textId resolve through StringIds.
  Sql sql(path);
  const int64_t my = sql.Int(
      "SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 AND s.value = "
      "(SELECT s2.value FROM NVTX_EVENTS n2 JOIN StringIds s2 ON s2.id = n2.textId WHERE n2.eventType = 59 LIMIT 1)");
  EXPECT_GT(my, 0);
}

// The innermost enclosing push/pop range on the same thread, by brute force over the raw rows.
std::vector<int32_t> BruteForceParents(const std::vector<RawRange>& raw) {
  std::vector<int32_t> parent(raw.size(), kNone);
  std::map<std::pair<uint32_t, uint32_t>, std::vector<int32_t>> by_thread;
  for (size_t i = 0; i < raw.size(); ++i)
    if (raw[i].type == 59) by_thread[{raw[i].pid, raw[i].tid}].push_back(static_cast<int32_t>(i));
  for (const auto& [thread, rows] : by_thread) {
    for (int32_t r : rows) {
      int32_t best = kNone;
      for (int32_t c : rows) {
        // c encloses r, and comes before r in (start, end desc) order, as a parent must.
        if (c == r || raw[c].start > raw[r].start || raw[c].end < raw[r].end) continue;
        if (raw[c].start == raw[r].start && raw[c].end == raw[r].end && c > r) continue;
        // Innermost: the latest start, then the earliest end, then the latest row among identical ranges.
        const bool better = best == kNone || raw[c].start > raw[best].start ||
                            (raw[c].start == raw[best].start &&
                             (raw[c].end < raw[best].end || (raw[c].end == raw[best].end && c > best)));
        if (better) best = c;
      }
      parent[r] = best;
    }
  }
  return parent;
}

TEST(Nvtx, NestingMatchesBruteForce) {
  NSYS_REQUIRE_FIXTURES();
  // The deeply nested nvFuser export (13,513 ranges on 9 threads); the brute force is quadratic per thread.
  for (const char* name : {"h200_nvfuser_nvtx.sqlite"}) {
    SCOPED_TRACE(name);
    auto p = OpenOrDie(Fixture(name), TestOptions());
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->Require(Need::kNvtx).ok());
    const NvtxTable& n = p->nvtx();
    const std::vector<RawRange> raw = SqlRanges(Fixture(name));
    ASSERT_EQ(n.size(), raw.size());
    const std::vector<int32_t> expected = BruteForceParents(raw);
    size_t roots = 0;
    int32_t max_depth = 0;
    for (size_t i = 0; i < n.size(); ++i) {
      ASSERT_EQ(n.parent[i], expected[i]) << "row " << i << " " << raw[i].text;
      if (n.parent[i] != kNone) {
        EXPECT_EQ(n.Depth(i), n.Depth(static_cast<size_t>(n.parent[i])) + 1);
      } else {
        EXPECT_EQ(n.Depth(i), 0);
        roots += n.style[i] == NvtxStyle::kPushPop;
      }
      max_depth = std::max(max_depth, n.Depth(i));
    }
    if (std::string(name) == "h200_nvfuser_nvtx.sqlite") {
      EXPECT_EQ(roots, 14u);  // ranges no other range on their thread encloses (SQL: 14)
      EXPECT_GT(max_depth, 5);
    }
  }
}

}  // namespace
}  // namespace nsys::engine
