#include "common_host_sync.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "nsys/skills/stats.h"

namespace nsys::skills::builtin {
namespace {

struct SyncCall {
  std::string_view name;
  HostSync kind;
};

// NVIDIA's synchronizing calls (CUDA Runtime API: Device Management, Stream Management, Event Management and the
// deprecated Thread Management; CUDA Driver API: Context, Stream and Event Management). The blocking copies and
// memsets are not here: they are copies first (memory_transfers, sync_memcpy).
constexpr std::array<SyncCall, 7> kSyncCalls = {{
    {"cudaDeviceSynchronize", HostSync::kContext},
    {"cudaThreadSynchronize", HostSync::kContext},  // deprecated since CUDA 4.0; same behaviour
    {"cuCtxSynchronize", HostSync::kContext},
    {"cudaStreamSynchronize", HostSync::kStream},
    {"cuStreamSynchronize", HostSync::kStream},
    {"cudaEventSynchronize", HostSync::kEvent},
    {"cuEventSynchronize", HostSync::kEvent},
}};

// CUpti_ActivitySynchronizationType (ENUM_CUPTI_SYNC_TYPE in the export).
constexpr int32_t kSyncTypeEvent = 1, kSyncTypeStreamWaitEvent = 2, kSyncTypeStream = 3, kSyncTypeContext = 4;

// Correlation ids up to this many are filtered by a bit set (32 MiB at most) before the hash lookup.
constexpr uint32_t kMaxIdBits = 1u << 28;

uint64_t Key(uint32_t pid, uint32_t correlation_id) {
  return (static_cast<uint64_t>(pid) << 32) | correlation_id;
}

}  // namespace

std::string_view HostSyncName(HostSync kind) {
  switch (kind) {
    case HostSync::kContext:
      return "context";
    case HostSync::kStream:
      return "stream";
    case HostSync::kEvent:
      return "event";
    case HostSync::kOther:
      return "other";
    case HostSync::kNone:
      break;
  }
  return "";
}

HostSync HostSyncOfType(int32_t sync_type) {
  switch (sync_type) {
    case kSyncTypeEvent:
      return HostSync::kEvent;
    case kSyncTypeStream:
      return HostSync::kStream;
    case kSyncTypeContext:
      return HostSync::kContext;
    case kSyncTypeStreamWaitEvent:
      return HostSync::kNone;
    default:
      return HostSync::kOther;
  }
}

HostSync HostSyncOfName(std::string_view api_name) {
  const std::string_view base = StripApiVersionSuffix(api_name);
  for (const SyncCall& c : kSyncCalls) {
    if (base.size() < c.name.size() || base.compare(0, c.name.size(), c.name) != 0) continue;
    const std::string_view rest = base.substr(c.name.size());
    if (rest.empty() || rest == "_ptsz" || rest == "_ptds" || rest == "_v2") return c.kind;
  }
  return HostSync::kNone;
}

HostSyncCalls::HostSyncCalls(const engine::RuntimeTable& runtime, const engine::SyncTable* syncs,
                             const engine::StringPool& strings)
    : runtime_(runtime), strings_(strings), by_name_(strings.size(), 0) {
  if (syncs == nullptr) return;
  recorded_.reserve(syncs->size());
  uint32_t max_id = 0;
  for (size_t i = 0; i < syncs->size(); ++i) {
    recorded_.emplace(Key(syncs->pid[i], syncs->correlation_id[i]), syncs->sync_type[i]);
    max_id = std::max(max_id, syncs->correlation_id[i]);
  }
  if (!recorded_.empty() && max_id < kMaxIdBits) {
    recorded_ids_.assign(static_cast<size_t>(max_id) + 1, false);
    for (size_t i = 0; i < syncs->size(); ++i) recorded_ids_[syncs->correlation_id[i]] = true;
  }
}

HostSync HostSyncCalls::Of(size_t row) {
  const engine::StrId name = runtime_.name[row];
  if (name >= by_name_.size()) by_name_.resize(static_cast<size_t>(name) + 1, 0);
  uint8_t& slot = by_name_[name];
  if (slot == 0) slot = static_cast<uint8_t>(HostSyncOfName(strings_.view(name))) + 1;
  const auto by_name = static_cast<HostSync>(slot - 1);
  if (recorded_.empty()) return by_name;
  const uint32_t id = runtime_.correlation_id[row];
  if (!recorded_ids_.empty() && (id >= recorded_ids_.size() || !recorded_ids_[id])) return by_name;
  const auto it = recorded_.find(Key(runtime_.pid[row], runtime_.correlation_id[row]));
  if (it == recorded_.end()) return by_name;
  const HostSync by_type = HostSyncOfType(it->second);
  if (by_type != HostSync::kOther) return by_type;
  return by_name != HostSync::kNone ? by_name : HostSync::kOther;
}

}  // namespace nsys::skills::builtin
