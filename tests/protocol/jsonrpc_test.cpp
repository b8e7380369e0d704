#include "nsys/protocol/jsonrpc.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>
#include <vector>

#include "jsonrpc_test_util.h"

namespace nsys::protocol {
namespace {

using ::nsys::protocol::testing::Err;
using ::nsys::protocol::testing::ErrorOf;

TEST(JsonRpcTest, ErrorCodesHaveTheirSpecValues) {
  EXPECT_EQ(kParseError, -32700);
  EXPECT_EQ(kInvalidRequest, -32600);
  EXPECT_EQ(kMethodNotFound, -32601);
  EXPECT_EQ(kInvalidParams, -32602);
  EXPECT_EQ(kInternalError, -32603);
  EXPECT_EQ(kServerNotInitialized, -32002);
  EXPECT_EQ(kUnknownErrorCode, -32001);
  EXPECT_EQ(kRequestFailed, -32803);
  EXPECT_EQ(kServerCancelled, -32802);
  EXPECT_EQ(kContentModified, -32801);
  EXPECT_EQ(kRequestCancelled, -32800);
}

TEST(JsonRpcTest, EveryErrorCodeSerializesAsAnErrorResponse) {
  for (int code : {kParseError, kInvalidRequest, kMethodNotFound, kInvalidParams, kInternalError, kServerNotInitialized,
                   kRequestCancelled, kRequestFailed}) {
    const std::string text = Serialize(MakeError(int64_t{9}, code, "why"));
    EXPECT_EQ(text, Err("9", code, "why"));
    // And it parses back as the same response.
    const ParseResult back = ParseMessage(text);
    ASSERT_TRUE(back.message) << text;
    const auto& response = std::get<Response>(*back.message);
    ASSERT_TRUE(response.error);
    EXPECT_EQ(response.error->code, code);
    EXPECT_EQ(response.error->message, "why");
    EXPECT_EQ(std::get<int64_t>(response.id), 9);
  }
  EXPECT_EQ(
      Serialize(MakeError("a", kInvalidParams, "bad", Json{{"field", "x"}})),
      "{\"error\":{\"code\":-32602,\"data\":{\"field\":\"x\"},\"message\":\"bad\"},\"id\":\"a\",\"jsonrpc\":\"2.0\"}");
}

TEST(JsonRpcTest, ParsesRequestsWithIntegerAndStringIds) {
  ParseResult r = ParseMessage(R"({"jsonrpc":"2.0","id":7,"method":"nsys/openProfile","params":{"path":"/x"}})");
  ASSERT_TRUE(r.message);
  const auto& request = std::get<Request>(*r.message);
  EXPECT_EQ(std::get<int64_t>(request.id), 7);
  EXPECT_EQ(request.method, "nsys/openProfile");
  EXPECT_EQ(request.params, Json({{"path", "/x"}}));

  r = ParseMessage(R"({"jsonrpc":"2.0","id":"req-1","method":"shutdown"})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(std::get<std::string>(std::get<Request>(*r.message).id), "req-1");
  EXPECT_TRUE(std::get<Request>(*r.message).params.is_null());

  r = ParseMessage(R"({"jsonrpc":"2.0","id":-3,"method":"m","params":[1,2]})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(std::get<int64_t>(std::get<Request>(*r.message).id), -3);
  EXPECT_EQ(std::get<Request>(*r.message).params, Json::array({1, 2}));

  r = ParseMessage(R"({"jsonrpc":"2.0","id":9223372036854775807,"method":"m"})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(std::get<int64_t>(std::get<Request>(*r.message).id), INT64_MAX);
}

TEST(JsonRpcTest, ParsesNotifications) {
  const ParseResult r = ParseMessage(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":4}})");
  ASSERT_TRUE(r.message);
  const auto& n = std::get<Notification>(*r.message);
  EXPECT_EQ(n.method, "$/cancelRequest");
  EXPECT_EQ(n.params, Json({{"id", 4}}));
}

TEST(JsonRpcTest, ANotificationWithAnIdIsARequest) {
  // "initialized" is a notification in LSP, but with an id the client expects a reply: treat it as a request.
  const ParseResult r = ParseMessage(R"({"jsonrpc":"2.0","id":3,"method":"initialized","params":{}})");
  ASSERT_TRUE(r.message);
  ASSERT_TRUE(std::holds_alternative<Request>(*r.message));
  EXPECT_EQ(std::get<int64_t>(std::get<Request>(*r.message).id), 3);
}

TEST(JsonRpcTest, ParsesResponsesToTheServersOwnRequests) {
  ParseResult r = ParseMessage(R"({"jsonrpc":"2.0","id":"progress-1","result":null})");
  ASSERT_TRUE(r.message);
  const auto& ok = std::get<Response>(*r.message);
  EXPECT_EQ(std::get<std::string>(ok.id), "progress-1");
  ASSERT_TRUE(ok.result);
  EXPECT_TRUE(ok.result->is_null());
  EXPECT_FALSE(ok.error);

  r = ParseMessage(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope","data":[1]}})");
  ASSERT_TRUE(r.message);
  const auto& failed = std::get<Response>(*r.message);
  ASSERT_TRUE(failed.error);
  EXPECT_EQ(failed.error->code, -32601);
  EXPECT_EQ(failed.error->message, "nope");
  EXPECT_EQ(failed.error->data, Json::array({1}));
  EXPECT_FALSE(failed.result);

  // An error response to something the peer could not parse has a null id.
  r = ParseMessage(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}})");
  ASSERT_TRUE(r.message);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(std::get<Response>(*r.message).id));
}

TEST(JsonRpcTest, MalformedResponsesAreInvalidRequests) {
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","result":1})"), Err("null", -32600, "response has no \"id\""));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})"),
            Err("1", -32600, "response has both \"result\" and \"error\""));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":null,"result":1})"),
            Err("null", -32600, "a successful response must have a non-null \"id\""));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"error":"boom"})"),
            Err("1", -32600, "\"error\" must be an object, not a string"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}})"),
            Err("1", -32600, "\"error.code\" must be an integer"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"error":{"code":1}})"),
            Err("1", -32600, "\"error.message\" must be a string"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1,"error":{"code":99999999999,"message":"m"}})"),
            Err("1", -32600, "\"error.code\" is out of range"));
}

