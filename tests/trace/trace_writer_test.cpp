// The writer over small hand-built tables, where every expected slice, flow and counter value is known.
#include "nsys/trace/trace_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/support/sha256.h"
#include "nsys/trace/validator.h"
#include "trace/trace_test_util.h"

namespace nsys::trace {
namespace {

using engine::Ns;
using testing::Decode;
using testing::DecodedTrace;

class Tables {
 public:
  Tables() {
    info.devices.push_back({0, "NVIDIA Test GPU", "GT100", 0, 0, 0, 0});
    info.processes.push_back({100, "python"});
    info.processes.push_back({200, "worker"});
    info.threads.push_back({100, 101, "main"});
  }

  int32_t Kernel(Ns s, Ns e, int32_t device, int32_t stream, uint32_t pid, const std::string& name,
                 int32_t launch = engine::kNone, uint32_t correlation = 0) {
    auto& k = kernels;
    k.start.push_back(s), k.end.push_back(e), k.device.push_back(device), k.stream.push_back(stream);
    k.pid.push_back(pid), k.correlation_id.push_back(correlation);
    const auto id = strings.intern(name);
    k.name.push_back(id), k.short_name.push_back(id);
    engine::KernelConfig c;
    c.grid_x = c.block_x = 128;
    c.grid_y = c.grid_z = c.block_y = c.block_z = 1;
    c.registers_per_thread = 32, c.static_shared_memory = 1024, c.dynamic_shared_memory = 0;
    c.context = 1, c.mangled_name = id;
    k.config.push_back(static_cast<uint32_t>(k.configs.size()));
    k.configs.push_back(c);
    k.launch.push_back(launch);
    k.max_duration = std::max(k.max_duration, e - s);
    return static_cast<int32_t>(k.size() - 1);
  }
  void Memcpy(Ns s, Ns e, int32_t device, int32_t stream, uint32_t pid, int64_t bytes, int32_t launch = engine::kNone) {
    auto& m = memcpys;
    m.start.push_back(s), m.end.push_back(e), m.device.push_back(device), m.stream.push_back(stream);
    m.pid.push_back(pid), m.correlation_id.push_back(0), m.bytes.push_back(bytes);
    m.copy_kind.push_back(static_cast<uint8_t>(engine::CopyKind::kHtoD));
    m.src_kind.push_back(0), m.dst_kind.push_back(2), m.src_device.push_back(-1), m.dst_device.push_back(device);
    m.launch.push_back(launch);
    m.max_duration = std::max(m.max_duration, e - s);
  }
  int32_t Api(Ns s, Ns e, uint32_t pid, uint32_t tid, const std::string& name, uint32_t correlation = 0) {
    auto& r = runtime;
    r.start.push_back(s), r.end.push_back(e), r.pid.push_back(pid), r.tid.push_back(tid);
    r.name.push_back(strings.intern(name)), r.correlation_id.push_back(correlation), r.return_value.push_back(0);
    r.nvtx.push_back(engine::kNone);
    r.max_duration = std::max(r.max_duration, e - s);
    return static_cast<int32_t>(r.size() - 1);
  }
  void Nvtx(Ns s, Ns e, uint32_t pid, uint32_t tid, const std::string& name,
            engine::NvtxStyle style = engine::NvtxStyle::kPushPop, int64_t op_id = -1) {
    auto& n = nvtx;
    n.start.push_back(s), n.end.push_back(e), n.pid.push_back(pid), n.tid.push_back(tid);
    n.name.push_back(strings.intern(name)), n.op_id.push_back(static_cast<int32_t>(op_id)), n.style.push_back(style);
    n.parent.push_back(engine::kNone);
    n.attrs.push_back(static_cast<uint32_t>(n.attributes.size()));
    n.attributes.push_back(engine::NvtxAttributes{0, 0, 0, tid});
    n.max_duration = std::max(n.max_duration, e - s);
  }

