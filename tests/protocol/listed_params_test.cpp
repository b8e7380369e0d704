// The params with checks beyond their member list (for the MCP tools that take them, nsys/protocol/mcp.h): the list
// must say what their reader and writer do, the hand-written parts included (OpenProfileParams' and
// ExportTraceParams' readers, OpenInPerfettoParams' pair; OpenJobParams and AnalyzeJobParams read and write by the
// list, then check). The writer writes exactly the listed names, the reader reads them back, and a member the list
// calls required is refused when absent.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/job.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {
namespace {

template <typename T>
std::set<std::string> ListedNames() {
  return std::apply([](const auto&... field) { return std::set<std::string>{field.name...}; }, T::WireFields());
}

template <typename T>
std::vector<std::string> RequiredNames() {
  std::vector<std::string> names;
  std::apply([&](const auto&... field) { ((IsRequired(field) ? names.push_back(field.name) : void()), ...); },
             T::WireFields());
  return names;
}

// `full` sets every member (the writer then writes each); `readable` is a value the reader accepts, as full as its
// checks allow.
template <typename T>
void ExpectListMatchesHandWrittenPair(const T& full, const T& readable) {
  const Json full_json = full;
  std::set<std::string> written;
  for (const auto& [key, value] : full_json.items()) written.insert(key);
  EXPECT_EQ(written, ListedNames<T>());

  const Json j = readable;
  const Expected<T> back = Parse<T>(j);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(*back == readable) << j.dump();
  for (const std::string& name : RequiredNames<T>()) {
    Json without = j;
    without.erase(name);
    const Expected<T> parsed = Parse<T>(without);
    ASSERT_FALSE(parsed.ok()) << name;
    EXPECT_EQ(parsed.error().message, "params." + name + ": missing required field");
  }
}

TEST(ListedParamsTest, OpenProfileParams) {
  const OpenProfileParams full{"/a.sqlite", true};
  ExpectListMatchesHandWrittenPair(full, full);
  EXPECT_EQ(RequiredNames<OpenProfileParams>(), std::vector<std::string>{"path"});
}

TEST(ListedParamsTest, ExportTraceParams) {
  ExportTraceParams full;
  full.profile_id = "p1";
  full.filter =
      Filter{Window{0.5, 1.0, WindowClock::kRelativeSeconds}, std::vector<int32_t>{0}, std::nullopt, std::nullopt};
  full.window = Window{0.0, 2.0, WindowClock::kCaptureNs};
  full.devices = std::vector<int32_t>{0, 1};
  full.pids = std::vector<int64_t>{42};
  full.min_duration_ns = 1000;
  full.gzip = false;
  full.output = "/tmp/t.perfetto-trace";
  ExpectListMatchesHandWrittenPair(full, full);
  EXPECT_EQ(RequiredNames<ExportTraceParams>(), std::vector<std::string>{"profileId"});
}

TEST(ListedParamsTest, OpenInPerfettoParams) {
  // profileId and jobId together are the MCP tool's error, not the reader's: the editor method lets jobId win.
  const OpenInPerfettoParams full{"p1", Window{}, std::string("j1"), 2};
  ExpectListMatchesHandWrittenPair(full, full);
  EXPECT_TRUE(RequiredNames<OpenInPerfettoParams>().empty());  // profileId is required only without jobId
}

TEST(ListedParamsTest, OpenJobParams) {
  const OpenJobParams full{std::vector<std::string>{"/r/a.sqlite"}, std::string("/r"), Scalar(std::string("4G")), 2};
  OpenJobParams readable = full;  // paths or directory, one of the two
  readable.directory.reset();
  ExpectListMatchesHandWrittenPair(full, readable);
  EXPECT_TRUE(RequiredNames<OpenJobParams>().empty());
}

TEST(ListedParamsTest, AnalyzeJobParams) {
  const AnalyzeJobParams full{"j1", 4};
  ExpectListMatchesHandWrittenPair(full, full);
  EXPECT_EQ(RequiredNames<AnalyzeJobParams>(), std::vector<std::string>{"jobId"});
}

}  // namespace
}  // namespace nsys::protocol
