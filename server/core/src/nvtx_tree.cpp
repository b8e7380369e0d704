// Workspace::NvtxTree: the attribution tables loaded, the filter resolved, then one level of skills::NvtxTreeChildren.
#include "nsys/skills/nvtx_tree.h"

#include "nsys/core/workspace.h"

namespace nsys::core {

Expected<skills::NvtxTreeLevel> Workspace::NvtxTree(const NvtxTreeRequest& request, const CancelToken& cancel,
                                                    const ProgressSink& progress) {
  auto profile = Get(request.profile_id);
  if (!profile) return profile.error();
  if (Status loaded = (*profile)->Require(engine::Need::kAttribution, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  auto filter = engine::ResolveFilter((*profile)->info(), request.filter);
  if (!filter) return filter.error();
  return skills::NvtxTreeChildren(**profile, request.parent, *filter, cancel);
}

}  // namespace nsys::core
