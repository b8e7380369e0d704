#include "nsys/wire/skill_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nsys/wire/converters.h"

namespace nsys::testing {
namespace {

protocol::Filter DeviceWindow() {
  protocol::Filter filter;
  filter.devices = std::vector<int32_t>{1};
  filter.processes = std::vector<int64_t>{4242};
  filter.window = protocol::Window{0.25, 0.5, protocol::WindowClock::kCaptureNs};
  return filter;
}

TEST(SkillArgs, FilterBecomesTheEnginesFilterSpec) {
  auto spec = wire::ToFilterSpec(DeviceWindow());
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->devices, std::vector<int32_t>{1});
  EXPECT_EQ(spec->processes, std::vector<uint32_t>{4242});
  EXPECT_TRUE(spec->threads.empty());
  EXPECT_EQ(spec->window.clock, WindowClock::kCaptureNs);
  EXPECT_EQ(spec->window.start, 0.25);
  EXPECT_EQ(spec->window.end, 0.5);

  protocol::Filter sets;  // several devices, processes and threads pass through as sets
  sets.devices = std::vector<int32_t>{0, 1};
  sets.processes = std::vector<int64_t>{1, 16777215};
  sets.threads = std::vector<int64_t>{int64_t{4242} << 24 | 77};
  spec = wire::ToFilterSpec(sets);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->devices, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(spec->processes, (std::vector<uint32_t>{1, 16777215}));
  EXPECT_EQ(spec->threads, std::vector<uint64_t>{(uint64_t{4242} << 24) | 77});
  EXPECT_EQ(spec->window.clock, WindowClock::kRelativeSeconds);  // no window: the whole profile, default clock
  EXPECT_FALSE(spec->window.start || spec->window.end);
}

TEST(SkillArgs, FilterIdsThatCannotBeIdsAreRefusedByName) {
  protocol::Filter pid;
  pid.processes = std::vector<int64_t>{16777216};
  auto spec = wire::ToFilterSpec(pid);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(spec.error().message, "params.filter.processes: 16777216 is not a process id (0 to 16777215).");

  protocol::Filter tid;
  tid.threads = std::vector<int64_t>{-3};
  spec = wire::ToFilterSpec(tid);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.error().message, "params.filter.threads: -3 is not a global thread id (it is negative).");
}

TEST(SkillArgs, StreamRowsSplitsInOrderWithTheColumnsFirst) {
  protocol::RunSkillResult result;
  result.columns = {{"n", ValueType::kInt, ""}};
  for (int64_t i = 0; i < 5; ++i) result.rows.push_back({i});
  result.notes = {"note"};
  const auto parts = wire::StreamRows(result, 2);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].columns, result.columns);
  EXPECT_FALSE(parts[1].columns);
  EXPECT_EQ(parts[0].rows, (std::vector<std::vector<protocol::Scalar>>{{int64_t{0}}, {int64_t{1}}}));
  EXPECT_EQ(parts[2].rows, (std::vector<std::vector<protocol::Scalar>>{{int64_t{4}}}));
  EXPECT_TRUE(result.rows.empty());
  EXPECT_EQ(result.streamed_rows, 5);
  EXPECT_EQ(result.notes, std::vector<std::string>{"note"});
  EXPECT_EQ(protocol::Json(result)["streamedRows"], 5);
}

TEST(SkillArgs, ListingPutsTheCommonArgsWhereEachFaceWantsThem) {
  const auto separate = wire::ToListSkillsResult({}, wire::CommonArgs::kSeparate);
  ASSERT_TRUE(separate.common_args);
  std::vector<std::string> names;
  for (const auto& arg : *separate.common_args) names.push_back(arg.name);
  EXPECT_EQ(names, (std::vector<std::string>{"device", "pid", "start", "end", "clock"}));
  EXPECT_EQ(separate.common_args->back().choices, (std::vector<std::string>{"relative_s", "capture_ns"}));
  EXPECT_FALSE(wire::ToListSkillsResult({}, wire::CommonArgs::kOmitted).common_args);
}

TEST(SkillArgs, ToolArgsWithoutASkillPassThrough) {
  const auto args = wire::ToolSkillArgs({{"limit", std::string("5")}, {"start", 1.0}}, nullptr);
  ASSERT_TRUE(args.ok());
  EXPECT_EQ(args->at("limit"), Value(std::string("5")));  // no spec: the runner's "unknown skill" comes next
  EXPECT_EQ(args->at("start"), Value(1.0));
}

}  // namespace
}  // namespace nsys::testing
