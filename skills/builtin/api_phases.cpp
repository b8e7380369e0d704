// api_phases: each process's CUDA API calls by name, split by when they ran against the process's GPU work:
// before its first GPU operation (start-up: context creation, module loading, the first allocations), inside its
// GPU span (first operation start to last end, over every device), or after it (teardown). A host cost that only
// shows in start-up is paid once; one inside the span is paid by the run the GPU measures.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_api_class.h"
#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

struct ProcessSpan {
  Ns first = 0, last = 0;
};

// Each process's GPU span over all its devices (kernels, memcpys and memsets with start > 0, in the window).
// False when cancelled.
bool ProcessSpans(const Context& ctx, std::map<uint32_t, ProcessSpan>& spans) {
  return ForEachGpuOpRow(ctx.profile, ctx.filter, GpuOpsOptions{.overhead = false}, ctx.cancel,
                         [&](const auto& t, size_t i) {
                           auto [it, added] = spans.try_emplace(t.pid[i], ProcessSpan{t.start[i], t.end[i]});
                           if (!added) it->second.last = std::max(it->second.last, t.end[i]);
                         });
}

enum Phase { kStartup, kSpan, kAfter, kPhaseCount };

struct PhaseCalls {
  uint32_t pid = 0;
  int32_t api = 0;
  std::array<int64_t, kPhaseCount> calls{};
  std::array<Ns, kPhaseCount> ns{};
  Ns span_max = 0;
};

Phase PhaseOf(Ns start, const ProcessSpan* span) {
  if (span == nullptr || start < span->first) return kStartup;
  return start < span->last ? kSpan : kAfter;
}

// The selected calls by (pid, API name), largest total first. False when cancelled.
bool CollectPhases(const Context& ctx, const std::map<uint32_t, ProcessSpan>& spans, ApiNameGroups& apis,
                   std::vector<PhaseCalls>& out) {
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  std::map<std::pair<uint32_t, int32_t>, size_t> index;
  auto [first, last] = RowRange(rt, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
    if (!ctx.filter.AcceptsProcess(rt.pid[i])) continue;
    const int32_t api = apis.IdOf(rt.name[i]);
    auto [it, added] = index.try_emplace({rt.pid[i], api}, out.size());
    if (added) out.push_back({rt.pid[i], api});
    PhaseCalls& c = out[it->second];
    const auto s = spans.find(rt.pid[i]);
    const Phase phase = PhaseOf(rt.start[i], s == spans.end() ? nullptr : &s->second);
    const Ns dur = std::max<Ns>(0, rt.end[i] - rt.start[i]);
    ++c.calls[phase];
    c.ns[phase] += dur;
    if (phase == kSpan) c.span_max = std::max(c.span_max, dur);
  }
  auto total = [](const PhaseCalls& c) { return c.ns[kStartup] + c.ns[kSpan] + c.ns[kAfter]; };
  std::sort(out.begin(), out.end(), [&](const PhaseCalls& a, const PhaseCalls& b) {
    return std::make_tuple(total(b), a.pid, a.api) < std::make_tuple(total(a), b.pid, b.api);
  });
  return true;
}

class ApiPhasesSkill final : public Skill {
 public:
  std::string name() const override { return "api_phases"; }
  std::string description() const override {
    return "CUDA API calls per process and name, split into start-up (before the process's first GPU operation), "
           "the GPU span, and after it: calls, time and the longest call inside the span.";
  }
  engine::Need needs() const override {
    return engine::Need::kRuntime | engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset;
  }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.runtime) {
      return Declined("This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table).");
    }
    std::map<uint32_t, ProcessSpan> spans;
    if (!ProcessSpans(ctx, spans)) return CancelledError();
    ApiNameGroups apis(ctx.profile.strings());
    std::vector<PhaseCalls> calls;
    if (!CollectPhases(ctx, spans, apis, calls)) return CancelledError();
    Table t;
    t.columns = {IntCol("pid", "Process id"),
                 StringCol("name", "CUDA API call (version suffix dropped)"),
                 IntCol("calls", "Calls in the selection"),
                 IntCol("total_time_ns", "Σ call durations"),
                 IntCol("startup_calls", "Calls that started before the process's first GPU operation"),
                 IntCol("startup_ns", "Σ durations of those calls"),
                 IntCol("span_calls", "Calls that started inside the process's GPU span"),
                 IntCol("span_ns", "Σ durations of those calls"),
                 IntCol("span_max_ns", "The longest of them"),
                 IntCol("after_calls", "Calls that started after the process's last GPU operation ended"),
                 IntCol("after_ns", "Σ durations of those calls"),
                 IntCol("gpu_span_ns", "The process's GPU span: first GPU operation start to last end (null: none)"),
                 StringCol("api_class",
                           "What the call does (sync, alloc, free, module, setup, launch, memcpy, memset; empty for "
                           "others), by NVIDIA's API reference")};
    for (const PhaseCalls& c : calls) {
      const auto s = spans.find(c.pid);
      t.rows.push_back({I(c.pid), S(std::string(apis.Text(c.api))), I(c.calls[0] + c.calls[1] + c.calls[2]),
                        I(c.ns[0] + c.ns[1] + c.ns[2]), I(c.calls[kStartup]), I(c.ns[kStartup]), I(c.calls[kSpan]),
                        I(c.ns[kSpan]), I(c.span_max), I(c.calls[kAfter]), I(c.ns[kAfter]),
                        s == spans.end() ? Null() : I(s->second.last - s->second.first),
                        S(std::string(ApiClassName(ApiClassOfName(apis.Text(c.api)))))});
    }
    t.notes.push_back(
        "A call's phase is where it started: before its process's first kernel, memcpy or memset (start-up), "
        "before that process's last one ended (the GPU span), or after. A process with no GPU operation in the "
        "window has every call in start-up. Rows by total_time_ns, largest first.");
    if (!ctx.filter.devices.empty()) {
      t.notes.push_back("API calls carry no device: the device filter only narrows the GPU spans.");
    }
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeApiPhases() {
  return std::make_shared<ApiPhasesSkill>();
}

}  // namespace nsys::skills::builtin
