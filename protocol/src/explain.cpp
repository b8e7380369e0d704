#include "nsys/protocol/explain.h"

#include "by_fields.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(ExplainKernelParams)
NSYS_CONVERSIONS_BY_FIELDS(KernelIdentityInfo)
NSYS_CONVERSIONS_BY_FIELDS(KernelDeviceInfo)
NSYS_CONVERSIONS_BY_FIELDS(KernelLaunchInfo)
NSYS_CONVERSIONS_BY_FIELDS(KernelConfigInfo)
NSYS_CONVERSIONS_BY_FIELDS(KernelOccupancyInfo)
NSYS_CONVERSIONS_BY_FIELDS(KernelNvtxInfo)
NSYS_CONVERSIONS_BY_FIELDS(ExplainKernelResult)

}  // namespace nsys::protocol
