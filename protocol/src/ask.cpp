#include "nsys/protocol/ask.h"

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {

NSYS_CONVERSIONS_BY_FIELDS(AskParams)
NSYS_CONVERSIONS_BY_FIELDS(AskResult)
NSYS_CONVERSIONS_BY_FIELDS(CliAskResult)

void to_json(Json& j, const AskToolArgs& v) {
  j = {{"profile_id", v.profile_id}, {"question", v.question}};
  SetIfPresent(j, "conversation_id", v.conversation_id);
}

}  // namespace nsys::protocol
