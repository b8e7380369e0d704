#include "trace_tracks.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace nsys::trace::internal {

uint32_t Tracks::NewTrack(TrackSpec spec, bool sequential) {
  const auto index = static_cast<uint32_t>(states_.size());
  spec.uuid = part_.id_base + index + 1;  // small uuids keep every event's track_uuid varint short
  states_.push_back(State{spec.uuid, sequential, {}});
  writer_.Track(spec);
  return index;
}

uint64_t Tracks::GroupUuid() {
  if (part_.label.empty()) return 0;
  if (group_ == kNoTrack) {
    TrackSpec group;
    group.name = part_.label;
    group.explicit_child_order = true;
    group_ = NewTrack(group, false);
  }
  return states_[group_].uuid;
}

std::string Tracks::DeviceName(int32_t device) const {
  for (const auto& d : info_.devices) {
    if (d.id == device && !d.name.empty()) return fmt::format("GPU {} \u00b7 {}", device, d.name);
  }
  return fmt::format("GPU {}", device);
}

std::string Tracks::ProcessName(uint32_t pid) const {
  auto it = std::lower_bound(info_.processes.begin(), info_.processes.end(), pid,
                             [](const engine::Process& p, uint32_t v) { return p.pid < v; });
  return it != info_.processes.end() && it->pid == pid ? it->name : std::string();
}

std::string Tracks::ThreadName(uint32_t pid, uint32_t tid) const {
  auto it = std::lower_bound(
      info_.threads.begin(), info_.threads.end(), std::make_pair(pid, tid),
      [](const engine::Thread& t, const std::pair<uint32_t, uint32_t>& v) { return std::make_pair(t.pid, t.tid) < v; });
  return it != info_.threads.end() && it->pid == pid && it->tid == tid ? it->name : std::string();
}

void Tracks::DeclareGpu(const std::vector<int32_t>& devices, std::vector<StreamKey> streams, bool counters) {
  std::sort(streams.begin(), streams.end());
  std::map<int32_t, std::set<uint32_t>> pids_per_device;
  for (const auto& k : streams) pids_per_device[k.device].insert(k.pid);
  for (int32_t device : devices) {
    TrackSpec root;
    root.name = DeviceName(device);
    root.parent_uuid = GroupUuid();
    root.explicit_child_order = true;
    const uint32_t root_track = NewTrack(root, false);
    const uint64_t root_uuid = states_[root_track].uuid;
    int32_t rank = 0;
    if (counters) {
      TrackSpec util;
      util.parent_uuid = root_uuid;
      util.name = "Kernel utilisation";
      util.counter_unit = "%";
      util.sibling_rank = rank++;
      util.no_sibling_merge = true;
      TrackSpec bandwidth = util;
      bandwidth.name = "Memcpy bandwidth";
      bandwidth.counter_unit = "GB/s";
      bandwidth.sibling_rank = rank++;
      const uint32_t u = NewTrack(util, false);
      const uint32_t b = NewTrack(bandwidth, false);
      counter_tracks_[device] = {u, b};
    }
    const bool several_processes = pids_per_device[device].size() > 1;
    for (const auto& k : streams) {
      if (k.device != device) continue;
      TrackSpec stream;
      stream.parent_uuid = root_uuid;
      stream.name = several_processes ? fmt::format("Stream {} \u00b7 pid {}", k.stream, k.pid)
                                      : fmt::format("Stream {}", k.stream);
      stream.sibling_rank = rank++;
      stream.no_sibling_merge = true;
      stream_tracks_[k] = NewTrack(stream, true);
    }
  }
}

uint32_t Tracks::UtilisationTrack(int32_t device) const {
  auto it = counter_tracks_.find(device);
  return it == counter_tracks_.end() ? kNoTrack : it->second.first;
}

uint32_t Tracks::BandwidthTrack(int32_t device) const {
  auto it = counter_tracks_.find(device);
  return it == counter_tracks_.end() ? kNoTrack : it->second.second;
}

uint32_t Tracks::ProcessTrack(uint32_t pid) {
  auto it = process_tracks_.find(pid);
  if (it != process_tracks_.end()) return it->second;
  TrackSpec spec;
  std::string name = ProcessName(pid);
  if (const uint64_t group = GroupUuid(); group != 0) {
    spec.parent_uuid = group;
    spec.name = name.empty() ? fmt::format("Process {}", pid) : fmt::format("{} (pid {})", name, pid);
    spec.no_sibling_merge = true;
  } else {
    spec.process = std::make_pair(pid, name.empty() ? fmt::format("Process {}", pid) : name);
  }
  const uint32_t track = NewTrack(spec, false);
  process_tracks_.emplace(pid, track);
  return track;
}

uint32_t Tracks::ThreadTrack(uint32_t pid, uint32_t tid) {
  const uint64_t key = (static_cast<uint64_t>(pid) << 32) | tid;
  if (key == last_thread_key_) return last_thread_;
  auto it = thread_tracks_.find(key);
  uint32_t track;
  if (it != thread_tracks_.end()) {
    track = it->second;
  } else {
    const uint32_t process = ProcessTrack(pid);
    TrackSpec spec;
    spec.parent_uuid = states_[process].uuid;
    std::string name = ThreadName(pid, tid);
    if (part_.label.empty()) {
      spec.thread = std::make_tuple(pid, tid, name.empty() ? fmt::format("Thread {}", tid) : name);
    } else {
      spec.name = name.empty() ? fmt::format("Thread {}", tid) : fmt::format("{} (tid {})", name, tid);
      spec.no_sibling_merge = true;
    }
    track = NewTrack(spec, false);
    thread_tracks_.emplace(key, track);
  }
  last_thread_key_ = key;
  last_thread_ = track;
  return track;
}

uint32_t Tracks::NvtxLane(uint32_t pid, engine::Ns start, engine::Ns end) {
  auto& lanes = lanes_[pid];
  for (auto& lane : lanes) {
    if (lane.free_at <= start) {
      lane.free_at = std::max(end, start);
      return lane.track;
    }
  }
  const uint32_t process = ProcessTrack(pid);
  TrackSpec spec;
  spec.parent_uuid = states_[process].uuid;
  spec.name = lanes.empty() ? std::string("NVTX start/end") : fmt::format("NVTX start/end #{}", lanes.size() + 1);
  spec.no_sibling_merge = true;
  const uint32_t track = NewTrack(spec, false);
  lanes.push_back(Lane{track, std::max(end, start)});
  return track;
}

void Tracks::CloseAll() {
  for (auto& t : states_) CloseUntil(t, std::numeric_limits<engine::Ns>::max());
}

}  // namespace nsys::trace::internal
