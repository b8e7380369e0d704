// Every fixture exported through the real engine: the semantic validator, protoc against the project's .proto
// (no unknown fields), fixture-specific facts, and golden decoded text for mock.sqlite.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_graph_export.h"
#include "derived_export.h"
#include "fixtures.h"
#include "nsys/engine/profile.h"
#include "nsys/support/sha256.h"
#include "nsys/trace/protobuf.h"
#include "nsys/trace/trace_writer.h"
#include "nsys/trace/validator.h"
#include "trace/trace_test_util.h"

namespace nsys::trace {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<engine::Profile> OpenFixture(const std::string& name) {
  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(nsys::testing::Fixture(name), options);
  EXPECT_TRUE(profile.ok()) << name << ": " << (profile.ok() ? "" : profile.error().message);
  return profile.ok() ? *profile : nullptr;
}

struct Exported {
  std::string bytes;
  TraceStats stats;
};

Exported Export(engine::Profile& profile, const TraceOptions& options = {}) {
  Exported out;
  auto stats = ExportTrace(profile, options, [&](std::string_view chunk) {
    out.bytes.append(chunk);
    return Status();
  });
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().message);
  if (stats.ok()) out.stats = *stats;
  return out;
}

fs::path TempDir() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("nsys-ai-trace-test-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() / ("nsys-ai-trace-test-" + std::to_string(::getpid())), ec);
    });
    return d;
  }();
  return dir;
}

fs::path TempFile(const std::string& name) {
  return TempDir() / name;
}

struct Decoded {
  int exit_code = -1;
  std::string text;
};

// protoc --decode with the project's subset of Perfetto's protos.
Decoded Protoc(const std::string& bytes) {
  const fs::path input = TempFile("input.pftrace");
  std::ofstream(input, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const fs::path proto_dir = fs::path(NSYS_AI_SOURCE_DIR) / "server/trace/proto";
  const std::string command = "protoc --decode=perfetto.protos.Trace --proto_path=" + proto_dir.string() +
                              " nsys_ai_trace.proto < " + input.string() + " 2>&1";
  Decoded out;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.text.append(buf, n);
  const int status = ::pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// protoc prints fields it does not know by number: "47: 77", "60: \"...\"" or "60 {".
std::vector<std::string> UnknownFieldLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t i = line.find_first_not_of(' ');
    const size_t digits = i == std::string::npos ? i : line.find_first_not_of("0123456789", i);
    if (digits == std::string::npos || digits == i) continue;
    if (line.compare(digits, 2, ": ") == 0 || line.compare(digits, 2, " {") == 0) lines.push_back(line);
  }
  return lines;
}

bool HaveProtoc() {
  return std::system("protoc --version > /dev/null 2>&1") == 0;
}

class EveryFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryFixture, ValidatesAndDecodesWithProtoc) {
  NSYS_REQUIRE_FIXTURES();
  engine::OpenOptions options;
  options.use_cache = false;
  auto opened = engine::Profile::Open(nsys::testing::Fixture(GetParam()), options);
  if (!opened.ok()) {
    // Only the export with no metadata and no events may be refused, and then with a sentence, not a crash.
    EXPECT_EQ(GetParam(), "empty_export.sqlite") << opened.error().message;
    EXPECT_FALSE(opened.error().message.empty());
    return;
  }
  const Exported trace = Export(**opened);
  const ValidationReport report = ValidateTrace(trace.bytes);
  EXPECT_TRUE(report.ok()) << report.Summary();
  EXPECT_EQ(report.packets, trace.stats.packets);
  EXPECT_EQ(report.slices, trace.stats.slices());
  EXPECT_EQ(report.flows, trace.stats.flows);
  EXPECT_EQ(report.counter_values, trace.stats.counter_values);
  // Every kernel is a GpuRenderStageEvent too (Perfetto's gpu_slice table), its queue, stage and context interned.
  EXPECT_EQ(report.gpu_stages, trace.stats.kernels);
  EXPECT_EQ(support::Sha256::Hex(trace.bytes), trace.stats.sha256);
  // What the engine loaded is what the trace holds (no filters, no minimum duration).
  EXPECT_EQ(trace.stats.kernels, static_cast<int64_t>((*opened)->kernels().size()));
  EXPECT_EQ(trace.stats.memcpys, static_cast<int64_t>((*opened)->memcpys().size()));
  EXPECT_EQ(trace.stats.memsets, static_cast<int64_t>((*opened)->memsets().size()));
  EXPECT_EQ(trace.stats.nvtx_marks, static_cast<int64_t>((*opened)->nvtx_marks().size()));
  EXPECT_EQ(trace.stats.api_calls, static_cast<int64_t>((*opened)->runtime().size()));
  EXPECT_EQ(trace.stats.nvtx_ranges, static_cast<int64_t>((*opened)->nvtx().size()));

