// The real libcurl client against the stand-in provider (tests/llm/standin.py), in both wire formats: streaming,
// tool-call deltas split across chunks, retries, timeouts, garbage, cancellation, the cost gate and the key's rules.
#include "nsys/llm/client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "llm/standin.h"
#include "nsys/support/log.h"

namespace nsys::llm {
namespace {

using nlohmann::json;
using testing::Standin;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

ChatRequest Hello() {
  ChatRequest r;
  r.messages = {{Role::kSystem, "You answer questions about a profile."}, {Role::kUser, "Which kernel is slowest?"}};
  return r;
}

std::unique_ptr<Client> Make(const Config& c) {
  auto client = MakeClient(c);
  if (!client) throw std::runtime_error(client.error().message);
  return std::move(*client);
}

class BothProviders : public ::testing::TestWithParam<Provider> {};

INSTANTIATE_TEST_SUITE_P(Llm, BothProviders, ::testing::Values(Provider::kOpenAI, Provider::kAnthropic),
                         [](const auto& info) { return std::string(ProviderName(info.param)); });

TEST_P(BothProviders, StreamsTextInPiecesEvenWhenBytesArriveSplit) {
  Standin standin({{"responses",
                    {{{"text", {"The slow", "est is ", "gemm_128."}},
                      {"split_bytes", 7},
                      {"usage", {{"input", 123}, {"output", 45}}}}}}});
  auto client = Make(standin.Config(GetParam()));
  std::vector<std::string> pieces;
  auto r = client->Chat(Hello(), [&](std::string_view p) { pieces.emplace_back(p); }, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->text, "The slowest is gemm_128.");
  EXPECT_EQ(pieces, (std::vector<std::string>{"The slow", "est is ", "gemm_128."}));
  EXPECT_TRUE(r->tool_calls.empty());
  EXPECT_EQ(r->stop_reason, GetParam() == Provider::kOpenAI ? "stop" : "end_turn");
  EXPECT_EQ(r->input_tokens, 123);
  EXPECT_EQ(r->output_tokens, 45);

  auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), 1u);
  const json& req = requests[0];
  EXPECT_EQ(req["body"]["stream"], true);
  if (GetParam() == Provider::kOpenAI) {
    EXPECT_EQ(req["path"], "/v1/chat/completions");
    EXPECT_EQ(req["headers"]["authorization"], "Bearer sk-test-key-0123456789");
    EXPECT_EQ(req["body"]["model"], "gpt-standin");
    ASSERT_EQ(req["body"]["messages"].size(), 2u);
    EXPECT_EQ(req["body"]["messages"][0]["role"], "system");
    EXPECT_EQ(req["body"]["messages"][1]["content"], "Which kernel is slowest?");
  } else {
    EXPECT_EQ(req["path"], "/v1/messages");
    EXPECT_EQ(req["headers"]["x-api-key"], "sk-test-key-0123456789");
    EXPECT_EQ(req["headers"]["anthropic-version"], "2023-06-01");
    EXPECT_FALSE(req["headers"].contains("authorization"));
    EXPECT_EQ(req["body"]["system"], "You answer questions about a profile.");
    ASSERT_EQ(req["body"]["messages"].size(), 1u);  // the system message is not a message here
    EXPECT_EQ(req["body"]["messages"][0]["role"], "user");
    EXPECT_EQ(req["body"]["max_tokens"], 2048);
  }
}

