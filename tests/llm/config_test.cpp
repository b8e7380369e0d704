#include "nsys/llm/config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsys/llm/client.h"

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

TEST(LlmConfig, BaseUrlMustBeHttp) {
  auto file = ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_PROVIDER", "openai"},
                                           {"NSYS_AI_LLM_MODEL", "m"},
                                           {"NSYS_AI_LLM_BASE_URL", "file:///etc/passwd?"}}));
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message, "NSYS_AI_LLM_BASE_URL: must be an http:// or https:// URL");
  EXPECT_FALSE(CheckBaseUrl("ftp://x/"));
  EXPECT_FALSE(CheckBaseUrl("http://x/ y"));
  EXPECT_FALSE(CheckBaseUrl("http://x/\r\nX-Evil: 1"));
  EXPECT_FALSE(CheckBaseUrl("http://x/" + std::string(3000, 'a')));
  EXPECT_TRUE(CheckBaseUrl("https://api.openai.com/v1"));
}

// A Config built around the checks (a file: URL) still reaches nothing but HTTP, and its error shows none
// of what the URL names.
TEST(LlmConfig, AClientNeverReadsANonHttpUrl) {
  const auto secret = std::filesystem::temp_directory_path() / "nsys-ai-llm-file-url-test.txt";
  { std::ofstream(secret) << "root:x:0:0:the-file-contents\n"; }
  for (const std::string& url :
       std::vector<std::string>{"file://" + secret.string() + "?", "ftp://127.0.0.1:9/", "gopher://127.0.0.1:9/"}) {
    Config config;
    config.provider = Provider::kOpenAI;
    config.model = "m";
    config.base_url = url;
    config.max_retries = 0;
    auto client = MakeClient(config);
    ASSERT_TRUE(client);
    ChatRequest request;
    request.messages.push_back({Role::kUser, "hi", {}, "", false});
    auto reply = (*client)->Chat(request, {}, CancelToken());
    ASSERT_FALSE(reply) << url;
    EXPECT_EQ(reply.error().message.find("the-file-contents"), std::string::npos) << reply.error().message;
    EXPECT_NE(reply.error().message.find("http:// or https://"), std::string::npos) << reply.error().message;
  }
  std::filesystem::remove(secret);
}

// The server's key goes only to the URL configured with it; a client picks an endpoint by name or brings
// its own URL with its own key; apiKeyEnv names only NSYS_AI_* variables and one error covers "not allowed" and
// "not set".
class ClientLlmChoice : public ::testing::Test {
 protected:
  const GetEnv env_ = EnvOf({{"NSYS_AI_LLM_PROVIDER", "openai"},
                             {"NSYS_AI_LLM_MODEL", "served"},
                             {"NSYS_AI_LLM_BASE_URL", "http://127.0.0.1:9/v1"},
                             {"NSYS_AI_LLM_API_KEY", "server-key"},
                             {"NSYS_AI_LLM_ENDPOINTS", "claude, local-2"},
                             {"NSYS_AI_LLM_CLAUDE_PROVIDER", "anthropic"},
                             {"NSYS_AI_LLM_CLAUDE_MODEL", "claude-x"},
                             {"NSYS_AI_LLM_CLAUDE_API_KEY_ENV", "NSYS_AI_CLAUDE_KEY"},
                             {"NSYS_AI_CLAUDE_KEY", "claude-key"},
                             {"NSYS_AI_LLM_LOCAL_2_PROVIDER", "openai"},
                             {"NSYS_AI_LLM_LOCAL_2_MODEL", "qwen"},
                             {"NSYS_AI_LLM_LOCAL_2_BASE_URL", "http://127.0.0.1:10/v1/"},
                             {"NSYS_AI_EDITOR_KEY", "editor-key"},
                             {"AWS_SECRET_ACCESS_KEY", "aws-secret"}});
  Config server_ = *ConfigFromEnvironment(env_);

  ClientChoice Own(std::string url) const {
    ClientChoice c;
    c.provider = Provider::kOpenAI;
    c.model = "m";
    c.base_url = std::move(url);
    return c;
  }
  ClientChoice WithVar(std::string url, std::string var) const {
    ClientChoice c = Own(std::move(url));
    c.api_key_env = std::move(var);
    return c;
  }
};

TEST_F(ClientLlmChoice, EndpointsByNameBringTheirOwnUrlAndKey) {
  auto endpoints = ServerEndpoints(server_, env_);
  ASSERT_TRUE(endpoints) << endpoints.error().message;
  ASSERT_EQ(endpoints->size(), 3u);
  EXPECT_EQ((*endpoints)[0].name, "default");
  EXPECT_EQ((*endpoints)[1].name, "claude");
  EXPECT_EQ((*endpoints)[2].name, "local-2");

  ClientChoice pick;
  pick.endpoint = "claude";
  auto claude = ResolveClientLlm(pick, server_, env_);
  ASSERT_TRUE(claude) << claude.error().message;
  EXPECT_EQ(claude->provider, Provider::kAnthropic);
  EXPECT_EQ(EffectiveBaseUrl(*claude), "https://api.anthropic.com");
  EXPECT_EQ(claude->api_key, "claude-key");
  EXPECT_EQ(claude->model, "claude-x");
  pick.endpoint = "default";
  pick.model = "other-model";
  auto fallback = ResolveClientLlm(pick, server_, env_);
  ASSERT_TRUE(fallback);
  EXPECT_EQ(fallback->api_key, "server-key");
  EXPECT_EQ(fallback->base_url, "http://127.0.0.1:9/v1");
  EXPECT_EQ(fallback->model, "other-model");
  pick.endpoint = "nope";
  auto unknown = ResolveClientLlm(pick, server_, env_);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message,
            "endpoint: the server has no LLM endpoint by that name (it has: default, claude, local-2)");
}

