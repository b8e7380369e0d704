#pragma once
// The trace features behind Workspace's trace calls (traces.cpp), each over a profile's resolved plan and the
// workspace's trace cache, as rust-analyzer's features take a database snapshot: the Workspace call looks its state
// up and hands it here in one line. Internal to server/core.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "nsys/core/traces.h"
#include "nsys/engine/profile.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "nsys/trace/trace_output.h"

namespace nsys::core::trace_features {

// A trace request resolved against its profile.
struct TracePlan {
  std::shared_ptr<engine::Profile> profile;
  trace::TraceOptions options;
};
// Where a written trace goes: `output`, or (absent) a fresh file in the trace cache named after a stem, in which case
// `cache` is set and Written lets the cache drop its oldest traces once the file is complete.
struct TraceTarget {
  std::string path;
  trace::TraceCache* cache = nullptr;
};
// The workspace's trace cache, created on first use (only a trace written without an output path needs it).
using CacheOf = std::function<trace::TraceCache&()>;

Expected<TracePlan> Plan(const Expected<std::shared_ptr<engine::Profile>>& profile, const TraceRequest& request);
// `base`, the workspace's policy, with the profile's own files protected and `force` set.
trace::OutputPolicy PolicyFor(trace::OutputPolicy base, const engine::Profile& profile, bool force);
Status CheckOutput(const Expected<std::shared_ptr<engine::Profile>>& profile, const trace::OutputPolicy& base,
                   const std::string& output, bool force);
Status Load(const Expected<TracePlan>& plan, const CancelToken& cancel, const ProgressSink& progress);
Expected<TraceTarget> TargetFor(const std::optional<std::string>& output, const std::string& stem,
                                const CacheOf& cache);
void Written(const TraceTarget& target);
Expected<TraceExport> ToFile(Expected<TracePlan> plan, const TraceRequest& request, const CacheOf& cache,
                             const trace::OutputPolicy& base, const CancelToken& cancel, const ProgressSink& progress);
Expected<TraceExport> ToStream(Expected<TracePlan> plan, const TraceChunkSink& sink, size_t chunk_bytes,
                               const CancelToken& cancel, const ProgressSink& progress);
Expected<TracePublication> Publish(Expected<TracePlan> plan, TracePublisher& publisher,
                                   const std::string& perfetto_origin, const trace::OutputPolicy& policy,
                                   const CancelToken& cancel, const ProgressSink& progress);
// The workspace's trace cache under `cache_dir` (Workspace::TraceCache makes it on first use).
std::unique_ptr<trace::TraceCache> MakeCache(const std::string& cache_dir, const trace::TraceCacheLimits& limits);
// The job's trace written by `export_job` (Workspace::ExportJobTrace) into the publisher's directory, then published.
Expected<TracePublication> PublishJob(
    JobTraceRequest request, TracePublisher& publisher, const std::string& perfetto_origin,
    const std::function<Expected<JobTraceExport>(const JobTraceRequest&)>& export_job);

}  // namespace nsys::core::trace_features