TEST(JsonRpcTest, InvalidUtf8IsAParseErrorNamingTheOffset) {
  EXPECT_EQ(ErrorOf("{\"jsonrpc\":\"2.0\",\"method\":\"m\xFF\"}"),
            Err("null", -32700, "invalid UTF-8 in message body at byte offset 28"));
  // Overlong encoding of '/', a UTF-16 surrogate, a code point past U+10FFFF, a truncated sequence.
  EXPECT_EQ(ErrorOf("[\"\xC0\xAF\"]"), Err("null", -32700, "invalid UTF-8 in message body at byte offset 2"));
  EXPECT_EQ(ErrorOf("[\"\xED\xA0\x80\"]"), Err("null", -32700, "invalid UTF-8 in message body at byte offset 2"));
  EXPECT_EQ(ErrorOf("[\"\xF4\x90\x80\x80\"]"), Err("null", -32700, "invalid UTF-8 in message body at byte offset 2"));
  EXPECT_EQ(ErrorOf("[\"\xE2\x82"), Err("null", -32700, "invalid UTF-8 in message body at byte offset 2"));
  // Outside a string too (nlohmann would call this a syntax error).
  EXPECT_EQ(ErrorOf("\xFE{}"), Err("null", -32700, "invalid UTF-8 in message body at byte offset 0"));
}

TEST(JsonRpcTest, ValidMultiByteUtf8Parses) {
  const ParseResult r = ParseMessage("{\"jsonrpc\":\"2.0\",\"method\":\"h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x9A\x80\"}");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(std::get<Notification>(*r.message).method, "h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x9A\x80");
}

