// The JSON form of a Query: schema, reader and writer (query_json.h). The reader takes untrusted JSON (a client's, a
// model's): every member is type-checked and named by its path in an error, and nothing is read twice.
#include "nsys/agent/query_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nsys::agent {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace query_json {

using nlohmann::json;

constexpr size_t kMaxQueries = 16;

std::string OneOf(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) out += fmt::format("{}{}", out.empty() ? "" : ", ", n);
  return out;
}

json Names(std::span<const std::string_view> names) {
  json out = json::array();
  for (std::string_view n : names) out.push_back(std::string(n));
  return out;
}

Error Bad(const std::string& path, const std::string& what) {
  return Error{ErrorKind::kInvalidArgument, path + ": " + what};
}

// An object whose members are all among `known`, or why not.
Status CheckObject(const json& j, const std::string& path, std::initializer_list<std::string_view> known) {
  if (!j.is_object()) return Bad(path, "not a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string names;
      for (std::string_view k : known) names += fmt::format("{}{}", names.empty() ? "" : ", ", k);
      return Bad(path, fmt::format("unknown member '{}'; the members are {}", key.substr(0, 60), names));
    }
  }
  return {};
}

Expected<std::string> Text(const json& j, const std::string& path) {
  if (!j.is_string()) return Bad(path, "not a string");
  return j.get<std::string>();
}

// An integer: models write 3.0 for 3, which is read as 3; 3.5 is not an integer.
Expected<int64_t> Integer(const json& j, const std::string& path) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return Bad(path, "too large");
    return j.get<int64_t>();
  }
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18) return static_cast<int64_t>(d);
  }
  return Bad(path, "not an integer");
}

Expected<double> Number(const json& j, const std::string& path) {
  if (!j.is_number()) return Bad(path, "not a number");
  return j.get<double>();
}

// An optional true or false member: `out` is kept when it is absent.
Status Flag(const json& j, const char* key, const std::string& path, bool& out) {
  if (!j.contains(key)) return {};
  if (!j.at(key).is_boolean()) return Bad(path + "." + key, "not true or false");
  out = j.at(key).get<bool>();
  return {};
}

// The enum value named by the string at `path`, of `names`.
template <typename Enum>
Expected<Enum> Named(std::span<const std::string_view> names, const json& j, const std::string& path,
                     const char* what) {
  auto name = Text(j, path);
  if (!name) return name.error();
  if (auto i = IndexOfName(names, *name)) return static_cast<Enum>(*i);
  return Bad(path, fmt::format("unknown {} '{}'; one of {}", what, name->substr(0, 60), OneOf(names)));
}

Expected<Subject> ReadSubject(const json& j, const std::string& path) {
  if (Status ok = CheckObject(j, path,
                              {"events", "name", "copyKind", "apiClass", "memory", "cause", "wholeName", "family",
                               "nth", "skip", "except"});
      !ok)
    return ok.error();
  if (!j.contains("events")) return Bad(path, "'events' is required");
  auto events = Named<EventKind>(EventKindNames(), j.at("events"), path + ".events", "kind of events");
  if (!events) return events.error();
  Subject out;
  out.events = *events;
  const std::pair<const char*, std::string*> texts[] = {
      {"name", &out.name},     {"copyKind", &out.copy_kind}, {"apiClass", &out.api_class}, {"memory", &out.memory},
      {"family", &out.family}, {"except", &out.except},      {"cause", &out.cause}};
  for (const auto& [key, field] : texts) {
    if (!j.contains(key)) continue;
    auto v = Text(j.at(key), path + "." + key);
    if (!v) return v.error();
    *field = std::move(*v);
  }
  if (Status ok = Flag(j, "wholeName", path, out.whole_name); !ok) return ok.error();
  if (j.contains("nth")) {
    auto n = Integer(j.at("nth"), path + ".nth");
    if (!n) return n.error();
    if (*n < -1000000 || *n > 1000000) return Bad(path + ".nth", fmt::format("{} is not -1000000 to 1000000", *n));
    out.nth = static_cast<int32_t>(*n);
  }
  if (j.contains("skip")) {
    auto n = Integer(j.at("skip"), path + ".skip");
    if (!n) return n.error();
    if (*n < -1000000 || *n > 1000000) return Bad(path + ".skip", fmt::format("{} is not -1000000 to 1000000", *n));
    out.skip = static_cast<int32_t>(*n);
  }
  return out;
}

