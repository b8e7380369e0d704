#include "nsys/wire/ask.h"

#include "nsys/wire/answer.h"

namespace nsys::wire {

core::AskRequest ToAskRequest(const protocol::AskParams& params) {
  core::AskRequest request;
  request.profile_id = params.profile_id;
  request.question = params.question;
  request.conversation_id = params.conversation_id.value_or("");
  return request;
}

protocol::AskResult ToProtocolAskResult(const core::AskResult& result) {
  return protocol::AskResult{ToProtocolAnswer(result.answer), result.conversation_id, result.skills_used,
                             result.used_llm};
}

protocol::CliAskResult ToCliAskResult(const core::AskResult& result) {
  return protocol::CliAskResult{ToProtocolAnswer(result.answer), result.skills_used, result.used_llm};
}

}  // namespace nsys::wire