TEST_P(BothProviders, AssemblesToolCallsWhoseArgumentsArriveInPieces) {
  Standin standin(
      {{"responses",
        {{{"text", {"Let me look."}},
          {"tool_calls",
           {{{"id", "call_a"}, {"name", "top_kernels"}, {"arguments", {"{\"li", "mit\": 3", ", \"dev", "ice\": 0}"}}},
            {{"id", "call_b"}, {"name", "gpu_idle_gaps"}, {"arguments", json::array()}}}},
          {"split_bytes", 5}}}}});
  auto client = Make(standin.Config(GetParam()));
  ChatRequest req = Hello();
  req.tools = {{"top_kernels",
                "Kernels by GPU time",
                {{"type", "object"}, {"properties", {{"limit", {{"type", "integer"}, {"minimum", 0}}}}}}},
               {"gpu_idle_gaps", "Idle gaps", {{"type", "object"}, {"properties", json::object()}}}};
  std::string streamed;
  auto r = client->Chat(req, [&](std::string_view p) { streamed += p; }, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(streamed, "Let me look.");  // tool arguments never reach the text sink
  ASSERT_EQ(r->tool_calls.size(), 2u);
  EXPECT_EQ(r->tool_calls[0].id, "call_a");
  EXPECT_EQ(r->tool_calls[0].name, "top_kernels");
  EXPECT_EQ(r->tool_calls[0].raw_arguments, "{\"limit\": 3, \"device\": 0}");
  EXPECT_EQ(r->tool_calls[0].arguments, (json{{"limit", 3}, {"device", 0}}));
  EXPECT_EQ(r->tool_calls[1].name, "gpu_idle_gaps");
  EXPECT_EQ(r->tool_calls[1].arguments, json::object());  // no arguments = {}
  EXPECT_EQ(r->stop_reason, GetParam() == Provider::kOpenAI ? "tool_calls" : "tool_use");

  const json body = standin.Requests().at(0)["body"];
  ASSERT_EQ(body["tools"].size(), 2u);
  if (GetParam() == Provider::kOpenAI) {
    EXPECT_EQ(body["tools"][0]["type"], "function");
    EXPECT_EQ(body["tools"][0]["function"]["name"], "top_kernels");
    EXPECT_EQ(body["tools"][0]["function"]["parameters"]["properties"]["limit"]["type"], "integer");
  } else {
    EXPECT_EQ(body["tools"][0]["name"], "top_kernels");
    EXPECT_EQ(body["tools"][0]["input_schema"]["properties"]["limit"]["minimum"], 0);
  }
}

TEST_P(BothProviders, SendsToolCallsAndResultsBackInTheProvidersShape) {
  Standin standin({{"responses", {{{"text", {"ok"}}}}}});
  auto client = Make(standin.Config(GetParam()));
  ChatRequest req = Hello();
  Message assistant{Role::kAssistant, "Checking."};
  assistant.tool_calls = {{"c1", "top_kernels", json{{"limit", 2}}, "{\"limit\":2}"}, {"c2", "nope", nullptr, "{bad"}};
  req.messages.push_back(assistant);
  req.messages.push_back({Role::kTool, "{\"rows\":[[\"gemm\",5]]}", {}, "c1"});
  Message failed{Role::kTool, "{\"error\":\"unknown tool 'nope'\"}", {}, "c2"};
  failed.tool_error = true;
  req.messages.push_back(failed);
  ASSERT_TRUE(client->Chat(req, {}, {}));
  const json messages = standin.Requests().at(0)["body"]["messages"];
  if (GetParam() == Provider::kOpenAI) {
    ASSERT_EQ(messages.size(), 5u);
    EXPECT_EQ(messages[2]["tool_calls"][0]["function"]["arguments"], "{\"limit\":2}");
    EXPECT_EQ(messages[2]["tool_calls"][1]["id"], "c2");
    EXPECT_EQ(messages[3]["role"], "tool");
    EXPECT_EQ(messages[3]["tool_call_id"], "c1");
    EXPECT_EQ(messages[4]["tool_call_id"], "c2");
  } else {
    ASSERT_EQ(messages.size(), 3u);  // user, assistant, one user message holding both results
    EXPECT_EQ(messages[1]["content"][1]["type"], "tool_use");
    EXPECT_EQ(messages[1]["content"][1]["input"], (json{{"limit", 2}}));
    EXPECT_EQ(messages[1]["content"][2]["input"], json::object());  // unparsable arguments go back as {}
    ASSERT_EQ(messages[2]["content"].size(), 2u);
    EXPECT_EQ(messages[2]["content"][0]["tool_use_id"], "c1");
    EXPECT_FALSE(messages[2]["content"][0].contains("is_error"));
    EXPECT_EQ(messages[2]["content"][1]["is_error"], true);
  }
}

TEST_P(BothProviders, RetriesA429AfterTheServersRetryAfter) {
  Standin standin({{"responses",
                    {{{"status", 429},
                      {"headers", {{"Retry-After", "1"}}},
                      {"body", {{"error", {{"message", "Rate limit reached"}, {"type", "rate_limit_error"}}}}}},
                     {{"text", {"fine now"}}}}}});
  auto client = Make(standin.Config(GetParam()));
  const auto start = Clock::now();
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->text, "fine now");
  EXPECT_GE(SecondsSince(start), 0.95);  // Retry-After: 1 beats the 20 ms backoff
  EXPECT_EQ(standin.Requests().size(), 2u);
}