  TraceInput Input() const { return {&info, &strings, &kernels, &memcpys, &memsets, &runtime, &nvtx, &marks}; }
  // Writes, validates, and returns the decoded trace.
  DecodedTrace Write(const TraceOptions& options, TraceStats* stats = nullptr, std::string* bytes = nullptr) {
    std::string out;
    auto written = WriteTrace(Input(), options, [&](std::string_view chunk) {
      out.append(chunk);
      return Status();
    });
    EXPECT_TRUE(written.ok()) << (written.ok() ? "" : written.error().message);
    const ValidationReport report = ValidateTrace(out);
    EXPECT_TRUE(report.ok()) << report.Summary();
    if (written.ok()) {
      EXPECT_EQ(written->bytes, static_cast<int64_t>(out.size()));
      EXPECT_EQ(written->sha256, support::Sha256::Hex(out));
      EXPECT_EQ(written->packets, report.packets);
      if (stats) *stats = *written;
    }
    if (bytes) *bytes = out;
    DecodedTrace decoded = Decode(out);
    EXPECT_EQ(decoded.error, "");
    return decoded;
  }

  engine::ProfileInfo info;
  engine::StringPool strings;
  engine::KernelTable kernels;
  engine::MemcpyTable memcpys;
  engine::MemsetTable memsets;
  engine::RuntimeTable runtime;
  engine::NvtxTable nvtx;
  engine::NvtxMarkTable marks;
};

TraceOptions Window(Ns begin, Ns end) {
  TraceOptions o;
  o.filter.window.whole = false;
  o.filter.window.begin = begin;
  o.filter.window.end = end;
  o.filter.window.description = "test window";
  return o;
}

TEST(TraceWriter, GpuLayoutWithNamedRootsStreamsAndCounters) {
  Tables t;
  t.Kernel(1000, 2000, 0, 7, 100, "gemm");
  t.Kernel(1500, 2500, 0, 13, 100, "gemm");
  t.Kernel(3000, 4000, 1, 7, 200, "relu");
  const DecodedTrace d = t.Write({});

  const auto* gpu0 = d.TrackNamed("GPU 0 \u00b7 NVIDIA Test GPU");
  const auto* gpu1 = d.TrackNamed("GPU 1");
  ASSERT_NE(gpu0, nullptr);
  ASSERT_NE(gpu1, nullptr);
  EXPECT_TRUE(gpu0->explicit_order);
  EXPECT_EQ(gpu0->parent, 0u);
  std::vector<std::pair<int32_t, std::string>> children;
  for (const auto& [uuid, track] : d.tracks) {
    if (track.parent == gpu0->uuid) children.emplace_back(track.rank.value_or(-99), track.name);
  }
  std::sort(children.begin(), children.end());
  const std::vector<std::pair<int32_t, std::string>> expected = {
      {0, "Kernel utilisation"}, {1, "Memcpy bandwidth"}, {2, "Stream 7"}, {3, "Stream 13"}};
  EXPECT_EQ(children, expected);
  EXPECT_TRUE(d.TrackNamed("Kernel utilisation")->counter);
  EXPECT_EQ(d.TrackNamed("Kernel utilisation")->unit, "%");

  const auto kernels = d.Named("gemm");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]->category, "cuda.kernel");
  EXPECT_EQ(kernels[0]->args.at("grid"), "128x1x1");
  EXPECT_EQ(kernels[0]->args.at("block"), "128x1x1");
  EXPECT_EQ(kernels[0]->args.at("registers_per_thread"), "32");
  EXPECT_EQ(kernels[0]->args.at("static_shared_memory_bytes"), "1024");
}

