// Conversions of the LSP base types the server reads and writes (initialize, progress, cancel, messages).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "by_fields.h"
#include "json_read.h"
#include "nsys/protocol/methods.h"

namespace nsys::protocol {
namespace {

constexpr std::pair<const char*, LogLevel> kLogLevelNames[] = {{"error", LogLevel::kError},
                                                               {"warning", LogLevel::kWarning},
                                                               {"info", LogLevel::kInfo},
                                                               {"debug", LogLevel::kDebug}};

void ReadPercentage(const ObjectReader& r, std::optional<int32_t>& out) {
  r.Optional("percentage", out);
  if (out && (*out < 0 || *out > 100)) FailAt(r.PathOf("percentage"), "must be between 0 and 100");
}

// Progress values carry their kind; a Begin read from a "report" value is a caller error worth naming.
void RequireKind(const ObjectReader& r, const char* kind) {
  std::string actual;
  r.Required("kind", actual);
  if (actual != kind) FailAt(r.PathOf("kind"), std::string("expected \"") + kind + "\", got \"" + actual + "\"");
}

}  // namespace

void FromJson(const Json& j, LogLevel& out, const std::string& path) {
  out = ReadEnum(j, path, kLogLevelNames);
}
std::string_view ToString(LogLevel level) {
  return EnumName(level, kLogLevelNames);
}

namespace {

bool IsAsciiDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsAsciiAlnum(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsAsciiHexDigit(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Exactly what ^https?://(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$ matched, in one pass (std::regex
// recursed per character and overflowed the stack on a 100 KB origin).
bool IsWebOrigin(std::string_view s) {
  if (s.rfind("https://", 0) == 0) {
    s.remove_prefix(8);
  } else if (s.rfind("http://", 0) == 0) {
    s.remove_prefix(7);
  } else {
    return false;
  }
  size_t i = 0;
  if (!s.empty() && s[0] == '[') {  // [IPv6]: hex digits and colons
    i = 1;
    while (i < s.size() && (IsAsciiHexDigit(s[i]) || s[i] == ':')) ++i;
    if (i == 1 || i == s.size() || s[i] != ']') return false;
    ++i;
  } else {  // a DNS name or an IPv4 address
    while (i < s.size() && (IsAsciiAlnum(s[i]) || s[i] == '.' || s[i] == '-')) ++i;
    if (i == 0) return false;
  }
  if (i == s.size()) return true;
  if (s[i] != ':') return false;
  const std::string_view port = s.substr(i + 1);
  return !port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), IsAsciiDigit);
}

}  // namespace

Status CheckWebOrigin(const std::string& origin) {
  if (origin.size() > kMaxWebOriginBytes) {  // not echoed
    return MakeError(ErrorKind::kInvalidArgument,
                     "an origin of " + std::to_string(origin.size()) + " bytes, over the limit of " +
                         std::to_string(kMaxWebOriginBytes) +
                         " bytes; a web origin is a scheme, a host and an optional port, like https://ui.perfetto.dev");
  }
  if (IsWebOrigin(origin)) return {};
  return MakeError(ErrorKind::kInvalidArgument,
                   "'" + origin +
                       "' is not a web origin like https://ui.perfetto.dev or http://127.0.0.1:10000 (scheme, host and "
                       "optional port; no path)");
}

void FromJson(const Json& j, MessageType& out, const std::string& path) {
  const int64_t value = ReadInteger(j, path, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
  if (value < 1 || value > 5) FailAt(path, "expected a MessageType from 1 to 5, got " + std::to_string(value));
  out = static_cast<MessageType>(value);
}

NSYS_CONVERSIONS_BY_FIELDS(ClientInfo)

namespace {
constexpr std::pair<const char*, LlmProvider> kLlmProviderNames[] = {
    {"openai", LlmProvider::kOpenAI}, {"anthropic", LlmProvider::kAnthropic}, {"none", LlmProvider::kNone}};

// Printable ASCII without spaces, 1 to `max` bytes: a key or a name that goes into an HTTP header or a lookup.
bool IsPrintableToken(const std::string& text, size_t max) {
  if (text.empty() || text.size() > max) return false;
  for (const char c : text) {
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) return false;
  }
  return true;
}
}  // namespace

void FromJson(const Json& j, LlmOptions& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Optional("endpoint", out.endpoint);
  r.Optional("model", out.model);
  r.Optional("baseUrl", out.base_url);
  r.Optional("apiKey", out.api_key);
  r.Optional("apiKeyEnv", out.api_key_env);
  const Json* provider = r.Find("provider");
  if (out.endpoint) {  // one of the server's endpoints: its URL and key come with it
    if (!IsPrintableToken(*out.endpoint, 32)) FailAt(r.PathOf("endpoint"), "must name one of the server's endpoints");
    for (const char* member : {"provider", "baseUrl", "apiKey", "apiKeyEnv"}) {
      if (r.Find(member)) {
        FailAt(r.PathOf(member), "cannot be given with endpoint (the server's endpoint has its own)");
      }
    }
  } else {
    if (!provider) FailAt(r.PathOf("provider"), "missing required field (or name one of the server's endpoints)");
    out.provider = ReadEnum(*provider, r.PathOf("provider"), kLlmProviderNames);
    if (out.provider != LlmProvider::kNone && (!out.model || out.model->empty())) {
      FailAt(r.PathOf("model"), "required with provider \"" + provider->get<std::string>() + "\"");
    }
  }
  if (out.model && out.model->size() > 256) FailAt(r.PathOf("model"), "longer than 256 bytes");
  if (out.base_url && out.base_url->rfind("http://", 0) != 0 && out.base_url->rfind("https://", 0) != 0) {
    FailAt(r.PathOf("baseUrl"), "must be an http:// or https:// URL");
  }
  if (out.api_key && out.api_key_env) FailAt(r.PathOf("apiKey"), "give apiKey or apiKeyEnv, not both");
  if (out.api_key && !IsPrintableToken(*out.api_key, 4096)) {
    FailAt(r.PathOf("apiKey"), "must be 1 to 4096 printable ASCII characters without spaces");
  }
  if (out.api_key_env && out.api_key_env->empty()) FailAt(r.PathOf("apiKeyEnv"), "must name an environment variable");
}
void to_json(Json& j, const LlmOptions& v) {
  j = Json::object();
  SetIfPresent(j, "endpoint", v.endpoint);
  if (!v.endpoint) j["provider"] = std::string(EnumName(v.provider, kLlmProviderNames));
  SetIfPresent(j, "model", v.model);
  SetIfPresent(j, "baseUrl", v.base_url);
  SetIfPresent(j, "apiKey", v.api_key);
  SetIfPresent(j, "apiKeyEnv", v.api_key_env);
}

void FromJson(const Json& j, InitializationOptions& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Optional("noCache", out.no_cache);
  r.Optional("skillDirs", out.skill_dirs);
  r.Optional("logLevel", out.log_level);
  r.Optional("perfettoOrigin", out.perfetto_origin);
  if (out.perfetto_origin) {
    if (auto origin = CheckWebOrigin(*out.perfetto_origin); !origin) {
      FailAt(r.PathOf("perfettoOrigin"), origin.error().message);
    }
  }
  r.Optional("nsysPath", out.nsys_path);
  if (out.nsys_path && out.nsys_path->rfind('/', 0) != 0 && out.nsys_path->rfind("file:///", 0) != 0) {
    FailAt(r.PathOf("nsysPath"), "must be an absolute path (or a file: URI) to an nsys binary");
  }
  r.Optional("skillTimeoutSeconds", out.skill_timeout_seconds);
  if (out.skill_timeout_seconds && !(*out.skill_timeout_seconds > 0 && *out.skill_timeout_seconds <= 86400)) {
    FailAt(r.PathOf("skillTimeoutSeconds"), "must be a number of seconds, more than 0 and at most 86400 (a day)");
  }
  r.Optional("llm", out.llm);
  r.Optional("memoryBudget", out.memory_budget);
  r.Optional("sourceRoots", out.source_roots);
  r.Optional("runLauncher", out.run_launcher);
}
void to_json(Json& j, const InitializationOptions& v) {
  j = Json::object();
  SetIfPresent(j, "noCache", v.no_cache);
  SetIfPresent(j, "skillDirs", v.skill_dirs);
  if (v.log_level) j["logLevel"] = std::string(ToString(*v.log_level));
  SetIfPresent(j, "perfettoOrigin", v.perfetto_origin);
  SetIfPresent(j, "nsysPath", v.nsys_path);
  SetIfPresent(j, "skillTimeoutSeconds", v.skill_timeout_seconds);
  SetIfPresent(j, "llm", v.llm);
  if (v.memory_budget) j["memoryBudget"] = ScalarToJson(*v.memory_budget);
  SetIfPresent(j, "sourceRoots", v.source_roots);
  SetIfPresent(j, "runLauncher", v.run_launcher);
}

void FromJson(const Json& j, InitializeParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Optional("processId", out.process_id);
  r.Optional("clientInfo", out.client_info);
  if (const Json* capabilities = r.Find("capabilities")) {
    ObjectReader caps(*capabilities, r.PathOf("capabilities"));
    if (const Json* window = caps.Find("window")) {
      ObjectReader w(*window, caps.PathOf("window"));
      w.OptionalOr("workDoneProgress", out.work_done_progress);
      if (const Json* show_document = w.Find("showDocument")) {
        ObjectReader(*show_document, w.PathOf("showDocument")).OptionalOr("support", out.show_document);
      }
    }
    if (const Json* workspace = caps.Find("workspace")) {
      ObjectReader w(*workspace, caps.PathOf("workspace"));
      if (const Json* lens = w.Find("codeLens")) {
        ObjectReader(*lens, w.PathOf("codeLens")).OptionalOr("refreshSupport", out.code_lens_refresh);
      }
    }
  }
  r.Optional("initializationOptions", out.initialization_options);
  if (const Json* folders = r.Find("workspaceFolders")) {
    if (!folders->is_array()) FailExpected(*folders, r.PathOf("workspaceFolders"), "an array");
    for (size_t i = 0; i < folders->size(); ++i) {
      std::string uri;
      ObjectReader((*folders)[i], IndexPath(r.PathOf("workspaceFolders"), i)).Required("uri", uri);
      out.workspace_folders.push_back(std::move(uri));
    }
  }
  r.Optional("rootUri", out.root_uri);
  r.Optional("rootPath", out.root_path);
}
void to_json(Json& j, const InitializeParams& v) {
  j = Json::object();
  j["processId"] = v.process_id ? Json(*v.process_id) : Json(nullptr);  // required by LSP, null when none
  SetIfPresent(j, "clientInfo", v.client_info);
  j["capabilities"] = {
      {"window", {{"workDoneProgress", v.work_done_progress}, {"showDocument", {{"support", v.show_document}}}}}};
  if (v.code_lens_refresh) j["capabilities"]["workspace"] = {{"codeLens", {{"refreshSupport", true}}}};
  SetIfPresent(j, "initializationOptions", v.initialization_options);
  if (!v.workspace_folders.empty()) {
    j["workspaceFolders"] = Json::array();
    for (const auto& uri : v.workspace_folders) j["workspaceFolders"].push_back({{"uri", uri}, {"name", uri}});
  }
  SetIfPresent(j, "rootUri", v.root_uri);
  SetIfPresent(j, "rootPath", v.root_path);
}

void FromJson(const Json& j, ServerCapabilities& out, const std::string& path) {
  ObjectReader r(j, path);
  if (const Json* execute = r.Find("executeCommandProvider")) {
    ObjectReader(*execute, r.PathOf("executeCommandProvider")).OptionalOr("commands", out.execute_commands);
  }
  if (const Json* experimental = r.Find("experimental")) {
    const ObjectReader x(*experimental, r.PathOf("experimental"));
    x.OptionalOr("nsysMethods", out.nsys_methods);
    x.OptionalOr("skills", out.skills);
  }
  r.OptionalOr("hoverProvider", out.hover_provider);
  out.code_lens_provider = r.Find("codeLensProvider") != nullptr;
  if (const Json* actions = r.Find("codeActionProvider")) {
    if (actions->is_object())
      ObjectReader(*actions, r.PathOf("codeActionProvider")).OptionalOr("codeActionKinds", out.code_action_kinds);
  }
  if (const Json* sync = r.Find("textDocumentSync")) {
    int32_t change = 0;
    ObjectReader(*sync, r.PathOf("textDocumentSync")).OptionalOr("change", change);
    out.text_document_sync_change = change;
  }
}
void to_json(Json& j, const ServerCapabilities& v) {
  j = Json::object();
  if (!v.execute_commands.empty()) j["executeCommandProvider"] = {{"commands", v.execute_commands}};
  // Both members go out together (possibly empty) once the server has anything of its own to announce.
  if (!v.nsys_methods.empty() || !v.skills.empty()) {
    j["experimental"] = {{"nsysMethods", v.nsys_methods}, {"skills", v.skills}};
  }
  if (v.hover_provider) j["hoverProvider"] = true;
  if (v.code_lens_provider) j["codeLensProvider"] = {{"resolveProvider", false}};
  if (!v.code_action_kinds.empty()) j["codeActionProvider"] = {{"codeActionKinds", v.code_action_kinds}};
  if (v.text_document_sync_change) {
    j["textDocumentSync"] = {{"openClose", true}, {"change", *v.text_document_sync_change}};
  }
}

NSYS_CONVERSIONS_BY_FIELDS(ServerInfo)
NSYS_CONVERSIONS_BY_FIELDS(InitializeResult)
NSYS_CONVERSIONS_BY_FIELDS(WorkDoneProgressCreateParams)
NSYS_CONVERSIONS_BY_FIELDS(ProgressParams)

void FromJson(const Json& j, WorkDoneProgressBegin& out, const std::string& path) {
  ObjectReader r(j, path);
  RequireKind(r, "begin");
  r.Required("title", out.title);
  r.Optional("cancellable", out.cancellable);
  r.Optional("message", out.message);
  ReadPercentage(r, out.percentage);
}
void to_json(Json& j, const WorkDoneProgressBegin& v) {
  j = {{"kind", "begin"}, {"title", v.title}};
  SetIfPresent(j, "cancellable", v.cancellable);
  SetIfPresent(j, "message", v.message);
  SetIfPresent(j, "percentage", v.percentage);
}

void FromJson(const Json& j, WorkDoneProgressReport& out, const std::string& path) {
  ObjectReader r(j, path);
  RequireKind(r, "report");
  r.Optional("cancellable", out.cancellable);
  r.Optional("message", out.message);
  ReadPercentage(r, out.percentage);
}
void to_json(Json& j, const WorkDoneProgressReport& v) {
  j = {{"kind", "report"}};
  SetIfPresent(j, "cancellable", v.cancellable);
  SetIfPresent(j, "message", v.message);
  SetIfPresent(j, "percentage", v.percentage);
}

void FromJson(const Json& j, WorkDoneProgressEnd& out, const std::string& path) {
  ObjectReader r(j, path);
  RequireKind(r, "end");
  r.Optional("message", out.message);
}
void to_json(Json& j, const WorkDoneProgressEnd& v) {
  j = {{"kind", "end"}};
  SetIfPresent(j, "message", v.message);
}

RequestTokens ReadRequestTokens(const Json& params) {
  RequestTokens tokens;
  if (!params.is_object()) return tokens;
  const auto read = [&params](const char* key, std::optional<ProgressToken>& out) {
    const auto it = params.find(key);
    if (it == params.end()) return;
    if (it->is_string()) {
      out = it->get<std::string>();
    } else if (it->is_number_integer() && !(it->is_number_unsigned() && it->get<uint64_t>() > INT64_MAX)) {
      out = it->get<int64_t>();
    }
  };
  read("workDoneToken", tokens.work_done_token);
  read("partialResultToken", tokens.partial_result_token);
  return tokens;
}

NSYS_CONVERSIONS_BY_FIELDS(CancelParams)
NSYS_CONVERSIONS_BY_FIELDS(LogMessageParams)
NSYS_CONVERSIONS_BY_FIELDS(ShowDocumentParams)
NSYS_CONVERSIONS_BY_FIELDS(ShowDocumentResult)

}  // namespace nsys::protocol
