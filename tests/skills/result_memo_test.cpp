// ResultMemo: equal calls share a key, a replaced skill object never matches, and the cell budget evicts the
// least recently used results.
#include "nsys/skills/result_memo.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(stats.cells, 3u * 2 + 1);
}

TEST(ResultMemo, EvictsLeastRecentlyUsedWithinTheCellBudget) {
  ResultMemo memo(100);
  auto skill = std::make_shared<const NamedSkill>("s");
  auto args = [](int64_t n) { return Args{{"n", Value(n)}}; };
  memo.Store(skill, args(1), TableOfRows(40, 1));  // 41 cells each
  memo.Store(skill, args(2), TableOfRows(40, 1));
  ASSERT_NE(memo.Find(skill, args(1)), nullptr);   // 1 is now the most recent
  memo.Store(skill, args(3), TableOfRows(40, 1));  // over budget: 2 goes
  EXPECT_NE(memo.Find(skill, args(1)), nullptr);
  EXPECT_EQ(memo.Find(skill, args(2)), nullptr);
  EXPECT_NE(memo.Find(skill, args(3)), nullptr);
  EXPECT_EQ(memo.stats().cells, 82u);
  memo.Store(skill, args(4), TableOfRows(200, 1));  // larger than the budget: not kept, nothing evicted
  EXPECT_EQ(memo.Find(skill, args(4)), nullptr);
  EXPECT_EQ(memo.stats().results, 2u);
}

}  // namespace
}  // namespace nsys::skills
