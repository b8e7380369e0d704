#pragma once
// Which LLM the agent talks to, if any. With no provider configured everything runs offline. The key is a secret:
// it is never logged (at any level), never sent to a client, never part of a cache key or cache entry; Describe()
// is the one text form and leaves it out.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// A base URL the client may POST to: http:// or https:// only (libcurl would read file://, ftp://, ... too), at most
// 2048 bytes, no spaces or control characters. kInvalidArgument saying so; the URL is not echoed.
Status CheckBaseUrl(const std::string& url);

// From the environment: NSYS_AI_LLM_PROVIDER, NSYS_AI_LLM_BASE_URL, NSYS_AI_LLM_MODEL, and the key from
// NSYS_AI_LLM_API_KEY or, when that is unset, from the variable NSYS_AI_LLM_API_KEY_ENV names. A provider without a
// model is an error (kInvalidArgument), as is a key variable that is named but unset, a base URL that is not
// http(s), or a broken endpoint of NSYS_AI_LLM_ENDPOINTS (see ServerEndpoints). `getenv` is for tests.
using GetEnv = std::function<const char*(const char*)>;
Expected<Config> ConfigFromEnvironment(const GetEnv& getenv);

// ---- The server's endpoints and a client's choice among them ------------------------------------------------------
//
// A key from the server's environment goes only to the base URL configured with it. The server's endpoints are its
// default one (NSYS_AI_LLM_*, named "default" when a provider is set) and those listed in NSYS_AI_LLM_ENDPOINTS
// ("local,claude"), each read like the default from NSYS_AI_LLM_<NAME>_{PROVIDER,BASE_URL,MODEL,API_KEY,API_KEY_ENV}
// (NAME upper-cased, '-' as '_'). A client (initializationOptions.llm) either picks one of them by name, or brings
// its own endpoint with its own key, or names the key's variable (apiKeyEnv) under the rules of ResolveClientLlm.

struct Endpoint {
  std::string name;
  Config config;
  std::vector<std::string> key_variables;  // the variables its key may come from (NSYS_AI_LLM_API_KEY, ...)
};

// The default endpoint (`server`, as the server read it at start; left out when it has no provider) and the named
// ones. Errors (kInvalidArgument) name the variable at fault, never a value.
Expected<std::vector<Endpoint>> ServerEndpoints(const Config& server, const GetEnv& getenv);

// What a client asks for. Exactly one of: `endpoint`; or `provider` (+ model, base_url) with at most one of
// api_key and api_key_env.
struct ClientChoice {
  std::optional<std::string> endpoint;  // one of ServerEndpoints by name; model may override the endpoint's
  Provider provider = Provider::kNone;
  std::string model;
  std::string base_url;                    // "" = the provider's public endpoint
  std::optional<std::string> api_key;      // the client's own key: sent only to this choice's base URL
  std::optional<std::string> api_key_env;  // a variable of the server's environment holding the key
};

// The session's Config: the server's timeouts and retries with the client's choice. The rules:
// - `endpoint`: that endpoint's provider, URL and key (model overridable); an unknown name is kNotFound listing
//   the names.
// - `api_key`: sent to the client's own base URL only.
// - `api_key_env`: only an NSYS_AI_* variable; one that holds an endpoint's key (its key_variables) only when the
//   choice's base URL is that endpoint's; never an NSYS_AI_LLM_* setting. A name outside these rules, and a
//   variable that is unset or empty, get the same error (kInvalidArgument on "apiKeyEnv"), so a client learns
//   nothing about which variables exist.
// - otherwise no key.
// Error messages start with the member at fault ("endpoint: ", "apiKeyEnv: ", "baseUrl: ").
Expected<Config> ResolveClientLlm(const ClientChoice& choice, const Config& server, const GetEnv& getenv);

// "openai model gpt-4o-mini at https://...": for logs and status lines; never includes the key.
std::string Describe(const Config& config);

}  // namespace nsys::llm