TEST(LlmClient, RetryAfterIsCappedByMaxRetryDelay) {
  Standin standin(
      {{"responses",
        {{{"status", 503}, {"headers", {{"Retry-After", "3600"}}}, {"body", "overloaded"}}, {{"text", {"back"}}}}}});
  Config config = standin.Config(Provider::kOpenAI);
  config.max_retry_delay = std::chrono::milliseconds(200);
  auto client = Make(config);
  const auto start = Clock::now();
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_LT(SecondsSince(start), 3.0);
}

TEST_P(BothProviders, GivesUpAfterMaxRetriesNamingTheStatusAndTheProvidersMessage) {
  const json fail = {{"status", 500}, {"body", {{"error", {{"message", "upstream exploded"}}}}}};
  Standin standin({{"responses", {fail, fail, fail, {{"text", {"too late"}}}}}});
  Config config = standin.Config(GetParam());
  config.max_retries = 2;
  auto client = Make(config);
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInternal);
  EXPECT_NE(r.error().message.find("HTTP 500"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("upstream exploded"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("after 2 retries"), std::string::npos) << r.error().message;
  EXPECT_EQ(standin.Requests().size(), 3u);
}

TEST(LlmClient, NoRetryOnA400AndTheKindSaysWhy) {
  Standin standin({{"responses", {{{"status", 404}, {"body", {{"error", {{"message", "model not found"}}}}}}}}});
  auto client = Make(standin.Config(Provider::kOpenAI));
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(r.error().message.find("model not found"), std::string::npos);
  EXPECT_EQ(standin.Requests().size(), 1u);
}

TEST_P(BothProviders, ASlowServerTimesOut) {
  Standin standin({{"responses", {{{"delay_s", 5}, {"text", {"late"}}}}}});
  Config config = standin.Config(GetParam());
  config.timeout = std::chrono::milliseconds(600);
  auto client = Make(config);
  const auto start = Clock::now();
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded) << r.error().message;
  EXPECT_NE(r.error().message.find("timeout 600 ms"), std::string::npos) << r.error().message;
  EXPECT_LT(SecondsSince(start), 3.0);
}

// Issue 38, item 1: a tool call's arguments nested 400,000 deep (800 KB, under every size cap) went into a value that
// later code copied and dumped recursively until the server died. Arguments past the one parse's 512 levels are no
// object (the agent answers the model that they must be one), and a stream event past it is a clear error.
TEST_P(BothProviders, NestingPastTheLimitIsNeverAValue) {
  const std::string deep = "{\"limit\": " + std::string(400000, '[') + std::string(400000, ']') + "}";
  {
    Standin standin(
        {{"responses", {{{"tool_calls", {{{"id", "c1"}, {"name", "top_kernels"}, {"arguments", {deep}}}}}}}}});
    auto client = Make(standin.Config(GetParam()));
    auto r = client->Chat(Hello(), {}, {});
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->tool_calls.size(), 1u);
    EXPECT_TRUE(r->tool_calls[0].arguments.is_null());
    EXPECT_EQ(r->tool_calls[0].raw_arguments.size(), deep.size());
  }
  const std::string nested = std::string(400000, '[') + std::string(400000, ']');
  const std::string raw =
      GetParam() == Provider::kOpenAI
          ? "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": " + nested + "}}]}\n\n"
          : "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
            "{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"top_kernels\",\"input\":{\"a\":" +
                nested + "}}}\n\n";
  Standin standin({{"responses", {{{"raw", {raw}}}}}});
  auto client = Make(standin.Config(GetParam()));
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadInput);
  EXPECT_NE(r.error().message.find("JSON nesting deeper than 512 levels"), std::string::npos) << r.error().message;
}

