#pragma once
// nsys/query between the wire (protocol/query.h) and the agent's typed Query (agent/query.h): every face (LSP, MCP,
// CLI) converts here, through the agent's one JSON form of a Query (agent/query_json.h: its reader, writer and JSON
// Schema, which the LLM's query tool uses too).
#include <string_view>
#include <vector>

#include "nsys/agent/query.h"
#include "nsys/core/ask.h"
#include "nsys/protocol/json_parse.h"
#include "nsys/protocol/query.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// The agent's Queries, or kInvalidArgument naming the first bad member by its path ("queries[1].measures[0]: unknown
// measure 'avg'; one of total, count, ...") and the bounds agent::CheckQuery keeps.
Expected<std::vector<agent::Query>> ToQueries(const std::vector<protocol::QuerySpec>& specs);
Expected<core::QueryRequest> ToQueryRequest(const protocol::QueryParams& params);
// Queries from JSON text (the CLI's `ask --query`): one Query object or an array of them; an error names the path.
Expected<std::vector<agent::Query>> QueriesFromJsonText(std::string_view text);
// A Query as JSON (for tests and the reading a client may echo).
protocol::QuerySpec ToQuerySpec(const agent::Query& query);
// The JSON Schema (draft 2020-12) of one Query object: every enum's values are the agent's own names.
protocol::Json QuerySchema();

}  // namespace nsys::wire
