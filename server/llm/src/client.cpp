// The exchange every provider shares: the cost gate, the POST with its timeouts, SSE decoding through the
// provider's dialect, bounded retries with backoff on HTTP 429/5xx, cancellation, and errors scrubbed of the key.
#include "nsys/llm/client.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "dialect.h"
#include "http.h"
#include "nsys/support/log.h"
#include "nsys/support/redact.h"

namespace nsys::llm {

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kSystem:
      return "system";
    case Role::kUser:
      return "user";
    case Role::kAssistant:
      return "assistant";
    case Role::kTool:
      return "tool";
  }
  return "user";
}

int64_t EstimateTokens(const ChatRequest& request) {
  // ~4 characters a token for English and JSON (both providers' rule of thumb), plus the per-message framing.
  auto tokens = [](size_t chars) { return static_cast<int64_t>((chars + 3) / 4); };
  int64_t total = 3;
  for (const Message& m : request.messages) {
    total += 4 + tokens(m.content.size()) + tokens(m.tool_call_id.size());
    for (const ToolCall& c : m.tool_calls) {
      total += 4 + tokens(c.name.size() + c.id.size()) +
               tokens(c.raw_arguments.empty() ? c.arguments.dump().size() : c.raw_arguments.size());
    }
  }
  for (const ToolSpec& t : request.tools) {
    total += 8 + tokens(t.name.size() + t.description.size() + t.parameters.dump().size());
  }
  return total;
}

Status CheckPromptBudget(const ChatRequest& request, int64_t max_prompt_tokens) {
  const int64_t estimate = EstimateTokens(request);
  if (max_prompt_tokens > 0 && estimate > max_prompt_tokens) {
    return MakeError(ErrorKind::kLimitExceeded,
                     fmt::format("the prompt is estimated at {} tokens, over the budget of {} tokens "
                                 "(max_prompt_tokens); nothing was sent. Ask a narrower question, start a new "
                                 "conversation or raise the budget",
                                 estimate, max_prompt_tokens));
  }
  return {};
}

namespace {

using internal::Dialect;

class StreamingClient : public Client {
 public:
  StreamingClient(Config config, std::unique_ptr<Dialect> dialect)
      : config_(std::move(config)), dialect_(std::move(dialect)) {}

  Expected<ChatResponse> Chat(const ChatRequest& request, const TextSink& on_text, const CancelToken& cancel) override {
    auto response = Exchange(request, on_text, cancel);
    if (!response) return Error{response.error().kind, Scrub(response.error().message)};
    return response;
  }

  std::string Identity() const override {
    return fmt::format("{} {} {}", ProviderName(config_.provider), config_.model, Scrub(EffectiveBaseUrl(config_)));
  }

 private:
  // Long: one attempt's setup, the transfer, and the retry decision read best in one place.
  Expected<ChatResponse> Exchange(const ChatRequest& request, const TextSink& on_text, const CancelToken& cancel) {
    if (Status gate = CheckPromptBudget(request, config_.max_prompt_tokens); !gate) return gate.error();
    const internal::HttpRequest http = dialect_->Build(config_, request);
    const internal::HttpLimits limits{config_.connect_timeout, config_.timeout, config_.stall_timeout};
    const std::string_view provider = ProviderName(config_.provider);
    for (int attempt = 0;; ++attempt) {
      if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "the LLM request was cancelled");
      support::LogDebug(Scrub(fmt::format("llm: POST {} (model {}, {} bytes, ~{} prompt tokens, attempt {})", http.url,
                                          config_.model, http.body.size(), EstimateTokens(request), attempt + 1)));
      auto decoder = dialect_->Decoder(on_text);
      internal::SseParser sse;
      std::string head;  // the reply's first bytes, to show when it is not the provider's format
      auto on_event = [&](const std::string& event, const std::string& data) { return decoder->OnEvent(event, data); };
      auto outcome = internal::Post(
          http, limits,
          [&](std::string_view bytes) {
            if (head.size() < 200) head.append(bytes.substr(0, 200 - head.size()));
            return sse.Feed(bytes, on_event);
          },
          cancel);
      if (!outcome) return outcome.error();
      const long status = outcome->status;
      if (status >= 200 && status < 300) {
        if (Status s = sse.Finish(on_event); !s) return s.error();
        auto response = decoder->Finish();
        if (!response) {
          return MakeError(response.error().kind,
                           fmt::format("{}; the reply began: '{}'", response.error().message, internal::Excerpt(head)));
        }
        support::LogDebug(fmt::format("llm: {} reply: {} text bytes, {} tool calls, stop {}, tokens in {} out {}",
                                      provider, response->text.size(), response->tool_calls.size(),
                                      response->stop_reason, response->input_tokens, response->output_tokens));
        return response;
      }
      const std::string message = dialect_->ErrorMessage(outcome->error_body);
      const bool retryable = status == 429 || status >= 500;
      if (retryable && attempt < config_.max_retries) {
        const auto backoff = config_.retry_base_delay * (int64_t{1} << std::min(attempt, 20));
        const auto delay = std::min(outcome->retry_after.value_or(backoff), config_.max_retry_delay);
        support::LogInfo(Scrub(fmt::format("llm: HTTP {} from {} ({}); retry {} of {} in {} ms", status, provider,
                                           message, attempt + 1, config_.max_retries, delay.count())));
        if (!internal::SleepUnlessCancelled(delay, cancel)) {
          return MakeError(ErrorKind::kCancelled, "the LLM request was cancelled");
        }
        continue;
      }
      return StatusError(status, message, retryable ? attempt : -1);
    }
  }

  Error StatusError(long status, const std::string& message, int retries) const {
    std::string text = fmt::format("the {} server ({}) answered HTTP {}: {}", ProviderName(config_.provider),
                                   config_.model, status, message);
    if (retries >= 0) text += fmt::format(" (after {} retries)", retries);
    ErrorKind kind = ErrorKind::kInternal;
    if (status == 429) {
      kind = ErrorKind::kLimitExceeded;
    } else if (status == 404) {
      kind = ErrorKind::kNotFound;
    } else if (status >= 400 && status < 500) {
      kind = ErrorKind::kInvalidArgument;
      if (status == 401 || status == 403) text += "; check the API key (NSYS_AI_LLM_API_KEY)";
    }
    return MakeError(kind, std::move(text));
  }

  // The key, should anything carry it (a provider echoing it, a base URL with it in the query), never leaves; nor
  // does any other secret support::RedactSecrets knows (passwords in URLs, ?key=, Authorization headers).
  std::string Scrub(std::string text) const {
    const std::string& key = config_.api_key;
    if (!key.empty()) {
      for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
        text.replace(at, key.size(), support::kRedacted);
      }
    }
    return support::RedactSecrets(text);
  }

  Config config_;
  std::unique_ptr<Dialect> dialect_;
};

}  // namespace

Expected<std::unique_ptr<Client>> MakeClient(const Config& config) {
  switch (config.provider) {
    case Provider::kOpenAI:
      return std::unique_ptr<Client>(std::make_unique<StreamingClient>(config, internal::OpenAIDialect()));
    case Provider::kAnthropic:
      return std::unique_ptr<Client>(std::make_unique<StreamingClient>(config, internal::AnthropicDialect()));
    case Provider::kNone:
      break;
  }
  return MakeError(ErrorKind::kInvalidArgument,
                   "no LLM is configured (set NSYS_AI_LLM_PROVIDER and NSYS_AI_LLM_MODEL)");
}

}  // namespace nsys::llm
