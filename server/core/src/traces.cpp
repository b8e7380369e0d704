// The Workspace's trace calls and the steps every face shares: one place for naming, directories, output checks,
// cleanup and publishing (the LSP handlers, the CLI's export/open and the MCP tools all come through here).
#include "nsys/core/traces.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/support/cache_dir.h"
#include "nsys/support/human_bytes.h"
#include "nsys/support/log.h"
#include "nsys/trace/trace_output.h"
#include "nsys/trace/validator.h"

namespace nsys::core {
namespace {

const std::string& SourceOf(const engine::ProfileInfo& info) {
  return info.source_path.empty() ? info.path : info.source_path;
}

// A fresh file name in `dir` ("h100_2gpu_1s.1234.7.pftrace", "job-j1.1234.8.pftrace"): several publications of one
// profile or run may be live at once.
std::string FreshTracePath(const std::string& dir, const std::string& stem) {
  static std::atomic<uint64_t> counter{0};
  return (std::filesystem::path(dir) / fmt::format("{}.{}.{}.pftrace", stem, ::getpid(), ++counter)).string();
}

// The published traces' directory (<cache>/traces) and the cache above it are this user's with mode 0700 (another
// user could otherwise read or replace them), or refused naming their owner and mode.
Status EnsureDirectory(const std::string& dir) {
  if (auto cache = support::PrivateDir(std::filesystem::path(dir).parent_path().string()); !cache) return cache.error();
  auto made = support::PrivateDir(dir);
  if (!made) return made.error();
  return {};
}

void RemoveQuietly(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
}

}  // namespace

std::string TraceFileName(const engine::ProfileInfo& info) {
  std::string stem = std::filesystem::path(SourceOf(info)).stem().string();
  if (stem.empty()) stem = "profile";
  return stem + ".pftrace";
}

std::string TraceTitle(const engine::ProfileInfo& info, const engine::ResolvedWindow& window) {
  const std::string name = std::filesystem::path(SourceOf(info)).filename().string();
  return window.whole ? name : fmt::format("{} ({})", name, window.description);
}

std::string DescribeTrace(const TraceStats& stats) {
  const double rate = stats.seconds > 0 ? static_cast<double>(stats.bytes) / stats.seconds : 0;
  std::string out = fmt::format(
      "{} in {:.2f} s ({}/s; {:.2f} s of CPU), {} packets, {} tracks: {} kernels, {} memcpys, {} memsets, "
      "{} CUDA API calls, {} NVTX ranges, {} NVTX marks, {} flows, {} counter values",
      support::HumanBytes(stats.bytes), stats.seconds, support::HumanBytes(static_cast<int64_t>(rate)),
      stats.cpu_seconds, stats.packets, stats.tracks, stats.kernels, stats.memcpys, stats.memsets, stats.api_calls,
      stats.nvtx_ranges, stats.nvtx_marks, stats.flows, stats.counter_values);
  if (stats.clamped_slices > 0) {
    out +=
        fmt::format("; {} slices clipped to nest ({} on GPU streams)", stats.clamped_slices, stats.clamped_gpu_slices);
  }
  if (stats.skipped_short > 0) out += fmt::format("; {} shorter than the minimum left out", stats.skipped_short);
  return out;
}

// Reads the file back in chunks: the trace may be larger than memory allows.
TraceValidation ValidateTraceFile(const std::string& path) {
  trace::TraceValidator validator;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    std::vector<char> buf(4 << 20);
    ssize_t n;
    while ((n = ::read(fd, buf.data(), buf.size())) > 0)
      validator.Feed(std::string_view(buf.data(), static_cast<size_t>(n)));
    ::close(fd);
  }
  const trace::ValidationReport report = validator.Finish();
  return {report.ok(), report.Summary()};
}

Expected<trace::TraceOptions> ToTraceOptions(const TraceRequest& request, const engine::ProfileInfo& info) {
  trace::TraceOptions options;
  auto window = engine::ResolveWindow(info, request.filter.window);
  if (!window) return window.error();
  options.filter.window = *window;
  options.filter.devices = request.filter.devices;
  options.filter.processes = request.filter.processes;
  options.filter.threads = request.filter.threads;
  options.min_duration_ns = request.min_duration_ns;
  options.gpu = request.gpu;
  options.cpu = request.cpu;
  options.flows = request.flows;
  options.counters = request.counters;
  options.counter_bucket_ns = request.counter_bucket_ns;
  return options;
}

// ---- Workspace's trace calls ------------------------------------------------------------------------------------

Expected<Workspace::TracePlan> Workspace::PrepareTrace(const TraceRequest& request) {
  auto profile = Get(request.profile_id);
  if (!profile) return profile.error();
  auto options = ToTraceOptions(request, (*profile)->info());
  if (!options) return options.error();
  return TracePlan{std::move(*profile), std::move(*options)};
}

trace::OutputPolicy Workspace::TraceOutputPolicyFor(const engine::Profile& profile, bool force) const {
  trace::OutputPolicy policy = trace::WithProfile(TraceOutputPolicy(), profile);
  policy.force = force;
  return policy;
}

Status Workspace::CheckTraceOutput(const std::string& profile_id, const std::string& output, bool force) const {
  auto profile = Get(profile_id);
  if (!profile) return profile.error();
  const trace::OutputPolicy policy = TraceOutputPolicyFor(**profile, force);
  if (output == "-") return trace::CheckTraceStream(1, policy);
  auto target = trace::CheckTraceOutput(output, policy);
  if (!target) return target.error();
  return {};
}

