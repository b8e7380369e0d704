// The dispatcher on real fixture exports: openProfile with progress, several profiles at once, runSkill with
// streamed rows, and cancelling a running load.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "in_memory_client.h"

namespace nsys::testing {
namespace {

int64_t TableRows(const Json& info, const std::string& name) {
  for (const auto& table : info["tables"]) {
    if (table["name"] == name) return table["rows"];
  }
  return -1;
}

TEST(DispatcherProfiles, OpenProfileReportsProgressThenAnswersWithTheInfo) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const auto id =
      client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}, {"workDoneToken", "open-1"}});
  const Json reply = client.AwaitReply(id);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  EXPECT_EQ(result["profileId"], "p1");
  EXPECT_EQ(result["path"], Fixture("h100_2gpu_1s.sqlite"));
  const Json& info = result["info"];
  std::set<int> devices;
  for (const auto& d : info["devices"]) devices.insert(d["id"].get<int>());
  EXPECT_EQ(devices, (std::set<int>{0, 1}));
  // PROCESSES has 159 rows (the whole node was sampled); profileInfo lists the first 64 and counts all.
  EXPECT_EQ(info["processCount"], 159);
  EXPECT_EQ(info["processes"].size(), 64u);
  EXPECT_EQ(TableRows(info, "CUPTI_ACTIVITY_KIND_KERNEL"), 3442);
  EXPECT_EQ(info["nsysVersion"].get<std::string>().rfind("2026.2.1", 0), 0u) << info["nsysVersion"];
  EXPECT_EQ(info["schemaVersion"], "3.25.0");
  EXPECT_EQ(info["capabilities"]["kernels"], true);
  EXPECT_EQ(info["capabilities"]["gpuInfo"], false);  // "No GPU info table" (fixtures/README.md)
  EXPECT_EQ(info["fromCache"], false);
  EXPECT_GT(info["durationNs"].get<int64_t>(), 0);

  const auto messages = client.Received();
  auto index_of = [&](auto predicate) {
    return std::find_if(messages.begin(), messages.end(), predicate) - messages.begin();
  };
  const auto begin = index_of([](const Json& m) { return IsProgress(m, "open-1", "begin"); });
  const auto end = index_of([](const Json& m) { return IsProgress(m, "open-1", "end"); });
  const auto answer = index_of([&](const Json& m) { return IsReplyTo(m, id); });
  ASSERT_LT(begin, static_cast<long>(messages.size())) << "no begin";
  EXPECT_EQ(messages[begin]["params"]["value"]["title"], "Opening profile");
  EXPECT_LT(begin, end);
  EXPECT_LT(end, answer);
}

TEST(DispatcherProfiles, SeveralProfilesAtOnceWithStableIds) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const auto a = client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}});
  const auto b = client.Request("nsys/openProfile", {{"path", Fixture("mock.sqlite")}});
  const Json reply_a = client.AwaitReply(a), reply_b = client.AwaitReply(b);
  ASSERT_TRUE(reply_a.contains("result") && reply_b.contains("result")) << reply_a.dump() << reply_b.dump();
  const std::set<std::string> ids = {reply_a["result"]["profileId"], reply_b["result"]["profileId"]};
  EXPECT_EQ(ids, (std::set<std::string>{"p1", "p2"}));
  const std::string mock_id = reply_b["result"]["profileId"];
  const std::string h100_id = reply_a["result"]["profileId"];

  const Json info = client.AwaitReply(client.Request("nsys/profileInfo", {{"profileId", mock_id}}));
  ASSERT_TRUE(info.contains("result")) << info.dump();
  EXPECT_EQ(TableRows(info["result"]["info"], "CUPTI_ACTIVITY_KIND_KERNEL"), 2);  // "RTX 3080, 2 kernels"
  EXPECT_EQ(info["result"]["info"]["capabilities"]["gpuInfo"], true);

  EXPECT_TRUE(client.AwaitReply(client.Request("nsys/closeProfile", {{"profileId", h100_id}}))["result"].is_null());
  EXPECT_EQ(client.AwaitReply(client.Request("nsys/profileInfo", {{"profileId", h100_id}}))["error"]["code"], -32602);
  EXPECT_TRUE(client.AwaitReply(client.Request("nsys/profileInfo", {{"profileId", mock_id}})).contains("result"));
  // Ids are not reused.
  const Json again = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("mock.sqlite")}}));
  EXPECT_EQ(again["result"]["profileId"], "p3");
}

