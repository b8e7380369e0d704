#pragma once
// The Book of Root Causes: one reviewable data file (server/agent/book/root_causes.json, compiled into the binary)
// of the performance problems `analyze` looks for. Each root cause names the skill call whose rows it reads, a
// condition per row (`when`), the time at stake per matching row (`at_stake`, summed), a title template, why it costs
// time, what to do, and the hypotheses it suggests. Expressions are rule_expr.h's language.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/agent/rule_expr.h"
#include "nsys/skills/skill.h"
#include "nsys/support/expected.h"

namespace nsys::agent {

struct RootCause {
  std::string id;    // snake_case, unique
  std::string name;  // "Host-bound kernel launches (launch storm)"
  std::string skill;
  skills::Args args;                          // the skill's own arguments
  std::vector<std::string> requires_columns;  // absent from the result: the cause cannot be checked here
  std::optional<Expr> applies_if;             // over globals; 0 = does not apply, < 0 = unknown (listed as unchecked)
  std::string applies_unknown;                // what is unknown when `applies_if` is < 0
  Expr when;                                  // per row
  Expr at_stake;                              // ns, per matching row
  std::string sort_by;                        // evidence order (a column; default: at stake)
  double min_share = 0.005;                   // at stake / (window × devices) below this: not reported
  // Templates: {column} of the top row, {matched}, {sum_column}, {at_stake:ms}, {share:pct}, {gpus} ("GPU 0", "both
  // GPUs", "all 4 GPUs", "GPUs 0 and 2", "5 of 8 GPUs": the matched rows' devices), {gpus_are} (the same with "is" or
  // "are"). The title is one sentence as a person writes it (about 120 characters at most once filled, the first
  // letter capitalised); `detail` (may be empty) holds the other figures, in the finding's body after the title.
  std::string title;
  std::string detail;
  std::string why;
  std::vector<std::string> what_to_do;
  std::vector<std::string> hypotheses;
  std::vector<std::string> evidence_columns;
  std::string confidence = "medium";  // high | medium | low
  std::string confidence_reason;
  // A symptom (GPU idle gaps, host pauses, outlier iterations) says where time went without naming why. Findings
  // are ranked by time at stake, but symptoms come after every cause of at least medium severity (3% of GPU time):
  // an expert leads with the cause the data shows.
  bool symptom = false;
  // The part of the time budget the cause explains: "compute" (kernels other than communication), "communication",
  // "copy" (copies and memsets), "idle", "any", or "" (none said). The first finding is the largest cause that
  // explains the budget's dominant part, when one of at least medium severity fired (see analyze.cpp, RankFindings).
  std::string addresses;
  // The finding's time at stake is the largest matching row's, not their sum: for amounts that are one figure of the
  // whole profile (a global such as idle_ns), which summing over rows would count twice.
  bool at_stake_once = false;
};

struct Book {
  int version = 1;
  std::vector<RootCause> root_causes;
};

// The Book compiled into the binary. Parsed once; a bad Book is a build-time bug caught by tests/agent/book_test.
const Book& BuiltinBook();
// Parses a Book from JSON text (kInvalidArgument naming the root cause and the field).
Expected<Book> ParseBook(const std::string& json_text);

// Fills a title template: "{name}" is looked up by `lookup`; a format after a colon: "ms", "us" (ns shown in ms/µs),
// "pct" (a share shown as a percentage), "int" (thousands separators), "short" (a name cut to 60 characters).
// Unknown names are left as written, so a wrong template shows in review rather than crashing. `escape`, when given,
// is applied to each filled value (support::MarkdownText for a template whose text is Markdown: the values are names
// from the profile, the template's own backticks stay code).
std::string FillTemplate(const std::string& templ, const NameLookup& lookup,
                         std::string (*escape)(std::string_view) = nullptr);

}  // namespace nsys::agent