  if (!HaveProtoc()) GTEST_SKIP() << "protoc is not installed; skipping the protoc decode of " << GetParam();
  const Decoded decoded = Protoc(trace.bytes);
  EXPECT_EQ(decoded.exit_code, 0) << decoded.text.substr(0, 2000);
  const auto unknown = UnknownFieldLines(decoded.text);
  EXPECT_TRUE(unknown.empty()) << unknown.size() << " unknown field(s), first: " << unknown.front();
}

INSTANTIATE_TEST_SUITE_P(Fixtures, EveryFixture,
                         ::testing::Values("mock.sqlite", "h100_2gpu_1s.sqlite", "a100_2proc_mpi.sqlite",
                                           "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite",
                                           "v100_julia.sqlite", "mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite",
                                           "empty_export.sqlite"),
                         [](const auto& param_info) { return param_info.param.substr(0, param_info.param.find('.')); });

// The protoc checks can fail: a truncated trace, and a packet with a field outside the .proto subset.
TEST(TraceFixtures, ProtocChecksCatchTruncationAndUnknownFields) {
  NSYS_REQUIRE_FIXTURES();
  if (!HaveProtoc()) GTEST_SKIP() << "protoc is not installed";
  auto profile = OpenFixture("mock.sqlite");
  ASSERT_TRUE(profile);
  const Exported trace = Export(*profile);
  const Decoded whole = Protoc(trace.bytes);
  EXPECT_EQ(whole.exit_code, 0);
  EXPECT_TRUE(UnknownFieldLines(whole.text).empty());
  EXPECT_NE(Protoc(trace.bytes.substr(0, trace.bytes.size() - 5)).exit_code, 0);
  ProtoEncoder extra;
  const size_t packet = extra.BeginMessage(1);
  extra.VarintField(10, 1);
  extra.VarintField(47, 77);  // TracePacket has no field 47
  extra.EndMessage(packet);
  const Decoded unknown = Protoc(trace.bytes + std::string(extra.view()));
  EXPECT_EQ(unknown.exit_code, 0);
  const auto lines = UnknownFieldLines(unknown.text);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "  47: 77");
}

