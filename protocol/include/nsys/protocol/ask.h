#pragma once
// nsys/ask: a question in plain words about an open profile, answered in the one answer shape
// (protocol/answer.h). `conversationId` (from a previous result) keeps the exchange so follow-ups work. With a
// partialResultToken, the answer's Markdown streams as partial results {"text": ...} before the final result.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/answer.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct AskParams {
  std::string profile_id;
  std::string question;
  std::optional<std::string> conversation_id;
  static constexpr auto WireFields() {
    using S = AskParams;
    return std::tuple{Field("profileId", &S::profile_id), Field("question", &S::question),
                      Field("conversationId", &S::conversation_id)};
  }
  bool operator==(const AskParams&) const = default;
};

struct AskResult {
  Answer answer;
  std::string conversation_id;
  std::vector<std::string> skills_used;
  bool used_llm = false;
  static constexpr auto WireFields() {
    using S = AskResult;
    return std::tuple{Field("answer", &S::answer), Field("conversationId", &S::conversation_id),
                      OptionalField("skillsUsed", &S::skills_used), OptionalField("usedLlm", &S::used_llm)};
  }
  bool operator==(const AskResult&) const = default;
};

// The CLI's `ask --format json`: an AskResult without the session's handle (conversationId), which a one-shot
// command cannot continue: {answer, skillsUsed, usedLlm}.
struct CliAskResult {
  Answer answer;
  std::vector<std::string> skills_used;
  bool used_llm = false;
  static constexpr auto WireFields() {
    using S = CliAskResult;
    return std::tuple{Field("answer", &S::answer), OptionalField("skillsUsed", &S::skills_used),
                      OptionalField("usedLlm", &S::used_llm)};
  }
  bool operator==(const CliAskResult&) const = default;
};

// The MCP tool `ask`'s arguments: nsys/ask's params in snake_case.
struct AskToolArgs : AskParams {
  static constexpr auto Fields() { return mcp::ParamsArgs<AskParams>(); }
  bool operator==(const AskToolArgs&) const = default;
};

#define NSYS_ASK_CONVERSIONS(Type)                                     \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_ASK_CONVERSIONS(AskParams)
NSYS_ASK_CONVERSIONS(AskResult)
NSYS_ASK_CONVERSIONS(CliAskResult)
NSYS_ASK_CONVERSIONS(AskToolArgs)  // protocol/src/mcp.cpp, from its Fields()
#undef NSYS_ASK_CONVERSIONS

}  // namespace nsys::protocol
