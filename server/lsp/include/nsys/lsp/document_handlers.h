#pragma once
// nsys/report (the profile as a text document), textDocument/hover on report uris, the document
// notifications (did{Open,Change,Close,Save}), and findings published as diagnostics (after nsys/analyze, cleared by
// nsys/closeProfile).
#include <string>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/documents.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// Renders the report (Workspace::Report) and keeps it in the session under its uri for hovers and diagnostics.
Expected<protocol::ReportResult> OnReport(const protocol::ReportParams& params, RequestContext& ctx);
// On a report uri: a kernel span → that kernel's explanation (Workspace::ExplainKernel) as Markdown; a finding span
// → the finding's Markdown; elsewhere, and on any other uri, null.
Expected<protocol::HoverResult> OnHover(const protocol::HoverParams& params, RequestContext& ctx);

void OnDidOpen(const protocol::DidOpenParams& params, NotificationContext& ctx);
void OnDidChange(const protocol::DidChangeParams& params, NotificationContext& ctx);
void OnDidClose(const protocol::DidCloseParams& params, NotificationContext& ctx);
void OnDidSave(const protocol::DidCloseParams& params, NotificationContext& ctx);

// textDocument/publishDiagnostics of `findings` on the profile's file uri and, when the session rendered a report
// of it, on the report uri (each finding at its line there). Empty `findings` clears both.
void PublishFindings(RequestContext& ctx, const std::string& profile_id, const std::string& profile_path,
                     const std::vector<agent::Finding>& findings);

}  // namespace nsys::lsp
