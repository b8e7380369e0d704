#pragma once
// Helpers of the typed-parameter tests (methods_test, lsp_types_test): a value's exact JSON and its read-back, and
// the message a bad JSON text gives when read as a type. Shared rather than copied per file so that the unity build,
// which compiles several test files as one translation unit, sees one definition.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "nsys/protocol/methods.h"

namespace nsys::protocol::testing {

// Writes `value`, checks the exact JSON text, and reads it back to an equal value.
template <typename T>
void ExpectRoundTrip(const T& value, std::string_view expected_json) {
  const Json j = value;
  EXPECT_EQ(j.dump(), expected_json);
  const Expected<T> back = Parse<T>(j);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(*back == value) << "round trip changed " << expected_json;
}

// The message of the kInvalidArgument error that reading `json_text` as a T (under `root`) gives; "" (and a test
// failure) when it reads.
template <typename T>
std::string ErrorOf(std::string_view json_text, const std::string& root = "params") {
  const Expected<T> parsed = Parse<T>(Json::parse(json_text), root);
  EXPECT_FALSE(parsed.ok()) << json_text;
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument);
  return parsed.error().message;
}

}  // namespace nsys::protocol::testing
