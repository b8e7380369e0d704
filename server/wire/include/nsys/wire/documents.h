#pragma once
// Editor view conversions: a core::ProfileReport → nsys/report's result; findings → LSP diagnostics; a profile path →
// its file URI; a session's initializationOptions.llm → the llm::Config its nsys/ask uses.
#include <string>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/core/report.h"
#include "nsys/llm/config.h"
#include "nsys/protocol/documents.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

protocol::ReportResult ToReportResult(const std::string& profile_id, const core::ProfileReport& report);

// `file:///abs/path` with the bytes outside unreserved characters and '/' percent-encoded.
std::string FileUri(const std::string& path);

// One Diagnostic per finding: severity high → Warning, medium → Information, else Hint; source "nsys-ai", code the
// root cause, message the title, the summary and "Recommendation: ...". Each at the line of the report span whose
// name is its root cause (`report_findings`), else at 0:0.
std::vector<protocol::Diagnostic> ToDiagnostics(const std::vector<agent::Finding>& findings,
                                                const std::vector<protocol::ReportSpan>& report_findings = {});

// initializationOptions.llm over the server's own settings (timeouts, retries), by llm::ResolveClientLlm: one of the
// server's endpoints by name, or the client's own endpoint with the client's own key or a permitted key variable
// (kInvalidArgument naming params.initializationOptions.llm.<member> otherwise). `getenv` is for tests.
Expected<llm::Config> ToLlmConfig(const protocol::LlmOptions& options, const llm::Config& server,
                                  const llm::GetEnv& getenv);

}  // namespace nsys::wire
