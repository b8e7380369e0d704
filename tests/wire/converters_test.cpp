#include "nsys/wire/converters.h"

#include <gtest/gtest.h>

#include <string>

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

// An error message reaches a client bounded (4 KiB) and valid UTF-8, whatever it quoted.
TEST(Converters, ResponseErrorsAreBoundedValidUtf8) {
  const std::string message = "No such file: '/a\xFF" + std::string(1 << 20, 'x') + "'.";
  const protocol::ResponseError e = wire::ToResponseError(Error{ErrorKind::kNotFound, message});
  EXPECT_EQ(e.code, -32602);
  EXPECT_LT(e.message.size(), 4096u + 32);
  EXPECT_EQ(e.message.rfind("No such file: '/a\\xFFxxx", 0), 0u) << e.message.substr(0, 40);
  EXPECT_NE(e.message.find("\u2026 (" + std::to_string(message.size()) + " bytes)"), std::string::npos)
      << e.message.substr(4000);
  EXPECT_NO_THROW((void)protocol::Json(e.message).dump());
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
