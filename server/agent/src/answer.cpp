#include "nsys/agent/answer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <variant>

#include "nsys/support/human_numbers.h"
#include "nsys/support/path_text.h"
#include "nsys/support/render_text.h"

namespace nsys::agent {

namespace {

bool IsSafeShellChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         std::string_view("_./:=@%+,-").find(c) != std::string_view::npos;
}

// A value as the CLI's --arg reads it: integers plainly, doubles with enough digits to round-trip, bools as
// true/false.
std::string ArgText(const Value& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return "";
}

std::string ValueText(const Value& v) {
  if (const auto* d = std::get_if<double>(&v)) {
    if (!std::isfinite(*d)) return "";
    if (std::fabs(*d) >= 1e6 || *d == std::floor(*d)) return fmt::format("{:.0f}", *d);
    return fmt::format("{:.4g}", *d);
  }
  return ArgText(v);
}

// A table cell: text from the profile, inert (support::MarkdownText: no HTML, link, code span or new cell).
std::string MarkdownCell(const std::string& text) {
  return support::MarkdownText(text);
}

void AppendEvidence(std::string& out, const Evidence& e, size_t max_rows) {
  out += fmt::format("**{}** (skill `{}`)\n\n", e.caption, e.call.skill);
  if (e.columns.empty()) return;
  out += "|";
  for (const auto& c : e.columns) out += " " + MarkdownCell(c) + " |";
  out += "\n|";
  for (size_t i = 0; i < e.columns.size(); ++i) out += " --- |";
  out += "\n";
  const size_t shown = std::min(e.rows.size(), max_rows);
  for (size_t r = 0; r < shown; ++r) {
    out += "|";
    for (const auto& cell : e.rows[r]) out += " " + MarkdownCell(ValueText(cell)) + " |";
    out += "\n";
  }
  if (e.rows.size() > shown) out += fmt::format("\n({} more rows)\n", e.rows.size() - shown);
  out += "\n";
}

}  // namespace

std::string ShellQuote(const std::string& word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), IsSafeShellChar)) return word;
  if (!support::IsValidUtf8(word)) {  // $'...' with \xHH: the exact bytes, in text that stays valid UTF-8 for JSON
    std::string out = "$'";
    for (const char ch : word) {
      const auto c = static_cast<unsigned char>(ch);
      if (c >= 0x20 && c < 0x7F && c != '\'' && c != '\\') {
        out += ch;
      } else {
        out += fmt::format("\\x{:02X}", c);
      }
    }
    return out + "'";
  }
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string VerifyCommand(const SkillCall& call, const std::string& profile_path) {
  std::string cmd = "nsys-ai skill run " + ShellQuote(call.skill) + " " + ShellQuote(profile_path);
  std::vector<std::string> unsaid;
  const auto& f = call.filter;
  if (!f.devices.empty()) {
    cmd += " --device " + std::to_string(f.devices.front());
    if (f.devices.size() > 1) unsaid.push_back(fmt::format("{} devices", f.devices.size()));
  }
  if (!f.processes.empty()) {
    cmd += " --pid " + std::to_string(f.processes.front());
    if (f.processes.size() > 1) unsaid.push_back(fmt::format("{} processes", f.processes.size()));
  }
  if (!f.threads.empty()) unsaid.push_back(fmt::format("{} threads", f.threads.size()));
  const auto& w = f.window;
  if (w.start && w.end) {
    cmd += fmt::format(" --trim {} {}", *w.start, *w.end);
  } else {
    if (w.start) cmd += fmt::format(" --arg start={}", *w.start);
    if (w.end) cmd += fmt::format(" --arg end={}", *w.end);
  }
  if ((w.start || w.end) && w.clock != WindowClock::kRelativeSeconds) {
    cmd += " --clock " + std::string(WindowClockName(w.clock));
  }
  for (const auto& [name, value] : call.args) {
    if (IsNull(value)) continue;
    cmd += " --arg " + ShellQuote(name + "=" + ArgText(value));
  }
  if (!unsaid.empty()) {
    std::string list;
    for (const auto& u : unsaid) list += (list.empty() ? "" : ", ") + u;
    cmd += "  # the answer used a filter of " + list + "; the command shows the first of each";
  }
  return cmd;
}

std::string_view ConfidenceName(Confidence c) {
  switch (c) {
    case Confidence::kHigh:
      return "high";
    case Confidence::kMedium:
      return "medium";
    case Confidence::kLow:
      return "low";
  }
  return "medium";
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kHigh:
      return "high";
    case Severity::kMedium:
      return "medium";
    case Severity::kLow:
      return "low";
    case Severity::kInfo:
      return "info";
  }
  return "info";
}

Answer Refuse(Refusal refusal) {
  Answer a;
  a.summary = refusal.reason;
  a.confidence = Confidence::kHigh;
  a.confidence_reason = "the profile lacks the data the question needs";
  a.refusal = std::move(refusal);
  return a;
}

Evidence EvidenceFrom(const SkillCall& call, const skills::Table& table, const std::vector<std::string>& columns,
                      size_t limit, std::string caption) {
  Evidence e;
  e.call = call;
  e.caption = std::move(caption);
  std::vector<size_t> index;
  for (const auto& name : columns) {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].name == name) {
        index.push_back(i);
        e.columns.push_back(name);
        break;
      }
    }
  }
  const size_t n = limit == 0 ? table.rows.size() : std::min(limit, table.rows.size());
  e.rows.reserve(n);
  for (size_t r = 0; r < n; ++r) {
    std::vector<Value> row;
    row.reserve(index.size());
    for (size_t i : index) row.push_back(i < table.rows[r].size() ? table.rows[r][i] : Value{});
    e.rows.push_back(std::move(row));
  }
  return e;
}

std::string RenderMarkdown(const Answer& answer, size_t max_rows) {
  std::string out = answer.summary + "\n\n";
  if (answer.refusal) {
    const auto& r = *answer.refusal;
    for (const auto& m : r.missing) out += "- Missing: " + m + "\n";
    if (!r.alternatives.empty()) {
      out += "\nThis profile can answer instead:\n";
      for (const auto& q : r.alternatives) out += "- " + q + "\n";
    }
    return out;
  }
  if (!answer.evidence.empty()) out += "### Evidence\n\n";
  for (const auto& e : answer.evidence) AppendEvidence(out, e, max_rows);
  if (!answer.hypotheses.empty()) {
    out += "### Hypotheses (not proven by the profile)\n\n";
    for (const auto& h : answer.hypotheses) out += "- " + h + "\n";
    out += "\n";
  }
  if (!answer.recommendations.empty()) {
    out += "### What to do\n\n";
    for (const auto& r : answer.recommendations) out += "- " + r + "\n";
    out += "\n";
  }
  out += fmt::format("Confidence: {} ({}).\n", ConfidenceName(answer.confidence), answer.confidence_reason);
  if (!answer.verify.empty()) out += "\nVerify: " + support::MarkdownCode(answer.verify) + "\n";
  return out;
}

std::string RenderMarkdown(const Finding& finding, size_t max_rows) {
  std::string out = fmt::format("## [{}] {}\n\n", SeverityName(finding.severity), support::MarkdownText(finding.title));
  out += fmt::format("Root cause `{}` · skill `{}` · at stake ≈ {} · coverage: {}\n\n", finding.root_cause,
                     finding.skill, support::HumanDuration(static_cast<double>(finding.at_stake_ns)), finding.coverage);
  return out + RenderMarkdown(finding.answer, max_rows);
}

}  // namespace nsys::agent