TEST(JsonRpcTest, InvalidJsonIsAParseError) {
  const ParseResult r = ParseMessage(R"({"jsonrpc":"2.0",)");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->error->code, -32700);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.error->id));
  EXPECT_EQ(r.error->error->message.rfind("invalid JSON: parse error at line 1, column 18", 0), 0u)
      << r.error->error->message;
  EXPECT_EQ(ParseMessage("").error->error->code, -32700);
  EXPECT_EQ(ParseMessage("{} trailing").error->error->code, -32700);
  // An escaped lone surrogate is valid UTF-8 text but not valid JSON.
  EXPECT_EQ(ParseMessage(R"(["\ud800"])").error->error->code, -32700);
}

TEST(JsonRpcTest, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(ErrorOf(deep), Err("null", -32700, "JSON nesting deeper than 512 levels"));
  // Brackets inside strings do not count.
  const std::string in_string = "{\"jsonrpc\":\"2.0\",\"method\":\"" + std::string(1000, '[') + "\"}";
  EXPECT_TRUE(ParseMessage(in_string).message);
}

TEST(JsonRpcTest, BatchesAreNotSupported) {
  EXPECT_EQ(ErrorOf(R"([{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}])"),
            Err("null", -32600, "batch requests are not supported"));
  EXPECT_EQ(ErrorOf("[]"), Err("null", -32600, "batch requests are not supported"));
}

TEST(JsonRpcTest, NonObjectsAreInvalidRequests) {
  EXPECT_EQ(ErrorOf("42"), Err("null", -32600, "message must be a JSON object, not an integer"));
  EXPECT_EQ(ErrorOf("\"hi\""), Err("null", -32600, "message must be a JSON object, not a string"));
  EXPECT_EQ(ErrorOf("null"), Err("null", -32600, "message must be a JSON object, not null"));
}

TEST(JsonRpcTest, JsonrpcMemberMustBe2Point0) {
  EXPECT_EQ(ErrorOf(R"({"id":1,"method":"m"})"), Err("1", -32600, "missing \"jsonrpc\" member (must be \"2.0\")"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"1.0","id":1,"method":"m"})"),
            Err("1", -32600, "\"jsonrpc\" must be \"2.0\", got \"1.0\""));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":2.0,"method":"m"})"), Err("null", -32600, "\"jsonrpc\" must be \"2.0\", got 2.0"));
}

TEST(JsonRpcTest, MethodMustBeAString) {
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":"x","method":5})"),
            Err("\"x\"", -32600, "\"method\" must be a string, not an integer"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","method":null})"),
            Err("null", -32600, "\"method\" must be a string, not null"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1})"),
            Err("1", -32600, "message has no \"method\" (and is not a response: no \"result\" or \"error\")"));
}

TEST(JsonRpcTest, BadIdsAreInvalidRequestsWithANullId) {
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1.5,"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not a floating-point number"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1.0,"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not a floating-point number"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":{"a":1},"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not an object"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":true,"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not a boolean"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":[1],"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not an array"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":null,"method":"m"})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not null"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"m"})"),
            Err("null", -32600, "\"id\" is out of range: it must fit a signed 64-bit integer"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":1.5,"result":1})"),
            Err("null", -32600, "\"id\" must be an integer or a string, not a floating-point number"));
}

TEST(JsonRpcTest, ParamsMustBeStructured) {
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","id":4,"method":"m","params":"x"})"),
            Err("4", -32600, "\"params\" must be an object or an array, not a string"));
  EXPECT_EQ(ErrorOf(R"({"jsonrpc":"2.0","method":"m","params":3})"),
            Err("null", -32600, "\"params\" must be an object or an array, not an integer"));
  // Explicit null params are the same as absent ones.
  const ParseResult r = ParseMessage(R"({"jsonrpc":"2.0","method":"m","params":null})");
  ASSERT_TRUE(r.message);
  EXPECT_TRUE(std::get<Notification>(*r.message).params.is_null());
}

