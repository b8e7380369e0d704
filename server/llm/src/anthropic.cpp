// Anthropic Messages (POST {base}/v1/messages, stream: true; headers x-api-key and anthropic-version). The stream
// is named events: message_start (input usage), content_block_start (a text or tool_use block at an index),
// content_block_delta (text_delta text, or input_json_delta partial_json pieces of a tool's input),
// content_block_stop, message_delta (stop_reason, output usage), message_stop; ping and unknown events are skipped;
// an error event ends the exchange with the provider's message.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "dialect.h"

namespace nsys::llm::internal {
namespace {

using nlohmann::json;

constexpr const char* kAnthropicVersion = "2023-06-01";

json AssistantContent(const Message& m) {
  json blocks = json::array();
  if (!m.content.empty()) blocks.push_back({{"type", "text"}, {"text", m.content}});
  for (const ToolCall& c : m.tool_calls) {
    blocks.push_back({{"type", "tool_use"},
                      {"id", c.id},
                      {"name", c.name},
                      {"input", c.arguments.is_object() ? c.arguments : json::object()}});
  }
  return blocks;
}

// System messages become `system`; the results of one turn's tool calls go back together in one user message.
void AddMessages(const ChatRequest& request, json& body) {
  std::string system;
  json messages = json::array();
  for (const Message& m : request.messages) {
    switch (m.role) {
      case Role::kSystem:
        system += (system.empty() ? "" : "\n\n") + m.content;
        break;
      case Role::kUser:
        messages.push_back({{"role", "user"}, {"content", m.content}});
        break;
      case Role::kAssistant:
        messages.push_back({{"role", "assistant"}, {"content", AssistantContent(m)}});
        break;
      case Role::kTool: {
        json result = {{"type", "tool_result"}, {"tool_use_id", m.tool_call_id}, {"content", m.content}};
        if (m.tool_error) result["is_error"] = true;
        const bool joins =
            !messages.empty() && messages.back()["role"] == "user" && messages.back()["content"].is_array();
        if (joins) {
          messages.back()["content"].push_back(std::move(result));
        } else {
          messages.push_back({{"role", "user"}, {"content", json::array({std::move(result)})}});
        }
        break;
      }
    }
  }
  if (!system.empty()) body["system"] = system;
  body["messages"] = std::move(messages);
}

class AnthropicDecoder : public StreamDecoder {
 public:
  explicit AnthropicDecoder(const TextSink& on_text) : on_text_(on_text) {}

  // Long: one branch per event type of the stream, each a few lines.
  Status OnEvent(const std::string&, const std::string& data) override {
    auto parsed = ParseEventJson("anthropic", data);
    if (!parsed) return parsed.error();
    const json& ev = *parsed;
    const std::string type = StringAt(ev, "type");
    if (type == "message_start") {
      auto message = ev.find("message");
      if (message != ev.end() && message->is_object()) {
        if (auto usage = message->find("usage"); usage != message->end() && usage->is_object()) {
          response_.input_tokens = IntAt(*usage, "input_tokens");
          response_.output_tokens = IntAt(*usage, "output_tokens");
        }
      }
    } else if (type == "content_block_start") {
      auto block = ev.find("content_block");
      if (block == ev.end() || !block->is_object()) return BadShape("content_block_start without a content_block");
      const int64_t index = IntAt(ev, "index");
      const std::string kind = StringAt(*block, "type");
      if (kind == "tool_use") {
        ToolCall& call = calls_[index];
        call.id = StringAt(*block, "id");
        call.name = StringAt(*block, "name");
        if (auto input = block->find("input"); input != block->end() && input->is_object() && !input->empty()) {
          start_inputs_[index] = input->dump();
        }
      } else if (kind == "text") {
        AddText(StringAt(*block, "text"));
      }
    } else if (type == "content_block_delta") {
      auto delta = ev.find("delta");
      if (delta == ev.end() || !delta->is_object()) return BadShape("content_block_delta without a delta");
      const std::string kind = StringAt(*delta, "type");
      if (kind == "text_delta") {
        AddText(StringAt(*delta, "text"));
      } else if (kind == "input_json_delta") {
        auto call = calls_.find(IntAt(ev, "index"));
        if (call == calls_.end()) return BadShape("input_json_delta for a block that is not a tool_use");
        call->second.raw_arguments += StringAt(*delta, "partial_json");
        if (call->second.raw_arguments.size() > (1u << 20)) {
          return MakeError(ErrorKind::kLimitExceeded, "a tool call's arguments passed 1 MiB");
        }
      }
    } else if (type == "message_delta") {
      if (auto delta = ev.find("delta"); delta != ev.end() && delta->is_object()) {
        if (std::string stop = StringAt(*delta, "stop_reason"); !stop.empty()) response_.stop_reason = stop;
      }
      if (auto usage = ev.find("usage"); usage != ev.end() && usage->is_object() && usage->contains("output_tokens")) {
        response_.output_tokens = IntAt(*usage, "output_tokens");
      }
    } else if (type == "message_stop") {
      done_ = true;
    } else if (type == "error") {
      std::string message = ErrorMessageOf(ev);
      return MakeError(ErrorKind::kInternal,
                       "the anthropic server reported an error mid-stream: " + (message.empty() ? data : message));
    } else if (type.empty()) {
      return BadShape("a stream event has no type");
    }  // ping and event types added later are skipped
    return {};
  }

