#include "nsys/skills/stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <thread>

namespace nsys::skills {

namespace {

// Below this size nth_element on the (cache-resident) values is fastest.
constexpr size_t kRadixSelectMin = 1 << 15;

// The k-th smallest (0-based) of `values`, all of which lie in [lo, hi], by histogram refinement: each pass counts
// the values of the current range into at most 65536 buckets and keeps the bucket holding rank k, so a 64-bit
// range needs at most four read-only passes; once the bucket is small its values are collected and partitioned.
// Several times faster than nth_element on millions of values, which moves every element repeatedly. The values may
// lie in several parts (the slices of an index), read in place.
using ValueRuns = std::span<const ValueRun>;
int64_t RadixSelect(ValueRuns parts, size_t k, int64_t lo, int64_t hi) {
  std::vector<uint32_t> histogram;
  for (;;) {
    if (lo == hi) return lo;
    const uint64_t width = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    const int shift = std::max(0, static_cast<int>(std::bit_width(width)) - 16);
    histogram.assign(static_cast<size_t>(width >> shift) + 1, 0);
    for (const ValueRun& values : parts) {
      values.ForEach([&](int64_t v) {
        if (v >= lo && v <= hi) ++histogram[static_cast<uint64_t>(v - lo) >> shift];
      });
    }
    size_t bucket = 0;
    while (k >= histogram[bucket]) k -= histogram[bucket++];
    const int64_t bucket_lo = lo + static_cast<int64_t>(static_cast<uint64_t>(bucket) << shift);
    const int64_t bucket_hi =
        shift == 0 ? bucket_lo : std::min(hi, bucket_lo + static_cast<int64_t>((uint64_t{1} << shift) - 1));
    if (shift == 0) return bucket_lo;
    if (histogram[bucket] <= 4096) {
      std::vector<int64_t> in_bucket;
      in_bucket.reserve(histogram[bucket]);
      for (const ValueRun& values : parts) {
        values.ForEach([&](int64_t v) {
          if (v >= bucket_lo && v <= bucket_hi) in_bucket.push_back(v);
        });
      }
      std::nth_element(in_bucket.begin(), in_bucket.begin() + static_cast<ptrdiff_t>(k), in_bucket.end());
      return in_bucket[k];
    }
    lo = bucket_lo;
    hi = bucket_hi;
  }
}

// Sample standard deviation by a second pass around the mean: exact enough for any input.
double TwoPassStddev(std::span<const int64_t> values, double mean) {
  if (values.size() < 2) return 0;
  double squares = 0;
  for (int64_t v : values) {
    const double d = static_cast<double>(v) - mean;
    squares += d * d;
  }
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

// Sample standard deviation from exact moments: n * sum(v^2) - sum(v)^2 is computed in 128-bit integers, so the
// only rounding is the final division. Negative when the 128-bit arithmetic could overflow (huge values).
double StddevFromMoments(const RunningMoments& m) {
  if (m.count < 2) return 0;
  const uint64_t largest = std::max(Magnitude(m.max), Magnitude(m.min));
  // n * sum(v^2) <= n^2 * largest^2 must stay below 2^126, and sum(v) itself must not have wrapped.
  if (2 * (std::bit_width(static_cast<uint64_t>(m.count)) + std::bit_width(largest)) > 124) return -1;
  // Within the bound above every product fits, and |total| <= n * largest did not wrap.
  const UInt128 n = static_cast<uint64_t>(m.count);
  const uint64_t total_magnitude = Magnitude(m.total);
  const UInt128 n_sum_squares = n * m.sum_squares;
  const UInt128 total_squared = static_cast<UInt128>(total_magnitude) * total_magnitude;
  const UInt128 numerator = n_sum_squares > total_squared ? n_sum_squares - total_squared : 0;  // >= 0 in exact math
  const long double variance = static_cast<long double>(numerator) / static_cast<long double>(n * (n - 1));
  return static_cast<double>(std::sqrt(std::max<long double>(0, variance)));
}

// The median of `values` (reordered): below kRadixSelectMin, nth_element on the (cache-resident) values.
double SmallMedianOf(std::span<int64_t> values) {
  const size_t n = values.size();
  const size_t mid = n / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(mid), values.end());
  const int64_t upper = values[mid];
  // The lower middle value is the largest of the first half once nth_element has partitioned it.
  const int64_t lower =
      n % 2 == 1 ? upper : *std::max_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(mid));
  return n % 2 == 1 ? static_cast<double>(upper) : (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
}

// The median of the n values in `parts` (left as they are), all of which lie in [min, max], by RadixSelect.
double LargeMedianOf(ValueRuns parts, size_t n, int64_t min, int64_t max) {
  const size_t mid = n / 2;
  const int64_t upper = RadixSelect(parts, mid, min, max);
  int64_t lower = upper;
  if (n % 2 == 0) {
    // The (mid - 1)-th value is below `upper` only when exactly `mid` values are.
    size_t below = 0;
    int64_t max_below = min;
    for (const ValueRun& values : parts) {
      values.ForEach([&](int64_t v) {
        if (v < upper) {
          ++below;
          max_below = std::max(max_below, v);
        }
      });
    }
    if (below == mid) lower = max_below;
  }
  return n % 2 == 1 ? static_cast<double>(upper) : (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
}

// The median of `values` (reordered), all of which lie in [min, max].
double MedianOf(std::span<int64_t> values, int64_t min, int64_t max) {
  const ValueRun whole{nullptr, values.data(), values.size()};
  return values.size() < kRadixSelectMin ? SmallMedianOf(values)
                                         : LargeMedianOf(ValueRuns(&whole, 1), values.size(), min, max);
}

// The summary but the median.
SampleSummary SummaryOfMoments(std::span<const int64_t> values, const RunningMoments& m) {
  SampleSummary s;
  s.count = m.count;
  s.total = m.total;
  s.min = m.min;
  s.max = m.max;
  s.avg = static_cast<double>(s.total) / static_cast<double>(values.size());
  s.stddev = StddevFromMoments(m);
  if (s.stddev < 0) s.stddev = TwoPassStddev(values, s.avg);
  return s;
}

}  // namespace

SampleSummary Summarize(std::span<int64_t> values) {
  RunningMoments m;
  for (int64_t v : values) m.Add(v);
  return SummarizeWithMoments(values, m);
}

SampleSummary SummarizeWithMoments(std::span<int64_t> values, const RunningMoments& m) {
  if (values.empty()) return SampleSummary{};
  SampleSummary s = SummaryOfMoments(values, m);
  s.median = MedianOf(values, s.min, s.max);
  return s;
}

SampleSummary SummarizeInPlace(std::span<const ValueRun> parts, std::vector<int64_t>& scratch,
                               const std::function<void(std::vector<int64_t>&)>& in_order) {
  RunningMoments m;
  for (const ValueRun& values : parts) values.ForEach([&](int64_t v) { m.Add(v); });
  const auto n = static_cast<size_t>(m.count);
  if (n == 0) return SampleSummary{};
  SampleSummary s;
  s.count = m.count;
  s.total = m.total;
  s.min = m.min;
  s.max = m.max;
  s.avg = static_cast<double>(s.total) / static_cast<double>(n);
  s.stddev = StddevFromMoments(m);
  if (s.stddev < 0) {  // huge values: the second pass adds them in the order a scan would
    scratch.clear();
    in_order(scratch);
    s.stddev = TwoPassStddev(scratch, s.avg);
  }
  if (n < kRadixSelectMin) {
    scratch.clear();
    for (const ValueRun& values : parts) values.ForEach([&](int64_t v) { scratch.push_back(v); });
    s.median = SmallMedianOf(scratch);
  } else {
    s.median = LargeMedianOf(parts, n, s.min, s.max);
  }
  return s;
}

void GroupedSamples::SummarizeAllGroups(const std::vector<RunningMoments>& moments, std::vector<SampleSummary>& out) {
  const size_t num_groups = moments.size();
  auto summarize = [&](size_t g_begin, size_t g_end) {
    for (size_t g = g_begin; g < g_end; ++g) {
      out[g] =
          SummarizeWithMoments(std::span<int64_t>(flat_.get() + offset_[g], offset_[g + 1] - offset_[g]), moments[g]);
    }
  };
  // Selecting medians is most of the work on tens of millions of values; halve it by value count on two threads.
  constexpr size_t kParallelMin = size_t{1} << 21;
  if (flat_size_ < kParallelMin || num_groups < 2) {
    summarize(0, num_groups);
    return;
  }
  size_t split = 0;
  while (split < num_groups && offset_[split] < flat_size_ / 2) ++split;
  split = std::clamp<size_t>(split, 1, num_groups - 1);
  std::thread helper(summarize, split, num_groups);
  summarize(0, split);
  helper.join();
}

void DenseIndex::Rehash(size_t capacity) {
  slot_keys_.assign(capacity, 0);
  slot_ids_.assign(capacity, -1);
  shift_ = 64 - std::countr_zero(capacity);
  for (size_t id = 0; id < keys_.size(); ++id) {
    size_t slot = Slot(keys_[id]);
    while (slot_ids_[slot] >= 0) slot = (slot + 1) & (capacity - 1);
    slot_keys_[slot] = keys_[id];
    slot_ids_[slot] = static_cast<int32_t>(id);
  }
}

int32_t DenseIndex::Insert(size_t slot, uint64_t key) {
  const auto id = static_cast<int32_t>(keys_.size());
  keys_.push_back(key);
  slot_keys_[slot] = key;
  slot_ids_[slot] = id;
  if (keys_.size() * 2 > slot_ids_.size()) Rehash(slot_ids_.size() * 2);
  return id;
}

double RoundTo(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

Value PctOf(int64_t part, int64_t whole) {
  if (whole == 0) return Value();
  return Value(RoundTo(static_cast<double>(part) * 100.0 / static_cast<double>(whole), 1));
}

std::string_view StripApiVersionSuffix(std::string_view name) {
  if (name.size() >= 6 && name.compare(name.size() - 6, 2, "_v") == 0) return name.substr(0, name.size() - 6);
  return name;
}

}  // namespace nsys::skills
