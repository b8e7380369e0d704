#include "nsys/protocol/diff.h"

#include "by_fields.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(DiffParams)
NSYS_CONVERSIONS_BY_FIELDS(DiffItem)
NSYS_CONVERSIONS_BY_FIELDS(DiffCounts)
NSYS_CONVERSIONS_BY_FIELDS(DiffDevice)
NSYS_CONVERSIONS_BY_FIELDS(DiffMemcpy)
NSYS_CONVERSIONS_BY_FIELDS(DiffPhase)
NSYS_CONVERSIONS_BY_FIELDS(DiffIterations)
NSYS_CONVERSIONS_BY_FIELDS(DiffHeadline)
NSYS_CONVERSIONS_BY_FIELDS(DiffComparability)
NSYS_CONVERSIONS_BY_FIELDS(DiffResult)

}  // namespace nsys::protocol
