// The job skills list (JobSkills): every skill merges the partials of a real split into a table whose rows name
// their rank, and the step heat map holds one cell per (rank, step).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "job_test_util.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using namespace skills::job;

TEST(JobSkills, EveryJobSkillMergesARealSplit) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_before.sqlite");
  ASSERT_TRUE(job.ok);
  std::set<std::string> names;
  for (const skills::job::JobSkill& skill : JobSkills()) {
    SCOPED_TRACE(skill.name);
    EXPECT_TRUE(names.insert(skill.name).second);
    EXPECT_EQ(skill.name.rfind("job_", 0), 0u);
    EXPECT_FALSE(skill.description.empty());
    EXPECT_EQ(FindJobSkill(skill.name), &skill);
    EXPECT_EQ(FindJobSkill("run_" + skill.name.substr(4)), &skill) << "its name before 'job', an alias";
    const skills::Table t = skill.merge(job.partials, job.node_of_rank, {});
    EXPECT_FALSE(t.declined);
    ASSERT_FALSE(t.rows.empty());
    EXPECT_FALSE(t.notes.empty());
    for (const auto& row : t.rows) ASSERT_EQ(row.size(), t.columns.size());
    if (skill.name == "job_clock_alignment") continue;  // one row per node
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const int64_t rank = IntCell(t, r, "rank_index");
      ASSERT_TRUE(rank == 0 || rank == 1);
      EXPECT_EQ(StringCell(t, r, "rank"), job.manifest[static_cast<size_t>(rank)].file);
    }
  }
  EXPECT_EQ(names.size(), 7u);
  EXPECT_EQ(FindJobSkill("no_such_skill"), nullptr);
}

TEST(JobSkills, HeatMapHasACellPerRankAndStep) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_after.sqlite");
  ASSERT_TRUE(job.ok);
  const Merged<HeatMap> m = MergeStepHeatMap(job.partials);
  size_t cells = 0;
  for (const auto& p : job.partials) cells += p.steps.size();
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
TEST(JobSkills, EmptyAndSingleRankJobs) {
  NSYS_REQUIRE_FIXTURES();
  for (const skills::job::JobSkill& skill : JobSkills()) {
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
  for (const skills::job::JobSkill& skill : JobSkills()) {
    const skills::Table t = skill.merge({*partial}, {}, {});
    EXPECT_FALSE(t.declined) << skill.name;
  }
  const Merged<StragglerStats> s = MergeStragglers({*partial}, AlignClocks({*partial}, {}));
  EXPECT_TRUE(s.figures.instances.empty());  // one rank waits for no one
}

}  // namespace
}  // namespace nsys::testing
