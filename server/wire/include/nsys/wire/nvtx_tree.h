#pragma once
// nsys/nvtxTree: the wire's params → core::NvtxTreeRequest, and a tree level (skills/nvtx_tree.h) → the wire's result.
#include "nsys/core/workspace.h"
#include "nsys/protocol/nvtx_tree.h"
#include "nsys/skills/nvtx_tree.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// kInvalidArgument naming the filter member for a process or thread id that cannot be one (ToFilterSpec).
Expected<core::NvtxTreeRequest> ToNvtxTreeRequest(const protocol::NvtxTreeParams& params);
protocol::NvtxTreeResult ToNvtxTreeResult(const skills::NvtxTreeLevel& level);

}  // namespace nsys::wire
