// ExplainKernel of a CUDA graph ("CUDA graph 7", as the timeline names a graph's launch): its launches as nsys
// recorded them, each figure a cell of a skill row. event_stats (events=graphs) gives the launches' count and
// durations, per device and per NVTX range around the launch call; cuda_graphs how the graph was recorded, its kernels
// per replay and the launch calls' host time. Step by step: match, times, devices, what was recorded, NVTX, what to
// look at.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "ask_internal.h"
#include "explain_internal.h"
#include "nsys/agent/answer.h"
#include "nsys/agent/explain.h"

namespace nsys::agent {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace explain_graph {

using skills::Table;

using ask_detail::CellNumber;
using ask_detail::CellText;

// A cell as an integer, 0 when absent (a null or a missing column).
int64_t Int(const Table& t, size_t row, std::string_view column) {
  const double v = CellNumber(t, row, column);
  return std::isnan(v) ? 0 : static_cast<int64_t>(std::llround(v));
}

Expected<Table> Run(const SkillRunner& run, const std::string& skill, skills::Args args, const CancelToken& cancel,
                    engine::FilterSpec filter = {}) {
  auto t = run(skill, args, filter, cancel);
  if (!t) return t.error();
  if (t->declined) return MakeError(ErrorKind::kUnsupported, t->notes.empty() ? "declined" : t->notes.front());
  return t;
}

skills::Args LaunchesOf(const std::string& graph) {
  return {{"events", Value(std::string("graphs"))}, {"name", Value(graph)}};
}

using explain_text::Duration;
using explain_text::Pct;

// Step 1: the launches' count and durations; kNotFound naming the graphs the profile has when it has not this one.
Status FillTimes(const SkillRunner& run, const std::string& graph, const CancelToken& cancel, KernelExplanation& e) {
  auto all = Run(run, "event_stats", LaunchesOf(graph), cancel);
  if (!all) return all.error();
  if (all->rows.empty() || Int(*all, 0, "count") == 0) {
    std::vector<std::string> names;
    if (auto each = Run(run, "event_stats",
                        {{"events", Value(std::string("graphs"))}, {"group_by", Value(std::string("name"))}}, cancel)) {
      for (size_t r = 0; r < each->rows.size() && names.size() < 5; ++r) names.push_back(CellText(*each, r, "group"));
    }
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return MakeError(ErrorKind::kNotFound, fmt::format("no {} in this profile; its graphs: {}", graph, list));
  }
  e.calls = Int(*all, 0, "count");
  e.total_ns = Int(*all, 0, "total_ns");
  e.p50_ns = Int(*all, 0, "med_ns");
  e.p90_ns = Int(*all, 0, "p90_ns");
  e.min_ns = Int(*all, 0, "min_ns");
  e.max_ns = Int(*all, 0, "max_ns");
  e.sampled_calls = e.calls;
  return {};
}

// Step 2: per device, with the share of that device's GPU work.
void FillDevices(const SkillRunner& run, const std::string& graph, const CancelToken& cancel, KernelExplanation& e) {
  skills::Args args = LaunchesOf(graph);
  args["group_by"] = Value(std::string("device"));
  auto by_device = Run(run, "event_stats", args, cancel);
  if (!by_device) return;
  for (size_t r = 0; r < by_device->rows.size(); ++r) {
    const std::string group = CellText(*by_device, r, "group");  // "device N"
    const auto device =
        static_cast<int32_t>(std::strtol(group.c_str() + std::min<size_t>(7, group.size()), nullptr, 10));
    KernelDeviceStats d{device, Int(*by_device, r, "count"),  Int(*by_device, r, "total_ns"),
                        0,      Int(*by_device, r, "med_ns"), Int(*by_device, r, "p90_ns")};
    skills::Args share = LaunchesOf(graph);
    share["gpu_share"] = Value(true);
    share["detail"] = Value(false);
    engine::FilterSpec on_device;
    on_device.devices = {device};
    if (auto s = Run(run, "event_stats", share, cancel, on_device); s && !s->rows.empty()) {
      const double pct = CellNumber(*s, 0, "gpu_share_pct");
      if (!std::isnan(pct)) d.share = pct / 100.0;
    }
    e.devices.push_back(d);
  }
}

// Step 3: how nsys recorded the graph, its kernels per replay and the launch calls' host time (cuda_graphs).
void FillRecording(const SkillRunner& run, int64_t graph_id, const CancelToken& cancel, KernelExplanation& e) {
  auto graphs = Run(run, "cuda_graphs", {}, cancel);
  if (!graphs) return;
  int64_t launches = 0, launch_call_ns = 0, kernels = 0;
  bool node = false, whole = false;
  for (size_t r = 0; r < graphs->rows.size(); ++r) {
    if (Int(*graphs, r, "graph_id") != graph_id) continue;
    launches += Int(*graphs, r, "launches");
    launch_call_ns += Int(*graphs, r, "launch_call_ns");
    const bool is_node = CellText(*graphs, r, "recorded") == "node";
    kernels += is_node ? Int(*graphs, r, "kernels") : 0;
    node = node || is_node;
    whole = whole || !is_node;
  }
  e.identity.library = "CUDA";
  e.identity.category = "graph";
  e.identity.operation = "replay";
  e.identity.summary = node ? fmt::format("A CUDA graph recorded node by node: {:.1f} kernels per replay",
                                          launches > 0 ? static_cast<double>(kernels) / launches : 0.0)
                            : "A CUDA graph recorded whole: one execution per launch, its kernels not in the export";
  if (launches > 0) {
    e.launch_note = fmt::format("{} launches; {} of host time in the launch calls (cudaGraphLaunch) the export holds",
                                launches, Duration(launch_call_ns));
  }
  if (whole) {
    e.look_at.push_back(
        "nsys recorded this graph's launches whole (--cuda-graph-trace=graph, its default): which kernels ran inside, "
        "and for how long, is not in the export. Capture again with nsys profile --cuda-graph-trace=node to see "
        "them.");
  }
}

// Step 4: the NVTX ranges around the launch calls.
void FillRanges(const SkillRunner& run, const std::string& graph, const CancelToken& cancel, KernelExplanation& e) {
  skills::Args args = LaunchesOf(graph);
  args["group_by"] = Value(std::string("range"));
  args["detail"] = Value(false);
  auto ranges = Run(run, "event_stats", args, cancel);
  if (!ranges) {
    e.nvtx_note = "No NVTX attribution: " + ranges.error().message;
    return;
  }
  int64_t outside = 0;
  for (size_t r = 0; r < ranges->rows.size(); ++r) {
    const std::string range = CellText(*ranges, r, "group");
    if (range == "(no NVTX range)") {
      outside += Int(*ranges, r, "count");
    } else if (e.nvtx.size() < 5) {
      e.nvtx.push_back({range, Int(*ranges, r, "count"), Int(*ranges, r, "total_ns")});
    }
  }
  e.nvtx_note = "The innermost NVTX range around each launch's cudaGraphLaunch call.";
  if (outside > 0) e.nvtx_note += fmt::format(" {} launch(es) were outside any range.", outside);
}

// Step 5: what the figures say.
void FillGraphLookAt(KernelExplanation& e) {
  if (e.p50_ns > 0 && e.p90_ns > 2 * e.p50_ns) {
    e.look_at.push_back(fmt::format(
        "p90 ({}) is over twice the median ({}): replays differ (inputs, contention, or waiting); compare the slow "
        "ones with the fast ones.",
        Duration(e.p90_ns), Duration(e.p50_ns)));
  }
  double top_share = 0;
  for (const KernelDeviceStats& d : e.devices) top_share = std::max(top_share, d.share);
  if (top_share >= 0.3) e.look_at.push_back(fmt::format("It holds {} of a device's GPU work.", Pct(top_share)));
  if (e.look_at.empty()) e.look_at.push_back("Nothing stands out for this graph in this profile.");
}

}  // namespace explain_graph

std::optional<int64_t> GraphIdOf(std::string_view text) {
  std::string lower;
  for (char c : text) {
    if (c != '[' && c != ']') lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (std::string_view prefix : {"cuda graph ", "graph "}) {
    if (lower.rfind(prefix, 0) != 0) continue;
    const std::string_view id = std::string_view(lower).substr(prefix.size());
    int64_t value = 0;
    const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value);
    // Digits only, and within int64 (a longer id is no graph's: from_chars says so, it never throws).
    if (id.empty() || error != std::errc() || end != id.data() + id.size() || value < 0) return std::nullopt;
    return value;
  }
  return std::nullopt;
}

Expected<KernelExplanation> ExplainGraph(const SkillRunner& run, int64_t graph_id, const CancelToken& cancel,
                                         const std::string& profile_path) {
  using namespace explain_graph;  // this file's own helpers
  KernelExplanation e;
  const std::string graph = fmt::format("CUDA graph {}", graph_id);
  e.kernel = e.short_name = graph;
  e.matched_by = "graph id";
  e.variants = {graph};
  if (Status s = FillTimes(run, graph, cancel, e); !s.ok()) return s.error();
  FillDevices(run, graph, cancel, e);
  FillRecording(run, graph_id, cancel, e);
  FillRanges(run, graph, cancel, e);
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  FillGraphLookAt(e);
  if (!profile_path.empty()) e.verify = VerifyCommand(SkillCall{"cuda_graphs", {}, {}}, profile_path);
  e.markdown = RenderExplanationMarkdown(e);
  return e;
}

}  // namespace nsys::agent
