#pragma once
// A chat client for the LLM the agent talks to: OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp
// server, LM Studio) and Anthropic Messages, both streamed (SSE) with tool calls, over libcurl.
//
// Trust boundary: everything a provider sends back (text, tool names, tool arguments, error bodies) is untrusted
// input. The client checks its shape and reports a clear error (kBadInput) for anything it cannot read; tool
// arguments are handed on as parsed JSON (or, when they do not parse, as raw text with `arguments` null) for the
// caller to validate. The API key is only ever put in the request's auth header: it is never logged (at any level),
// never part of an error message (errors are scrubbed of it in case a provider echoes it), never cached.
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/llm/config.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::llm {

// Receives the model's text as it streams, piece by piece (never tool-call arguments).
using TextSink = std::function<void(const std::string& piece)>;  // the same type as agent::TextSink

// A function the model may call.
struct ToolSpec {
  std::string name;
  std::string description;
  nlohmann::json parameters;  // a JSON Schema of type "object"
};

struct ToolCall {
  std::string id;             // the provider's id, echoed back with the result
  std::string name;           // as the model wrote it: may name no tool
  nlohmann::json arguments;   // the parsed arguments; null when raw_arguments is not a JSON object
  std::string raw_arguments;  // the arguments as streamed (JSON text)
  bool operator==(const ToolCall&) const = default;
};

enum class Role { kSystem, kUser, kAssistant, kTool };
std::string_view RoleName(Role role);  // "system", "user", "assistant", "tool"

struct Message {
  Role role = Role::kUser;
  std::string content;
  std::vector<ToolCall> tool_calls;  // assistant messages: the calls the model made
  std::string tool_call_id;          // tool messages: the call this result answers
  bool tool_error = false;           // tool messages: the result is an error (Anthropic's is_error)
  bool operator==(const Message&) const = default;
};

struct ChatRequest {
  std::vector<Message> messages;  // system messages first; the Anthropic client sends them as `system`
  std::vector<ToolSpec> tools;
  int max_tokens = 2048;
  std::optional<double> temperature;
};

struct ChatResponse {
  std::string text;
  std::vector<ToolCall> tool_calls;
  std::string stop_reason;   // as the provider names it ("stop", "tool_calls", "end_turn", "tool_use", "length", ...)
  int64_t input_tokens = 0;  // as the provider reports them (0 when it does not)
  int64_t output_tokens = 0;
  bool from_cache = false;  // answered by a CachingClient without a request
};

class Client {
 public:
  virtual ~Client() = default;
  // One exchange: sends the request, streams the text to `on_text` (may be empty) and returns the whole reply.
  // Errors: kLimitExceeded (the cost gate, a timeout, retries exhausted on HTTP 429), kCancelled, kBadInput (a
  // reply that is not the provider's format), kInvalidArgument (HTTP 400/401/403: the request or the key was
  // refused), kNotFound (HTTP 404: no such model or endpoint), kInternal (HTTP 5xx after the retries, network).
  virtual Expected<ChatResponse> Chat(const ChatRequest& request, const TextSink& on_text,
                                      const CancelToken& cancel) = 0;
  // Provider, model and endpoint, for cache keys and messages. Never the key.
  virtual std::string Identity() const = 0;
};

// The client for config.provider; kInvalidArgument when no provider is configured.
Expected<std::unique_ptr<Client>> MakeClient(const Config& config);

// A rough count of the tokens the request's prompt takes (about 4 characters a token, plus a few per message and
// the tools' schemas): what the cost gate compares with Config::max_prompt_tokens.
int64_t EstimateTokens(const ChatRequest& request);

// The cost gate: kLimitExceeded naming the estimate and the budget when the prompt is estimated past it.
Status CheckPromptBudget(const ChatRequest& request, int64_t max_prompt_tokens);

}  // namespace nsys::llm
