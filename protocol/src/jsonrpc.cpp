#include "nsys/protocol/jsonrpc.h"

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "nsys/protocol/json_parse.h"
#include "nsys/support/path_text.h"

namespace nsys::protocol {
namespace {

ParseResult Fail(int code, std::string message, RequestId id = {}) {
  ParseResult result;
  result.error = MakeError(id, code, std::move(message));
  return result;
}

const char* TypeName(const Json& j) {
  if (j.is_number_float()) return "a floating-point number";
  if (j.is_number()) return "an integer";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  return "an object";
}

// Reads an "id" member: an integer that fits int64 or a string. `error` names what is wrong.
bool ReadId(const Json& j, RequestId& id, std::string& error) {
  if (j.is_number_integer() && !j.is_number_unsigned()) {
    id = j.get<int64_t>();
    return true;
  }
  if (j.is_number_unsigned()) {
    const auto value = j.get<uint64_t>();
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      error = "\"id\" is out of range: it must fit a signed 64-bit integer";
      return false;
    }
    id = static_cast<int64_t>(value);
    return true;
  }
  if (j.is_string()) {
    id = j.get<std::string>();
    return true;
  }
  error = std::string("\"id\" must be an integer or a string, not ") + TypeName(j);
  return false;
}

ParseResult ParseResponse(const Json& j) {
  const auto id_it = j.find("id");
  if (id_it == j.end()) return Fail(kInvalidRequest, "response has no \"id\"");
  RequestId id;
  std::string id_error;
  if (!id_it->is_null() && !ReadId(*id_it, id, id_error)) return Fail(kInvalidRequest, id_error);

  const auto result_it = j.find("result");
  const auto error_it = j.find("error");
  if (result_it != j.end() && error_it != j.end()) {
    return Fail(kInvalidRequest, "response has both \"result\" and \"error\"", id);
  }
  Response response;
  response.id = id;
  if (result_it != j.end()) {
    if (id_it->is_null()) return Fail(kInvalidRequest, "a successful response must have a non-null \"id\"");
    response.result = *result_it;
  } else {
    const Json& e = *error_it;
    if (!e.is_object())
      return Fail(kInvalidRequest, std::string("\"error\" must be an object, not ") + TypeName(e), id);
    const auto code_it = e.find("code");
    if (code_it == e.end() || !code_it->is_number_integer()) {
      return Fail(kInvalidRequest, "\"error.code\" must be an integer", id);
    }
    const auto value = code_it->get<int64_t>();
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
      return Fail(kInvalidRequest, "\"error.code\" is out of range", id);
    }
    const auto message_it = e.find("message");
    if (message_it == e.end() || !message_it->is_string()) {
      return Fail(kInvalidRequest, "\"error.message\" must be a string", id);
    }
    ResponseError error;
    error.code = static_cast<int>(value);
    error.message = message_it->get<std::string>();
    if (const auto data_it = e.find("data"); data_it != e.end()) error.data = *data_it;
    response.error = std::move(error);
  }
  ParseResult parsed;
  parsed.message = std::move(response);
  return parsed;
}

}  // namespace

Json IdToJson(const RequestId& id) {
  if (const auto* n = std::get_if<int64_t>(&id)) return *n;
  if (const auto* s = std::get_if<std::string>(&id)) return *s;
  return nullptr;
}

std::string IdToString(const RequestId& id) {
  return IdToJson(id).dump(-1, ' ', false, Json::error_handler_t::replace);
}

