#pragma once
// Which LLM the agent talks to, if any. With no provider configured everything runs offline. The key is a secret:
// it is never logged (at any level), never sent to a client, never part of a cache key or cache entry; Describe()
// is the one text form and leaves it out.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "nsys/support/expected.h"

namespace nsys::llm {

enum class Provider { kNone, kOpenAI, kAnthropic };  // kOpenAI: any OpenAI-compatible chat completions server

struct Config {
  Provider provider = Provider::kNone;
  std::string base_url;  // "" = the provider's public endpoint (https://api.openai.com/v1, https://api.anthropic.com)
  std::string model;
  std::string api_key;                                // may be empty for local servers (vLLM, Ollama, llama.cpp)
  std::chrono::milliseconds timeout{120'000};         // one HTTP exchange, connect to last byte
  std::chrono::milliseconds connect_timeout{10'000};  // TCP + TLS connect (capped by `timeout`)
  // A stream that delivers no byte for this long is abandoned (a stalled server), even within `timeout`.
  std::chrono::milliseconds stall_timeout{60'000};
  int max_retries = 3;                                // on HTTP 429 and 5xx, with exponential backoff
  std::chrono::milliseconds retry_base_delay{500};    // the first backoff; doubles with each retry
  std::chrono::milliseconds max_retry_delay{30'000};  // caps the backoff and a server's Retry-After
  int64_t max_prompt_tokens = 60'000;  // the cost gate: a prompt estimated larger is refused before sending
  bool enabled() const { return provider != Provider::kNone; }
};

// "openai", "anthropic"; kInvalidArgument naming the accepted names for anything else ("" = none).
Expected<Provider> ParseProvider(const std::string& name);
std::string_view ProviderName(Provider provider);  // "none", "openai", "anthropic"

// The provider's endpoint when base_url is empty.
std::string EffectiveBaseUrl(const Config& config);

// From the environment: NSYS_AI_LLM_PROVIDER, NSYS_AI_LLM_BASE_URL, NSYS_AI_LLM_MODEL, and the key from
// NSYS_AI_LLM_API_KEY or, when that is unset, from the variable NSYS_AI_LLM_API_KEY_ENV names. A provider without a
// model is an error (kInvalidArgument), as is a key variable that is named but unset. `getenv` is for tests.
using GetEnv = std::function<const char*(const char*)>;
Expected<Config> ConfigFromEnvironment(const GetEnv& getenv);

// "openai model gpt-4o-mini at https://...": for logs and status lines; never includes the key.
std::string Describe(const Config& config);

}  // namespace nsys::llm
