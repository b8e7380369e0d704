#pragma once
// The in-memory profile model that skills, the trace writer and the agent query without SQL.
//
// Architecture Invariant: this header includes no SQLite, JSON-RPC or asio. Tables are columnar (one Column
// per column: on the heap, in a spill file or a view of the snapshot; column.h), immutable once loaded, and
// sorted by (start, end) so that windows are binary searches and sweeps are linear. Row indices are int32_t; -1 means
// "none".
#include <atomic>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/engine/column.h"

namespace nsys::engine {

using Ns = int64_t;      // nanoseconds on the capture clock, as in the export
using StrId = uint32_t;  // index into StringPool; 0 is the empty string
inline constexpr int32_t kNone = -1;

// Global thread/process ids pack a hardware/VM id in the high bits: always mask.
inline uint32_t PidOf(int64_t global_id) {
  return static_cast<uint32_t>((global_id >> 24) & 0xFFFFFF);
}
inline uint32_t TidOf(int64_t global_id) {
  return static_cast<uint32_t>(global_id & 0xFFFFFF);
}

// Append-only interned strings. intern() is thread-safe (loaders run in parallel); view() of an id that
// was already returned is lock-free. Strings live in segments that never move (a deque-like layout with a
// fixed segment directory): unlike std::deque, appending never reallocates the directory that a concurrent
// view() reads, so readers need no lock while loaders keep interning.
class StringPool {
 public:
  StringPool();
  ~StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  StrId intern(std::string_view s);
  // The id of `s` if it was interned, without interning it.
  std::optional<StrId> find(std::string_view s) const;
  std::string_view view(StrId id) const {
    if (id >= size_.load(std::memory_order_acquire)) return {};
    const Slot slot = Locate(id);
    return segments_[slot.segment].load(std::memory_order_relaxed)[slot.offset];
  }
  size_t size() const { return size_.load(std::memory_order_acquire); }

 private:
  static constexpr size_t kFirstSegment = 1024;  // segment k holds kFirstSegment << k strings
  static constexpr int kSegments = 32;
  struct Slot {
    int segment;
    size_t offset;
  };
  static Slot Locate(size_t id) {
    const size_t v = id / kFirstSegment + 1;
    const int segment = 63 - __builtin_clzll(v);
    return {segment, id - kFirstSegment * ((size_t{1} << segment) - 1)};
  }

  mutable std::mutex mu_;
  std::atomic<std::string*> segments_[kSegments] = {};
  std::unordered_map<std::string_view, StrId> index_;
  std::atomic_size_t size_{0};
};

// Which parts of an export are present. Skills decline with a reason when what they need is false.
struct Capabilities {
  bool kernels = false;            // CUPTI_ACTIVITY_KIND_KERNEL
  bool runtime = false;            // CUPTI_ACTIVITY_KIND_RUNTIME
  bool memcpy = false;             // CUPTI_ACTIVITY_KIND_MEMCPY
  bool memset = false;             // CUPTI_ACTIVITY_KIND_MEMSET
  bool sync = false;               // CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
  bool graphs = false;             // CUPTI_ACTIVITY_KIND_GRAPH_TRACE: CUDA graph executions recorded whole
  bool nvtx = false;               // NVTX_EVENTS
  bool gpu_info = false;           // TARGET_INFO_GPU (device names)
  bool cuda_streams = false;       // TARGET_INFO_CUDA_STREAM
  bool profiler_overhead = false;  // PROFILER_OVERHEAD
  bool osrt = false;               // OSRT_API
  bool enums = false;              // ENUM_* tables
  bool nccl = false;  // NCCL kernels or NCCL NVTX ranges seen: set when Require(kKernels or kNvtx) finds them
};

struct Device {
  int32_t id = 0;                // deviceId as used by GPU activity rows
  std::string name;              // "NVIDIA H100 80GB HBM3"; empty when the export has no GPU info
  std::string chip;              // "GH100"; may be empty
  int64_t total_memory = 0;      // bytes, 0 when unknown
  int64_t memory_bandwidth = 0;  // bytes/s as in the export, 0 when unknown
  int32_t sm_count = 0;
  int64_t clock_rate = 0;                        // as in the export
  int32_t compute_major = 0, compute_minor = 0;  // 0: unknown
  // The export names the GPU but not its SMs or compute capability: those are the model's (gpu_models.h).
  bool sm_count_from_model = false;
};

struct Process {
  uint32_t pid = 0;
  std::string name;
};

struct Thread {
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string name;
};

struct CudaStream {
  int32_t device = -1;  // from TARGET_INFO_CUDA_CONTEXT_INFO; -1 when the export does not say
  int32_t stream = 0;
  uint32_t pid = 0;
  int32_t priority = 0;
  int32_t stream_type = 0;  // as in ENUM_CUPTI_STREAM_TYPE where present
};

// Row counts of every table in the export, and the schema facts, known right after open (no event loads).
struct TableInfo {
  std::string name;
  int64_t rows = 0;
  std::vector<std::string> columns;
};

// Rows of one event table that cannot be right. Skipped rows are left out of the model, so out of every answer;
// unnamed rows stay in with an empty name.
struct RowDamage {
  std::string table;
  int64_t bad_time = 0;    // start (or a required end) NULL or not an integer: text, real or blob
  int64_t bad_span = 0;    // end before start, or a time at or beyond +-2^62 ns (so that end - start cannot overflow)
  int64_t unreadable = 0;  // rows the table holds (its rowid span) that neither the page reader nor SQLite returned
  int64_t unnamed = 0;     // kept: the name's string id was NULL or not in StringIds, so the name is empty

