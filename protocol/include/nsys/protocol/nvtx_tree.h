#pragma once
// nsys/nvtxTree {profileId, parent?, filter?}: one level of the profile's NVTX hierarchy, for editor tree
// views. Mirrors skills/nvtx_tree.h (wire/nvtx_tree.h converts).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct NvtxTreeParams {  // nsys/nvtxTree
  std::string profile_id;
  std::optional<std::string> parent;  // a node id from an earlier result; absent = the threads
  std::optional<Filter> filter;
  static constexpr auto WireFields() {
    using S = NvtxTreeParams;
    return std::tuple{Field("profileId", &S::profile_id), Field("parent", &S::parent), Field("filter", &S::filter)};
  }
  bool operator==(const NvtxTreeParams&) const = default;
};

struct NvtxTreeNode {
  std::string id;
  std::string kind;  // "thread" | "range" | "kernel"
  std::string name;
  std::string label;
  std::optional<int64_t> pid;
  std::optional<int64_t> tid;
  int64_t instances = 0;
  int64_t wall_ns = 0;
  int64_t gpu_ns = 0;
  int64_t kernel_count = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool has_children = false;
  static constexpr auto WireFields() {
    using S = NvtxTreeNode;
    return std::tuple{Field("id", &S::id),
                      Field("kind", &S::kind),
                      Field("name", &S::name),
                      Field("label", &S::label),
                      Field("pid", &S::pid),
                      Field("tid", &S::tid),
                      Field("instances", &S::instances),
                      Field("wallNs", &S::wall_ns),
                      Field("gpuNs", &S::gpu_ns),
                      Field("kernelCount", &S::kernel_count),
                      Field("startNs", &S::start_ns),
                      Field("endNs", &S::end_ns),
                      Field("hasChildren", &S::has_children)};
  }
  bool operator==(const NvtxTreeNode&) const = default;
};

struct NvtxTreeResult {
  std::vector<NvtxTreeNode> nodes;
  bool truncated = false;
  static constexpr auto WireFields() {
    using S = NvtxTreeResult;
    return std::tuple{Field("nodes", &S::nodes), Field("truncated", &S::truncated)};
  }
  bool operator==(const NvtxTreeResult&) const = default;
};

void FromJson(const Json& json, NvtxTreeParams& out, const std::string& path);
void to_json(Json& json, const NvtxTreeParams& value);
void FromJson(const Json& json, NvtxTreeNode& out, const std::string& path);
void to_json(Json& json, const NvtxTreeNode& value);
void FromJson(const Json& json, NvtxTreeResult& out, const std::string& path);
void to_json(Json& json, const NvtxTreeResult& value);

}  // namespace nsys::protocol
