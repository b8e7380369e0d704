#pragma once
// What differs between providers: how a ChatRequest becomes an HTTP request, how the SSE stream becomes a
// ChatResponse, and where an error body keeps its message. The retry/timeout/cancel/cost-gate loop (client.cpp) is
// shared.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "http.h"
#include "nsys/llm/client.h"

namespace nsys::llm::internal {

// Server-sent events (the WHATWG format both providers use): "event:" and "data:" lines, a blank line ends an
// event, ":" lines are comments, CR LF or LF line ends. Bytes may arrive split anywhere.
class SseParser {
 public:
  using OnEvent = std::function<Status(const std::string& event, const std::string& data)>;
  Status Feed(std::string_view bytes, const OnEvent& on_event);
  // The stream ended: dispatches an event left without its blank line.
  Status Finish(const OnEvent& on_event);

 private:
  Status Line(std::string_view line, const OnEvent& on_event);
  std::string pending_;  // an incomplete line
  std::string event_;
  std::string data_;
  bool has_data_ = false;
};

// Decodes one streamed reply.
class StreamDecoder {
 public:
  virtual ~StreamDecoder() = default;
  virtual Status OnEvent(const std::string& event, const std::string& data) = 0;
  // After the last byte: the whole reply, or kBadInput when the stream stopped before the provider's end marker.
  virtual Expected<ChatResponse> Finish() = 0;
};

class Dialect {
 public:
  virtual ~Dialect() = default;
  virtual HttpRequest Build(const Config& config, const ChatRequest& request) const = 0;
  virtual std::unique_ptr<StreamDecoder> Decoder(const TextSink& on_text) const = 0;
  // The provider's own message in an error body ({"error": {"message": ...}}), or a short excerpt of the body.
  std::string ErrorMessage(std::string_view body) const;
};

std::unique_ptr<Dialect> OpenAIDialect();
std::unique_ptr<Dialect> AnthropicDialect();

// Parses a data payload as JSON; kBadInput naming the provider and showing the start of the text otherwise.
Expected<nlohmann::json> ParseEventJson(std::string_view provider, const std::string& data);
// Tool arguments as streamed: parsed when they are a JSON object ("" = {}), else null.
nlohmann::json ParseArguments(const std::string& raw);
std::string Excerpt(std::string_view text, size_t max = 200);
// The message of a provider's error object ({"error": {"message"}}, {"error": "..."} or {"message"}), or "".
std::string ErrorMessageOf(const nlohmann::json& body);

// A field of a provider's JSON object: the string, or "" when absent or not a string; the integer, or 0.
inline std::string StringAt(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}
inline int64_t IntAt(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

}  // namespace nsys::llm::internal