  int64_t skipped() const { return bad_time + bad_span + unreadable; }
  bool any() const { return skipped() > 0 || unnamed > 0; }
  // "3 rows skipped (3 with a NULL or non-integer start or end)"; empty when nothing is wrong.
  std::string Describe() const;
};

// What the loads found wrong, table by table, filled in as the event tables load (thread-safe: a profile's
// info is shared by every reader while its tables still load in the background).
class RowChecks {
 public:
  struct Report {
    std::vector<RowDamage> tables;  // tables with any damage, sorted by name
    bool complete = false;          // every event table was loaded (or restored) and checked
  };
  void Expect(size_t tables);     // how many tables make the report complete
  void Record(RowDamage damage);  // one table's result (replaces an earlier one of the same table)
  void MarkComplete();            // every table was checked (a warm snapshot's report)
  Report Get() const;
  std::optional<RowDamage> Of(std::string_view table) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, RowDamage, std::less<>> by_table_;
  size_t expected_ = 0;
  bool complete_ = false;
};

struct ProfileInfo {
  std::string path;         // as opened (the .sqlite, after any .nsys-rep conversion)
  std::string source_path;  // what the user gave (may be a .nsys-rep)
  int64_t file_size = 0;
  std::string nsys_version;    // EXPORT_PRODUCT_VERSION, empty when unknown
  std::string schema_version;  // EXPORT_SCHEMA_VERSION, empty when unknown
  std::string metadata_table;  // "EXPORT_META_DATA", "META_DATA_EXPORT" or ""
  std::map<std::string, std::string> metadata;
  Capabilities caps;
  std::vector<TableInfo> tables;   // sorted by name
  std::vector<Device> devices;     // sorted by id; from TARGET_INFO_GPU, else ids seen in GPU activity
  std::vector<Process> processes;  // sorted by pid
  std::vector<Thread> threads;     // sorted by (pid, tid)
  std::vector<CudaStream> streams;
  // The profile's range on the capture clock: the smallest start and the largest end over the event tables the
  // engine loads (kernels, memcpy, memset, sync, runtime, NVTX except domain creates, profiler overhead), read
  // from the first and last 32k rows by rowid of each table (exports are written in time order; exact for the
  // fixtures). Not ANALYSIS_DETAILS: it is the whole capture even for exports cut to a window, and on another
  // clock when times were normalised. 0 and 0 when the export has no such events.
  Ns start_ns = 0;
  Ns end_ns = 0;
  int64_t session_start_utc_ns = 0;  // TARGET_INFO_SESSION_START_TIME.utcEpochNs, 0 when absent
  bool from_cache = false;           // loaded from the warm snapshot
  // The tables are paged by the OS, not held in memory: the export's model (model_bytes) is over half the memory
  // budget (OpenOptions::memory_budget_bytes). Columns live in spill files or are views of the snapshot.
  bool paged = false;
  int64_t model_bytes = 0;  // what the event tables' columns take, by their row counts and column widths
  // Damaged rows found by the loads so far (complete at open when from_cache). Shared with the profile.
  std::shared_ptr<RowChecks> row_checks = std::make_shared<RowChecks>();

