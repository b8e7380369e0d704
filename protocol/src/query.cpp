#include "nsys/protocol/query.h"

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(QuerySubject)
NSYS_CONVERSIONS_BY_FIELDS(QueryAnchor)
NSYS_CONVERSIONS_BY_FIELDS(QueryScope)
NSYS_CONVERSIONS_BY_FIELDS(QuerySpec)
NSYS_CONVERSIONS_BY_FIELDS(QueryParams)

}  // namespace nsys::protocol
