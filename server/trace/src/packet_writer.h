#pragma once
// Internal: encodes TracePackets for one trusted sequence and hands packet-aligned chunks to the sink.
// Field numbers are Perfetto's (see server/trace/proto/nsys_ai_trace.proto, which mirrors them for protoc).
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "chunk_pipeline.h"
#include "nsys/support/sha256.h"
#include "nsys/trace/protobuf.h"
#include "nsys/trace/trace_writer.h"

namespace nsys::trace::internal {

namespace field {
// Trace
inline constexpr uint32_t kTracePacket = 1;
// TracePacket
inline constexpr uint32_t kTimestamp = 8;
inline constexpr uint32_t kSequenceId = 10;  // trusted_packet_sequence_id
inline constexpr uint32_t kTrackEvent = 11;
inline constexpr uint32_t kInternedData = 12;
inline constexpr uint32_t kSequenceFlags = 13;
inline constexpr uint32_t kGpuRenderStageEvent = 53;
inline constexpr uint32_t kTrackDescriptor = 60;
inline constexpr uint32_t kFirstPacketOnSequence = 87;
// InternedData; EventCategory / EventName / DebugAnnotationName are all {iid = 1, name = 2}
inline constexpr uint32_t kEventCategories = 1;
inline constexpr uint32_t kEventNames = 2;
inline constexpr uint32_t kDebugAnnotationNames = 3;
inline constexpr uint32_t kGraphicsContexts = 23;   // InternedGraphicsContext {iid = 1, pid = 2, api = 3}
inline constexpr uint32_t kGpuSpecifications = 24;  // InternedGpuRenderStageSpecification {iid, name, description = 3,
                                                    // category = 4}
inline constexpr uint32_t kInternedIid = 1;
inline constexpr uint32_t kInternedName = 2;
// TrackEvent
inline constexpr uint32_t kCategoryIids = 3;
inline constexpr uint32_t kDebugAnnotations = 4;
inline constexpr uint32_t kType = 9;
inline constexpr uint32_t kNameIid = 10;
inline constexpr uint32_t kTrackUuid = 11;
inline constexpr uint32_t kDoubleCounterValue = 44;
inline constexpr uint32_t kFlowIds = 47;
inline constexpr uint32_t kTerminatingFlowIds = 48;
// DebugAnnotation
inline constexpr uint32_t kArgNameIid = 1;
inline constexpr uint32_t kArgUint = 3;
inline constexpr uint32_t kArgInt = 4;
inline constexpr uint32_t kArgDouble = 5;
inline constexpr uint32_t kArgString = 6;
// TrackDescriptor
inline constexpr uint32_t kUuid = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kProcess = 3;
inline constexpr uint32_t kThread = 4;
inline constexpr uint32_t kParentUuid = 5;
inline constexpr uint32_t kCounter = 8;
inline constexpr uint32_t kChildOrdering = 11;
inline constexpr uint32_t kSiblingOrderRank = 12;
inline constexpr uint32_t kSiblingMergeBehavior = 15;
// GpuRenderStageEvent (gpu/gpu_render_stage_event.proto)
inline constexpr uint32_t kStageEventId = 1;
inline constexpr uint32_t kStageDuration = 2;
inline constexpr uint32_t kStageContext = 5;
inline constexpr uint32_t kStageGpuId = 11;
inline constexpr uint32_t kStageHwQueueIid = 13;
inline constexpr uint32_t kStageStageIid = 14;
inline constexpr uint32_t kStageNameIid = 20;  // an EventName of InternedData, as the kernel's slice uses
inline constexpr uint32_t kStageLaunch = 21;
// ComputeKernelLaunch {grid_size = 1, workgroup_size = 2, args = 3}, Dim3 {x = 1, y = 2, z = 3}, ExtraComputeArg
// {name = 2, int_value = 3}
inline constexpr uint32_t kLaunchGrid = 1;
inline constexpr uint32_t kLaunchWorkgroup = 2;
inline constexpr uint32_t kLaunchArgs = 3;
inline constexpr uint32_t kComputeArgName = 2;
inline constexpr uint32_t kComputeArgInt = 3;
// InternedGraphicsContext / InternedGpuRenderStageSpecification
inline constexpr uint32_t kContextPid = 2;
inline constexpr uint32_t kContextApi = 3;
inline constexpr uint32_t kSpecDescription = 3;
inline constexpr uint32_t kSpecCategory = 4;
// ProcessDescriptor / ThreadDescriptor
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kTid = 2;
inline constexpr uint32_t kThreadName = 5;
inline constexpr uint32_t kProcessName = 6;
// CounterDescriptor
inline constexpr uint32_t kUnit = 3;
inline constexpr uint32_t kUnitName = 6;
}  // namespace field

inline constexpr uint32_t kSequenceId = 1;  // the default: a single export's trace is one sequence
inline constexpr uint32_t kSeqIncrementalStateCleared = 1;
inline constexpr uint32_t kSeqNeedsIncrementalState = 2;
inline constexpr uint32_t kChildOrderingExplicit = 3;
inline constexpr uint32_t kSiblingMergeNone = 2;

enum class EventType : uint8_t { kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4 };
inline constexpr uint64_t kGraphicsApiCuda = 4;        // InternedGraphicsContext.Api.CUDA
inline constexpr uint64_t kRenderStageCompute = 2;     // InternedGpuRenderStageSpecification.COMPUTE
inline constexpr uint64_t kComputeKernelStageIid = 1;  // the one render stage: a CUDA kernel

// One kernel as Perfetto's GPU tools read it: a GpuRenderStageEvent on its GPU's hardware queue (the CUDA stream),
// with its launch. The interned queue and context travel in the packet that uses them first (`new_queue` non-empty,
// `new_context` set); `first_stage` defines the compute stage.
struct KernelStage {
  engine::Ns start = 0, duration = 0;
  uint64_t event_id = 0;
  int32_t gpu_id = 0;
  uint64_t context_iid = 0;
  std::optional<uint32_t> new_context;  // the pid of a context used for the first time
  uint64_t queue_iid = 0;
  std::string_view new_queue;  // the name of a queue used for the first time
  bool first_stage = false;
  uint64_t name_iid = 0;  // the kernel's name, interned for its slice on the timeline
  uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int64_t registers_per_thread = 0, static_shared = 0, dynamic_shared = 0;
};

// Interned event categories (iid = value).
enum class Category : uint8_t { kKernel = 1, kMemcpy, kMemset, kCudaApi, kNvtx, kGraph, kCount };
inline constexpr std::string_view kCategoryNames[] = {"",         "cuda.kernel", "cuda.memcpy", "cuda.memset",
                                                      "cuda.api", "nvtx",        "cuda.graph"};

// Interned debug-annotation names (iid = value).
enum class Arg : uint8_t {
  kCorrelationId = 1,
  kGrid,
  kBlock,
  kRegistersPerThread,
  kStaticSharedMemory,
  kDynamicSharedMemory,
  kBytes,
  kBandwidth,
  kValue,
  kReturnValue,
  kOpId,
  kCount
};
inline constexpr std::string_view kArgNames[] = {"",
                                                 "correlation_id",
                                                 "grid",
                                                 "block",
                                                 "registers_per_thread",
                                                 "static_shared_memory_bytes",
                                                 "dynamic_shared_memory_bytes",
                                                 "bytes",
                                                 "bandwidth_gb_per_s",
                                                 "value",
                                                 "return_value",
                                                 "op_id"};
static_assert(std::size(kArgNames) == static_cast<size_t>(Arg::kCount));
static_assert(std::size(kCategoryNames) == static_cast<size_t>(Category::kCount));

struct TrackSpec {
  uint64_t uuid = 0;
  uint64_t parent_uuid = 0;                                 // 0 = top level
  std::string name;                                         // empty: Perfetto derives it (process/thread tracks)
  std::optional<std::pair<uint32_t, std::string>> process;  // pid, name
  std::optional<std::tuple<uint32_t, uint32_t, std::string>> thread;  // pid, tid, name
  std::optional<std::string> counter_unit;                            // set = counter track, with this unit name
  bool explicit_child_order = false;
  std::optional<int32_t> sibling_rank;
  bool no_sibling_merge = false;
};

class PacketWriter {
 public:
  // With `pipeline`, chunks are hashed and delivered on a second thread (see chunk_pipeline.h).
  // `sequence_id` names this writer's packet sequence; `clock_offset_ns` is added to every timestamp it writes.
  PacketWriter(const ChunkSink& sink, size_t chunk_bytes, bool pipeline, uint32_t sequence_id = kSequenceId,
               engine::Ns clock_offset_ns = 0)
      : sink_(sink),
        chunk_bytes_(chunk_bytes),
        sequence_id_(sequence_id),
        clock_offset_ns_(clock_offset_ns),
        out_(chunk_bytes + 4096) {
    if (pipeline) pipeline_ = std::make_unique<ChunkPipeline>(sink, sha_, chunk_bytes);
  }

