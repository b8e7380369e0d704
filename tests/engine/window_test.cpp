#include "nsys/engine/window.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::testing::HasSubstr;

// h100_2gpu_1s's range (see ProfileInfo.H100).
ProfileInfo H100Info() {
  ProfileInfo info;
  info.start_ns = 155357525002;
  info.end_ns = 156326972607;
  return info;
}

WindowSpec Seconds(std::optional<double> a, std::optional<double> b) {
  WindowSpec s;
  s.clock = WindowSpec::Clock::kRelativeSeconds;
  s.start = a;
  s.end = b;
  return s;
}

WindowSpec Capture(std::optional<double> a, std::optional<double> b) {
  WindowSpec s;
  s.clock = WindowSpec::Clock::kCaptureNs;
  s.start = a;
  s.end = b;
  return s;
}

TEST(Window, WholeProfile) {
  auto w = ResolveWindow(H100Info(), WindowSpec{});
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(w->whole);
  EXPECT_EQ(w->begin, 155357525002);
  EXPECT_EQ(w->end, 156326972608);  // exclusive, so an event starting at end_ns is inside
  EXPECT_EQ(w->description, "whole profile");
}

TEST(Window, SecondsFromStart) {
  auto w = ResolveWindow(H100Info(), Seconds(0.25, 0.5));
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_FALSE(w->whole);
  EXPECT_EQ(w->begin, 155357525002 + 250000000);
  EXPECT_EQ(w->end, 155357525002 + 500000000);
  EXPECT_EQ(w->description, "0.250 s to 0.500 s from profile start (capture clock 155607525002 to 155857525002 ns)");
}

TEST(Window, OpenEnded) {
  auto w = ResolveWindow(H100Info(), Seconds(0.9, std::nullopt));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->begin, 155357525002 + 900000000);
  EXPECT_EQ(w->end, 156326972608);
  auto v = ResolveWindow(H100Info(), Seconds(std::nullopt, 0.001));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->begin, 155357525002);
  EXPECT_EQ(v->end, 155358525002);
}

TEST(Window, CaptureClock) {
  auto w = ResolveWindow(H100Info(), Capture(155600000000.0, 155700000000.0));
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->begin, 155600000000);
  EXPECT_EQ(w->end, 155700000000);
  EXPECT_THAT(w->description, HasSubstr("capture clock 155600000000 to 155700000000 ns"));
  EXPECT_THAT(w->description, HasSubstr("0.242474998 s to 0.342474998 s from profile start"));
}

TEST(Window, PartlyOutsideIsKept) {
  auto w = ResolveWindow(H100Info(), Seconds(-1.0, 0.1));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->begin, 155357525002 - 1000000000);
}

TEST(Window, EndBeforeStart) {
  auto w = ResolveWindow(H100Info(), Seconds(0.5, 0.25));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(w.error().message, HasSubstr("end must come after its start"));
  EXPECT_FALSE(ResolveWindow(H100Info(), Seconds(0.5, 0.5)).ok());
}

TEST(Window, EntirelyOutsideNamesTheRangeInBothClocks) {
  auto w = ResolveWindow(H100Info(), Seconds(5.0, 6.0));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(w.error().message, HasSubstr("lies entirely outside the profile"));
  EXPECT_THAT(w.error().message, HasSubstr("from 155357525002 to 156326972607 ns on the capture clock"));
  EXPECT_THAT(w.error().message, HasSubstr("0 s to 0.969447605 s from its start"));
  // The classic mistake: capture-clock values given as ns from the start.
  auto c = ResolveWindow(H100Info(), Capture(0, 500000000));
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("absolute ns, not ns from the start"));
  // Before the start, too.
  EXPECT_FALSE(ResolveWindow(H100Info(), Seconds(-2.0, -1.0)).ok());
}

TEST(Window, NonFiniteBound) {
  auto w = ResolveWindow(H100Info(), Seconds(0.0, std::numeric_limits<double>::infinity()));
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.error().message, HasSubstr("out of range"));
}

TEST(Window, StartRangeFindsRows) {
  KernelTable k;
  k.start = {10, 20, 20, 30, 40};
  k.end = {15, 25, 26, 35, 45};
  auto [a, b] = StartRange(k, 20, 40);
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, 4u);
  Filter f;
  f.window.begin = 20;
  f.window.end = 40;
  f.devices = {1};
  EXPECT_TRUE(f.Accepts(20, 1, 7));
  EXPECT_FALSE(f.Accepts(40, 1, 7));
  EXPECT_FALSE(f.Accepts(25, 0, 7));
}

// Each set: empty accepts everything, otherwise exactly its members.
TEST(Window, FilterSetsAcceptTheirMembers) {
  Filter f;
  f.window.begin = 0;
  f.window.end = 100;
  EXPECT_TRUE(f.Accepts(5, 3, 99) && f.AcceptsThread(1, 12345));
  f.devices = {0, 2};
  f.processes = {7};
  f.threads = {(uint64_t{7} << 24) | 8};
  EXPECT_TRUE(f.Accepts(5, 2, 7));
  EXPECT_FALSE(f.Accepts(5, 1, 7));
  EXPECT_FALSE(f.Accepts(5, 0, 8));
  EXPECT_TRUE(f.AcceptsThread(7, 8));
  EXPECT_FALSE(f.AcceptsThread(7, 9));
  EXPECT_FALSE(f.AcceptsThread(8, 8));
  f.threads = {(uint64_t{1} << 56) | (uint64_t{7} << 24) | 8};  // a hardware id in the high bits is masked
  EXPECT_TRUE(f.AcceptsThread(7, 8));
}

TEST(Window, ResolveFilterChecksDevicesAndProcesses) {
  ProfileInfo info = H100Info();
  info.devices.resize(2);
  info.devices[0].id = 0;
  info.devices[1].id = 1;
  FilterSpec spec;
  spec.devices = {0, 1};
  auto ok = ResolveFilter(info, spec);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->devices, (std::vector<int32_t>{0, 1}));
  EXPECT_TRUE(ok->window.whole);
  spec.devices = {0, 5};
  auto bad = ResolveFilter(info, spec);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(bad.error().message, HasSubstr("Device 5 does not exist in this profile; its devices are 0, 1."));
}

}  // namespace
}  // namespace nsys::engine
