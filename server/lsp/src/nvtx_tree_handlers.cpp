#include "nsys/core/workspace.h"
#include "nsys/lsp/handlers.h"
#include "nsys/wire/nvtx_tree.h"

namespace nsys::lsp {

Expected<protocol::NvtxTreeResult> OnNvtxTree(const protocol::NvtxTreeParams& params, RequestContext& ctx) {
  auto request = wire::ToNvtxTreeRequest(params);
  if (!request) return request.error();
  auto level = ctx.workspace().NvtxTree(*request, ctx.cancel(), ctx.progress());
  if (!level) return level.error();
  return wire::ToNvtxTreeResult(*level);
}

}  // namespace nsys::lsp
