#pragma once
// The on-disk cache of LLM exchanges (<cache dir>/llm-answers), so that asking the same question of the same
// profile again costs no tokens. An entry is one reply, keyed by the SHA-256 of the provider, model and endpoint,
// a context the caller gives (the profile's identity) and the whole request: the question, the system prompt (the
// profile summary) and every tool result fed back, i.e. the skill results used. A changed profile gives different
// skill results and so misses. The API key is in neither the key nor the entry. Bounded by entry count and size.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/llm/client.h"

namespace nsys::llm {

struct AnswerCacheLimits {
  size_t max_entries = 512;           // past it, the least recently written entries go
  size_t max_entry_bytes = 1u << 20;  // a larger reply is not stored
};

class AnswerCache {
 public:
  explicit AnswerCache(std::string dir, AnswerCacheLimits limits = {});
  // support::ResolveCacheDir(configured) + "/llm-answers".
  static std::string DefaultDir(const std::string& configured_cache_dir);
  // Lower-case hex SHA-256 over the parts, each length-prefixed so that no two lists collide.
  static std::string Key(const std::vector<std::string_view>& parts);

  std::optional<ChatResponse> Get(const std::string& key) const;
  // Best effort: a cache that cannot be written is logged (debug) and otherwise ignored.
  void Put(const std::string& key, const ChatResponse& response) const;
  const std::string& dir() const { return dir_; }

 private:
  void Trim() const;
  std::string dir_;
  AnswerCacheLimits limits_;
};

// A client that answers from the cache when the same exchange happened before (replaying the text to the sink)
// and stores what `inner` answers otherwise. `context` joins the key (the profile's identity). Both must outlive it.
class CachingClient : public Client {
 public:
  CachingClient(Client& inner, const AnswerCache& cache, std::string context);
  Expected<ChatResponse> Chat(const ChatRequest& request, const TextSink& on_text, const CancelToken& cancel) override;
  std::string Identity() const override { return inner_.Identity(); }
  std::string KeyFor(const ChatRequest& request) const;

 private:
  Client& inner_;
  const AnswerCache& cache_;
  std::string context_;
};

}  // namespace nsys::llm
