#pragma once
// nsys/query (and the MCP tool `query`, the CLI's `ask --query`): questions given already typed, as a list of Query
// objects, answered by the one executor that answers `ask` (agent/query.h) in the same result shape as nsys/ask. A
// Query's JSON is the same on every face; its JSON Schema (agent/query_json.h's QuerySchema, in docs/protocol.md) is
// generated from the agent's tables of names, so the words a client may send are the executor's own.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/json_parse.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/wire_fields.h"

namespace nsys::protocol {

struct QuerySubject {
  std::string events;                    // kernels, api, memcpy, memset, nvtx, gpu, graphs
  std::optional<std::string> name;       // a part of the name, any case
  std::optional<std::string> copy_kind;  // memcpy: HtoD, DtoH, DtoD, HtoH, PtoP, Unified, Unified HtoD, ...
  std::optional<std::string> api_class;  // api: sync, alloc, free, module, setup, launch, memcpy, memset
  std::optional<std::string> memory;     // copies and memsets: pageable, pinned, device, array, managed
  std::optional<std::string> cause;      // memcpy: migrations of this cause (page_fault, speculative_prefetch, ...)
  std::optional<bool> whole_name;        // `name` is a whole name, not a part of one
  std::optional<std::string> family;     // kernels: a library, kind of work or operation, as the decoder names them
  std::optional<int64_t> nth;            // one event, the nth by start: 1 the first, -1 the last to start
  std::optional<int64_t> skip;           // leave out the first N by start (the last -N when negative)
  std::optional<std::string> except;     // kernels, api, nvtx: leave out those whose name contains this ('|': or)
  static constexpr auto WireFields() {
    using S = QuerySubject;
    return std::tuple{Field("events", &S::events),      Field("name", &S::name),     Field("copyKind", &S::copy_kind),
                      Field("apiClass", &S::api_class), Field("memory", &S::memory), Field("wholeName", &S::whole_name),
                      Field("family", &S::family),      Field("nth", &S::nth),       Field("except", &S::except),
                      Field("cause", &S::cause),        Field("skip", &S::skip)};
  }
  bool operator==(const QuerySubject&) const = default;
};

// A moment an event marks: the events' start (with nth, that event's), or their end with atEnd.
struct QueryAnchor {
  QuerySubject events;
  std::optional<bool> at_end;
  static constexpr auto WireFields() {
    using S = QueryAnchor;
    return std::tuple{Field("events", &S::events), Field("atEnd", &S::at_end)};
  }
  bool operator==(const QueryAnchor&) const = default;
};

struct QueryScope {
  std::optional<std::vector<int64_t>> devices;
  std::optional<std::vector<int64_t>> pids;
  std::optional<int64_t> stream;
  std::optional<std::string> inside;               // inside NVTX ranges whose name contains this
  std::optional<std::string> outside;              // in no NVTX range whose name contains this
  std::optional<double> from_seconds, to_seconds;  // from the profile's start
  // Bounds on each event, exclusive.
  std::optional<int64_t> longer_than_ns, shorter_than_ns, larger_than_bytes, smaller_than_bytes;
  // Bounds on each idle gap the gap measures (gaps, max_gap, avg_gap) count, exclusive.
  std::optional<int64_t> gap_longer_than_ns, gap_shorter_than_ns;
  std::optional<bool> from_first_kernel;  // the window counts from the first kernel's start in this scope
  std::optional<bool> grid_below_sms;     // kernels: launches whose grid has fewer blocks than their GPU has SMs
  std::optional<bool> capture_clock;      // the window's seconds are on the capture clock, from the session start
  // The launch relation: GPU work launched by a CUDA call of this whole name; CUDA calls that launched such kernels.
  std::optional<std::string> launched_by, launches;
  // The window counts from the moment `origin` marks instead of the profile start, and ends at `until`'s.
  std::optional<QueryAnchor> origin, until;
  static constexpr auto WireFields() {
    using S = QueryScope;
    return std::tuple{Field("devices", &S::devices),
                      Field("pids", &S::pids),
                      Field("stream", &S::stream),
                      Field("inside", &S::inside),
                      Field("outside", &S::outside),
                      Field("fromSeconds", &S::from_seconds),
                      Field("toSeconds", &S::to_seconds),
                      Field("longerThanNs", &S::longer_than_ns),
                      Field("shorterThanNs", &S::shorter_than_ns),
                      Field("largerThanBytes", &S::larger_than_bytes),
                      Field("smallerThanBytes", &S::smaller_than_bytes),
                      Field("gapLongerThanNs", &S::gap_longer_than_ns),
                      Field("gapShorterThanNs", &S::gap_shorter_than_ns),
                      Field("fromFirstKernel", &S::from_first_kernel),
                      Field("gridBelowSms", &S::grid_below_sms),
                      Field("captureClock", &S::capture_clock),
                      Field("launchedBy", &S::launched_by),
                      Field("launches", &S::launches),
                      Field("origin", &S::origin),
                      Field("until", &S::until)};
  }
  bool operator==(const QueryScope&) const = default;
};

struct QuerySpec {
  std::vector<std::string> measures;
  QuerySubject subject;
  std::optional<QueryScope> scope;
  std::optional<std::string> group_by;  // none, name, device, pid, stream, range
  std::optional<std::string> rank;      // none, top, bottom
  std::optional<int64_t> limit;
  std::optional<int64_t> offset;  // with rank: the groups passed over before those shown
  std::optional<QuerySubject> versus_subject;
  std::optional<QueryScope> versus_scope;
  std::optional<std::string> form;  // number, yes_no, name, table, share
  std::optional<bool> yes_if_less;
  std::optional<double> threshold;            // yes_no without a versus side: is the first measure above it?
  std::optional<std::string> versus_measure;  // the first measure against this one of the same events
  std::optional<bool> share_within_group;     // a share per device, pid or stream: of each one's own events
  std::optional<double> factor;               // yes_no with a versus side: is the first more than this times the second
  static constexpr auto WireFields() {
    using S = QuerySpec;
    return std::tuple{Field("measures", &S::measures),
                      Field("subject", &S::subject),
                      Field("scope", &S::scope),
                      Field("groupBy", &S::group_by),
                      Field("rank", &S::rank),
                      Field("limit", &S::limit),
                      Field("offset", &S::offset),
                      Field("versusSubject", &S::versus_subject),
                      Field("versusScope", &S::versus_scope),
                      Field("form", &S::form),
                      Field("yesIfLess", &S::yes_if_less),
                      Field("threshold", &S::threshold),
                      Field("versusMeasure", &S::versus_measure),
                      Field("shareWithinGroup", &S::share_within_group),
                      Field("factor", &S::factor)};
  }
  bool operator==(const QuerySpec&) const = default;
};

// nsys/query's params; the result is nsys/ask's AskResult.
struct QueryParams {
  std::string profile_id;
  std::vector<QuerySpec> queries;
  static constexpr auto WireFields() {
    using S = QueryParams;
    return std::tuple{Field("profileId", &S::profile_id), Field("queries", &S::queries)};
  }
  bool operator==(const QueryParams&) const = default;
};

// The MCP tool `query`'s arguments: nsys/query's params (snake_case at the top; each Query in its one JSON shape).
struct QueryToolArgs : QueryParams {
  static constexpr auto Fields() { return mcp::ParamsArgs<QueryParams>(); }
  bool operator==(const QueryToolArgs&) const = default;
};

void FromJson(const Json& json, QuerySubject& out, const std::string& path);
void to_json(Json& json, const QuerySubject& value);
void FromJson(const Json& json, QueryAnchor& out, const std::string& path);
void to_json(Json& json, const QueryAnchor& value);
void FromJson(const Json& json, QueryScope& out, const std::string& path);
void to_json(Json& json, const QueryScope& value);
void FromJson(const Json& json, QuerySpec& out, const std::string& path);
void to_json(Json& json, const QuerySpec& value);
void FromJson(const Json& json, QueryParams& out, const std::string& path);
void to_json(Json& json, const QueryParams& value);
// The query tool's reader and writer: protocol/src/mcp.cpp, from its Fields().
void FromJson(const Json& json, QueryToolArgs& out, const std::string& path);
void to_json(Json& json, const QueryToolArgs& value);

}  // namespace nsys::protocol