// A moment an event marks: {"events": Subject, "atEnd": bool}.
Expected<Anchor> ReadAnchor(const json& j, const std::string& path) {
  if (Status ok = CheckObject(j, path, {"events", "atEnd"}); !ok) return ok.error();
  if (!j.contains("events")) return Bad(path, "'events' is required");
  auto events = ReadSubject(j.at("events"), path + ".events");
  if (!events) return events.error();
  Anchor out{std::move(*events), false};
  if (Status ok = Flag(j, "atEnd", path, out.at_end); !ok) return ok.error();
  return out;
}

// An id (a device, a process, a stream): an integer 0 to 2^31-1.
Expected<int64_t> Id(const json& j, const std::string& path) {
  auto v = Integer(j, path);
  if (!v) return v.error();
  if (*v < 0 || *v > std::numeric_limits<int32_t>::max())
    return Bad(path, fmt::format("{} is not an id (0 to 2147483647)", *v));
  return *v;
}

// An id list ("devices", "pids").
Status ReadIds(const json& j, const std::string& path, std::vector<int64_t>& out) {
  if (!j.is_array()) return Bad(path, "not an array");
  for (size_t i = 0; i < j.size(); ++i) {
    auto v = Id(j[i], fmt::format("{}[{}]", path, i));
    if (!v) return v.error();
    out.push_back(*v);
  }
  return {};
}

Expected<Scope> ReadScope(const json& j, const std::string& path) {
  if (Status ok = CheckObject(j, path, {"devices",
                                        "pids",
                                        "stream",
                                        "inside",
                                        "outside",
                                        "fromSeconds",
                                        "toSeconds",
                                        "fromFirstKernel",
                                        "gridBelowSms",
                                        "longerThanNs",
                                        "shorterThanNs",
                                        "largerThanBytes",
                                        "smallerThanBytes",
                                        "launchedBy",
                                        "launches",
                                        "origin",
                                        "until",
                                        "captureClock",
                                        "gapLongerThanNs",
                                        "gapShorterThanNs"});
      !ok)
    return ok.error();
  Scope out;
  std::vector<int64_t> ids;
  if (j.contains("devices")) {
    if (Status ok = ReadIds(j.at("devices"), path + ".devices", ids); !ok) return ok.error();
    for (int64_t d : ids) out.devices.push_back(static_cast<int32_t>(d));
  }
  ids.clear();
  if (j.contains("pids")) {
    if (Status ok = ReadIds(j.at("pids"), path + ".pids", ids); !ok) return ok.error();
    for (int64_t p : ids) out.pids.push_back(static_cast<uint32_t>(p));
  }
  if (j.contains("stream")) {
    auto stream = Id(j.at("stream"), path + ".stream");
    if (!stream) return stream.error();
    out.stream = static_cast<int32_t>(*stream);
  }
  const std::pair<const char*, std::string*> texts[] = {{"inside", &out.inside},
                                                        {"outside", &out.outside},
                                                        {"launchedBy", &out.launched_by},
                                                        {"launches", &out.launches}};
  for (const auto& [key, field] : texts) {
    if (!j.contains(key)) continue;
    auto v = Text(j.at(key), path + "." + key);
    if (!v) return v.error();
    *field = std::move(*v);
  }
  const std::pair<const char*, std::optional<double>*> window[] = {{"fromSeconds", &out.from_s},
                                                                   {"toSeconds", &out.to_s}};
  for (const auto& [key, field] : window) {
    if (!j.contains(key)) continue;
    auto v = Number(j.at(key), path + "." + key);
    if (!v) return v.error();
    *field = *v;
  }
  if (Status ok = Flag(j, "fromFirstKernel", path, out.from_first_kernel); !ok) return ok.error();
  if (Status ok = Flag(j, "gridBelowSms", path, out.grid_below_sms); !ok) return ok.error();
  if (Status ok = Flag(j, "captureClock", path, out.capture_clock); !ok) return ok.error();
  const std::pair<const char*, int64_t*> bounds[] = {
      {"longerThanNs", &out.longer_than_ns},        {"shorterThanNs", &out.shorter_than_ns},
      {"largerThanBytes", &out.larger_than_bytes},  {"smallerThanBytes", &out.smaller_than_bytes},
      {"gapLongerThanNs", &out.gap_longer_than_ns}, {"gapShorterThanNs", &out.gap_shorter_than_ns}};
  for (const auto& [key, field] : bounds) {
    if (!j.contains(key)) continue;
    auto v = Integer(j.at(key), path + "." + key);
    if (!v) return v.error();
    if (*v < 0) return Bad(path + "." + key, "a bound is at least 0");
    *field = *v;
  }
  for (const auto& [key, field] : {std::pair{"origin", &out.origin}, std::pair{"until", &out.until}}) {
    if (!j.contains(key)) continue;
    auto a = ReadAnchor(j.at(key), path + "." + key);
    if (!a) return a.error();
    *field = std::move(*a);
  }
  return out;
}