TEST(TraceFixtures, H100TwoGpusTwoProcesses) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  ASSERT_TRUE(profile);
  const Exported trace = Export(*profile);
  EXPECT_EQ(trace.stats.kernels, 3442);
  EXPECT_EQ(trace.stats.memcpys, 904);
  const auto d = testing::Decode(trace.bytes);
  ASSERT_NE(d.TrackNamed("GPU 0"), nullptr);  // no TARGET_INFO_GPU in this export: bare names
  ASSERT_NE(d.TrackNamed("GPU 1"), nullptr);
  int processes = 0;
  for (const auto& [uuid, t] : d.tracks) processes += !t.process_name.empty();
  EXPECT_EQ(processes, 2);
  // GPU rows with a runtime row of the same (pid, correlationId): 1632 kernels + 438 memcpys + 22 memsets (SQL join
  // on the fixture); the capture window cut the other launch calls.
  EXPECT_EQ(trace.stats.flows, 2092);
  EXPECT_GT(trace.stats.counter_values, 0);

  // Device 1 only: one GPU root, and the CPU side of the process that used it.
  TraceOptions one;
  one.filter.devices = {1};
  const Exported device1 = Export(*profile, one);
  EXPECT_TRUE(ValidateTrace(device1.bytes).ok());
  const auto d1 = testing::Decode(device1.bytes);
  EXPECT_EQ(d1.TrackNamed("GPU 0"), nullptr);
  EXPECT_NE(d1.TrackNamed("GPU 1"), nullptr);
  processes = 0;
  for (const auto& [uuid, t] : d1.tracks) processes += !t.process_name.empty();
  EXPECT_EQ(processes, 1);
  EXPECT_LT(device1.stats.kernels, trace.stats.kernels);

  // The first half second: smaller, still valid, and only flows whose two ends overlap the window (330, by SQL: GPU
  // rows overlapping [start, start + 0.5 s) whose same-(pid, correlationId) runtime row overlaps it too; here kernels
  // run up to 0.44 s after their launch call).
  engine::WindowSpec spec;
  spec.start = 0.0;
  spec.end = 0.5;
  auto window = engine::ResolveWindow(profile->info(), spec);
  ASSERT_TRUE(window.ok());
  TraceOptions windowed;
  windowed.filter.window = *window;
  const Exported part = Export(*profile, windowed);
  const ValidationReport report = ValidateTrace(part.bytes);
  EXPECT_TRUE(report.ok()) << report.Summary();
  EXPECT_GT(part.stats.kernels, 0);
  EXPECT_LT(part.stats.kernels, trace.stats.kernels);
  EXPECT_EQ(part.stats.flows, 330);
  EXPECT_LT(part.stats.bytes, trace.stats.bytes / 2);
  EXPECT_GE(part.stats.first_ns, window->begin - profile->nvtx().max_duration);
}

// A graph-level capture (derived from h100_2gpu_1s: tests/cuda_graph_export.h): each graph execution is one slice
// "CUDA graph 7" (category cuda.graph) on its stream's track, with a flow from its cudaGraphLaunch call where the
// export holds that call; the trace still validates.
TEST(TraceFixtures, GraphExecutionsAreSlicesOnTheirStream) {
  NSYS_REQUIRE_FIXTURES();
  nsys::testing::DerivedExport copy("h100_2gpu_1s.sqlite", nsys::testing::GraphLevelEdits());
  ASSERT_TRUE(copy.ok()) << copy.error();
  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(copy.path(), options);
  ASSERT_TRUE(profile.ok());
  const Exported trace = Export(**profile);
  const engine::GraphTable& g = (*profile)->graphs();
  ASSERT_GT(g.size(), 0u);
  EXPECT_EQ(trace.stats.graphs, static_cast<int64_t>(g.size()));
  EXPECT_EQ(trace.stats.kernels, static_cast<int64_t>((*profile)->kernels().size()));  // the window's left the table
  EXPECT_LT(trace.stats.kernels, 3442);
  const ValidationReport report = ValidateTrace(trace.bytes);
  EXPECT_TRUE(report.ok()) << report.Summary();
  const auto d = testing::Decode(trace.bytes);
  const auto slices = d.Named("CUDA graph 7");
  ASSERT_EQ(slices.size(), g.size());
  size_t linked = 0;
  for (size_t i = 0; i < g.size(); ++i) linked += g.launch[i] >= 0;
  size_t with_flow = 0;
  for (const auto* e : slices) {
    EXPECT_EQ(e->category, "cuda.graph");
    EXPECT_EQ(d.tracks.at(e->track).name, "Stream 7");
    with_flow += !e->terminating_flows.empty();
  }
  EXPECT_EQ(with_flow, linked);
  EXPECT_GT(linked, 0u);
}