Status CheckTraceOutputBeforeOpen(const std::string& profile_path, const std::string& output, bool force) {
  trace::OutputPolicy policy;
  policy.force = force;
  if (auto id = trace::FileIdOf(profile_path)) policy.profiles.push_back(*id);
  if (output == "-") return trace::CheckTraceStream(1, policy);
  auto target = trace::CheckTraceOutput(output, policy);
  if (!target) return target.error();
  return {};
}

Status Workspace::LoadForTrace(const TraceRequest& request, const CancelToken& cancel, const ProgressSink& progress) {
  auto job = PrepareTrace(request);
  if (!job) return job.error();
  return job->profile->Require(trace::NeedsFor(job->options), cancel, progress);
}

Expected<TraceExport> Workspace::ExportTrace(const TraceRequest& request, const CancelToken& cancel,
                                             const ProgressSink& progress) {
  auto job = PrepareTrace(request);
  if (!job) return job.error();
  auto target =
      TraceTargetFor(request.output, std::filesystem::path(TraceFileName(job->profile->info())).stem().string());
  if (!target) return target.error();
  auto stats = trace::ExportTraceToFile(*job->profile, job->options, target->path, cancel, progress,
                                        TraceOutputPolicyFor(*job->profile, request.force));
  if (!stats) return stats.error();
  TraceWritten(*target);
  return TraceExport{std::move(*stats), target->path, false};
}

Expected<Workspace::TraceTarget> Workspace::TraceTargetFor(const std::optional<std::string>& output,
                                                           const std::string& stem) {
  if (output) return TraceTarget{*output, nullptr};
  trace::TraceCache& cache = TraceCache();
  auto fresh = cache.NewPath(stem);
  if (!fresh) return fresh.error();
  return TraceTarget{std::move(*fresh), &cache};
}

void Workspace::TraceWritten(const TraceTarget& target) {
  if (target.cache == nullptr) return;
  for (const auto& gone : target.cache->Added(target.path)) {
    support::LogDebug(fmt::format("trace cache: removed {}", gone));
  }
}

Expected<TraceExport> Workspace::ExportTraceStream(const TraceRequest& request, const TraceChunkSink& sink,
                                                   size_t chunk_bytes, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  auto job = PrepareTrace(request);
  if (!job) return job.error();
  if (chunk_bytes > 0) job->options.chunk_bytes = chunk_bytes;
  auto stats = trace::ExportTrace(*job->profile, job->options, sink, cancel, progress);
  if (!stats) return stats.error();
  return TraceExport{std::move(*stats), std::nullopt, true};
}

Expected<TracePublication> Workspace::PublishTrace(const TraceRequest& request, TracePublisher& publisher,
                                                   const std::string& perfetto_origin, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  auto job = PrepareTrace(request);
  if (!job) return job.error();
  const std::string dir = publisher.TraceDirectory();
  if (Status made = EnsureDirectory(dir); !made.ok()) return made.error();
  const engine::ProfileInfo& info = job->profile->info();
  const std::string path = FreshTracePath(dir, std::filesystem::path(TraceFileName(info)).stem().string());
  auto stats = trace::ExportTraceToFile(*job->profile, job->options, path, cancel, progress, TraceOutputPolicy());
  if (!stats) return stats.error();
  if (cancel.cancelled()) {
    RemoveQuietly(path);
    return MakeError(ErrorKind::kCancelled, "Opening in Perfetto was cancelled.");
  }
  TraceToPublish trace;
  trace.path = path;
  trace.title = TraceTitle(info, job->options.filter.window);
  trace.file_name = TraceFileName(info);
  trace.perfetto_origin = perfetto_origin;
  auto published = publisher.Publish(std::move(trace));
  if (!published) {
    RemoveQuietly(path);
    return published.error();
  }
  return TracePublication{std::move(*stats), std::move(*published)};
}

Expected<TracePublication> Workspace::PublishJobTrace(JobTraceRequest request, TracePublisher& publisher,
                                                      const std::string& perfetto_origin, const CancelToken& cancel,
                                                      const ProgressSink& progress) {
  const std::string dir = publisher.TraceDirectory();
  if (Status made = EnsureDirectory(dir); !made.ok()) return made.error();
  const std::string stem = fmt::format("job-{}", request.job_id);
  request.output = FreshTracePath(dir, stem);
  request.force = false;
  auto written = ExportJobTrace(request, cancel, progress);  // leaves no file when it fails
  if (!written) return written.error();
  TraceToPublish trace;
  trace.path = written->path;
  trace.title = fmt::format("job {} ({} ranks)", request.job_id, written->ranks.size());
  trace.file_name = stem + ".pftrace";
  trace.perfetto_origin = perfetto_origin;
  auto published = publisher.Publish(std::move(trace));
  if (!published) {
    RemoveQuietly(written->path);
    return published.error();
  }
  return TracePublication{std::move(written->stats), std::move(*published)};
}

std::string Workspace::CacheDir() const {
  return cache_dir_;  // set once, by the constructor
}

trace::TraceCache& Workspace::TraceCache() {
  std::lock_guard lock(mu_);
  if (!trace_cache_)
    trace_cache_ = std::make_unique<trace::TraceCache>(cache_dir_ + "/exported-traces", config_.trace_cache);
  return *trace_cache_;
}

}  // namespace nsys::core
