#pragma once
// JSON-RPC 2.0 messages as used by the LSP base protocol. Depends on nlohmann_json (and support, via methods.h).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "nsys/protocol/json_parse.h"

namespace nsys::protocol {

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
//  - anything ParseJsonText refuses: invalid UTF-8 (with the byte offset), invalid JSON, nesting deeper than
//    kMaxNestingDepth, a number out of a double's range (1e400, even in the id) → -32700, id null;
//  - a member name repeated in any object of the message → -32600 "duplicate member 'method'" (the path names a
//    nested one: 'params.path'), with the message's id unless "id" itself is repeated;
//  - a batch array → -32600 "batch requests are not supported" (LSP has no batches), id null;
//  - not an object, a missing/wrong "jsonrpc", a non-string "method", an id that is not an integer or a string,
//    "params" that is neither an object nor an array (an explicit null reads as absent), a malformed response → -32600
//    naming the field. The error carries the message's id when that id itself was valid, so the client can match it;
//    else id null.
// Classification: "method" + "id" is a Request (so a "notification" that carries an id is treated as a request and
// gets a reply); "method" without "id" is a Notification; no "method" but "result" or "error" is a Response (the
// client answering our own requests, e.g. window/workDoneProgress/create). A request id of null is refused.
// Unknown members are ignored. A caller that receives an invalid *response* should log it rather than reply.
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
