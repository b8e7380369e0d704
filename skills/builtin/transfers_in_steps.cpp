// transfers_in_steps: memcpys by direction, and how many of them run inside the training steps (found as the
// iterations skill finds them) rather than before or between them: host-to-device copies inside the step stall it
// unless they are pinned, asynchronous and overlapped.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_iterations.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

constexpr uint8_t kOperations = 14;  // copy kinds 0..13, as memory_transfers groups them
constexpr int32_t kAnyDevice = -1;

// The step intervals a copy is tested against, per (pid, device or kAnyDevice), sorted and disjoint.
struct Steps {
  std::string method;      // how they were found, for the notes
  bool by_launch = false;  // marker ranges are CPU time: place a copy by its launching call, as kernels are
  std::map<std::pair<uint32_t, int32_t>, std::vector<Interval>> of;

  bool Contains(uint32_t pid, int32_t device, Ns t) const {
    auto it = of.find({pid, by_launch ? kAnyDevice : device});
    if (it == of.end()) it = of.find({pid, kAnyDevice});
    if (it == of.end()) return false;
    const std::vector<Interval>& v = it->second;
    auto pos = std::upper_bound(v.begin(), v.end(), t, [](Ns x, const Interval& s) { return x < s.start; });
    return pos != v.begin() && t < std::prev(pos)->end;
  }
};

// Without iterations: each process's steps are one span, from its first kernel start to its last kernel end.
Steps KernelSpans(const engine::Profile& profile) {
  Steps steps;
  steps.method =
      "no iterations were found, so \"in step\" means between the process's first kernel start and last "
      "kernel end";
  const engine::KernelTable& k = profile.kernels();
  for (size_t i = 0; i < k.size(); ++i) {
    std::vector<Interval>& v = steps.of[{k.pid[i], kAnyDevice}];
    if (v.empty()) v.push_back({k.start[i], k.end[i]});
    v.front().end = std::max(v.front().end, k.end[i]);
  }
  return steps;
}

// The steps, or nullopt when the profile has no kernels (nothing can tell a step).
Expected<std::optional<Steps>> FindSteps(const Context& ctx) {
  if (!ctx.profile.info().caps.kernels) return std::optional<Steps>();
  auto res = DetectIterations(ctx, ArgString(ctx, "marker"));
  if (!res) return res.error();
  if (!res->found) return std::optional<Steps>(KernelSpans(ctx.profile));
  Steps steps;
  steps.by_launch = res->method != "kernel_period";
  steps.method =
      fmt::format("in step = inside an iteration found as the iterations skill does (method: {}){}", res->method,
                  steps.by_launch ? "; a copy counts by its launching API call's start, as kernels do "
                                    "(its own start when the call is not in the export)"
                                  : ", on the same device, by the copy's start");
  for (const Iteration& it : res->iterations) {
    steps.of[{it.pid, steps.by_launch ? kAnyDevice : it.device}].push_back({it.start, it.end});
  }
  for (auto& [key, v] : steps.of) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  }
  return std::optional<Steps>(std::move(steps));
}

struct OperationTotals {
  int64_t copies = 0, in_step = 0, pageable = 0;
  int64_t bytes = 0, in_step_bytes = 0;
  Ns total = 0, in_step_ns = 0;
};

// Sums the selected memcpys by copy kind. False when cancelled.
bool SumCopies(const Context& ctx, const std::optional<Steps>& steps, std::vector<OperationTotals>& out) {
  const engine::MemcpyTable& m = ctx.profile.memcpys();
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  out.assign(kOperations, {});
  auto [first, last] = RowRange(m, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
    if (!ctx.filter.AcceptsDevice(m.device[i]) || !ctx.filter.AcceptsProcess(m.pid[i])) continue;
    OperationTotals& o = out[m.copy_kind[i] < kOperations ? m.copy_kind[i] : 0];
    const Ns dur = m.end[i] - m.start[i];
    ++o.copies;
    o.bytes += m.bytes[i];
    o.total += dur;
    o.pageable += m.src_kind[i] == kPageable || m.dst_kind[i] == kPageable;
    if (!steps) continue;
    const Ns t = steps->by_launch && m.launch[i] >= 0 ? rt.start[static_cast<size_t>(m.launch[i])] : m.start[i];
    if (steps->Contains(m.pid[i], m.device[i], t)) {
      ++o.in_step;
      o.in_step_bytes += m.bytes[i];
      o.in_step_ns += dur;
    }
  }
  return true;
}

Table EmptyTransfersTable() {
  Table t;
  t.columns = {StringCol("operation", "Copy direction, as memory_transfers names it"),
               IntCol("copies", "Memcpys"),
               IntCol("bytes", "Σ bytes copied"),
               IntCol("total_ns", "Σ copy durations"),
               IntCol("in_step_copies", "Copies that start inside a step (null when the profile has no kernels)"),
               IntCol("in_step_ns", "Σ durations of those copies"),
               IntCol("pageable_copies", "Copies whose source or destination is pageable host memory"),
               IntCol("in_step_bytes", "Σ bytes of the copies inside a step")};
  return t;
}

class TransfersInStepsSkill final : public Skill {
 public:
  std::string name() const override { return "transfers_in_steps"; }
  std::string description() const override {
    return "Memcpys by direction: count, bytes, time, how many start inside a training step (iterations as the "
           "iterations skill finds them) and how many use pageable host memory.";
  }
  std::vector<ArgSpec> args() const override {
    return {{"marker",
             ValueType::kString,
             "Substring of the NVTX range (or mark) name that delimits one step; empty = detect iterations by kernel "
             "periodicity (as the iterations skill).",
             Value(std::string()),
             false,
             {}}};
  }
  engine::Need needs() const override {
    return engine::Need::kMemcpy | engine::Need::kKernels | engine::Need::kRuntime | engine::Need::kNvtx;
  }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.memcpy) {
      return Declined(
          "This profile has no memcpy data (no CUPTI_ACTIVITY_KIND_MEMCPY table): memory transfers were not traced.");
    }
    auto steps = FindSteps(ctx);
    if (!steps) return steps.error();
    std::vector<OperationTotals> ops;
    if (!SumCopies(ctx, *steps, ops)) return CancelledError();
    std::vector<uint8_t> order;
    for (uint8_t op = 0; op < kOperations; ++op) {
      if (ops[op].copies > 0) order.push_back(op);
    }
    std::stable_sort(order.begin(), order.end(), [&](uint8_t a, uint8_t b) { return ops[a].total > ops[b].total; });
    Table t = EmptyTransfersTable();
    const bool known = steps->has_value();
    for (uint8_t op : order) {
      const OperationTotals& o = ops[op];
      t.rows.push_back({S(MemcpyOperationName(op)), I(o.copies), I(o.bytes), I(o.total), known ? I(o.in_step) : Null(),
                        known ? I(o.in_step_ns) : Null(), I(o.pageable), known ? I(o.in_step_bytes) : Null()});
    }
    t.notes.push_back(known ? fmt::format("Memcpys by direction, most time first; {}.", (*steps)->method)
                            : "This profile has no kernels, so no step can be told: the in_step columns are null.");
    if (order.empty()) t.notes.push_back("No memcpys in the selection.");
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeTransfersInSteps() {
  return std::make_shared<TransfersInStepsSkill>();
}

}  // namespace nsys::skills::builtin
