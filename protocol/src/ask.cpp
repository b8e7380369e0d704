#include "nsys/protocol/ask.h"

#include "json_read.h"

namespace nsys::protocol {

void FromJson(const Json& j, AskParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Required("question", out.question);
  r.Optional("conversationId", out.conversation_id);
}
void to_json(Json& j, const AskParams& v) {
  j = {{"profileId", v.profile_id}, {"question", v.question}};
  SetIfPresent(j, "conversationId", v.conversation_id);
}

void FromJson(const Json& j, AskResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("answer", out.answer);
  r.Required("conversationId", out.conversation_id);
  r.OptionalOr("skillsUsed", out.skills_used);
  r.OptionalOr("usedLlm", out.used_llm);
}
void to_json(Json& j, const AskResult& v) {
  j = {{"answer", v.answer},
       {"conversationId", v.conversation_id},
       {"skillsUsed", v.skills_used},
       {"usedLlm", v.used_llm}};
}

void FromJson(const Json& j, CliAskResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("answer", out.answer);
  r.OptionalOr("skillsUsed", out.skills_used);
  r.OptionalOr("usedLlm", out.used_llm);
}
void to_json(Json& j, const CliAskResult& v) {
  j = {{"answer", v.answer}, {"skillsUsed", v.skills_used}, {"usedLlm", v.used_llm}};
}

void to_json(Json& j, const AskToolArgs& v) {
  j = {{"profile_id", v.profile_id}, {"question", v.question}};
  SetIfPresent(j, "conversation_id", v.conversation_id);
}

}  // namespace nsys::protocol
