#include "nsys/llm/config.h"

namespace nsys::llm {

namespace {

std::string Get(const GetEnv& getenv, const char* name) {
  const char* v = getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

}  // namespace

Expected<Provider> ParseProvider(const std::string& name) {
  if (name.empty() || name == "none") return Provider::kNone;
  if (name == "openai") return Provider::kOpenAI;
  if (name == "anthropic") return Provider::kAnthropic;
  return MakeError(ErrorKind::kInvalidArgument,
                   "unknown LLM provider '" + name + "' (expected openai, anthropic or none)");
}

std::string_view ProviderName(Provider provider) {
  switch (provider) {
    case Provider::kOpenAI:
      return "openai";
    case Provider::kAnthropic:
      return "anthropic";
    case Provider::kNone:
      break;
  }
  return "none";
}

std::string EffectiveBaseUrl(const Config& config) {
  if (!config.base_url.empty()) return config.base_url;
  switch (config.provider) {
    case Provider::kOpenAI:
      return "https://api.openai.com/v1";
    case Provider::kAnthropic:
      return "https://api.anthropic.com";
    case Provider::kNone:
      break;
  }
  return "";
}

Expected<Config> ConfigFromEnvironment(const GetEnv& getenv) {
  Config config;
  auto provider = ParseProvider(Get(getenv, "NSYS_AI_LLM_PROVIDER"));
  if (!provider) return MakeError(ErrorKind::kInvalidArgument, "NSYS_AI_LLM_PROVIDER: " + provider.error().message);
  config.provider = *provider;
  if (!config.enabled()) return config;
  config.base_url = Get(getenv, "NSYS_AI_LLM_BASE_URL");
  config.model = Get(getenv, "NSYS_AI_LLM_MODEL");
  if (config.model.empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "NSYS_AI_LLM_PROVIDER is set but NSYS_AI_LLM_MODEL is not: name the model to use");
  }
  config.api_key = Get(getenv, "NSYS_AI_LLM_API_KEY");
  if (config.api_key.empty()) {
    const std::string var = Get(getenv, "NSYS_AI_LLM_API_KEY_ENV");
    if (!var.empty()) {
      config.api_key = Get(getenv, var.c_str());
      if (config.api_key.empty()) {
        return MakeError(ErrorKind::kInvalidArgument,
                         "NSYS_AI_LLM_API_KEY_ENV names " + var + ", which is unset or empty");
      }
    }
  }
  return config;
}

std::string Describe(const Config& config) {
  if (!config.enabled()) return "no LLM (offline)";
  return std::string(ProviderName(config.provider)) + " model " + config.model + " at " + EffectiveBaseUrl(config) +
         (config.api_key.empty() ? " (no key)" : " (key set)");
}

}  // namespace nsys::llm
