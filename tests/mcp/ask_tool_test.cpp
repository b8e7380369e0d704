// The MCP tool `ask` through the real nsys-ai binary: listed, answers with evidence on a fixture, keeps the
// conversation for a follow-up, refuses unknown kernels and reports bad input as isError / invalid arguments.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "child_process.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;
constexpr std::chrono::seconds kTimeout{60};

class AskToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = std::filesystem::temp_directory_path() / ("nsys-ai-ask-mcp-" + std::to_string(::getpid()));
    std::filesystem::create_directories(scratch_);
    std::string error;
    child_ = ChildProcess::Start(
        {NSYS_AI_BINARY, "mcp", "--no-cache"},
        {"XDG_CACHE_HOME=" + (scratch_ / "cache").string(), "XDG_CONFIG_HOME=" + (scratch_ / "config").string()},
        (scratch_ / "stderr.log").string(), &error);
    ASSERT_TRUE(child_) << error;
    Call("initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()}});
    ASSERT_TRUE(child_->WriteLine(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump()));
  }
  void TearDown() override {
    child_.reset();
    std::error_code ec;
    std::filesystem::remove_all(scratch_, ec);
  }

  Json Call(const std::string& method, const Json& params) {
    const int id = next_id_++;
    EXPECT_TRUE(child_->WriteLine(Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump()));
    bool timed_out = false;
    auto line = child_->ReadLine(kTimeout, &timed_out);
    if (!line) return nullptr;
    Json reply = Json::parse(*line);
    EXPECT_EQ(reply["id"], id);
    return reply;
  }
  // tools/call: {isError, the text content parsed as JSON when it is JSON, else the text}.
  std::pair<bool, Json> Tool(const std::string& name, const Json& arguments) {
    const Json reply = Call("tools/call", {{"name", name}, {"arguments", arguments}});
    const Json& result = reply["result"];
    const std::string text = result["content"][0]["text"];
    Json parsed = Json::parse(text, nullptr, false);
    return {result["isError"].get<bool>(), parsed.is_discarded() ? Json(text) : parsed};
  }

  std::filesystem::path scratch_;
  std::unique_ptr<ChildProcess> child_;
  int next_id_ = 1;
};

TEST_F(AskToolTest, AnswersWithEvidenceAndKeepsTheConversation) {
  NSYS_REQUIRE_FIXTURES();
  const Json list = Call("tools/list", Json::object());
  bool listed = false;
  for (const auto& t : list["result"]["tools"]) listed = listed || t["name"] == "ask";
  EXPECT_TRUE(listed);

  auto [open_error, opened] = Tool("open_profile", {{"path", Fixture("h100_2gpu_1s.sqlite")}});
  ASSERT_FALSE(open_error) << opened.dump();
  const std::string id = opened["profile_id"];

  auto [error, answer] = Tool("ask", {{"profile_id", id}, {"question", "Which kernel takes the most GPU time?"}});
  ASSERT_FALSE(error) << answer.dump();
  // 31,121,662 ns: nsys stats gpukernsum's first row (and SUM(end-start) of that demangled name in the export).
  EXPECT_NE(answer["answer"]["summary"].get<std::string>().find("31.122 ms"), std::string::npos) << answer.dump();
  EXPECT_EQ(answer["answer"]["evidence"][0]["call"]["skill"], "event_stats");
  EXPECT_EQ(answer["answer"]["evidence"][0]["rows"][0][1], 31121662);
  EXPECT_EQ(answer["skills_used"], Json::array({"event_stats"}));
  EXPECT_EQ(answer["used_llm"], false);
  EXPECT_EQ(answer["answer"]["verify"].get<std::string>().rfind("nsys-ai skill run event_stats ", 0), 0u);

  auto [follow_error, follow] = Tool(
      "ask", {{"profile_id", id}, {"question", "and on device 1?"}, {"conversation_id", answer["conversation_id"]}});
  ASSERT_FALSE(follow_error) << follow.dump();
  EXPECT_EQ(follow["conversation_id"], answer["conversation_id"]);
  EXPECT_EQ(follow["answer"]["evidence"][0]["call"]["filter"]["devices"], Json::array({1}));

  auto [unknown_error, unknown] = Tool("ask", {{"profile_id", id}, {"question", "How long does foo_bar_kernel take?"}});
  ASSERT_FALSE(unknown_error);
  EXPECT_TRUE(unknown["answer"].contains("refusal")) << unknown.dump();

  auto [empty_error, empty] = Tool("ask", {{"profile_id", id}, {"question", "  "}});
  EXPECT_TRUE(empty_error);
  EXPECT_NE(empty.get<std::string>().find("question"), std::string::npos);
  auto [bad_error, bad] = Tool("ask", {{"profile_id", id}, {"question", "x"}, {"bogus", 1}});
  EXPECT_TRUE(bad_error);
  EXPECT_NE(bad.get<std::string>().find("Invalid arguments for ask"), std::string::npos) << bad.dump();
}

