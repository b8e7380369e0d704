#pragma once
// Internal: the trace's tracks (uuids, descriptors) and the per-track slice stacks that keep slices strictly nested.
//
// Slices are opened in (start asc, end desc) order. A track keeps the ends of its open slices; the END of a slice is
// written when a later event on the same track starts at or after it (or at CloseAll), so each track's events come
// out in time order while the sink sees one stream. Overlaps that cannot nest are clipped and counted:
//  - GPU stream tracks are sequential (a stream runs one operation at a time), so an overlap is clock skew: the
//    running slice ends where the next one starts.
//  - Other tracks nest: a slice that starts inside another but outlives it is clipped to its parent's end.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nsys/engine/model.h"
#include "nsys/trace/trace_writer.h"
#include "packet_writer.h"

namespace nsys::trace::internal {

struct StreamKey {
  int32_t device = 0;
  uint32_t pid = 0;
  int32_t stream = 0;
  bool operator==(const StreamKey&) const = default;
  bool operator<(const StreamKey& o) const {
    if (device != o.device) return device < o.device;
    if (pid != o.pid) return pid < o.pid;
    return stream < o.stream;
  }
};

struct StreamKeyHash {
  size_t operator()(const StreamKey& k) const {
    uint64_t h = static_cast<uint32_t>(k.device);
    h = h * 0x9E3779B97F4A7C15ull ^ k.pid;
    h = h * 0x9E3779B97F4A7C15ull ^ static_cast<uint32_t>(k.stream);
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

class Tracks {
 public:
  // A part with a label (a rank of a job's trace) puts every track under one top-level track of that name, its
  // processes and threads as named tracks rather than process and thread descriptors (ranks share pids).
  Tracks(PacketWriter& writer, const engine::ProfileInfo& info, const TracePart& part = {})
      : writer_(writer), info_(info), part_(part) {}

  // Declares every GPU track up front, in display order: per device (ascending) a root, its counters, and one
  // track per (pid, stream) that has work. `devices` lists the devices with any traced GPU work.
  void DeclareGpu(const std::vector<int32_t>& devices, std::vector<StreamKey> streams, bool counters);

  // Index of a declared stream track.
  uint32_t StreamTrack(const StreamKey& key) {
    if (!(key == last_stream_key_) || last_stream_ == kNoTrack) {
      last_stream_key_ = key;
      last_stream_ = stream_tracks_.at(key);
    }
    return last_stream_;
  }
  uint32_t ThreadTrack(uint32_t pid, uint32_t tid);                   // created (with its process) on first use
  uint32_t NvtxLane(uint32_t pid, engine::Ns start, engine::Ns end);  // a lane free at `start`
  uint32_t UtilisationTrack(int32_t device) const;                    // kNoTrack when absent
  uint32_t BandwidthTrack(int32_t device) const;

  uint64_t uuid(uint32_t track) const { return states_[track].uuid; }

  // Opens a slice: writes the ENDs that precede `start`, resolves overlap, and returns the end to use.
  engine::Ns Open(uint32_t track, engine::Ns start, engine::Ns end) {
    State& t = states_[track];
    CloseUntil(t, start);
    if (!t.open.empty()) {
      if (t.sequential) {
        writer_.EndSlice(t.uuid, start);
        t.open.pop_back();
        ++clamped_;
        ++clamped_gpu_;
      } else if (end > t.open.back()) {
        end = t.open.back();
        ++clamped_;
      }
    }
    t.open.push_back(end);
    return end;
  }
  // Writes the ENDs of slices that end at or before `ts` (before an instant at `ts`).
  void Advance(uint32_t track, engine::Ns ts) { CloseUntil(states_[track], ts); }
  void CloseAll();

  int64_t clamped() const { return clamped_; }
  int64_t clamped_gpu() const { return clamped_gpu_; }

  static constexpr uint32_t kNoTrack = 0xFFFFFFFFu;

 private:
  struct State {
    uint64_t uuid = 0;
    bool sequential = false;
    std::vector<engine::Ns> open;  // ends of the open slices, innermost last
  };
  struct Lane {
    uint32_t track = 0;
    engine::Ns free_at = 0;
  };

  void CloseUntil(State& t, engine::Ns ts) {
    while (!t.open.empty() && t.open.back() <= ts) {
      writer_.EndSlice(t.uuid, t.open.back());
      t.open.pop_back();
    }
  }
  uint32_t NewTrack(TrackSpec spec, bool sequential);
  uint32_t ProcessTrack(uint32_t pid);
  uint64_t GroupUuid();  // the part's top-level track (declared on first use); 0 without a label
  std::string DeviceName(int32_t device) const;
  std::string ProcessName(uint32_t pid) const;
  std::string ThreadName(uint32_t pid, uint32_t tid) const;

  PacketWriter& writer_;
  const engine::ProfileInfo& info_;
  const TracePart& part_;
  uint32_t group_ = kNoTrack;
  std::vector<State> states_;
  std::unordered_map<StreamKey, uint32_t, StreamKeyHash> stream_tracks_;
  std::unordered_map<int32_t, std::pair<uint32_t, uint32_t>> counter_tracks_;  // device -> utilisation, bandwidth
  std::unordered_map<uint32_t, uint32_t> process_tracks_;
  std::unordered_map<uint64_t, uint32_t> thread_tracks_;
  std::unordered_map<uint32_t, std::vector<Lane>> lanes_;
  StreamKey last_stream_key_;
  uint32_t last_stream_ = kNoTrack;
  uint64_t last_thread_key_ = ~uint64_t{0};
  uint32_t last_thread_ = kNoTrack;
  int64_t clamped_ = 0;
  int64_t clamped_gpu_ = 0;
};

}  // namespace nsys::trace::internal
