#include "nsys/wire/trace.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "nsys/support/path_text.h"
#include "nsys/wire/skill_args.h"

namespace nsys::wire {
namespace {

double Milliseconds(double seconds) {
  return std::round(seconds * 1000.0) / 1000.0;
}

std::vector<std::string> NotesFor(const core::TraceStats& stats, bool gzip_requested) {
  std::vector<std::string> notes;
  notes.push_back(fmt::format("Window: {}.", stats.window));
  if (stats.clamped_slices > 0) {
    notes.push_back(
        fmt::format("{} slice(s) were clipped so that slices nest per track ({} on GPU streams, where overlaps come "
                    "from clock skew).",
                    stats.clamped_slices, stats.clamped_gpu_slices));
  }
  if (stats.skipped_short > 0) {
    notes.push_back(fmt::format("{} slice(s) shorter than the minimum duration were left out.", stats.skipped_short));
  }
  if (gzip_requested) {
    notes.push_back("gzip was requested, but this build writes uncompressed traces (Perfetto reads both).");
  }
  return notes;
}

}  // namespace

namespace {

// One member of the filter given both as exportTrace's own field (window, devices, pids) and in `filter`.
Error GivenTwice(const char* field, const char* member) {
  return MakeError(ErrorKind::kInvalidArgument,
                   fmt::format("params.{} and params.filter.{} both given: use one of them", field, member));
}

}  // namespace

Expected<core::TraceRequest> ToTraceRequest(const protocol::ExportTraceParams& params) {
  core::TraceRequest request;
  request.profile_id = params.profile_id;
  protocol::Filter filter = params.filter.value_or(protocol::Filter{});
  if (params.window) {
    if (filter.window) return GivenTwice("window", "window");
    filter.window = params.window;
  }
  if (params.devices) {
    if (filter.devices && !filter.devices->empty()) return GivenTwice("devices", "devices");
    filter.devices = params.devices;
  }
  if (params.pids) {
    for (int64_t pid : *params.pids) {
      if (pid < 0 || pid > 0xFFFFFF) {
        return MakeError(ErrorKind::kInvalidArgument,
                         fmt::format("params.pids: {} is not a process id (0 to 16777215).", pid));
      }
    }
    if (filter.processes && !filter.processes->empty()) return GivenTwice("pids", "processes");
    filter.processes = params.pids;
  }
  auto spec = ToFilterSpec(filter);
  if (!spec) return spec.error();
  request.filter = std::move(*spec);
  if (params.min_duration_ns) {
    if (*params.min_duration_ns < 0) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("params.minDurationNs must not be negative (got {}).", *params.min_duration_ns));
    }
    request.min_duration_ns = *params.min_duration_ns;
  }
  return request;
}

core::TraceRequest ToTraceRequest(const protocol::OpenInPerfettoParams& params) {
  core::TraceRequest request;
  request.profile_id = params.profile_id;
  request.filter.window = ToWindowSpec(params.window);
  return request;
}

Expected<core::JobTraceRequest> ToJobTraceRequest(const protocol::OpenInPerfettoParams& params) {
  if (!params.profile_id.empty())
    return MakeError(ErrorKind::kInvalidArgument, "params: give profileId or jobId, not both");
  if (params.window)
    return MakeError(ErrorKind::kInvalidArgument,
                     "params.window applies to a profile's trace; a job's trace holds each rank whole");
  core::JobTraceRequest request;
  request.job_id = params.job_id.value_or("");
  const int64_t per_node = params.ranks_per_node.value_or(0);
  if (per_node < 0)
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("params.ranksPerNode must not be negative (got {}).", per_node));
  request.ranks_per_node = per_node;
  return request;
}

protocol::TraceSliceCounts ToTraceSliceCounts(const core::TraceStats& stats) {
  return {stats.kernels, stats.memcpys, stats.memsets, stats.api_calls, stats.nvtx_ranges, stats.nvtx_marks};
}

protocol::ExportTraceResult ToExportTraceResult(const core::TraceExport& trace, bool gzip_requested) {
  const core::TraceStats& stats = trace.stats;
  protocol::ExportTraceResult result;
  result.bytes = stats.bytes;
  result.sha256 = stats.sha256;
  result.gzip = false;
  if (trace.path) result.path = support::PathToText(*trace.path);
  result.notes = NotesFor(stats, gzip_requested);
  result.packets = stats.packets;
  result.tracks = stats.tracks;
  result.slices = ToTraceSliceCounts(stats);
  result.flows = stats.flows;
  result.counter_values = stats.counter_values;
  result.clamped_slices = stats.clamped_slices;
  result.skipped_short = stats.skipped_short;
  result.window = stats.window;
  result.seconds = Milliseconds(stats.seconds);
  result.cpu_seconds = Milliseconds(stats.cpu_seconds);
  result.streamed = trace.streamed;
  return result;
}

protocol::OpenInPerfettoResult ToOpenInPerfettoResult(const core::TracePublication& publication,
                                                      std::optional<bool> show_document) {
  const core::PublishedTrace& published = publication.published;
  protocol::OpenInPerfettoResult result;
  result.url = published.url;
  result.port = published.port;
  result.token = published.token;
  result.expires_at = published.expires_at;
  result.trace_url = published.trace_url;
  if (!published.deep_link.empty()) result.deep_link = published.deep_link;
  result.ssh_hint = fmt::format("ssh -L {0}:127.0.0.1:{0} <this host>", published.port);
  result.bytes = publication.stats.bytes;
  result.sha256 = publication.stats.sha256;
  result.clamped_slices = publication.stats.clamped_slices;
  result.window = publication.stats.window;
  result.show_document = show_document;
  return result;
}

std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (const size_t rest = bytes.size() - i; rest > 0) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace nsys::wire
