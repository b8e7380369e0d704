#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

#include "nsys/core/traces.h"
#include "nsys/lsp/handlers.h"
#include "nsys/support/log.h"
#include "nsys/wire/trace.h"

namespace nsys::lsp {

namespace {

constexpr size_t kStreamChunkBytes = 256 * 1024;  // ~340 KB of base64 per $/progress value

// Asks the client to open the opener page; the answer is only logged (the result already carries the URL).
void ShowInClient(RequestContext& ctx, const std::string& url) {
  protocol::ShowDocumentParams show;
  show.uri = url;
  show.external = true;
  ctx.client().ShowDocument(show, [url](Expected<bool> shown) {
    if (!shown)
      support::LogWarn(fmt::format("window/showDocument {} failed: {}", url, shown.error().message));
    else if (!*shown)
      support::LogInfo(fmt::format("the client did not open {}", url));
  });
}

}  // namespace

Expected<protocol::ExportTraceResult> OnExportTrace(const protocol::ExportTraceParams& params, RequestContext& ctx) {
  auto request = wire::ToTraceRequest(params);
  if (!request) return request.error();
  const bool gzip_requested = params.gzip.value_or(false);
  Expected<core::TraceExport> trace = MakeError(ErrorKind::kInternal, "not written");
  if (ctx.wants_partial_results() && !params.output) {
    int64_t offset = 0;
    auto stream = [&](std::string_view chunk) -> Status {
      ctx.SendPartialResult(protocol::Json{{"chunk", wire::Base64(chunk)}, {"offset", offset}});
      offset += static_cast<int64_t>(chunk.size());
      return {};
    };
    trace = ctx.workspace().ExportTraceStream(*request, stream, kStreamChunkBytes, ctx.cancel(), ctx.progress());
  } else {
    if (params.output) request->output = PathFromClient(*params.output);
    trace = ctx.workspace().ExportTrace(*request, ctx.cancel(), ctx.progress());
  }
  if (!trace) return trace.error();
  return wire::ToExportTraceResult(*trace, gzip_requested);
}

Expected<protocol::OpenInPerfettoResult> OnOpenInPerfetto(const protocol::OpenInPerfettoParams& params,
                                                          RequestContext& ctx) {
  core::TracePublisher* publisher = ctx.options().trace_publisher;
  if (publisher == nullptr) {
    return MakeError(ErrorKind::kUnsupported,
                     "This server has no Perfetto side channel; run `nsys-ai serve` (or `nsys-ai open FILE`).");
  }
  Expected<core::TracePublication> publication = MakeError(ErrorKind::kInternal, "not published");
  if (params.job_id) {
    auto request = wire::ToJobTraceRequest(params);
    if (!request) return request.error();
    publication = ctx.workspace().PublishJobTrace(std::move(*request), *publisher, ctx.settings().perfetto_origin,
                                                  ctx.cancel(), ctx.progress());
  } else {
    publication = ctx.workspace().PublishTrace(wire::ToTraceRequest(params), *publisher, ctx.settings().perfetto_origin,
                                               ctx.cancel(), ctx.progress());
  }
  if (!publication) return publication.error();
  const bool show = ctx.settings().client.show_document;
  if (show) ShowInClient(ctx, publication->published.url);
  return wire::ToOpenInPerfettoResult(*publication, show);
}

}  // namespace nsys::lsp