  // The first packet: clears incremental state and interns the categories and debug-annotation names.
  void Start() {
    const size_t packet = out_.BeginMessage(field::kTracePacket);
    out_.VarintField(field::kSequenceId, sequence_id_);
    out_.VarintField(field::kSequenceFlags, kSeqIncrementalStateCleared);
    out_.BoolField(field::kFirstPacketOnSequence, true);
    const size_t interned = out_.BeginMessage(field::kInternedData);
    for (uint32_t i = 1; i < static_cast<uint32_t>(Category::kCount); ++i)
      Interned(field::kEventCategories, i, kCategoryNames[i]);
    for (uint32_t i = 1; i < static_cast<uint32_t>(Arg::kCount); ++i)
      Interned(field::kDebugAnnotationNames, i, kArgNames[i]);
    out_.EndMessage(interned);
    ClosePacket(packet);
  }

  void Track(const TrackSpec& spec) {
    const size_t packet = out_.BeginMessage(field::kTracePacket);
    out_.VarintField(field::kSequenceId, sequence_id_);
    const size_t desc = out_.BeginMessage(field::kTrackDescriptor);
    out_.VarintField(field::kUuid, spec.uuid);
    if (!spec.name.empty()) out_.BytesField(field::kName, spec.name);
    if (spec.process) {
      const size_t p = out_.BeginMessage(field::kProcess);
      out_.IntField(field::kPid, static_cast<int32_t>(spec.process->first));
      if (!spec.process->second.empty()) out_.BytesField(field::kProcessName, spec.process->second);
      out_.EndMessage(p);
    }
    if (spec.thread) {
      const size_t t = out_.BeginMessage(field::kThread);
      out_.IntField(field::kPid, static_cast<int32_t>(std::get<0>(*spec.thread)));
      out_.IntField(field::kTid, static_cast<int32_t>(std::get<1>(*spec.thread)));
      if (!std::get<2>(*spec.thread).empty()) out_.BytesField(field::kThreadName, std::get<2>(*spec.thread));
      out_.EndMessage(t);
    }
    if (spec.parent_uuid != 0) out_.VarintField(field::kParentUuid, spec.parent_uuid);
    if (spec.counter_unit) {
      const size_t c = out_.BeginMessage(field::kCounter);
      out_.BytesField(field::kUnitName, *spec.counter_unit);
      out_.EndMessage(c);
    }
    if (spec.explicit_child_order) out_.VarintField(field::kChildOrdering, kChildOrderingExplicit);
    if (spec.sibling_rank) out_.IntField(field::kSiblingOrderRank, *spec.sibling_rank);
    if (spec.no_sibling_merge) out_.VarintField(field::kSiblingMergeBehavior, kSiblingMergeNone);
    out_.EndMessage(desc);
    ClosePacket(packet);
    ++tracks_;
  }