TEST(DispatcherProfiles, NotAnExportIsRequestFailed) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const Json reply = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("README.md")}}));
  EXPECT_EQ(reply["error"]["code"], -32803) << reply.dump();
}

TEST(DispatcherProfiles, RunSkillAnswersWithTheTable) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
  const std::string id = open["result"]["profileId"];
  const Json reply = client.AwaitReply(client.Request("nsys/runSkill", {{"profileId", id}, {"skill", "top_kernels"}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  EXPECT_FALSE(result["declined"]);
  std::vector<std::string> columns;
  for (const auto& c : result["columns"]) columns.push_back(c["name"]);
  const auto instances = std::find(columns.begin(), columns.end(), "instances") - columns.begin();
  ASSERT_LT(instances, static_cast<long>(columns.size()));
  int64_t total = 0;
  for (const auto& row : result["rows"]) total += row[instances].get<int64_t>();
  EXPECT_EQ(total, 3442);  // every kernel of the fixture

  const Json limited = client.AwaitReply(
      client.Request("nsys/runSkill", {{"profileId", id}, {"skill", "top_kernels"}, {"args", {{"limit", 3}}}}));
  EXPECT_EQ(limited["result"]["rows"].size(), 3u) << limited.dump();
  const Json bad_arg = client.AwaitReply(
      client.Request("nsys/runSkill", {{"profileId", id}, {"skill", "top_kernels"}, {"args", {{"no_such_arg", 1}}}}));
  EXPECT_EQ(bad_arg["error"]["code"], -32602);
  EXPECT_NE(bad_arg["error"]["message"].get<std::string>().find("no_such_arg"), std::string::npos);
  const Json bad_skill = client.AwaitReply(client.Request("nsys/runSkill", {{"profileId", id}, {"skill", "nope"}}));
  EXPECT_EQ(bad_skill["error"]["code"], -32602);
}

// `filter` is the one filter shape: it selects what the flat common args select, and sets skills cannot take yet
// are refused by name, never ignored.
TEST(DispatcherProfiles, RunSkillFilterMatchesTheFlatArgs) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
  const std::string id = open["result"]["profileId"];
  const auto run = [&](Json params) {
    params["profileId"] = id;
    params["skill"] = "top_kernels";
    return client.AwaitReply(client.Request("nsys/runSkill", params));
  };
  const Json flat = run({{"args", {{"device", 1}, {"start", 0.0}, {"end", 0.5}}}});
  const Json filtered = run({{"filter", {{"devices", {1}}, {"window", {{"start", 0.0}, {"end", 0.5}}}}}});
  ASSERT_TRUE(flat.contains("result")) << flat.dump();
  ASSERT_TRUE(filtered.contains("result")) << filtered.dump();
  EXPECT_FALSE(filtered["result"]["rows"].empty());
  EXPECT_EQ(filtered["result"], flat["result"]);
  const Json whole = run({{"filter", {{"devices", Json::array()}}}});
  EXPECT_GT(whole["result"]["rows"].size(), 0u);
  EXPECT_NE(whole["result"], flat["result"]);  // an empty set is every device

  // Sets: both devices is the whole profile's table here (h100_2gpu_1s has devices 0 and 1), with its note.
  const Json two = run({{"filter", {{"devices", {0, 1}}}}});
  ASSERT_TRUE(two.contains("result")) << two.dump();
  EXPECT_EQ(two["result"]["rows"], whole["result"]["rows"]);
  EXPECT_EQ(std::count(two["result"]["notes"].begin(), two["result"]["notes"].end(), Json("Only devices 0, 1.")), 1)
      << two["result"]["notes"].dump();
  const Json threads = run({{"filter", {{"threads", {12345}}}}});
  EXPECT_EQ(threads["error"]["code"], -32803) << threads.dump();
  EXPECT_EQ(threads["error"]["message"],
            "Skill 'top_kernels' cannot filter by thread; leave the filter's threads empty.");
  const Json both = run({{"args", {{"pid", 1}}}, {"filter", {{"processes", {1}}}}});
  EXPECT_EQ(both["error"]["code"], -32602) << both.dump();
  EXPECT_EQ(both["error"]["message"], "Give 'pid' either as an argument or as filter.processes, not both.");
  const Json bad = run({{"filter", {{"window", {{"start", "soon"}}}}}});
  EXPECT_EQ(bad["error"]["message"], "params.filter.window.start: expected a number, got a string");
}

TEST(DispatcherProfiles, RunSkillStreamsRowsWithAPartialResultToken) {
  NSYS_REQUIRE_FIXTURES();
  auto options = NoCache();
  options.server.partial_result_rows = 4;
  InMemoryClient client(options);
  client.Initialize();
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
  const std::string id = open["result"]["profileId"];
  const Json whole = client.AwaitReply(client.Request("nsys/runSkill", {{"profileId", id}, {"skill", "top_kernels"}}));
  const size_t row_count = whole["result"]["rows"].size();
  ASSERT_GT(row_count, 4u);

  const auto request =
      client.Request("nsys/runSkill", {{"profileId", id}, {"skill", "top_kernels"}, {"partialResultToken", "rows-1"}});
  const Json reply = client.AwaitReply(request);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["rows"].size(), 0u);
  EXPECT_EQ(reply["result"]["streamedRows"], row_count);
  EXPECT_EQ(reply["result"]["columns"], whole["result"]["columns"]);
  Json streamed = Json::array();
  size_t parts = 0;
  for (const auto& m : client.ReceivedMatching(
           [](const Json& m) { return m.value("method", "") == "$/progress" && m["params"]["token"] == "rows-1"; })) {
    const Json& value = m["params"]["value"];
    EXPECT_EQ(value.contains("columns"), parts == 0);
    EXPECT_LE(value["rows"].size(), 4u);
    for (const auto& row : value["rows"]) streamed.push_back(row);
    ++parts;
  }
  EXPECT_EQ(parts, (row_count + 3) / 4);
  EXPECT_EQ(streamed, whole["result"]["rows"]);
}

TEST(DispatcherProfiles, ARunningOpenIsCancelledAtTheMomentItsProgressBegins) {
  NSYS_REQUIRE_FIXTURES();
  InMemoryClient client(NoCache());
  client.Initialize();
  // Deterministic: the cancel is delivered from the worker itself, right when `begin` goes out, so the request is
  // certainly running and certainly not finished.
  client.SetOutgoingHook([&client](const Json& m) {
    if (IsProgress(m, "cancel-me", "begin"))
      client.Inject({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 41}}}});
  });
  client.RequestWithId(41, "nsys/openProfile",
                       {{"path", Fixture("h100_2gpu_1s.sqlite")}, {"workDoneToken", "cancel-me"}});
  const Json reply = client.AwaitReply(41);
  EXPECT_EQ(reply["error"]["code"], -32800) << reply.dump();
  EXPECT_EQ(client.ReceivedMatching([](const Json& m) { return IsReplyTo(m, 41); }).size(), 1u);
  // The session is fine afterwards.
  client.SetOutgoingHook({});
  EXPECT_TRUE(
      client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("mock.sqlite")}})).contains("result"));
}

}  // namespace
}  // namespace nsys::testing
