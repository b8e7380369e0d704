// Workspace::NvtxTree: the attribution tables loaded, the filter resolved, then one level of the profile's tree
// (skills::NvtxTree), built once per profile and filter and kept in its entry: an expansion on a 2 GB export
// took 270-360 ms rebuilding the tree each time; read from the kept tree it is a lookup.
#include "nsys/skills/nvtx_tree.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

#include "nsys/core/workspace.h"
#include "stores.h"

namespace nsys::core {
namespace {

// Trees kept per profile: the whole profile's and a few windows or filters an editor switched between.
constexpr size_t kNvtxTreesKept = 4;

// What a tree depends on besides the profile: every field of the resolved filter.
std::string TreeKeyOf(const engine::Filter& f) {
  return fmt::format("{}:{}:{}|{}|{}|{}", f.window.whole, f.window.begin, f.window.end, fmt::join(f.devices, ","),
                     fmt::join(f.processes, ","), fmt::join(f.threads, ","));
}

}  // namespace

namespace nvtx_tree_features {

// The kept tree of `filter` (moved to the front), or one built and kept; one build per (profile, filter), a
// concurrent request for the same profile waits for it and shares it.
Expected<std::shared_ptr<const skills::NvtxTree>> TreeOf(LoadedProfile& entry, const engine::Filter& filter,
                                                         const CancelToken& cancel) {
  const std::string key = TreeKeyOf(filter);
  std::lock_guard lock(entry.nvtx_trees_mu);
  auto& kept = entry.nvtx_trees;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].first != key) continue;
    std::rotate(kept.begin(), kept.begin() + static_cast<ptrdiff_t>(i), kept.begin() + static_cast<ptrdiff_t>(i) + 1);
    return kept.front().second;
  }
  auto built = skills::NvtxTree::Build(*entry.profile, filter, cancel);
  if (!built) return built.error();
  kept.insert(kept.begin(), {key, *built});
  if (kept.size() > kNvtxTreesKept) kept.resize(kNvtxTreesKept);
  return kept.front().second;
}

Expected<skills::NvtxTreeLevel> Level(const Expected<std::shared_ptr<LoadedProfile>>& entry,
                                      const NvtxTreeRequest& request, const CancelToken& cancel,
                                      const ProgressSink& progress) {
  if (!entry) return entry.error();
  const std::shared_ptr<engine::Profile> profile = (*entry)->profile;  // outlives the tree for this call
  if (Status loaded = profile->Require(engine::Need::kAttribution, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  auto filter = engine::ResolveFilter(profile->info(), request.filter);
  if (!filter) return filter.error();
  auto tree = TreeOf(**entry, *filter, cancel);
  if (!tree) return tree.error();
  return (*tree)->Children(request.parent);
}

}  // namespace nvtx_tree_features

Expected<skills::NvtxTreeLevel> Workspace::NvtxTree(const NvtxTreeRequest& request, const CancelToken& cancel,
                                                    const ProgressSink& progress) {
  return nvtx_tree_features::Level(EntryOf(request.profile_id), request, cancel, progress);
}

}  // namespace nsys::core