TEST(TraceWriter, KernelsOverlappingOnAStreamAreClippedToTheNextStart) {
  Tables t;
  t.Kernel(100, 250, 0, 7, 100, "a");
  t.Kernel(200, 300, 0, 7, 100, "b");  // starts 50 ns before "a" ends: clock skew
  t.Kernel(300, 400, 0, 7, 100, "c");  // back to back with "b": no clamp
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.clamped_slices, 1);
  EXPECT_EQ(stats.clamped_gpu_slices, 1);
  const auto* stream = d.TrackNamed("Stream 7");
  ASSERT_NE(stream, nullptr);
  std::vector<std::pair<int, int64_t>> seq;
  for (const auto* e : d.On(stream->uuid)) seq.emplace_back(e->type, e->ts);
  const std::vector<std::pair<int, int64_t>> expected = {{1, 100}, {2, 200}, {1, 200}, {2, 300}, {1, 300}, {2, 400}};
  EXPECT_EQ(seq, expected);
}

TEST(TraceWriter, CpuSlicesNestAndPartialOverlapsAreClippedToTheParent) {
  Tables t;
  t.Nvtx(0, 1000, 100, 101, "step");
  t.Nvtx(10, 500, 100, 101, "forward");
  t.Api(100, 200, 100, 101, "cudaLaunchKernel");
  t.Api(900, 1100, 100, 101, "cudaMemcpyAsync");  // outlives "step": clipped to 1000
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.clamped_slices, 1);
  EXPECT_EQ(stats.clamped_gpu_slices, 0);
  EXPECT_EQ(stats.nvtx_ranges, 2);
  EXPECT_EQ(stats.api_calls, 2);
  const testing::DecodedTrack* thread = nullptr;
  for (const auto& [uuid, track] : d.tracks) {
    if (track.tid == 101u && !track.process_name.size()) thread = &track;
  }
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(thread->thread_name, "main");
  EXPECT_EQ(*thread->pid, 100u);
  ASSERT_TRUE(d.tracks.count(thread->parent));
  EXPECT_EQ(d.tracks.at(thread->parent).process_name, "python");
  std::vector<std::pair<int, int64_t>> seq;
  for (const auto* e : d.On(thread->uuid)) seq.emplace_back(e->type, e->ts);
  const std::vector<std::pair<int, int64_t>> expected = {{1, 0},   {1, 10},  {1, 100},  {2, 200},
                                                         {2, 500}, {1, 900}, {2, 1000}, {2, 1000}};
  EXPECT_EQ(seq, expected);
}

TEST(TraceWriter, FlowsLinkLaunchCallsToTheirGpuWork) {
  Tables t;
  const int32_t launch = t.Api(100, 150, 100, 101, "cudaLaunchKernel", 7);
  const int32_t copy = t.Api(160, 170, 100, 101, "cudaMemcpyAsync", 8);
  t.Kernel(200, 300, 0, 7, 100, "k", launch, 7);
  t.Memcpy(310, 410, 0, 7, 100, 1000, copy);
  t.Kernel(500, 600, 0, 7, 100, "orphan");  // no launch row (cut by the capture window)
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.flows, 2);
  const auto launches = d.Named("cudaLaunchKernel");
  const auto kernels = d.Named("k");
  ASSERT_EQ(launches.size(), 1u);
  ASSERT_EQ(kernels.size(), 1u);
  ASSERT_EQ(launches[0]->flows.size(), 1u);
  EXPECT_EQ(kernels[0]->terminating_flows, launches[0]->flows);
  const auto copies = d.Named("Memcpy HtoD");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]->terminating_flows, d.Named("cudaMemcpyAsync")[0]->flows);
  EXPECT_EQ(copies[0]->args.at("bytes"), "1000");
  EXPECT_EQ(copies[0]->args.at("bandwidth_gb_per_s"), "10.000000");  // 1000 B in 100 ns
  EXPECT_TRUE(d.Named("orphan")[0]->terminating_flows.empty());
}

