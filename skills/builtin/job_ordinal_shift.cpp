// Which collective instances of two ranks are the same: captures that start (or stop) at different moments hold
// different first instances, so the k-th kernel of a rank may be rank 0's (k + shift)-th. The right shift makes
// the end differences steady (only the clock offset and tens of microseconds of noise); a wrong one makes them vary
// by the time between instances.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "job_common.h"

namespace nsys::skills::job {
namespace {

constexpr int64_t kMaxShift = 8;
constexpr size_t kMinPairs = 3;

using Channel = std::pair<uint8_t, int32_t>;

// The ends of one rank's instances per (kind, channel), by ordinal (collectives are sorted by key).
std::map<Channel, std::vector<Ns>> EndsByChannel(const RankPartial& p) {
  std::map<Channel, std::vector<Ns>> out;
  for (const CollectiveSample& c : p.collectives) out[{c.kind, c.channel}].push_back(c.end);
  return out;
}

// The median absolute deviation of the end differences when the rank's k-th is rank 0's (k + shift)-th; nullopt
// when fewer than kMinPairs pairs or fewer than half of the shorter sequence overlap.
std::optional<Ns> Dispersion(const std::vector<Ns>& mine, const std::vector<Ns>& reference, int64_t shift) {
  std::vector<Ns> d;
  for (size_t k = 0; k < mine.size(); ++k) {
    const int64_t j = static_cast<int64_t>(k) + shift;
    if (j < 0 || j >= static_cast<int64_t>(reference.size())) continue;
    d.push_back(mine[k] - reference[static_cast<size_t>(j)]);
  }
  if (d.size() < kMinPairs || 2 * d.size() < std::min(mine.size(), reference.size())) return std::nullopt;
  const Ns median = MedianOf(d);
  for (Ns& x : d) x = x > median ? x - median : median - x;
  return MedianOf(std::move(d));
}

// The steadiest shift; ties go to the smallest |shift| (0 first).
int64_t BestShift(const std::vector<Ns>& mine, const std::vector<Ns>& reference) {
  int64_t best = 0;
  std::optional<Ns> best_dispersion = Dispersion(mine, reference, 0);
  for (int64_t step = 1; step <= kMaxShift; ++step) {
    for (int64_t shift : {step, -step}) {
      const std::optional<Ns> d = Dispersion(mine, reference, shift);
      if (d && (!best_dispersion || *d < *best_dispersion)) {
        best = shift;
        best_dispersion = d;
      }
    }
  }
  return best;
}

}  // namespace

OrdinalShifts FindOrdinalShifts(const std::vector<RankPartial>& ranks) {
  OrdinalShifts shifts(ranks.size());
  if (ranks.empty()) return shifts;
  const std::map<Channel, std::vector<Ns>> reference = EndsByChannel(ranks[0]);
  for (size_t r = 1; r < ranks.size(); ++r) {
    for (const auto& [channel, ends] : EndsByChannel(ranks[r])) {
      auto it = reference.find(channel);
      if (it == reference.end()) continue;
      if (const int64_t shift = BestShift(ends, it->second); shift != 0) shifts[r][channel] = shift;
    }
  }
  return shifts;
}

}  // namespace nsys::skills::job
