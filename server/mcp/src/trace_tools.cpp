// The MCP tools for Perfetto traces: export_trace and open_in_perfetto, through the editor methods' conversions.
#include <optional>
#include <utility>

#include "nsys/core/traces.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/trace.h"
#include "tool_handlers.h"

namespace nsys::mcp {

Expected<protocol::ExportTraceResult> OnExportTrace(const args::ExportTraceArgs& a, ToolContext& ctx) {
  auto request = wire::ToTraceRequest(a);  // the reader has checked what this could refuse
  if (!request) return ctx.Refuse(request.error());
  if (a.output) request->output = support::PathFromText(*a.output);
  auto trace = ctx.workspace.ExportTrace(*request, ctx.cancel);
  if (!trace) return trace.error();
  return wire::ToExportTraceResult(*trace, false);
}

// A profile's trace, or a job's (every rank on the job's clock, as the editors' openInPerfetto {jobId}).
Expected<protocol::OpenInPerfettoResult> OnOpenInPerfetto(const args::OpenInPerfettoArgs& a, ToolContext& ctx) {
  if (ctx.publisher == nullptr) return MakeError(ErrorKind::kUnsupported, "This server has no Perfetto side channel.");
  Expected<core::TracePublication> publication = MakeError(ErrorKind::kInternal, "not published");
  if (a.job_id) {
    auto request = wire::ToJobTraceRequest(a);
    if (!request) return ctx.Refuse(request.error());
    publication = ctx.workspace.PublishJobTrace(std::move(*request), *ctx.publisher, "", ctx.cancel);
  } else {
    publication = ctx.workspace.PublishTrace(wire::ToTraceRequest(a), *ctx.publisher, "", ctx.cancel);
  }
  if (!publication) return publication.error();
  return wire::ToOpenInPerfettoResult(*publication, std::nullopt);
}

}  // namespace nsys::mcp
