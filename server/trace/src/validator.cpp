#include "nsys/trace/validator.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "nsys/trace/protobuf.h"
#include "packet_writer.h"

namespace nsys::trace {
namespace {

namespace f = internal::field;

// Reads a varint at data[pos]; 0 = incomplete, -1 = malformed (over 10 bytes), else the new position.
int64_t ReadVarint(std::string_view data, size_t pos, uint64_t& out) {
  out = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos + i >= data.size()) return 0;
    const auto b = static_cast<uint8_t>(data[pos + i]);
    out |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) return static_cast<int64_t>(pos + i + 1);
  }
  return -1;
}

}  // namespace

std::string ValidationReport::Summary() const {
  if (ok()) {
    return fmt::format(
        "ok: {} packets, {} tracks, {} slices, {} instants, {} counter values, {} flows, {} interned names, "
        "max depth {}, {} GPU render stages",
        packets, tracks, slices, instants, counter_values, flows, interned_names, max_depth, gpu_stages);
  }
  std::string s = fmt::format("{} error(s) in {} packets:", error_count, packets);
  for (const auto& e : errors) s += "\n  " + e;
  return s;
}

void TraceValidator::Error(const std::string& message) {
  ++report_.error_count;
  if (report_.errors.size() < max_errors_)
    report_.errors.push_back(fmt::format("packet {}: {}", report_.packets, message));
}

void TraceValidator::Feed(std::string_view bytes) {
  report_.bytes += static_cast<int64_t>(bytes.size());
  std::string carry;
  std::string_view data = bytes;
  if (!pending_.empty()) {
    carry = std::move(pending_);
    carry.append(bytes);
    data = carry;
  }
  pending_.clear();
  size_t pos = 0;
  while (pos < data.size()) {
    uint64_t key = 0, len = 0;
    const int64_t after_key = ReadVarint(data, pos, key);
    if (after_key == 0) break;
    if (after_key < 0 || key != ((f::kTracePacket << 3) | 2)) {
      Error(fmt::format("a top-level record that is not Trace.packet (key {:#x}) at byte {}; stopping", key,
                        report_.bytes - static_cast<int64_t>(data.size() - pos)));
      pos = data.size();
      broken_ = true;
      break;
    }
    const int64_t after_len = ReadVarint(data, static_cast<size_t>(after_key), len);
    if (after_len == 0) break;
    if (after_len < 0) {
      Error("a malformed packet length; stopping");
      pos = data.size();
      broken_ = true;
      break;
    }
    if (data.size() - static_cast<size_t>(after_len) < len) break;
    Packet(data.substr(static_cast<size_t>(after_len), len));
    ++report_.packets;
    pos = static_cast<size_t>(after_len) + len;
  }
  if (!broken_) pending_.assign(data.substr(pos));
}

void TraceValidator::Packet(std::string_view packet) {
  ProtoDecoder d(packet);
  ProtoField field;
  bool has_ts = false, has_seq = false;
  int64_t ts = 0;
  uint32_t seq_id = 0, flags = 0;
  std::string_view event, descriptor, interned, stage;
  bool has_event = false, has_descriptor = false, has_interned = false, has_stage = false;
  while (d.Next(field)) {
    switch (field.number) {
      case f::kTimestamp:
        has_ts = true;
        ts = static_cast<int64_t>(field.value);
        break;
      case f::kSequenceId:
        has_seq = true;
        seq_id = static_cast<uint32_t>(field.value);
        break;
      case f::kSequenceFlags:
        flags = static_cast<uint32_t>(field.value);
        break;
      case f::kFirstPacketOnSequence:
        break;
      case f::kTrackEvent:
        has_event = true;
        event = field.bytes;
        break;
      case f::kTrackDescriptor:
        has_descriptor = true;
        descriptor = field.bytes;
        break;
      case f::kInternedData:
        has_interned = true;
        interned = field.bytes;
        break;
      case f::kGpuRenderStageEvent:
        has_stage = true;
        stage = field.bytes;
        break;
      default:
        Error(fmt::format("unexpected TracePacket field {}", field.number));
    }
  }
  if (d.error() != nullptr) return Error(fmt::format("malformed TracePacket: {}", d.error()));
  if (!has_seq || seq_id == 0) Error("no non-zero trusted_packet_sequence_id");
  if (has_event + has_descriptor + has_stage > 1) Error("more than one of track_event, track_descriptor, render stage");
  Sequence& seq = sequences_[seq_id];
  if (flags & internal::kSeqIncrementalStateCleared) {
    seq = Sequence{};
    seq.cleared = true;
  }
  if (has_interned) {
    if (!seq.cleared) Error("interned data before the sequence's incremental state was cleared");
    if (!(flags & (internal::kSeqNeedsIncrementalState | internal::kSeqIncrementalStateCleared))) {
      Error("interned data without SEQ_NEEDS_INCREMENTAL_STATE");
    }
    Interned(interned, seq);
  }
  if (has_descriptor) Descriptor(descriptor);
  if (has_event) Event(event, has_ts, ts, flags, &seq);
  if (has_stage) RenderStage(stage, has_ts, flags, seq);
}

