#include "nsys/wire/ask.h"

#include "nsys/wire/answer.h"

namespace nsys::wire {

core::AskRequest ToAskRequest(const protocol::AskParams& params) {
  return core::AskRequest{params.profile_id, params.question, params.conversation_id.value_or("")};
}

protocol::AskResult ToProtocolAskResult(const core::AskResult& result) {
  return protocol::AskResult{ToProtocolAnswer(result.answer), result.conversation_id, result.skills_used,
                             result.used_llm};
}

}  // namespace nsys::wire
