#pragma once
// The state of one offline ask turn that asks no figure (a skill by name, help, a cause), shared by its handlers
// (ask_intents.cpp, ask_skill.cpp, ask_why.cpp). A question for figures is the typed Query's (query_fill, query_exec).
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
  AskTurn turn;                      // being built
  std::optional<Error> failure;      // a skill call failed for a reason other than missing data
};

// Runs a skill and remembers the call in the turn (skills_used, state.calls). `with_filter` false runs over the
// whole profile (to resolve names).
Expected<skills::Table> RunSkill(Ctx& c, const std::string& skill, skills::Args args, bool with_filter = true);
SkillCall CallOf(const Ctx& c, const std::string& skill, skills::Args args = {});

// A table with only the rows `keep` says yes to (for evidence about named kernels or ranges).
skills::Table KeepRows(const skills::Table& t, const std::function<bool(size_t)>& keep);
// Sum of a numeric column over all rows (NaN cells skipped).
double SumColumn(const skills::Table& t, std::string_view column);

// The demangled names of top_kernels' rows whose short name, lower-cased, is `lower_word`.
std::vector<std::string> KernelsWithShortName(const skills::Table& all, const std::string& lower_word);

// The refusal for a declined skill: its note says what is missing.
Answer RefuseDeclined(const Ctx& c, const std::string& skill, const skills::Table& t);
// What this profile can answer, as questions (for refusals).
std::vector<std::string> Alternatives(const Ctx& c);

// The handlers of a turn that asks no figure. Each fills c.turn.answer.
void AnswerSkill(Ctx& c);  // ask_skill.cpp: a skill named in the question, its rows as they are
void AnswerWhy(Ctx& c);    // ask_why.cpp: the usual causes of lost GPU time, as hypotheses

}  // namespace nsys::agent::ask_detail
