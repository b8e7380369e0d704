#include "nsys/wire/skill_args.h"

#include <gtest/gtest.h>

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

TEST(SkillArgs, FilterBecomesTheCommonArgs) {
  skills::Args args = {{"limit", int64_t{5}}};
  ASSERT_TRUE(wire::FilterToSkillArgs(DeviceWindow(), args).ok());
  EXPECT_EQ(args, (skills::Args{{"limit", int64_t{5}},
                                {"device", int64_t{1}},
                                {"pid", int64_t{4242}},
                                {"start", 0.25},
                                {"end", 0.5},
                                {"clock", std::string("capture_ns")}}));

  skills::Args whole;  // empty members mean "all": nothing to add
  protocol::Filter empty;
  empty.devices = std::vector<int32_t>{};
  empty.threads = std::vector<int64_t>{};
  ASSERT_TRUE(wire::FilterToSkillArgs(empty, whole).ok());
  EXPECT_TRUE(whole.empty());
}

TEST(SkillArgs, FilterSetsSkillsCannotTakeAreRefusedByName) {
  skills::Args args;
  protocol::Filter two_devices;
  two_devices.devices = std::vector<int32_t>{0, 1};
  auto status = wire::FilterToSkillArgs(two_devices, args);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kUnsupported);
  EXPECT_EQ(status.error().message, "params.filter.devices: skills take at most one device for now");

  protocol::Filter threads;
  threads.threads = std::vector<int64_t>{77};
  status = wire::FilterToSkillArgs(threads, args);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kUnsupported);
  EXPECT_EQ(status.error().message, "params.filter.threads: skills cannot filter by thread yet");

  skills::Args both = {{"device", int64_t{0}}};
  status = wire::FilterToSkillArgs(DeviceWindow(), both);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(status.error().message, "params.filter.devices and params.args.device both given: use one of them");
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