// The optional enums, the limit and the yes/no members of a Query.
Status ReadShape(const json& j, const std::string& path, Query& q) {
  if (j.contains("groupBy")) {
    auto g = Named<GroupBy>(GroupByNames(), j.at("groupBy"), path + ".groupBy", "grouping");
    if (!g) return g.error();
    q.group_by = *g;
  }
  if (j.contains("rank")) {
    auto r = Named<Rank>(RankNames(), j.at("rank"), path + ".rank", "ranking");
    if (!r) return r.error();
    q.rank = *r;
  }
  if (j.contains("form")) {
    auto f = Named<Form>(FormNames(), j.at("form"), path + ".form", "form");
    if (!f) return f.error();
    q.form = *f;
  }
  if (j.contains("limit")) {
    auto l = Integer(j.at("limit"), path + ".limit");
    if (!l) return l.error();
    if (*l < 0 || *l > 100) return Bad(path + ".limit", fmt::format("{} is not 0 to 100", *l));
    q.limit = static_cast<int32_t>(*l);
  }
  if (j.contains("offset")) {
    auto o = Integer(j.at("offset"), path + ".offset");
    if (!o) return o.error();
    if (*o < 0 || *o > 100) return Bad(path + ".offset", fmt::format("{} is not 0 to 100", *o));
    q.offset = static_cast<int32_t>(*o);
  }
  if (Status ok = Flag(j, "yesIfLess", path, q.yes_if_less); !ok) return ok.error();
  if (Status ok = Flag(j, "shareWithinGroup", path, q.share_within_group); !ok) return ok.error();
  if (j.contains("factor")) {
    auto f = Number(j.at("factor"), path + ".factor");
    if (!f) return f.error();
    q.factor = *f;
  }
  if (j.contains("threshold")) {
    auto t = Number(j.at("threshold"), path + ".threshold");
    if (!t) return t.error();
    q.threshold = *t;
  }
  if (j.contains("versusMeasure")) {
    auto m = Named<Measure>(MeasureNames(), j.at("versusMeasure"), path + ".versusMeasure", "measure");
    if (!m) return m.error();
    q.versus_measure = *m;
  }
  return {};
}

json SubjectToJson(const Subject& s) {
  json out = {{"events", std::string(EventKindNames()[static_cast<size_t>(s.events)])}};
  if (!s.name.empty()) out["name"] = s.name;
  if (!s.copy_kind.empty()) out["copyKind"] = s.copy_kind;
  if (!s.api_class.empty()) out["apiClass"] = s.api_class;
  if (!s.memory.empty()) out["memory"] = s.memory;
  if (!s.cause.empty()) out["cause"] = s.cause;
  if (s.whole_name) out["wholeName"] = true;
  if (!s.family.empty()) out["family"] = s.family;
  if (s.nth != 0) out["nth"] = s.nth;
  if (s.skip != 0) out["skip"] = s.skip;
  if (!s.except.empty()) out["except"] = s.except;
  return out;
}

json ScopeToJson(const Scope& s) {
  json out = json::object();
  if (!s.devices.empty()) out["devices"] = s.devices;
  if (!s.pids.empty()) out["pids"] = s.pids;
  if (s.stream >= 0) out["stream"] = s.stream;
  if (!s.inside.empty()) out["inside"] = s.inside;
  if (!s.outside.empty()) out["outside"] = s.outside;
  if (s.from_s) out["fromSeconds"] = *s.from_s;
  if (s.to_s) out["toSeconds"] = *s.to_s;
  if (s.from_first_kernel) out["fromFirstKernel"] = true;
  if (s.grid_below_sms) out["gridBelowSms"] = true;
  if (s.capture_clock) out["captureClock"] = true;
  if (!s.launched_by.empty()) out["launchedBy"] = s.launched_by;
  if (!s.launches.empty()) out["launches"] = s.launches;
  if (s.longer_than_ns >= 0) out["longerThanNs"] = s.longer_than_ns;
  if (s.shorter_than_ns >= 0) out["shorterThanNs"] = s.shorter_than_ns;
  if (s.larger_than_bytes >= 0) out["largerThanBytes"] = s.larger_than_bytes;
  if (s.smaller_than_bytes >= 0) out["smallerThanBytes"] = s.smaller_than_bytes;
  if (s.gap_longer_than_ns >= 0) out["gapLongerThanNs"] = s.gap_longer_than_ns;
  if (s.gap_shorter_than_ns >= 0) out["gapShorterThanNs"] = s.gap_shorter_than_ns;
  for (const auto& [key, field] : {std::pair{"origin", &s.origin}, std::pair{"until", &s.until}}) {
    if (!*field) continue;
    out[key] = {{"events", SubjectToJson((*field)->events)}};
    if ((*field)->at_end) out[key]["atEnd"] = true;
  }
  return out;
}

