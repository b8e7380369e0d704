// job_stragglers: the rank the others wait for at each collective and the time lost, checked against the source
// export, where both processes share one clock. Expected values: sqlite3 CLI on the source, the k-th
// ncclDevKernel_SendRecv of each process paired by k (row_number() over (partition by globalPid order by start)),
// d = start(pid a) - start(pid b): the later one is last and the other loses |d|.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "job_test_util.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using namespace skills::job;

TEST(JobStragglers, PlainSplitMatchesThePairedStartsOfTheSource) {
  NSYS_REQUIRE_FIXTURES();
  struct Expect {
    const char* source;
    std::vector<int64_t> times_last, caused;
  };
  // mfu_2gpu_before: pid 144 starts last 11 times (its partner waits 2477480 ns in all), pid 145 22 times
  // (10898336 ns). mfu_2gpu_after: pid 148 15 times (18218556 ns), pid 149 16 times (4266638 ns).
  for (const Expect& e : {Expect{"mfu_2gpu_before.sqlite", {11, 22}, {2477480, 10898336}},
                          Expect{"mfu_2gpu_after.sqlite", {15, 16}, {18218556, 4266638}}}) {
    SCOPED_TRACE(e.source);
    const SplitJob& job = Split(e.source);
    ASSERT_TRUE(job.ok);
    const Merged<StragglerStats> m = MergeStragglers(job.partials, AlignClocks(job.partials, job.node_of_rank));
    EXPECT_EQ(m.figures.times_last, e.times_last);
    EXPECT_EQ(m.figures.caused_ns, e.caused);
    EXPECT_EQ(m.figures.waited_ns, (std::vector<int64_t>{e.caused[1], e.caused[0]}));  // two ranks: one waits
    EXPECT_EQ(IntCell(m.table, 1, "caused_ns"), e.caused[1]);
  }
}

// With 2 ms of skew between nodes, the raw clocks would name the wrong ranks; on the aligned clock the 16 ranks
// (8 copies of each process) lose exactly 8 x the source's Σ|d| = 8 x 22485194 ns (mfu_2gpu_after).
TEST(JobStragglers, AlignedClocksUndoTheSkew) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_after.sqlite", "--replicate 8 --ranks-per-node 4 --skew-ns 2000000");
  ASSERT_TRUE(job.ok);
  const Merged<StragglerStats> m = MergeStragglers(job.partials, AlignClocks(job.partials, job.node_of_rank));
  ASSERT_EQ(m.figures.instances.size(), 31u);
  int64_t lost = 0;
  for (const Straggler& s : m.figures.instances) lost += s.lost_ns;
  EXPECT_EQ(lost, 8 * 22485194);
  // Ties between copies go to the lowest rank: ranks 0 and 1 (pids 148 and 149) are last as in the source.
  EXPECT_EQ(m.figures.times_last[0], 15);
  EXPECT_EQ(m.figures.times_last[1], 16);
  EXPECT_EQ(m.figures.unresolved, 0);  // first and last are ranks 0 and 1, on node 0: one clock
  // Unaligned, the node offsets would dominate: a quarter of a millisecond or more per instance.
  ClockAlignment raw = AlignClocks(job.partials, job.node_of_rank);
  for (auto& o : raw.rank_offset_ns) o = 0;
  int64_t raw_lost = 0;
  for (const Straggler& s : MergeStragglers(job.partials, raw).figures.instances) raw_lost += s.lost_ns;
  EXPECT_GT(raw_lost, lost + 31 * 250000);
}

TEST(JobStragglers, RunSkillTablesByRankAndByInstance) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_before.sqlite");
  ASSERT_TRUE(job.ok);
  const skills::job::JobSkill* skill = FindJobSkill("job_stragglers");
  ASSERT_NE(skill, nullptr);
  const skills::Table by_rank = skill->merge(job.partials, job.node_of_rank, {});
  ASSERT_EQ(by_rank.rows.size(), 2u);
  EXPECT_EQ(IntCell(by_rank, 1, "times_last"), 22);
  EXPECT_NE(JoinNotes(by_rank).find("Rank 1 (rank0001.sqlite) made the others wait most"), std::string::npos)
      << JoinNotes(by_rank);
  const skills::Table by_instance = skill->merge(
      job.partials, job.node_of_rank, {{"by", Value(std::string("instance"))}, {"limit", Value(int64_t{3})}});
  ASSERT_EQ(by_instance.rows.size(), 3u);
  // The costliest instance: sqlite3 on the source, max |d| over the paired SendRecv starts = 3339732 ns (k = 32).
  EXPECT_EQ(IntCell(by_instance, 0, "lost_ns"), 3339732);
  EXPECT_EQ(IntCell(by_instance, 0, "ordinal"), 31);
  EXPECT_EQ(StringCell(by_instance, 0, "collective"), "SendRecv");
  EXPECT_EQ(Cell(by_instance, 0, "resolved"), Value(true));
}

// One rank per node, the nodes aligned within ~31 us (job_clocks_test): the instances whose starts differ by less
// than that cannot be ordered, and are marked so (the source's paired starts differ by less than 31 us at 12 of 33
// SendRecv instances: sqlite3 as above).
TEST(JobStragglers, InstancesCloserThanTheAlignmentAreUnresolved) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_before.sqlite", "--replicate 2 --ranks-per-node 1 --skew-ns 2000000");
  ASSERT_TRUE(job.ok);
  const Merged<StragglerStats> m = MergeStragglers(job.partials, AlignClocks(job.partials, job.node_of_rank));
  ASSERT_EQ(m.figures.instances.size(), 33u);
  EXPECT_GT(m.figures.unresolved, 0);
  EXPECT_LT(m.figures.unresolved, 33);
  const skills::Table t = FindJobSkill("job_stragglers")->merge(job.partials, job.node_of_rank, {});
  EXPECT_NE(JoinNotes(t).find("which rank was last there is not certain"), std::string::npos) << JoinNotes(t);
}

TEST(JobStragglers, NoCollectivesSaySo) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("a100_2proc_mpi.sqlite");
  ASSERT_TRUE(job.ok);
  const skills::Table t = FindJobSkill("job_stragglers")->merge(job.partials, job.node_of_rank, {});
  EXPECT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(IntCell(t, 0, "times_last"), 0);
  EXPECT_NE(JoinNotes(t).find("No collective instance"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