  // Opens a packet with a TrackEvent that uses interned names. `new_name` is non-empty when `name_iid` is used for
  // the first time: its definition then travels in this same packet. Add args/flows, then call FinishEvent().
  void BeginEvent(EventType type, uint64_t track, engine::Ns ts, uint64_t name_iid, std::string_view new_name,
                  Category category) {
    packet_ = out_.BeginMessage(field::kTracePacket);
    if (!new_name.empty()) {
      const size_t interned = out_.BeginMessage(field::kInternedData);
      Interned(field::kEventNames, name_iid, new_name);
      out_.EndMessage(interned);
      ++interned_names_;
    }
    out_.VarintField(field::kTimestamp, static_cast<uint64_t>(ts + clock_offset_ns_));
    out_.VarintField(field::kSequenceId, sequence_id_);
    out_.VarintField(field::kSequenceFlags, kSeqNeedsIncrementalState);
    event_ = out_.BeginMessage(field::kTrackEvent);
    out_.VarintField(field::kType, static_cast<uint64_t>(type));
    out_.VarintField(field::kTrackUuid, track);
    out_.VarintField(field::kNameIid, name_iid);
    out_.VarintField(field::kCategoryIids, static_cast<uint64_t>(category));
  }
  void ArgUint(Arg name, uint64_t v) {
    const size_t a = BeginArg(name);
    out_.VarintField(field::kArgUint, v);
    out_.EndMessage(a);
  }
  void ArgInt(Arg name, int64_t v) {
    const size_t a = BeginArg(name);
    out_.IntField(field::kArgInt, v);
    out_.EndMessage(a);
  }
  void ArgDouble(Arg name, double v) {
    const size_t a = BeginArg(name);
    out_.DoubleField(field::kArgDouble, v);
    out_.EndMessage(a);
  }
  void ArgString(Arg name, std::string_view v) {
    const size_t a = BeginArg(name);
    out_.BytesField(field::kArgString, v);
    out_.EndMessage(a);
  }
  void FlowId(uint64_t id) { out_.Fixed64Field(field::kFlowIds, id); }
  void TerminatingFlowId(uint64_t id) { out_.Fixed64Field(field::kTerminatingFlowIds, id); }
  void FinishEvent() {
    out_.EndMessage(event_);
    ClosePacket(packet_);
  }

