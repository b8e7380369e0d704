#pragma once
// The Mann-Whitney U (Wilcoxon rank-sum) test: do two samples come from the same distribution, or does one tend to
// be larger? The diff (diff.h) judges a kernel's or an iteration measure's change with it instead of with the
// spread of different calls inside one profile: a kernel launched with several shapes has a wide spread of
// per-call durations, yet if every call got 50% slower nearly every "after" duration outranks its "before" twin.
// Two-sided, normal approximation with the tie correction and a continuity correction (as scipy's
// mannwhitneyu(method="asymptotic", use_continuity=True)); O((n + m) log(n + m)).
#include <cstdint>
#include <vector>

namespace nsys::agent {

struct RankTestResult {
  int64_t n_base = 0, n_new = 0;
  double u_new = 0;  // U of the new sample: the pairs (base, new) where new is larger, ties counting one half
  // P(a new value > a base value) + half the ties: 0.5 = no shift, 1 = every new value larger. NaN when a side is
  // empty.
  double prob_new_larger = 0;
  double z = 0;  // standardised U of the new sample (positive = new larger), 0 when every value ties
  double p = 1;  // two-sided p-value; 1 when a side has no value or every value ties
};

RankTestResult MannWhitney(const std::vector<double>& base, const std::vector<double>& after);

// One stratum of a stratified test: the two samples of one kernel.
struct Stratum {
  const std::vector<double>* base = nullptr;
  const std::vector<double>* after = nullptr;
};

// Van Elteren's stratified rank test: each stratum's U about its mean, weighted by 1 / (its size + 1), summed, over
// the weighted variances (tie-corrected); no continuity correction. Many kernels that each ran once or twice, all
// slower, are as strong evidence as one kernel run many times. Strata with an empty side are skipped. The result's
// u_new and prob_new_larger are NaN (no single U); z and p as above.
RankTestResult StratifiedMannWhitney(const std::vector<Stratum>& strata);

}  // namespace nsys::agent
