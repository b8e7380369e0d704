// OpenAI-compatible chat completions (POST {base}/chat/completions, stream: true): chunks are `data:` lines holding
// chat.completion.chunk objects, the stream ends with `data: [DONE]`; a tool call's id and name come in its first
// delta and its `function.arguments` text in pieces across later chunks, each delta naming the call by `index`.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "dialect.h"

namespace nsys::llm::internal {
namespace {

using nlohmann::json;

json MessageJson(const Message& m) {
  json out = {{"role", RoleName(m.role)}};
  switch (m.role) {
    case Role::kAssistant: {
      out["content"] = m.content.empty() && !m.tool_calls.empty() ? json(nullptr) : json(m.content);
      if (!m.tool_calls.empty()) {
        json calls = json::array();
        for (const ToolCall& c : m.tool_calls) {
          const std::string args = c.raw_arguments.empty() ? c.arguments.dump() : c.raw_arguments;
          calls.push_back({{"id", c.id}, {"type", "function"}, {"function", {{"name", c.name}, {"arguments", args}}}});
        }
        out["tool_calls"] = std::move(calls);
      }
      break;
    }
    case Role::kTool:
      out["tool_call_id"] = m.tool_call_id;
      out["content"] = m.content;
      break;
    case Role::kSystem:
    case Role::kUser:
      out["content"] = m.content;
      break;
  }
  return out;
}

class OpenAIDecoder : public StreamDecoder {
 public:
  explicit OpenAIDecoder(const TextSink& on_text) : on_text_(on_text) {}

  Status OnEvent(const std::string&, const std::string& data) override {
    if (data == "[DONE]") {
      done_ = true;
      return {};
    }
    auto chunk = ParseEventJson("openai", data);
    if (!chunk) return chunk.error();
    if (auto err = chunk->find("error"); err != chunk->end()) {  // servers may report a failure mid-stream
      return MakeError(ErrorKind::kInternal, "the LLM reported an error mid-stream: " + ErrorMessageOf(*chunk));
    }
    if (auto usage = chunk->find("usage"); usage != chunk->end() && usage->is_object()) {
      response_.input_tokens = IntAt(*usage, "prompt_tokens");
      response_.output_tokens = IntAt(*usage, "completion_tokens");
    }
    auto choices = chunk->find("choices");
    if (choices == chunk->end() || !choices->is_array() || choices->empty()) return {};  // e.g. the usage chunk
    const json& choice = (*choices)[0];
    if (!choice.is_object()) return BadShape("choices[0] is not an object");
    if (auto finish = choice.find("finish_reason"); finish != choice.end() && finish->is_string()) {
      response_.stop_reason = finish->get<std::string>();
    }
    auto delta = choice.find("delta");
    if (delta == choice.end() || delta->is_null()) return {};
    if (!delta->is_object()) return BadShape("choices[0].delta is not an object");
    if (std::string text = StringAt(*delta, "content"); !text.empty()) {
      response_.text += text;
      if (on_text_) on_text_(text);
    }
    auto calls = delta->find("tool_calls");
    if (calls == delta->end() || calls->is_null()) return {};
    if (!calls->is_array()) return BadShape("delta.tool_calls is not an array");
    for (const json& call : *calls) {
      if (Status s = OnToolCallDelta(call); !s) return s;
    }
    return {};
  }

  Expected<ChatResponse> Finish() override {
    if (!done_ && response_.stop_reason.empty()) {
      return MakeError(ErrorKind::kBadInput,
                       "the openai reply stopped before it was complete (no finish_reason and no [DONE])");
    }
    for (auto& [index, call] : calls_) {
      if (call.id.empty()) call.id = fmt::format("call_{}", index);
      call.arguments = ParseArguments(call.raw_arguments);
      response_.tool_calls.push_back(std::move(call));
    }
    calls_.clear();
    return std::move(response_);
  }

 private:
  Status OnToolCallDelta(const json& call) {
    if (!call.is_object()) return BadShape("a tool_calls entry is not an object");
    const int64_t index = call.contains("index") ? IntAt(call, "index") : static_cast<int64_t>(calls_.size());
    if (index < 0 || index > 64) return BadShape(fmt::format("tool call index {} is out of range", index));
    ToolCall& target = calls_[index];
    if (std::string id = StringAt(call, "id"); !id.empty()) target.id = id;
    auto function = call.find("function");
    if (function == call.end() || !function->is_object()) return {};
    if (std::string name = StringAt(*function, "name"); !name.empty() && target.name.empty()) target.name = name;
    target.raw_arguments += StringAt(*function, "arguments");
    if (target.raw_arguments.size() > (1u << 20)) {
      return MakeError(ErrorKind::kLimitExceeded, "a tool call's arguments passed 1 MiB");
    }
    return {};
  }

  static Status BadShape(const std::string& what) {
    return MakeError(ErrorKind::kBadInput, "the openai reply could not be read: " + what);
  }

  const TextSink& on_text_;
  ChatResponse response_;
  std::map<int64_t, ToolCall> calls_;  // by the deltas' index, in order
  bool done_ = false;
};

// OpenAI's reasoning models (the o1, o3 and o4 families and gpt-5) refuse `max_tokens` ("Unsupported parameter:
// 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.") and any temperature but the
// default; their bound, `max_completion_tokens`, counts the hidden reasoning tokens too. Matched on the model name,
// after a router's "openai/" prefix: "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-mini", "openai/o1". Every other
// model (gpt-4o, local servers: Ollama, vLLM, llama.cpp) keeps `max_tokens`, which all of them read.
bool IsReasoningModel(std::string_view model) {
  if (const size_t slash = model.rfind('/'); slash != std::string_view::npos) model.remove_prefix(slash + 1);
  auto family = [&](std::string_view prefix) {
    return model.substr(0, prefix.size()) == prefix &&
           (model.size() == prefix.size() || model[prefix.size()] == '-' || model[prefix.size()] == '.');
  };
  return family("o1") || family("o3") || family("o4") || family("gpt-5");
}

class OpenAI : public Dialect {
 public:
  HttpRequest Build(const Config& config, const ChatRequest& request) const override {
    const bool reasoning = IsReasoningModel(config.model);
    json body = {{"model", config.model}, {"stream", true}, {"stream_options", {{"include_usage", true}}}};
    body[reasoning ? "max_completion_tokens" : "max_tokens"] = request.max_tokens;
    if (request.temperature && !reasoning) body["temperature"] = *request.temperature;
    json messages = json::array();
    for (const Message& m : request.messages) messages.push_back(MessageJson(m));
    body["messages"] = std::move(messages);
    if (!request.tools.empty()) {
      json tools = json::array();
      for (const ToolSpec& t : request.tools) {
        tools.push_back(
            {{"type", "function"},
             {"function", {{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}}}});
      }
      body["tools"] = std::move(tools);
    }
    std::string base = EffectiveBaseUrl(config);
    while (!base.empty() && base.back() == '/') base.pop_back();
    HttpRequest http{base + "/chat/completions",
                     {"Content-Type: application/json", "Accept: text/event-stream"},
                     body.dump(-1, ' ', false, json::error_handler_t::replace)};
    if (!config.api_key.empty()) http.headers.push_back("Authorization: Bearer " + config.api_key);
    return http;
  }

  std::unique_ptr<StreamDecoder> Decoder(const TextSink& on_text) const override {
    return std::make_unique<OpenAIDecoder>(on_text);
  }
};

}  // namespace

std::unique_ptr<Dialect> OpenAIDialect() {
  return std::make_unique<OpenAI>();
}

}  // namespace nsys::llm::internal
