#include "nsys/protocol/analyze.h"

#include "by_fields.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(AnalyzeParams)
NSYS_CONVERSIONS_BY_FIELDS(UncheckedCause)
NSYS_CONVERSIONS_BY_FIELDS(AnalyzeResult)
NSYS_CONVERSIONS_BY_FIELDS(AnalyzePartialResult)

}  // namespace nsys::protocol
