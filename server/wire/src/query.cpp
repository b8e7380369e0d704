#include "nsys/wire/query.h"

#include <fmt/format.h>

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/agent/query_json.h"

namespace nsys::wire {

Expected<std::vector<agent::Query>> ToQueries(const std::vector<protocol::QuerySpec>& specs) {
  if (specs.empty()) return MakeError(ErrorKind::kInvalidArgument, "queries: at least one Query is needed");
  if (specs.size() > 16) return MakeError(ErrorKind::kInvalidArgument, "queries: at most 16 Queries at once");
  std::vector<agent::Query> out;
  for (size_t i = 0; i < specs.size(); ++i) {
    // The typed spec as the one JSON form, read by the agent's one reader (names, bounds, CheckQuery).
    auto q = agent::QueryFromJson(protocol::Json(specs[i]), fmt::format("queries[{}]", i));
    if (!q) return q.error();
    out.push_back(std::move(*q));
  }
  return out;
}

Expected<std::vector<agent::Query>> QueriesFromJsonText(std::string_view text) {
  const protocol::ParsedJson parsed = protocol::ParseJsonText(text);
  if (!parsed.error.empty()) return MakeError(ErrorKind::kInvalidArgument, parsed.error);
  const protocol::Json& json = parsed.value;
  if (!json.is_array() && !json.is_object())
    return MakeError(ErrorKind::kInvalidArgument, "a Query object or an array of them");
  std::vector<protocol::QuerySpec> specs;
  try {
    if (json.is_object()) {
      protocol::FromJson(json, specs.emplace_back(), "queries[0]");
    } else {
      for (size_t i = 0; i < json.size(); ++i)
        protocol::FromJson(json[i], specs.emplace_back(), fmt::format("queries[{}]", i));
    }
  } catch (const std::exception& e) {  // the protocol readers throw on a bad member, naming its path
    return MakeError(ErrorKind::kInvalidArgument, e.what());
  }
  return ToQueries(specs);
}

Expected<core::QueryRequest> ToQueryRequest(const protocol::QueryParams& params) {
  auto queries = ToQueries(params.queries);
  if (!queries) return queries.error();
  return core::QueryRequest{params.profile_id, std::move(*queries)};
}

protocol::QuerySpec ToQuerySpec(const agent::Query& q) {
  protocol::QuerySpec out;
  protocol::FromJson(agent::QueryToJson(q), out, "query");  // the agent's own writer: never a bad member
  return out;
}

protocol::Json QuerySchema() {
  return agent::QuerySchema();
}

}  // namespace nsys::wire
