#include "nsys/wire/query.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nsys::wire {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace query_wire {

std::string OneOf(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) out += fmt::format("{}{}", out.empty() ? "" : ", ", n);
  return out;
}

protocol::Json Names(std::span<const std::string_view> names) {
  protocol::Json out = protocol::Json::array();
  for (std::string_view n : names) out.push_back(std::string(n));
  return out;
}

// The enum value named `name` of `names`, or an error at `path`.
template <typename Enum>
Expected<Enum> Named(std::span<const std::string_view> names, const std::string& name, const std::string& path,
                     const char* what) {
  if (auto i = agent::IndexOfName(names, name)) return static_cast<Enum>(*i);
  return MakeError(ErrorKind::kInvalidArgument,
                   fmt::format("{}: unknown {} '{}'; one of {}", path, what, name, OneOf(names)));
}

Expected<agent::Subject> ToSubject(const protocol::QuerySubject& s, const std::string& path) {
  auto events = Named<agent::EventKind>(agent::EventKindNames(), s.events, path + ".events", "kind of events");
  if (!events) return events.error();
  agent::Subject out{*events, s.name.value_or(""), s.copy_kind.value_or(""), s.api_class.value_or("")};
  out.memory = s.memory.value_or("");
  return out;
}

Expected<agent::Scope> ToScope(const protocol::QueryScope& s, const std::string& path) {
  agent::Scope out;
  const auto id = [&](int64_t v, const std::string& at) -> Expected<int64_t> {
    if (v < 0 || v > std::numeric_limits<int32_t>::max())
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("{}: {} is not an id (0 to 2147483647)", at, v));
    return v;
  };
  for (size_t i = 0; i < s.devices.value_or(std::vector<int64_t>{}).size(); ++i) {
    auto d = id((*s.devices)[i], fmt::format("{}.devices[{}]", path, i));
    if (!d) return d.error();
    out.devices.push_back(static_cast<int32_t>(*d));
  }
  for (size_t i = 0; i < s.pids.value_or(std::vector<int64_t>{}).size(); ++i) {
    auto p = id((*s.pids)[i], fmt::format("{}.pids[{}]", path, i));
    if (!p) return p.error();
    out.pids.push_back(static_cast<uint32_t>(*p));
  }
  if (s.stream) {
    auto st = id(*s.stream, path + ".stream");
    if (!st) return st.error();
    out.stream = static_cast<int32_t>(*st);
  }
  out.inside = s.inside.value_or("");
  out.from_s = s.from_seconds;
  out.to_s = s.to_seconds;
  const std::pair<const std::optional<int64_t>*, int64_t*> bounds[] = {
      {&s.longer_than_ns, &out.longer_than_ns},
      {&s.shorter_than_ns, &out.shorter_than_ns},
      {&s.larger_than_bytes, &out.larger_than_bytes},
      {&s.smaller_than_bytes, &out.smaller_than_bytes}};
  for (const auto& [given, bound] : bounds) {
    if (!*given) continue;
    if (**given < 0) return MakeError(ErrorKind::kInvalidArgument, fmt::format("{}: a bound is at least 0", path));
    *bound = **given;
  }
  return out;
}

// The optional enums and the limit of a Query.
Status ToShape(const protocol::QuerySpec& spec, const std::string& path, agent::Query& q) {
  if (spec.group_by) {
    auto g = Named<agent::GroupBy>(agent::GroupByNames(), *spec.group_by, path + ".groupBy", "grouping");
    if (!g) return g.error();
    q.group_by = *g;
  }
  if (spec.rank) {
    auto r = Named<agent::Rank>(agent::RankNames(), *spec.rank, path + ".rank", "ranking");
    if (!r) return r.error();
    q.rank = *r;
  }
  if (spec.form) {
    auto f = Named<agent::Form>(agent::FormNames(), *spec.form, path + ".form", "form");
    if (!f) return f.error();
    q.form = *f;
  }
  if (spec.limit && (*spec.limit < 0 || *spec.limit > 100))
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("{}.limit: {} is not 0 to 100", path, *spec.limit));
  q.limit = static_cast<int32_t>(spec.limit.value_or(0));
  q.yes_if_less = spec.yes_if_less.value_or(false);
  q.threshold = spec.threshold;
  return {};
}

