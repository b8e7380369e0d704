#include "nsys/wire/documents.h"

#include <fmt/format.h>

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
  std::string uri = "file://";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '.' || c == '_' || c == '~' || c == '/';
    uri += plain ? std::string(1, ch) : fmt::format("%{:02X}", c);
  }
  return uri;
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
  llm::Config config = server;
  config.api_key.clear();
  switch (options.provider) {
    case protocol::LlmProvider::kNone:
      config.provider = llm::Provider::kNone;
      return config;
    case protocol::LlmProvider::kOpenAI:
      config.provider = llm::Provider::kOpenAI;
      break;
    case protocol::LlmProvider::kAnthropic:
      config.provider = llm::Provider::kAnthropic;
      break;
  }
  config.model = options.model.value_or("");
  config.base_url = options.base_url.value_or("");
  if (options.api_key_env) {
    const char* key = getenv(options.api_key_env->c_str());
    if (key == nullptr) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("params.initializationOptions.llm.apiKeyEnv: the server's environment has no "
                                   "variable '{}'",
                                   *options.api_key_env));
    }
    config.api_key = key;
  }
  return config;
}

}  // namespace nsys::wire