  int64_t rows(std::string_view table) const;  // 0 when absent
};

// GPU operations. `launch` is the row in RuntimeTable of the runtime call with the same
// (pid, correlationId), or kNone. Never joined on correlationId alone.
// A kernel's launch configuration and its rarely read attributes. A profile launches each kernel with a few
// configurations, so the table stores every distinct one once and a 4-byte index a row (44 bytes a row before).
struct KernelConfig {
  int32_t grid_x = 0, grid_y = 0, grid_z = 0, block_x = 0, block_y = 0, block_z = 0;
  int32_t registers_per_thread = 0, static_shared_memory = 0, dynamic_shared_memory = 0;
  int32_t context = 0;
  StrId mangled_name = 0;
  // The CUDA graph the kernel ran in, as nsys records it with --cuda-graph-trace=node (the kernel row's graphId);
  // 0 outside a graph or when the export has no such column. Its launch call is then the graph's cudaGraphLaunch.
  uint32_t graph_id = 0;
  friend auto operator<=>(const KernelConfig&, const KernelConfig&) = default;
};

struct KernelTable {
  Column<Ns> start, end;
  Column<int32_t> device, stream;
  Column<uint32_t> pid, correlation_id;
  Column<StrId> name, short_name;  // name = demangledName
  Column<uint32_t> config;         // index into configs
  Column<int32_t> launch;
  std::vector<KernelConfig> configs;  // distinct, in ascending order (so equal loads give equal tables)
  Ns max_duration = 0;  // bounds window searches: a row overlapping [a,b) starts at or after a - max_duration
  size_t size() const { return start.size(); }
  const KernelConfig& Config(size_t row) const { return configs[config[row]]; }
};

enum class CopyKind : uint8_t {
  kUnknown = 0,
  kHtoD = 1,
  kDtoH = 2,
  kHtoA = 3,
  kAtoH = 4,
  kAtoA = 5,
  kAtoD = 6,
  kDtoA = 7,
  kDtoD = 8,
  kHtoH = 9,
  kPtoP = 10
};

struct MemcpyTable {
  Column<Ns> start, end;
  Column<int32_t> device, stream;
  Column<uint32_t> pid, correlation_id;
  Column<int64_t> bytes;
  Column<uint8_t> copy_kind;  // CopyKind
  Column<int8_t> src_kind,
      dst_kind;  // ENUM_CUDA_MEM_KIND id (0 pageable, 1 pinned, 2 device, 3 array, 4 managed...), -1 unknown
  Column<int32_t> src_device, dst_device;  // -1 unknown
  // Unified-memory migrations: why the driver moved the pages, NVIDIA's ENUM_CUDA_UNIF_MEM_MIGRATION id (0 unknown, 1
  // user prefetch, 2 page fault (coherence), 3 speculative prefetch, 4 eviction, 5 access counters); -1 when the
  // export does not say (other copies, older schemas).
  Column<int8_t> migration_cause;
  Column<int32_t> launch;
  Ns max_duration = 0;
  size_t size() const { return start.size(); }
};

struct MemsetTable {
  Column<Ns> start, end;
  Column<int32_t> device, stream;
  Column<uint32_t> pid, correlation_id;
  Column<int64_t> bytes;
  Column<int32_t> value;
  Column<int8_t> mem_kind;  // -1 unknown
  Column<int32_t> launch;
  Ns max_duration = 0;
  size_t size() const { return start.size(); }
};

// CUDA graph executions as nsys records them with --cuda-graph-trace=graph (its default): one row per launch of a
// graph (CUPTI's CUpti_ActivityGraphTrace2: start and end of the whole execution, the device of its first node, the
// launching stream, the graph's id, and the correlation id of the cudaGraphLaunch call), and no row for the kernels,
// copies and memsets inside it. `launch` as the GPU operations'.
struct GraphTable {
  Column<Ns> start, end;
  Column<int32_t> device, stream;
  Column<uint32_t> pid, correlation_id;
  Column<int64_t> graph_id, graph_exec_id;  // -1 when the export has no such column
  Column<int32_t> launch;
  Ns max_duration = 0;
  size_t size() const { return start.size(); }
};

struct SyncTable {  // CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
  Column<Ns> start, end;
  Column<int32_t> device, stream;
  Column<uint32_t> pid, correlation_id;
  Column<int32_t> sync_type;
  // The CUDA event a wait or event sync names (eventId), and nsys's link from it to the event's record
  // (eventSyncId, 3.x exports); -1 when the export has no such column.
  Column<int64_t> event_id, event_sync_id;
  Column<int32_t> launch;
  Ns max_duration = 0;
  size_t size() const { return start.size(); }
};

// CUDA runtime (and driver) API calls on CPU threads. `nvtx` is the innermost push/pop NVTX range on the
// same thread that encloses the call (start <= call.start and call.end <= end), or kNone.
struct RuntimeTable {
  Column<Ns> start, end;
  Column<uint32_t> pid, tid;
  Column<StrId> name;
  Column<uint32_t> correlation_id;
  Column<int32_t> return_value;
  Column<int32_t> nvtx;
  Ns max_duration = 0;
  size_t size() const { return start.size(); }
};

enum class NvtxStyle : uint8_t { kPushPop = 0, kStartEnd = 1 };

// NVTX ranges (eventType 59 push/pop and 60 start/end) sorted by (start, end desc) so that parents precede
// children. Push/pop nesting is resolved per thread: `parent` is the enclosing push/pop range on the same
// thread, Depth() its depth (0 = outermost). Start/end ranges have parent kNone and depth 0.
// Names: PyTorch writes one text per op ("aten::mm, op_id = 317126"); the name is interned without the
// suffix and `op_id` keeps the number (-1 when absent). FullName() rebuilds the text as the export has it.
// A range's attributes that few analyses read: stored once per distinct combination (a profile has a few per
// thread), with a 4-byte index a row instead of 16 bytes.
struct NvtxAttributes {
  int32_t domain = 0;    // domainId, 0 = default
  int32_t category = 0;  // 0 = none
  uint32_t color = 0;    // ARGB, 0 = none
  uint32_t end_tid = 0;  // thread that ended a start/end range (== tid when unknown)
  friend auto operator<=>(const NvtxAttributes&, const NvtxAttributes&) = default;
};

struct NvtxTable {
  Column<Ns> start, end;  // end == start for ranges cut by the capture window with no end
  Column<uint32_t> pid, tid;
  Column<StrId> name;
  Column<int32_t> op_id;  // -1 when absent; a number over INT32_MAX stays in the name
  Column<NvtxStyle> style;
  Column<int32_t> parent;
  Column<uint32_t> attrs;                  // index into attributes
  std::vector<NvtxAttributes> attributes;  // distinct, in ascending order
  Ns max_duration = 0;
  size_t size() const { return start.size(); }
  const NvtxAttributes& Attributes(size_t row) const { return attributes[attrs[row]]; }
  // Nesting depth, 0 = outermost: the parents above the row (counted up to 65535; a column of it took 2 bytes a row).
  int32_t Depth(size_t row) const {
    int32_t d = 0;
    for (int32_t p = parent[row]; p >= 0 && d < 65535; p = parent[static_cast<size_t>(p)]) ++d;
    return d;
  }
};

struct NvtxMarkTable {  // eventType 34
  Column<Ns> time;
  Column<uint32_t> pid, tid;
  Column<StrId> name;
  size_t size() const { return time.size(); }
};

struct OverheadTable {  // PROFILER_OVERHEAD: counted as busy on every device of its pid by gpu-starv
  Column<Ns> start, end;
  Column<uint32_t> pid, tid;
  Column<StrId> name;
  size_t size() const { return start.size(); }
};

// Share of kernel time that can be traced to a launch call, and to an enclosing NVTX range.
struct AttributionCoverage {
  int64_t kernels = 0;
  int64_t kernel_time_ns = 0;
  int64_t with_launch = 0;
  int64_t with_launch_time_ns = 0;
  int64_t with_nvtx = 0;
  int64_t with_nvtx_time_ns = 0;
};

}  // namespace nsys::engine
