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
#include "trace_features.h"

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

// ---- The trace features ------------------------------------------------------------------------------------------

namespace trace_features {

// Hands a written trace to the publisher; a trace it refuses is removed.
Expected<TracePublication> PublishWritten(TracePublisher& publisher, TraceToPublish trace, TraceStats stats) {
  const std::string path = trace.path;
  auto published = publisher.Publish(std::move(trace));
  if (!published) {
    RemoveQuietly(path);
    return published.error();
  }
  return TracePublication{std::move(stats), std::move(*published)};
}

Expected<TracePlan> Plan(const Expected<std::shared_ptr<engine::Profile>>& profile, const TraceRequest& request) {
  if (!profile) return profile.error();
  auto options = ToTraceOptions(request, (*profile)->info());
  if (!options) return options.error();
  return TracePlan{*profile, std::move(*options)};
}

trace::OutputPolicy PolicyFor(trace::OutputPolicy base, const engine::Profile& profile, bool force) {
  trace::OutputPolicy policy = trace::WithProfile(std::move(base), profile);
  policy.force = force;
  return policy;
}

Status CheckOutput(const Expected<std::shared_ptr<engine::Profile>>& profile, const trace::OutputPolicy& base,
                   const std::string& output, bool force) {
  if (!profile) return profile.error();
  const trace::OutputPolicy policy = PolicyFor(base, **profile, force);
  if (output == "-") return trace::CheckTraceStream(1, policy);
  auto target = trace::CheckTraceOutput(output, policy);
  if (!target) return target.error();
  return {};
}

Status Load(const Expected<TracePlan>& plan, const CancelToken& cancel, const ProgressSink& progress) {
  if (!plan) return plan.error();
  return plan->profile->Require(trace::NeedsFor(plan->options), cancel, progress);
}

Expected<TraceTarget> TargetFor(const std::optional<std::string>& output, const std::string& stem,
                                const CacheOf& cache) {
  if (output) return TraceTarget{*output, nullptr};
  trace::TraceCache& traces = cache();
  auto fresh = traces.NewPath(stem);
  if (!fresh) return fresh.error();
  return TraceTarget{std::move(*fresh), &traces};
}

void Written(const TraceTarget& target) {
  if (target.cache == nullptr) return;
  for (const auto& gone : target.cache->Added(target.path)) {
    support::LogDebug(fmt::format("trace cache: removed {}", gone));
  }
}

Expected<TraceExport> ToFile(Expected<TracePlan> plan, const TraceRequest& request, const CacheOf& cache,
                             const trace::OutputPolicy& base, const CancelToken& cancel, const ProgressSink& progress) {
  if (!plan) return plan.error();
  auto target =
      TargetFor(request.output, std::filesystem::path(TraceFileName(plan->profile->info())).stem().string(), cache);
  if (!target) return target.error();
  auto stats = trace::ExportTraceToFile(*plan->profile, plan->options, target->path, cancel, progress,
                                        PolicyFor(base, *plan->profile, request.force));
  if (!stats) return stats.error();
  Written(*target);
  return TraceExport{std::move(*stats), target->path, false};
}

Expected<TraceExport> ToStream(Expected<TracePlan> plan, const TraceChunkSink& sink, size_t chunk_bytes,
                               const CancelToken& cancel, const ProgressSink& progress) {
  if (!plan) return plan.error();
  if (chunk_bytes > 0) plan->options.chunk_bytes = chunk_bytes;
  auto stats = trace::ExportTrace(*plan->profile, plan->options, sink, cancel, progress);
  if (!stats) return stats.error();
  return TraceExport{std::move(*stats), std::nullopt, true};
}

Expected<TracePublication> Publish(Expected<TracePlan> plan, TracePublisher& publisher,
                                   const std::string& perfetto_origin, const trace::OutputPolicy& policy,
                                   const CancelToken& cancel, const ProgressSink& progress) {
  if (!plan) return plan.error();
  const std::string dir = publisher.TraceDirectory();
  if (Status made = EnsureDirectory(dir); !made.ok()) return made.error();
  const engine::ProfileInfo& info = plan->profile->info();
  const std::string path = FreshTracePath(dir, std::filesystem::path(TraceFileName(info)).stem().string());
  auto stats = trace::ExportTraceToFile(*plan->profile, plan->options, path, cancel, progress, policy);
  if (!stats) return stats.error();
  if (cancel.cancelled()) {
    RemoveQuietly(path);
    return MakeError(ErrorKind::kCancelled, "Opening in Perfetto was cancelled.");
  }
  TraceToPublish trace;
  trace.path = path;
  trace.title = TraceTitle(info, plan->options.filter.window);
  trace.file_name = TraceFileName(info);
  trace.perfetto_origin = perfetto_origin;
  return PublishWritten(publisher, std::move(trace), std::move(*stats));
}

Expected<TracePublication> PublishJob(
    JobTraceRequest request, TracePublisher& publisher, const std::string& perfetto_origin,
    const std::function<Expected<JobTraceExport>(const JobTraceRequest&)>& export_job) {
  const std::string dir = publisher.TraceDirectory();
  if (Status made = EnsureDirectory(dir); !made.ok()) return made.error();
  const std::string stem = fmt::format("job-{}", request.job_id);
  request.output = FreshTracePath(dir, stem);
  request.force = false;
  auto written = export_job(request);  // leaves no file when it fails
  if (!written) return written.error();
  TraceToPublish trace;
  trace.path = written->path;
  trace.title = fmt::format("job {} ({} ranks)", request.job_id, written->ranks.size());
  trace.file_name = stem + ".pftrace";
  trace.perfetto_origin = perfetto_origin;
  return PublishWritten(publisher, std::move(trace), std::move(written->stats));
}

std::unique_ptr<trace::TraceCache> MakeCache(const std::string& cache_dir, const trace::TraceCacheLimits& limits) {
  return std::make_unique<trace::TraceCache>(cache_dir + "/exported-traces", limits);
}

}  // namespace trace_features