// The tool `query`: typed questions over the real binary, its schema the Query's, a bad Query an isError result.
TEST_F(AskToolTest, QueryAnswersTypedQuestionsAndNamesABadOneByItsPath) {
  NSYS_REQUIRE_FIXTURES();
  const Json list = Call("tools/list", Json::object());
  Json schema;
  for (const auto& t : list["result"]["tools"]) {
    if (t["name"] == "query") schema = t["inputSchema"];
  }
  ASSERT_FALSE(schema.is_null()) << list.dump();
  EXPECT_EQ(schema["properties"]["queries"]["items"]["required"], Json::array({"measures", "subject"}));
  auto [open_error, opened] = Tool("open_profile", {{"path", Fixture("h100_2gpu_1s.sqlite")}});
  ASSERT_FALSE(open_error) << opened.dump();
  // Kernels per device, the top one by count: device 1 ran 1,721 of the 3,442 (SELECT deviceId, COUNT(*) ... GROUP BY
  // deviceId: 1,721 each).
  const Json query = {{"measures", {"count"}}, {"subject", {{"events", "kernels"}}}, {"groupBy", "device"}};
  auto [error, answer] = Tool("query", {{"profile_id", opened["profile_id"]}, {"queries", {query}}});
  ASSERT_FALSE(error) << answer.dump();
  const std::string summary = answer["answer"]["summary"];
  EXPECT_EQ(summary.rfind("Read as: count of kernels, all GPUs, per GPU.", 0), 0u) << summary;
  EXPECT_NE(summary.find("device 1: 1,721 kernels"), std::string::npos) << summary;
  EXPECT_NE(summary.find("Total: 3,442 kernels"), std::string::npos) << summary;
  auto [bad_error, bad] = Tool("query", {{"profile_id", opened["profile_id"]},
                                         {"queries", {{{"measures", {"count"}}, {"subject", {{"events", "gpus"}}}}}}});
  EXPECT_TRUE(bad_error) << bad.dump();
  EXPECT_NE(bad.dump().find("queries[0].subject.events: unknown kind of events 'gpus'"), std::string::npos)
      << bad.dump();
  // A window on the capture clock: h100_2gpu_1s's events run from 155.358 s after the session start, so a window there
  // is answered on that clock, one before them is said to lie outside the profile, and a captureClock that is no
  // boolean, or names no window, is an isError naming it.
  const Json kernels = {{"measures", {"count"}}, {"subject", {{"events", "kernels"}}}};
  Json on_clock = kernels;
  on_clock["scope"] = {{"fromSeconds", 155.0}, {"toSeconds", 157.0}, {"captureClock", true}};
  auto [clock_error, clock] = Tool("query", {{"profile_id", opened["profile_id"]}, {"queries", {on_clock}}});
  ASSERT_FALSE(clock_error) << clock.dump();
  const std::string on = clock["answer"]["summary"];
  EXPECT_NE(on.find("from the session start (on the capture clock)"), std::string::npos) << on;
  EXPECT_NE(on.find("3,442 kernels"), std::string::npos) << on;
  on_clock["scope"]["fromSeconds"] = 5.0;
  on_clock["scope"]["toSeconds"] = 6.0;
  auto [before_error, before] = Tool("query", {{"profile_id", opened["profile_id"]}, {"queries", {on_clock}}});
  ASSERT_FALSE(before_error) << before.dump();
  EXPECT_NE(before.dump().find("lies outside this profile, whose events run from 155.358 s"), std::string::npos)
      << before.dump();
  Json not_a_flag = kernels;
  not_a_flag["scope"] = {{"fromSeconds", 1.0}, {"captureClock", "yes"}};
  auto [flag_error, flag] = Tool("query", {{"profile_id", opened["profile_id"]}, {"queries", {not_a_flag}}});
  EXPECT_TRUE(flag_error) << flag.dump();
  EXPECT_NE(flag.dump().find("captureClock"), std::string::npos) << flag.dump();
  Json no_window = kernels;
  no_window["scope"] = {{"captureClock", true}};
  auto [window_error, window] = Tool("query", {{"profile_id", opened["profile_id"]}, {"queries", {no_window}}});
  EXPECT_TRUE(window_error) << window.dump();
  EXPECT_NE(window.dump().find("captureClock says which clock"), std::string::npos) << window.dump();
}

}  // namespace
}  // namespace nsys::testing