// Issue 38, item 8: an error body is kept to 64 KiB and nothing past it is read. One that went on for minutes held the
// request until the total timeout (231 MB for one failed ask).
TEST(LlmClient, AnEndlessErrorBodyStopsAtWhatIsKept) {
  Standin standin(
      {{"responses",
        {{{"status", 500}, {"body", std::string(8192, 'e')}, {"body_repeat", 4000}, {"chunk_delay_s", 0.02}}}}});
  Config config = standin.Config(Provider::kOpenAI);
  config.max_retries = 0;
  config.timeout = std::chrono::seconds(60);
  auto client = Make(config);
  const auto start = Clock::now();
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_LT(SecondsSince(start), 10.0) << "the body was read on, 32 MB at 400 KB/s";
  EXPECT_NE(r.error().message.find("HTTP 500"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("eeee"), std::string::npos) << r.error().message;
}

TEST(LlmClient, AStalledStreamIsAbandoned) {
  Standin standin({{"responses", {{{"text", {"partial"}}, {"omit_end", true}, {"hang_s", 20}}}}});
  Config config = standin.Config(Provider::kAnthropic);
  config.stall_timeout = std::chrono::milliseconds(1000);
  auto client = Make(config);
  const auto start = Clock::now();
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded) << r.error().message;
  EXPECT_LT(SecondsSince(start), 6.0);
}

TEST_P(BothProviders, MalformedJsonInTheStreamIsAClearError) {
  const std::string raw =
      GetParam() == Provider::kOpenAI
          ? "data: {\"choices\": [{\"delta\": {\"content\": \"hi\"}}]}\n\ndata: {not json at all\n\n"
          : "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n"
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\n\n";
  Standin standin({{"responses", {{{"raw", {raw}}}}}});
  auto client = Make(standin.Config(GetParam()));
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadInput);
  EXPECT_NE(r.error().message.find("could not be read"), std::string::npos) << r.error().message;
}

TEST_P(BothProviders, AReplyThatIsNotAStreamIsAClearError) {
  Standin standin({{"responses", {{{"raw", {"<html><body>502 Bad Gateway</body></html>"}}}}}});
  auto client = Make(standin.Config(GetParam()));
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadInput);
  EXPECT_NE(r.error().message.find("stopped before it was complete"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("<html><body>502"), std::string::npos) << r.error().message;
}

TEST(LlmClient, AnAnthropicErrorEventEndsTheExchange) {
  const std::string raw =
      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3}}}\n\n"
      "event: error\ndata: "
      "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
  Standin standin({{"responses", {{{"raw", {raw}}}}}});
  auto client = Make(standin.Config(Provider::kAnthropic));
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("Overloaded"), std::string::npos) << r.error().message;
}

TEST_P(BothProviders, CancellingMidStreamAbortsTheTransferPromptly) {
  Standin standin({{"responses", {{{"text", {"first ", "second"}}, {"omit_end", true}, {"hang_s", 30}}}}});
  auto client = Make(standin.Config(GetParam()));
  CancelToken cancel;
  Clock::time_point cancelled_at;
  auto r = client->Chat(
      Hello(),
      [&](std::string_view) {
        if (!cancel.cancelled()) cancelled_at = Clock::now();
        cancel.cancel();
      },
      cancel);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(SecondsSince(cancelled_at), 0.5);  // the server would have held the stream open for 30 s
}

