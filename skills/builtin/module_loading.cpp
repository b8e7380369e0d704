// module_loading: CUDA module and library loading, linking and runtime compilation calls per process, and how much
// of it happened after the process's GPU work had begun (JIT inside the run rather than at start-up).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/skills/stats.h"

namespace nsys::skills::builtin {
namespace {

// API name prefixes (after the "_vNNNN" suffix is dropped) that load or build GPU code. Queries such as
// cuModuleGetLoadingMode, cuModuleGetFunction or cuKernelGetAttribute only look code up and are left out.
constexpr const char* kLoadingPrefixes[] = {"cuModuleLoad",     // cuModuleLoad, ...Data, ...DataEx, ...FatBinary
                                            "cuLibraryLoad",    // CUDA 12 driver: ...Data, ...FromFile
                                            "cudaLibraryLoad",  // CUDA 12 runtime: ...Data, ...FromFile
                                            "cuLink",           // cuLinkCreate, cuLinkAddData/File, cuLinkComplete
                                            "nvrtc",            // runtime compilation, when its calls are traced
                                            "nvJitLink"};       // the JIT linker library

bool IsLoadingApi(std::string_view name) {
  return std::any_of(std::begin(kLoadingPrefixes), std::end(kLoadingPrefixes),
                     [&](const char* prefix) { return StartsWith(name, prefix); });
}

// The start of each process's first kernel (over the whole profile: the run begins there whatever the window).
std::map<uint32_t, Ns> FirstKernelStarts(const engine::Profile& profile) {
  std::map<uint32_t, Ns> first;
  if (!profile.info().caps.kernels) return first;
  const engine::KernelTable& k = profile.kernels();
  for (size_t i = 0; i < k.size(); ++i) first.try_emplace(k.pid[i], k.start[i]);  // start-sorted: the first wins
  return first;
}

struct LoadingCalls {
  uint32_t pid = 0;
  int32_t api = 0;
  int64_t calls = 0, calls_during_run = 0;
  Ns total = 0, max = 0, during_run = 0;
};

// The matching calls grouped by (pid, API name). False when cancelled.
bool CollectCalls(const Context& ctx, ApiNameGroups& apis, std::vector<LoadingCalls>& out) {
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  const std::map<uint32_t, Ns> first_kernel = FirstKernelStarts(ctx.profile);
  NameClassCache loading(ctx.profile.strings(),
                         [](std::string_view n) -> uint8_t { return IsLoadingApi(StripApiVersionSuffix(n)); });
  std::map<std::pair<uint32_t, int32_t>, size_t> index;
  auto [first, last] = RowRange(rt, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
    if (!ctx.filter.AcceptsProcess(rt.pid[i]) || !loading(rt.name[i])) continue;
    const int32_t api = apis.IdOf(rt.name[i]);
    auto [it, added] = index.try_emplace({rt.pid[i], api}, out.size());
    if (added) out.push_back({rt.pid[i], api});
    LoadingCalls& c = out[it->second];
    const Ns dur = rt.end[i] - rt.start[i];
    ++c.calls;
    c.total += dur;
    c.max = std::max(c.max, dur);
    auto fk = first_kernel.find(rt.pid[i]);
    if (fk != first_kernel.end() && rt.start[i] > fk->second) {
      ++c.calls_during_run;
      c.during_run += dur;
    }
  }
  std::sort(out.begin(), out.end(), [](const LoadingCalls& a, const LoadingCalls& b) {
    return std::tie(b.total, a.pid, a.api) < std::tie(a.total, b.pid, b.api);
  });
  return true;
}

Table EmptyModulesTable() {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               StringCol("api_name", "Loading, linking or compilation API (version suffix dropped)"),
               IntCol("calls", "Calls"),
               IntCol("total_ns", "Σ call durations"),
               IntCol("max_ns", "Longest call"),
               IntCol("calls_during_run", "Calls that started after the process's first kernel started"),
               IntCol("ns_during_run", "Σ durations of those calls")};
  return t;
}

std::string PrefixList() {
  std::string list;
  for (const char* p : kLoadingPrefixes) list += fmt::format("{}{}*", list.empty() ? "" : ", ", p);
  return list;
}

class ModuleLoadingSkill final : public Skill {
 public:
  std::string name() const override { return "module_loading"; }
  std::string description() const override {
    return "CUDA module/library loading, linking and runtime compilation calls per process, and how much of that "
           "time fell after the process's first kernel (JIT inside the run).";
  }
  engine::Need needs() const override { return engine::Need::kRuntime | engine::Need::kKernels; }

  Expected<Table> run(const Context& ctx) const override {
    if (!ctx.profile.info().caps.runtime) {
      return Declined(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table), so module loading and JIT "
          "compilation calls cannot be seen.");
    }
    ApiNameGroups apis(ctx.profile.strings());
    std::vector<LoadingCalls> calls;
    if (!CollectCalls(ctx, apis, calls)) return CancelledError();
    Table t = EmptyModulesTable();
    Ns during = 0;
    for (const LoadingCalls& c : calls) {
      t.rows.push_back({I(c.pid), S(std::string(apis.Text(c.api))), I(c.calls), I(c.total), I(c.max),
                        I(c.calls_during_run), I(c.during_run)});
      during += c.during_run;
    }
    t.notes.push_back(fmt::format(
        "Matched CUDA API names: {} (queries such as cuModuleGetLoadingMode, cuModuleGetFunction, cuKernelGetAttribute "
        "and cudaFuncGetAttributes are not loading and are left out). \"During run\" = the call started after the "
        "process's first kernel started. Rows by total_ns, largest first.",
        PrefixList()));
    t.notes.push_back(
        "With lazy loading (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2) a kernel's module may be loaded "
        "inside its first launch call, which then takes longer and is not listed here.");
    if (!ctx.profile.info().caps.kernels) {
      t.notes.push_back("This profile has no kernels, so no call counts as during the run.");
    }
    if (calls.empty()) {
      t.notes.push_back("No module loading, linking or compilation calls in the selection.");
    } else {
      t.notes.push_back(
          fmt::format("{} of loading time fell after the first kernel of its process.", FormatDuration(during)));
    }
    if (!ctx.filter.devices.empty()) {
      t.notes.push_back("API calls carry no device, so the device filter does not apply to them.");
    }
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeModuleLoading() {
  return std::make_shared<ModuleLoadingSkill>();
}

}  // namespace nsys::skills::builtin
