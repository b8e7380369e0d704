#pragma once
// Traces between the core (core/traces.h) and the wire: nsys/exportTrace and nsys/openInPerfetto params to a
// core::TraceRequest, the core's results to the protocol's typed results, and the base64 of streamed chunks. The
// LSP handlers, the MCP tools and `nsys-ai export --format json` all convert here, so they send the same fields.
#include <optional>
#include <string>
#include <string_view>

#include "nsys/core/traces.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// The request of an exportTrace / openInPerfetto call (output not included: a face maps a client's path itself).
// kInvalidArgument for a pid outside 0..16777215 or a negative minDurationNs, naming the field.
Expected<core::TraceRequest> ToTraceRequest(const protocol::ExportTraceParams& params);
core::TraceRequest ToTraceRequest(const protocol::OpenInPerfettoParams& params);
// nsys/openInPerfetto on a job (params.job_id set): kInvalidArgument with a profileId or a window too, or a negative
// ranksPerNode.
Expected<core::JobTraceRequest> ToJobTraceRequest(const protocol::OpenInPerfettoParams& params);

// The exportTrace result: the bytes, hash and path, notes for a human (the window, clipped and skipped slices, a
// gzip request this build does not honour) and the writer's counts.
protocol::ExportTraceResult ToExportTraceResult(const core::TraceExport& trace, bool gzip_requested);
// The writer's slice counts as the wire names them (a profile's trace and a job's).
protocol::TraceSliceCounts ToTraceSliceCounts(const core::TraceStats& stats);
// The openInPerfetto result; `show_document`: whether the face asked the client to open the URL.
protocol::OpenInPerfettoResult ToOpenInPerfettoResult(const core::TracePublication& publication,
                                                      std::optional<bool> show_document);

// Standard base64 (RFC 4648, with padding): streamed trace chunks travel as text.
std::string Base64(std::string_view bytes);

}  // namespace nsys::wire
