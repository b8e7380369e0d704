#pragma once
// nsys/exportTrace and nsys/openInPerfetto: typed params -> one core call (Workspace::ExportTrace,
// ExportTraceStream, PublishTrace) -> the wire's conversion (nsys/wire/trace.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// nsys/exportTrace: with a partialResultToken the trace streams as {chunk: base64, offset} values; with `output`
// (or without a token) it is written to that file (or one in the workspace's bounded trace cache) and the result
// carries its path. `output` is checked by trace::CheckTraceOutput against every profile the workspace opened: a
// refusal is -32602 naming the reason.
Expected<protocol::ExportTraceResult> OnExportTrace(const protocol::ExportTraceParams& params, RequestContext& ctx);
// nsys/openInPerfetto: writes the trace, publishes it on the side channel (SessionOptions::trace_publisher), returns
// {url, port, token, expiresAt, traceUrl, deepLink?, sshHint, ...} and, when the client supports it, asks it to open
// the URL (window/showDocument, external).
Expected<protocol::OpenInPerfettoResult> OnOpenInPerfetto(const protocol::OpenInPerfettoParams& params,
                                                          RequestContext& ctx);

}  // namespace nsys::lsp