void TraceValidator::RenderStage(std::string_view bytes, bool has_ts, uint32_t flags, const Sequence& seq) {
  ProtoDecoder d(bytes);
  ProtoField field;
  uint64_t id = 0, queue = 0, stage = 0, context = 0;
  bool has_duration = false, has_name = false;
  while (d.Next(field)) {
    switch (field.number) {
      case f::kStageEventId:
        id = field.value;
        break;
      case f::kStageDuration:
        has_duration = true;
        break;
      case f::kStageHwQueueIid:
        queue = field.value;
        break;
      case f::kStageStageIid:
        stage = field.value;
        break;
      case f::kStageContext:
        context = field.value;
        break;
      case f::kStageNameIid:
        has_name = field.value != 0;
        NeedIid(seq.names, field.value, "event name");
        break;
      default:
        break;
    }
  }
  if (d.error() != nullptr) return Error(fmt::format("malformed GpuRenderStageEvent: {}", d.error()));
  ++report_.gpu_stages;
  if (!has_ts) Error("a GPU render stage event without a timestamp");
  if (!(flags & internal::kSeqNeedsIncrementalState))
    Error("a GPU render stage event without SEQ_NEEDS_INCREMENTAL_STATE");
  if (id == 0 || !has_duration || !has_name) Error("a GPU render stage event without an id, a duration or a name");
  NeedIid(seq.gpu_specs, queue, "hardware queue");
  NeedIid(seq.gpu_specs, stage, "render stage");
  NeedIid(seq.contexts, context, "graphics context");
}

void TraceValidator::NeedIid(const std::unordered_set<uint64_t>& set, uint64_t iid, const char* what) {
  if (iid == 0)
    Error(fmt::format("{} iid 0", what));
  else if (!set.count(iid))
    Error(fmt::format("{} iid {} used before it was defined on its sequence", what, iid));
}

void TraceValidator::Interned(std::string_view bytes, Sequence& seq) {
  ProtoDecoder d(bytes);
  ProtoField field;
  while (d.Next(field)) {
    std::unordered_set<uint64_t>* set = nullptr;
    switch (field.number) {
      case f::kEventCategories:
        set = &seq.categories;
        break;
      case f::kEventNames:
        set = &seq.names;
        break;
      case f::kDebugAnnotationNames:
        set = &seq.arg_names;
        break;
      case f::kGpuSpecifications:
        set = &seq.gpu_specs;
        break;
      case f::kGraphicsContexts:
        set = &seq.contexts;
        break;
      default:
        Error(fmt::format("unexpected InternedData field {}", field.number));
        continue;
    }
    ProtoDecoder entry(field.bytes);
    ProtoField e;
    uint64_t iid = 0;
    bool has_name = false;
    while (entry.Next(e)) {
      if (e.number == f::kInternedIid)
        iid = e.value;
      else if (e.number == f::kInternedName)
        has_name = true;
    }
    if (iid == 0) Error("an interned entry with iid 0 or none");
    // A graphics context has no name: its field 2 is its pid.
    if (!has_name) Error(fmt::format("interned iid {} has no name", iid));
    if (!set->insert(iid).second) Error(fmt::format("interned iid {} defined twice on its sequence", iid));
    if (field.number == f::kEventNames) ++report_.interned_names;
  }
  if (d.error() != nullptr) Error(fmt::format("malformed InternedData: {}", d.error()));
}

void TraceValidator::Descriptor(std::string_view bytes) {
  ProtoDecoder d(bytes);
  ProtoField field;
  uint64_t uuid = 0, parent = 0;
  bool counter = false;
  while (d.Next(field)) {
    if (field.number == f::kUuid)
      uuid = field.value;
    else if (field.number == f::kParentUuid)
      parent = field.value;
    else if (field.number == f::kCounter)
      counter = true;
  }
  if (d.error() != nullptr) return Error(fmt::format("malformed TrackDescriptor: {}", d.error()));
  if (uuid == 0) return Error("a track descriptor without a non-zero uuid");
  if (parent == uuid) Error(fmt::format("track {} is its own parent", uuid));
  auto [it, inserted] = tracks_.emplace(uuid, Track{});
  if (!inserted) return Error(fmt::format("track uuid {} declared twice", uuid));
  it->second.counter = counter;
  it->second.parent = parent;
  ++report_.tracks;
}

void TraceValidator::DebugAnnotation(std::string_view bytes, const Sequence& seq, EventFields& event) {
  ProtoDecoder a(bytes);
  ProtoField af;
  bool has_arg_value = false;
  while (a.Next(af)) {
    if (af.number == f::kArgNameIid) {
      event.uses_iids = true;
      NeedIid(seq.arg_names, af.value, "debug annotation name");
    } else if (af.number >= 2 && af.number <= 6) {
      has_arg_value = true;
    }
  }
  if (a.error() != nullptr) Error(fmt::format("malformed DebugAnnotation: {}", a.error()));
  if (!has_arg_value) Error("a debug annotation without a value");
}

