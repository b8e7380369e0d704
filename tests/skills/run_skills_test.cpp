// The run skills list (RunSkills): every skill merges the partials of a real split into a table whose rows name
// their rank, and the step heat map holds one cell per (rank, step).
#include <gtest/gtest.h>

#include <set>

#include "run_test_util.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using namespace skills::run;

TEST(RunSkills, EveryRunSkillMergesARealSplit) {
  NSYS_REQUIRE_FIXTURES();
  const SplitRun& run = Split("mfu_2gpu_before.sqlite");
  ASSERT_TRUE(run.ok);
  std::set<std::string> names;
  for (const skills::run::RunSkill& skill : RunSkills()) {
    SCOPED_TRACE(skill.name);
    EXPECT_TRUE(names.insert(skill.name).second);
    EXPECT_EQ(skill.name.rfind("run_", 0), 0u);
    EXPECT_FALSE(skill.description.empty());
    EXPECT_EQ(FindRunSkill(skill.name), &skill);
    const skills::Table t = skill.merge(run.partials, run.node_of_rank, {});
    EXPECT_FALSE(t.declined);
    ASSERT_FALSE(t.rows.empty());
    EXPECT_FALSE(t.notes.empty());
    for (const auto& row : t.rows) ASSERT_EQ(row.size(), t.columns.size());
    if (skill.name == "run_clock_alignment") continue;  // one row per node
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const int64_t rank = IntCell(t, r, "rank_index");
      ASSERT_TRUE(rank == 0 || rank == 1);
      EXPECT_EQ(StringCell(t, r, "rank"), run.manifest[static_cast<size_t>(rank)].file);
    }
  }
  EXPECT_EQ(names.size(), 7u);
  EXPECT_EQ(FindRunSkill("no_such_skill"), nullptr);
}

TEST(RunSkills, HeatMapHasACellPerRankAndStep) {
  NSYS_REQUIRE_FIXTURES();
  const SplitRun& run = Split("mfu_2gpu_after.sqlite");
  ASSERT_TRUE(run.ok);
  const Merged<HeatMap> m = MergeStepHeatMap(run.partials);
  size_t cells = 0;
  for (const auto& p : run.partials) cells += p.steps.size();
  ASSERT_GT(cells, 0u);
  EXPECT_EQ(m.table.rows.size(), cells);
  // With two ranks the median of a step is the mean of its two cells, so the two deviations cancel.
  for (size_t r = 0; r + 1 < m.table.rows.size(); r += 2) {
    if (IntCell(m.table, r, "step") != IntCell(m.table, r + 1, "step")) continue;
    EXPECT_NEAR(DoubleCell(m.table, r, "vs_step_median_pct") + DoubleCell(m.table, r + 1, "vs_step_median_pct"), 0,
                1e-3);
  }
}

// No ranks, and one rank (the unsplit source: two processes in one file): every merge answers.
TEST(RunSkills, EmptyAndSingleRankRuns) {
  NSYS_REQUIRE_FIXTURES();
  for (const skills::run::RunSkill& skill : RunSkills()) {
    const skills::Table t = skill.merge({}, {}, {});
    EXPECT_TRUE(t.rows.empty()) << skill.name;
  }
  auto profile = OpenFixture("mfu_2gpu_before.sqlite");
  ASSERT_TRUE(profile);
  ASSERT_TRUE(profile->Require(kRankPartialNeeds).ok());
  auto partial = ComputeRankPartial(*profile, {}, {});
  ASSERT_TRUE(partial.ok());
  partial->label = "mfu_2gpu_before.sqlite";
  // Both processes' kernels (sqlite3: 1993 + 2017), their SendRecv streams as two channels of 33 instances each.
  EXPECT_EQ(partial->kernels, 4010);
  EXPECT_EQ(partial->pids, (std::vector<uint32_t>{144, 145}));
  EXPECT_EQ(partial->collectives.size(), 66u);
  EXPECT_EQ(partial->collectives.back().channel, 1);
  for (const skills::run::RunSkill& skill : RunSkills()) {
    const skills::Table t = skill.merge({*partial}, {}, {});
    EXPECT_FALSE(t.declined) << skill.name;
  }
  const Merged<StragglerStats> s = MergeStragglers({*partial}, AlignClocks({*partial}, {}));
  EXPECT_TRUE(s.figures.instances.empty());  // one rank waits for no one
}

}  // namespace
}  // namespace nsys::testing
