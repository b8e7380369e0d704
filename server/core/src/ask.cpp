// Workspace::Ask: one question over one open profile, offline through the agent's mapper, with the conversation's
// previous state for follow-ups. The answer's Markdown goes to `on_text` in pieces for front ends that stream.
#include "nsys/agent/ask.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/agent/llm_ask.h"
#include "nsys/agent/query_answer.h"
#include "nsys/core/workspace.h"
#include "nsys/llm/answer_cache.h"

namespace nsys::core {

namespace {

// What the model is told about the profile in its system prompt: the orientation a person would start from.
std::string ProfileSummaryForLlm(const engine::ProfileInfo& info, const agent::SkillRunner& run,
                                 const CancelToken& cancel) {
  std::string out = fmt::format("Profile {} ({} bytes, Nsight Systems {}), {:.3f} s long.\n", info.source_path,
                                info.file_size, info.nsys_version.empty() ? "unknown" : info.nsys_version,
                                static_cast<double>(info.end_ns - info.start_ns) / 1e9);
  for (const auto& d : info.devices) {
    out += fmt::format("GPU {}: {}\n", d.id, d.name.empty() ? "(no name in the export)" : d.name);
  }
  out += fmt::format("{} processes, {} threads.\n", info.processes.size(), info.threads.size());
  if (auto top = run("top_kernels", {{"limit", Value{int64_t{5}}}}, {}, cancel); top && !top->declined) {
    out += "Top kernels by GPU time:\n";
    for (const auto& row : top->rows) {
      std::string line;
      for (size_t c = 0; c < top->columns.size() && c < row.size(); ++c) {
        const std::string& name = top->columns[c].name;
        if (name != "time_pct" && name != "total_time_ns" && name != "instances" && name != "name") continue;
        line += fmt::format("{}{}={}", line.empty() ? "" : ", ", name,
                            std::visit(
                                [](const auto& v) -> std::string {
                                  using T = std::decay_t<decltype(v)>;
                                  if constexpr (std::is_same_v<T, std::monostate>)
                                    return "null";
                                  else if constexpr (std::is_same_v<T, std::string>)
                                    return v;
                                  else
                                    return fmt::format("{}", v);
                                },
                                row[c]));
      }
      out += "- " + line + "\n";
    }
  }
  return out;
}

// THE LLM ROUTE: with WorkspaceConfig::llm enabled, the model answers with the query tool and the profile's skills as
// tools (agent::AskWithLlm), through the workspace's answer cache, continuing the conversation's exchange.
Expected<agent::LlmAskResult> AskThroughLlm(const WorkspaceConfig& workspace,
                                            const std::vector<std::shared_ptr<const skills::Skill>>& skills,
                                            const engine::Profile& profile, agent::SkillRunner run,
                                            const AskRequest& request, const llm::Config& config,
                                            const std::vector<llm::Message>& history, const agent::TextSink& on_text,
                                            const CancelToken& cancel) {
  auto client = llm::MakeClient(config);
  if (!client) return client.error();
  const llm::AnswerCache cache(llm::AnswerCache::DefaultDir(workspace.open.cache_dir));
  const auto& info = profile.info();
  agent::LlmAskRequest r;
  r.question = request.question;
  r.profile_summary = ProfileSummaryForLlm(info, run, cancel);
  r.profile_path = info.source_path;
  r.history = history;
  r.cache = workspace.open.use_cache ? &cache : nullptr;
  r.profile_identity =
      fmt::format("{}|{}|{}|{}|{}", info.path, info.file_size, info.nsys_version, info.start_ns, info.end_ns);
  r.profile = &profile;
  r.model = config.model;
  return agent::AskWithLlm(r, **client, skills, run, on_text, cancel);
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

Expected<llm::Config> LlmConfigFromEnvironment() {
  return llm::ConfigFromEnvironment([](const char* name) { return std::getenv(name); });
}

// ---- The ask features: a question or typed Queries over one profile, the state a Workspace call looked up --------

namespace ask_features {

// What a question is answered with: the profile, its skills through the memo, the conversations, the server's
// configuration.
struct AskState {
  const WorkspaceConfig& config;
  std::vector<std::shared_ptr<const skills::Skill>> skills;
  agent::SkillRunner run;
  agent::ConversationStore& conversations;
};

Expected<AskResult> Queries(const Expected<std::shared_ptr<engine::Profile>>& profile, const QueryRequest& request,
                            const agent::SkillRunner& run, const CancelToken& cancel) {
  if (request.queries.empty()) return MakeError(ErrorKind::kInvalidArgument, "queries: at least one Query is needed");
  for (const agent::Query& q : request.queries) {
    if (Status ok = agent::CheckQuery(q); !ok) return ok.error();
  }
  if (!profile) return profile.error();
  agent::AskTurn turn = agent::AnswerQueries(request.queries, **profile, run, cancel);
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "query: cancelled");
  AskResult result;
  result.answer = std::move(turn.answer);
  result.skills_used = std::move(turn.skills_used);
  return result;
}

// THE LLM ROUTE's turn kept in the conversation.
Expected<AskResult> ThroughLlm(const engine::Profile& profile, const AskRequest& request, const llm::Config& llm_config,
                               const std::optional<agent::ConversationState>& prior, AskState& state,
                               const agent::TextSink& on_text, const CancelToken& cancel) {
  auto llm = AskThroughLlm(state.config, state.skills, profile, state.run, request, llm_config,
                           prior ? prior->llm_history : std::vector<llm::Message>{}, on_text, cancel);
  if (!llm) return llm.error();
  agent::ConversationState kept;
  kept.question = request.question;
  kept.llm_history = std::move(llm->history);
  AskResult result;
  for (const auto& e : llm->answer.evidence) {
    if (std::find(result.skills_used.begin(), result.skills_used.end(), e.call.skill) == result.skills_used.end())
      result.skills_used.push_back(e.call.skill);
  }
  result.conversation_id = state.conversations.Put(request.conversation_id, std::move(kept));
  result.answer = std::move(llm->answer);
  result.used_llm = true;
  return result;
}

Expected<AskResult> Question(const Expected<std::shared_ptr<engine::Profile>>& profile, const AskRequest& request,
                             AskState state, const agent::TextSink& on_text, const CancelToken& cancel,
                             const ProgressSink& progress) {
  if (Status question = agent::CheckQuestion(request.question); !question.ok()) return question.error();
  if (!profile) return profile.error();
  std::optional<agent::ConversationState> prior;
  if (!request.conversation_id.empty()) prior = state.conversations.Get(request.conversation_id);
  const llm::Config llm_config = request.llm ? *request.llm : state.config.llm;  // the session's, else the server's
  if (llm_config.enabled()) return ThroughLlm(**profile, request, llm_config, prior, state, on_text, cancel);
  if (progress) progress(0, "answering offline");
  agent::AskTurn turn = agent::AskOfflineTurn(request.question, **profile, SkillInfos(state.skills), state.run,
                                              prior ? &*prior : nullptr, cancel);
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "ask: cancelled");
  AskResult result;
  result.conversation_id = state.conversations.Put(request.conversation_id, std::move(turn.state));
  result.answer = std::move(turn.answer);
  result.skills_used = std::move(turn.skills_used);
  StreamMarkdown(result.answer, on_text);
  if (progress) progress(100, "answered");
  return result;
}

}  // namespace ask_features

Expected<AskResult> Workspace::AskQueries(const QueryRequest& request, const CancelToken& cancel) {
  return ask_features::Queries(Get(request.profile_id), request, RunnerFor(request.profile_id), cancel);
}

Expected<AskResult> Workspace::Ask(const AskRequest& request, const agent::TextSink& on_text, const CancelToken& cancel,
                                   const ProgressSink& progress) {
  return ask_features::Question(Get(request.profile_id), request,
                                {config(), Skills(), RunnerFor(request.profile_id), *conversations_}, on_text, cancel,
                                progress);
}

}  // namespace nsys::core