TEST(TraceFixtures, MpiRanksSharingCorrelationIdsGetTheirOwnFlows) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("a100_2proc_mpi.sqlite");
  ASSERT_TRUE(profile);
  const Exported trace = Export(*profile);
  EXPECT_EQ(trace.stats.kernels, 885);
  const auto d = testing::Decode(trace.bytes);
  // Each flow runs from a launch call to a kernel of the same process (joined on (pid, correlationId)).
  std::map<uint64_t, uint32_t> flow_pid;
  auto pid_of = [&](uint64_t track) -> uint32_t {
    for (uint64_t t = track; t != 0; t = d.tracks.at(t).parent) {
      if (d.tracks.at(t).pid) return *d.tracks.at(t).pid;
    }
    return 0;
  };
  for (const auto& e : d.events) {
    for (uint64_t f : e.flows) flow_pid[f] = pid_of(e.track);
  }
  int checked = 0;
  for (const auto& e : d.events) {
    for (uint64_t f : e.terminating_flows) {
      const auto* stream = &d.tracks.at(e.track);
      const std::string suffix = stream->name.substr(stream->name.rfind(' ') + 1);  // "Stream 7 · pid 1234"
      if (stream->name.find("pid") != std::string::npos) {
        EXPECT_EQ(std::to_string(flow_pid.at(f)), suffix);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 800);
  EXPECT_EQ(trace.stats.flows, checked);
}

TEST(TraceFixtures, TensorRtStartEndRangesLandOnLanes) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("titanrtx_tensorrt_nvtx.sqlite");
  ASSERT_TRUE(profile);
  const Exported trace = Export(*profile);
  EXPECT_EQ(trace.stats.kernels, 0);
  EXPECT_GT(trace.stats.nvtx_ranges, 0);
  const auto d = testing::Decode(trace.bytes);
  EXPECT_NE(d.TrackNamed("NVTX start/end"), nullptr);
}

TEST(TraceFixtures, MockMatchesTheGoldenDecodedText) {
  NSYS_REQUIRE_FIXTURES();
  if (!HaveProtoc()) GTEST_SKIP() << "protoc is not installed";
  auto profile = OpenFixture("mock.sqlite");
  ASSERT_TRUE(profile);
  const Exported trace = Export(*profile);
  EXPECT_EQ(trace.stats.kernels, 2);
  const Decoded decoded = Protoc(trace.bytes);
  ASSERT_EQ(decoded.exit_code, 0);
  const fs::path golden = fs::path(NSYS_AI_TEST_DATA_DIR) / "trace/golden/mock.textproto";
  if (std::getenv("NSYS_AI_UPDATE_GOLDEN")) {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden) << decoded.text;
    GTEST_SKIP() << "rewrote " << golden;
  }
  std::ifstream in(golden);
  ASSERT_TRUE(in) << golden << " is missing; run with NSYS_AI_UPDATE_GOLDEN=1 to create it";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(decoded.text, expected.str()) << "the decoded trace of mock.sqlite changed; if intended, rerun with "
                                             "NSYS_AI_UPDATE_GOLDEN=1 and review the diff of "
                                          << golden;
}

TEST(TraceFixtures, ExportToFileIsAtomic) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("mock.sqlite");
  ASSERT_TRUE(profile);
  const fs::path out = TempFile("mock.pftrace");
  auto stats = ExportTraceToFile(*profile, {}, out.string());
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(static_cast<int64_t>(fs::file_size(out)), stats->bytes);
  // Cancelled: no file, and no temporary left behind.
  const fs::path cancelled = TempFile("cancelled.pftrace");
  CancelToken cancel;
  cancel.cancel();
  auto none = ExportTraceToFile(*profile, {}, cancelled.string(), cancel);
  ASSERT_FALSE(none.ok());
  EXPECT_FALSE(fs::exists(cancelled));
  for (const auto& entry : fs::directory_iterator(cancelled.parent_path())) {
    EXPECT_EQ(entry.path().string().find("cancelled.pftrace."), std::string::npos) << entry.path();
  }
  auto into_dir = ExportTraceToFile(*profile, {}, cancelled.parent_path().string());
  EXPECT_FALSE(into_dir.ok());
}

}  // namespace
}  // namespace nsys::trace