json SubjectSchema() {
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"events"}},
      {"properties",
       {{"events", {{"enum", Names(EventKindNames())}, {"description", "Which events"}}},
        {"name", {{"type", "string"}, {"description", "A part of the name, any case (an API call: its whole name)"}}},
        {"copyKind",
         {{"type", "string"},
          {"description",
           "memcpy: HtoD, DtoH, DtoD, HtoH or PtoP; Unified (every unified-memory migration), Unified HtoD, Unified "
           "DtoH"}}},
        {"memory",
         {{"enum", Names(MemoryKindNames())},
          {"description", "Copies and memsets: the kind of host memory they read or write"}}},
        {"cause",
         {{"enum", Names(MigrationCauseNames())},
          {"description",
           "memcpy: only unified-memory migrations the driver made for this cause, as the export classifies them "
           "(page_fault: a page fault, speculative_prefetch, user_prefetch, eviction, access_counters)"}}},
        {"apiClass",
         {{"enum", {"sync", "alloc", "free", "module", "setup", "launch", "memcpy", "memset"}},
          {"description", "api: calls of this class by NVIDIA's API reference"}}},
        {"wholeName",
         {{"type", "boolean"},
          {"description",
           "`name` is a whole name (a kernel's, a range's, a CUDA call's with NVIDIA's version suffixes aside), not "
           "a part of one"}}},
        {"family",
         {{"type", "string"},
          {"maxLength", 64},
          {"description",
           "kernels: a family as the kernel-name decoder classifies them, each word a library (FlashAttention, "
           "cuBLAS, cuDNN, CUTLASS, NCCL, ...), a kind of work (gemm, conv, attention, elementwise, reduction, "
           "softmax, norm, collective, copy) or an operation (fwd, bwd)"}}},
        {"nth",
         {{"type", "integer"},
          {"minimum", -1000000},
          {"maximum", 1000000},
          {"description",
           "One event of those, the nth by start time: 1 the first, 2 the second, -1 the last to start (0 or absent: "
           "every one)"}}},
        {"skip",
         {{"type", "integer"},
          {"minimum", -1000000},
          {"maximum", 1000000},
          {"description",
           "Leave out the first N of those by start time, the warm-up (the last -N when negative; 0 or absent: none); "
           "not with nth"}}},
        {"except",
         {{"type", "string"},
          {"description",
           "kernels, api, nvtx: leave out those whose name contains this, any case, '|' between alternatives"}}}}}};
}

json AnchorSchema(const char* what) {
  return {{"type", "object"},
          {"additionalProperties", false},
          {"required", {"events"}},
          {"description", what},
          {"properties",
           {{"events", SubjectSchema()},
            {"atEnd",
             {{"type", "boolean"},
              {"description",
               "The events' end (their last end; with nth, that event's end) instead of their start (their first "
               "start)"}}}}}};
}