  void GpuRenderStage(const KernelStage& k) {
    const size_t packet = out_.BeginMessage(field::kTracePacket);
    if (k.new_context || !k.new_queue.empty() || k.first_stage) {
      const size_t interned = out_.BeginMessage(field::kInternedData);
      if (k.new_context) {
        const size_t c = out_.BeginMessage(field::kGraphicsContexts);
        out_.VarintField(field::kInternedIid, k.context_iid);
        out_.IntField(field::kContextPid, static_cast<int32_t>(*k.new_context));
        out_.VarintField(field::kContextApi, kGraphicsApiCuda);
        out_.EndMessage(c);
      }
      if (k.first_stage) Specification(kComputeKernelStageIid, "CUDA kernel", "a kernel launch", kRenderStageCompute);
      if (!k.new_queue.empty()) Specification(k.queue_iid, k.new_queue, "a CUDA stream", std::nullopt);
      out_.EndMessage(interned);
    }
    out_.VarintField(field::kTimestamp, static_cast<uint64_t>(k.start + clock_offset_ns_));
    out_.VarintField(field::kSequenceId, sequence_id_);
    out_.VarintField(field::kSequenceFlags, kSeqNeedsIncrementalState);
    const size_t event = out_.BeginMessage(field::kGpuRenderStageEvent);
    out_.VarintField(field::kStageEventId, k.event_id);
    out_.VarintField(field::kStageDuration, static_cast<uint64_t>(k.duration));
    out_.VarintField(field::kStageContext, k.context_iid);
    out_.IntField(field::kStageGpuId, k.gpu_id);
    out_.VarintField(field::kStageHwQueueIid, k.queue_iid);
    out_.VarintField(field::kStageStageIid, kComputeKernelStageIid);
    out_.VarintField(field::kStageNameIid, k.name_iid);
    const size_t launch = out_.BeginMessage(field::kStageLaunch);
    Dim3(field::kLaunchGrid, k.grid);
    Dim3(field::kLaunchWorkgroup, k.block);
    ComputeArg("registers_per_thread", k.registers_per_thread);
    if (k.static_shared != 0) ComputeArg("shared_mem_static", k.static_shared);  // none: left out, as CUPTI's 0
    if (k.dynamic_shared != 0) ComputeArg("shared_mem_dynamic", k.dynamic_shared);
    out_.EndMessage(launch);
    out_.EndMessage(event);
    ClosePacket(packet);
  }

  void EndSlice(uint64_t track, engine::Ns ts) {
    const size_t packet = out_.BeginMessage(field::kTracePacket);
    out_.VarintField(field::kTimestamp, static_cast<uint64_t>(ts + clock_offset_ns_));
    out_.VarintField(field::kSequenceId, sequence_id_);
    const size_t event = out_.BeginMessage(field::kTrackEvent);
    out_.VarintField(field::kType, static_cast<uint64_t>(EventType::kSliceEnd));
    out_.VarintField(field::kTrackUuid, track);
    out_.EndMessage(event);
    ClosePacket(packet);
  }

