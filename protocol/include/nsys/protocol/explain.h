#pragma once
// nsys/explainKernel {profileId, kernel}: what a kernel is and how it behaves in the profile, for editor
// hovers. Mirrors server/agent's explain.h (wire/explain.h converts); `markdown` is the server's rendering, so a hover
// shows it as it is. The MCP tool explain_kernel takes {profile_id, kernel} and returns the same result.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct ExplainKernelParams {  // nsys/explainKernel
  std::string profile_id;
  std::string kernel;  // a demangled name, a short name, or a unique part of a name
  static constexpr auto WireFields() {
    using S = ExplainKernelParams;
    return std::tuple{Field("profileId", &S::profile_id), Field("kernel", &S::kernel)};
  }
  bool operator==(const ExplainKernelParams&) const = default;
};

struct KernelIdentityInfo {
  std::string library;
  std::string category;
  std::string operation;
  std::string precision;
  std::string tile;
  std::string tensor_cores;  // "yes" | "no" | "unknown"
  std::string summary;
  static constexpr auto WireFields() {
    using S = KernelIdentityInfo;
    return std::tuple{Field("library", &S::library),
                      Field("category", &S::category),
                      OptionalField("operation", &S::operation),
                      OptionalField("precision", &S::precision),
                      OptionalField("tile", &S::tile),
                      Field("tensorCores", &S::tensor_cores),
                      OptionalField("summary", &S::summary)};
  }
  bool operator==(const KernelIdentityInfo&) const = default;
};

struct KernelDeviceInfo {
  int32_t device = 0;
  int64_t calls = 0;
  int64_t total_ns = 0;
  double share = 0;  // of the device's kernel time, 0..1
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  static constexpr auto WireFields() {
    using S = KernelDeviceInfo;
    return std::tuple{Field("device", &S::device), Field("calls", &S::calls),  Field("totalNs", &S::total_ns),
                      Field("share", &S::share),   Field("p50Ns", &S::p50_ns), Field("p90Ns", &S::p90_ns)};
  }
  bool operator==(const KernelDeviceInfo&) const = default;
};

struct KernelLaunchInfo {
  int64_t launched = 0;
  std::string api;
  int64_t api_p50_ns = 0;
  int64_t queue_p50_ns = 0;
  static constexpr auto WireFields() {
    using S = KernelLaunchInfo;
    return std::tuple{Field("launched", &S::launched), OptionalField("api", &S::api), Field("apiP50Ns", &S::api_p50_ns),
                      Field("queueP50Ns", &S::queue_p50_ns)};
  }
  bool operator==(const KernelLaunchInfo&) const = default;
};

struct KernelConfigInfo {
  std::vector<int32_t> grid;   // [x, y, z]
  std::vector<int32_t> block;  // [x, y, z]
  int32_t registers_per_thread = 0;
  int32_t static_shared_bytes = 0;
  int32_t dynamic_shared_bytes = 0;
  int64_t calls = 0;
  static constexpr auto WireFields() {
    using S = KernelConfigInfo;
    return std::tuple{Field("grid", &S::grid),
                      Field("block", &S::block),
                      Field("registersPerThread", &S::registers_per_thread),
                      Field("staticSharedBytes", &S::static_shared_bytes),
                      Field("dynamicSharedBytes", &S::dynamic_shared_bytes),
                      Field("calls", &S::calls)};
  }
  bool operator==(const KernelConfigInfo&) const = default;
};

struct KernelOccupancyInfo {
  int32_t device = 0;
  std::string gpu;
  double occupancy = 0;
  int32_t blocks_per_sm = 0;
  int32_t warps_per_block = 0;
  std::string limited_by;
  int32_t sm_count = 0;
  int64_t grid_blocks = 0;
  double waves = 0;
  static constexpr auto WireFields() {
    using S = KernelOccupancyInfo;
    return std::tuple{Field("device", &S::device),
                      OptionalField("gpu", &S::gpu),
                      Field("occupancy", &S::occupancy),
                      Field("blocksPerSm", &S::blocks_per_sm),
                      Field("warpsPerBlock", &S::warps_per_block),
                      Field("limitedBy", &S::limited_by),
                      Field("smCount", &S::sm_count),
                      Field("gridBlocks", &S::grid_blocks),
                      Field("waves", &S::waves)};
  }
  bool operator==(const KernelOccupancyInfo&) const = default;
};

