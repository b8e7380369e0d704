#include "nsys/protocol/nvtx_tree.h"

#include "by_fields.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(NvtxTreeParams)
NSYS_CONVERSIONS_BY_FIELDS(NvtxTreeNode)
NSYS_CONVERSIONS_BY_FIELDS(NvtxTreeResult)

}  // namespace nsys::protocol