TEST(TraceWriter, WindowKeepsOverlappingSlicesAndDropsFlowsWithAMissingEnd) {
  Tables t;
  const int32_t early = t.Api(100, 150, 100, 101, "cudaLaunchKernel");  // before the window
  const int32_t inside = t.Api(1100, 1150, 100, 101, "cudaLaunchKernel");
  t.Nvtx(0, 5000, 100, 101, "epoch");  // encloses the window: kept
  t.Kernel(1050, 1200, 0, 7, 100, "late", early);
  t.Kernel(1300, 1400, 0, 7, 100, "k", inside);
  t.Kernel(2500, 2600, 0, 7, 100, "after");
  TraceStats stats;
  const DecodedTrace d = t.Write(Window(1000, 2000), &stats);
  EXPECT_EQ(stats.kernels, 2);
  EXPECT_EQ(stats.api_calls, 1);
  EXPECT_EQ(stats.nvtx_ranges, 1);
  EXPECT_EQ(stats.flows, 1);
  EXPECT_TRUE(d.Named("after").empty());
  EXPECT_TRUE(d.Named("late")[0]->terminating_flows.empty());
  EXPECT_EQ(d.Named("k")[0]->terminating_flows.size(), 1u);
  EXPECT_EQ(stats.window, "test window");
}

TEST(TraceWriter, MinimumDurationSkipsShortSlicesAndTheirFlows) {
  Tables t;
  const int32_t launch = t.Api(100, 10000, 100, 101, "cudaLaunchKernel");
  t.Kernel(200, 210, 0, 7, 100, "tiny", launch);
  t.Kernel(300, 5000, 0, 7, 100, "big");
  TraceOptions o;
  o.min_duration_ns = 100;
  TraceStats stats;
  const DecodedTrace d = t.Write(o, &stats);
  EXPECT_EQ(stats.kernels, 1);
  EXPECT_EQ(stats.skipped_short, 1);
  EXPECT_EQ(stats.flows, 0);
  EXPECT_TRUE(d.Named("cudaLaunchKernel")[0]->flows.empty());
}

TEST(TraceWriter, DeviceFilterKeepsTheProcessesThatUsedTheDevice) {
  Tables t;
  t.Api(100, 150, 100, 101, "cudaLaunchKernel");
  t.Api(100, 150, 200, 201, "cudaLaunchKernel");
  t.Kernel(200, 300, 0, 7, 100, "on0");
  t.Kernel(200, 300, 1, 7, 200, "on1");
  TraceOptions o;
  o.filter.devices = {1};
  TraceStats stats;
  const DecodedTrace d = t.Write(o, &stats);
  EXPECT_EQ(d.TrackNamed("GPU 0 \u00b7 NVIDIA Test GPU"), nullptr);
  EXPECT_NE(d.TrackNamed("GPU 1"), nullptr);
  EXPECT_EQ(stats.kernels, 1);
  EXPECT_EQ(stats.api_calls, 1);
  for (const auto& [uuid, track] : d.tracks) {
    if (track.pid) {
      EXPECT_EQ(*track.pid, 200u) << track.name;
    }
  }
}

TEST(TraceWriter, UtilisationCountsConcurrentKernelsOnce) {
  Tables t;
  t.Kernel(0, 50, 0, 7, 100, "a");
  t.Kernel(10, 50, 0, 13, 100, "b");  // concurrent with "a" on another stream
  t.Kernel(150, 175, 0, 7, 100, "c");
  t.Memcpy(200, 300, 0, 7, 100, 500);
  TraceOptions o = Window(0, 400);
  o.counter_bucket_ns = 100;
  TraceStats stats;
  const DecodedTrace d = t.Write(o, &stats);
  std::vector<std::pair<int64_t, double>> util, bandwidth;
  for (const auto* e : d.On(d.TrackNamed("Kernel utilisation")->uuid)) util.emplace_back(e->ts, e->value);
  for (const auto* e : d.On(d.TrackNamed("Memcpy bandwidth")->uuid)) bandwidth.emplace_back(e->ts, e->value);
  const std::vector<std::pair<int64_t, double>> expected_util = {{0, 50.0}, {100, 25.0}, {200, 0.0}};
  const std::vector<std::pair<int64_t, double>> expected_bw = {{0, 0.0}, {200, 5.0}, {300, 0.0}};
  EXPECT_EQ(util, expected_util);
  EXPECT_EQ(bandwidth, expected_bw);
  EXPECT_EQ(stats.counter_values, 6);
}

