#pragma once
// Which CUDA API calls block the host until GPU work completes, and what they wait for: read from what the export
// classifies (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, whose records nsys correlates to the call that waited, with
// CUpti_ActivitySynchronizationType as syncType), and, for calls without such a record, from NVIDIA's complete list
// of synchronizing runtime and driver calls, deprecated names included. Shared by cuda_api_summary (its sync_kind
// column, which the Book's sync rules read), time_budget and thread_utilization.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/engine/model.h"

namespace nsys::skills::builtin {

// What a synchronizing call waits for. kOther: nsys recorded a synchronization for the call but neither its
// syncType nor its name says which kind.
enum class HostSync : uint8_t { kNone = 0, kContext, kStream, kEvent, kOther };

// "context", "stream", "event", "other"; "" for kNone. The words of cuda_api_summary's sync_kind column.
std::string_view HostSyncName(HostSync kind);

// By CUPTI's syncType (ENUM_CUPTI_SYNC_TYPE): 1 event, 3 stream, 4 context. 2 (stream wait event) is kNone: the
// GPU stream waits, the host does not. 0 (unknown) and values this build does not know are kOther.
HostSync HostSyncOfType(int32_t sync_type);

// By the call's name, with or without nsys's "_vNNNN" suffix and the per-thread-stream "_ptsz"/"_ptds" forms: the
// runtime's cudaDeviceSynchronize, cudaThreadSynchronize (its deprecated name), cudaStreamSynchronize and
// cudaEventSynchronize, and the driver's cuCtxSynchronize, cuStreamSynchronize and cuEventSynchronize.
HostSync HostSyncOfName(std::string_view api_name);

// Every runtime row's kind: a CUPTI synchronization record correlated to the call (same process and correlation id)
// decides when its syncType is known; a record of unknown type, or no record, leaves it to the name (a recorded
// call with an unknown name is kOther).
class HostSyncCalls {
 public:
  HostSyncCalls(const engine::RuntimeTable& runtime, const engine::SyncTable* syncs, const engine::StringPool& strings);
  HostSync Of(size_t runtime_row);
  bool from_records() const { return !recorded_.empty(); }  // whether the export recorded any synchronization

 private:
  const engine::RuntimeTable& runtime_;
  const engine::StringPool& strings_;
  std::unordered_map<uint64_t, int32_t> recorded_;  // (pid << 32 | correlation id) -> syncType
  std::vector<bool> recorded_ids_;  // correlation ids that have a record in some process: most rows stop here
  std::vector<uint8_t> by_name_;    // StrId -> HostSync + 1; 0 = not classified yet
};

}  // namespace nsys::skills::builtin
