#pragma once
// nsys/exportTrace and nsys/openInPerfetto, and the interface through which the LSP layer hands a finished trace to
// the loopback HTTP side channel (which lives in the transport library: no asio here).
#include <cstdint>
#include <optional>
#include <string>

#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/expected.h"
#include "nsys/trace/trace_writer.h"

namespace nsys::lsp {

struct TraceToPublish {
  std::string path;             // a finished trace file; the publisher owns it from now on (deletes it on expiry)
  std::string title;            // shown by Perfetto ("h100_2gpu_1s.sqlite, 0.2 s to 0.4 s")
  std::string file_name;        // suggested name of the trace ("h100_2gpu_1s.pftrace")
  std::string perfetto_origin;  // where the opener page sends the trace; empty = the publisher's default
};

struct PublishedTrace {
  std::string url;  // the opener page: http://127.0.0.1:PORT/p/TOKEN/
  uint16_t port = 0;
  std::string token;       // 128 random bits, hex
  std::string expires_at;  // ISO 8601 UTC
  std::string trace_url;   // http://127.0.0.1:PORT/p/TOKEN/trace.pftrace
  std::string deep_link;   // https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/TOKEN/trace.pftrace, or empty
};

// Serves finished traces to a local browser. Implementations are thread-safe.
class TracePublisher {
 public:
  virtual ~TracePublisher() = default;
  // A directory the publisher may serve from and clean up: write traces there before publishing them.
  virtual std::string TraceDirectory() const = 0;
  virtual Expected<PublishedTrace> Publish(TraceToPublish trace) = 0;
};

// protocol window -> engine window (the clock defaults to seconds from the profile start).
Expected<engine::ResolvedWindow> ResolveProtocolWindow(const engine::ProfileInfo& info,
                                                       const std::optional<protocol::Window>& window);

// The exportTrace result: the protocol's ExportTraceResult plus the writer's counts (packets, tracks, slices by kind,
// flows, counterValues, clampedSlices, skippedShort, window, seconds). `nsys-ai export --format json` prints the same.
protocol::Json ExportResultJson(const trace::TraceStats& stats, std::optional<std::string> path, bool gzip_requested);

// "<stem>.pftrace" for a profile path; a trace title naming the file and the window.
std::string TraceFileName(const engine::ProfileInfo& info);
std::string TraceTitle(const engine::ProfileInfo& info, const engine::ResolvedWindow& window);

// nsys/exportTrace: with a partialResultToken the trace streams as {chunk: base64, offset} values; with `output`
// (or without a token) it is written to that file (or one in the workspace's bounded trace cache) and the result
// carries its path. `output` is checked by trace::CheckTraceOutput against every profile the workspace opened: a
// refusal is -32602 naming the reason.
Expected<protocol::Json> OnExportTrace(const protocol::ExportTraceParams& params, RequestContext& ctx);
// nsys/openInPerfetto: writes the trace, publishes it on the side channel, returns {url, port, token, expiresAt,
// deepLink?} and, when the client supports it, asks it to open the URL (window/showDocument, external).
Expected<protocol::Json> OnOpenInPerfetto(const protocol::OpenInPerfettoParams& params, RequestContext& ctx);

// Standard base64 (RFC 4648, with padding).
std::string Base64(std::string_view bytes);

}  // namespace nsys::lsp
