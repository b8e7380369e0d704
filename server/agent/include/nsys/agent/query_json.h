#pragma once
// The one JSON form of a Query (agent/query.h): its JSON Schema, generated from the agent's tables of names, its
// reader and its writer. Every face reads a Query through it (wire/query.h converts the protocol's typed QuerySpec to
// this JSON first), and so does the LLM's `query` tool (llm_ask.h), whose arguments are the model's untrusted JSON.
//
// Members are camelCase: measures, subject {events, name, copyKind, apiClass, memory, wholeName}, scope {devices, pids,
// stream, inside, fromSeconds, toSeconds, longerThanNs, shorterThanNs, largerThanBytes, smallerThanBytes}, groupBy,
// rank, limit, versusSubject, versusScope, form, yesIfLess, threshold.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nsys/agent/query.h"
#include "nsys/support/expected.h"

namespace nsys::agent {

// The JSON Schema (draft 2020-12) of one Query object: every enum's values are the agent's own names.
nlohmann::json QuerySchema();

// One Query from JSON, or kInvalidArgument naming the first bad member by its path ("queries[1].measures[0]: unknown
// measure 'avg'; one of total, count, ...", "queries[0].scope.devices[0]: not an integer"): a member of the wrong
// type, an unknown member or name, and the bounds CheckQuery keeps.
Expected<Query> QueryFromJson(const nlohmann::json& json, const std::string& path);
// One Query object or an array of 1 to 16 of them, each read by QueryFromJson with the path "queries[i]".
Expected<std::vector<Query>> QueriesFromJson(const nlohmann::json& json);

// A Query as that JSON, with the members that hold their default left out: QueryFromJson reads it back as the same
// Query (Subject::whole_name aside, which the JSON form does not carry).
nlohmann::json QueryToJson(const Query& query);

}  // namespace nsys::agent