TEST(JsonRpcTest, SerializesEveryKindExactly) {
  EXPECT_EQ(Serialize(Request{int64_t{1}, "initialize", Json{{"processId", nullptr}}}),
            R"({"id":1,"jsonrpc":"2.0","method":"initialize","params":{"processId":null}})");
  EXPECT_EQ(Serialize(Request{std::string("t"), "shutdown", nullptr}),
            R"({"id":"t","jsonrpc":"2.0","method":"shutdown"})");
  EXPECT_EQ(Serialize(Notification{"exit", nullptr}), R"({"jsonrpc":"2.0","method":"exit"})");
  EXPECT_EQ(Serialize(MakeResult(int64_t{2}, nullptr)), R"({"id":2,"jsonrpc":"2.0","result":null})");
  EXPECT_EQ(Serialize(MakeResult(std::string("x"), Json{{"a", 1}})), R"({"id":"x","jsonrpc":"2.0","result":{"a":1}})");
  EXPECT_EQ(Serialize(MakeError({}, kParseError, "bad")), Err("null", -32700, "bad"));
}

TEST(JsonRpcTest, SerializeReplacesInvalidUtf8InsteadOfThrowing) {
  const std::string text = Serialize(Notification{"window/logMessage", Json{{"message", "bad \xFF byte"}}});
  EXPECT_EQ(
      text,
      "{\"jsonrpc\":\"2.0\",\"method\":\"window/logMessage\",\"params\":{\"message\":\"bad \xEF\xBF\xBD byte\"}}");
}

TEST(JsonRpcTest, ParseThenSerializeRoundTrips) {
  for (const char* text :
       {R"({"id":1,"jsonrpc":"2.0","method":"a","params":{"x":[1,"2",null]}})",
        R"({"jsonrpc":"2.0","method":"b","params":[]})", R"({"id":"s","jsonrpc":"2.0","result":false})",
        R"({"error":{"code":-32800,"message":"cancelled"},"id":5,"jsonrpc":"2.0"})"}) {
    const ParseResult r = ParseMessage(text);
    ASSERT_TRUE(r.message) << text;
    EXPECT_EQ(Serialize(*r.message), text);
  }
}

TEST(JsonRpcTest, IdToStringForLogs) {
  EXPECT_EQ(IdToString(int64_t{7}), "7");
  EXPECT_EQ(IdToString(std::string("abc")), "\"abc\"");
  EXPECT_EQ(IdToString(RequestId{}), "null");
}

TEST(JsonRpcTest, UnknownMembersAreIgnored) {
  const ParseResult r = ParseMessage(R"({"jsonrpc":"2.0","id":1,"method":"m","extra":{"deep":[1]}})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(std::get<Request>(*r.message).method, "m");
}

TEST(JsonRpcTest, MutatedMessagesNeverThrowAndGetExactlyOneOutcome) {
  const std::vector<std::string> seeds = {
      R"({"jsonrpc":"2.0","id":1,"method":"nsys/runSkill","params":{"profileId":"p1","args":{"limit":5}}})",
      R"({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"m","data":null}})",
      R"({"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":{"kind":"end"}}})"};
  std::mt19937 rng(99);
  for (int trial = 0; trial < 5000; ++trial) {
    std::string text = seeds[rng() % seeds.size()];
    for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0 && !text.empty(); --edits) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = static_cast<char>(rng() % 256);
          break;
        case 1:
          text.erase(at, 1 + rng() % 4);
          break;
        default:
          text.insert(at, 1, "{}[]\",:0.\xC3"[rng() % 10]);
      }
    }
    ParseResult r;
    ASSERT_NO_THROW(r = ParseMessage(text)) << text;
    EXPECT_NE(r.message.has_value(), r.error.has_value()) << text;
    if (r.error) {
      EXPECT_TRUE(r.error->error.has_value());
      EXPECT_NO_THROW((void)Serialize(*r.error));
    } else {
      EXPECT_NO_THROW((void)Serialize(*r.message));
    }
  }
}

}  // namespace
}  // namespace nsys::protocol
