// GPU counter tracks: kernel utilisation (% of each bucket covered by at least one kernel on the device, so
// concurrent kernels count once) and memcpy bandwidth (bytes moved per bucket, spread evenly over each copy's
// duration, in GB/s). Both count every selected kernel/copy, including those left out by min_duration_ns.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "trace_builder.h"

namespace nsys::trace::internal {
namespace {

using engine::Ns;

constexpr int64_t kMaxBuckets = 1'000'000;

// About 1000 buckets over the span, in 1-2-5 steps, at least 1 us.
Ns AutoBucket(Ns span) {
  const Ns target = std::max<Ns>(span / 1000, 1);
  for (Ns scale = 1000;; scale *= 10) {
    for (Ns step : {1, 2, 5}) {
      if (step * scale >= target) return step * scale;
    }
    if (scale > std::numeric_limits<Ns>::max() / 100) return scale;
  }
}

struct Buckets {
  Ns begin = 0, end = 0, width = 1;
  size_t count = 0;
  // i < count: i * width < end - begin, so no overflow; Start(count) is `end` (which may sit near INT64_MAX).
  Ns Start(size_t i) const { return i >= count ? end : begin + static_cast<Ns>(i) * width; }
  Ns Length(size_t i) const { return std::min(end, Start(i + 1)) - Start(i); }
  // Adds `weight * overlap / (e - s)` of [s, e) to every bucket it overlaps (weight = e - s adds nanoseconds).
  template <typename F>
  void Spread(Ns s, Ns e, F&& add) const {
    s = std::max(s, begin);
    e = std::min(e, end);
    if (e <= s) return;
    const size_t first = static_cast<size_t>((s - begin) / width);
    const size_t last = std::min(count - 1, static_cast<size_t>((e - 1 - begin) / width));
    for (size_t i = first; i <= last; ++i) add(i, std::min(e, Start(i + 1)) - std::max(s, Start(i)));
  }
};

// The buckets the counters are written in: the window (or, for the whole profile, the span of GPU work), cut into
// at most kMaxBuckets of `bucket_ns` (0: automatic). Empty when there is nothing to count. The bucket count is
// bounded whatever the span (an int64-wide one included), and no step overflows: memory follows the bucket count,
// never the span.
std::optional<Buckets> CounterBuckets(const engine::ResolvedWindow& window, bool have_gpu_span, Ns gpu_first,
                                      Ns gpu_last, Ns bucket_ns) {
  Buckets b;
  if (window.whole) {
    if (!have_gpu_span) return std::nullopt;
    b.begin = gpu_first;
    b.end = gpu_last;
  } else {
    b.begin = window.begin;
    b.end = window.end;
  }
  Ns span = 0;
  if (__builtin_sub_overflow(b.end, b.begin, &span) && have_gpu_span) {
    // A window wider than int64 (from one extreme to the other): only where the GPU was busy has counters.
    b.begin = std::max(b.begin, gpu_first);
    b.end = std::min(b.end, gpu_last);
    if (__builtin_sub_overflow(b.end, b.begin, &span)) return std::nullopt;
  }
  if (span <= 0) return std::nullopt;
  b.width = bucket_ns > 0 ? bucket_ns : AutoBucket(span);
  b.width = std::max<Ns>(b.width, span / kMaxBuckets + (span % kMaxBuckets != 0));
  b.count = static_cast<size_t>(span / b.width + (span % b.width != 0));
  return b;
}

}  // namespace

void TraceBuilder::WriteCounters() {
  if (gpu_devices_.empty()) return;
  const std::optional<Buckets> buckets =
      CounterBuckets(options_.filter.window, have_gpu_span_, gpu_first_, gpu_last_, options_.counter_bucket_ns);
  if (!buckets) return;
  const Buckets& b = *buckets;

  const size_t devices = gpu_devices_.size();
  auto slot = [&](int32_t device) {
    return static_cast<size_t>(std::lower_bound(gpu_devices_.begin(), gpu_devices_.end(), device) -
                               gpu_devices_.begin());
  };
  std::vector<std::vector<double>> busy(devices, std::vector<double>(b.count, 0.0));
  std::vector<std::vector<double>> bytes(devices, std::vector<double>(b.count, 0.0));

  if (in_.kernels != nullptr) {
    const auto& k = *in_.kernels;
    std::vector<Ns> covered(devices, std::numeric_limits<Ns>::min());
    for (size_t row = kernel_rows_.first; row < kernel_rows_.last; ++row) {
      if (!GpuSelected(k, row)) continue;
      const size_t d = slot(k.device[row]);
      const Ns s = std::max(k.start[row], covered[d]);
      const Ns e = k.end[row];
      if (e > s) b.Spread(s, e, [&](size_t i, Ns overlap) { busy[d][i] += static_cast<double>(overlap); });
      covered[d] = std::max(covered[d], e);
    }
  }
  if (in_.memcpys != nullptr) {
    const auto& m = *in_.memcpys;
    for (size_t row = memcpy_rows_.first; row < memcpy_rows_.last; ++row) {
      if (!GpuSelected(m, row)) continue;
      const size_t d = slot(m.device[row]);
      const Ns s = m.start[row];
      const Ns e = m.end[row];
      const auto total = static_cast<double>(m.bytes[row]);
      if (e > s) {
        const auto duration = static_cast<double>(e - s);
        b.Spread(s, e, [&](size_t i, Ns overlap) { bytes[d][i] += total * static_cast<double>(overlap) / duration; });
      } else if (s >= b.begin && s < b.end) {
        bytes[d][static_cast<size_t>((s - b.begin) / b.width)] += total;
      }
    }
  }

  // Values change rarely between idle buckets: write a point only when the value changes, and a final 0.
  auto emit = [&](uint32_t track, const std::vector<double>& per_bucket, double scale) {
    if (track == Tracks::kNoTrack) return;
    const uint64_t uuid = tracks_.uuid(track);
    double previous = std::nan("");
    for (size_t i = 0; i < b.count; ++i) {
      const double value = std::round(per_bucket[i] / static_cast<double>(b.Length(i)) * scale * 1000.0) / 1000.0;
      if (value == previous) continue;
      writer_.Counter(uuid, b.Start(i), value);
      ++stats_.counter_values;
      previous = value;
    }
    if (previous != 0.0) {
      writer_.Counter(uuid, b.end, 0.0);
      ++stats_.counter_values;
    }
  };
  for (size_t d = 0; d < devices; ++d) {
    emit(tracks_.UtilisationTrack(gpu_devices_[d]), busy[d], 100.0);  // ns busy / ns -> %
    emit(tracks_.BandwidthTrack(gpu_devices_[d]), bytes[d], 1.0);     // bytes / ns = GB/s
  }
}

}  // namespace nsys::trace::internal
