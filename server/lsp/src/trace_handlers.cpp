#include "nsys/lsp/trace_handlers.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>

#include "nsys/lsp/handlers.h"
#include "nsys/support/log.h"
#include "nsys/trace/trace_writer.h"

namespace nsys::lsp {

using protocol::Json;

namespace {

constexpr size_t kStreamChunkBytes = 256 * 1024;  // ~340 KB of base64 per $/progress value

Expected<trace::TraceOptions> OptionsFrom(const engine::ProfileInfo& info,
                                          const std::optional<protocol::Window>& window,
                                          const std::optional<std::vector<int32_t>>& devices,
                                          const std::optional<std::vector<int64_t>>& pids,
                                          const std::optional<int64_t>& min_duration_ns) {
  auto resolved = ResolveProtocolWindow(info, window);
  if (!resolved) return resolved.error();
  trace::TraceOptions options;
  options.filter.window = *resolved;
  if (devices) options.filter.devices = *devices;
  if (pids) {
    for (int64_t pid : *pids) {
      if (pid < 0 || pid > 0xFFFFFF) {
        return MakeError(ErrorKind::kInvalidArgument,
                         fmt::format("params.pids: {} is not a process id (0 to 16777215).", pid));
      }
      options.filter.processes.push_back(static_cast<uint32_t>(pid));
    }
  }
  if (min_duration_ns) {
    if (*min_duration_ns < 0) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("params.minDurationNs must not be negative (got {}).", *min_duration_ns));
    }
    options.min_duration_ns = *min_duration_ns;
  }
  return options;
}

// A fresh file name in `dir` ("h100_2gpu_1s.1234.7.pftrace"): several exports of one profile may be live at once.
std::string FreshTracePath(const std::string& dir, const engine::ProfileInfo& info) {
  static std::atomic<uint64_t> counter{0};
  const std::string stem = std::filesystem::path(TraceFileName(info)).stem().string();
  return (std::filesystem::path(dir) / fmt::format("{}.{}.{}.pftrace", stem, ::getpid(), ++counter)).string();
}

Status EnsureDirectory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return MakeError(ErrorKind::kInternal,
                     fmt::format("Cannot create the trace directory '{}': {}.", dir, ec.message()));
  return {};
}

}  // namespace

Json ExportResultJson(const trace::TraceStats& stats, std::optional<std::string> path, bool gzip_requested) {
  protocol::ExportTraceResult result;
  result.bytes = stats.bytes;
  result.sha256 = stats.sha256;
  result.gzip = false;
  result.path = std::move(path);
  result.notes.push_back(fmt::format("Window: {}.", stats.window));
  if (stats.clamped_slices > 0) {
    result.notes.push_back(
        fmt::format("{} slice(s) were clipped so that slices nest per track ({} on GPU streams, where overlaps come "
                    "from clock skew).",
                    stats.clamped_slices, stats.clamped_gpu_slices));
  }
  if (stats.skipped_short > 0) {
    result.notes.push_back(
        fmt::format("{} slice(s) shorter than the minimum duration were left out.", stats.skipped_short));
  }
  if (gzip_requested) {
    result.notes.push_back("gzip was requested, but this build writes uncompressed traces (Perfetto reads both).");
  }
  Json json = result;
  json["packets"] = stats.packets;
  json["tracks"] = stats.tracks;
  json["slices"] = {{"kernels", stats.kernels},   {"memcpys", stats.memcpys},        {"memsets", stats.memsets},
                    {"cudaApi", stats.api_calls}, {"nvtxRanges", stats.nvtx_ranges}, {"nvtxMarks", stats.nvtx_marks}};
  json["flows"] = stats.flows;
  json["counterValues"] = stats.counter_values;
  json["clampedSlices"] = stats.clamped_slices;
  json["skippedShort"] = stats.skipped_short;
  json["window"] = stats.window;
  json["seconds"] = std::round(stats.seconds * 1000.0) / 1000.0;
  json["cpuSeconds"] = std::round(stats.cpu_seconds * 1000.0) / 1000.0;
  return json;
}

Expected<engine::ResolvedWindow> ResolveProtocolWindow(const engine::ProfileInfo& info,
                                                       const std::optional<protocol::Window>& window) {
  engine::WindowSpec spec;
  if (window) {
    spec.clock = window->clock == protocol::WindowClock::kCaptureNs ? engine::WindowSpec::Clock::kCaptureNs
                                                                    : engine::WindowSpec::Clock::kRelativeSeconds;
    spec.start = window->start;
    spec.end = window->end;
  }
  return engine::ResolveWindow(info, spec);
}

std::string TraceFileName(const engine::ProfileInfo& info) {
  const std::string& source = info.source_path.empty() ? info.path : info.source_path;
  std::string stem = std::filesystem::path(source).stem().string();
  if (stem.empty()) stem = "profile";
  return stem + ".pftrace";
}

