#pragma once
// Traces through the core API: what a face asks for (TraceRequest), what it gets back (TraceExport,
// TracePublication), and the interface through which a finished trace is handed to a local browser
// (TracePublisher; the loopback HTTP side channel in server/transport implements it). The Workspace calls
// (ExportTrace, ExportTraceStream, PublishTrace, CheckTraceOutput) live in workspace.h; the steps they share (file
// naming, the cache directory, request -> writer options) live here, in one place for every face.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/expected.h"
#include "nsys/trace/trace_writer.h"

namespace nsys::core {

// The writer's counts and the trace's hash (a plain struct; faces convert it).
using TraceStats = trace::TraceStats;

// One trace of one open profile.
struct TraceRequest {
  std::string profile_id;
  // The one filter shape (engine/window.h): window (no start/end = the whole profile), devices and processes
  // (empty = all). The trace writer cannot select threads: a thread set is kUnsupported.
  engine::FilterSpec filter;
  int64_t min_duration_ns = 0;  // shorter slices are left out
  bool gpu = true, cpu = true, flows = true, counters = true;
  int64_t counter_bucket_ns = 0;      // 0 = automatic
  std::optional<std::string> output;  // a file to write; absent = a fresh file in the workspace's trace cache
  bool force = false;                 // may replace an existing file that is not a trace (see trace_output.h)
};

struct TraceExport {
  TraceStats stats;
  std::optional<std::string> path;  // the file written; absent when the trace was streamed
  bool streamed = false;
};

// A job's ranks in one trace: each rank a part of it (trace_writer.h TracePart), its tracks under a
// top-level track named by the rank, its times moved onto the job's clock by the clock alignment of the job skills
// (skills/job_partials.h AlignClocks: rank 0's node is the reference), written one rank after another in one file.
struct JobTraceRequest {
  std::string job_id;
  int64_t ranks_per_node = 0;  // consecutive ranks that share a node's clock; 0 = each rank its own (as job skills)
  int64_t min_duration_ns = 0;
  bool gpu = true, cpu = true, flows = true, counters = true;
  std::optional<std::string> output;  // a file to write; absent = a fresh file in the workspace's trace cache
  bool force = false;
};

struct JobTraceRank {
  std::string rank;
  int64_t offset_ns = 0;        // the rank's node clock minus the reference's: subtracted from its times
  int64_t uncertainty_ns = -1;  // the alignment's error bound; -1 = unknown
  std::string method;           // "reference", "nccl_ends", "session_start" or "none" (NodeOffset::method)
  int64_t slices = 0;           // slices of this rank written
  std::string error;            // why the rank is not in the trace (empty when it is)
};

struct JobTraceExport {
  TraceStats stats;  // the ranks' counts summed; bytes, sha256 and span (run clock) of the whole file
  std::string path;
  std::vector<JobTraceRank> ranks;  // in rank order
  std::vector<std::string> notes;   // the clock alignment's notes
};

// Receives each chunk of a streamed trace once, in order. A non-ok Status stops the write.
using TraceChunkSink = std::function<Status(std::string_view chunk)>;

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
  // A directory the publisher may serve from and clean up: PublishTrace writes traces there before publishing them.
  virtual std::string TraceDirectory() const = 0;
  virtual Expected<PublishedTrace> Publish(TraceToPublish trace) = 0;
};

// What PublishTrace wrote and where it is served.
struct TracePublication {
  TraceStats stats;
  PublishedTrace published;
};

// A written trace read back through the semantic validator (trace/validator.h).
struct TraceValidation {
  bool ok = false;
  std::string summary;
};
TraceValidation ValidateTraceFile(const std::string& path);

// "<stem>.pftrace" for a profile path; a trace title naming the file and the window.
std::string TraceFileName(const engine::ProfileInfo& info);
std::string TraceTitle(const engine::ProfileInfo& info, const engine::ResolvedWindow& window);
// "12.3 MB in 0.41 s (30.0 MB/s): 3442 kernels, 904 memcpys, ..." for humans.
std::string DescribeTrace(const TraceStats& stats);

// The writer's options for a request against a profile (resolves the window; errors name the profile's range).
Expected<trace::TraceOptions> ToTraceOptions(const TraceRequest& request, const engine::ProfileInfo& info);

}  // namespace nsys::core
