// The synchronizing-call classifier (skills/builtin/common_host_sync.h): NVIDIA's list of synchronizing runtime and
// driver calls, deprecated names and per-thread-stream forms included, and CUPTI's syncType deciding over the name.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../skills/builtin/common_host_sync.h"
#include "nsys/engine/model.h"

namespace nsys::skills::builtin {
namespace {

TEST(HostSync, NamesFromNvidiasListWithTheirSuffixes) {
  EXPECT_EQ(HostSyncOfName("cudaDeviceSynchronize"), HostSync::kContext);
  EXPECT_EQ(HostSyncOfName("cudaDeviceSynchronize_v3020"), HostSync::kContext);
  EXPECT_EQ(HostSyncOfName("cudaThreadSynchronize_v3020"), HostSync::kContext);  // deprecated name, same wait
  EXPECT_EQ(HostSyncOfName("cuCtxSynchronize"), HostSync::kContext);
  EXPECT_EQ(HostSyncOfName("cudaStreamSynchronize_ptsz"), HostSync::kStream);
  EXPECT_EQ(HostSyncOfName("cuStreamSynchronize"), HostSync::kStream);
  EXPECT_EQ(HostSyncOfName("cudaEventSynchronize_v3020"), HostSync::kEvent);
  EXPECT_EQ(HostSyncOfName("cuEventSynchronize"), HostSync::kEvent);
  // Not synchronizing, or only similar in name.
  EXPECT_EQ(HostSyncOfName("cudaStreamWaitEvent_v3020"), HostSync::kNone);
  EXPECT_EQ(HostSyncOfName("cudaStreamQuery"), HostSync::kNone);
  EXPECT_EQ(HostSyncOfName("cudaLaunchKernel"), HostSync::kNone);
  EXPECT_EQ(HostSyncOfName("cudaDeviceSynchronizeX"), HostSync::kNone);
  EXPECT_EQ(HostSyncOfName("cudaDevice"), HostSync::kNone);
  EXPECT_EQ(HostSyncOfName(""), HostSync::kNone);
  EXPECT_EQ(HostSyncName(HostSync::kContext), "context");
  EXPECT_EQ(HostSyncName(HostSync::kNone), "");
}

TEST(HostSync, CuptiSyncTypes) {
  EXPECT_EQ(HostSyncOfType(1), HostSync::kEvent);
  EXPECT_EQ(HostSyncOfType(2), HostSync::kNone);  // stream wait event: the stream waits, not the host
  EXPECT_EQ(HostSyncOfType(3), HostSync::kStream);
  EXPECT_EQ(HostSyncOfType(4), HostSync::kContext);
  EXPECT_EQ(HostSyncOfType(0), HostSync::kOther);
  EXPECT_EQ(HostSyncOfType(77), HostSync::kOther);
}

// Four calls in two processes, three sync records: the record's known type decides; an unknown type leaves it to
// the name, and to kOther when the name says nothing; a record of another process's call does not count.
TEST(HostSync, RecordsCorrelatedByProcessAndIdDecideOverTheName) {
  engine::StringPool strings;
  const engine::StrId dev = strings.intern("cudaDeviceSynchronize_v3020");
  const engine::StrId odd = strings.intern("vendorWaitAll");
  const engine::StrId launch = strings.intern("cudaLaunchKernel");
  engine::RuntimeTable rt;
  auto add = [&](uint32_t pid, engine::StrId name, uint32_t corr) {
    rt.start.push_back(0);
    rt.end.push_back(1);
    rt.pid.push_back(pid);
    rt.tid.push_back(pid);
    rt.name.push_back(name);
    rt.correlation_id.push_back(corr);
    rt.return_value.push_back(0);
    rt.nvtx.push_back(-1);
  };
  add(10, dev, 1);     // record of unknown type: the name says context
  add(10, odd, 2);     // record of unknown type, unknown name: other
  add(10, launch, 3);  // record with stream type: stream, whatever the name
  add(20, launch, 2);  // pid 20's id 2 has no record: not a sync
  add(20, odd, 9);     // no record, unknown name: not a sync
  engine::SyncTable syncs;
  auto rec = [&](uint32_t pid, uint32_t corr, int32_t type) {
    syncs.start.push_back(0);
    syncs.end.push_back(1);
    syncs.device.push_back(0);
    syncs.stream.push_back(7);
    syncs.pid.push_back(pid);
    syncs.correlation_id.push_back(corr);
    syncs.sync_type.push_back(type);
    syncs.launch.push_back(-1);
  };
  rec(10, 1, 0);
  rec(10, 2, 0);
  rec(10, 3, 3);
  HostSyncCalls calls(rt, &syncs, strings);
  EXPECT_TRUE(calls.from_records());
  EXPECT_EQ(calls.Of(0), HostSync::kContext);
  EXPECT_EQ(calls.Of(1), HostSync::kOther);
  EXPECT_EQ(calls.Of(2), HostSync::kStream);
  EXPECT_EQ(calls.Of(3), HostSync::kNone);
  EXPECT_EQ(calls.Of(4), HostSync::kNone);
  HostSyncCalls by_name_only(rt, nullptr, strings);
  EXPECT_FALSE(by_name_only.from_records());
  EXPECT_EQ(by_name_only.Of(0), HostSync::kContext);
  EXPECT_EQ(by_name_only.Of(1), HostSync::kNone);
  EXPECT_EQ(by_name_only.Of(2), HostSync::kNone);
}

}  // namespace
}  // namespace nsys::skills::builtin
