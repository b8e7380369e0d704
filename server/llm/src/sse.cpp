#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

#include "dialect.h"
#include "nsys/support/json_parse.h"

namespace nsys::llm::internal {

Status SseParser::Feed(std::string_view bytes, const OnEvent& on_event) {
  pending_.append(bytes);
  size_t start = 0;
  while (true) {
    const size_t end = pending_.find('\n', start);
    if (end == std::string::npos) break;
    std::string_view line(pending_.data() + start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (Status s = Line(line, on_event); !s) return s;
    start = end + 1;
  }
  pending_.erase(0, start);
  return {};
}

Status SseParser::Finish(const OnEvent& on_event) {
  if (!pending_.empty()) {
    std::string last = std::move(pending_);
    pending_.clear();
    if (!last.empty() && last.back() == '\r') last.pop_back();
    if (Status s = Line(last, on_event); !s) return s;
  }
  return Line("", on_event);
}

Status SseParser::Line(std::string_view line, const OnEvent& on_event) {
  if (line.empty()) {  // the end of an event
    if (!has_data_) {
      event_.clear();
      return {};
    }
    std::string event = std::move(event_), data = std::move(data_);
    event_.clear();
    data_.clear();
    has_data_ = false;
    return on_event(event, data);
  }
  if (line.front() == ':') return {};
  const size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "event") {
    event_ = std::string(value);
  } else if (field == "data") {
    if (has_data_) data_.push_back('\n');
    data_.append(value);
    has_data_ = true;
  }  // id, retry and unknown fields do not matter here
  return {};
}

std::string Excerpt(std::string_view text, size_t max) {
  std::string out;
  for (char c : text.substr(0, max)) out.push_back(c == '\n' || c == '\r' ? ' ' : c);
  if (text.size() > max) out += "...";
  return out;
}

// Every JSON text of a reply goes through the one bounded parse (support::ParseJsonText): a tool call's arguments
// nested 400,000 deep fit every size cap, and code that walks a value (dump, copies) recurses.
Expected<nlohmann::json> ParseEventJson(std::string_view provider, const std::string& data) {
  support::ParsedJson parsed = support::ParseJsonText(data);
  if (!parsed.error.empty() || !parsed.value.is_object()) {
    return MakeError(
        ErrorKind::kBadInput,
        fmt::format("the {} reply could not be read: a stream event is not a JSON object ({}): '{}'", provider,
                    parsed.error.empty() ? "another JSON value" : parsed.error, Excerpt(data, 120)));
  }
  return std::move(parsed.value);
}

nlohmann::json ParseArguments(const std::string& raw) {
  if (raw.find_first_not_of(" \t\r\n") == std::string::npos) return nlohmann::json::object();
  support::ParsedJson parsed = support::ParseJsonText(raw);
  if (!parsed.error.empty() || !parsed.value.is_object()) return nullptr;
  return std::move(parsed.value);
}

std::string ErrorMessageOf(const nlohmann::json& json) {
  if (!json.is_object()) return {};
  auto it = json.find("error");
  if (it != json.end()) {
    if (it->is_string()) return Excerpt(it->get<std::string>(), 500);
    if (it->is_object()) {
      auto m = it->find("message");
      if (m != it->end() && m->is_string()) return Excerpt(m->get<std::string>(), 500);
    }
  }
  auto m = json.find("message");
  if (m != json.end() && m->is_string()) return Excerpt(m->get<std::string>(), 500);
  return {};
}

std::string Dialect::ErrorMessage(std::string_view body) const {
  support::ParsedJson parsed = support::ParseJsonText(body);
  if (parsed.error.empty()) {
    if (std::string message = ErrorMessageOf(parsed.value); !message.empty()) return message;
  }
  return body.empty() ? "(empty body)" : Excerpt(body, 300);
}

}  // namespace nsys::llm::internal