TEST_F(ClientLlmChoice, OwnEndpointGetsOnlyTheClientsOwnKey) {
  auto none = ResolveClientLlm(Own("http://attacker:1/v1"), server_, env_);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->api_key, "");
  ClientChoice own = Own("http://attacker:1/v1");
  own.api_key = "client-key";
  auto with_key = ResolveClientLlm(own, server_, env_);
  ASSERT_TRUE(with_key);
  EXPECT_EQ(with_key->api_key, "client-key");
  EXPECT_EQ(with_key->base_url, "http://attacker:1/v1");
  EXPECT_EQ(with_key->timeout, server_.timeout);
  auto file = ResolveClientLlm(Own("file:///etc/passwd?"), server_, env_);
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message, "baseUrl: must be an http:// or https:// URL");
}

TEST_F(ClientLlmChoice, KeyVariablesArePairedWithTheirEndpointAndErrorsSayNothingAboutExistence) {
  const std::string attacker = "http://attacker:1/v1";
  std::string uniform;
  for (const char* var : {"NSYS_AI_LLM_API_KEY", "NSYS_AI_CLAUDE_KEY", "AWS_SECRET_ACCESS_KEY", "NSYS_AI_X_UNSET",
                          "NSYS_AI_LLM_MODEL", "NSYS_AI_LLM_BASE_URL", "HOME", "NSYS_AI_LLM_LOCAL_2_API_KEY"}) {
    auto refused = ResolveClientLlm(WithVar(attacker, var), server_, env_);
    ASSERT_FALSE(refused) << var << " was sent to " << attacker;
    if (uniform.empty()) uniform = refused.error().message;
    EXPECT_EQ(refused.error().message, uniform) << var;
    EXPECT_EQ(refused.error().message.find(var), std::string::npos) << var;
  }
  EXPECT_EQ(uniform.rfind("apiKeyEnv: ", 0), 0u) << uniform;
  // The server's key goes with its own URL (trailing slashes aside), the claude key only to Anthropic's.
  auto paired = ResolveClientLlm(WithVar("http://127.0.0.1:9/v1/", "NSYS_AI_LLM_API_KEY"), server_, env_);
  ASSERT_TRUE(paired) << paired.error().message;
  EXPECT_EQ(paired->api_key, "server-key");
  ClientChoice anthropic = WithVar("", "NSYS_AI_CLAUDE_KEY");
  anthropic.provider = Provider::kAnthropic;
  auto claude = ResolveClientLlm(anthropic, server_, env_);
  ASSERT_TRUE(claude) << claude.error().message;
  EXPECT_EQ(claude->api_key, "claude-key");
  EXPECT_FALSE(ResolveClientLlm(WithVar("http://127.0.0.1:9/v1", "NSYS_AI_CLAUDE_KEY"), server_, env_));
  // An NSYS_AI_* variable that is no endpoint's key (the editor's) may go to the client's own endpoint.
  auto editor = ResolveClientLlm(WithVar(attacker, "NSYS_AI_EDITOR_KEY"), server_, env_);
  ASSERT_TRUE(editor) << editor.error().message;
  EXPECT_EQ(editor->api_key, "editor-key");
}

TEST_F(ClientLlmChoice, ABrokenNamedEndpointIsRefusedAtStart) {
  auto broken =
      ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_ENDPOINTS", "local"}, {"NSYS_AI_LLM_LOCAL_PROVIDER", "openai"}}));
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().message,
            "NSYS_AI_LLM_LOCAL_PROVIDER is set but NSYS_AI_LLM_LOCAL_MODEL is not: name the model to use");
  auto unset = ConfigFromEnvironment(EnvOf({{"NSYS_AI_LLM_ENDPOINTS", "local"}}));
  ASSERT_FALSE(unset);
  EXPECT_EQ(unset.error().message, "NSYS_AI_LLM_ENDPOINTS lists 'local' but NSYS_AI_LLM_LOCAL_PROVIDER is not set");
  EXPECT_TRUE(ConfigFromEnvironment(env_));
}

TEST_F(ClientLlmChoice, AMisconfiguredEndpointListIsNotDetailedToTheClient) {
  const GetEnv broken = EnvOf({{"NSYS_AI_LLM_ENDPOINTS", "x"},
                               {"NSYS_AI_LLM_X_PROVIDER", "openai"},
                               {"NSYS_AI_LLM_X_MODEL", "m"},
                               {"NSYS_AI_LLM_X_API_KEY_ENV", "NSYS_AI_SECRET_NAME"}});
  EXPECT_FALSE(ServerEndpoints(Config{}, broken));
  ClientChoice pick;
  pick.endpoint = "x";
  auto refused = ResolveClientLlm(pick, Config{}, broken);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message.find("NSYS_AI_SECRET_NAME"), std::string::npos) << refused.error().message;
  // Its key variable stays paired with it even though it is broken.
  EXPECT_FALSE(ResolveClientLlm(WithVar("http://attacker:1/v1", "NSYS_AI_SECRET_NAME"), Config{}, broken));
}

}  // namespace
}  // namespace nsys::llm
