#include "nsys/protocol/ask.h"

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(AskParams)
NSYS_CONVERSIONS_BY_FIELDS(AskResult)
NSYS_CONVERSIONS_BY_FIELDS(CliAskResult)

}  // namespace nsys::protocol
