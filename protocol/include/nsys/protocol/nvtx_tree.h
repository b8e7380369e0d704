#pragma once
// nsys/nvtxTree {profileId, parent?, filter?}: one level of the profile's NVTX hierarchy, for editor tree
// views. Mirrors skills/nvtx_tree.h (wire/nvtx_tree.h converts).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/methods.h"

namespace nsys::protocol {

struct NvtxTreeParams {               // nsys/nvtxTree
  std::string profile_id;             // "profileId"
  std::optional<std::string> parent;  // a node id from an earlier result; absent = the threads
  std::optional<Filter> filter;
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
  int64_t wall_ns = 0;        // "wallNs"
  int64_t gpu_ns = 0;         // "gpuNs"
  int64_t kernel_count = 0;   // "kernelCount"
  int64_t start_ns = 0;       // "startNs"
  int64_t end_ns = 0;         // "endNs"
  bool has_children = false;  // "hasChildren"
  bool operator==(const NvtxTreeNode&) const = default;
};

struct NvtxTreeResult {
  std::vector<NvtxTreeNode> nodes;
  bool truncated = false;
  bool operator==(const NvtxTreeResult&) const = default;
};

void FromJson(const Json& json, NvtxTreeParams& out, const std::string& path);
void to_json(Json& json, const NvtxTreeParams& value);
void FromJson(const Json& json, NvtxTreeNode& out, const std::string& path);
void to_json(Json& json, const NvtxTreeNode& value);
void FromJson(const Json& json, NvtxTreeResult& out, const std::string& path);
void to_json(Json& json, const NvtxTreeResult& value);

}  // namespace nsys::protocol
