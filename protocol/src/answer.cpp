#include "nsys/protocol/answer.h"

#include "json_read.h"

namespace nsys::protocol {

namespace {

Json CellsToJson(const std::vector<std::vector<Scalar>>& rows) {
  Json out = Json::array();
  for (const auto& row : rows) out.push_back(RowToJson(row));
  return out;
}

}  // namespace

void FromJson(const Json& j, SkillCallRef& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("skill", out.skill);
  r.OptionalOr("args", out.args);
  r.Optional("filter", out.filter);
}
void to_json(Json& j, const SkillCallRef& v) {
  Json args = Json::object();
  for (const auto& [name, value] : v.args) args[name] = ScalarToJson(value);
  j = {{"skill", v.skill}, {"args", std::move(args)}};
  SetIfPresent(j, "filter", v.filter);
}

void FromJson(const Json& j, Evidence& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("call", out.call);
  r.OptionalOr("caption", out.caption);
  r.Required("columns", out.columns);
  r.Required("rows", out.rows);
}
void to_json(Json& j, const Evidence& v) {
  j = {{"call", v.call}, {"caption", v.caption}, {"columns", v.columns}, {"rows", CellsToJson(v.rows)}};
}

void FromJson(const Json& j, Refusal& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("reason", out.reason);
  r.OptionalOr("missing", out.missing);
  r.OptionalOr("alternatives", out.alternatives);
}
void to_json(Json& j, const Refusal& v) {
  j = {{"reason", v.reason}, {"missing", v.missing}, {"alternatives", v.alternatives}};
}

void FromJson(const Json& j, Answer& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("summary", out.summary);
  r.OptionalOr("evidence", out.evidence);
  r.Required("confidence", out.confidence);
  r.OptionalOr("confidenceReason", out.confidence_reason);
  r.OptionalOr("hypotheses", out.hypotheses);
  r.OptionalOr("recommendations", out.recommendations);
  r.OptionalOr("verify", out.verify);
  r.Optional("refusal", out.refusal);
  r.OptionalOr("markdown", out.markdown);
}
void to_json(Json& j, const Answer& v) {
  j = {{"summary", v.summary},       {"evidence", v.evidence},
       {"confidence", v.confidence}, {"confidenceReason", v.confidence_reason},
       {"hypotheses", v.hypotheses}, {"recommendations", v.recommendations},
       {"verify", v.verify},         {"markdown", v.markdown}};
  SetIfPresent(j, "refusal", v.refusal);
}

void FromJson(const Json& j, Finding& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("rootCause", out.root_cause);
  r.Required("title", out.title);
  r.Required("severity", out.severity);
  r.Required("atStakeNs", out.at_stake_ns);
  r.OptionalOr("skill", out.skill);
  r.OptionalOr("coverage", out.coverage);
  r.Required("answer", out.answer);
}
void to_json(Json& j, const Finding& v) {
  j = {{"rootCause", v.root_cause}, {"title", v.title},       {"severity", v.severity}, {"atStakeNs", v.at_stake_ns},
       {"skill", v.skill},          {"coverage", v.coverage}, {"answer", v.answer}};
}

}  // namespace nsys::protocol
