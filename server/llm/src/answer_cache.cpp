#include "nsys/llm/answer_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

#include "nsys/support/cache_dir.h"
#include "nsys/support/json_parse.h"
#include "nsys/support/log.h"
#include "nsys/support/sha256.h"

namespace nsys::llm {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json ToJson(const ChatResponse& r) {
  json calls = json::array();
  for (const ToolCall& c : r.tool_calls) {
    calls.push_back({{"id", c.id}, {"name", c.name}, {"raw_arguments", c.raw_arguments}, {"arguments", c.arguments}});
  }
  return {{"text", r.text},
          {"tool_calls", std::move(calls)},
          {"stop_reason", r.stop_reason},
          {"input_tokens", r.input_tokens},
          {"output_tokens", r.output_tokens}};
}

// The member `name` of an object when it has the JSON type `is`, else nullptr.
const json* MemberOf(const json& object, const char* name, bool (json::*is)() const noexcept) {
  auto it = object.find(name);
  return it != object.end() && ((*it).*is)() ? &*it : nullptr;
}

// Entries are our own files, but a damaged or planted one (a crash mid-write elsewhere, a full disk, another program)
// is a miss, never an error: every member is read only when it has its type, and a missing one has its default.
std::optional<ChatResponse> FromJson(const json& j) {
  const json* text = j.is_object() ? MemberOf(j, "text", &json::is_string) : nullptr;
  const json* calls = j.is_object() ? MemberOf(j, "tool_calls", &json::is_array) : nullptr;
  if (!text || !calls) return std::nullopt;
  const auto string_or = [](const json& object, const char* name) -> std::optional<std::string> {
    if (!object.contains(name)) return std::string();
    const json* member = MemberOf(object, name, &json::is_string);
    return member ? std::optional<std::string>(member->get<std::string>()) : std::nullopt;
  };
  const auto count_or = [](const json& object, const char* name) -> std::optional<int64_t> {
    if (!object.contains(name)) return int64_t{0};
    const json* member = MemberOf(object, name, &json::is_number_integer);
    return member ? std::optional<int64_t>(member->get<int64_t>()) : std::nullopt;
  };
  ChatResponse r;
  r.text = text->get<std::string>();
  for (const json& c : *calls) {
    if (!c.is_object()) return std::nullopt;
    ToolCall call;
    auto id = string_or(c, "id");
    auto name = string_or(c, "name");
    auto raw = string_or(c, "raw_arguments");
    auto arguments = c.find("arguments");
    if (!id || !name || !raw || (arguments != c.end() && !arguments->is_object() && !arguments->is_null())) {
      return std::nullopt;
    }
    call.id = std::move(*id);
    call.name = std::move(*name);
    call.raw_arguments = std::move(*raw);
    if (arguments != c.end()) call.arguments = *arguments;
    r.tool_calls.push_back(std::move(call));
  }
  auto stop = string_or(j, "stop_reason");
  auto input_tokens = count_or(j, "input_tokens");
  auto output_tokens = count_or(j, "output_tokens");
  if (!stop || !input_tokens || !output_tokens) return std::nullopt;
  r.stop_reason = std::move(*stop);
  r.input_tokens = *input_tokens;
  r.output_tokens = *output_tokens;
  return r;
}

json RequestJson(const ChatRequest& request) {
  json messages = json::array();
  for (const Message& m : request.messages) {
    json calls = json::array();
    for (const ToolCall& c : m.tool_calls) calls.push_back({c.id, c.name, c.raw_arguments});
    messages.push_back({RoleName(m.role), m.content, calls, m.tool_call_id, m.tool_error});
  }
  json tools = json::array();
  for (const ToolSpec& t : request.tools) tools.push_back({t.name, t.description, t.parameters});
  return {{"messages", messages},
          {"tools", tools},
          {"max_tokens", request.max_tokens},
          {"temperature", request.temperature ? json(*request.temperature) : json()}};
}

}  // namespace

AnswerCache::AnswerCache(std::string dir, AnswerCacheLimits limits) : dir_(std::move(dir)), limits_(limits) {}