TEST(TraceWriter, StartEndRangesGetLanesOfTheirOwn) {
  Tables t;
  t.Nvtx(0, 100, 100, 101, "a", engine::NvtxStyle::kStartEnd);
  t.Nvtx(50, 150, 100, 102, "b", engine::NvtxStyle::kStartEnd);       // overlaps "a" without nesting
  t.Nvtx(120, 200, 100, 101, "c", engine::NvtxStyle::kStartEnd, 42);  // fits after "a"
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.clamped_slices, 0);
  const auto* lane1 = d.TrackNamed("NVTX start/end");
  const auto* lane2 = d.TrackNamed("NVTX start/end #2");
  ASSERT_NE(lane1, nullptr);
  ASSERT_NE(lane2, nullptr);
  EXPECT_EQ(d.tracks.at(lane1->parent).process_name, "python");
  EXPECT_EQ(d.Named("a")[0]->track, lane1->uuid);
  EXPECT_EQ(d.Named("b")[0]->track, lane2->uuid);
  EXPECT_EQ(d.Named("c")[0]->track, lane1->uuid);
  EXPECT_EQ(d.Named("c")[0]->args.at("op_id"), "42");
}

TEST(TraceWriter, NvtxMarksAreInstantsOnTheirThread) {
  Tables t;
  t.Nvtx(0, 100, 100, 101, "step");
  for (Ns at : {50, 100, 150}) {
    t.marks.time.push_back(at), t.marks.pid.push_back(100), t.marks.tid.push_back(101);
    t.marks.name.push_back(t.strings.intern("checkpoint"));
  }
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.nvtx_marks, 3);
  const auto marks = d.Named("checkpoint");
  ASSERT_EQ(marks.size(), 3u);
  EXPECT_EQ(marks[0]->type, 3);
  EXPECT_EQ(marks[0]->track, d.Named("step")[0]->track);
  // The instant at 100 comes after the END of "step" at 100, on the same track.
  std::vector<std::pair<int, int64_t>> seq;
  for (const auto* e : d.On(marks[0]->track)) seq.emplace_back(e->type, e->ts);
  const std::vector<std::pair<int, int64_t>> expected = {{1, 0}, {3, 50}, {2, 100}, {3, 100}, {3, 150}};
  EXPECT_EQ(seq, expected);
}

TEST(TraceWriter, NamesAreInternedOnce) {
  Tables t;
  for (int i = 0; i < 100; ++i) t.Kernel(i * 100, i * 100 + 50, 0, 7, 100, i % 2 ? "odd" : "even");
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.interned_names, 2);
  EXPECT_EQ(d.Named("odd").size(), 50u);
}

TEST(TraceWriter, ChunksArePacketAligned) {
  Tables t;
  for (int i = 0; i < 5000; ++i) t.Kernel(i * 100, i * 100 + 50, 0, i % 4, 100, "k" + std::to_string(i % 37));
  TraceOptions o;
  o.chunk_bytes = 4096;
  std::vector<std::string> chunks;
  auto stats = WriteTrace(t.Input(), o, [&](std::string_view c) {
    chunks.emplace_back(c);
    return Status();
  });
  ASSERT_TRUE(stats.ok());
  ASSERT_GT(chunks.size(), 10u);
  support::Sha256 sha;
  int64_t packets = 0;
  for (const auto& c : chunks) {
    ProtoDecoder d(c);  // a chunk is a run of whole Trace.packet records
    ProtoField f;
    while (d.Next(f)) {
      ASSERT_EQ(f.number, 1u);
      ++packets;
    }
    ASSERT_EQ(d.error(), nullptr);
    EXPECT_LT(c.size(), 4096u + 1024u);
    sha.Update(c);
  }
  EXPECT_EQ(packets, stats->packets);
  EXPECT_EQ(sha.FinishHex(), stats->sha256);
}