Expected<agent::Query> ToQuery(const protocol::QuerySpec& spec, const std::string& path) {
  agent::Query q;
  for (size_t i = 0; i < spec.measures.size(); ++i) {
    auto m = Named<agent::Measure>(agent::MeasureNames(), spec.measures[i], fmt::format("{}.measures[{}]", path, i),
                                   "measure");
    if (!m) return m.error();
    q.measures.push_back(*m);
  }
  auto subject = ToSubject(spec.subject, path + ".subject");
  if (!subject) return subject.error();
  q.subject = std::move(*subject);
  if (spec.scope) {
    auto scope = ToScope(*spec.scope, path + ".scope");
    if (!scope) return scope.error();
    q.scope = std::move(*scope);
  }
  if (spec.versus_subject) {
    auto v = ToSubject(*spec.versus_subject, path + ".versusSubject");
    if (!v) return v.error();
    q.versus_subject = std::move(*v);
  }
  if (spec.versus_scope) {
    auto v = ToScope(*spec.versus_scope, path + ".versusScope");
    if (!v) return v.error();
    q.versus_scope = std::move(*v);
  }
  if (Status shaped = ToShape(spec, path, q); !shaped) return shaped.error();
  if (Status ok = agent::CheckQuery(q); !ok)
    return MakeError(ErrorKind::kInvalidArgument, path + ": " + ok.error().message);
  return q;
}

protocol::QuerySubject ToSubjectSpec(const agent::Subject& s) {
  protocol::QuerySubject out;
  out.events = std::string(agent::EventKindNames()[static_cast<size_t>(s.events)]);
  if (!s.name.empty()) out.name = s.name;
  if (!s.copy_kind.empty()) out.copy_kind = s.copy_kind;
  if (!s.api_class.empty()) out.api_class = s.api_class;
  if (!s.memory.empty()) out.memory = s.memory;
  return out;
}

protocol::QueryScope ToScopeSpec(const agent::Scope& s) {
  protocol::QueryScope out;
  if (!s.devices.empty()) out.devices = std::vector<int64_t>(s.devices.begin(), s.devices.end());
  if (!s.pids.empty()) out.pids = std::vector<int64_t>(s.pids.begin(), s.pids.end());
  if (s.stream >= 0) out.stream = s.stream;
  if (!s.inside.empty()) out.inside = s.inside;
  out.from_seconds = s.from_s;
  out.to_seconds = s.to_s;
  if (s.longer_than_ns >= 0) out.longer_than_ns = s.longer_than_ns;
  if (s.shorter_than_ns >= 0) out.shorter_than_ns = s.shorter_than_ns;
  if (s.larger_than_bytes >= 0) out.larger_than_bytes = s.larger_than_bytes;
  if (s.smaller_than_bytes >= 0) out.smaller_than_bytes = s.smaller_than_bytes;
  return out;
}

protocol::Json SubjectSchema() {
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"events"}},
      {"properties",
       {{"events", {{"enum", Names(agent::EventKindNames())}, {"description", "Which events"}}},
        {"name", {{"type", "string"}, {"description", "A part of the name, any case (an API call: its whole name)"}}},
        {"copyKind",
         {{"type", "string"},
          {"description",
           "memcpy: HtoD, DtoH, DtoD, HtoH or PtoP; Unified (every unified-memory migration), Unified HtoD, Unified "
           "DtoH"}}},
        {"memory",
         {{"enum", Names(agent::MemoryKindNames())},
          {"description", "Copies and memsets: the kind of host memory they read or write"}}},
        {"apiClass",
         {{"enum", {"sync", "alloc", "free", "module", "setup", "launch", "memcpy", "memset"}},
          {"description", "api: calls of this class by NVIDIA's API reference"}}}}}};
}