bool TraceValidator::DecodeEvent(std::string_view bytes, const Sequence& seq, EventFields& event) {
  ProtoDecoder d(bytes);
  ProtoField field;
  auto need_iid = [&](const std::unordered_set<uint64_t>& set, uint64_t iid, const char* what) {
    event.uses_iids = true;
    NeedIid(set, iid, what);
  };
  while (d.Next(field)) {
    switch (field.number) {
      case f::kType:
        event.type = field.value;
        break;
      case f::kTrackUuid:
        event.track_uuid = field.value;
        break;
      case f::kNameIid:
        need_iid(seq.names, field.value, "event name");
        break;
      case f::kCategoryIids:
        need_iid(seq.categories, field.value, "category");
        break;
      case f::kDoubleCounterValue:
      case 30:  // counter_value (int64)
        event.has_value = true;
        break;
      case f::kFlowIds:
      case f::kTerminatingFlowIds:
        if (field.type != WireType::kFixed64) {
          Error(fmt::format("field {} must be fixed64", field.number));
          break;
        }
        (field.number == f::kFlowIds ? event.begun : event.terminated).push_back(field.value);
        break;
      case f::kDebugAnnotations:
        DebugAnnotation(field.bytes, seq, event);
        break;
      default:
        Error(fmt::format("unexpected TrackEvent field {}", field.number));
    }
  }
  if (d.error() != nullptr) {
    Error(fmt::format("malformed TrackEvent: {}", d.error()));
    return false;
  }
  return true;
}

void TraceValidator::PlaceEvent(const EventFields& event, int64_t ts) {
  const uint64_t track_uuid = event.track_uuid;
  auto it = tracks_.find(track_uuid);
  if (track_uuid == 0 || it == tracks_.end()) {
    return Error(fmt::format("an event on track {}, which was not declared before it", track_uuid));
  }
  Track& t = it->second;
  if (t.has_events && ts < t.last_ts) {
    Error(fmt::format("track {} goes back in time: {} after {}", track_uuid, ts, t.last_ts));
  }
  t.last_ts = ts;
  t.has_events = true;
  for (uint64_t id : event.begun) {
    if (!flows_begun_.insert(id).second) Error(fmt::format("flow id {} begun twice", id));
  }
  for (uint64_t id : event.terminated) {
    if (!flows_terminated_.insert(id).second) Error(fmt::format("flow id {} terminated twice", id));
  }
  report_.flows += static_cast<int64_t>(event.begun.size());
  switch (event.type) {
    case 1:
      if (t.counter) return Error(fmt::format("a slice on counter track {}", track_uuid));
      t.open.push_back(ts);
      report_.max_depth = std::max(report_.max_depth, static_cast<int>(t.open.size()));
      ++report_.slices;
      break;
    case 2:
      if (t.open.empty()) return Error(fmt::format("SLICE_END with no open slice on track {}", track_uuid));
      t.open.pop_back();
      break;
    case 3:
      if (t.counter) return Error(fmt::format("an instant on counter track {}", track_uuid));
      ++report_.instants;
      break;
    case 4:
      if (!t.counter)
        return Error(fmt::format("a counter value on track {}, which is not a counter track", track_uuid));
      if (!event.has_value) Error("a counter event without a value");
      ++report_.counter_values;
      break;
  }
}

void TraceValidator::Event(std::string_view bytes, bool has_ts, int64_t ts, uint32_t flags, Sequence* seq) {
  EventFields event;
  if (!DecodeEvent(bytes, *seq, event)) return;
  if (event.uses_iids && !(flags & internal::kSeqNeedsIncrementalState)) {
    Error("an event using interned ids without SEQ_NEEDS_INCREMENTAL_STATE");
  }
  if (event.uses_iids && !seq->cleared) Error("an event using interned ids before the sequence's state was cleared");
  if (!has_ts) Error("a track event without a timestamp");
  if (event.type < 1 || event.type > 4)
    return Error(fmt::format("track event type {} is not BEGIN/END/INSTANT/COUNTER", event.type));
  PlaceEvent(event, ts);
}

ValidationReport TraceValidator::Finish() {
  if (!pending_.empty()) {
    Error(fmt::format("the trace is truncated: {} bytes after the last complete packet", pending_.size()));
    pending_.clear();
  }
  for (const auto& [uuid, t] : tracks_) {
    if (t.parent != 0 && !tracks_.count(t.parent)) Error(fmt::format("track {} has unknown parent {}", uuid, t.parent));
    if (!t.open.empty()) Error(fmt::format("track {} ends with {} slice(s) still open", uuid, t.open.size()));
  }
  for (uint64_t id : flows_begun_) {
    if (!flows_terminated_.count(id)) Error(fmt::format("flow {} is never terminated", id));
  }
  for (uint64_t id : flows_terminated_) {
    if (!flows_begun_.count(id)) Error(fmt::format("flow {} is terminated but never begun", id));
  }
  return report_;
}

ValidationReport ValidateTrace(std::string_view trace, size_t max_errors) {
  TraceValidator validator(max_errors);
  validator.Feed(trace);
  return validator.Finish();
}

}  // namespace nsys::trace
