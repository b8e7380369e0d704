// Trace conversions (wire/trace.h): the JSON of exportTrace and openInPerfetto results, the request checks, base64.
#include "nsys/wire/trace.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace nsys::testing {
namespace {

using protocol::Json;

TEST(WireTrace, Base64MatchesRfc4648) {
  EXPECT_EQ(wire::Base64(""), "");
  EXPECT_EQ(wire::Base64("f"), "Zg==");
  EXPECT_EQ(wire::Base64("fo"), "Zm8=");
  EXPECT_EQ(wire::Base64("foo"), "Zm9v");
  EXPECT_EQ(wire::Base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(wire::Base64(std::string("\xff\x00\x10", 3)), "/wAQ");
}

core::TraceExport SampleExport() {
  core::TraceExport trace;
  core::TraceStats& s = trace.stats;
  s.bytes = 2048;
  s.sha256 = "ab12";
  s.packets = 10;
  s.tracks = 3;
  s.kernels = 4;
  s.memcpys = 5;
  s.memsets = 6;
  s.api_calls = 7;
  s.nvtx_ranges = 8;
  s.nvtx_marks = 9;
  s.flows = 2;
  s.counter_values = 11;
  s.clamped_slices = 1;
  s.clamped_gpu_slices = 1;
  s.skipped_short = 12;
  s.window = "whole profile";
  s.seconds = 0.12345;
  s.cpu_seconds = 0.0996;
  trace.path = "/tmp/t.pftrace";
  return trace;
}

TEST(WireTrace, ExportResultCarriesEveryCountAsBefore) {
  const Json json = wire::ToExportTraceResult(SampleExport(), true);
  EXPECT_EQ(json.dump(),
            R"({"bytes":2048,"clampedSlices":1,"counterValues":11,"cpuSeconds":0.1,"flows":2,"gzip":false,)"
            R"("notes":["Window: whole profile.","1 slice(s) were clipped so that slices nest per track (1 on GPU )"
            R"(streams, where overlaps come from clock skew).","12 slice(s) shorter than the minimum duration were )"
            R"(left out.","gzip was requested, but this build writes uncompressed traces (Perfetto reads both)."],)"
            R"("packets":10,"path":"/tmp/t.pftrace","seconds":0.123,"sha256":"ab12","skippedShort":12,)"
            R"("slices":{"cudaApi":7,"kernels":4,"memcpys":5,"memsets":6,"nvtxMarks":9,"nvtxRanges":8},)"
            R"("streamed":false,"tracks":3,"window":"whole profile"})");
  // And it reads back into the same typed result.
  EXPECT_EQ(protocol::Parse<protocol::ExportTraceResult>(json).value(),
            wire::ToExportTraceResult(SampleExport(), true));
}

TEST(WireTrace, OpenResultHasTheLinksAndOmitsAnEmptyDeepLink) {
  core::TracePublication publication;
  publication.stats = SampleExport().stats;
  publication.published = {"http://127.0.0.1:4000/p/ff/",
                           4000,
                           "ff",
                           "2025-01-31T12:00:00Z",
                           "http://127.0.0.1:4000/p/ff/trace.pftrace",
                           ""};
  const Json json = wire::ToOpenInPerfettoResult(publication, false);
  EXPECT_EQ(json.dump(),
            R"({"bytes":2048,"clampedSlices":1,"expiresAt":"2025-01-31T12:00:00Z","port":4000,"sha256":"ab12",)"
            R"("showDocument":false,"sshHint":"ssh -L 4000:127.0.0.1:4000 <this host>","token":"ff",)"
            R"("traceUrl":"http://127.0.0.1:4000/p/ff/trace.pftrace","url":"http://127.0.0.1:4000/p/ff/",)"
            R"("window":"whole profile"})");
  publication.published.deep_link = "https://ui.perfetto.dev/#!/?url=x";
  EXPECT_EQ(Json(wire::ToOpenInPerfettoResult(publication, std::nullopt))["deepLink"],
            "https://ui.perfetto.dev/#!/?url=x");
  EXPECT_FALSE(Json(wire::ToOpenInPerfettoResult(publication, std::nullopt)).contains("showDocument"));
}

TEST(WireTrace, RequestChecksPidsAndMinimumDuration) {
  protocol::ExportTraceParams params;
  params.profile_id = "p1";
  params.pids = std::vector<int64_t>{-5};
  auto bad_pid = wire::ToTraceRequest(params);
  ASSERT_FALSE(bad_pid);
  EXPECT_EQ(bad_pid.error().message, "params.pids: -5 is not a process id (0 to 16777215).");
  params.pids = std::vector<int64_t>{4242};
  params.min_duration_ns = -1;
  auto bad_min = wire::ToTraceRequest(params);
  ASSERT_FALSE(bad_min);
  EXPECT_EQ(bad_min.error().message, "params.minDurationNs must not be negative (got -1).");
  params.min_duration_ns = 100;
  params.window = protocol::Window{1.0, std::nullopt, protocol::WindowClock::kCaptureNs};
  auto ok = wire::ToTraceRequest(params);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->filter.processes, std::vector<uint32_t>{4242});
  EXPECT_EQ(ok->min_duration_ns, 100);
  EXPECT_EQ(ok->filter.window.clock, engine::WindowSpec::Clock::kCaptureNs);
  EXPECT_EQ(ok->filter.window.start, 1.0);
  EXPECT_FALSE(ok->filter.window.end);

  // The one filter shape gives the same request; naming a member both ways is refused by name.
  protocol::ExportTraceParams filtered;
  filtered.profile_id = "p1";
  filtered.min_duration_ns = 100;
  filtered.filter = protocol::Filter{protocol::Window{1.0, std::nullopt, protocol::WindowClock::kCaptureNs},
                                     std::vector<int32_t>{0, 1}, std::vector<int64_t>{4242}, std::nullopt};
  auto same = wire::ToTraceRequest(filtered);
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_EQ(same->filter.processes, ok->filter.processes);
  EXPECT_EQ(same->filter.devices, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(same->filter.window.start, 1.0);
  filtered.pids = std::vector<int64_t>{1};
  auto twice = wire::ToTraceRequest(filtered);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(twice.error().message, "params.pids and params.filter.processes both given: use one of them");
}

}  // namespace
}  // namespace nsys::testing
