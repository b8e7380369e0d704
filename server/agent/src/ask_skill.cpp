// Offline ask's answer to a skill named in the question ("run cuda_api_summary"): the skill's rows as they are, the
// first row's names and leading figures said, the rows cited.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ask_context.h"
#include "text_case.h"

namespace nsys::agent::ask_detail {

namespace {

// The table, or a refusal in the answer when the skill declined (its data is absent) or failed.
std::optional<skills::Table> TableOr(Ctx& c, const std::string& skill, skills::Args args = {}) {
  auto t = RunSkill(c, skill, args);
  if (!t) {
    c.turn.answer = Refuse({fmt::format("Skill `{}` failed: {}", skill, t.error().message), {}, Alternatives(c)});
    return std::nullopt;
  }
  if (t->declined) {
    c.turn.answer = RefuseDeclined(c, skill, *t);
    return std::nullopt;
  }
  return std::move(*t);
}

void Facts(Ctx& c, std::string summary, Confidence conf, std::string reason) {
  auto& a = c.turn.answer;
  a.summary = std::move(summary);
  UpperFirst(a.summary);
  a.confidence = conf;
  a.confidence_reason = std::move(reason);
}

void Cite(Ctx& c, const std::string& skill, const skills::Args& args, const skills::Table& t,
          const std::vector<std::string>& columns, size_t limit, std::string caption) {
  c.turn.answer.evidence.push_back(EvidenceFrom(CallOf(c, skill, args), t, columns, limit, std::move(caption)));
}

// The scope for sentences: " on device 1" or " in the whole profile".
std::string Where(const Ctx& c) {
  return c.scope.empty() ? " in the whole profile" : c.scope;
}

}  // namespace

void AnswerSkill(Ctx& c) {
  auto t = TableOr(c, c.p.skill);
  if (!t) return;
  std::vector<std::string> cols;
  for (const auto& col : t->columns) cols.push_back(col.name);
  std::string s = fmt::format("Skill `{}` returned {} rows{}", c.p.skill,
                              FormatCount(static_cast<double>(t->rows.size())), Where(c));
  if (!t->rows.empty() && !cols.empty()) {
    // Names first (what the row is about), then the leading numbers.
    std::vector<std::string> shown;
    for (const auto& col : t->columns) {
      if (col.type == ValueType::kString && shown.size() < 2) shown.push_back(col.name);
    }
    for (const auto& col : t->columns) {
      if (col.type != ValueType::kString && shown.size() < 4) shown.push_back(col.name);
    }
    s += "; the first: ";
    for (size_t i = 0; i < shown.size(); ++i) s += (i ? ", " : "") + shown[i] + " = " + CellText(*t, 0, shown[i]);
  }
  Facts(c, s + ".", Confidence::kHigh, "the skill's own rows, unchanged");
  Cite(c, c.p.skill, {}, *t, cols, 10, "Skill " + c.p.skill + c.scope);
}

}  // namespace nsys::agent::ask_detail