TEST(TraceWriter, InlineAndPipelinedWritesAreIdentical) {
  Tables t;
  for (int i = 0; i < 3000; ++i) {
    const int32_t launch = t.Api(i * 100, i * 100 + 20, 100, 101, "cudaLaunchKernel", static_cast<uint32_t>(i));
    t.Kernel(i * 100 + 30, i * 100 + 90, 0, i % 3, 100, "k" + std::to_string(i % 11), launch, static_cast<uint32_t>(i));
  }
  std::string inline_bytes, pipelined_bytes;
  for (bool pipeline : {false, true}) {
    TraceOptions o;
    o.pipeline = pipeline;
    o.chunk_bytes = 4096;
    std::string& out = pipeline ? pipelined_bytes : inline_bytes;
    int calls = 0;
    auto stats = WriteTrace(t.Input(), o, [&](std::string_view chunk) {
      out.append(chunk);
      ++calls;
      return Status();
    });
    ASSERT_TRUE(stats.ok());
    EXPECT_GT(calls, 20);
    EXPECT_EQ(stats->sha256, support::Sha256::Hex(out));
    EXPECT_EQ(stats->flows, 3000);
  }
  EXPECT_EQ(inline_bytes, pipelined_bytes);
  EXPECT_TRUE(ValidateTrace(pipelined_bytes).ok());
}

TEST(TraceWriter, SinkErrorsStopTheWrite) {
  Tables t;
  for (int i = 0; i < 5000; ++i) t.Kernel(i * 100, i * 100 + 50, 0, 7, 100, "k");
  for (bool pipeline : {false, true}) {
    TraceOptions o;
    o.chunk_bytes = 4096;
    o.pipeline = pipeline;
    int calls = 0;
    auto stats = WriteTrace(t.Input(), o, [&](std::string_view) -> Status {
      if (++calls == 2) return MakeError(ErrorKind::kInternal, "disk full");
      return {};
    });
    ASSERT_FALSE(stats.ok());
    EXPECT_EQ(stats.error().message, "disk full");
    EXPECT_EQ(calls, 2) << "pipeline " << pipeline;
  }
}

TEST(TraceWriter, Cancellation) {
  Tables t;
  t.Kernel(0, 10, 0, 7, 100, "k");
  CancelToken cancel;
  cancel.cancel();
  auto stats = WriteTrace(
      t.Input(), {}, [](std::string_view) { return Status(); }, cancel);
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.error().kind, ErrorKind::kCancelled);
}

TEST(TraceWriter, RejectsBadOptions) {
  Tables t;
  auto sink = [](std::string_view) { return Status(); };
  auto empty_window = WriteTrace(t.Input(), Window(2000, 1000), sink);
  ASSERT_FALSE(empty_window.ok());
  EXPECT_EQ(empty_window.error().kind, ErrorKind::kInvalidArgument);
  TraceOptions negative;
  negative.min_duration_ns = -1;
  EXPECT_FALSE(WriteTrace(t.Input(), negative, sink).ok());
  TraceInput none;
  EXPECT_FALSE(WriteTrace(none, {}, sink).ok());
  // The writer cannot select threads yet: it says so rather than writing every thread.
  TraceOptions threads;
  threads.filter.threads = {(uint64_t{100} << 24) | 101};
  auto refused = WriteTrace(t.Input(), threads, sink);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kUnsupported);
}

TEST(TraceWriter, EmptyInputIsAValidTrace) {
  Tables t;
  TraceStats stats;
  const DecodedTrace d = t.Write({}, &stats);
  EXPECT_EQ(stats.packets, 1);  // the sequence's first packet only
  EXPECT_TRUE(d.tracks.empty());
}

}  // namespace
}  // namespace nsys::trace
