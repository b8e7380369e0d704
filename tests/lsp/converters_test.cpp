#include "nsys/lsp/converters.h"

#include <gtest/gtest.h>

#include "nsys/lsp/handlers.h"
#include "nsys/lsp/session.h"

namespace nsys::testing {
namespace {

TEST(Converters, ErrorKindsMapToJsonRpcCodes) {
  EXPECT_EQ(lsp::ErrorCodeFor(ErrorKind::kInvalidArgument), -32602);
  EXPECT_EQ(lsp::ErrorCodeFor(ErrorKind::kNotFound), -32602);
  EXPECT_EQ(lsp::ErrorCodeFor(ErrorKind::kBadInput), -32803);
  EXPECT_EQ(lsp::ErrorCodeFor(ErrorKind::kUnsupported), -32803);
  EXPECT_EQ(lsp::ErrorCodeFor(ErrorKind::kCancelled), -32800);
  EXPECT_EQ(lsp::ErrorCodeFor(ErrorKind::kInternal), -32603);
  const auto error = lsp::ToResponseError(MakeError(ErrorKind::kNotFound, "no such file: /x.sqlite"));
  EXPECT_EQ(error.code, -32602);
  EXPECT_EQ(error.message, "no such file: /x.sqlite");
}

TEST(Converters, RunSkillResultKeepsTypesAndNotes) {
  skills::Table table;
  table.columns = {{"name", skills::ColumnType::kString, "kernel"},
                   {"total_time_ns", skills::ColumnType::kInt, ""},
                   {"time_pct", skills::ColumnType::kDouble, ""},
                   {"nccl", skills::ColumnType::kBool, ""}};
  table.rows = {{std::string("k1"), int64_t{42}, 12.5, true}, {Value{}, int64_t{-1}, 0.0, false}};
  table.notes = {"Window: whole profile."};
  const protocol::Json json = lsp::ToRunSkillResult(table);
  EXPECT_EQ(json["columns"][0], (protocol::Json{{"name", "name"}, {"type", "string"}, {"description", "kernel"}}));
  EXPECT_EQ(json["columns"][1]["type"], "int");
  EXPECT_EQ(json["columns"][2]["type"], "double");
  EXPECT_EQ(json["columns"][3]["type"], "bool");
  EXPECT_EQ(json["rows"], protocol::Json::parse(R"([["k1",42,12.5,true],[null,-1,0.0,false]])"));
  EXPECT_EQ(json["notes"][0], "Window: whole profile.");
  EXPECT_EQ(json["declined"], false);
}

TEST(Converters, ClientPathsAcceptFileUris) {
  EXPECT_EQ(lsp::PathFromClient("/data/a.sqlite"), "/data/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("rel/a.sqlite"), "rel/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file:///data/my%20run.sqlite"), "/data/my run.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file://localhost/data/a.sqlite"), "/data/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file:///bad%zzescape"), "/bad%zzescape");
}

TEST(Converters, FramingErrorsMapToParseErrorOrInvalidRequest) {
  EXPECT_EQ(lsp::FramingErrorCode("body of 2147483648 bytes exceeds the limit of 268435456 bytes; skipping it"),
            -32600);
  EXPECT_EQ(lsp::FramingErrorCode("header block exceeds 8192 bytes"), -32600);
  EXPECT_EQ(lsp::FramingErrorCode("missing Content-Length header"), -32700);
}

}  // namespace
}  // namespace nsys::testing
