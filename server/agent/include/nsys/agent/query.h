#pragma once
// A question, typed. A Query names what is measured (measures), over which events (subject), where (scope), how the
// events are grouped and ranked, what it is compared with, and the form of the answer. A compound question is a list
// of Queries, answered in order. Three fillers make Queries: the offline filler (query_fill: a lexicon kept as data
// and a small grammar), an LLM through one tool that takes the schema, and clients directly (`ask --query`,
// nsys/query, MCP `query`); one executor (AnswerQueries) answers them all from the event_stats and launch_sizes
// skills, so every figure an answer states is a cell of a cited skill row. Every answer opens with the reading in
// words (DescribeQuery), so a misreading shows at once.
//
// The enums' names (the tables below) are the one vocabulary of the JSON form (query_json.h) and its schema.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/support/expected.h"

namespace nsys::agent {

enum class Measure : uint8_t {
  kTotal,     // summed duration
  kCount,     // how many
  kShare,     // of every event of the same kind, %
  kGpuShare,  // of GPU time: every kernel, copy and memset, %
  kAverage,   // mean duration
  kMedian,    // NVIDIA's median
  kP90,       // nearest-rank percentiles
  kP95,
  kP99,
  kMin,          // the shortest one
  kMax,          // the longest one
  kStddev,       // sample standard deviation
  kBytes,        // copies and memsets: summed size
  kAvgBytes,     // copies and memsets: mean size
  kBandwidth,    // bytes / summed duration
  kBusy,         // union of the intervals
  kUtilization,  // busy / span, %
  kIdleShare,    // idle / span, %
  kIdle,         // span - busy
  kSpan,         // first start to last end
  kGrid,         // kernels: blocks per grid of the most used launch configuration
  kBlock,        // kernels: threads per block of the same
  kGroups,       // how many groups (GPUs, processes, streams, names) the events fall in
  kMinBytes,     // copies and memsets: the smallest one's size
  kMaxBytes,     // the largest one's size
  kLatency,      // kernels, copies, memsets: mean launch latency, from the launch call's start to the work's start
  kLaunchDelay,  // the same: mean launch delay, from the launch call's end to the work's start, at least 0 (HTA's)
  // Kernels: more of the most used launch configuration (launch_sizes), beside its blocks and threads per block.
  kThreads,        // threads in the whole launch: blocks per grid x threads per block
  kRegisters,      // registers per thread
  kStaticShared,   // static shared memory per block, bytes
  kDynamicShared,  // dynamic shared memory per block, bytes
  kSmCount,        // streaming multiprocessors of the GPU it ran on (0: the export does not say)
  // The idle gaps of the events' union: the intervals of their span with none of them running (their sum is kIdle).
  kGaps,    // how many
  kMaxGap,  // the longest
  // The GPUs the export lists (EventKind::kDevices): each one's memory and peak memory bandwidth, as the export gives.
  kMemory,           // device memory, bytes
  kMemoryBandwidth,  // peak memory bandwidth, GB/s
  // Communication kernels (NCCL, RCCL, HCCL; the nccl_breakdown skill, per GPU), with HTA's convention
  // (guides/analysis.md): the share of their busy time that compute kernels overlap, and the time none does.
  kCommOverlap,  // |∪compute ∩ ∪comm| / |∪comm|, %
  kExposed,      // |∪comm \ ∪compute|, ns (with the share of the communication time it is)
  // The longest launch latency and launch delay of the events (kLatency's and kLaunchDelay's worst case).
  kMaxLatency,
  kMaxDelay,
  kCountShare,  // of every event of the same kind, by number, % ("what percentage of all kernel launches")
  // The events' busy time over the span of every GPU op on the GPUs they ran on, % ("what share of the GPU span do the
  // solver kernels account for"): a GPU's timeline, as utilization is of the events' own span.
  kSpanShare,
  // The time from the window's origin (scope.origin, or the first kernel) to its end (scope.until): how long after one
  // moment another comes ("how long after MPI_Init ends does the first saxpy kernel start"). Both moments' rows are
  // cited; the subject is the origin's events.
  kElapsed,
  // Copies and memsets: their bytes' share of every byte the events of the kind moved or set, % ("what percentage of
  // all bytes copied went host-to-device").
  kByteShare,
  // The mean length of the idle gaps kGaps counts (their sum over how many): "on average, how long is the GPU idle
  // between one kernel and the next".
  kAvgGap,
};
// Whether a measure is of communication kernels against compute (nccl_breakdown's row), not event_stats'.
bool IsCommMeasure(Measure m);
// Whether a measure is of the events' timeline, each GPU's union of them and its span: busy, utilization, idle, idle
// share, gaps, the longest gap, the span.
bool IsTimelineMeasure(Measure m);
// Whether a measure is of the idle gaps counted, those a gap bound (Scope::gap_longer_than_ns) bounds: how many
// (kGaps), the longest (kMaxGap), their mean (kAvgGap).
bool IsGapMeasure(Measure m);
// Whether a measure is of a kernel's launch configuration (launch_sizes' row), not of its durations (event_stats').
bool IsLaunchConfiguration(Measure m);
// What a measure's figures are: a time (ns), a number of things, bytes, a percentage or a rate (GB/s). Two measures
// set against each other are of one kind; a threshold is said in its kind's unit.
enum class Dimension : uint8_t { kTime, kNumber, kBytes, kPercent, kRate };
Dimension DimensionOf(Measure m);
// Whether a measure is a share of every event of a kind (of its time, count or bytes, or of GPU time): the shares a
// place's share of the profile is asked with (ShareOfProfile).
bool IsShareOfTheKind(Measure m);
// Whether a measure adds up over events (total time, count, bytes, busy time): one a share form is of.
bool AddsUp(Measure m);
// kGpu: a GPU's work, its kernels, copies and memsets together (the events of a GPU's busy and idle time).
// kGraphs: CUDA graph launches, named "CUDA graph N" (an execution recorded whole, or a node-level replay).
// kDevices: the GPUs the export lists, idle ones too (the gpus skill): how many, their names, SMs, memory and peak
// memory bandwidth (count, sm_count, memory, memory_bandwidth), and the work each ran.
enum class EventKind : uint8_t { kKernels, kApi, kMemcpy, kMemset, kNvtx, kGpu, kGraphs, kDevices };
// How many kinds there are: every table indexed by an EventKind has this size (std::to_array and a static_assert),
// so that a kind added here cannot read past one.
inline constexpr size_t kEventKinds = 8;
// kRange: the innermost NVTX range; kBaseName: kernels by their base name (nsys stats' `:base`), other events by name.
enum class GroupBy : uint8_t { kNone, kName, kDevice, kPid, kStream, kRange, kBaseName };
// Whether a grouping is by place: a GPU, a process or a stream (not a name or a range).
bool IsPlace(GroupBy g);
enum class Rank : uint8_t { kNone, kTop, kBottom };
// kShare, with a versus side: the first side's first measure as a percentage of the second side's ("what percentage
// is the myelinGraphExecute time of the ExecutionContext::execute time").
enum class Form : uint8_t { kNumber, kYesNo, kName, kTable, kShare };

// The names of each enum's values, in declaration order ("total", "count", ...): the JSON form's words.
std::span<const std::string_view> MeasureNames();
std::span<const std::string_view> EventKindNames();
std::span<const std::string_view> GroupByNames();
std::span<const std::string_view> RankNames();
std::span<const std::string_view> FormNames();
// The kinds of host memory a copy or memset reads or writes (Subject::memory): ENUM_CUDA_MEM_KIND's, as event_stats'
// `memory` argument names them.
std::span<const std::string_view> MemoryKindNames();
// Why the driver migrated unified memory (Subject::cause): ENUM_CUDA_UNIF_MEM_MIGRATION's causes, as event_stats'
// `cause` argument names them.
std::span<const std::string_view> MigrationCauseNames();
// The value named `name` of a table above (its index), or nullopt.
std::optional<size_t> IndexOfName(std::span<const std::string_view> names, std::string_view name);

// Which events: a kind, and optionally a name (a case-insensitive substring of a kernel's short or demangled name, an
// API call's, an NVTX range's) and, for copies, a copy kind ("HtoD", "DtoH", "DtoD", "PtoP", "HtoH", "Unified HtoD",
// ...) and the kind of the host memory a copy reads or writes ("pageable", "pinned", "managed", ...).
struct Subject {
  EventKind events = EventKind::kKernels;
  std::string name;
  std::string copy_kind;
  std::string api_class;    // API calls: sync, alloc, free, module, setup, launch, memcpy, memset (NVIDIA's sections)
  bool whole_name = false;  // `name` is a whole name (a kernel's, a call's with its version suffixes, a range's)
  std::string memory;       // copies and memsets: pageable, pinned, device, array, managed; "" = any
  // Kernels: a family as the kernel-name decoder classifies them, each word a library ("FlashAttention", "cuBLAS"), a
  // kind of work ("gemm", "attention") or an operation ("fwd"), as event_stats' `family`; "" = any.
  std::string family;
  // One event of those: the nth by start time (1 the first, 2 the second, -1 the last to start); 0 = every one ("the
  // second Model range", "the later of the two runFusionWithInputs ranges").
  int32_t nth = 0;
  // Leave out the first `skip` of those by start time (the last -skip when negative); 0 = none ("ignoring the first
  // (warm-up) iteration", "leaving out the very first token"). Not with nth.
  int32_t skip = 0;
  // Leave out the events whose name contains this ("kernel time excluding NCCL", "every call but cudaLaunchKernel"):
  // kernels, API calls and NVTX ranges; '|' between alternatives. "" = none left out.
  std::string except;
  // Copies: only the unified-memory migrations the driver made for this cause (page_fault, speculative_prefetch,
  // user_prefetch, eviction, access_counters), as the export classifies them; "" = any.
  std::string cause;
  bool operator==(const Subject&) const = default;
};

// A moment of the profile an event marks: the start of the events (their first start; with `nth`, that one event's
// start) or their end (their last end; that event's end), over the whole profile ("the end of the MPI_Init range",
// "the start of the first memory copy", "the end of the last sample kernel").
struct Anchor {
  Subject events;
  bool at_end = false;
  bool operator==(const Anchor&) const = default;
};

// Where: devices, processes, one stream, inside NVTX ranges whose name contains `inside`, a window in seconds from
// the profile start (or from a moment an event marks). Empty = everywhere.
struct Scope {
  std::vector<int32_t> devices;
  std::vector<uint32_t> pids;
  int32_t stream = -1;
  std::string inside;
  std::optional<double> from_s, to_s;
  // Bounds on each event, exclusive, -1 = none: "longer than 100 us", "larger than 1 MB".
  int64_t longer_than_ns = -1, shorter_than_ns = -1, larger_than_bytes = -1, smaller_than_bytes = -1;
  // The window counts from the start of the first kernel in this scope (its devices and processes), not from the
  // profile start: "in the first 100 ms after the first kernel starts".
  bool from_first_kernel = false;
  // Kernels: only launches whose grid has fewer blocks than their GPU has SMs ("how many launches used fewer blocks
  // than the GPU has SMs").
  bool grid_below_sms = false;
  // The launch relation (correlation ids within a process): kernels, copies and memsets launched by a CUDA call of
  // this whole name ("cuLaunchKernelEx", version suffixes aside); CUDA API calls that launched a kernel whose name
  // contains this ("trsm_right_kernel").
  std::string launched_by, launches;
  // The window counts from a moment an event marks instead of the profile start (from_s and to_s after it, or from it
  // on: "measuring from the end of the MPI_Init range, within the following 500 ms"), and ends at one (`until`:
  // "between the start of the first sample kernel and the end of the last one", "while the second Model range was
  // open"). Events are in the window when they start in it.
  std::optional<Anchor> origin, until;
  // Only events in no NVTX range whose name contains this ("GPU time outside the warmup range"): inside's complement.
  std::string outside;
  // The window's seconds are on the export's own clock, from the session start, as the Nsight Systems timeline counts
  // them ("between 6.5 s and 7.0 s into the capture", "6.0 s after the session start"), not from the profile's first
  // event. Not with an origin, until or fromFirstKernel.
  bool capture_clock = false;
  // Bounds on each idle gap the gap measures count (kGaps, kMaxGap, kAvgGap), exclusive, -1 = none: "how many gaps
  // longer than 1 ms". Only with those measures: the events, busy and idle time stay every one's.
  int64_t gap_longer_than_ns = -1, gap_shorter_than_ns = -1;
  bool operator==(const Scope&) const = default;
};

struct Query {
  std::vector<Measure> measures;  // at least one; the first ranks and compares
  Subject subject;
  Scope scope;
  GroupBy group_by = GroupBy::kNone;
  Rank rank = Rank::kNone;  // with group_by: which group(s) come first by the first measure
  int32_t limit = 0;        // with rank: how many groups (0 = 1)
  int32_t offset = 0;       // with rank: how many groups are passed over before those shown ("the second one": 1)
  // A comparison: the same measures of another subject or in another scope; the answer says which is larger, by how
  // much and the ratio.
  std::optional<Subject> versus_subject;
  std::optional<Scope> versus_scope;
  // A comparison of two measures of the same events ("fewer blocks than the GPU has SMs", "is the mean above the
  // median"): the first measure against this one, which `measures` holds too; both of a launch configuration, or
  // neither. Not with a versus side.
  std::optional<Measure> versus_measure;
  Form form = Form::kNumber;  // kYesNo with a comparison: "is the first larger than the second?"
  bool yes_if_less = false;   // kYesNo: "is the first smaller than the second?" instead
  // kYesNo without a comparison: is the first measure above this value (below, with yes_if_less)? In the measure's
  // unit: ns, %, bytes, GB/s or a count. "Are there any ... longer than 5 ms?" is a count above 0.
  std::optional<double> threshold;
  // A share grouped by device, process or stream is of each one's own events of the kind ("percent of kernel time in
  // NCCL kernels, per GPU": each GPU's kernel time), not of every one the scope holds.
  bool share_within_group = false;
  // kYesNo with a versus side: is the first more than this many times the second (less than, with yes_if_less)? "Is
  // device 0's SendRecv time more than double device 1's?" is 2.
  std::optional<double> factor;
  bool operator==(const Query&) const = default;
};

// The bounds a Query from an untrusted filler must keep: at most 8 measures, 16 devices or pids, names of at most
// 512 bytes, a limit of at most 100, a window with start < end, a finite threshold, a yes/no answer with something to
// compare with, a versus measure among the measures. OK, or kInvalidArgument saying which.
Status CheckQuery(const Query& q);

// The reading in words: "total time, count of kernels whose name contains `nvfuser`, inside NVTX ranges named like
// `runFusionWithInputs`, GPU 0". Names are quoted with backticks.
std::string DescribeQuery(const Query& q);
// Whether a subject takes every event of its kind: no name, family, class, memory kind, cause, exclusion or one event
// by its place in time selects among them.
bool SelectsEveryOne(const Subject& s);
// "What share of the kernel time ran on stream 14": a share of every event of a kind (no name, family, class, range
// or bound selects among them), restricted only by places or a window and not grouped, is of the whole profile's
// events of the kind: within its own places it would be 100 % whatever the profile holds.
bool ShareOfProfile(const Query& q);
// A moment an event marks, in words: "the end of the 2nd of the NVTX ranges whose name contains `Model`".
std::string DescribeAnchor(const Anchor& a);
// One event by its place in time (Subject::nth, not 0), in words: "the first to start", "the 2nd to last to start".
std::string DescribeNth(int32_t nth);

}  // namespace nsys::agent
