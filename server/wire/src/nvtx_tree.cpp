#include "nsys/wire/nvtx_tree.h"

#include <string>
#include <utility>

#include "nsys/wire/skill_args.h"

namespace nsys::wire {

Expected<core::NvtxTreeRequest> ToNvtxTreeRequest(const protocol::NvtxTreeParams& params) {
  core::NvtxTreeRequest request;
  request.profile_id = params.profile_id;
  request.parent = params.parent.value_or("");
  if (params.filter) {
    auto spec = ToFilterSpec(*params.filter);
    if (!spec) return spec.error();
    request.filter = std::move(*spec);
  }
  return request;
}

protocol::NvtxTreeResult ToNvtxTreeResult(const skills::NvtxTreeLevel& level) {
  protocol::NvtxTreeResult result;
  result.truncated = level.truncated;
  result.nodes.reserve(level.nodes.size());
  for (const skills::NvtxTreeNode& n : level.nodes) {
    protocol::NvtxTreeNode node;
    node.id = n.id;
    node.kind = std::string(skills::NvtxTreeNodeKindName(n.kind));
    node.name = n.name;
    node.label = n.label;
    node.pid = n.pid;
    node.tid = n.tid;
    node.instances = n.instances;
    node.wall_ns = n.wall_ns;
    node.gpu_ns = n.gpu_ns;
    node.kernel_count = n.kernel_count;
    node.start_ns = n.start_ns;
    node.end_ns = n.end_ns;
    node.has_children = n.has_children;
    result.nodes.push_back(std::move(node));
  }
  return result;
}

}  // namespace nsys::wire
