// Conversation states by id, bounded in count (least recently used first out) and in idle age.
#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "nsys/agent/ask.h"

namespace nsys::agent {

ConversationStore::ConversationStore(size_t max_conversations, std::chrono::seconds max_idle)
    : max_conversations_(std::max<size_t>(1, max_conversations)),
      max_idle_(max_idle),
      now_([] { return Clock::now(); }) {}

void ConversationStore::ExpireLocked(Clock::time_point now) {
  for (auto it = slots_.begin(); it != slots_.end();) {
    it = now - it->second.used > max_idle_ ? slots_.erase(it) : std::next(it);
  }
}

std::optional<ConversationState> ConversationStore::Get(const std::string& id) {
  std::lock_guard lock(mu_);
  const auto now = now_();
  ExpireLocked(now);
  auto it = slots_.find(id);
  if (it == slots_.end()) return std::nullopt;
  it->second.used = now;
  return it->second.state;
}

std::string ConversationStore::Put(const std::string& id, ConversationState state) {
  std::lock_guard lock(mu_);
  const auto now = now_();
  ExpireLocked(now);
  std::string key = id;
  if (key.empty()) {
    do {
      key = "c" + std::to_string(next_id_++);
    } while (slots_.count(key));
  }
  if (!slots_.count(key) && slots_.size() >= max_conversations_) {
    auto oldest = std::min_element(slots_.begin(), slots_.end(),
                                   [](const auto& a, const auto& b) { return a.second.used < b.second.used; });
    slots_.erase(oldest);
  }
  slots_[key] = Slot{std::move(state), now};
  return key;
}

size_t ConversationStore::size() {
  std::lock_guard lock(mu_);
  ExpireLocked(now_());
  return slots_.size();
}

void ConversationStore::SetClockForTest(std::function<Clock::time_point()> now) {
  std::lock_guard lock(mu_);
  now_ = std::move(now);
}

}  // namespace nsys::agent
