// ParseJsonText and ParseMessage on the inputs that used to escape as exceptions (numbers past a double's range) and
// on repeated member names.
#include "nsys/protocol/json_parse.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "jsonrpc_test_util.h"
#include "nsys/protocol/jsonrpc.h"

namespace nsys::protocol {
namespace {

using ::nsys::protocol::testing::Err;
using ::nsys::protocol::testing::ErrorOf;

TEST(JsonParseTest, NumbersPastADoubleAreParseErrorsNotExceptions) {
  // nlohmann throws out_of_range.406 for these from its DOM parser; before the fix the exception ended the process.
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1e400,"method":"initialize"})"),
            Err("null", -32700, "invalid JSON: number overflow parsing '1e400'"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"method":"nsys/openProfile","params":{"path":"/x","n":-1e400}})"),
            Err("null", -32700, "invalid JSON: number overflow parsing '-1e400'"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[{"b":[1,2,1E+999]}]}})"),
            Err("null", -32700, "invalid JSON: number overflow parsing '1E+999'"));
  // A 400-digit integer overflows every integer type and then the double too.
  const std::string digits = "1" + std::string(400, '0');
  EXPECT_EQ(ParseMessage(R"({"jsonrpc":"2.0","id":)" + digits + R"(,"method":"m"})").error->error->code, -32700);
  EXPECT_EQ(ParseMessage("1e400").error->error->code, -32700);
  // Tiny numbers underflow to 0 (or a subnormal), which is a value, not an error.
  const ParseResult tiny = ParseMessage(R"({"jsonrpc":"2.0","method":"m","params":{"x":1e-400}})");
  ASSERT_TRUE(tiny.message);
  EXPECT_EQ(std::get<Notification>(*tiny.message).params["x"].get<double>(), 0.0);
}

TEST(JsonParseTest, TheLargestDoublesAreValues) {
  const ParseResult r =
      ParseMessage(R"({"jsonrpc":"2.0","id":3,"method":"m","params":{"a":1e308,"b":-1.7976931348623157e308}})");
  ASSERT_TRUE(r.message) << Serialize(*r.error);
  const auto& request = std::get<Request>(*r.message);
  EXPECT_EQ(request.params["a"].get<double>(), 1e308);
  EXPECT_EQ(request.params["b"].get<double>(), -1.7976931348623157e308);
  // A float id is still refused as an id, with the JSON-RPC error, not a crash.
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1e308,"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not a floating-point number"));
}

TEST(JsonParseTest, DuplicateMembersAreReportedWithTheirPath) {
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":4,"method":"shutdown","method":"exit"})"),
            Err("4", -32600, "duplicate member 'method'"));
  // Which of two ids the client meant is unknowable: id null.
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"m"})"), Err("null", -32600, "duplicate member 'id'"));
  // Nested objects too (a proxy keeping the first "path" and this server the last would disagree about the file).
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":"a","method":"nsys/openProfile","params":{"path":"/a","path":"/b"}})"),
            Err("\"a\"", -32600, "duplicate member 'params.path'"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":5,"method":"m","params":{"w":[{},{"x":1,"y":{"z":0,"z":1}}]}})"),
            Err("5", -32600, "duplicate member 'params.w[1].y.z'"));
  // The same name in sibling objects, or a name repeated as a value, is no duplicate.
  const ParseResult ok = ParseMessage(R"({"jsonrpc":"2.0","id":6,"method":"m","params":{"a":{"k":1},"b":{"k":"k"}}})");
  EXPECT_TRUE(ok.message);
  // A very long duplicate name is cut in the message.
  const std::string key(1000, 'k');
  const std::string error =
      ErrorOf(R"({"jsonrpc":"2.0","method":"m","params":{")" + key + R"(":1,")" + key + R"(":2}})");
  EXPECT_EQ(error, Err("null", -32600, "duplicate member 'params." + std::string(64, 'k') + "...'"));
}

TEST(JsonParseTest, ParseJsonTextGivesTheValueThePathAndNeverThrows) {
  ParsedJson parsed = ParseJsonText(R"([{"a":1},{"method":"x","method":"y"}])");
  EXPECT_TRUE(parsed.error.empty());
  EXPECT_EQ(parsed.duplicate, "[1].method");
  EXPECT_EQ(parsed.value[1]["method"], "y");  // the last one, as nlohmann's own parser keeps
  parsed = ParseJsonText(R"({"a":[1,2,{"b":null}],"c":"\u00e9"})");
  EXPECT_TRUE(parsed.error.empty());
  EXPECT_TRUE(parsed.duplicate.empty());
  EXPECT_EQ(parsed.value, Json::parse(R"({"a":[1,2,{"b":null}],"c":"é"})"));
  EXPECT_EQ(ParseJsonText("").error.rfind("invalid JSON: ", 0), 0u);
  EXPECT_EQ(ParseJsonText("[1e400]").error, "invalid JSON: number overflow parsing '1e400'");
  EXPECT_EQ(ParseJsonText(std::string(513, '[') + std::string(513, ']')).error, "JSON nesting deeper than 512 levels");
  EXPECT_TRUE(ParseJsonText(std::string(512, '[') + std::string(512, ']')).error.empty());
  EXPECT_EQ(ParseJsonText("\"\xff\"").error, "invalid UTF-8 in message body at byte offset 1");
}

TEST(JsonParseTest, OldKeysMoveToTheirNewNamesUnlessTheNewOneIsGiven) {
  const std::vector<std::pair<std::string, std::string>> run_id{{"runId", "jobId"}};
  EXPECT_EQ(WithOldKeysRenamed(Json{{"runId", "j1"}, {"skill", "x"}}, run_id), (Json{{"jobId", "j1"}, {"skill", "x"}}));
  EXPECT_EQ(WithOldKeysRenamed(Json{{"runId", "j1"}, {"jobId", "j2"}}, run_id),
            (Json{{"runId", "j1"}, {"jobId", "j2"}}));
  EXPECT_EQ(WithOldKeysRenamed(Json::array({1, 2}), run_id), Json::array({1, 2}));
  EXPECT_EQ(WithOldKeysRenamed(Json{{"profileId", "p1"}}, run_id), (Json{{"profileId", "p1"}}));
}

}  // namespace
}  // namespace nsys::protocol