std::string AnswerCache::DefaultDir(const std::string& configured_cache_dir) {
  return (fs::path(support::ResolveCacheDir(configured_cache_dir)) / "llm-answers").string();
}

std::string AnswerCache::Key(const std::vector<std::string_view>& parts) {
  support::Sha256 sha;
  for (std::string_view part : parts) {
    sha.Update(fmt::format("{}:", part.size()));
    sha.Update(part);
  }
  return sha.FinishHex();
}

std::optional<ChatResponse> AnswerCache::Get(const std::string& key) const {
  if (!support::PrivateDir(dir_)) return std::nullopt;  // never an answer planted in another user's directory
  std::ifstream in(fs::path(dir_) / (key + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  // No entry larger than Put writes is read past that size (a planted 200 MB file was read whole, on a hover that
  // never waits), and the text goes through the one bounded parse (a planted entry nested 400,000 deep crashed the
  // server as it was copied).
  std::string text(limits_.max_entry_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (static_cast<size_t>(in.gcount()) > limits_.max_entry_bytes) return std::nullopt;
  text.resize(static_cast<size_t>(in.gcount()));
  support::ParsedJson parsed = support::ParseJsonText(text);
  if (!parsed.error.empty()) return std::nullopt;
  return FromJson(parsed.value);
}

void AnswerCache::Put(const std::string& key, const ChatResponse& response) const {
  const std::string text = ToJson(response).dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > limits_.max_entry_bytes) return;
  std::error_code ec;
  if (!support::PrivateDir(dir_)) return;  // only a directory of this user's, 0700: answers are private
  const fs::path final_path = fs::path(dir_) / (key + ".json");
  // A fresh 0600 file (O_EXCL|O_NOFOLLOW, random name): an answer is the user's data, and a planted link must not
  // redirect the write.
  auto file = support::CreatePrivateFile(dir_, "." + key.substr(0, 16) + ".");
  if (!file) {
    support::LogDebug("llm cache: " + file.error().message);
    return;
  }
  const fs::path tmp = file->path;
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(file->fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  if (::close(file->fd) != 0 || written != text.size()) {
    support::LogDebug(fmt::format("llm cache: cannot write {}", tmp.string()));
    fs::remove(tmp, ec);
    return;
  }
  fs::rename(tmp, final_path, ec);  // atomic: a reader sees the old entry or the new one
  if (ec) {
    support::LogDebug(fmt::format("llm cache: cannot store {}: {}", final_path.string(), ec.message()));
    fs::remove(tmp, ec);
    return;
  }
  Trim();
}

void AnswerCache::Trim() const {
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    if (e.path().extension() == ".json") entries.emplace_back(e.last_write_time(ec), e.path());
  }
  if (entries.size() <= limits_.max_entries) return;
  std::sort(entries.begin(), entries.end());
  const size_t drop = entries.size() - limits_.max_entries;
  for (size_t i = 0; i < drop; ++i) fs::remove(entries[i].second, ec);
}

CachingClient::CachingClient(Client& inner, const AnswerCache& cache, std::string context)
    : inner_(inner), cache_(cache), context_(std::move(context)) {}

std::string CachingClient::KeyFor(const ChatRequest& request) const {
  const std::string identity = inner_.Identity();
  const std::string body = RequestJson(request).dump(-1, ' ', false, json::error_handler_t::replace);
  return AnswerCache::Key({"nsys-ai llm exchange v1", identity, context_, body});
}

Expected<ChatResponse> CachingClient::Chat(const ChatRequest& request, const TextSink& on_text,
                                           const CancelToken& cancel) {
  const std::string key = KeyFor(request);
  if (auto hit = cache_.Get(key)) {
    support::LogDebug(fmt::format("llm cache: hit {}", key.substr(0, 16)));
    if (on_text && !hit->text.empty()) on_text(hit->text);
    hit->from_cache = true;
    return *hit;
  }
  auto response = inner_.Chat(request, on_text, cancel);
  if (response) cache_.Put(key, *response);
  return response;
}

}  // namespace nsys::llm