protocol::Json ScopeSchema() {
  const protocol::Json ids = {{"type", "array"}, {"items", {{"type", "integer"}, {"minimum", 0}}}, {"maxItems", 16}};
  return {{"type", "object"},
          {"additionalProperties", false},
          {"properties",
           {{"devices", ids},
            {"pids", ids},
            {"stream", {{"type", "integer"}, {"minimum", 0}}},
            {"inside", {{"type", "string"}, {"description", "Inside NVTX ranges whose name contains this"}}},
            {"fromSeconds", {{"type", "number"}, {"description", "Window start, seconds from the profile start"}}},
            {"toSeconds", {{"type", "number"}, {"description", "Window end, seconds from the profile start"}}},
            {"longerThanNs", {{"type", "integer"}, {"minimum", 0}, {"description", "Only events longer than this"}}},
            {"shorterThanNs", {{"type", "integer"}, {"minimum", 0}, {"description", "Only events shorter than this"}}},
            {"largerThanBytes", {{"type", "integer"}, {"minimum", 0}, {"description", "Only copies larger than this"}}},
            {"smallerThanBytes",
             {{"type", "integer"}, {"minimum", 0}, {"description", "Only copies smaller than this"}}}}}};
}

}  // namespace query_wire

Expected<std::vector<agent::Query>> ToQueries(const std::vector<protocol::QuerySpec>& specs) {
  using namespace query_wire;  // this file's own helpers
  if (specs.empty()) return MakeError(ErrorKind::kInvalidArgument, "queries: at least one Query is needed");
  if (specs.size() > 16) return MakeError(ErrorKind::kInvalidArgument, "queries: at most 16 Queries at once");
  std::vector<agent::Query> out;
  for (size_t i = 0; i < specs.size(); ++i) {
    auto q = ToQuery(specs[i], fmt::format("queries[{}]", i));
    if (!q) return q.error();
    out.push_back(std::move(*q));
  }
  return out;
}

Expected<std::vector<agent::Query>> QueriesFromJsonText(std::string_view text) {
  using namespace query_wire;  // this file's own helpers
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
  using namespace query_wire;  // this file's own helpers
  auto queries = ToQueries(params.queries);
  if (!queries) return queries.error();
  return core::QueryRequest{params.profile_id, std::move(*queries)};
}

protocol::QuerySpec ToQuerySpec(const agent::Query& q) {
  using namespace query_wire;  // this file's own helpers
  protocol::QuerySpec out;
  for (agent::Measure m : q.measures) out.measures.emplace_back(agent::MeasureNames()[static_cast<size_t>(m)]);
  out.subject = ToSubjectSpec(q.subject);
  if (!(q.scope == agent::Scope{})) out.scope = ToScopeSpec(q.scope);
  if (q.group_by != agent::GroupBy::kNone)
    out.group_by = std::string(agent::GroupByNames()[static_cast<size_t>(q.group_by)]);
  if (q.rank != agent::Rank::kNone) out.rank = std::string(agent::RankNames()[static_cast<size_t>(q.rank)]);
  if (q.limit > 0) out.limit = q.limit;
  if (q.versus_subject) out.versus_subject = ToSubjectSpec(*q.versus_subject);
  if (q.versus_scope) out.versus_scope = ToScopeSpec(*q.versus_scope);
  if (q.form != agent::Form::kNumber) out.form = std::string(agent::FormNames()[static_cast<size_t>(q.form)]);
  if (q.yes_if_less) out.yes_if_less = true;
  out.threshold = q.threshold;
  return out;
}

protocol::Json QuerySchema() {
  using namespace query_wire;  // this file's own helpers
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"measures", "subject"}},
      {"properties",
       {{"measures",
         {{"type", "array"},
          {"minItems", 1},
          {"maxItems", 8},
          {"items", {{"enum", Names(agent::MeasureNames())}}},
          {"description", "What is measured; the first ranks and compares"}}},
        {"subject", SubjectSchema()},
        {"scope", ScopeSchema()},
        {"groupBy", {{"enum", Names(agent::GroupByNames())}, {"description", "One figure per group"}}},
        {"rank", {{"enum", Names(agent::RankNames())}, {"description", "With groupBy: the top or bottom groups"}}},
        {"limit", {{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}},
        {"versusSubject", SubjectSchema()},
        {"versusScope", ScopeSchema()},
        {"form", {{"enum", Names(agent::FormNames())}, {"description", "yes_no needs a versus side or a threshold"}}},
        {"yesIfLess", {{"type", "boolean"}, {"description", "yes_no: yes when the first side is the smaller"}}},
        {"threshold",
         {{"type", "number"},
          {"description",
           "yes_no without a versus side: yes when the first measure is above this (below with yesIfLess), in "
           "its unit: ns, %, bytes, GB/s or a count; 0 with count asks whether there are any"}}}}}};
}

}  // namespace nsys::wire
