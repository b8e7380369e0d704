#pragma once
// Internal: one trace write. Selection (window, devices, processes, minimum duration), a pre-pass over GPU work
// (tracks to declare, flows, counter span), then one merge over every table by start time, then the counters.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "nsys/trace/trace_writer.h"
#include "packet_writer.h"
#include "trace_tracks.h"

namespace nsys::trace::internal {

struct RowRange {
  size_t first = 0;
  size_t last = 0;
  size_t size() const { return last - first; }
};

class TraceBuilder {
 public:
  TraceBuilder(const TraceInput& input, const TraceOptions& options, const ChunkSink& sink)
      : in_(input),
        options_(options),
        writer_(sink, std::max<size_t>(options.chunk_bytes, 4096), options.pipeline, options.part.sequence_id,
                options.part.clock_offset_ns),
        tracks_(writer_, *input.info, options.part),
        next_flow_(options.part.id_base + 1),
        next_stage_event_(options.part.id_base + 1) {}

  Expected<TraceStats> Run(const CancelToken& cancel, const ProgressSink& progress);

 private:
  struct Name {
    uint64_t iid;
    std::string_view define;  // non-empty when this event is the name's first use
  };
  enum Synthetic : size_t { kMemcpyNames = 0, kMemsetName = 11, kUnnamed = 12, kSyntheticCount = 13 };

  // Selection. Window overlap: a slice is in when it overlaps [begin, end); a zero-length one when it lies inside.
  bool Overlaps(engine::Ns s, engine::Ns e) const {
    return options_.filter.window.whole ||
           (s < options_.filter.window.end && (e > options_.filter.window.begin || s >= options_.filter.window.begin));
  }
  bool DeviceSelected(int32_t device) const;
  bool PidIn(const std::vector<uint32_t>& pids, uint32_t pid) const;
  template <typename Table>
  bool GpuSelected(const Table& t, size_t row) const {
    return DeviceSelected(t.device[row]) &&
           (options_.filter.processes.empty() || PidIn(options_.filter.processes, t.pid[row])) &&
           Overlaps(t.start[row], t.end[row]);
  }
  bool ApiSelected(size_t row) const;  // a CUDA API call that will be written (flows only to those)
  bool CpuPidSelected(uint32_t pid) const { return cpu_pids_all_ || PidIn(cpu_pids_, pid); }
  bool Short(engine::Ns s, engine::Ns e) const { return e - s < options_.min_duration_ns; }

  template <typename Table>
  RowRange Range(const Table* t) const;
  template <typename Table>
  void ScanGpu(const Table* t, RowRange range, std::vector<uint64_t>& flow_of);
  void PrepareGpu();
  // Run's steps: the rows of each table to write, then one time-ordered merge writing them (WriteRow dispatches a
  // row of table 0..6: kernels, memcpys, memsets, API calls, NVTX ranges, NVTX marks, graph executions).
  void SelectRows();
  Status MergeEvents(const CancelToken& cancel, const ProgressSink& progress);
  void WriteRow(int table, size_t row);

  Name NameOf(engine::StrId id);
  Name SyntheticName(size_t slot, std::string_view text);

  // Kernels, memcpys and memsets share selection, clipping on their stream's track, the correlation id, the flow
  // from the launching call and the counts. `name_of` returns the slice's name; `write_args(measured_ns)` writes
  // the kind's own args (measured_ns: the duration before clipping).
  template <typename Table, typename NameFn, typename ArgsFn>
  void WriteGpuSlice(const Table& t, size_t row, Category category, const std::vector<uint64_t>& flow_of, RowRange rows,
                     int64_t& written, NameFn name_of, ArgsFn write_args);
  void WriteKernel(size_t row);
  // The kernel as a GpuRenderStageEvent too (Perfetto's gpu_slice table), beside its slice on the timeline.
  void WriteKernelStage(size_t row, engine::Ns measured);
  void WriteMemcpy(size_t row);
  void WriteMemset(size_t row);
  // A CUDA graph execution recorded whole: one slice "CUDA graph N" on its launching stream, from its launch call.
  void WriteGraph(size_t row);
  void WriteApiCall(size_t row);
  void WriteNvtxRange(size_t row);
  void WriteNvtxMark(size_t row);
  void Note(engine::Ns s, engine::Ns e);

  void WriteCounters();  // trace_counters.cpp

  const TraceInput& in_;
  const TraceOptions& options_;
  PacketWriter writer_;
  Tracks tracks_;
  TraceStats stats_;

  RowRange kernel_rows_, memcpy_rows_, memset_rows_, api_rows_, nvtx_rows_, mark_rows_, graph_rows_;
  // Flow id per GPU row (index - first), 0 = none.
  std::vector<uint64_t> kernel_flow_, memcpy_flow_, memset_flow_, graph_flow_;
  std::unordered_map<int64_t, uint64_t> graph_iid_;     // interned "CUDA graph N" per graph id
  std::string graph_name_;                              // the name being defined
  std::vector<std::pair<int32_t, uint64_t>> launches_;  // (API row, flow id), sorted by row
  size_t launch_cursor_ = 0;
  uint64_t next_flow_;  // flow ids of this part: above its id_base
  // Render stages: a hardware queue per (device, pid, stream) and a graphics context per process, interned on first
  // use (queue iids from 2: iid 1 is the compute stage, in the same index); event ids of this part above its id_base.
  std::map<std::tuple<int32_t, uint32_t, int32_t>, uint64_t> queue_iid_;
  std::unordered_map<uint32_t, uint64_t> context_iid_;
  bool stage_defined_ = false;
  uint64_t next_stage_event_;

  std::vector<int32_t> gpu_devices_;                          // devices with selected GPU work, ascending
  std::unordered_set<StreamKey, StreamKeyHash> stream_keys_;  // (device, pid, stream) with slices to write
  std::vector<uint32_t> cpu_pids_;                            // sorted; used unless cpu_pids_all_
  bool cpu_pids_all_ = true;
  engine::Ns gpu_first_ = 0, gpu_last_ = 0;  // span of the selected GPU work
  bool have_gpu_span_ = false;

  std::vector<uint32_t> iid_of_string_;  // StrId -> iid, 0 = not interned yet
  uint32_t synthetic_iid_[kSyntheticCount] = {};
  uint32_t next_iid_ = 1;
  bool have_span_ = false;
};

}  // namespace nsys::trace::internal
