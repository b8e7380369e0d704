#include "nsys/llm/config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "nsys/support/log.h"

namespace nsys::llm {

namespace {

std::string Get(const GetEnv& getenv, const std::string& name) {
  const char* v = getenv(name.c_str());
  return v == nullptr ? std::string() : std::string(v);
}

constexpr std::string_view kPrefix = "NSYS_AI_LLM_";

// "local" → "NSYS_AI_LLM_LOCAL_"; "" → "NSYS_AI_LLM_" (the default endpoint).
std::string PrefixOf(std::string_view name) {
  std::string prefix(kPrefix);
  for (const char c : name)
    prefix.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (!name.empty()) prefix.push_back('_');
  return prefix;
}

bool IsEndpointName(std::string_view name) {
  return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// NSYS_AI_LLM_ENDPOINTS: "a, b" → {"a", "b"}.
std::vector<std::string> ListedNames(const GetEnv& getenv) {
  std::vector<std::string> names;
  std::string current;
  const std::string list = Get(getenv, std::string(kPrefix) + "ENDPOINTS") + ",";
  for (const char c : list) {
    if (c == ',') {
      if (!current.empty()) names.push_back(current);
      current.clear();
    } else if (c != ' ' && c != '\t') {
      current.push_back(c);
    }
  }
  return names;
}

// The variables an endpoint's key may come from: PREFIX_API_KEY and the one PREFIX_API_KEY_ENV names.
std::vector<std::string> KeyVariables(const std::string& prefix, const GetEnv& getenv) {
  std::vector<std::string> vars = {prefix + "API_KEY"};
  const std::string named = Get(getenv, prefix + "API_KEY_ENV");
  if (!named.empty()) vars.push_back(named);
  return vars;
}

// One endpoint's settings under `prefix` ("NSYS_AI_LLM_" or "NSYS_AI_LLM_LOCAL_"), over `base` (timeouts, retries).
Expected<Config> ConfigFromVariables(const std::string& prefix, Config base, const GetEnv& getenv) {
  Config config = std::move(base);
  auto provider = ParseProvider(Get(getenv, prefix + "PROVIDER"));
  if (!provider) return MakeError(ErrorKind::kInvalidArgument, prefix + "PROVIDER: " + provider.error().message);
  config.provider = *provider;
  config.base_url.clear();
  config.model.clear();
  config.api_key.clear();
  if (!config.enabled()) return config;
  config.base_url = Get(getenv, prefix + "BASE_URL");
  if (!config.base_url.empty()) {
    if (Status ok = CheckBaseUrl(config.base_url); !ok) {
      return MakeError(ErrorKind::kInvalidArgument, prefix + "BASE_URL: " + ok.error().message);
    }
  }
  config.model = Get(getenv, prefix + "MODEL");
  if (config.model.empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     prefix + "PROVIDER is set but " + prefix + "MODEL is not: name the model to use");
  }
  config.api_key = Get(getenv, prefix + "API_KEY");
  if (config.api_key.empty()) {
    const std::string var = Get(getenv, prefix + "API_KEY_ENV");
    if (!var.empty()) {
      config.api_key = Get(getenv, var);
      if (config.api_key.empty()) {
        return MakeError(ErrorKind::kInvalidArgument,
                         prefix + "API_KEY_ENV names " + var + ", which is unset or empty");
      }
    }
  }
  return config;
}

// "https://x/v1/" and "https://x/v1" are one endpoint.
std::string Normalized(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// Where each variable holding one of the server's keys may send it: variable → the endpoints' base URLs. Read
// leniently (a half-configured endpoint still owns its key variables), so that a broken configuration refuses more,
// never less.
std::vector<std::pair<std::string, std::string>> KeyOwners(const Config& server, const GetEnv& getenv) {
  std::vector<std::pair<std::string, std::string>> owners;
  const std::string default_url = server.enabled() ? Normalized(EffectiveBaseUrl(server)) : std::string();
  for (const std::string& var : KeyVariables(std::string(kPrefix), getenv)) owners.emplace_back(var, default_url);
  for (const std::string& name : ListedNames(getenv)) {
    const std::string prefix = PrefixOf(name);
    Config lenient;
    const auto provider = ParseProvider(Get(getenv, prefix + "PROVIDER"));
    lenient.provider = provider ? *provider : Provider::kNone;
    lenient.base_url = Get(getenv, prefix + "BASE_URL");
    const std::string url = lenient.enabled() ? Normalized(EffectiveBaseUrl(lenient)) : std::string();
    for (const std::string& var : KeyVariables(prefix, getenv)) owners.emplace_back(var, url);
  }
  return owners;
}

// Whether a client's apiKeyEnv may send `var`'s value to `url` (see ResolveClientLlm).
bool MayUseKeyVariable(const std::string& var, const std::string& url, const Config& server, const GetEnv& getenv) {
  if (var.size() > 256 || var.rfind("NSYS_AI_", 0) != 0) return false;
  if (!std::all_of(var.begin(), var.end(),
                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; })) {
    return false;
  }
  bool owned = false;
  for (const auto& [owned_var, owner_url] : KeyOwners(server, getenv)) {
    if (owned_var != var) continue;
    if (!owner_url.empty() && owner_url == Normalized(url)) return true;
    owned = true;
  }
  return !owned && var.rfind(kPrefix, 0) != 0;  // NSYS_AI_LLM_* are the server's own settings
}

}  // namespace

Status CheckBaseUrl(const std::string& url) {
  const bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
  if (!http) return MakeError(ErrorKind::kInvalidArgument, "must be an http:// or https:// URL");
  if (url.size() > 2048) return MakeError(ErrorKind::kInvalidArgument, "longer than 2048 bytes");
  for (const char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
      return MakeError(ErrorKind::kInvalidArgument, "must not hold spaces or control characters");
    }
  }
  return {};
}

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
  auto config = ConfigFromVariables(std::string(kPrefix), Config{}, getenv);
  if (!config) return config;
  // The named endpoints are checked now too: a broken one is the user's to hear about at start, not a client's.
  if (auto endpoints = ServerEndpoints(*config, getenv); !endpoints) return endpoints.error();
  return config;
}