TEST(LlmClient, CancellingFromAnotherThreadWhileWaitingForHeaders) {
  Standin standin({{"responses", {{{"delay_s", 30}, {"text", {"never"}}}}}});
  auto client = Make(standin.Config(Provider::kOpenAI));
  CancelToken cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.cancel();
  });
  const auto start = Clock::now();
  auto r = client->Chat(Hello(), {}, cancel);
  canceller.join();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(SecondsSince(start), 1.0);
}

TEST(LlmClient, TheCostGateRefusesBeforeSending) {
  Standin standin({{"responses", {{{"text", {"should not be asked"}}}}}});
  Config config = standin.Config(Provider::kOpenAI);
  config.max_prompt_tokens = 100;
  auto client = Make(config);
  ChatRequest req = Hello();
  req.messages.push_back({Role::kUser, std::string(2000, 'x')});
  const int64_t estimate = EstimateTokens(req);
  EXPECT_GT(estimate, 500);
  EXPECT_LT(estimate, 600);
  auto r = client->Chat(req, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_NE(r.error().message.find("estimated at " + std::to_string(estimate) + " tokens"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("budget of 100 tokens"), std::string::npos) << r.error().message;
  EXPECT_TRUE(standin.Requests().empty());
}

TEST(LlmClient, EstimateGrowsWithToolsAndToolCalls) {
  ChatRequest req = Hello();
  const int64_t base = EstimateTokens(req);
  req.tools = {
      {"top_kernels", "Kernels by GPU time", {{"type", "object"}, {"properties", {{"limit", {{"type", "integer"}}}}}}}};
  const int64_t with_tools = EstimateTokens(req);
  EXPECT_GT(with_tools, base + 10);
  Message m{Role::kAssistant, ""};
  m.tool_calls = {{"c", "top_kernels", json::object(), std::string(400, ' ')}};
  req.messages.push_back(m);
  EXPECT_GE(EstimateTokens(req), with_tools + 100);
}

TEST_P(BothProviders, TheKeyIsNeverLoggedNorInErrorsEvenWhenTheServerEchoesIt) {
  const std::string key = "sk-very-secret-5f3a9c";
  Standin standin({{"responses",
                    {{{"status", 500}, {"body", {{"error", {{"message", "bad upstream for key " + key}}}}}},
                     {{"text", {"ok"}}},
                     {{"status", 401}, {"body", {{"error", {{"message", "Incorrect API key provided: " + key}}}}}}}}});
  auto client = Make(standin.Config(GetParam(), key));
  const support::LogLevel saved = support::GetLogLevel();
  support::SetLogLevel(support::LogLevel::kDebug);
  ::testing::internal::CaptureStderr();
  auto ok = client->Chat(Hello(), {}, {});
  auto refused = client->Chat(Hello(), {}, {});
  const std::string logs = ::testing::internal::GetCapturedStderr();
  support::SetLogLevel(saved);
  ASSERT_TRUE(ok) << ok.error().message;  // after one retry, whose log line quotes the echo
  ASSERT_FALSE(refused);
  EXPECT_NE(logs.find("llm: POST"), std::string::npos) << "debug logging was on: " << logs;
  EXPECT_NE(logs.find("[redacted]"), std::string::npos) << logs;
  EXPECT_EQ(logs.find(key), std::string::npos) << logs;
  EXPECT_EQ(refused.error().message.find(key), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("HTTP 401"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("Incorrect API key provided: [redacted]"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(client->Identity().find(key), std::string::npos);
}

TEST(LlmClient, NobodyListeningIsANetworkErrorNamingWhere) {
  Config config;
  config.provider = Provider::kOpenAI;
  config.model = "m";
  config.api_key = "sk-unused-key-42";
  {
    Standin gone({{"responses", json::array()}});
    config.base_url = gone.Config(Provider::kOpenAI).base_url;
  }  // stopped: its port is closed now
  auto client = Make(config);
  auto r = client->Chat(Hello(), {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInternal);
  EXPECT_NE(r.error().message.find("could not reach the LLM at http://127.0.0.1:"), std::string::npos)
      << r.error().message;
}

TEST(LlmClient, NoProviderNoClient) {
  auto c = MakeClient(Config{});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace nsys::llm
