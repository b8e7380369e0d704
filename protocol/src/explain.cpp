#include "nsys/protocol/explain.h"

#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, ExplainKernelParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Required("kernel", out.kernel);
}
void to_json(Json& j, const ExplainKernelParams& v) {
  j = {{"profileId", v.profile_id}, {"kernel", v.kernel}};
}

void FromJson(const Json& j, KernelIdentityInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("library", out.library);
  r.Required("category", out.category);
  r.OptionalOr("operation", out.operation);
  r.OptionalOr("precision", out.precision);
  r.OptionalOr("tile", out.tile);
  r.Required("tensorCores", out.tensor_cores);
  r.OptionalOr("summary", out.summary);
}
void to_json(Json& j, const KernelIdentityInfo& v) {
  j = {{"library", v.library}, {"category", v.category},        {"operation", v.operation}, {"precision", v.precision},
       {"tile", v.tile},       {"tensorCores", v.tensor_cores}, {"summary", v.summary}};
}

void FromJson(const Json& j, KernelDeviceInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("device", out.device);
  r.Required("calls", out.calls);
  r.Required("totalNs", out.total_ns);
  r.Required("share", out.share);
  r.Required("p50Ns", out.p50_ns);
  r.Required("p90Ns", out.p90_ns);
}
void to_json(Json& j, const KernelDeviceInfo& v) {
  j = {{"device", v.device}, {"calls", v.calls},  {"totalNs", v.total_ns},
       {"share", v.share},   {"p50Ns", v.p50_ns}, {"p90Ns", v.p90_ns}};
}

void FromJson(const Json& j, KernelLaunchInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("launched", out.launched);
  r.OptionalOr("api", out.api);
  r.Required("apiP50Ns", out.api_p50_ns);
  r.Required("queueP50Ns", out.queue_p50_ns);
}
void to_json(Json& j, const KernelLaunchInfo& v) {
  j = {{"launched", v.launched}, {"api", v.api}, {"apiP50Ns", v.api_p50_ns}, {"queueP50Ns", v.queue_p50_ns}};
}

void FromJson(const Json& j, KernelConfigInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("grid", out.grid);
  r.Required("block", out.block);
  r.Required("registersPerThread", out.registers_per_thread);
  r.Required("staticSharedBytes", out.static_shared_bytes);
  r.Required("dynamicSharedBytes", out.dynamic_shared_bytes);
  r.Required("calls", out.calls);
}
void to_json(Json& j, const KernelConfigInfo& v) {
  j = {{"grid", v.grid},
       {"block", v.block},
       {"registersPerThread", v.registers_per_thread},
       {"staticSharedBytes", v.static_shared_bytes},
       {"dynamicSharedBytes", v.dynamic_shared_bytes},
       {"calls", v.calls}};
}

void FromJson(const Json& j, KernelOccupancyInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("device", out.device);
  r.OptionalOr("gpu", out.gpu);
  r.Required("occupancy", out.occupancy);
  r.Required("blocksPerSm", out.blocks_per_sm);
  r.Required("warpsPerBlock", out.warps_per_block);
  r.Required("limitedBy", out.limited_by);
  r.Required("smCount", out.sm_count);
  r.Required("gridBlocks", out.grid_blocks);
  r.Required("waves", out.waves);
}
void to_json(Json& j, const KernelOccupancyInfo& v) {
  j = {{"device", v.device},
       {"gpu", v.gpu},
       {"occupancy", v.occupancy},
       {"blocksPerSm", v.blocks_per_sm},
       {"warpsPerBlock", v.warps_per_block},
       {"limitedBy", v.limited_by},
       {"smCount", v.sm_count},
       {"gridBlocks", v.grid_blocks},
       {"waves", v.waves}};
}

void FromJson(const Json& j, KernelNvtxInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("range", out.range);
  r.Required("calls", out.calls);
  r.Required("totalNs", out.total_ns);
}
void to_json(Json& j, const KernelNvtxInfo& v) {
  j = {{"range", v.range}, {"calls", v.calls}, {"totalNs", v.total_ns}};
}

void FromJson(const Json& j, ExplainKernelResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("kernel", out.kernel);
  r.OptionalOr("shortName", out.short_name);
  r.Required("matchedBy", out.matched_by);
  r.OptionalOr("variants", out.variants);
  r.Required("identity", out.identity);
  r.Required("calls", out.calls);
  r.Required("totalNs", out.total_ns);
  r.Required("p50Ns", out.p50_ns);
  r.Required("p90Ns", out.p90_ns);
  r.Required("minNs", out.min_ns);
  r.Required("maxNs", out.max_ns);
  r.Required("devices", out.devices);
  r.OptionalOr("sampledCalls", out.sampled_calls);
  r.Optional("launch", out.launch);
  r.OptionalOr("configs", out.configs);
  r.OptionalOr("distinctConfigs", out.distinct_configs);
  r.Optional("occupancy", out.occupancy);
  r.OptionalOr("occupancyNote", out.occupancy_note);
  r.OptionalOr("nvtx", out.nvtx);
  r.OptionalOr("nvtxNote", out.nvtx_note);
  r.OptionalOr("lookAt", out.look_at);
  r.OptionalOr("verify", out.verify);
  r.Required("markdown", out.markdown);
}
void to_json(Json& j, const ExplainKernelResult& v) {
  j = {{"kernel", v.kernel},
       {"shortName", v.short_name},
       {"matchedBy", v.matched_by},
       {"variants", v.variants},
       {"identity", v.identity},
       {"calls", v.calls},
       {"totalNs", v.total_ns},
       {"p50Ns", v.p50_ns},
       {"p90Ns", v.p90_ns},
       {"minNs", v.min_ns},
       {"maxNs", v.max_ns},
       {"devices", v.devices},
       {"sampledCalls", v.sampled_calls},
       {"configs", v.configs},
       {"distinctConfigs", v.distinct_configs},
       {"occupancyNote", v.occupancy_note},
       {"nvtx", v.nvtx},
       {"nvtxNote", v.nvtx_note},
       {"lookAt", v.look_at},
       {"verify", v.verify},
       {"markdown", v.markdown}};
  SetIfPresent(j, "launch", v.launch);
  SetIfPresent(j, "occupancy", v.occupancy);
}

}  // namespace nsys::protocol
