// The Mann-Whitney U test (see rank_test.h): mid-ranks over the pooled, sorted samples; the tie-corrected variance
// of U; a continuity correction of one half toward the mean.
#include "nsys/agent/rank_test.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace nsys::agent {

namespace {

// U of the new sample about its mean, and its tie-corrected variance.
struct UMoments {
  double u = 0, mean = 0, variance = 0;
};

UMoments RankSums(const std::vector<double>& base, const std::vector<double>& after) {
  std::vector<std::pair<double, bool>> pooled;  // (value, from the new sample)
  pooled.reserve(base.size() + after.size());
  for (double v : base) pooled.emplace_back(v, false);
  for (double v : after) pooled.emplace_back(v, true);
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const double n = static_cast<double>(pooled.size());
  double rank_sum_new = 0, ties = 0;  // ties: Σ (t³ - t) over groups of t equal values
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    size_t from_new = 0;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) from_new += pooled[j++].second ? 1 : 0;
    const double t = static_cast<double>(j - i);
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;  // ranks are 1-based
    rank_sum_new += mid_rank * static_cast<double>(from_new);
    ties += t * t * t - t;
    i = j;
  }
  const double n1 = static_cast<double>(after.size()), n2 = static_cast<double>(base.size());
  UMoments m;
  m.u = rank_sum_new - n1 * (n1 + 1) / 2;
  m.mean = n1 * n2 / 2;
  m.variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
  return m;
}

}  // namespace

RankTestResult MannWhitney(const std::vector<double>& base, const std::vector<double>& after) {
  RankTestResult r;
  r.n_base = static_cast<int64_t>(base.size());
  r.n_new = static_cast<int64_t>(after.size());
  if (base.empty() || after.empty()) {
    r.prob_new_larger = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  const UMoments m = RankSums(base, after);
  r.u_new = m.u;
  r.prob_new_larger = m.u / (static_cast<double>(r.n_new) * static_cast<double>(r.n_base));
  const double variance = m.variance;
  if (!(variance > 0)) return r;  // every value ties: no evidence either way
  const double delta = r.u_new - m.mean;
  const double corrected = delta > 0 ? std::max(0.0, delta - 0.5) : std::min(0.0, delta + 0.5);
  r.z = corrected / std::sqrt(variance);
  r.p = std::min(1.0, std::erfc(std::fabs(r.z) / std::sqrt(2.0)));
  return r;
}

RankTestResult StratifiedMannWhitney(const std::vector<Stratum>& strata) {
  RankTestResult r;
  r.u_new = r.prob_new_larger = std::numeric_limits<double>::quiet_NaN();
  double statistic = 0, variance = 0;
  for (const Stratum& s : strata) {
    if (s.base == nullptr || s.after == nullptr || s.base->empty() || s.after->empty()) continue;
    r.n_base += static_cast<int64_t>(s.base->size());
    r.n_new += static_cast<int64_t>(s.after->size());
    const UMoments m = RankSums(*s.base, *s.after);
    const double w = 1.0 / static_cast<double>(s.base->size() + s.after->size() + 1);
    statistic += w * (m.u - m.mean);
    variance += w * w * m.variance;
  }
  if (!(variance > 0)) return r;
  r.z = statistic / std::sqrt(variance);
  r.p = std::min(1.0, std::erfc(std::fabs(r.z) / std::sqrt(2.0)));
  return r;
}

}  // namespace nsys::agent
