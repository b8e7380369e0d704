// The Mann-Whitney test behind the diff's verdict. Expected values are scipy 1.10's
// scipy.stats.mannwhitneyu(new, base, alternative="two-sided", method="asymptotic", use_continuity=True), computed
// once with Debian's python3-scipy: statistic (U of the new sample) and p-value.
#include "nsys/agent/rank_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace nsys::agent {
namespace {

TEST(RankTest, MatchesScipyOnDisjointTiedAndInterleavedSamples) {
  struct Case {
    std::vector<double> base, after;
    double u, p;
  };
  const Case cases[] = {
      {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 25.0, 0.012185780355344813},
      {{1, 2, 2, 3, 3, 3, 4}, {2, 3, 3, 4, 4, 5, 5, 6}, 45.0, 0.04988443697992588},
      {{100, 200, 400, 800, 100, 200, 400, 800}, {150, 300, 600, 1200, 150, 300, 600, 1200}, 40.0, 0.4281670513257515},
      {{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}, 15.0, 0.6761033140231469},
  };
  for (const Case& c : cases) {
    const RankTestResult r = MannWhitney(c.base, c.after);
    EXPECT_DOUBLE_EQ(r.u_new, c.u);
    EXPECT_NEAR(r.p, c.p, 1e-12 * c.p + 1e-15) << c.u;
    EXPECT_EQ(r.n_base, static_cast<int64_t>(c.base.size()));
    EXPECT_DOUBLE_EQ(r.prob_new_larger, c.u / static_cast<double>(c.base.size() * c.after.size()));
  }
}

TEST(RankTest, DirectionAllTiesAndEmptySides) {
  const RankTestResult slower = MannWhitney({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_GT(slower.z, 0);
  EXPECT_DOUBLE_EQ(slower.prob_new_larger, 1.0);
  const RankTestResult faster = MannWhitney({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  EXPECT_LT(faster.z, 0);
  EXPECT_DOUBLE_EQ(faster.p, slower.p);                              // two-sided: symmetric
  const RankTestResult same = MannWhitney({5, 5, 5}, {5, 5, 5, 5});  // scipy: U 6, p 1.0
  EXPECT_DOUBLE_EQ(same.u_new, 6.0);
  EXPECT_DOUBLE_EQ(same.p, 1.0);
  EXPECT_DOUBLE_EQ(same.z, 0.0);
  const RankTestResult empty = MannWhitney({}, {1, 2});
  EXPECT_DOUBLE_EQ(empty.p, 1.0);
  EXPECT_TRUE(std::isnan(empty.prob_new_larger));
}

// Van Elteren's stratified test. Reference: the same weighted sum written with scipy.stats.rankdata and tiecorrect
// (z 2.1230415420385813, p 0.03375037090518173). One stratum alone is the plain test's z without its continuity
// correction.
TEST(RankTest, StratifiedMatchesTheWeightedSumOfStrata) {
  const std::vector<double> b1{1}, a1{2}, b2{5, 6}, a2{7, 8}, b3{3, 3, 4}, a3{3, 5, 6}, none;
  const RankTestResult r = StratifiedMannWhitney({{&b1, &a1}, {&b2, &a2}, {&b3, &a3}, {&none, &a1}});
  EXPECT_NEAR(r.z, 2.1230415420385813, 1e-12);
  EXPECT_NEAR(r.p, 0.03375037090518173, 1e-12);
  EXPECT_EQ(r.n_base, 6);  // the stratum with an empty side is skipped
  EXPECT_EQ(r.n_new, 6);
  // Eighteen kernels run once on each side, every one slower: no kernel's own test can show it (p = 1 with one call
  // a side), the stratified test does.
  std::vector<std::vector<double>> base(18), after(18);
  std::vector<Stratum> strata;
  for (int k = 0; k < 18; ++k) {
    base[k] = {100.0 * (k + 1)};
    after[k] = {150.0 * (k + 1)};
    EXPECT_DOUBLE_EQ(MannWhitney(base[k], after[k]).p, 1.0);
  }
  for (int k = 0; k < 18; ++k) strata.push_back({&base[k], &after[k]});
  const RankTestResult all = StratifiedMannWhitney(strata);
  EXPECT_NEAR(all.z, std::sqrt(18.0), 1e-12);  // each stratum: (1 - 1/2) / 3 over sqrt(1/4) / 3
  EXPECT_LT(all.p, 1e-4);
  EXPECT_GT(all.z, 0);
}

}  // namespace
}  // namespace nsys::agent