  Expected<ChatResponse> Finish() override {
    if (!done_) {
      return MakeError(ErrorKind::kBadInput, "the anthropic reply stopped before it was complete (no message_stop)");
    }
    for (auto& [index, call] : calls_) {
      if (call.raw_arguments.empty()) {
        if (auto it = start_inputs_.find(index); it != start_inputs_.end()) call.raw_arguments = it->second;
      }
      if (call.id.empty()) call.id = fmt::format("toolu_{}", index);
      call.arguments = ParseArguments(call.raw_arguments);
      response_.tool_calls.push_back(std::move(call));
    }
    calls_.clear();
    return std::move(response_);
  }

 private:
  void AddText(const std::string& text) {
    if (text.empty()) return;
    response_.text += text;
    if (on_text_) on_text_(text);
  }

  static Status BadShape(const std::string& what) {
    return MakeError(ErrorKind::kBadInput, "the anthropic reply could not be read: " + what);
  }

  const TextSink& on_text_;
  ChatResponse response_;
  std::map<int64_t, ToolCall> calls_;  // tool_use blocks by index
  std::map<int64_t, std::string> start_inputs_;
  bool done_ = false;
};

class Anthropic : public Dialect {
 public:
  HttpRequest Build(const Config& config, const ChatRequest& request) const override {
    json body = {{"model", config.model}, {"max_tokens", request.max_tokens}, {"stream", true}};
    if (request.temperature) body["temperature"] = *request.temperature;
    AddMessages(request, body);
    if (!request.tools.empty()) {
      json tools = json::array();
      for (const ToolSpec& t : request.tools) {
        tools.push_back({{"name", t.name}, {"description", t.description}, {"input_schema", t.parameters}});
      }
      body["tools"] = std::move(tools);
    }
    std::string base = EffectiveBaseUrl(config);
    while (!base.empty() && base.back() == '/') base.pop_back();
    HttpRequest http{base + "/v1/messages",
                     {"Content-Type: application/json", "Accept: text/event-stream",
                      std::string("anthropic-version: ") + kAnthropicVersion},
                     body.dump(-1, ' ', false, json::error_handler_t::replace)};
    if (!config.api_key.empty()) http.headers.push_back("x-api-key: " + config.api_key);
    return http;
  }

  std::unique_ptr<StreamDecoder> Decoder(const TextSink& on_text) const override {
    return std::make_unique<AnthropicDecoder>(on_text);
  }
};

}  // namespace

std::unique_ptr<Dialect> AnthropicDialect() {
  return std::make_unique<Anthropic>();
}

}  // namespace nsys::llm::internal
