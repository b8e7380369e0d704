#include "nsys/wire/explain.h"

#include <string>

namespace nsys::wire {

namespace {

protocol::KernelIdentityInfo ToIdentity(const skills::KernelIdentity& id) {
  return {id.library,   id.category, id.operation,
          id.precision, id.tile,     std::string(skills::TensorCoreWord(id.tensor_cores)),
          id.summary};
}

protocol::KernelConfigInfo ToConfig(const agent::KernelLaunchConfig& c) {
  return {{c.grid.begin(), c.grid.end()}, {c.block.begin(), c.block.end()}, c.registers_per_thread,
          c.static_shared_bytes,          c.dynamic_shared_bytes,           c.calls};
}

}  // namespace

protocol::ExplainKernelResult ToExplainKernelResult(const agent::KernelExplanation& e) {
  protocol::ExplainKernelResult r;
  r.kernel = e.kernel;
  r.short_name = e.short_name;
  r.matched_by = e.matched_by;
  r.variants = e.variants;
  r.identity = ToIdentity(e.identity);
  r.calls = e.calls;
  r.total_ns = e.total_ns;
  r.p50_ns = e.p50_ns;
  r.p90_ns = e.p90_ns;
  r.min_ns = e.min_ns;
  r.max_ns = e.max_ns;
  for (const agent::KernelDeviceStats& d : e.devices) {
    r.devices.push_back({d.device, d.calls, d.total_ns, d.share, d.p50_ns, d.p90_ns});
  }
  r.sampled_calls = e.sampled_calls;
  if (e.launch)
    r.launch =
        protocol::KernelLaunchInfo{e.launch->launched, e.launch->api, e.launch->api_p50_ns, e.launch->queue_p50_ns};
  for (const agent::KernelLaunchConfig& c : e.configs) r.configs.push_back(ToConfig(c));
  r.distinct_configs = e.distinct_configs;
  if (e.occupancy) {
    const agent::KernelOccupancy& o = *e.occupancy;
    r.occupancy =
        protocol::KernelOccupancyInfo{o.device,     o.gpu,      o.occupancy,   o.blocks_per_sm, o.warps_per_block,
                                      o.limited_by, o.sm_count, o.grid_blocks, o.waves};
  }
  r.occupancy_note = e.occupancy_note;
  for (const agent::KernelNvtxRange& n : e.nvtx) r.nvtx.push_back({n.range, n.calls, n.total_ns});
  r.nvtx_note = e.nvtx_note;
  r.look_at = e.look_at;
  r.verify = e.verify;
  r.markdown = e.markdown;
  return r;
}

}  // namespace nsys::wire
