#pragma once
// nsys/explainKernel {profileId, kernel}: what a kernel is and how it behaves in the profile, for editor
// hovers. Mirrors server/agent's explain.h (wire/explain.h converts); `markdown` is the server's rendering, so a hover
// shows it as it is. The MCP tool explain_kernel takes {profile_id, kernel} and returns the same result.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"

namespace nsys::protocol {

struct ExplainKernelParams {  // nsys/explainKernel
  std::string profile_id;     // "profileId"
  std::string kernel;         // a demangled name, a short name, or a unique part of a name
  bool operator==(const ExplainKernelParams&) const = default;
};

struct KernelIdentityInfo {
  std::string library;
  std::string category;
  std::string operation;
  std::string precision;
  std::string tile;
  std::string tensor_cores;  // "tensorCores": "yes" | "no" | "unknown"
  std::string summary;
  bool operator==(const KernelIdentityInfo&) const = default;
};

struct KernelDeviceInfo {
  int32_t device = 0;
  int64_t calls = 0;
  int64_t total_ns = 0;  // "totalNs"
  double share = 0;      // of the device's kernel time, 0..1
  int64_t p50_ns = 0;    // "p50Ns"
  int64_t p90_ns = 0;    // "p90Ns"
  bool operator==(const KernelDeviceInfo&) const = default;
};

struct KernelLaunchInfo {
  int64_t launched = 0;
  std::string api;
  int64_t api_p50_ns = 0;    // "apiP50Ns"
  int64_t queue_p50_ns = 0;  // "queueP50Ns"
  bool operator==(const KernelLaunchInfo&) const = default;
};

struct KernelConfigInfo {
  std::vector<int32_t> grid;         // [x, y, z]
  std::vector<int32_t> block;        // [x, y, z]
  int32_t registers_per_thread = 0;  // "registersPerThread"
  int32_t static_shared_bytes = 0;   // "staticSharedBytes"
  int32_t dynamic_shared_bytes = 0;  // "dynamicSharedBytes"
  int64_t calls = 0;
  bool operator==(const KernelConfigInfo&) const = default;
};

struct KernelOccupancyInfo {
  int32_t device = 0;
  std::string gpu;
  double occupancy = 0;
  int32_t blocks_per_sm = 0;    // "blocksPerSm"
  int32_t warps_per_block = 0;  // "warpsPerBlock"
  std::string limited_by;       // "limitedBy"
  int32_t sm_count = 0;         // "smCount"
  int64_t grid_blocks = 0;      // "gridBlocks"
  double waves = 0;
  bool operator==(const KernelOccupancyInfo&) const = default;
};

struct KernelNvtxInfo {
  std::string range;
  int64_t calls = 0;
  int64_t total_ns = 0;  // "totalNs"
  bool operator==(const KernelNvtxInfo&) const = default;
};

struct ExplainKernelResult {
  std::string kernel;
  std::string short_name;  // "shortName"
  std::string matched_by;  // "matchedBy": "name" | "short name" | "substring"
  std::vector<std::string> variants;
  KernelIdentityInfo identity;
  int64_t calls = 0;
  int64_t total_ns = 0;  // "totalNs"
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  std::vector<KernelDeviceInfo> devices;
  int64_t sampled_calls = 0;  // "sampledCalls": the executions launch and configs are read from
  std::optional<KernelLaunchInfo> launch;
  std::vector<KernelConfigInfo> configs;
  int64_t distinct_configs = 0;  // "distinctConfigs"
  std::optional<KernelOccupancyInfo> occupancy;
  std::string occupancy_note;  // "occupancyNote"
  std::vector<KernelNvtxInfo> nvtx;
  std::string nvtx_note;             // "nvtxNote"
  std::vector<std::string> look_at;  // "lookAt"
  std::string verify;
  std::string markdown;
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

struct ExplainKernelArgs {  // explain_kernel
  std::string profile_id;
  std::string kernel;
  static constexpr auto Fields() {
    return std::tuple{Arg("profile_id", &ExplainKernelArgs::profile_id), Arg("kernel", &ExplainKernelArgs::kernel)};
  }
  bool operator==(const ExplainKernelArgs&) const = default;
};
void FromJson(const Json& json, ExplainKernelArgs& out, const std::string& path);

}  // namespace mcp

}  // namespace nsys::protocol
