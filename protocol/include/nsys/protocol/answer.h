#pragma once
// The agent's one answer shape on the wire: `nsys/ask`'s result, each `nsys/analyze` finding, `nsys/diff`'s
// verdict. Mirrors server/agent's answer.h (wire/answer.h converts); `markdown` is the server's rendering, so thin
// clients show it as it is. Confidence and severity are the names "high" | "medium" | "low" (| "info").
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct SkillCallRef {  // the skill call behind a piece of evidence
  std::string skill;
  std::map<std::string, Scalar> args;
  std::optional<Filter> filter;  // absent = the whole profile
  static constexpr auto WireFields() {
    using S = SkillCallRef;
    return std::tuple{Field("skill", &S::skill), OptionalField("args", &S::args), Field("filter", &S::filter)};
  }
  bool operator==(const SkillCallRef&) const = default;
};

struct Evidence {
  SkillCallRef call;
  std::string caption;
  std::vector<std::string> columns;
  std::vector<std::vector<Scalar>> rows;
  static constexpr auto WireFields() {
    using S = Evidence;
    return std::tuple{Field("call", &S::call), OptionalField("caption", &S::caption), Field("columns", &S::columns),
                      Field("rows", &S::rows)};
  }
  bool operator==(const Evidence&) const = default;
};

struct Refusal {
  std::string reason;
  std::vector<std::string> missing;
  std::vector<std::string> alternatives;
  static constexpr auto WireFields() {
    using S = Refusal;
    return std::tuple{Field("reason", &S::reason), OptionalField("missing", &S::missing),
                      OptionalField("alternatives", &S::alternatives)};
  }
  bool operator==(const Refusal&) const = default;
};

struct Answer {
  std::string summary;
  std::vector<Evidence> evidence;
  std::string confidence;  // "high" | "medium" | "low"
  std::string confidence_reason;
  std::vector<std::string> hypotheses;
  std::vector<std::string> recommendations;
  std::string verify;  // a runnable `nsys-ai skill run ...` line; "" with a refusal
  std::optional<Refusal> refusal;
  std::string markdown;  // the whole answer rendered by the server
  static constexpr auto WireFields() {
    using S = Answer;
    return std::tuple{Field("summary", &S::summary),
                      OptionalField("evidence", &S::evidence),
                      Field("confidence", &S::confidence),
                      OptionalField("confidenceReason", &S::confidence_reason),
                      OptionalField("hypotheses", &S::hypotheses),
                      OptionalField("recommendations", &S::recommendations),
                      OptionalField("verify", &S::verify),
                      Field("refusal", &S::refusal),
                      OptionalField("markdown", &S::markdown)};
  }
  bool operator==(const Answer&) const = default;
};

struct Finding {
  std::string root_cause;  // the Book's id
  std::string title;
  std::string severity;  // "high" | "medium" | "low" | "info"
  int64_t at_stake_ns = 0;
  std::string skill;
  std::string coverage;
  Answer answer;
  static constexpr auto WireFields() {
    using S = Finding;
    return std::tuple{Field("rootCause", &S::root_cause), Field("title", &S::title),
                      Field("severity", &S::severity),    Field("atStakeNs", &S::at_stake_ns),
                      OptionalField("skill", &S::skill),  OptionalField("coverage", &S::coverage),
                      Field("answer", &S::answer)};
  }
  bool operator==(const Finding&) const = default;
};

#define NSYS_ANSWER_CONVERSIONS(Type)                                  \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_ANSWER_CONVERSIONS(SkillCallRef)
NSYS_ANSWER_CONVERSIONS(Evidence)
NSYS_ANSWER_CONVERSIONS(Refusal)
NSYS_ANSWER_CONVERSIONS(Answer)
NSYS_ANSWER_CONVERSIONS(Finding)
#undef NSYS_ANSWER_CONVERSIONS

}  // namespace nsys::protocol
