#pragma once
// The one answer shape of the agent: every `ask` answer, every `analyze` finding and every `diff` verdict
// is an Answer. Facts (summary, evidence) are kept apart from hypotheses; every piece of evidence names the skill
// call that produced it, and `verify` is a runnable `nsys-ai skill run ...` line that reproduces the main evidence.
// A question the profile cannot answer gets a Refusal instead of a guess. Plain structs: core returns them, wire
// converts them (wire/answer.h), the CLI renders them (RenderMarkdown).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/window.h"
#include "nsys/skills/skill.h"
#include "nsys/support/value.h"

namespace nsys::agent {

// Streamed answer text (Markdown pieces), for front ends that show the answer as it comes.
using TextSink = std::function<void(const std::string& text)>;

// A skill call as a user could type it: the skill, its own arguments and the filter (window, devices, processes).
struct SkillCall {
  std::string skill;
  skills::Args args;          // the skill's own arguments, as given (defaults need not be repeated)
  engine::FilterSpec filter;  // empty = the whole profile
};

// `nsys-ai skill run SKILL FILE [--device N] [--pid P] [--trim START END --clock C] [--arg k=v]...`, every word
// quoted for a POSIX shell when it needs it. A filter the CLI cannot express (several devices or processes,
// threads) is written as the first device/process and named in a trailing `# ...` comment, never dropped silently.
std::string VerifyCommand(const SkillCall& call, const std::string& profile_path);
// A shell word: unchanged when it is safe ([A-Za-z0-9_./:=@%+,-]), else in single quotes.
std::string ShellQuote(const std::string& word);

// Rows of a skill result that support a claim: the columns cited, and the rows (names, numbers, times).
struct Evidence {
  SkillCall call;
  std::string caption;                   // one line: what these rows show ("Top 3 kernels by GPU time")
  std::vector<std::string> columns;      // a subset of the skill's columns, in the skill's own names
  std::vector<std::vector<Value>> rows;  // each row has one cell per column
};

enum class Confidence { kHigh, kMedium, kLow };
std::string_view ConfidenceName(Confidence c);  // "high", "medium", "low"

// What the profile lacks to answer, and what it can answer instead. Fixed shape: no guess is ever made.
struct Refusal {
  std::string reason;                     // one sentence
  std::vector<std::string> missing;       // the data that is absent ("CUPTI kernel table (CUPTI_ACTIVITY_KIND_KERNEL)")
  std::vector<std::string> alternatives;  // questions it can answer instead, as a user would ask them
  bool operator==(const Refusal&) const = default;
};

struct Answer {
  std::string summary;             // one to three sentences of facts, citing names and numbers
  std::vector<Evidence> evidence;  // what the summary rests on
  Confidence confidence = Confidence::kMedium;
  std::string confidence_reason;             // why this confidence (coverage, sample size, heuristics used)
  std::vector<std::string> hypotheses;       // explanations that the evidence suggests but does not prove
  std::vector<std::string> recommendations;  // what to do
  std::string verify;                        // VerifyCommand of the main evidence ("" with a refusal)
  std::optional<Refusal> refusal;            // set: the question cannot be answered here (the rest may be empty)
};

// A refusal answer: summary = reason, confidence high (the profile certainly lacks it), no verify.
Answer Refuse(Refusal refusal);

enum class Severity { kHigh, kMedium, kLow, kInfo };
std::string_view SeverityName(Severity s);  // "high", "medium", "low", "info"

// One finding of `analyze`: a root cause of the Book that applies to this profile.
struct Finding {
  std::string root_cause;  // the Book's id ("launch_storm")
  std::string title;       // one line, with the key number ("2,311 kernels under 5 µs take 41% of GPU time")
  Severity severity = Severity::kMedium;
  int64_t at_stake_ns = 0;  // estimated time that fixing it could save; findings are ranked by it
  std::string skill;        // the skill whose result the rule fired on
  std::string coverage;     // what the finding rests on ("all 2 devices, whole profile; 98.6% of kernels attributed")
  Answer answer;            // summary, evidence, confidence, hypotheses, recommendations ("what to do"), verify
};

// A root cause the profile cannot be checked for, and the data that is missing.
struct Unchecked {
  std::string root_cause;
  std::string missing;  // one sentence
  bool operator==(const Unchecked&) const = default;
};

// Markdown for terminals, reports and editor views: summary, evidence tables (at most `max_rows` rows each),
// hypotheses marked as such, what to do, confidence and the verify command.
std::string RenderMarkdown(const Answer& answer, size_t max_rows = 10);
std::string RenderMarkdown(const Finding& finding, size_t max_rows = 10);

// Evidence from a skill result: the named columns of its first `limit` rows (0 = all). A name the table lacks is
// left out, so a rule over a user skill's table never fails on it.
Evidence EvidenceFrom(const SkillCall& call, const skills::Table& table, const std::vector<std::string>& columns,
                      size_t limit, std::string caption);

}  // namespace nsys::agent
