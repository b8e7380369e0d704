#include "nsys/wire/answer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nsys/protocol/answer.h"

namespace nsys::wire {
namespace {

TEST(WireAnswer, AFindingRoundTripsThroughJson) {
  agent::Finding f;
  f.root_cause = "launch_storm";
  f.title = "12,000 launches per second";
  f.severity = agent::Severity::kHigh;
  f.at_stake_ns = 41'000'000;
  f.skill = "kernel_launch_overhead";
  f.coverage = "whole profile";
  f.answer.summary = "Launches dominate.";
  f.answer.evidence.push_back(
      {{"top_kernels", {{"limit", Value{int64_t{3}}}}, {}}, "Top", {"name"}, {{std::string("k")}}});
  f.answer.evidence[0].call.filter.devices = {1};
  f.answer.confidence = agent::Confidence::kLow;
  f.answer.verify = "nsys-ai skill run top_kernels p.sqlite --device 1 --arg limit=3";
  const protocol::Finding wire = ToProtocolFinding(f);
  EXPECT_EQ(wire.severity, "high");
  EXPECT_EQ(wire.answer.confidence, "low");
  ASSERT_TRUE(wire.answer.evidence[0].call.filter);
  EXPECT_EQ(wire.answer.evidence[0].call.filter->devices, (std::vector<int32_t>{1}));
  EXPECT_FALSE(wire.answer.evidence[0].call.filter->window);
  EXPECT_NE(wire.answer.markdown.find("Launches dominate."), std::string::npos);
  const protocol::Json j = wire;
  EXPECT_EQ(j["atStakeNs"], 41'000'000);
  EXPECT_EQ(j["answer"]["evidence"][0]["call"]["args"]["limit"], 3);
  auto back = protocol::Parse<protocol::Finding>(j, "result");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, wire);
}

}  // namespace
}  // namespace nsys::wire
