// initializationOptions.llm: one of the server's endpoints by name, or the client's own endpoint with
// its own key (apiKey) or a key variable (apiKeyEnv); never both kinds at once.
#include <gtest/gtest.h>

#include <string>

#include "nsys/protocol/methods.h"
#include "params_test_util.h"

namespace nsys::protocol {
namespace {

using ::nsys::protocol::testing::ErrorOf;

std::string LlmError(const std::string& llm) {
  return ErrorOf<InitializeParams>(R"({"initializationOptions":{"llm":)" + llm + "}}");
}

TEST(LlmOptionsTest, AnEndpointByNameOrTheClientsOwnEndpointAndKey) {
  auto named = Parse<InitializeParams>(Json::parse(R"({"initializationOptions":{"llm":{"endpoint":"local"}}})"));
  ASSERT_TRUE(named.ok()) << named.error().message;
  EXPECT_EQ(named->initialization_options->llm->endpoint, "local");
  auto own = Parse<InitializeParams>(Json::parse(
      R"({"initializationOptions":{"llm":{"provider":"openai","model":"m","baseUrl":"http://h/v1","apiKey":"sk-1"}}})"));
  ASSERT_TRUE(own.ok()) << own.error().message;
  EXPECT_EQ(own->initialization_options->llm->api_key, "sk-1");
  EXPECT_EQ(Json(*own->initialization_options->llm).dump(),
            R"({"apiKey":"sk-1","baseUrl":"http://h/v1","model":"m","provider":"openai"})");
}

TEST(LlmOptionsTest, ErrorsNameTheMember) {
  EXPECT_EQ(LlmError(R"({"endpoint":"local","baseUrl":"http://attacker/v1"})"),
            "params.initializationOptions.llm.baseUrl: cannot be given with endpoint (the server's endpoint has its "
            "own)");
  EXPECT_EQ(LlmError(R"({"endpoint":"local","apiKeyEnv":"NSYS_AI_LLM_API_KEY"})"),
            "params.initializationOptions.llm.apiKeyEnv: cannot be given with endpoint (the server's endpoint has its "
            "own)");
  EXPECT_EQ(LlmError(R"({"endpoint":"a b"})"),
            "params.initializationOptions.llm.endpoint: must name one of the server's endpoints");
  EXPECT_EQ(LlmError(R"({"model":"m"})"),
            "params.initializationOptions.llm.provider: missing required field (or name one of the server's "
            "endpoints)");
  EXPECT_EQ(LlmError(R"({"provider":"openai","model":"m","apiKey":"k","apiKeyEnv":"NSYS_AI_K"})"),
            "params.initializationOptions.llm.apiKey: give apiKey or apiKeyEnv, not both");
  EXPECT_EQ(LlmError(R"({"provider":"openai","model":"m","apiKey":"k\r\nX-Evil: 1"})"),
            "params.initializationOptions.llm.apiKey: must be 1 to 4096 printable ASCII characters without spaces");
  EXPECT_EQ(LlmError(R"({"provider":"openai","model":"m","baseUrl":"file:///etc/passwd?"})"),
            "params.initializationOptions.llm.baseUrl: must be an http:// or https:// URL");
}

}  // namespace
}  // namespace nsys::protocol
