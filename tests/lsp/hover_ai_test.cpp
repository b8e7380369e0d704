// The AI paragraph of kernel hovers through the dispatcher: textDocument/hover on a kernel of nsys/report and
// nsys/explainKernel answer at once without the AI paragraph and with it once the model has answered (the stand-in,
// tests/llm/standin.py); the server's key goes only to the server's endpoint, never to an endpoint the client chose.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <string>

#include "core/workspace_test_util.h"
#include "fixtures.h"
#include "in_memory_client.h"
#include "llm/standin.h"

namespace nsys::testing {
namespace {

constexpr char kParagraph[] = "The kernel with the most GPU time here; start with its launch configuration.";

// Opens the fixture, renders its report and returns a hover on its first kernel, twice: before and after the
// model's paragraph was written.
class HoverAi {
 public:
  explicit HoverAi(InMemoryClient& client) : client_(client) {
    const Json open =
        client_.AwaitReply(client_.Request("nsys/openProfile", {{"path", Fixture("mfu_2gpu_before.sqlite")}}));
    EXPECT_TRUE(open.contains("result")) << open.dump();
    id_ = open["result"]["profileId"];
    const Json report = client_.AwaitReply(client_.Request("nsys/report", {{"profileId", id_}}));
    EXPECT_TRUE(report.contains("result")) << report.dump();
    uri_ = report["result"]["uri"];
    span_ = report["result"]["kernels"][0];
  }
  Json Hover() {
    return client_.AwaitReply(client_.Request(
        "textDocument/hover", {{"textDocument", {{"uri", uri_}}},
                               {"position", {{"line", span_["line"]}, {"character", span_["character"]}}}}));
  }
  std::string Markdown() {
    const Json reply = Hover();
    EXPECT_TRUE(reply.contains("result")) << reply.dump();
    return reply["result"]["contents"]["value"];
  }
  const std::string& id() const { return id_; }
  std::string kernel() const { return span_["name"]; }

 private:
  InMemoryClient& client_;
  std::string id_, uri_;
  Json span_;
};

TEST(HoverAi, TheFirstHoverAnswersAtOnceAndTheNextHasTheParagraph) {
  NSYS_REQUIRE_FIXTURES();
  Standin standin({{"responses", {{{"text", {kParagraph}}, {"delay_s", 2.0}}, {{"text", {kParagraph}}}}}});
  InMemoryClient::Options options;
  options.workspace.llm = standin.Config(llm::Provider::kOpenAI);
  InMemoryClient client(options);
  client.Initialize();
  HoverAi hover(client);
  const Json first = hover.Hover();
  ASSERT_TRUE(first.contains("result")) << first.dump();
  const std::string md = first["result"]["contents"]["value"];
  // Had the hover waited for the model (2 s), its paragraph would be here.
  EXPECT_EQ(md.find("**AI ("), std::string::npos) << md;
  EXPECT_NE(md.find("being written"), std::string::npos) << md;
  ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(client.workspace(), std::chrono::seconds(20)));
  const std::string second = hover.Markdown();
  EXPECT_NE(second.find(std::string("**AI (gpt-standin):** ") + kParagraph), std::string::npos) << second;
  // nsys/explainKernel on the same kernel answers from the same paragraph: no second request.
  const Json explained =
      client.AwaitReply(client.Request("nsys/explainKernel", {{"profileId", hover.id()}, {"kernel", hover.kernel()}}));
  ASSERT_TRUE(explained.contains("result")) << explained.dump();
  EXPECT_NE(explained["result"]["markdown"].get<std::string>().find("**AI (gpt-standin):**"), std::string::npos)
      << explained.dump();
  EXPECT_EQ(standin.Requests().size(), 1u);
  EXPECT_EQ(standin.Requests()[0]["headers"]["authorization"], "Bearer sk-test-key-0123456789");
}

TEST(HoverAi, TheServersKeyNeverGoesToAnEndpointTheClientChose) {
  NSYS_REQUIRE_FIXTURES();
  Standin own({{"responses", {{{"text", {"own"}}}}}});
  Standin chosen({{"responses", {{{"text", {kParagraph}}}}}});
  ::setenv("NSYS_AI_LLM_API_KEY", "sk-server-777", 1);
  InMemoryClient::Options options;
  options.workspace.llm = own.Config(llm::Provider::kOpenAI, "sk-server-777");
  InMemoryClient client(options);
  client.Initialize({{"capabilities", Json::object()},
                     {"initializationOptions",
                      {{"llm",
                        {{"provider", "openai"},
                         {"model", "local-model"},
                         {"baseUrl", chosen.Config(llm::Provider::kOpenAI).base_url}}}}}});
  HoverAi hover(client);
  hover.Hover();
  ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(client.workspace(), std::chrono::seconds(20)));
  const std::string md = hover.Markdown();
  ::unsetenv("NSYS_AI_LLM_API_KEY");
  EXPECT_NE(md.find("**AI (local-model):**"), std::string::npos) << md;
  ASSERT_EQ(chosen.Requests().size(), 1u);
  EXPECT_FALSE(chosen.Requests()[0]["headers"].contains("authorization")) << chosen.Requests()[0].dump();
  EXPECT_EQ(chosen.Requests()[0].dump().find("sk-server-777"), std::string::npos);
  EXPECT_TRUE(own.Requests().empty());
}

TEST(HoverAi, WithoutAnLlmTheHoverIsTheDeterministicExplanation) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client;  // HermeticConfig: no LLM
  client.Initialize();
  HoverAi hover(client);
  const std::string md = hover.Markdown();
  EXPECT_EQ(md.find("**AI ("), std::string::npos) << md;
  EXPECT_EQ(md.find("AI paragraph"), std::string::npos) << md;
  EXPECT_NE(md.find("**What to look at**"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
