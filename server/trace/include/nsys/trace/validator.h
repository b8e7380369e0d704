#pragma once
// A semantic validator for the traces nsys-ai writes: what Perfetto needs beyond "it parses".
//  - every record is Trace.packet; every packet has a non-zero trusted_packet_sequence_id
//  - track uuids are non-zero, unique, declared before their first event, and every parent_uuid resolves
//  - per track, events never go back in time, every SLICE_END closes an open SLICE_BEGIN and nothing stays open,
//    so slices nest strictly; counter values only on counter tracks, slices never on them
//  - interned ids are non-zero and defined on their sequence (after its last incremental-state clear) before use,
//    and packets that use them carry SEQ_NEEDS_INCREMENTAL_STATE
//  - flows connect: every id in flow_ids is terminated by a terminating_flow_ids, and the other way round
//  - a GPU render stage event (a kernel as Perfetto's GPU tools read it) has a timestamp, an id, a duration and a
//    name, and its hardware queue, render stage and graphics context are interned on its sequence before it
// Feed() takes the bytes in any split, so a streamed trace can be checked chunk by chunk.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nsys::trace {

struct ValidationReport {
  std::vector<std::string> errors;  // the first ones, each naming the packet index
  int64_t error_count = 0;
  int64_t bytes = 0;
  int64_t packets = 0;
  int64_t tracks = 0;
  int64_t slices = 0;  // SLICE_BEGIN events
  int64_t instants = 0;
  int64_t counter_values = 0;
  int64_t flows = 0;  // flow ids begun
  int64_t interned_names = 0;
  int64_t gpu_stages = 0;  // GpuRenderStageEvents
  int max_depth = 0;
  bool ok() const { return error_count == 0; }
  std::string Summary() const;  // "ok: 1234 packets, 56 tracks, ..." or the first errors
};

class TraceValidator {
 public:
  explicit TraceValidator(size_t max_errors = 50) : max_errors_(max_errors) {}
  void Feed(std::string_view bytes);
  ValidationReport Finish();

 private:
  struct Sequence {
    bool cleared = false;
    std::unordered_set<uint64_t> names, categories, arg_names;
    std::unordered_set<uint64_t> gpu_specs, contexts;  // render stages and hardware queues; graphics contexts
  };
  struct Track {
    bool counter = false;
    uint64_t parent = 0;
    int64_t last_ts = 0;
    bool has_events = false;
    std::vector<int64_t> open;  // BEGIN timestamps
  };

  void Packet(std::string_view packet);
  void Descriptor(std::string_view bytes);
  void Interned(std::string_view bytes, Sequence& seq);
  void RenderStage(std::string_view bytes, bool has_ts, uint32_t flags, const Sequence& seq);
  // An interned id used: non-zero and defined on its sequence (`set`), else an error naming `what` it is.
  void NeedIid(const std::unordered_set<uint64_t>& set, uint64_t iid, const char* what);
  // A TrackEvent's fields that the checks need (Event's steps: DecodeEvent reads them, checking interned ids
  // against the sequence; PlaceEvent checks the event against its track and flows).
  struct EventFields {
    uint64_t type = 0;
    uint64_t track_uuid = 0;
    bool uses_iids = false;
    bool has_value = false;
    std::vector<uint64_t> begun, terminated;  // flow ids
  };
  void Event(std::string_view bytes, bool has_ts, int64_t ts, uint32_t flags, Sequence* seq);
  bool DecodeEvent(std::string_view bytes, const Sequence& seq, EventFields& event);  // false: malformed
  void DebugAnnotation(std::string_view bytes, const Sequence& seq, EventFields& event);
  void PlaceEvent(const EventFields& event, int64_t ts);
  void Error(const std::string& message);

  size_t max_errors_;
  ValidationReport report_;
  std::string pending_;  // an incomplete record carried over between Feed() calls
  bool broken_ = false;  // a record could not be framed: the rest of the stream is unreadable
  std::unordered_map<uint64_t, Track> tracks_;
  std::unordered_map<uint32_t, Sequence> sequences_;
  std::unordered_set<uint64_t> flows_begun_;
  std::unordered_set<uint64_t> flows_terminated_;
};

ValidationReport ValidateTrace(std::string_view trace, size_t max_errors = 50);

}  // namespace nsys::trace