ParseResult ParseMessage(std::string_view body) {
  ParsedJson text = ParseJsonText(body);
  if (!text.error.empty()) return Fail(kParseError, std::move(text.error));
  const Json& j = text.value;

  if (j.is_array()) return Fail(kInvalidRequest, "batch requests are not supported");
  if (!j.is_object()) return Fail(kInvalidRequest, std::string("message must be a JSON object, not ") + TypeName(j));

  // A valid id is echoed in the errors below, so that the client can match the failure to its request.
  RequestId id;
  bool has_id = false;
  std::string id_error;
  const auto id_it = j.find("id");
  if (id_it != j.end() && !id_it->is_null()) has_id = ReadId(*id_it, id, id_error);
  if (!text.duplicate.empty()) {
    // Which of two "id"s the client meant is unknowable: then the error goes to id null.
    return Fail(kInvalidRequest, "duplicate member '" + text.duplicate + "'",
                text.duplicate == "id" ? RequestId{} : id);
  }

  const auto version_it = j.find("jsonrpc");
  if (version_it == j.end()) return Fail(kInvalidRequest, "missing \"jsonrpc\" member (must be \"2.0\")", id);
  if (!version_it->is_string() || version_it->get<std::string>() != "2.0") {
    return Fail(kInvalidRequest, "\"jsonrpc\" must be \"2.0\", got " + version_it->dump(), id);
  }

  const auto method_it = j.find("method");
  if (method_it == j.end()) {
    if (j.contains("result") || j.contains("error")) return ParseResponse(j);
    return Fail(kInvalidRequest, "message has no \"method\" (and is not a response: no \"result\" or \"error\")", id);
  }
  if (!method_it->is_string()) {
    return Fail(kInvalidRequest, std::string("\"method\" must be a string, not ") + TypeName(*method_it), id);
  }
  if (id_it != j.end()) {
    if (id_it->is_null()) return Fail(kInvalidRequest, "\"id\" must be an integer or a string, not null");
    if (!has_id) return Fail(kInvalidRequest, id_error);
  }

  Json params;  // null when absent; an explicit null is read as absent (some clients send it)
  if (const auto params_it = j.find("params"); params_it != j.end() && !params_it->is_null()) {
    if (!params_it->is_object() && !params_it->is_array()) {
      return Fail(kInvalidRequest, std::string("\"params\" must be an object or an array, not ") + TypeName(*params_it),
                  id);
    }
    params = *params_it;
  }

  ParseResult parsed;
  if (has_id) {
    parsed.message = Request{std::move(id), method_it->get<std::string>(), std::move(params)};
  } else {
    parsed.message = Notification{method_it->get<std::string>(), std::move(params)};
  }
  return parsed;
}

Json ToJson(const Message& message) {
  Json j = Json::object();
  j["jsonrpc"] = "2.0";
  if (const auto* request = std::get_if<Request>(&message)) {
    j["id"] = IdToJson(request->id);
    j["method"] = request->method;
    if (!request->params.is_null()) j["params"] = request->params;
  } else if (const auto* notification = std::get_if<Notification>(&message)) {
    j["method"] = notification->method;
    if (!notification->params.is_null()) j["params"] = notification->params;
  } else {
    const auto& response = std::get<Response>(message);
    j["id"] = IdToJson(response.id);
    if (response.error) {
      Json error = {{"code", response.error->code}, {"message", response.error->message}};
      if (!response.error->data.is_null()) error["data"] = response.error->data;
      j["error"] = std::move(error);
    } else {
      j["result"] = response.result ? *response.result : Json(nullptr);  // "result": null is a valid success
    }
  }
  return j;
}

std::string Serialize(const Message& message) {
  // Strings that reach us from the world (file paths, SQL text) may hold invalid UTF-8; replace rather than throw.
  return ToJson(message).dump(-1, ' ', false, Json::error_handler_t::replace);
}

Response MakeResult(const RequestId& id, Json result) {
  Response response;
  response.id = id;
  response.result = std::move(result);
  return response;
}

Response MakeError(const RequestId& id, int code, std::string message, Json data) {
  Response response;
  response.id = id;
  // Bounded and valid UTF-8 whatever the message quoted of its input (support/path_text.h).
  response.error = ResponseError{code, support::QuoteInput(message, support::kErrorMessageBytes), std::move(data)};
  return response;
}

}  // namespace nsys::protocol