Status CheckTraceOutputBeforeOpen(const std::string& profile_path, const std::string& output, bool force) {
  trace::OutputPolicy policy;
  policy.force = force;
  if (auto id = trace::FileIdOf(profile_path)) policy.profiles.push_back(*id);
  if (output == "-") return trace::CheckTraceStream(1, policy);
  auto target = trace::CheckTraceOutput(output, policy);
  if (!target) return target.error();
  return {};
}

// ---- Workspace's trace calls: each looks its state up and hands it to a feature ----------------------------------

Status Workspace::CheckTraceOutput(const std::string& profile_id, const std::string& output, bool force) const {
  return trace_features::CheckOutput(Get(profile_id), TraceOutputPolicy(), output, force);
}

Status Workspace::LoadForTrace(const TraceRequest& request, const CancelToken& cancel, const ProgressSink& progress) {
  return trace_features::Load(trace_features::Plan(Get(request.profile_id), request), cancel, progress);
}

Expected<TraceExport> Workspace::ExportTrace(const TraceRequest& request, const CancelToken& cancel,
                                             const ProgressSink& progress) {
  return trace_features::ToFile(
      trace_features::Plan(Get(request.profile_id), request), request,
      [this]() -> trace::TraceCache& { return TraceCache(); }, TraceOutputPolicy(), cancel, progress);
}

Expected<TraceExport> Workspace::ExportTraceStream(const TraceRequest& request, const TraceChunkSink& sink,
                                                   size_t chunk_bytes, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  return trace_features::ToStream(trace_features::Plan(Get(request.profile_id), request), sink, chunk_bytes, cancel,
                                  progress);
}

Expected<TracePublication> Workspace::PublishTrace(const TraceRequest& request, TracePublisher& publisher,
                                                   const std::string& perfetto_origin, const CancelToken& cancel,
                                                   const ProgressSink& progress) {
  return trace_features::Publish(trace_features::Plan(Get(request.profile_id), request), publisher, perfetto_origin,
                                 TraceOutputPolicy(), cancel, progress);
}

Expected<TracePublication> Workspace::PublishJobTrace(JobTraceRequest request, TracePublisher& publisher,
                                                      const std::string& perfetto_origin, const CancelToken& cancel,
                                                      const ProgressSink& progress) {
  return trace_features::PublishJob(std::move(request), publisher, perfetto_origin,
                                    [&](const JobTraceRequest& r) { return ExportJobTrace(r, cancel, progress); });
}

std::string Workspace::CacheDir() const {
  return cache_dir_;  // set once, by the constructor
}

trace::TraceCache& Workspace::TraceCache() {
  std::lock_guard lock(mu_);
  if (!trace_cache_) trace_cache_ = trace_features::MakeCache(cache_dir_, config_.trace_cache);
  return *trace_cache_;
}

}  // namespace nsys::core
