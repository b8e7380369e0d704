#include "nsys/wire/converters.h"

#include <gtest/gtest.h>

#include "nsys/protocol/jsonrpc.h"

namespace nsys::testing {
namespace {

TEST(Converters, ErrorKindsMapToJsonRpcCodes) {
  EXPECT_EQ(wire::ErrorCodeFor(ErrorKind::kInvalidArgument), -32602);
  EXPECT_EQ(wire::ErrorCodeFor(ErrorKind::kNotFound), -32602);
  EXPECT_EQ(wire::ErrorCodeFor(ErrorKind::kBadInput), -32803);
  EXPECT_EQ(wire::ErrorCodeFor(ErrorKind::kUnsupported), -32803);
  EXPECT_EQ(wire::ErrorCodeFor(ErrorKind::kCancelled), -32800);
  EXPECT_EQ(wire::ErrorCodeFor(ErrorKind::kInternal), -32603);
  const auto error = wire::ToResponseError(MakeError(ErrorKind::kNotFound, "no such file: /x.sqlite"));
  EXPECT_EQ(error.code, -32602);
  EXPECT_EQ(error.message, "no such file: /x.sqlite");
}

TEST(Converters, RunSkillResultKeepsTypesAndNotes) {
  skills::Table table;
  table.columns = {{"name", ValueType::kString, "kernel"},
                   {"total_time_ns", ValueType::kInt, ""},
                   {"time_pct", ValueType::kDouble, ""},
                   {"nccl", ValueType::kBool, ""}};
  table.rows = {{std::string("k1"), int64_t{42}, 12.5, true}, {Value{}, int64_t{-1}, 0.0, false}};
  table.notes = {"Window: whole profile."};
  const protocol::Json json = wire::ToRunSkillResult(table);
  EXPECT_EQ(json["columns"][0], (protocol::Json{{"name", "name"}, {"type", "string"}, {"description", "kernel"}}));
  EXPECT_EQ(json["columns"][1]["type"], "int");
  EXPECT_EQ(json["columns"][2]["type"], "double");
  EXPECT_EQ(json["columns"][3]["type"], "bool");
  EXPECT_EQ(json["rows"], protocol::Json::parse(R"([["k1",42,12.5,true],[null,-1,0.0,false]])"));
  EXPECT_EQ(json["notes"][0], "Window: whole profile.");
  EXPECT_EQ(json["declined"], false);
}

// listSkills/describe show the ArgSpec's bounds: an int argument's as integers, written only when set.
TEST(Converters, DescribeArgCarriesBounds) {
  const skills::ArgSpec limit = skills::LimitArg(10, "rows");
  protocol::Json j = wire::DescribeArg(limit);
  EXPECT_EQ(j.at("min").dump(), "0");
  EXPECT_FALSE(j.contains("max"));
  skills::ArgSpec ratio{"ratio", ValueType::kDouble, "r", Value(0.5), false, {}, 0.0, 2.5};
  j = wire::DescribeArg(ratio);
  EXPECT_EQ(j.at("min").dump(), "0.0");
  EXPECT_EQ(j.at("max").dump(), "2.5");
  EXPECT_EQ(protocol::Parse<protocol::ArgDescription>(j)->max, 2.5);
  skills::ArgSpec plain{"name", ValueType::kString, "n", Value()};
  j = wire::DescribeArg(plain);
  EXPECT_FALSE(j.contains("min") || j.contains("max"));
}

}  // namespace
}  // namespace nsys::testing
