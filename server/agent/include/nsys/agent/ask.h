#pragma once
// Offline `ask`: a deterministic mapping from a question in plain words to skill calls, answered in the
// one answer shape (answer.h). No model is involved: the question is read for what it names (skills, kernels,
// devices, processes, time windows, NVTX ranges) and what it asks (which / how much / how many / why / compare /
// is X more than Y / top / share); a small table of intents (ask_intents.cpp) picks the skills, and every number in
// the answer is a cell of their rows. A question the profile cannot answer gets a Refusal naming what is missing
// and what it can answer instead: it never guesses.
//
// Conversations: each turn returns the state it used (skills, filter, kernel, the ranking it showed), so that a
// follow-up ("and on device 1?", "why?", "what about the second one?") can reuse it. ConversationStore keeps those
// states by id, bounded in count and idle age.
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/agent/query.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/engine/profile.h"
#include "nsys/llm/client.h"
#include "nsys/support/cancel.h"

namespace nsys::agent {

// What the mapper knows of a skill: its name and one-line description (the Workspace's registry).
struct SkillInfo {
  std::string name;
  std::string description;
};

// What a turn used, kept for the follow-ups of a conversation.
struct ConversationState {
  std::string intent;                     // the intent that answered ("top_kernels", "kernel_detail", "why", ...)
  std::string topic;                      // what it was about ("kernels", "memcpy", "sync", "idle", "nvtx", ...)
  std::vector<SkillCall> calls;           // the skill calls made, main one first
  engine::FilterSpec filter;              // the filter the question set (devices, processes, window)
  std::string kernel;                     // the kernel the question was about (demangled name), if any
  std::vector<std::string> listed;        // names the answer ranked (kernels, ranges), for "the second one"
  std::string nvtx_range;                 // the NVTX range the question was about, if any
  std::string question;                   // the question as asked
  std::vector<llm::Message> llm_history;  // the exchange with the LLM so far, when one answered (for follow-ups)
  std::vector<Query> queries;             // the typed reading that answered, when one did (query.h)
};

struct AskTurn {
  Answer answer;
  ConversationState state;               // to keep for the next turn (empty intent when refused early)
  std::vector<std::string> skills_used;  // skill names, in call order, without repeats
};

// The longest question ask takes, in bytes: nsys/ask, MCP ask and the CLI's ask check it (CheckQuestion) before
// anything reads the question. A real question is a sentence or two (the question set's longest is 53 bytes; one
// naming a templated kernel in full a few hundred), so 8 KiB is never reached by one, while it bounds what a turn
// parses, keeps in the conversation store and sends to an LLM.
inline constexpr size_t kMaxQuestionBytes = 8 * 1024;
// OK, or kInvalidArgument saying why: a question that is empty (only white space) or over kMaxQuestionBytes (the
// message names the limit).
Status CheckQuestion(const std::string& question);

// One question over one profile. `prior` (may be null) is the conversation's previous state. The profile is only
// read for its description (devices, processes, capabilities, range); every table comes through `run`.
AskTurn AskOfflineTurn(const std::string& question, const engine::Profile& profile,
                       const std::vector<SkillInfo>& skills, const SkillRunner& run, const ConversationState* prior,
                       const CancelToken& cancel);
// The same, the answer only.
Answer AskOffline(const std::string& question, const engine::Profile& profile, const std::vector<SkillInfo>& skills,
                  const SkillRunner& run, const ConversationState* prior, const CancelToken& cancel);

// Conversation states by id: at most `max_conversations` (the least recently used goes first) and none idle longer
// than `max_idle`. Thread-safe.
class ConversationStore {
 public:
  using Clock = std::chrono::steady_clock;
  explicit ConversationStore(size_t max_conversations = 256,
                             std::chrono::seconds max_idle = std::chrono::seconds(3600));
  // The state of a live conversation, or nullopt (unknown or expired).
  std::optional<ConversationState> Get(const std::string& id);
  // Stores the state under `id`, or under a new id ("c1", "c2", ...) when `id` is empty; returns the id.
  std::string Put(const std::string& id, ConversationState state);
  size_t size();
  // For tests: a clock to age conversations without waiting.
  void SetClockForTest(std::function<Clock::time_point()> now);

 private:
  struct Slot {
    ConversationState state;
    Clock::time_point used;
  };
  void ExpireLocked(Clock::time_point now);
  size_t max_conversations_;
  std::chrono::seconds max_idle_;
  std::function<Clock::time_point()> now_;
  std::mutex mu_;
  std::map<std::string, Slot> slots_;
  int64_t next_id_ = 1;
};

}  // namespace nsys::agent
