#pragma once
// The state of one offline ask turn, shared by the intent handlers (ask_intents.cpp, ask_topics.cpp).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ask_internal.h"

namespace nsys::agent::ask_detail {

struct Ctx {
  Parsed p;
  const engine::Profile& profile;
  const std::vector<SkillInfo>& skills;
  const SkillRunner& run;
  const ConversationState* prior;
  const CancelToken& cancel;
  engine::FilterSpec filter;         // what the question (or the conversation) restricts to
  std::string scope;                 // the filter in words: " on device 1 between 0.200 s and 0.400 s", or ""
  std::vector<std::string> kernels;  // kernels the question names (demangled names)
  std::string kernel_query;          // how it named them
  std::string nvtx_range;            // the NVTX range it names
  std::string nvtx_family;           // a family of ranges it names with a placeholder, as said ("layer_N_computation")
  std::vector<std::string> nvtx_family_ranges;  // the ranges of that family
  AskTurn turn;                                 // being built
  std::optional<Error> failure;                 // a skill call failed for a reason other than missing data
};

// Runs a skill and remembers the call in the turn (skills_used, state.calls). `with_filter` false runs over the
// whole profile (to resolve names).
Expected<skills::Table> RunSkill(Ctx& c, const std::string& skill, skills::Args args, bool with_filter = true);
SkillCall CallOf(const Ctx& c, const std::string& skill, skills::Args args = {});

// A table with only the rows `keep` says yes to (for evidence about named kernels or ranges).
skills::Table KeepRows(const skills::Table& t, const std::function<bool(size_t)>& keep);
// Sum of a numeric column over all rows (NaN cells skipped).
double SumColumn(const skills::Table& t, std::string_view column);

// Sentences and evidence of the compositional answers (ask_compose.cpp), shared with ask_families.cpp.
std::string Ticked(const std::string& name);                      // `name`, cut at 90 characters
bool InHostFilter(const Ctx& c, uint32_t pid, engine::Ns start);  // a host row in the processes and window
std::string WhereOf(const Ctx& c);                                // " on device 1", or " in the whole profile"
void Say(Ctx& c, std::string summary, std::string reason);
void CiteRows(Ctx& c, const std::string& skill, const skills::Table& t, const std::vector<std::string>& columns,
              std::string caption);
// Whether a question asks yes or no ("Is there any copy over 1 ms?", "Did any kernel run longer than 5 ms?").
bool AsksYesNo(const std::string& q);
// The table of a skill over the question's filter, or nullopt (and no call remembered) when missing or declined.
std::optional<skills::Table> Usable(Ctx& c, const std::string& skill);

// The demangled names of top_kernels' rows whose short name, lower-cased, is `lower_word`.
std::vector<std::string> KernelsWithShortName(const skills::Table& all, const std::string& lower_word);

// A family of NVTX ranges named with a placeholder ("layer_N_computation", "ensure_layer_*_weights") and the
// ranges it matches (ask_families.cpp); false when the question names none that matches two or more ranges.
bool ResolveNvtxFamily(Ctx& c);
bool AnswerNvtxFamily(Ctx& c);

// The refusal for a declined skill: its note says what is missing.
Answer RefuseDeclined(const Ctx& c, const std::string& skill, const skills::Table& t);
// What this profile can answer, as questions (for refusals).
std::vector<std::string> Alternatives(const Ctx& c);

// Topic handlers (ask_topics.cpp). Each fills c.turn.answer (and c.turn.state.listed when it ranks names).
void AnswerKernels(Ctx& c);
void AnswerKernelDetail(Ctx& c);
void AnswerMemcpy(Ctx& c);
void AnswerSync(Ctx& c);
void AnswerIdle(Ctx& c);
void AnswerNccl(Ctx& c);
void AnswerNvtx(Ctx& c);
void AnswerLaunch(Ctx& c);
void AnswerApi(Ctx& c);
void AnswerIterations(Ctx& c);
void AnswerSkill(Ctx& c);
void AnswerWhy(Ctx& c);
void AnswerComparison(Ctx& c);

// The compositional reading (ask_compose.cpp): a measure of a subject, grouped or compared. Each answers and returns
// true when the question reads as such a combination; false leaves the turn to the topic handlers. The first runs
// before named kernels are resolved (CUDA API names and copy directions are subjects, not kernel names), the second
// after (a named kernel's grid, block, average, median or share; kernels per device or process).
bool AnswerComposedBeforeKernels(Ctx& c);
bool AnswerComposedAfterKernels(Ctx& c);

}  // namespace nsys::agent::ask_detail
