// iteration_outliers: iterations (found as the iterations skill finds them) whose duration is far above the
// median of their process and device by a robust z-score, with the GPU idle time before each.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_iterations.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

// 1.4826 * MAD estimates the standard deviation of normal data; when more than half the iterations have the same
// duration the MAD is 0 and the mean absolute deviation * 1.2533 (sqrt(pi/2)) takes its place (Iglewicz and
// Hoaglin's modified z-score).
constexpr double kMadScale = 1.4826;
constexpr double kMeanAdScale = 1.2533;

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The robust spread of one group's durations around their median; 0 when they are all equal.
double RobustScale(const std::vector<double>& durations, double median) {
  std::vector<double> dev;
  double mean_ad = 0;
  for (double d : durations) {
    dev.push_back(std::fabs(d - median));
    mean_ad += dev.back();
  }
  const double mad = MedianOf(dev);
  if (mad > 0) return kMadScale * mad;
  return kMeanAdScale * mean_ad / static_cast<double>(durations.size());
}

// Iterations [first, last) of one (device, pid) group (DetectIterations sorts them so), as table rows.
void AddGroup(const std::vector<Iteration>& its, size_t first, size_t last, double threshold, Table& t,
              int64_t& outliers) {
  std::vector<double> durations;
  for (size_t j = first; j < last; ++j) durations.push_back(static_cast<double>(its[j].end - its[j].start));
  const double median = MedianOf(durations);
  const double scale = RobustScale(durations, median);
  for (size_t j = first; j < last; ++j) {
    const Iteration& it = its[j];
    const Ns dur = it.end - it.start;
    const double z = scale > 0 ? (static_cast<double>(dur) - median) / scale : 0.0;
    const bool outlier = z > threshold;
    outliers += outlier;
    Value gap_before = Null();
    const Iteration* prev = j > first ? &its[j - 1] : nullptr;
    if (prev && prev->kernels > 0 && it.kernels > 0) gap_before = I(std::max<Ns>(0, it.gpu_start - prev->gpu_end));
    t.rows.push_back({it.device >= 0 ? I(it.device) : Null(), I(it.pid), I(it.index), I(it.start), I(dur),
                      I(std::llround(median)), D(z), Value(outlier), I(std::max<Ns>(0, dur - std::llround(median))),
                      gap_before, I(it.kernels)});
  }
}

Table EmptyOutliersTable() {
  Table t;
  t.columns = {
      IntCol("device_id", "GPU device (as in iterations); null when the iteration's kernels ran on several"),
      IntCol("pid", "Process id"),
      IntCol("iteration", "0-based index within (device, pid)"),
      IntCol("start_ns", "Iteration start (capture clock)"),
      IntCol("duration_ns", "Iteration length"),
      IntCol("median_ns", "Median iteration length of the group: (device, pid) by kernel periodicity, pid by marker"),
      DoubleCol("robust_z", "(duration - median) / (1.4826 x MAD) of the group"),
      BoolCol("outlier", "robust_z > threshold"),
      IntCol("excess_ns", "max(0, duration - median)"),
      IntCol("gap_before_ns",
             "GPU idle between the previous iteration's last kernel end and this iteration's first kernel "
             "start; null for the group's first iteration or when either has no kernels"),
      IntCol("kernels", "Kernels in the iteration"),
      StringCol("confidence", kConfidenceDoc)};
  return t;
}

class IterationOutliersSkill final : public Skill {
 public:
  std::string name() const override { return "iteration_outliers"; }
  std::string description() const override {
    return "Per iteration (as the iterations skill finds them): duration against the median by a robust z-score, "
           "outliers, excess time, and the GPU idle time before it.";
  }
  std::vector<ArgSpec> args() const override {
    return {{"marker",
             ValueType::kString,
             "Substring of the NVTX range (or mark) name that delimits one iteration; empty = detect by kernel "
             "periodicity (as the iterations skill).",
             Value(std::string()),
             false,
             {}},
            {"threshold",
             ValueType::kDouble,
             "An iteration is an outlier when its robust z-score exceeds this.",
             Value(3.5),
             false,
             {},
             /*min=*/0.0}};
  }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kRuntime | engine::Need::kNvtx; }

  Expected<Table> run(const Context& ctx) const override {
    auto res = DetectIterations(ctx, ArgString(ctx, "marker"));
    if (!res) return res.error();
    if (!res->found) return Declined(res->decline_reason);
    const double threshold = ArgDouble(ctx, "threshold");
    // Kernel periodicity finds iterations per (device, pid); marker ranges are per process, whatever devices
    // their kernels ran on, so they are compared per process.
    const bool per_process = res->method != "kernel_period";
    std::vector<Iteration> its = std::move(res->iterations);
    if (per_process) {
      std::stable_sort(its.begin(), its.end(), [](const Iteration& a, const Iteration& b) {
        return std::tie(a.pid, a.start) < std::tie(b.pid, b.start);
      });
    }
    auto same_group = [&](const Iteration& a, const Iteration& b) {
      return a.pid == b.pid && (per_process || a.device == b.device);
    };
    Table t = EmptyOutliersTable();
    int64_t outliers = 0;
    size_t groups = 0;
    for (size_t first = 0; first < its.size(); ++groups) {
      size_t last = first;
      while (last < its.size() && same_group(its[last], its[first])) ++last;
      AddGroup(its, first, last, threshold, t, outliers);
      first = last;
    }
    for (auto& row : t.rows) row.push_back(S(res->confidence));
    t.notes = res->notes;
    t.notes.push_back(fmt::format(
        "{} iterations in {} {} groups (method: {}); {} with robust_z > {}. robust_z = (duration - median) / "
        "(1.4826 x MAD) within the group; when the MAD is 0 the mean absolute deviation x 1.2533 is the scale, and "
        "identical durations give 0.",
        its.size(), groups, per_process ? "process" : "(device, process)", res->method, outliers, threshold));
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeIterationOutliers() {
  return std::make_shared<IterationOutliersSkill>();
}

}  // namespace nsys::skills::builtin
