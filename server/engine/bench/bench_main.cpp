// nsys-ai-bench: times the engine on one export, for scripts/bench. Each command prints "key=value" lines.
//
//   nsys-ai-bench summary FILE [--cache-dir DIR] [--threads N] [--background on|off]
//                                                                  open + first kernel summary (gpukernsum-style)
//   nsys-ai-bench attribution FILE [--threads N]                   open + Require(kAttribution) + coverage
//   nsys-ai-bench prime FILE --cache-dir DIR                       full load, then write the warm snapshot
//   nsys-ai-bench query FILE [--cache-dir DIR]                     a kernel-time sum over a 1 s window, once loaded
// --memory-budget SIZE (bytes, or 512M, 4G) opens under a memory budget (OpenOptions::memory_budget_bytes): an export
// whose model is over half of it is paged (spill files, views of the snapshot). Every command then prints where the
// columns lived (heap, spill, view bytes) when it answered.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsys/engine/column.h"
#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"

namespace {

using nsys::engine::KernelTable;
using nsys::engine::Need;
using nsys::engine::OpenOptions;
using nsys::engine::Profile;
using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Row {
  uint32_t name;
  int64_t total = 0, count = 0, min = INT64_MAX, max = 0, median = 0;
  double stddev = 0;
};

// gpukernsum: per demangled name, total / instances / avg / median / min / max / stddev of kernel durations.
// One pass sums each name's moments into a row indexed by name id (a small dense id); a second scatters the durations
// into one bucket per name (a counting sort), as 32-bit values when the longest kernel allows it, and each bucket's
// median is found with nth_element: linear, where a sort of 3.4M (name, duration) pairs would dominate the answer.
template <typename Duration>
void Medians(const KernelTable& k, std::vector<Row>& by_name) {
  std::vector<size_t> cursor(by_name.size() + 1, 0);
  for (size_t name = 0; name < by_name.size(); ++name)
    cursor[name + 1] = cursor[name] + static_cast<size_t>(by_name[name].count);
  const std::vector<size_t> offset = cursor;
  // A Column, like the model's: fresh huge pages that read as zero, where a std::vector would zero 14-28 MB itself
  // and fault it in 4 KiB pages (each a trap to the hypervisor on a VM).
  nsys::engine::Column<Duration> dur(k.size());
  for (size_t i = 0; i < k.size(); ++i) dur[cursor[k.name[i]]++] = static_cast<Duration>(k.end[i] - k.start[i]);
  for (size_t name = 0; name < by_name.size(); ++name) {
    Row& r = by_name[name];
    if (r.count == 0) continue;
    Duration* b = dur.data() + offset[name];
    Duration* e = dur.data() + offset[name + 1];
    const size_t n = static_cast<size_t>(e - b);
    std::nth_element(b, b + n / 2, e);
    r.median = static_cast<int64_t>(b[n / 2]);
    if (n % 2 == 0) r.median = (r.median + static_cast<int64_t>(*std::max_element(b, b + n / 2))) / 2;
  }
}

std::vector<Row> KernelSummary(const KernelTable& k) {
  uint32_t max_name = 0;
  for (uint32_t n : k.name) max_name = std::max(max_name, n);
  std::vector<Row> by_name(k.size() == 0 ? 0 : max_name + size_t{1});
  std::vector<double> sum_sq(by_name.size(), 0.0);
  for (size_t i = 0; i < k.size(); ++i) {
    Row& r = by_name[k.name[i]];
    const int64_t d = k.end[i] - k.start[i];
    ++r.count;
    r.total += d;
    r.min = std::min(r.min, d);
    r.max = std::max(r.max, d);
    sum_sq[k.name[i]] += static_cast<double>(d) * static_cast<double>(d);
  }
  if (k.max_duration >= 0 && k.max_duration <= UINT32_MAX) {
    Medians<uint32_t>(k, by_name);
  } else {
    Medians<int64_t>(k, by_name);
  }
  std::vector<Row> rows;
  for (size_t name = 0; name < by_name.size(); ++name) {
    Row r = by_name[name];
    if (r.count == 0) continue;
    r.name = static_cast<uint32_t>(name);
    const double n = static_cast<double>(r.count);
    const double mean = static_cast<double>(r.total) / n;
    r.stddev = r.count > 1 ? std::sqrt(std::max(0.0, (sum_sq[name] - n * mean * mean) / (n - 1))) : 0.0;
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.total > b.total; });
  return rows;
}

int Fail(const std::string& what) {
  fmt::print(stderr, "nsys-ai-bench: {}\n", what);
  return 1;
}

}  // namespace