json ScopeSchema() {
  const json ids = {{"type", "array"}, {"items", {{"type", "integer"}, {"minimum", 0}}}, {"maxItems", 16}};
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"properties",
       {{"devices", ids},
        {"pids", ids},
        {"stream", {{"type", "integer"}, {"minimum", 0}}},
        {"inside", {{"type", "string"}, {"description", "Inside NVTX ranges whose name contains this"}}},
        {"outside",
         {{"type", "string"},
          {"description", "In no NVTX range whose name contains this (GPU work through its launch call)"}}},
        {"fromSeconds",
         {{"type", "number"}, {"description", "Window start, seconds from the profile start (or the origin)"}}},
        {"toSeconds",
         {{"type", "number"}, {"description", "Window end, seconds from the profile start (or the origin)"}}},
        {"captureClock",
         {{"type", "boolean"},
          {"description",
           "The window's seconds are on the capture clock, from the session start (as the Nsight Systems timeline "
           "counts), not from the profile's first event"}}},
        {"fromFirstKernel",
         {{"type", "boolean"},
          {"description",
           "The window's seconds count from the start of the first kernel in this scope, not the profile's"}}},
        {"gridBelowSms",
         {{"type", "boolean"},
          {"description", "Kernels only: launches whose grid has fewer blocks than their GPU has SMs"}}},
        {"launchedBy",
         {{"type", "string"},
          {"description",
           "Kernels, copies, memsets: only those launched by a CUDA call of this whole name (cuLaunchKernelEx)"}}},
        {"launches",
         {{"type", "string"},
          {"description", "CUDA API calls: only those that launched a kernel whose name contains this"}}},
        {"longerThanNs", {{"type", "integer"}, {"minimum", 0}, {"description", "Only events longer than this"}}},
        {"shorterThanNs", {{"type", "integer"}, {"minimum", 0}, {"description", "Only events shorter than this"}}},
        {"largerThanBytes", {{"type", "integer"}, {"minimum", 0}, {"description", "Only copies larger than this"}}},
        {"smallerThanBytes", {{"type", "integer"}, {"minimum", 0}, {"description", "Only copies smaller than this"}}},
        {"gapLongerThanNs",
         {{"type", "integer"},
          {"minimum", 0},
          {"description", "With the measures gaps, max_gap and avg_gap: count only the idle gaps longer than this"}}},
        {"gapShorterThanNs",
         {{"type", "integer"},
          {"minimum", 0},
          {"description", "With the measures gaps, max_gap and avg_gap: count only the idle gaps shorter than this"}}},
        {"origin",
         AnchorSchema("The moment the window's seconds count from, an event's start or end, instead of the profile "
                      "start (without seconds: from it to the profile's end)")},
        {"until", AnchorSchema("The moment the window ends, an event's start or end (not with toSeconds)")}}}};
}

}  // namespace query_json

