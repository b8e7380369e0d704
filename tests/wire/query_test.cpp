// A Query on the wire: read from the one JSON shape into the agent's Query with every name checked against the
// agent's own tables (an unknown one named by its path), written back unchanged, and its JSON Schema generated from
// the same tables.
#include "nsys/agent/query.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nsys/agent/query_json.h"
#include "nsys/protocol/query.h"
#include "nsys/wire/query.h"

namespace nsys::wire {
namespace {

using protocol::Json;

protocol::QuerySpec Spec(const Json& json) {
  protocol::QuerySpec spec;
  protocol::FromJson(json, spec, "query");
  return spec;
}

TEST(WireQuery, ReadsEveryMemberAndWritesItBackUnchanged) {
  const Json json = {
      {"measures", {"count", "p99"}},
      {"subject", {{"events", "api"}, {"name", "cudaMalloc"}}},
      {"scope", {{"devices", {0}}, {"pids", {4242}}, {"inside", "forward"}, {"fromSeconds", 0.5}, {"toSeconds", 1.0}}},
      {"groupBy", "pid"},
      {"rank", "top"},
      {"limit", 3},
  };
  auto queries = ToQueries({Spec(json)});
  ASSERT_TRUE(queries.ok()) << queries.error().message;
  const agent::Query& q = queries->front();
  EXPECT_EQ(q.measures, (std::vector<agent::Measure>{agent::Measure::kCount, agent::Measure::kP99}));
  EXPECT_EQ(q.subject, (agent::Subject{agent::EventKind::kApi, "cudaMalloc", ""}));
  EXPECT_EQ(q.scope.devices, std::vector<int32_t>{0});
  EXPECT_EQ(q.scope.pids, std::vector<uint32_t>{4242});
  EXPECT_EQ(q.scope.inside, "forward");
  EXPECT_EQ(q.group_by, agent::GroupBy::kPid);
  EXPECT_EQ(q.rank, agent::Rank::kTop);
  EXPECT_EQ(q.limit, 3);
  EXPECT_EQ(Json(ToQuerySpec(q)), json);
}

// A GPU's copies by their classification and a yes/no against a threshold, read and written back.
TEST(WireQuery, HostMemoryUnifiedCopiesAndAThresholdRoundTrip) {
  const Json json = {
      {"measures", {"count", "max_bytes"}},
      {"subject", {{"events", "memcpy"}, {"copyKind", "Unified HtoD"}, {"memory", "pageable"}}},
      {"form", "yes_no"},
      {"threshold", 0.0},
  };
  auto queries = ToQueries({Spec(json)});
  ASSERT_TRUE(queries.ok()) << queries.error().message;
  const agent::Query& q = queries->front();
  EXPECT_EQ(q.measures, (std::vector<agent::Measure>{agent::Measure::kCount, agent::Measure::kMaxBytes}));
  EXPECT_EQ(q.subject.copy_kind, "Unified HtoD");
  EXPECT_EQ(q.subject.memory, "pageable");
  EXPECT_EQ(q.threshold, 0.0);
  EXPECT_EQ(Json(ToQuerySpec(q)), json);
  auto swap = ToQueries({Spec({{"measures", {"count"}}, {"subject", {{"events", "memcpy"}, {"memory", "swap"}}}})});
  ASSERT_FALSE(swap.ok());
  EXPECT_NE(swap.error().message.find("a host memory kind is one of pageable"), std::string::npos)
      << swap.error().message;
  auto gpu = ToQueries({Spec({{"measures", {"idle"}}, {"subject", {{"events", "gpu"}}}})});
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  EXPECT_EQ(gpu->front().subject.events, agent::EventKind::kGpu);
}

TEST(WireQuery, AnUnknownNameIsRefusedByItsPathWithTheNamesItCouldBe) {
  auto bad = ToQueries({Spec({{"measures", {"count", "avg"}}, {"subject", {{"events", "kernels"}}}})});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("queries[0].measures[1]: unknown measure 'avg'; one of total, count"),
            std::string::npos)
      << bad.error().message;
  auto events = ToQueries({Spec({{"measures", {"count"}}, {"subject", {{"events", "threads"}}}})});
  ASSERT_FALSE(events.ok());
  EXPECT_NE(events.error().message.find("queries[0].subject.events: unknown kind of events 'threads'"),
            std::string::npos);
  auto id = ToQueries(
      {Spec({{"measures", {"count"}}, {"subject", {{"events", "kernels"}}}, {"scope", {{"devices", {-1}}}}})});
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.error().message.find("queries[0].scope.devices[0]: -1 is not an id"), std::string::npos);
  auto yes_no = ToQueries({Spec({{"measures", {"total"}}, {"subject", {{"events", "kernels"}}}, {"form", "yes_no"}})});
  ASSERT_FALSE(yes_no.ok());
  EXPECT_NE(yes_no.error().message.find("needs something to compare with"), std::string::npos);
  EXPECT_FALSE(ToQueries({}).ok());
  EXPECT_FALSE(ToQueries(std::vector<protocol::QuerySpec>(
                             17, Spec({{"measures", {"count"}}, {"subject", {{"events", "kernels"}}}})))
                   .ok());
}

