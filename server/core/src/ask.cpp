// Workspace::Ask: one question over one open profile, offline through the agent's mapper, with the conversation's
// previous state for follow-ups. The answer's Markdown goes to `on_text` in pieces for front ends that stream.
#include <fmt/format.h>

#include "nsys/core/workspace.h"

namespace nsys::core {

namespace {

// THE LLM ROUTE (issue 10): where agent::AskWithLlm (h10/llm) joins, when `llm.enabled()`, with the profile's
// skills as tools and the conversation's history. Not joined on this branch: it returns nullopt and the offline
// mapper answers every question (AskResult::used_llm stays false).
std::optional<Expected<AskResult>> AskThroughLlm(const llm::Config& /*llm*/, const AskRequest& /*request*/,
                                                 const agent::TextSink& /*on_text*/, const CancelToken& /*cancel*/) {
  return std::nullopt;
}

// The answer's Markdown in pieces of about a paragraph, so a client can show it as it comes.
void StreamMarkdown(const agent::Answer& answer, const agent::TextSink& on_text) {
  if (!on_text) return;
  const std::string md = agent::RenderMarkdown(answer);
  size_t start = 0;
  while (start < md.size()) {
    size_t end = md.find("\n\n", start);
    end = end == std::string::npos ? md.size() : end + 2;
    on_text(md.substr(start, end - start));
    start = end;
  }
}

std::vector<agent::SkillInfo> SkillInfos(const std::vector<std::shared_ptr<const skills::Skill>>& skills) {
  std::vector<agent::SkillInfo> out;
  out.reserve(skills.size());
  for (const auto& s : skills) out.push_back({s->name(), s->description()});
  return out;
}

}  // namespace

Expected<AskResult> Workspace::Ask(const AskRequest& request, const agent::TextSink& on_text, const CancelToken& cancel,
                                   const ProgressSink& progress) {
  if (request.question.find_first_not_of(" \t\r\n") == std::string::npos) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "question: empty; ask about this profile, e.g. \"Which kernels take the most GPU time?\"");
  }
  auto profile = Get(request.profile_id);
  if (!profile) return profile.error();
  if (auto routed = AskThroughLlm(config().llm, request, on_text, cancel)) return std::move(*routed);

  std::optional<agent::ConversationState> prior;
  if (!request.conversation_id.empty()) prior = conversations_.Get(request.conversation_id);
  if (progress) progress(0, "answering offline");
  agent::AskTurn turn = agent::AskOfflineTurn(request.question, **profile, SkillInfos(Skills()),
                                              RunnerFor(request.profile_id), prior ? &*prior : nullptr, cancel);
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "ask: cancelled");
  AskResult result;
  result.conversation_id = conversations_.Put(request.conversation_id, std::move(turn.state));
  result.answer = std::move(turn.answer);
  result.skills_used = std::move(turn.skills_used);
  StreamMarkdown(result.answer, on_text);
  if (progress) progress(100, "answered");
  return result;
}

}  // namespace nsys::core
