#include "nsys/wire/answer.h"

#include <string>
#include <vector>

namespace nsys::wire {

namespace {

protocol::SkillCallRef ToCallRef(const agent::SkillCall& call) {
  protocol::SkillCallRef ref;
  ref.skill = call.skill;
  for (const auto& [name, value] : call.args) ref.args[name] = value;
  const auto& f = call.filter;
  const bool any = f.window.start || f.window.end || !f.devices.empty() || !f.processes.empty() || !f.threads.empty();
  if (any) ref.filter = ToProtocolFilter(f);
  return ref;
}

protocol::Evidence ToProtocolEvidence(const agent::Evidence& e) {
  protocol::Evidence out;
  out.call = ToCallRef(e.call);
  out.caption = e.caption;
  out.columns = e.columns;
  out.rows.reserve(e.rows.size());
  for (const auto& row : e.rows) out.rows.emplace_back(row.begin(), row.end());
  return out;
}

}  // namespace

protocol::Filter ToProtocolFilter(const engine::FilterSpec& f) {
  protocol::Filter out;
  if (f.window.start || f.window.end) {
    protocol::Window w;
    w.start = f.window.start;
    w.end = f.window.end;
    w.clock = f.window.clock == WindowClock::kCaptureNs ? protocol::WindowClock::kCaptureNs
                                                        : protocol::WindowClock::kRelativeSeconds;
    out.window = w;
  }
  if (!f.devices.empty()) out.devices = f.devices;
  if (!f.processes.empty()) out.processes = std::vector<int64_t>(f.processes.begin(), f.processes.end());
  if (!f.threads.empty()) {
    out.threads.emplace();
    for (uint64_t t : f.threads) out.threads->push_back(static_cast<int64_t>(t));
  }
  return out;
}

protocol::Answer ToProtocolAnswer(const agent::Answer& a) {
  protocol::Answer out;
  out.summary = a.summary;
  for (const auto& e : a.evidence) out.evidence.push_back(ToProtocolEvidence(e));
  out.confidence = std::string(agent::ConfidenceName(a.confidence));
  out.confidence_reason = a.confidence_reason;
  out.hypotheses = a.hypotheses;
  out.recommendations = a.recommendations;
  out.verify = a.verify;
  if (a.refusal) out.refusal = protocol::Refusal{a.refusal->reason, a.refusal->missing, a.refusal->alternatives};
  out.markdown = agent::RenderMarkdown(a);
  return out;
}

protocol::Finding ToProtocolFinding(const agent::Finding& f) {
  protocol::Finding out;
  out.root_cause = f.root_cause;
  out.title = f.title;
  out.severity = std::string(agent::SeverityName(f.severity));
  out.at_stake_ns = f.at_stake_ns;
  out.skill = f.skill;
  out.coverage = f.coverage;
  out.answer = ToProtocolAnswer(f.answer);
  return out;
}

}  // namespace nsys::wire