// --cache-dir, --background, --threads and --memory-budget.
OpenOptions ParseOptions(int argc, char** argv) {
  OpenOptions options;
  options.use_cache = false;
  options.load_all_in_background = true;  // the default, as the CLI and the server run
  for (int i = 3; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--cache-dir") == 0) {
      options.use_cache = true;
      options.cache_dir = argv[i + 1];
    } else if (std::strcmp(argv[i], "--background") == 0) {
      options.load_all_in_background = std::strcmp(argv[i + 1], "off") != 0;
    } else if (std::strcmp(argv[i], "--threads") == 0) {
      options.worker_threads = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--memory-budget") == 0) {
      char* unit = nullptr;
      const double n = std::strtod(argv[i + 1], &unit);
      const int shift = *unit == 'K' ? 10 : *unit == 'M' ? 20 : *unit == 'G' ? 30 : 0;
      options.memory_budget_bytes = static_cast<uint64_t>(std::ldexp(n, shift));
    }
  }
  return options;
}

int main(int argc, char** argv) {
  if (argc < 3)
    return Fail("usage: nsys-ai-bench summary|attribution|prime|query FILE [--cache-dir DIR] [--threads N]");
  const std::string command = argv[1], file = argv[2];
  const OpenOptions options = ParseOptions(argc, argv);
  const auto t0 = Clock::now();
  auto opened = Profile::Open(file, options);
  if (!opened) return Fail(opened.error().message);
  std::shared_ptr<Profile> profile = std::move(*opened);
  const auto t_open = Clock::now();
  fmt::print("open_ms={:.1f}\nfrom_cache={}\npaged={}\nmodel_mb={:.0f}\n", Ms(t0, t_open), profile->info().from_cache,
             profile->info().paged, static_cast<double>(profile->info().model_bytes) / (1 << 20));

  if (command == "summary") {
    // What top_kernels requires: the kernel rows, not their launch links.
    if (auto s = profile->Require(Need::kKernelRows); !s.ok()) return Fail(s.error().message);
    const auto t_loaded = Clock::now();
    const std::vector<Row> rows = KernelSummary(profile->kernels());
    const auto t_done = Clock::now();
    fmt::print("kernels={}\nload_ms={:.1f}\naggregate_ms={:.1f}\nfirst_answer_ms={:.1f}\n", profile->kernels().size(),
               Ms(t_open, t_loaded), Ms(t_loaded, t_done), Ms(t0, t_done));
    for (size_t i = 0; i < std::min<size_t>(3, rows.size()); ++i)
      fmt::print("top{}={} ns x{} {:.60}\n", i + 1, rows[i].total, rows[i].count,
                 profile->strings().view(rows[i].name));
  } else if (command == "attribution" || command == "prime") {
    if (auto s = profile->Require(command == "prime" ? nsys::engine::kAllTables : Need::kAttribution); !s.ok())
      return Fail(s.error().message);
    const auto t_done = Clock::now();
    const auto c = profile->coverage();
    fmt::print("kernels={}\nruntime={}\nnvtx={}\nattribution_ms={:.1f}\n", profile->kernels().size(),
               profile->runtime().size(), profile->nvtx().size(), Ms(t0, t_done));
    fmt::print("with_launch_pct={:.2f}\nwith_nvtx_pct={:.2f}\n",
               100.0 * static_cast<double>(c.with_launch_time_ns) / std::max<int64_t>(1, c.kernel_time_ns),
               100.0 * static_cast<double>(c.with_nvtx_time_ns) / std::max<int64_t>(1, c.kernel_time_ns));
    if (command == "prime") {
      profile.reset();  // the destructor writes the snapshot once everything is loaded
      fmt::print("prime_ms={:.1f}\n", Ms(t0, Clock::now()));
    }
  } else if (command == "query") {
    if (auto s = profile->Require(Need::kKernels); !s.ok()) return Fail(s.error().message);
    const KernelTable& k = profile->kernels();
    nsys::engine::WindowSpec spec;
    spec.start = 0.5;
    spec.end = 1.5;
    auto window = nsys::engine::ResolveWindow(profile->info(), spec);
    if (!window) return Fail(window.error().message);
    const auto tq = Clock::now();
    // Kernels overlapping the window, clipped to it: a binary search bounded by the longest kernel.
    const auto [first, last] = nsys::engine::StartRange(k, window->begin - k.max_duration, window->end);
    int64_t busy = 0, count = 0;
    for (size_t i = first; i < last; ++i) {
      const int64_t a = std::max(k.start[i], window->begin), b = std::min(k.end[i], window->end);
      if (b > a) busy += b - a, ++count;
    }
    const auto tq_done = Clock::now();
    fmt::print("window={}\nquery_kernels={}\nquery_busy_ns={}\nquery_ms={:.3f}\n", window->description, count, busy,
               Ms(tq, tq_done));
  } else {
    return Fail("unknown command " + command);
  }
  const nsys::engine::ColumnBytes columns = nsys::engine::ColumnBytesNow();
  fmt::print("column_heap_mb={:.0f}\ncolumn_spill_mb={:.0f}\ncolumn_view_mb={:.0f}\n",
             static_cast<double>(columns.heap) / (1 << 20), static_cast<double>(columns.spill) / (1 << 20),
             static_cast<double>(columns.view) / (1 << 20));
  return 0;
}
