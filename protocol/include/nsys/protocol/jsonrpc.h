#pragma once
// JSON-RPC 2.0 messages as used by the LSP base protocol. Leaf library: depends on nlohmann_json only.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace nsys::protocol {

using Json = nlohmann::json;

// Error codes: JSON-RPC 2.0 and LSP.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kUnauthorized = -32000,  // ours: a TCP session whose `initialize` lacks the server's token (the connection closes)
  kUnknownErrorCode = -32001,
  kRequestFailed = -32803,  // LSP: the request was valid but failed (e.g. the profile is not an export, or a
                            // resource limit was hit: the message names the limit and its value)
  kServerCancelled = -32802,
  kContentModified = -32801,
  kRequestCancelled = -32800,
};

// A request/response id: integer or string (null only in error responses to unparseable requests).
using RequestId = std::variant<std::monostate, int64_t, std::string>;
Json IdToJson(const RequestId& id);
std::string IdToString(const RequestId& id);  // for logs: 7, "abc", null

struct Request {
  RequestId id;
  std::string method;
  Json params;  // object, array, or null when absent
};

struct Notification {
  std::string method;
  Json params;
};

struct ResponseError {
  int code = kInternalError;
  std::string message;
  Json data;  // null when absent
};

struct Response {
  RequestId id;
  std::optional<Json> result;  // exactly one of result / error
  std::optional<ResponseError> error;
};

using Message = std::variant<Request, Notification, Response>;

// Parses one message body. Errors come back as the Response the server should send:
//  - invalid UTF-8 (checked before JSON parsing, with the byte offset), invalid JSON, or nesting deeper than
//    kMaxNestingDepth → -32700, id null;
//  - a batch array → -32600 "batch requests are not supported" (LSP has no batches), id null;
//  - not an object, a missing/wrong "jsonrpc", a non-string "method", an id that is not an integer or a string,
//    "params" that is neither an object nor an array (an explicit null reads as absent), a malformed response → -32600
//    naming the field. The error carries the message's id when that id itself was valid, so the client can match it;
//    else id null.
// Classification: "method" + "id" is a Request (so a "notification" that carries an id is treated as a request and
// gets a reply); "method" without "id" is a Notification; no "method" but "result" or "error" is a Response (the
// client answering our own requests, e.g. window/workDoneProgress/create). A request id of null is refused.
// Unknown members are ignored. A caller that receives an invalid *response* should log it rather than reply.
inline constexpr int kMaxNestingDepth = 512;
struct ParseResult {
  std::optional<Message> message;
  std::optional<Response> error;  // set when message is not
};
ParseResult ParseMessage(std::string_view body);

// Serialization (compact JSON).
std::string Serialize(const Message& message);
Json ToJson(const Message& message);

Response MakeResult(const RequestId& id, Json result);
Response MakeError(const RequestId& id, int code, std::string message, Json data = nullptr);

}  // namespace nsys::protocol
