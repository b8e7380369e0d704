// ResultMemo: equal calls share a key, a replaced skill object never matches, and the byte budget (keys and tables)
// evicts the least recently used results.
#include "nsys/skills/result_memo.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nsys::skills {
namespace {

class NamedSkill final : public Skill {
 public:
  explicit NamedSkill(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string description() const override { return "test"; }
  engine::Need needs() const override { return engine::Need{}; }
  Expected<Table> run(const Context&) const override { return Table{}; }

 private:
  std::string name_;
};

std::shared_ptr<const Table> TableOfRows(size_t rows, size_t columns) {
  auto table = std::make_shared<Table>();
  table->columns.resize(columns);
  table->rows.assign(rows, std::vector<Value>(columns, Value(int64_t{1})));
  return table;
}

TEST(ResultMemo, KeysAreCanonicalAndTyped) {
  const NamedSkill skill("s");
  EXPECT_EQ(ResultMemo::KeyOf(skill, {{"b", Value(int64_t{2})}, {"a", Value(true)}}),
            ResultMemo::KeyOf(skill, {{"a", Value(true)}, {"b", Value(int64_t{2})}}));
  EXPECT_EQ(ResultMemo::KeyOf(skill, {{"a", Value(true)}, {"b", Value(int64_t{2})}}), "s\na=bool:true\nb=int:2");
  // An int and a double of the same number, and two close doubles, are different calls.
  EXPECT_NE(ResultMemo::KeyOf(skill, {{"x", Value(int64_t{1})}}), ResultMemo::KeyOf(skill, {{"x", Value(1.0)}}));
  EXPECT_NE(ResultMemo::KeyOf(skill, {{"x", Value(0.1)}}), ResultMemo::KeyOf(skill, {{"x", Value(0.1000000001)}}));
  // A string cannot forge another argument.
  EXPECT_NE(ResultMemo::KeyOf(skill, {{"x", Value(std::string("1\ny=int:2"))}}),
            ResultMemo::KeyOf(skill, {{"x", Value(std::string("1"))}, {"y", Value(int64_t{2})}}));
}

TEST(ResultMemo, HitsMissesAndReplacedSkills) {
  ResultMemo memo;
  auto skill = std::make_shared<const NamedSkill>("s");
  const Args args{{"limit", Value(int64_t{5})}};
  EXPECT_EQ(memo.Find(skill, args), nullptr);
  auto table = TableOfRows(3, 2);
  memo.Store(skill, args, table);
  EXPECT_TRUE(memo.Contains(skill, args));
  EXPECT_FALSE(memo.Contains(skill, {}));
  EXPECT_EQ(memo.Find(skill, args), table);
  EXPECT_EQ(memo.Find(skill, {}), nullptr);
  // The same name from a reloaded skill file is another skill.
  auto reloaded = std::make_shared<const NamedSkill>("s");
  EXPECT_EQ(memo.Find(reloaded, args), nullptr);
  const auto stats = memo.stats();
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.misses, 3);
  EXPECT_EQ(stats.results, 1u);
  EXPECT_EQ(stats.max_bytes, ResultMemo::kDefaultBudgetBytes);
  EXPECT_GT(stats.bytes, ResultMemo::BytesOf(*table));
  EXPECT_LT(stats.bytes, ResultMemo::BytesOf(*table) + 512);
}

TEST(ResultMemo, BytesOfCountsCellsAndStrings) {
  const size_t empty = ResultMemo::BytesOf(Table{});
  auto ints = TableOfRows(100, 2);
  // Each row: its vector and two Values.
  EXPECT_GE(ResultMemo::BytesOf(*ints), empty + 100 * (sizeof(std::vector<Value>) + 2 * sizeof(Value)));
  Table text;
  text.rows.push_back({Value(std::string(1 << 20, 'x'))});
  text.notes.push_back(std::string(1000, 'n'));
  EXPECT_GT(ResultMemo::BytesOf(text), (size_t{1} << 20) + 1000);
}

TEST(ResultMemo, EvictsLeastRecentlyUsedWithinTheByteBudget) {
  auto skill = std::make_shared<const NamedSkill>("s");
  auto args = [](int64_t n) { return Args{{"n", Value(n)}}; };
  const size_t one = ResultMemo::BytesOf(*TableOfRows(40, 1));
  ResultMemo memo(2 * one + 600);  // room for two results and their keys, not three
  memo.Store(skill, args(1), TableOfRows(40, 1));
  memo.Store(skill, args(2), TableOfRows(40, 1));
  ASSERT_NE(memo.Find(skill, args(1)), nullptr);   // 1 is now the most recent
  memo.Store(skill, args(3), TableOfRows(40, 1));  // over budget: 2 goes
  EXPECT_NE(memo.Find(skill, args(1)), nullptr);
  EXPECT_EQ(memo.Find(skill, args(2)), nullptr);
  EXPECT_NE(memo.Find(skill, args(3)), nullptr);
  EXPECT_EQ(memo.stats().results, 2u);
  EXPECT_LE(memo.stats().bytes, 2 * one + 600);
  memo.Store(skill, args(4), TableOfRows(400, 1));  // larger than the budget: not kept, nothing evicted
  EXPECT_EQ(memo.Find(skill, args(4)), nullptr);
  EXPECT_EQ(memo.stats().results, 2u);
}

// 100 calls with a 1 MB string argument used to stay in the memo for good (it counted cells, and the key
// holding the argument was not counted at all). Now the key is charged and the memo stays under its budget.
TEST(ResultMemo, BigArgumentsStayWithinTheBudget) {
  constexpr size_t kBudget = size_t{8} << 20;
  ResultMemo memo(kBudget);
  auto skill = std::make_shared<const NamedSkill>("s");
  for (int i = 0; i < 100; ++i) {
    std::string big(1'000'000, 'a');
    big[0] = static_cast<char>('0' + i % 10);
    big[1] = static_cast<char>('0' + i / 10);
    memo.Store(skill, {{"text", Value(std::move(big))}}, TableOfRows(1, 1));
    ASSERT_LE(memo.stats().bytes, kBudget);
  }
  const auto stats = memo.stats();
  EXPECT_GE(stats.bytes, size_t{7} * 1'000'000);  // the budget is used, by the most recent calls
  EXPECT_LE(stats.results, 8u);
  EXPECT_GE(stats.results, 7u);
  std::string last(1'000'000, 'a');
  last[0] = '9';
  last[1] = '9';
  EXPECT_NE(memo.Find(skill, {{"text", Value(last)}}), nullptr);
  // A single call whose key alone is over the budget is not kept.
  memo.Store(skill, {{"text", Value(std::string(kBudget + 1, 'z'))}}, TableOfRows(1, 1));
  EXPECT_LE(memo.stats().bytes, kBudget);
  EXPECT_EQ(memo.stats().results, stats.results);
}

}  // namespace
}  // namespace nsys::skills
