#include "nsys/llm/config.h"

#include <gtest/gtest.h>

#include <map>

namespace nsys::llm {
namespace {

GetEnv EnvOf(std::map<std::string, std::string> vars) {
  auto held = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [held](const char* name) -> const char* {
    auto it = held->find(name);
    return it == held->end() ? nullptr : it->second.c_str();
  };
}

TEST(LlmConfig, NothingSetMeansOffline) {
  auto c = ConfigFromEnvironment(EnvOf({}));
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->enabled());
  EXPECT_EQ(Describe(*c), "no LLM (offline)");
}

TEST(LlmConfig, KeyFromTheNamedVariableAndNeverInTheDescription) {
  auto c = ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_PROVIDER", "anthropic"},
                                        {"NSYS_AI_LLM_MODEL", "claude-x"},
                                        {"NSYS_AI_LLM_API_KEY_ENV", "MY_KEY"},
                                        {"MY_KEY", "sk-secret-123"}}));
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->provider, Provider::kAnthropic);
  EXPECT_EQ(c->api_key, "sk-secret-123");
  EXPECT_EQ(Describe(*c), "anthropic model claude-x at https://api.anthropic.com (key set)");
  EXPECT_EQ(Describe(*c).find("sk-secret"), std::string::npos);
}

TEST(LlmConfig, DirectKeyWinsAndBaseUrlIsKept) {
  auto c = ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_PROVIDER", "openai"},
                                        {"NSYS_AI_LLM_MODEL", "qwen"},
                                        {"NSYS_AI_LLM_BASE_URL", "http://127.0.0.1:8000/v1"},
                                        {"NSYS_AI_LLM_API_KEY", "direct"},
                                        {"NSYS_AI_LLM_API_KEY_ENV", "OTHER"},
                                        {"OTHER", "other"}}));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->api_key, "direct");
  EXPECT_EQ(EffectiveBaseUrl(*c), "http://127.0.0.1:8000/v1");
}

TEST(LlmConfig, ClearErrors) {
  auto bad = ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_PROVIDER", "gemini"}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "NSYS_AI_LLM_PROVIDER: unknown LLM provider 'gemini' (expected openai, anthropic or none)");
  auto no_model = ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_PROVIDER", "openai"}}));
  ASSERT_FALSE(no_model);
  EXPECT_NE(no_model.error().message.find("NSYS_AI_LLM_MODEL is not"), std::string::npos);
  auto unset_key = ConfigFromEnvironment(
      EnvOf({{"NSYS_AI_LLM_PROVIDER", "openai"}, {"NSYS_AI_LLM_MODEL", "m"}, {"NSYS_AI_LLM_API_KEY_ENV", "NOPE"}}));
  ASSERT_FALSE(unset_key);
  EXPECT_EQ(unset_key.error().message, "NSYS_AI_LLM_API_KEY_ENV names NOPE, which is unset or empty");
}

}  // namespace
}  // namespace nsys::llm
