// iterations: training iterations by an NVTX marker name, or by kernel periodicity; per-iteration timing.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "common_gpu_ops.h"
#include "common_iterations.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

class IterationsSkill final : public Skill {
 public:
  std::string name() const override { return "iterations"; }
  std::string description() const override {
    return "Training iterations found by an NVTX range/mark name or by kernel periodicity, with per-iteration "
           "duration, kernel count and GPU busy time.";
  }
  std::vector<ArgSpec> args() const override {
    return {{"marker",
             ValueType::kString,
             "Substring of the NVTX range (or mark) name that delimits one iteration, e.g. \"ProfilerStep\" or "
             "\"train_step\"; empty = detect by kernel periodicity.",
             Value(std::string()),
             false,
             {}}};
  }
  engine::Need needs() const override { return engine::Need::kKernels | engine::Need::kRuntime | engine::Need::kNvtx; }

  Expected<Table> run(const Context& ctx) const override {
    const std::string marker = ArgString(ctx, "marker");
    auto res = DetectIterations(ctx, marker);
    if (!res) return res.error();
    if (!res->found) return Declined(res->decline_reason);

    Table t;
    t.columns = {IntCol("device_id",
                        "GPU device (kernel periodicity), or the only device the iteration's kernels ran "
                        "on (marker); null when several"),
                 IntCol("pid", "Process id"),
                 IntCol("iteration", "0-based index within (device, pid)"),
                 IntCol("start_ns", "Iteration start (capture clock)"),
                 DoubleCol("start_s", "Iteration start in seconds from the profile start"),
                 IntCol("duration_ns", "Iteration length"),
                 IntCol("kernels", "Kernels in the iteration"),
                 IntCol("gpu_busy_ns", "Union of those kernels' execution"),
                 DoubleCol("gpu_busy_pct", "gpu_busy_ns / duration_ns x 100"),
                 IntCol("gpu_span_ns", "First kernel start to last kernel end"),
                 IntCol("kernel_ns",
                        "Sum of those kernels' durations (overlapping kernels each count): the iteration's GPU work"),
                 StringCol("confidence", kConfidenceDoc)};
    const Ns origin = ctx.profile.info().start_ns;
    std::vector<Ns> durations;
    for (const Iteration& it : res->iterations) {
      const Ns dur = it.end - it.start;
      durations.push_back(dur);
      t.rows.push_back({it.device >= 0 ? I(it.device) : Null(), I(it.pid), I(it.index), I(it.start),
                        D(static_cast<double>(it.start - origin) / 1e9), I(dur), I(it.kernels), I(it.gpu_busy),
                        dur > 0 ? D(100.0 * static_cast<double>(it.gpu_busy) / static_cast<double>(dur)) : Null(),
                        I(it.gpu_end - it.gpu_start), I(it.kernel_ns), S(res->confidence)});
    }
    t.notes = res->notes;
    std::sort(durations.begin(), durations.end());
    t.notes.push_back(fmt::format("{} iterations (method: {}); duration min {}, median {}, max {}.",
                                  res->iterations.size(), res->method, FormatDuration(durations.front()),
                                  FormatDuration(MedianIterationNs(res->iterations)),
                                  FormatDuration(durations.back())));
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeIterations() {
  return std::make_shared<IterationsSkill>();
}

}  // namespace nsys::skills::builtin
