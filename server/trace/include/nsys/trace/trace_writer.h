#pragma once
// Writes a profile as a native Perfetto trace (protobuf TrackEvent), streaming.
//
// Layout: one root track per GPU ("GPU 0 · NVIDIA H100 ...") with explicit child ordering: a kernel-utilisation
// counter, a memcpy-bandwidth counter, then one track per (process, CUDA stream) carrying kernels, memcpys and
// memsets. CPU side: real process and thread tracks (pid/tid decoded from globalTid) carrying CUDA API calls and
// push/pop NVTX ranges, plus per-process "NVTX start/end" lanes for ranges that need not nest. Flows link every launch
// call to the GPU work it launched (the engine's process-aware `launch` link). Kernel, API and NVTX names are interned.
//
// Output: `0x0A <len> <TracePacket>` records delivered to a ChunkSink in packet-aligned chunks, so a caller can
// stream them (base64 over JSON-RPC, a socket, a file) without holding the trace. Architecture Invariant: no
// JSON-RPC and no asio here.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/engine/model.h"
#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "nsys/trace/trace_output.h"

namespace nsys::trace {

// One part of a trace that holds several exports (a job's ranks, one after another in one file): its own packet
// sequence, track uuids and flow ids above every other part's, its timestamps moved onto the job's clock, and its
// tracks under one top-level track named `label` (its GPUs, and its processes and threads as named tracks, so that
// ranks whose processes share pids stay apart). The default is a trace of one export, written as before.
struct TracePart {
  uint32_t sequence_id = 1;        // trusted_packet_sequence_id, non-zero, distinct per part
  uint64_t id_base = 0;            // added to every track uuid and flow id
  engine::Ns clock_offset_ns = 0;  // added to every timestamp written
  std::string label;               // empty: no group (a single export's trace)
};

struct TraceOptions {
  // The one filter shape. window.whole = true: everything, otherwise slices overlapping [begin, end) (not only
  // those starting inside). processes empty with devices set: the processes that used those devices. threads must
  // be empty (the writer cannot select threads yet: kUnsupported).
  engine::Filter filter;
  engine::Ns min_duration_ns = 0;    // shorter slices are left out (the utilisation counters still count them)
  bool gpu = true;                   // kernels, memcpys, memsets, GPU counters
  bool cpu = true;                   // CUDA API calls, NVTX ranges and marks
  bool flows = true;                 // launch call -> GPU work
  bool counters = true;              // utilisation and bandwidth counter tracks
  engine::Ns counter_bucket_ns = 0;  // 0 = automatic: about 1000 buckets over the traced span (1-2-5 steps, >= 1 us)
  size_t chunk_bytes = size_t{1} << 20;  // target chunk size; a chunk always ends on a packet boundary
  TracePart part;                        // a part of a job's trace; the default: the whole trace
  bool pipeline = true;  // hash and deliver chunks on a second thread while encoding (the sink is still called
                         // once per chunk, in order, never concurrently; but not on the caller's thread)
};

struct TraceStats {
  int64_t bytes = 0;
  int64_t packets = 0;
  int64_t tracks = 0;
  int64_t kernels = 0;
  int64_t memcpys = 0;
  int64_t memsets = 0;
  int64_t graphs = 0;  // CUDA graph executions recorded whole, a slice each on its stream
  int64_t api_calls = 0;
  int64_t nvtx_ranges = 0;
  int64_t nvtx_marks = 0;
  int64_t counter_values = 0;
  int64_t flows = 0;
  int64_t interned_names = 0;
  int64_t clamped_slices = 0;      // slices whose end was clipped so that slices nest strictly per track
  int64_t clamped_gpu_slices = 0;  // of which on GPU streams (overlaps from clock skew)
  int64_t skipped_short = 0;       // left out by min_duration_ns
  engine::Ns first_ns = 0;         // span of what was written (capture clock)
  engine::Ns last_ns = 0;
  std::string sha256;      // lower-case hex of every byte delivered to the sink
  double seconds = 0;      // wall time of the write (tables already loaded)
  double cpu_seconds = 0;  // CPU time of the writing thread (wall time on a busy machine says less)
  std::string window;      // the window's description
  int64_t slices() const { return kernels + memcpys + memsets + graphs + api_calls + nvtx_ranges; }
};

// Receives each chunk once, in order. A non-ok Status stops the write and is returned (a closed socket, a full disk).
using ChunkSink = std::function<Status(std::string_view chunk)>;

// The tables the writer reads. Borrowed: they must outlive the call. Absent tables may be null.
struct TraceInput {
  const engine::ProfileInfo* info = nullptr;
  const engine::StringPool* strings = nullptr;
  const engine::KernelTable* kernels = nullptr;
  const engine::MemcpyTable* memcpys = nullptr;
  const engine::MemsetTable* memsets = nullptr;
  const engine::RuntimeTable* runtime = nullptr;
  const engine::NvtxTable* nvtx = nullptr;
  const engine::NvtxMarkTable* nvtx_marks = nullptr;
  const engine::GraphTable* graphs = nullptr;  // CUDA graph executions recorded whole
};

// Writes the trace of already-loaded tables. Errors: kInvalidArgument (bad options), kCancelled, or the sink's error.
Expected<TraceStats> WriteTrace(const TraceInput& input, const TraceOptions& options, const ChunkSink& sink,
                                const CancelToken& cancel = {}, const ProgressSink& progress = {});

// The tables a trace with these options needs (for Profile::Require).
engine::Need NeedsFor(const TraceOptions& options);

// Requires the tables, then writes. Progress covers the load (first half) and the write (second half).
Expected<TraceStats> ExportTrace(engine::Profile& profile, const TraceOptions& options, const ChunkSink& sink,
                                 const CancelToken& cancel = {}, const ProgressSink& progress = {});

// Writes to `path` when trace_output.h's checks allow it (the profile being exported is always protected, besides
// `policy.profiles`): through a temporary file in the target's directory, renamed onto the resolved target on success
// and removed on any error or cancellation, so `path` never holds a partial trace. A refused output is
// kInvalidArgument naming the reason.
Expected<TraceStats> ExportTraceToFile(engine::Profile& profile, const TraceOptions& options, const std::string& path,
                                       const CancelToken& cancel = {}, const ProgressSink& progress = {},
                                       const OutputPolicy& policy = {});
// `policy` plus the files of `profile` (its export and, for a converted report, the report).
OutputPolicy WithProfile(OutputPolicy policy, const engine::Profile& profile);

}  // namespace nsys::trace
