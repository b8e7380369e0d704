#include "nsys/wire/documents.h"

#include <fmt/format.h>

#include <utility>

#include "nsys/support/path_text.h"

namespace nsys::wire {

protocol::ReportResult ToReportResult(const std::string& profile_id, const core::ProfileReport& report) {
  protocol::ReportResult result;
  result.uri = protocol::ReportUri(profile_id);
  result.text = report.text;
  for (const core::ReportSpan& s : report.kernels) result.kernels.push_back({s.line, s.character, s.length, s.name});
  for (const core::ReportSpan& s : report.findings) result.findings.push_back({s.line, s.character, s.length, s.name});
  return result;
}

std::string FileUri(const std::string& path) {
  return support::FileUri(path);
}

std::vector<protocol::Diagnostic> ToDiagnostics(const std::vector<agent::Finding>& findings,
                                                const std::vector<protocol::ReportSpan>& report_findings) {
  std::vector<protocol::Diagnostic> out;
  for (const agent::Finding& f : findings) {
    protocol::Diagnostic d;
    for (const protocol::ReportSpan& span : report_findings) {
      if (span.name != f.root_cause) continue;
      d.range = {{span.line, span.character}, {span.line, span.character + span.length}};
      break;
    }
    d.severity = f.severity == agent::Severity::kHigh     ? protocol::DiagnosticSeverity::kWarning
                 : f.severity == agent::Severity::kMedium ? protocol::DiagnosticSeverity::kInformation
                                                          : protocol::DiagnosticSeverity::kHint;
    d.code = f.root_cause;
    d.message = f.title;
    if (!f.answer.summary.empty()) d.message += "\n" + f.answer.summary;
    if (!f.answer.recommendations.empty()) d.message += "\nRecommendation: " + f.answer.recommendations.front();
    out.push_back(std::move(d));
  }
  return out;
}

Expected<llm::Config> ToLlmConfig(const protocol::LlmOptions& options, const llm::Config& server,
                                  const llm::GetEnv& getenv) {
  llm::ClientChoice choice;
  choice.endpoint = options.endpoint;
  switch (options.provider) {
    case protocol::LlmProvider::kNone:
      choice.provider = llm::Provider::kNone;
      break;
    case protocol::LlmProvider::kOpenAI:
      choice.provider = llm::Provider::kOpenAI;
      break;
    case protocol::LlmProvider::kAnthropic:
      choice.provider = llm::Provider::kAnthropic;
      break;
  }
  choice.model = options.model.value_or("");
  choice.base_url = options.base_url.value_or("");
  choice.api_key = options.api_key;
  choice.api_key_env = options.api_key_env;
  auto config = llm::ResolveClientLlm(choice, server, getenv);
  if (!config) {
    return MakeError(ErrorKind::kInvalidArgument, "params.initializationOptions.llm." + config.error().message);
  }
  return config;
}

}  // namespace nsys::wire
