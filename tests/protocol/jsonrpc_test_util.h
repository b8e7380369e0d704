#pragma once
// Helpers of the JSON-RPC message tests (jsonrpc_test, json_parse_test): the error response ParseMessage gives a body,
// and the exact text such a response should have, so each case is one string comparison. Shared rather than copied
// per file so that the unity build, which compiles several test files as one translation unit, sees one definition.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "nsys/protocol/jsonrpc.h"

namespace nsys::protocol::testing {

// The error response ParseMessage produced, serialized, so each case is one exact comparison.
inline std::string ErrorOf(std::string_view body) {
  const ParseResult result = ParseMessage(body);
  EXPECT_FALSE(result.message.has_value()) << body;
  if (!result.error) return "<no error>";
  return Serialize(*result.error);
}

// The serialized error response with this id, code and message.
inline std::string Err(std::string_view id, int code, std::string_view message) {
  return std::string("{\"error\":{\"code\":") + std::to_string(code) + ",\"message\":" + Json(message).dump() +
         "},\"id\":" + std::string(id) + ",\"jsonrpc\":\"2.0\"}";
}

}  // namespace nsys::protocol::testing
