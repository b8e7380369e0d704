#pragma once
// `ask` through the Workspace: the request and result of Workspace::Ask. Offline, the agent's
// deterministic mapper answers (agent/ask.h); a conversation id keeps the previous turn's state for follow-ups
// (agent::ConversationStore, which the Workspace holds by pointer so that its JSON stays out of this header).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/agent/query.h"
#include "nsys/llm/config.h"

namespace nsys::core {

struct AskRequest {
  std::string profile_id;
  std::string question;
  std::string conversation_id;  // "" = a new conversation; an unknown or expired id starts afresh under that id
  // The session's LLM (initializationOptions.llm); absent = WorkspaceConfig::llm. Provider kNone = offline.
  std::optional<llm::Config> llm;
};

// Questions given already typed (nsys/query, MCP query, `ask --query`): the Queries, answered by the executor of ask.
struct QueryRequest {
  std::string profile_id;
  std::vector<agent::Query> queries;
};

struct AskResult {
  agent::Answer answer;
  std::string conversation_id;           // pass it back for follow-ups
  std::vector<std::string> skills_used;  // in call order, without repeats
  bool used_llm = false;
};

// Conversations a workspace keeps, and how long an idle one lives.
inline constexpr size_t kMaxConversations = 256;
inline constexpr std::chrono::seconds kConversationIdle{3600};

}  // namespace nsys::core
