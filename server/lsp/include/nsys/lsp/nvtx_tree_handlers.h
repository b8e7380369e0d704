#pragma once
// nsys/nvtxTree: typed params -> one core call (Workspace::NvtxTree) -> the wire's conversion (nsys/wire/nvtx_tree.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/nvtx_tree.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// A parent id that is not a node of the profile's tree is -32602 naming `parent`.
Expected<protocol::NvtxTreeResult> OnNvtxTree(const protocol::NvtxTreeParams& params, RequestContext& ctx);

}  // namespace nsys::lsp