std::string TraceTitle(const engine::ProfileInfo& info, const engine::ResolvedWindow& window) {
  const std::string& source = info.source_path.empty() ? info.path : info.source_path;
  const std::string name = std::filesystem::path(source).filename().string();
  return window.whole ? name : fmt::format("{} ({})", name, window.description);
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

Expected<Json> OnExportTrace(const protocol::ExportTraceParams& params, RequestContext& ctx) {
  auto profile = ctx.workspace().Get(params.profile_id);
  if (!profile) return profile.error();
  auto options = OptionsFrom((*profile)->info(), params.window, params.devices, params.pids, params.min_duration_ns);
  if (!options) return options.error();
  const bool gzip_requested = params.gzip.value_or(false);

  if (ctx.wants_partial_results() && !params.output) {
    options->chunk_bytes = kStreamChunkBytes;
    int64_t offset = 0;
    auto stream = [&](std::string_view chunk) -> Status {
      ctx.SendPartialResult(Json{{"chunk", Base64(chunk)}, {"offset", offset}});
      offset += static_cast<int64_t>(chunk.size());
      return {};
    };
    auto stats = trace::ExportTrace(**profile, *options, stream, ctx.cancel(), ctx.progress());
    if (!stats) return stats.error();
    Json result = ExportResultJson(*stats, std::nullopt, gzip_requested);
    result["streamed"] = true;
    return result;
  }

  // Without `output` the trace goes to the workspace's bounded trace cache (trace_output.h: TraceCache).
  trace::TraceCache* cache = params.output ? nullptr : &ctx.workspace().TraceCache();
  std::string path;
  if (cache != nullptr) {
    auto fresh = cache->NewPath(std::filesystem::path(TraceFileName((*profile)->info())).stem().string());
    if (!fresh) return fresh.error();
    path = std::move(*fresh);
  } else {
    path = PathFromClient(*params.output);
  }
  auto stats = trace::ExportTraceToFile(**profile, *options, path, ctx.cancel(), ctx.progress(),
                                        ctx.workspace().TraceOutputPolicy());
  if (!stats) return stats.error();
  if (cache != nullptr) {
    for (const auto& gone : cache->Added(path)) support::LogDebug(fmt::format("trace cache: removed {}", gone));
  }
  Json result = ExportResultJson(*stats, path, gzip_requested);
  result["streamed"] = false;
  return result;
}

Expected<Json> OnOpenInPerfetto(const protocol::OpenInPerfettoParams& params, RequestContext& ctx) {
  TracePublisher* publisher = ctx.options().trace_publisher;
  if (publisher == nullptr) {
    return MakeError(ErrorKind::kUnsupported,
                     "This server has no Perfetto side channel; run `nsys-ai serve` (or `nsys-ai open FILE`).");
  }
  auto profile = ctx.workspace().Get(params.profile_id);
  if (!profile) return profile.error();
  auto options = OptionsFrom((*profile)->info(), params.window, std::nullopt, std::nullopt, std::nullopt);
  if (!options) return options.error();
  const std::string dir = publisher->TraceDirectory();
  if (Status made = EnsureDirectory(dir); !made.ok()) return made.error();
  const std::string path = FreshTracePath(dir, (*profile)->info());
  auto stats = trace::ExportTraceToFile(**profile, *options, path, ctx.cancel(), ctx.progress(),
                                        ctx.workspace().TraceOutputPolicy());
  if (!stats) return stats.error();
  if (ctx.cancel().cancelled()) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return MakeError(ErrorKind::kCancelled, "Opening in Perfetto was cancelled.");
  }

  TraceToPublish trace;
  trace.path = path;
  trace.title = TraceTitle((*profile)->info(), options->filter.window);
  trace.file_name = TraceFileName((*profile)->info());
  trace.perfetto_origin = ctx.settings().perfetto_origin;
  auto published = publisher->Publish(std::move(trace));
  if (!published) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return published.error();
  }

  protocol::OpenInPerfettoResult result;
  result.url = published->url;
  result.port = published->port;
  result.token = published->token;
  result.expires_at = published->expires_at;
  Json json = result;
  json["traceUrl"] = published->trace_url;
  if (!published->deep_link.empty()) json["deepLink"] = published->deep_link;
  json["sshHint"] = fmt::format("ssh -L {0}:127.0.0.1:{0} <this host>", published->port);
  json["bytes"] = stats->bytes;
  json["sha256"] = stats->sha256;
  json["clampedSlices"] = stats->clamped_slices;
  json["window"] = stats->window;

  if (ctx.settings().client.show_document) {
    protocol::ShowDocumentParams show;
    show.uri = published->url;
    show.external = true;
    ctx.client().ShowDocument(show, [url = published->url](Expected<bool> shown) {
      if (!shown)
        support::LogWarn(fmt::format("window/showDocument {} failed: {}", url, shown.error().message));
      else if (!*shown)
        support::LogInfo(fmt::format("the client did not open {}", url));
    });
    json["showDocument"] = true;
  } else {
    json["showDocument"] = false;
  }
  return json;
}

}  // namespace nsys::lsp
