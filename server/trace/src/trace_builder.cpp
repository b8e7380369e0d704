#include "trace_builder.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>

#include "nsys/support/human_bytes.h"

namespace nsys::trace::internal {
namespace {

using engine::Ns;

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

constexpr std::string_view kCopyKindNames[] = {"Memcpy",      "Memcpy HtoD", "Memcpy DtoH", "Memcpy HtoA",
                                               "Memcpy AtoH", "Memcpy AtoA", "Memcpy AtoD", "Memcpy DtoA",
                                               "Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP"};

// "128x1x1" without allocating.
std::string_view Dim3(char* buf, int32_t x, int32_t y, int32_t z) {
  char* p = buf;
  for (int32_t v : {x, y, z}) {
    if (p != buf) *p++ = 'x';
    auto r = fmt::format_to_n(p, 12, "{}", v);
    p = r.out;
  }
  return {buf, static_cast<size_t>(p - buf)};
}

Ns SaturatingSub(Ns a, Ns b) {
  if (b > 0 && a < std::numeric_limits<Ns>::min() + b) return std::numeric_limits<Ns>::min();
  return a - b;
}

}  // namespace

bool TraceBuilder::DeviceSelected(int32_t device) const {
  if (options_.filter.devices.empty()) return true;
  return std::find(options_.filter.devices.begin(), options_.filter.devices.end(), device) !=
         options_.filter.devices.end();
}

bool TraceBuilder::PidIn(const std::vector<uint32_t>& pids, uint32_t pid) const {
  if (pids.size() <= 8) return std::find(pids.begin(), pids.end(), pid) != pids.end();
  return std::binary_search(pids.begin(), pids.end(), pid);
}

bool TraceBuilder::ApiSelected(size_t row) const {
  const auto& api = *in_.runtime;
  if (!options_.cpu || row >= api.size()) return false;
  const Ns s = api.start[row];
  const Ns e = std::max(s, api.end[row]);  // the same test WriteApiCall makes
  return CpuPidSelected(api.pid[row]) && Overlaps(s, e) && !Short(s, e);
}

template <typename Table>
RowRange TraceBuilder::Range(const Table* t) const {
  if (t == nullptr) return {};
  if (options_.filter.window.whole) return {0, t->size()};
  // A row overlapping [begin, end) starts at or after begin - max_duration.
  auto [first, last] =
      engine::StartRange(*t, SaturatingSub(options_.filter.window.begin, t->max_duration), options_.filter.window.end);
  return {first, last};
}

template <typename Table>
void TraceBuilder::ScanGpu(const Table* t, RowRange range, std::vector<uint64_t>& flow_of) {
  if (t == nullptr) return;
  flow_of.assign(range.size(), 0);
  StreamKey last_key{-1, 0, -1};
  int32_t last_device = std::numeric_limits<int32_t>::min();
  uint32_t last_pid = 0;
  bool have_pid = false;
  for (size_t row = range.first; row < range.last; ++row) {
    if (!GpuSelected(*t, row)) continue;
    const Ns s = t->start[row];
    const Ns e = std::max(s, t->end[row]);
    const int32_t device = t->device[row];
    if (device != last_device) {
      if (std::find(gpu_devices_.begin(), gpu_devices_.end(), device) == gpu_devices_.end())
        gpu_devices_.push_back(device);
      last_device = device;
    }
    if (!have_pid || t->pid[row] != last_pid) {
      cpu_pids_.push_back(t->pid[row]);  // deduplicated in PrepareGpu
      last_pid = t->pid[row];
      have_pid = true;
    }
    gpu_first_ = have_gpu_span_ ? std::min(gpu_first_, s) : s;
    gpu_last_ = have_gpu_span_ ? std::max(gpu_last_, e) : e;
    have_gpu_span_ = true;
    if (Short(s, e)) continue;
    const StreamKey key{device, t->pid[row], t->stream[row]};
    if (!(key == last_key)) {
      stream_keys_.insert(key);
      last_key = key;
    }
    const int32_t launch = t->launch[row];
    if (options_.flows && launch != engine::kNone && in_.runtime != nullptr &&
        ApiSelected(static_cast<size_t>(launch))) {
      const uint64_t id = next_flow_++;
      flow_of[row - range.first] = id;
      launches_.emplace_back(launch, id);
    }
  }
}

void TraceBuilder::PrepareGpu() {
  // CPU processes: the ones asked for; with only devices asked for, the processes that used those devices.
  const bool derive_pids = options_.filter.processes.empty() && !options_.filter.devices.empty();
  cpu_pids_all_ = options_.filter.processes.empty() && !derive_pids;
  if (options_.gpu || derive_pids) {
    // Flows need the API-call selection, which needs the CPU processes; derived ones come from this same scan and
    // a launch call always belongs to its kernel's process, so accepting every pid during the scan is equivalent.
    const bool saved_all = cpu_pids_all_;
    cpu_pids_all_ = saved_all || derive_pids;
    ScanGpu(in_.kernels, kernel_rows_, kernel_flow_);
    ScanGpu(in_.memcpys, memcpy_rows_, memcpy_flow_);
    ScanGpu(in_.memsets, memset_rows_, memset_flow_);
    ScanGpu(in_.graphs, graph_rows_, graph_flow_);
    cpu_pids_all_ = saved_all;
  }
  if (!options_.filter.processes.empty()) cpu_pids_ = options_.filter.processes;
  std::sort(cpu_pids_.begin(), cpu_pids_.end());
  cpu_pids_.erase(std::unique(cpu_pids_.begin(), cpu_pids_.end()), cpu_pids_.end());
  std::sort(gpu_devices_.begin(), gpu_devices_.end());
  std::sort(launches_.begin(), launches_.end());
  if (!options_.gpu) {
    gpu_devices_.clear();
    stream_keys_.clear();
    launches_.clear();
    return;
  }
  tracks_.DeclareGpu(gpu_devices_, std::vector<StreamKey>(stream_keys_.begin(), stream_keys_.end()), options_.counters);
}

TraceBuilder::Name TraceBuilder::NameOf(engine::StrId id) {
  if (id >= iid_of_string_.size()) iid_of_string_.resize(std::max<size_t>(id + 1, in_.strings->size()), 0);
  uint32_t& iid = iid_of_string_[id];
  if (iid != 0) return {iid, {}};
  iid = next_iid_++;
  std::string_view text = in_.strings->view(id);
  return {iid, text.empty() ? std::string_view("(unnamed)") : text};
}

TraceBuilder::Name TraceBuilder::SyntheticName(size_t slot, std::string_view text) {
  uint32_t& iid = synthetic_iid_[slot];
  if (iid != 0) return {iid, {}};
  iid = next_iid_++;
  return {iid, text};
}

void TraceBuilder::Note(Ns s, Ns e) {
  stats_.first_ns = have_span_ ? std::min(stats_.first_ns, s) : s;
  stats_.last_ns = have_span_ ? std::max(stats_.last_ns, e) : e;
  have_span_ = true;
}

template <typename Table, typename NameFn, typename ArgsFn>
void TraceBuilder::WriteGpuSlice(const Table& t, size_t row, Category category, const std::vector<uint64_t>& flow_of,
                                 RowRange rows, int64_t& written, NameFn name_of, ArgsFn write_args) {
  if (!GpuSelected(t, row)) return;
  const Ns s = t.start[row];
  Ns e = std::max(s, t.end[row]);
  if (Short(s, e)) {
    ++stats_.skipped_short;
    return;
  }
  const uint32_t track = tracks_.StreamTrack({t.device[row], t.pid[row], t.stream[row]});
  const Ns measured = e - s;
  e = tracks_.Open(track, s, e);
  const Name name = name_of();  // interned only now: a left-out slice must not take an iid
  writer_.BeginEvent(EventType::kSliceBegin, tracks_.uuid(track), s, name.iid, name.define, category);
  write_args(measured);
  writer_.ArgUint(Arg::kCorrelationId, t.correlation_id[row]);
  if (const uint64_t flow = flow_of[row - rows.first]; flow != 0) writer_.TerminatingFlowId(flow);
  writer_.FinishEvent();
  ++written;
  Note(s, e);
}

void TraceBuilder::WriteKernel(size_t row) {
  const auto& k = *in_.kernels;
  std::optional<Ns> written;  // the measured duration, when the slice was written
  auto launch_args = [&](Ns measured) {
    written = measured;
    char buf[48];
    const engine::KernelConfig& c = k.Config(row);
    writer_.ArgString(Arg::kGrid, Dim3(buf, c.grid_x, c.grid_y, c.grid_z));
    writer_.ArgString(Arg::kBlock, Dim3(buf, c.block_x, c.block_y, c.block_z));
    writer_.ArgInt(Arg::kRegistersPerThread, c.registers_per_thread);
    writer_.ArgInt(Arg::kStaticSharedMemory, c.static_shared_memory);
    writer_.ArgInt(Arg::kDynamicSharedMemory, c.dynamic_shared_memory);
  };
  auto name_of = [&] { return NameOf(k.name[row]); };
  WriteGpuSlice(k, row, Category::kKernel, kernel_flow_, kernel_rows_, stats_.kernels, name_of, launch_args);
  if (written) WriteKernelStage(row, *written);
}

void TraceBuilder::WriteKernelStage(size_t row, Ns measured) {
  const auto& k = *in_.kernels;
  const engine::KernelConfig& c = k.Config(row);
  KernelStage s;
  s.start = k.start[row];
  s.duration = measured;
  s.event_id = next_stage_event_++;
  s.gpu_id = k.device[row];
  const auto [context, new_context] = context_iid_.try_emplace(k.pid[row], context_iid_.size() + 1);
  s.context_iid = context->second;
  if (new_context) s.new_context = k.pid[row];
  const auto [queue, new_queue] =
      queue_iid_.try_emplace({k.device[row], k.pid[row], k.stream[row]}, queue_iid_.size() + 2);
  s.queue_iid = queue->second;
  std::string queue_name;
  if (new_queue) queue_name = fmt::format("GPU {} stream {} (pid {})", k.device[row], k.stream[row], k.pid[row]);
  s.new_queue = queue_name;
  s.first_stage = !stage_defined_;
  stage_defined_ = true;
  s.name_iid = NameOf(k.name[row]).iid;  // interned by the kernel's slice, just written
  const auto dim = [](int32_t v) { return static_cast<uint32_t>(std::max(0, v)); };
  s.grid[0] = dim(c.grid_x), s.grid[1] = dim(c.grid_y), s.grid[2] = dim(c.grid_z);
  s.block[0] = dim(c.block_x), s.block[1] = dim(c.block_y), s.block[2] = dim(c.block_z);
  s.registers_per_thread = c.registers_per_thread;
  s.static_shared = c.static_shared_memory;
  s.dynamic_shared = c.dynamic_shared_memory;
  writer_.GpuRenderStage(s);
}

void TraceBuilder::WriteMemcpy(size_t row) {
  const auto& m = *in_.memcpys;
  auto name_of = [&] {
    const size_t kind = m.copy_kind[row] < std::size(kCopyKindNames) ? m.copy_kind[row] : 0;
    return SyntheticName(kMemcpyNames + kind, kCopyKindNames[kind]);
  };
  auto transfer_args = [&](Ns measured) {  // bandwidth from the measured duration, before any clipping
    writer_.ArgInt(Arg::kBytes, m.bytes[row]);
    if (measured > 0)
      writer_.ArgDouble(Arg::kBandwidth, static_cast<double>(m.bytes[row]) / static_cast<double>(measured));
  };
  WriteGpuSlice(m, row, Category::kMemcpy, memcpy_flow_, memcpy_rows_, stats_.memcpys, name_of, transfer_args);
}

void TraceBuilder::WriteMemset(size_t row) {
  const auto& m = *in_.memsets;
  auto memset_args = [&](Ns) {
    writer_.ArgInt(Arg::kBytes, m.bytes[row]);
    writer_.ArgInt(Arg::kValue, m.value[row]);
  };
  auto name_of = [&] { return SyntheticName(kMemsetName, "Memset"); };
  WriteGpuSlice(m, row, Category::kMemset, memset_flow_, memset_rows_, stats_.memsets, name_of, memset_args);
}

void TraceBuilder::WriteGraph(size_t row) {
  const auto& g = *in_.graphs;
  auto name_of = [&]() -> Name {
    const auto [it, fresh] = graph_iid_.try_emplace(g.graph_id[row], 0);
    if (!fresh) return {it->second, {}};
    it->second = next_iid_++;
    graph_name_ = fmt::format("CUDA graph {}", g.graph_id[row]);
    return {it->second, graph_name_};
  };
  WriteGpuSlice(g, row, Category::kGraph, graph_flow_, graph_rows_, stats_.graphs, name_of, [](Ns) {});
}

void TraceBuilder::WriteApiCall(size_t row) {
  const auto& api = *in_.runtime;
  const Ns s = api.start[row];
  Ns e = std::max(s, api.end[row]);
  if (!CpuPidSelected(api.pid[row]) || !Overlaps(s, e)) return;
  if (Short(s, e)) {
    ++stats_.skipped_short;
    return;
  }
  const uint32_t track = tracks_.ThreadTrack(api.pid[row], api.tid[row]);
  e = tracks_.Open(track, s, e);
  const Name name = NameOf(api.name[row]);
  writer_.BeginEvent(EventType::kSliceBegin, tracks_.uuid(track), s, name.iid, name.define, Category::kCudaApi);
  writer_.ArgUint(Arg::kCorrelationId, api.correlation_id[row]);
  if (api.return_value[row] != 0) writer_.ArgInt(Arg::kReturnValue, api.return_value[row]);
  while (launch_cursor_ < launches_.size() && static_cast<size_t>(launches_[launch_cursor_].first) < row)
    ++launch_cursor_;
  for (; launch_cursor_ < launches_.size() && static_cast<size_t>(launches_[launch_cursor_].first) == row;
       ++launch_cursor_) {
    writer_.FlowId(launches_[launch_cursor_].second);
    ++stats_.flows;
  }
  writer_.FinishEvent();
  ++stats_.api_calls;
  Note(s, e);
}

void TraceBuilder::WriteNvtxRange(size_t row) {
  const auto& n = *in_.nvtx;
  const Ns s = n.start[row];
  Ns e = std::max(s, n.end[row]);
  if (!CpuPidSelected(n.pid[row]) || !Overlaps(s, e)) return;
  if (Short(s, e)) {
    ++stats_.skipped_short;
    return;
  }
  // Push/pop ranges nest on their thread; start/end ranges may overlap freely, so they get lanes of their own.
  const uint32_t track = n.style[row] == engine::NvtxStyle::kPushPop ? tracks_.ThreadTrack(n.pid[row], n.tid[row])
                                                                     : tracks_.NvtxLane(n.pid[row], s, e);
  e = tracks_.Open(track, s, e);
  const Name name = NameOf(n.name[row]);
  writer_.BeginEvent(EventType::kSliceBegin, tracks_.uuid(track), s, name.iid, name.define, Category::kNvtx);
  if (n.op_id[row] >= 0) writer_.ArgInt(Arg::kOpId, n.op_id[row]);
  writer_.FinishEvent();
  ++stats_.nvtx_ranges;
  Note(s, e);
}

void TraceBuilder::WriteNvtxMark(size_t row) {
  const auto& m = *in_.nvtx_marks;
  const Ns t = m.time[row];
  if (!CpuPidSelected(m.pid[row]) || !Overlaps(t, t)) return;
  const uint32_t track = tracks_.ThreadTrack(m.pid[row], m.tid[row]);
  tracks_.Advance(track, t);
  const Name name = NameOf(m.name[row]);
  writer_.BeginEvent(EventType::kInstant, tracks_.uuid(track), t, name.iid, name.define, Category::kNvtx);
  writer_.FinishEvent();
  ++stats_.nvtx_marks;
  Note(t, t);
}

// The rows each table contributes: those overlapping the window, of the kinds asked for.
void TraceBuilder::SelectRows() {
  kernel_rows_ = options_.gpu ? Range(in_.kernels) : RowRange{};
  memcpy_rows_ = options_.gpu ? Range(in_.memcpys) : RowRange{};
  memset_rows_ = options_.gpu ? Range(in_.memsets) : RowRange{};
  graph_rows_ = options_.gpu ? Range(in_.graphs) : RowRange{};
  api_rows_ = options_.cpu ? Range(in_.runtime) : RowRange{};
  nvtx_rows_ = options_.cpu ? Range(in_.nvtx) : RowRange{};
  if (options_.cpu && in_.nvtx_marks != nullptr) {
    const auto& t = in_.nvtx_marks->time;
    if (options_.filter.window.whole) {
      mark_rows_ = {0, t.size()};
    } else {
      mark_rows_.first =
          static_cast<size_t>(std::lower_bound(t.begin(), t.end(), options_.filter.window.begin) - t.begin());
      mark_rows_.last =
          static_cast<size_t>(std::lower_bound(t.begin(), t.end(), options_.filter.window.end) - t.begin());
    }
  }
  // The device filter also narrows the GPU pre-pass when only CPU data is written (to derive the processes).
  if (!options_.gpu && !options_.filter.devices.empty()) {
    kernel_rows_ = Range(in_.kernels);
    memcpy_rows_ = Range(in_.memcpys);
    memset_rows_ = Range(in_.memsets);
    graph_rows_ = Range(in_.graphs);
  }
}

void TraceBuilder::WriteRow(int table, size_t row) {
  switch (table) {
    case 0:
      WriteKernel(row);
      break;
    case 1:
      WriteMemcpy(row);
      break;
    case 2:
      WriteMemset(row);
      break;
    case 3:
      WriteApiCall(row);
      break;
    case 4:
      WriteNvtxRange(row);
      break;
    case 5:
      WriteNvtxMark(row);
      break;
    default:
      WriteGraph(row);
      break;
  }
}

// One merge over every table by (start asc, end desc): parents open before their children on each track.
Status TraceBuilder::MergeEvents(const CancelToken& cancel, const ProgressSink& progress) {
  struct Cursor {
    size_t row, last;
    const Ns* start;
    const Ns* end;
  };
  Cursor cursors[7] = {};
  auto set = [&](int k, RowRange r, const engine::Column<Ns>* start, const engine::Column<Ns>* end) {
    cursors[k] = {r.first, r.last, start ? start->data() : nullptr, end ? end->data() : nullptr};
    if (start == nullptr) cursors[k].row = cursors[k].last = 0;
  };
  set(0, kernel_rows_, in_.kernels ? &in_.kernels->start : nullptr, in_.kernels ? &in_.kernels->end : nullptr);
  set(1, memcpy_rows_, in_.memcpys ? &in_.memcpys->start : nullptr, in_.memcpys ? &in_.memcpys->end : nullptr);
  set(2, memset_rows_, in_.memsets ? &in_.memsets->start : nullptr, in_.memsets ? &in_.memsets->end : nullptr);
  set(3, api_rows_, in_.runtime ? &in_.runtime->start : nullptr, in_.runtime ? &in_.runtime->end : nullptr);
  set(4, nvtx_rows_, in_.nvtx ? &in_.nvtx->start : nullptr, in_.nvtx ? &in_.nvtx->end : nullptr);
  set(5, mark_rows_, in_.nvtx_marks ? &in_.nvtx_marks->time : nullptr,
      in_.nvtx_marks ? &in_.nvtx_marks->time : nullptr);
  set(6, graph_rows_, in_.graphs ? &in_.graphs->start : nullptr, in_.graphs ? &in_.graphs->end : nullptr);

  size_t total = 0;
  for (const auto& c : cursors) total += c.last - c.row;
  size_t done = 0;
  for (;;) {
    int best = -1;
    Ns best_start = 0, best_end = 0;
    for (int k = 0; k < 7; ++k) {
      const Cursor& c = cursors[k];
      if (c.row >= c.last) continue;
      const Ns s = c.start[c.row];
      const Ns e = c.end[c.row];
      if (best < 0 || s < best_start || (s == best_start && e > best_end)) {
        best = k;
        best_start = s;
        best_end = e;
      }
    }
    if (best < 0) break;
    WriteRow(best, cursors[best].row++);
    if ((++done & 0xFFFF) == 0) {
      if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The trace export was cancelled.");
      if (!writer_.ok()) return writer_.Finish().error();
      if (progress)
        progress(100.0 * static_cast<double>(done) / static_cast<double>(total),
                 fmt::format("trace {}/{} events, {}", done, total, support::HumanBytes(writer_.bytes())));
    }
  }
  return {};
}

Expected<TraceStats> TraceBuilder::Run(const CancelToken& cancel, const ProgressSink& progress) {
  const auto started = std::chrono::steady_clock::now();
  const double cpu_started = ThreadCpuSeconds();
  stats_.window = options_.filter.window.whole ? std::string("whole profile") : options_.filter.window.description;

  SelectRows();
  writer_.Start();
  PrepareGpu();
  if (!options_.gpu) kernel_rows_ = memcpy_rows_ = memset_rows_ = graph_rows_ = RowRange{};
  if (Status merged = MergeEvents(cancel, progress); !merged.ok()) return merged.error();
  tracks_.CloseAll();
  if (options_.gpu && options_.counters) WriteCounters();
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The trace export was cancelled.");
  if (Status finished = writer_.Finish(); !finished.ok()) return finished.error();

  stats_.bytes = writer_.bytes();
  stats_.packets = writer_.packets();
  stats_.tracks = writer_.tracks();
  stats_.interned_names = writer_.interned_names();
  stats_.clamped_slices = tracks_.clamped();
  stats_.clamped_gpu_slices = tracks_.clamped_gpu();
  stats_.sha256 = writer_.Sha256Hex();
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  stats_.cpu_seconds = ThreadCpuSeconds() - cpu_started;
  if (progress) progress(100.0, fmt::format("trace written: {}", support::HumanBytes(stats_.bytes)));
  return stats_;
}

}  // namespace nsys::trace::internal
