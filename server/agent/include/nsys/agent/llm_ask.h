#pragma once
// Ask with an LLM: the model gets the `query` tool (QueryTool: typed Queries, answered by the one executor that
// answers every ask, AnswerQueries), each skill as a function tool of the same name (its parameters are the skill's
// arguments as JSON Schema, plus the common filter device/pid/start/end) and the profile's summary in the system
// prompt, and calls them through the SkillRunner (the Workspace's result memo). The answer is an agent::Answer whose
// evidence is the rows of the calls the model made and whose verify command reproduces the first of them.
//
// When the model asked Queries, the answer is the executor's: each reading and its figures, as the offline ask writes
// them; the model's final text follows as a paragraph only if every number in it is among the tool results (the
// hover paragraph's rule, ParagraphFromReply), else a note says which number it invented. A model can then state no
// figure the profile does not hold. With the query tool offered, the model's text is not streamed as it comes: the
// answer is sent to the sink whole once checked. Answers from skill tools alone stay the model's text, marked as its
// wording.
//
// Trust boundary: the model's replies are untrusted input. A tool name that names no skill, arguments that are not
// a JSON object or do not fit the skill's ArgSpecs, and skill errors go back to the model as the tool's result
// (is_error), within max_steps; a reply the client cannot read, an empty answer or running out of steps is a clear
// error for the user. Nothing the model writes is executed except as a skill call validated by the skill runner.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/llm/answer_cache.h"
#include "nsys/llm/client.h"
#include "nsys/skills/skill.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::engine {
class Profile;
}  // namespace nsys::engine

namespace nsys::agent {

using SkillList = std::vector<std::shared_ptr<const skills::Skill>>;

// The tool for one skill: name and description as the skill's, parameters a JSON Schema object with each ArgSpec
// typed (integer, number, string, boolean) with its bounds, choices (enum), default and description, plus device,
// pid (integers) and start, end (numbers: seconds from the profile start). No property is required unless the
// skill requires it; no other property is accepted.
llm::ToolSpec SkillTool(const skills::Skill& skill);
std::vector<llm::ToolSpec> SkillTools(const SkillList& skills);
// The `query` tool: {"queries": [Query, ...]}, 1 to 16 Queries, each in the JSON form of agent/query_json.h.
llm::ToolSpec QueryTool();

// A tool call's JSON arguments as the skill call it stands for: the skill's own arguments typed by their ArgSpecs
// and device/pid/start/end as the filter. kInvalidArgument naming the argument and what is accepted otherwise;
// bounds and choices are left to the skill runner, which checks them the same way for every front end.
Expected<SkillCall> SkillCallFromTool(const skills::Skill& skill, const nlohmann::json& arguments);

struct LlmAskRequest {
  std::string question;
  std::string profile_summary;        // for the system prompt (devices, processes, duration, top kernels, ...)
  std::string profile_path;           // for the verify commands
  std::vector<llm::Message> history;  // the previous exchange (LlmAskResult::history) for follow-ups; empty = new
  int max_steps = 8;                  // model turns; each may call several tools
  // What one tool result gives the model back: at most this many rows and bytes (the rest is counted, not sent).
  size_t max_result_rows = 40;
  size_t max_result_bytes = 12'000;
  // Optional: answer exchanges seen before from this cache; `profile_identity` (path, size, mtime or a digest)
  // joins the key so that another profile never hits.
  const llm::AnswerCache* cache = nullptr;
  std::string profile_identity;
  // The profile the `query` tool answers Queries on (AnswerQueries); null offers the skill tools alone.
  const engine::Profile* profile = nullptr;
  std::string model;  // the model's name, for the label of its paragraph
};

struct LlmAskResult {
  Answer answer;                      // summary = the model's final text; evidence = rows of its skill calls
  std::vector<llm::Message> history;  // the exchange so far (system prompt, question, calls, results, answer)
  int64_t input_tokens = 0;           // summed over the steps, as the provider reported them
  int64_t output_tokens = 0;
  bool from_cache = false;  // every step was answered from the cache
  int steps = 0;            // model turns taken
};

// Errors: kInvalidArgument (an empty question), kCancelled, kLimitExceeded (the cost gate, max_steps reached),
// kBadInput (a reply that is not the provider's format, or an empty final answer), or the client's error.
Expected<LlmAskResult> AskWithLlm(const LlmAskRequest& request, llm::Client& client, const SkillList& skills,
                                  const SkillRunner& run, const llm::TextSink& on_text, const CancelToken& cancel);

// The system prompt AskWithLlm starts a conversation with.
std::string LlmSystemPrompt(const std::string& profile_summary);

}  // namespace nsys::agent
