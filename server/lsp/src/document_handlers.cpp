#include "nsys/lsp/document_handlers.h"

#include <utility>

#include "nsys/lsp/session_sources.h"
#include "nsys/lsp/source_handlers.h"
#include "nsys/support/log.h"
#include "nsys/wire/documents.h"

namespace nsys::lsp {

namespace {

bool Contains(const protocol::ReportSpan& span, const protocol::Position& at) {
  return span.line == at.line && span.character <= at.character && at.character < span.character + span.length;
}

protocol::Range RangeOf(const protocol::ReportSpan& span) {
  return {{span.line, span.character}, {span.line, span.character + span.length}};
}

// The report as the session keeps it for hovers and diagnostics.
StoredReport StoredOf(const std::string& profile_id, const core::ProfileReport& report) {
  StoredReport stored;
  stored.profile_id = profile_id;
  stored.result = wire::ToReportResult(profile_id, report);
  for (const agent::Finding& f : report.finding_details) stored.finding_markdown.push_back(agent::RenderMarkdown(f));
  return stored;
}

}  // namespace

// With a partialResultToken, each partial document goes out as a $/progress value (the whole document so
// far, the summary first) and is kept for hovers at once, so a kernel of the top table explains before analyze ends.
Expected<protocol::ReportResult> OnReport(const protocol::ReportParams& params, RequestContext& ctx) {
  core::ReportSink on_partial;
  if (ctx.wants_partial_results()) {
    on_partial = [&ctx, &params](const core::ProfileReport& partial) {
      StoredReport stored = StoredOf(params.profile_id, partial);
      ctx.SendPartialResult(stored.result);
      if (ctx.settings().documents) ctx.settings().documents->PutReport(std::move(stored));
    };
  }
  auto report = ctx.workspace().Report(params.profile_id, on_partial, ctx.cancel(), ctx.progress());
  if (!report) return report.error();
  StoredReport stored = StoredOf(params.profile_id, *report);
  protocol::ReportResult result = stored.result;
  if (ctx.settings().documents) ctx.settings().documents->PutReport(std::move(stored));
  return result;
}

Expected<protocol::HoverResult> OnHover(const protocol::HoverParams& params, RequestContext& ctx) {
  if (!ctx.settings().documents) return protocol::HoverResult{};
  if (Status kept = ctx.settings().documents->Refusal(params.uri); !kept) return kept.error();
  const auto report = ctx.settings().documents->Report(params.uri);
  if (!report) return SourceHover(params, ctx);  // a user's source file, else null
  const std::string set_id = ctx.settings().sources ? ctx.settings().sources->set_id() : "";
  for (const protocol::ReportSpan& span : report->result.kernels) {
    if (!Contains(span, params.position)) continue;
    // With an LLM configured, its paragraph when ready; never waits on the model.
    auto explanation = ctx.workspace().ExplainKernelForEditor(report->profile_id, span.name, set_id, ctx.settings().llm,
                                                              ctx.cancel(), ctx.progress());
    if (!explanation) return explanation.error();
    return protocol::HoverResult{protocol::Hover{{"markdown", explanation->markdown}, RangeOf(span)}};
  }
  for (size_t i = 0; i < report->result.findings.size() && i < report->finding_markdown.size(); ++i) {
    const protocol::ReportSpan& span = report->result.findings[i];
    if (!Contains(span, params.position)) continue;
    return protocol::HoverResult{protocol::Hover{{"markdown", report->finding_markdown[i]}, RangeOf(span)}};
  }
  return protocol::HoverResult{};
}

namespace {

// A refused notification has no reply: the client hears it as a window/logMessage error (as other refused
// notifications are told), the log gets a line, and a later request on the document answers the same -32803.
void TellRefused(const Error& error, NotificationContext& ctx) {
  support::LogWarn(error.message);
  ctx.client().LogMessage(protocol::MessageType::kError, error.message);
}

}  // namespace

void OnDidOpen(const protocol::DidOpenParams& params, NotificationContext& ctx) {
  if (Status kept = ctx.documents().Open(params.text_document.uri, params.text_document.text); !kept) {
    TellRefused(kept.error(), ctx);
    SourceTextClosed(params.text_document.uri, ctx);  // the source index reads the file from the disk
    return;
  }
  SourceTextChanged(params.text_document.uri, params.text_document.text, ctx);
}

void OnDidChange(const protocol::DidChangeParams& params, NotificationContext& ctx) {
  if (params.texts.empty()) return;
  if (Status kept = ctx.documents().Change(params.uri, params.texts.back()); !kept) {
    TellRefused(kept.error(), ctx);
    SourceTextClosed(params.uri, ctx);
    return;
  }
  if (!ctx.documents().Refusal(params.uri).ok()) return;  // a refused document stays refused until didClose
  SourceTextChanged(params.uri, params.texts.back(), ctx);
}

void OnDidClose(const protocol::DidCloseParams& params, NotificationContext& ctx) {
  ctx.documents().Close(params.uri);
  SourceTextClosed(params.uri, ctx);
}

void OnDidSave(const protocol::DidCloseParams& params, NotificationContext& ctx) {
  SourceSaved(params.uri, ctx);  // the text came with didChange; a source file not open is read again
}

void PublishFindings(RequestContext& ctx, const std::string& profile_id, const std::string& profile_path,
                     const std::vector<agent::Finding>& findings) {
  ctx.client().Notify(
      protocol::method::kPublishDiagnostics,
      protocol::Json(protocol::PublishDiagnosticsParams{wire::FileUri(profile_path), wire::ToDiagnostics(findings)}));
  if (!ctx.settings().documents) return;
  const std::string uri = protocol::ReportUri(profile_id);
  const auto report = ctx.settings().documents->Report(uri);
  if (!report) return;
  ctx.client().Notify(
      protocol::method::kPublishDiagnostics,
      protocol::Json(protocol::PublishDiagnosticsParams{uri, wire::ToDiagnostics(findings, report->result.findings)}));
}

}  // namespace nsys::lsp