nlohmann::json QuerySchema() {
  using namespace query_json;  // this file's own helpers
  return {{"type", "object"},
          {"additionalProperties", false},
          {"required", {"measures", "subject"}},
          {"properties",
           {{"measures",
             {{"type", "array"},
              {"minItems", 1},
              {"maxItems", 8},
              {"items", {{"enum", Names(MeasureNames())}}},
              {"description", "What is measured; the first ranks and compares"}}},
            {"subject", SubjectSchema()},
            {"scope", ScopeSchema()},
            {"groupBy", {{"enum", Names(GroupByNames())}, {"description", "One figure per group"}}},
            {"rank", {{"enum", Names(RankNames())}, {"description", "With groupBy: the top or bottom groups"}}},
            {"limit", {{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}},
            {"offset",
             {{"type", "integer"},
              {"minimum", 0},
              {"maximum", 100},
              {"description", "With rank: the groups passed over before those shown (\"the second one\": 1)"}}},
            {"versusSubject", SubjectSchema()},
            {"versusScope", ScopeSchema()},
            {"versusMeasure",
             {{"enum", Names(MeasureNames())},
              {"description",
               "The first measure against this one of the same events (one of measures; both of a launch "
               "configuration or neither): \"fewer blocks than the GPU has SMs\" is grid against sm_count"}}},
            {"form",
             {{"enum", Names(FormNames())},
              {"description", "yes_no needs a versus side, a versus measure or a threshold"}}},
            {"yesIfLess", {{"type", "boolean"}, {"description", "yes_no: yes when the first side is the smaller"}}},
            {"factor",
             {{"type", "number"},
              {"exclusiveMinimum", 0},
              {"description",
               "yes_no with a versus side: yes when the first is more than this many times the second (less than, "
               "with yesIfLess)"}}},
            {"shareWithinGroup",
             {{"type", "boolean"},
              {"description",
               "share grouped by device, pid or stream: of each group's own events of the kind (each GPU's kernel "
               "time), not of every one the scope holds"}}},
            {"threshold",
             {{"type", "number"},
              {"description",
               "yes_no without a versus side: yes when the first measure is above this (below with yesIfLess), in "
               "its unit: ns, %, bytes, GB/s or a count; 0 with count asks whether there are any"}}}}}};
}

Expected<Query> QueryFromJson(const nlohmann::json& j, const std::string& path) {
  using namespace query_json;  // this file's own helpers
  if (Status ok =
          CheckObject(j, path,
                      {"measures", "subject", "scope", "groupBy", "rank", "limit", "offset", "versusSubject",
                       "versusScope", "versusMeasure", "form", "yesIfLess", "threshold", "shareWithinGroup", "factor"});
      !ok)
    return ok.error();
  if (!j.contains("measures") || !j.at("measures").is_array()) return Bad(path + ".measures", "an array is required");
  if (!j.contains("subject")) return Bad(path + ".subject", "required");
  Query q;
  const json& measures = j.at("measures");
  for (size_t i = 0; i < measures.size() && i <= 8; ++i) {  // CheckQuery refuses more than 8
    auto m = Named<Measure>(MeasureNames(), measures[i], fmt::format("{}.measures[{}]", path, i), "measure");
    if (!m) return m.error();
    q.measures.push_back(*m);
  }
  auto subject = ReadSubject(j.at("subject"), path + ".subject");
  if (!subject) return subject.error();
  q.subject = std::move(*subject);
  if (j.contains("scope")) {
    auto scope = ReadScope(j.at("scope"), path + ".scope");
    if (!scope) return scope.error();
    q.scope = std::move(*scope);
  }
  if (j.contains("versusSubject")) {
    auto v = ReadSubject(j.at("versusSubject"), path + ".versusSubject");
    if (!v) return v.error();
    q.versus_subject = std::move(*v);
  }
  if (j.contains("versusScope")) {
    auto v = ReadScope(j.at("versusScope"), path + ".versusScope");
    if (!v) return v.error();
    q.versus_scope = std::move(*v);
  }
  if (Status shaped = ReadShape(j, path, q); !shaped) return shaped.error();
  if (Status ok = CheckQuery(q); !ok) return Bad(path, ok.error().message);
  return q;
}

Expected<std::vector<Query>> QueriesFromJson(const nlohmann::json& j) {
  if (!j.is_array() && !j.is_object())
    return MakeError(ErrorKind::kInvalidArgument, "queries: a Query object or an array of them");
  if (j.is_array() && j.empty()) return MakeError(ErrorKind::kInvalidArgument, "queries: at least one Query is needed");
  if (j.is_array() && j.size() > query_json::kMaxQueries)
    return MakeError(ErrorKind::kInvalidArgument, "queries: at most 16 Queries at once");
  std::vector<Query> out;
  const size_t n = j.is_array() ? j.size() : 1;
  for (size_t i = 0; i < n; ++i) {
    auto q = QueryFromJson(j.is_array() ? j[i] : j, fmt::format("queries[{}]", i));
    if (!q) return q.error();
    out.push_back(std::move(*q));
  }
  return out;
}

nlohmann::json QueryToJson(const Query& q) {
  using namespace query_json;  // this file's own helpers
  json out = json::object();
  json measures = json::array();
  for (Measure m : q.measures) measures.push_back(std::string(MeasureNames()[static_cast<size_t>(m)]));
  out["measures"] = std::move(measures);
  out["subject"] = SubjectToJson(q.subject);
  if (!(q.scope == Scope{})) out["scope"] = ScopeToJson(q.scope);
  if (q.group_by != GroupBy::kNone) out["groupBy"] = std::string(GroupByNames()[static_cast<size_t>(q.group_by)]);
  if (q.rank != Rank::kNone) out["rank"] = std::string(RankNames()[static_cast<size_t>(q.rank)]);
  if (q.limit > 0) out["limit"] = q.limit;
  if (q.offset > 0) out["offset"] = q.offset;
  if (q.versus_subject) out["versusSubject"] = SubjectToJson(*q.versus_subject);
  if (q.versus_scope) out["versusScope"] = ScopeToJson(*q.versus_scope);
  if (q.form != Form::kNumber) out["form"] = std::string(FormNames()[static_cast<size_t>(q.form)]);
  if (q.yes_if_less) out["yesIfLess"] = true;
  if (q.share_within_group) out["shareWithinGroup"] = true;
  if (q.factor) out["factor"] = *q.factor;
  if (q.threshold) out["threshold"] = *q.threshold;
  if (q.versus_measure) out["versusMeasure"] = std::string(MeasureNames()[static_cast<size_t>(*q.versus_measure)]);
  return out;
}

}  // namespace nsys::agent