  void Counter(uint64_t track, engine::Ns ts, double value) {
    const size_t packet = out_.BeginMessage(field::kTracePacket);
    out_.VarintField(field::kTimestamp, static_cast<uint64_t>(ts + clock_offset_ns_));
    out_.VarintField(field::kSequenceId, sequence_id_);
    const size_t event = out_.BeginMessage(field::kTrackEvent);
    out_.VarintField(field::kType, static_cast<uint64_t>(EventType::kCounter));
    out_.VarintField(field::kTrackUuid, track);
    out_.DoubleField(field::kDoubleCounterValue, value);
    out_.EndMessage(event);
    ClosePacket(packet);
  }

  // Delivers what is buffered. After a sink error nothing more is delivered and Finish() returns the error.
  void Flush() {
    if (out_.size() == 0 || !status_.ok()) {
      out_.Clear();
      return;
    }
    bytes_ += static_cast<int64_t>(out_.size());
    if (pipeline_) return pipeline_->Submit(out_);
    const std::string_view chunk = out_.view();
    sha_.Update(chunk);
    status_ = sink_(chunk);
    out_.Clear();
  }
  // Cheap: false once the sink has failed.
  bool ok() const { return status_.ok() && (!pipeline_ || pipeline_->ok()); }
  // Delivers the rest and waits for it; the first sink error, if any. Call once, before Sha256Hex().
  Status Finish() {
    Flush();
    if (pipeline_ && status_.ok()) status_ = pipeline_->Finish();
    return status_;
  }

  int64_t bytes() const { return bytes_; }
  int64_t packets() const { return packets_; }
  int64_t tracks() const { return tracks_; }
  int64_t interned_names() const { return interned_names_; }
  std::string Sha256Hex() { return sha_.FinishHex(); }

 private:
  void Specification(uint64_t iid, std::string_view name, std::string_view description,
                     std::optional<uint64_t> category) {
    const size_t s = out_.BeginMessage(field::kGpuSpecifications);
    out_.VarintField(field::kInternedIid, iid);
    out_.BytesField(field::kInternedName, name);
    out_.BytesField(field::kSpecDescription, description);
    if (category) out_.VarintField(field::kSpecCategory, *category);
    out_.EndMessage(s);
  }
  void Dim3(uint32_t at, const uint32_t (&v)[3]) {
    const size_t d = out_.BeginMessage(at);
    for (uint32_t i = 0; i < 3; ++i) out_.VarintField(i + 1, v[i]);
    out_.EndMessage(d);
  }
  void ComputeArg(std::string_view name, int64_t v) {
    const size_t a = out_.BeginMessage(field::kLaunchArgs);
    out_.BytesField(field::kComputeArgName, name);
    out_.IntField(field::kComputeArgInt, v);
    out_.EndMessage(a);
  }
  void Interned(uint32_t list_field, uint64_t iid, std::string_view name) {
    const size_t entry = out_.BeginMessage(list_field);
    out_.VarintField(field::kInternedIid, iid);
    out_.BytesField(field::kInternedName, name);
    out_.EndMessage(entry);
  }
  size_t BeginArg(Arg name) {
    const size_t a = out_.BeginMessage(field::kDebugAnnotations);
    out_.VarintField(field::kArgNameIid, static_cast<uint64_t>(name));
    return a;
  }
  void ClosePacket(size_t packet) {
    out_.EndMessage(packet);
    ++packets_;
    if (out_.size() >= chunk_bytes_) Flush();
  }

  const ChunkSink& sink_;
  size_t chunk_bytes_;
  uint32_t sequence_id_;
  engine::Ns clock_offset_ns_;
  ProtoEncoder out_;
  support::Sha256 sha_;
  Status status_;
  std::unique_ptr<ChunkPipeline> pipeline_;  // last: its thread stops before the members it uses go
  size_t packet_ = 0;
  size_t event_ = 0;
  int64_t bytes_ = 0;
  int64_t packets_ = 0;
  int64_t tracks_ = 0;
  int64_t interned_names_ = 0;
};

}  // namespace nsys::trace::internal