TEST(WireQuery, TheSchemaEnumeratesTheAgentsOwnNames) {
  const Json schema = QuerySchema();
  const Json& measures = schema["properties"]["measures"]["items"]["enum"];
  ASSERT_EQ(measures.size(), agent::MeasureNames().size());
  for (size_t i = 0; i < measures.size(); ++i) EXPECT_EQ(measures[i], std::string(agent::MeasureNames()[i]));
  EXPECT_EQ(schema["properties"]["subject"]["properties"]["events"]["enum"].size(), agent::EventKindNames().size());
  EXPECT_EQ(schema["properties"]["groupBy"]["enum"].size(), agent::GroupByNames().size());
  EXPECT_EQ(schema["required"], Json::array({"measures", "subject"}));
  // Every member the reader takes is in the schema, and nothing else.
  const Json written = Json(ToQuerySpec(agent::Query{}));
  for (const auto& [key, value] : written.items()) EXPECT_TRUE(schema["properties"].contains(key)) << key;
}

// The protocol's spec carries every member of the agent's schema, the scope's and the subject's too: a member it
// lacked would be dropped in silence on the way from a client (LSP nsys/query, MCP query, `ask --query`) to the
// reader, and the Query answered without it.
TEST(WireQuery, TheProtocolsSpecCarriesEveryMemberOfTheSchema) {
  const Json schema = QuerySchema();
  agent::Query q;
  q.measures = {agent::Measure::kGrid, agent::Measure::kSmCount};
  q.subject = agent::Subject{agent::EventKind::kMemcpy, "x", "HtoD", "sync", true, "pinned", "gemm"};
  q.scope = agent::Scope{{0}, {7}, 3, "fwd", 0.0, 0.5, 1, 2, 3, 4, true};
  q.scope.grid_below_sms = true;
  q.scope.capture_clock = true;
  q.scope.gap_longer_than_ns = 5;
  q.scope.gap_shorter_than_ns = 6;
  q.scope.launched_by = "cuLaunchKernelEx";
  q.scope.launches = "trsm";
  q.scope.outside = "warmup";
  q.subject.nth = -2;
  q.subject.skip = 3;  // (with nth a Query CheckQuery refuses: both are cleared before the read-back below)
  q.subject.except = "nccl";
  q.subject.cause = "page_fault";
  q.scope.origin = agent::Anchor{q.subject, true};
  q.scope.until = agent::Anchor{agent::Subject{agent::EventKind::kNvtx, "step"}, false};
  q.versus_subject = q.subject;
  q.versus_scope = q.scope;
  q.group_by = agent::GroupBy::kName;
  q.rank = agent::Rank::kTop;
  q.limit = 2;
  q.offset = 1;
  q.versus_measure = agent::Measure::kSmCount;
  q.form = agent::Form::kYesNo;
  q.yes_if_less = true;
  q.threshold = 1.5;
  q.share_within_group = true;
  q.factor = 2;
  const Json full = agent::QueryToJson(q);
  EXPECT_EQ(Json(ToQuerySpec(q)), full);  // nothing dropped on the way through the protocol's spec
  const auto names = [](const Json& object) {
    std::vector<std::string> out;
    for (const auto& [key, value] : object.items()) out.push_back(key);
    return out;
  };
  EXPECT_EQ(names(full), names(schema["properties"]));
  EXPECT_EQ(names(full["scope"]), names(schema["properties"]["scope"]["properties"]));
  EXPECT_EQ(names(full["subject"]), names(schema["properties"]["subject"]["properties"]));
  q.versus_subject.reset();  // a versus measure is not with a versus side (CheckQuery)
  q.versus_scope.reset();
  q.scope.grid_below_sms = false;  // a bound on kernel launches, and these are copies (CheckQuery)
  q.scope.launches.clear();        // CUDA calls by the kernels they launched, and these are copies (CheckQuery)
  q.subject.family.clear();        // a family is of kernels, and these are copies (CheckQuery)
  q.subject.except.clear();        // names are left out of kernels, calls and ranges, and these are copies

  q.factor.reset();               // a factor is of two sides (CheckQuery)
  q.subject.nth = 0;              // one event is not of a launch configuration (CheckQuery)
  q.subject.skip = 0;             // nor are events left out of one
  q.scope.origin.reset();         // a window counts from one origin, and fromFirstKernel is it (CheckQuery)
  q.scope.until.reset();          // a window ends at toSeconds or at until (CheckQuery)
  q.scope.capture_clock = false;  // the capture clock counts from the session start, not the first kernel
  q.scope.gap_longer_than_ns = q.scope.gap_shorter_than_ns = -1;  // gap bounds are of the gap measures alone
  auto back = ToQueries({Spec(agent::QueryToJson(q))});
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->front().scope.launched_by, "cuLaunchKernelEx");
  EXPECT_EQ(back->front().scope.outside, "warmup");
  EXPECT_EQ(back->front().versus_measure, agent::Measure::kSmCount);
  EXPECT_EQ(back->front().offset, 1);
  EXPECT_TRUE(back->front().scope.from_first_kernel);
  agent::Query launches;
  launches.measures = {agent::Measure::kCount};
  launches.scope.grid_below_sms = true;
  auto below = ToQueries({Spec(agent::QueryToJson(launches))});
  ASSERT_TRUE(below.ok()) << below.error().message;
  EXPECT_TRUE(below->front().scope.grid_below_sms);
  agent::Query calls;
  calls.measures = {agent::Measure::kCount};
  calls.subject.events = agent::EventKind::kApi;
  calls.scope.launches = "trsm";
  auto launched = ToQueries({Spec(agent::QueryToJson(calls))});
  ASSERT_TRUE(launched.ok()) << launched.error().message;
  EXPECT_EQ(launched->front().scope.launches, "trsm");
}

}  // namespace
}  // namespace nsys::wire
