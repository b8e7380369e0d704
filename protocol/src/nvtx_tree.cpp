#include "nsys/protocol/nvtx_tree.h"

#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, NvtxTreeParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Optional("parent", out.parent);
  r.Optional("filter", out.filter);
}
void to_json(Json& j, const NvtxTreeParams& v) {
  j = {{"profileId", v.profile_id}};
  SetIfPresent(j, "parent", v.parent);
  SetIfPresent(j, "filter", v.filter);
}

void FromJson(const Json& j, NvtxTreeNode& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("id", out.id);
  r.Required("kind", out.kind);
  r.Required("name", out.name);
  r.Required("label", out.label);
  r.Optional("pid", out.pid);
  r.Optional("tid", out.tid);
  r.Required("instances", out.instances);
  r.Required("wallNs", out.wall_ns);
  r.Required("gpuNs", out.gpu_ns);
  r.Required("kernelCount", out.kernel_count);
  r.Required("startNs", out.start_ns);
  r.Required("endNs", out.end_ns);
  r.Required("hasChildren", out.has_children);
}
void to_json(Json& j, const NvtxTreeNode& v) {
  j = {{"id", v.id},
       {"kind", v.kind},
       {"name", v.name},
       {"label", v.label},
       {"instances", v.instances},
       {"wallNs", v.wall_ns},
       {"gpuNs", v.gpu_ns},
       {"kernelCount", v.kernel_count},
       {"startNs", v.start_ns},
       {"endNs", v.end_ns},
       {"hasChildren", v.has_children}};
  SetIfPresent(j, "pid", v.pid);
  SetIfPresent(j, "tid", v.tid);
}

void FromJson(const Json& j, NvtxTreeResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("nodes", out.nodes);
  r.Required("truncated", out.truncated);
}
void to_json(Json& j, const NvtxTreeResult& v) {
  j = {{"nodes", v.nodes}, {"truncated", v.truncated}};
}

}  // namespace nsys::protocol