Expected<std::vector<Endpoint>> ServerEndpoints(const Config& server, const GetEnv& getenv) {
  std::vector<Endpoint> endpoints;
  if (server.enabled()) endpoints.push_back({"default", server, KeyVariables(std::string(kPrefix), getenv)});
  for (const std::string& name : ListedNames(getenv)) {
    if (!IsEndpointName(name) || name == "default") {
      return MakeError(ErrorKind::kInvalidArgument,
                       std::string(kPrefix) + "ENDPOINTS: '" + name.substr(0, 64) +
                           "' is not an endpoint name (1 to 32 letters, digits, '_' or '-'; not 'default')");
    }
    const std::string prefix = PrefixOf(name);
    auto config = ConfigFromVariables(prefix, server, getenv);
    if (!config) return config.error();
    if (!config->enabled()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       std::string(kPrefix) + "ENDPOINTS lists '" + name + "' but " + prefix + "PROVIDER is not set");
    }
    endpoints.push_back({name, std::move(*config), KeyVariables(prefix, getenv)});
  }
  return endpoints;
}

Expected<Config> ResolveClientLlm(const ClientChoice& choice, const Config& server, const GetEnv& getenv) {
  if (choice.endpoint) {
    auto endpoints = ServerEndpoints(server, getenv);
    if (!endpoints) {  // the detail (variable names) is for the server's user, not the client
      support::LogWarn("LLM endpoints: " + endpoints.error().message);
      return MakeError(ErrorKind::kInvalidArgument,
                       "endpoint: the server's LLM endpoints are misconfigured (its log says how)");
    }
    std::string names;
    for (const Endpoint& e : *endpoints) {
      if (e.name == *choice.endpoint) {
        Config config = e.config;
        if (!choice.model.empty()) config.model = choice.model;
        return config;
      }
      names += (names.empty() ? "" : ", ") + e.name;
    }
    return MakeError(ErrorKind::kNotFound, "endpoint: the server has no LLM endpoint by that name (it has: " +
                                               (names.empty() ? std::string("none") : names) + ")");
  }
  Config config = server;
  config.api_key.clear();
  config.provider = choice.provider;
  config.model = choice.model;
  config.base_url = choice.base_url;
  if (!config.enabled()) return config;
  if (!config.base_url.empty()) {
    if (Status ok = CheckBaseUrl(config.base_url); !ok) {
      return MakeError(ErrorKind::kInvalidArgument, "baseUrl: " + ok.error().message);
    }
  }
  if (choice.api_key) {
    config.api_key = *choice.api_key;  // the client's own key, for the client's own endpoint
  } else if (choice.api_key_env) {
    const std::string& var = *choice.api_key_env;
    const std::string value = MayUseKeyVariable(var, EffectiveBaseUrl(config), server, getenv) ? Get(getenv, var) : "";
    if (value.empty()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "apiKeyEnv: not usable with this endpoint. It must name an NSYS_AI_* variable that is set in "
                       "the server's environment and is not an NSYS_AI_LLM_* setting; a variable holding the key of "
                       "one of the server's endpoints may be named only with that endpoint's baseUrl (or pick the "
                       "endpoint by name, or send your own apiKey). The server does not say which variables it has");
    }
    config.api_key = value;
  }
  return config;
}

std::string Describe(const Config& config) {
  if (!config.enabled()) return "no LLM (offline)";
  return std::string(ProviderName(config.provider)) + " model " + config.model + " at " + EffectiveBaseUrl(config) +
         (config.api_key.empty() ? " (no key)" : " (key set)");
}

}  // namespace nsys::llm
