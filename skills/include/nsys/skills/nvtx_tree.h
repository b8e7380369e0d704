#pragma once
// The NVTX hierarchy of a profile, one level at a time (served by nsys/nvtxTree): threads with NVTX ranges, then per
// thread the ranges aggregated by name path (as nsys's NVTX view: one node stands for every instance of that name
// nested at that path), and under a range the kernels launched directly inside it (by runtime calls on that thread,
// joined by (pid, correlationId) through KernelTable::launch), aggregated by short name.
//
// Node ids are opaque to clients but stable for a profile: "t<pid>.<tid>" for a thread, then "/<name id>" per range
// on the path, then "#<short name id>" for a kernel (string ids of the profile's StringPool, which never changes once
// opened), so any id an earlier call returned resolves again.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills {

enum class NvtxTreeNodeKind { kThread, kRange, kKernel };

struct NvtxTreeNode {
  std::string id;
  NvtxTreeNodeKind kind = NvtxTreeNodeKind::kRange;
  std::string name;   // the thread's name, the range's name, the kernel's short name
  std::string label;  // thread: "python (pid 1234, tid 1234)"; range and kernel: the name
  uint32_t pid = 0;
  uint32_t tid = 0;
  int64_t instances = 0;     // range: instances at this path; thread: its outermost ranges; kernel: executions
  int64_t wall_ns = 0;       // summed duration of those instances (kernel: its GPU time)
  int64_t gpu_ns = 0;        // GPU time of the kernels launched inside (nested ranges included)
  int64_t kernel_count = 0;  // those kernels
  engine::Ns start_ns = 0;   // the longest instance (thread: its first range start .. last range end)
  engine::Ns end_ns = 0;
  bool has_children = false;
};

struct NvtxTreeLevel {
  std::vector<NvtxTreeNode> nodes;
  bool truncated = false;  // more than max_children children; the rest are cut
};

inline constexpr size_t kMaxNvtxTreeChildren = 500;

// A profile's whole NVTX tree under one filter, built once (one pass over the ranges, one over the kernels) and then
// read one level at a time in time proportional to the level: nsys/nvtxTree keeps one per profile and filter
// (core::Workspace), so an expansion costs a lookup, not the passes. Immutable once built; safe to share.
class NvtxTree {
 public:
  // kCancelled when cancelled. Needs engine::Need::kAttribution loaded; the profile must outlive the tree.
  static Expected<std::shared_ptr<const NvtxTree>> Build(const engine::Profile& profile, const engine::Filter& filter,
                                                         const CancelToken& cancel);
  ~NvtxTree();
  // As NvtxTreeChildren below.
  Expected<NvtxTreeLevel> Children(const std::string& parent, size_t max_children = kMaxNvtxTreeChildren) const;
  // Bytes the tree holds (its nodes, kernel groups and indexes), for the caller's budget.
  size_t Bytes() const;

  struct Impl;

 private:
  explicit NvtxTree(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The children of `parent` (empty: the threads that have NVTX ranges, most wall time first). Children of a thread or
// range: its sub-ranges by name (most GPU time, then wall, first), then kernel nodes (kernels launched directly in
// it and not in a child range; most GPU time first); at most `max_children`. The filter keeps range instances and
// kernels that start in its window, on its processes and threads; kernels on its devices. kInvalidArgument naming
// `parent` when the id is not a node of this profile. Needs engine::Need::kAttribution loaded.
Expected<NvtxTreeLevel> NvtxTreeChildren(const engine::Profile& profile, const std::string& parent,
                                         const engine::Filter& filter, const CancelToken& cancel,
                                         size_t max_children = kMaxNvtxTreeChildren);

std::string_view NvtxTreeNodeKindName(NvtxTreeNodeKind kind);  // "thread" | "range" | "kernel"

}  // namespace nsys::skills