struct KernelNvtxInfo {
  std::string range;
  int64_t calls = 0;
  int64_t total_ns = 0;
  static constexpr auto WireFields() {
    using S = KernelNvtxInfo;
    return std::tuple{Field("range", &S::range), Field("calls", &S::calls), Field("totalNs", &S::total_ns)};
  }
  bool operator==(const KernelNvtxInfo&) const = default;
};

struct ExplainKernelResult {
  std::string kernel;
  std::string short_name;
  std::string matched_by;  // "name" | "short name" | "substring"
  std::vector<std::string> variants;
  KernelIdentityInfo identity;
  int64_t calls = 0;
  int64_t total_ns = 0;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  std::vector<KernelDeviceInfo> devices;
  int64_t sampled_calls = 0;  // the executions launch and configs are read from
  std::optional<KernelLaunchInfo> launch;
  std::vector<KernelConfigInfo> configs;
  int64_t distinct_configs = 0;
  std::optional<KernelOccupancyInfo> occupancy;
  std::string occupancy_note;
  std::vector<KernelNvtxInfo> nvtx;
  std::string nvtx_note;
  std::vector<std::string> look_at;
  std::string verify;
  std::string markdown;
  static constexpr auto WireFields() {
    using S = ExplainKernelResult;
    return std::tuple{Field("kernel", &S::kernel),
                      OptionalField("shortName", &S::short_name),
                      Field("matchedBy", &S::matched_by),
                      OptionalField("variants", &S::variants),
                      Field("identity", &S::identity),
                      Field("calls", &S::calls),
                      Field("totalNs", &S::total_ns),
                      Field("p50Ns", &S::p50_ns),
                      Field("p90Ns", &S::p90_ns),
                      Field("minNs", &S::min_ns),
                      Field("maxNs", &S::max_ns),
                      Field("devices", &S::devices),
                      OptionalField("sampledCalls", &S::sampled_calls),
                      Field("launch", &S::launch),
                      OptionalField("configs", &S::configs),
                      OptionalField("distinctConfigs", &S::distinct_configs),
                      Field("occupancy", &S::occupancy),
                      OptionalField("occupancyNote", &S::occupancy_note),
                      OptionalField("nvtx", &S::nvtx),
                      OptionalField("nvtxNote", &S::nvtx_note),
                      OptionalField("lookAt", &S::look_at),
                      OptionalField("verify", &S::verify),
                      Field("markdown", &S::markdown)};
  }
  bool operator==(const ExplainKernelResult&) const = default;
};

#define NSYS_EXPLAIN_CONVERSIONS(Type)                                 \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_EXPLAIN_CONVERSIONS(ExplainKernelParams)
NSYS_EXPLAIN_CONVERSIONS(KernelIdentityInfo)
NSYS_EXPLAIN_CONVERSIONS(KernelDeviceInfo)
NSYS_EXPLAIN_CONVERSIONS(KernelLaunchInfo)
NSYS_EXPLAIN_CONVERSIONS(KernelConfigInfo)
NSYS_EXPLAIN_CONVERSIONS(KernelOccupancyInfo)
NSYS_EXPLAIN_CONVERSIONS(KernelNvtxInfo)
NSYS_EXPLAIN_CONVERSIONS(ExplainKernelResult)
#undef NSYS_EXPLAIN_CONVERSIONS

namespace mcp {

struct ExplainKernelArgs : ExplainKernelParams {  // explain_kernel: nsys/explainKernel's params
  static constexpr auto Fields() { return ParamsArgs<ExplainKernelParams>(); }
  bool operator==(const ExplainKernelArgs&) const = default;
};
void FromJson(const Json& json, ExplainKernelArgs& out, const std::string& path);

}  // namespace mcp

}  // namespace nsys::protocol
