// OpenAI's reasoning models (o1, o3, o4 and gpt-5 families) refuse `max_tokens` and a temperature; the client sends
// them `max_completion_tokens` and no temperature, and every other model (gpt-4o, local servers) `max_tokens` with
// the temperature. Checked on the request the stand-in receives, through the real libcurl client.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "llm/standin.h"
#include "nsys/llm/client.h"

namespace nsys::llm {
namespace {

using nlohmann::json;
using testing::Standin;

TEST(ReasoningModels, GetMaxCompletionTokensAndNoTemperature) {
  const std::vector<std::pair<std::string, bool>> models = {
      {"o1", true},           {"o1-mini", true},       {"o3-mini", true},    {"o4-mini-2025-04-16", true},
      {"gpt-5", true},        {"gpt-5-mini", true},    {"gpt-5.1", true},    {"openai/o3", true},
      {"gpt-4o-mini", false}, {"gpt-4.1", false},      {"o10-local", false}, {"qwen2.5:7b", false},
      {"llama3.1", false},    {"gpt-5o-custom", false}};
  json steps = json::array();
  for (size_t i = 0; i < models.size(); ++i) steps.push_back({{"text", {"ok"}}});
  Standin standin({{"responses", steps}});
  for (const auto& [model, reasoning] : models) {
    Config config = standin.Config(Provider::kOpenAI, "");
    config.model = model;
    auto client = MakeClient(config);
    ASSERT_TRUE(client.ok());
    ChatRequest request;
    request.messages = {{Role::kUser, "hello"}};
    request.max_tokens = 321;
    request.temperature = 0.2;
    auto reply = (*client)->Chat(request, {}, {});
    ASSERT_TRUE(reply.ok()) << model << ": " << reply.error().message;
  }
  const auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), models.size());
  for (size_t i = 0; i < models.size(); ++i) {
    const auto& [model, reasoning] = models[i];
    const json& body = requests[i]["body"];
    EXPECT_EQ(body["model"], model);
    if (reasoning) {
      EXPECT_EQ(body.value("max_completion_tokens", 0), 321) << model;
      EXPECT_FALSE(body.contains("max_tokens")) << model;
      EXPECT_FALSE(body.contains("temperature")) << model;
    } else {
      EXPECT_EQ(body.value("max_tokens", 0), 321) << model;
      EXPECT_FALSE(body.contains("max_completion_tokens")) << model;
      EXPECT_EQ(body.value("temperature", 0.0), 0.2) << model;
    }
  }
}

}  // namespace
}  // namespace nsys::llm
