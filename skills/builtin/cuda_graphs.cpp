// cuda_graphs: the CUDA graphs a profile replays, per process, device and graph, as nsys recorded them:
//   node   (--cuda-graph-trace=node): the kernels that carry the graph's id; a replay is their launch call (the
//          cudaGraphLaunch every kernel of one replay is correlated to), so the replays, kernels per replay, GPU time
//          per replay and the replay's span (first kernel start to last kernel end) are measured;
//   graph  (--cuda-graph-trace=graph, nsys's default): one execution row per launch (CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
//          the executions' time is measured, what ran inside them is not in the export.
// Either way the launch calls' host time is counted once per launch, not once per kernel.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/engine/model.h"
#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"

namespace nsys::skills::builtin {
namespace {

using GraphKey = std::tuple<uint32_t, int32_t, int64_t, bool>;  // (pid, device, graph id, node-level)

struct Replay {
  Ns first = 0, last = 0;
};

struct GraphStats {
  int64_t kernels = 0, unlaunched = 0;  // unlaunched: node-level kernels whose launch call the export lacks
  Ns gpu_ns = 0, launch_call_ns = 0;
  std::map<int32_t, Replay> replays;  // by launch call (runtime row)
};

// Step 1: node-level kernels, grouped by their graph and, within it, by the launch call of their replay.
void AddNodeKernels(const Context& ctx, std::map<GraphKey, GraphStats>& out) {
  const engine::KernelTable& k = ctx.profile.kernels();
  const auto [first, last] = RowRange(k, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    const uint32_t graph = k.Config(i).graph_id;
    if (graph == 0 || !ctx.filter.AcceptsDevice(k.device[i]) || !ctx.filter.AcceptsProcess(k.pid[i])) continue;
    GraphStats& g = out[{k.pid[i], k.device[i], graph, true}];
    ++g.kernels;
    g.gpu_ns += k.end[i] - k.start[i];
    if (k.launch[i] < 0) {
      ++g.unlaunched;
      continue;
    }
    auto [it, fresh] = g.replays.try_emplace(k.launch[i], Replay{k.start[i], k.end[i]});
    it->second.first = std::min(it->second.first, k.start[i]);
    it->second.last = std::max(it->second.last, k.end[i]);
  }
}

// Step 2: graph-level executions, one replay each (keyed by its row when the launch call is missing).
void AddExecutions(const Context& ctx, std::map<GraphKey, GraphStats>& out) {
  const engine::GraphTable& t = ctx.profile.graphs();
  const auto [first, last] = RowRange(t, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if (!ctx.filter.AcceptsDevice(t.device[i]) || !ctx.filter.AcceptsProcess(t.pid[i])) continue;
    GraphStats& g = out[{t.pid[i], t.device[i], t.graph_id[i], false}];
    g.gpu_ns += t.end[i] - t.start[i];
    const int32_t key = t.launch[i] >= 0 ? t.launch[i] : -1 - static_cast<int32_t>(i);
    g.replays[key] = Replay{t.start[i], t.end[i]};
  }
}

// Step 3: the launch calls' host time, once per launch.
void AddLaunchCalls(const engine::RuntimeTable& rt, std::map<GraphKey, GraphStats>& out) {
  for (auto& [key, g] : out) {
    for (const auto& [launch, replay] : g.replays) {
      if (launch >= 0) g.launch_call_ns += rt.end[static_cast<size_t>(launch)] - rt.start[static_cast<size_t>(launch)];
    }
  }
}

Table Render(const std::map<GraphKey, GraphStats>& graphs, const Context& ctx) {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               IntCol("graph_id", "The graph's id (CUPTI's graphId)"),
               StringCol("recorded", "node: its kernels are in the export; graph: one execution row per launch"),
               IntCol("launches", "Replays: the graph's launch calls (graph: its executions)"),
               IntCol("kernels", "node: the graph's kernels over every replay; null for graph-level records"),
               DoubleCol("kernels_per_launch", "node: kernels / launches"),
               IntCol("gpu_ns", "node: Σ kernel durations; graph: Σ execution durations"),
               DoubleCol("gpu_ns_per_launch", "gpu_ns / launches"),
               DoubleCol("span_ns_per_launch",
                         "The mean replay span: first kernel start to last kernel end (graph: the execution)"),
               IntCol("launch_call_ns", "Host time in the launch calls, once per launch")};
  bool any_graph_level = false;
  int64_t unlaunched = 0;
  for (const auto& [key, g] : graphs) {
    const auto& [pid, device, graph, node] = key;
    const auto launches = static_cast<int64_t>(g.replays.size());
    Ns spans = 0;
    for (const auto& [launch, r] : g.replays) spans += r.last - r.first;
    auto per = [&](double v) { return launches > 0 ? D(v / static_cast<double>(launches)) : Null(); };
    t.rows.push_back({I(pid), I(device), I(graph), S(node ? "node" : "graph"), I(launches),
                      node ? I(g.kernels) : Null(), node ? per(static_cast<double>(g.kernels)) : Null(), I(g.gpu_ns),
                      per(static_cast<double>(g.gpu_ns)), per(static_cast<double>(spans)), I(g.launch_call_ns)});
    any_graph_level = any_graph_level || !node;
    unlaunched += g.unlaunched;
  }
  t.notes.push_back(
      "CUDA graphs per process, device and graph. node: nsys recorded each kernel of the graph "
      "(--cuda-graph-trace=node) "
      "and a replay is the launch call its kernels are correlated to; graph: nsys recorded each launch as one "
      "execution (--cuda-graph-trace=graph, its default).");
  if (any_graph_level) {
    t.notes.push_back(
        "Graph-level records hold the executions' times only: which kernels ran inside, and their time, are not in "
        "the export. To see them, capture again with nsys profile --cuda-graph-trace=node.");
  }
  if (unlaunched > 0) {
    t.notes.push_back(fmt::format(
        "{} node-level kernels have no launch call in the export (cut from a longer capture): they count in kernels "
        "and gpu_ns, not in a replay.",
        unlaunched));
  }
  if (graphs.empty())
    t.notes.push_back("The profile records no CUDA graph (no graph execution, no kernel with a graph id).");
  t.notes.push_back(WindowNote(ctx.filter));
  return t;
}

class CudaGraphsSkill final : public Skill {
 public:
  std::string name() const override { return "cuda_graphs"; }
  std::string description() const override {
    return "The CUDA graphs a profile replays, per process, device and graph: launches, kernels per launch (node-level "
           "capture), GPU time and span per launch, and the launch calls' host time once per launch.";
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kKernelConfig | engine::Need::kRuntime | engine::Need::kGraphs;
  }
  Expected<Table> run(const Context& ctx) const override {
    std::map<GraphKey, GraphStats> graphs;
    AddNodeKernels(ctx, graphs);
    AddExecutions(ctx, graphs);
    AddLaunchCalls(ctx.profile.runtime(), graphs);
    return Render(graphs, ctx);
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeCudaGraphs() {
  return std::make_shared<CudaGraphsSkill>();
}

}  // namespace nsys::skills::builtin
