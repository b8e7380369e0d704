#pragma once
// Matching a JSON reply against an expected pattern from a transcript file (tests/transcripts/mcp/README.md).
//
// Pattern language, inside an ordinary JSON value:
//   "${ANY}"            any value (the member must still be present)
//   "${STRING}"         any string;  "${NUMBER}": any number
//   "${CONTAINS:text}"  a string containing text;  "${PREFIX:text}": a string starting with text
//   {"$json": P}        a string whose text parses as JSON matching P (tool results carry JSON text)
//   {"$near": [x, tol]} a number within tol of x
// Objects match when they have exactly the same members, each matching; arrays element by element; other values
// by equality. Before matching, "${SOURCE_DIR}" and "${FIXTURES}" in pattern strings are replaced (Substitute).
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace nsys::testing {

using Json = nlohmann::json;

// Replaces ${NAME} for each entry of `vars` in every string of `value` (keys included).
Json Substitute(const Json& value, const std::map<std::string, std::string>& vars);

// Empty when `actual` matches `pattern`; else where and how they differ ("$.result.rows[0][1]: expected 5, got 6").
std::string Mismatch(const Json& pattern, const Json& actual, const std::string& path = "$");

}  // namespace nsys::testing
