#include "nsys/protocol/answer.h"

#include "by_fields.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(SkillCallRef)
NSYS_CONVERSIONS_BY_FIELDS(Evidence)
NSYS_CONVERSIONS_BY_FIELDS(Refusal)
NSYS_CONVERSIONS_BY_FIELDS(Answer)
NSYS_CONVERSIONS_BY_FIELDS(Finding)

}  // namespace nsys::protocol
