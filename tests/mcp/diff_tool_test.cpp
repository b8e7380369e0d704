// The MCP `diff` tool against the real binary (`nsys-ai mcp`): listed with its schema, the same result as nsys/diff,
// and errors as isError results or argument errors; the server keeps serving.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "fixtures.h"
#include "mcp/child_process.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using namespace std::chrono_literals;

class DiffTool : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    scratch_ = fs::temp_directory_path() / ("nsys-ai-mcp-diff-" + std::to_string(::getpid()));
    fs::create_directories(scratch_);
    std::string error;
    child_ = ChildProcess::Start(
        {NSYS_AI_BINARY, "mcp", "--no-cache"},
        {"XDG_CACHE_HOME=" + (scratch_ / "cache").string(), "XDG_CONFIG_HOME=" + (scratch_ / "config").string()},
        (scratch_ / "stderr.log").string(), &error);
    ASSERT_TRUE(child_) << error;
    Call({{"jsonrpc", "2.0"},
          {"id", next_++},
          {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()}}}});
    ASSERT_TRUE(child_->WriteLine(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump()));
  }
  void TearDown() override {
    child_.reset();
    fs::remove_all(scratch_);
  }
  Json Call(const Json& request) {
    EXPECT_TRUE(child_->WriteLine(request.dump()));
    bool timed_out = false;
    const auto line = child_->ReadLine(120s, &timed_out);
    if (!line) {
      ADD_FAILURE() << (timed_out ? "timeout" : "eof");
      return nullptr;
    }
    return Json::parse(*line);
  }
  Json Tool(const std::string& name, const Json& arguments) {
    return Call({{"jsonrpc", "2.0"},
                 {"id", next_++},
                 {"method", "tools/call"},
                 {"params", {{"name", name}, {"arguments", arguments}}}});
  }
  std::string Open(const std::string& fixture) {
    const Json r = Tool("open_profile", {{"path", Fixture(fixture)}});
    return Json::parse(r["result"]["content"][0]["text"].get<std::string>())["profile_id"];
  }
  fs::path scratch_;
  std::unique_ptr<ChildProcess> child_;
  int next_ = 1;
};

TEST_F(DiffTool, ListedAndAnswersLikeTheMethod) {
  const Json list = Call({{"jsonrpc", "2.0"}, {"id", next_++}, {"method", "tools/list"}});
  bool listed = false;
  for (const auto& t : list["result"]["tools"]) {
    if (t["name"] != "diff") continue;
    listed = true;
    EXPECT_EQ(t["inputSchema"]["required"], Json::array({"base_profile_id", "new_profile_id"}));
  }
  EXPECT_TRUE(listed);

  const std::string a = Open("mfu_2gpu_before.sqlite");
  const std::string b = Open("mfu_2gpu_after.sqlite");
  const Json r = Tool("diff", {{"base_profile_id", a}, {"new_profile_id", b}});
  ASSERT_EQ(r["result"]["isError"], false) << r.dump();
  const Json d = Json::parse(r["result"]["content"][0]["text"].get<std::string>());
  EXPECT_EQ(d["verdict"], "regressed");
  EXPECT_EQ(d["base_iterations"]["count"], 32);
  EXPECT_EQ(d["new_iterations"]["count"], 28);
  EXPECT_EQ(d["kernel_counts"]["both"], 27);

  const Json unrelated_a = Json(Open("h100_2gpu_1s.sqlite"));
  const Json unrelated_b = Json(Open("v100_julia.sqlite"));
  const Json u = Tool("diff", {{"base_profile_id", unrelated_a}, {"new_profile_id", unrelated_b}});
  const Json ud = Json::parse(u["result"]["content"][0]["text"].get<std::string>());
  EXPECT_EQ(ud["comparability"]["label"], "not comparable");
  EXPECT_EQ(ud["verdict"], "neutral");
}

TEST_F(DiffTool, BadArgumentsAreToolErrors) {
  const std::string a = Open("mfu_2gpu_before.sqlite");
  const Json unknown_id = Tool("diff", {{"base_profile_id", a}, {"new_profile_id", "p42"}});
  EXPECT_EQ(unknown_id["result"]["isError"], true) << unknown_id.dump();
  const Json typo = Tool("diff", {{"base_profile_id", a}, {"new_profile", a}});
  EXPECT_EQ(typo["result"]["isError"], true);
  EXPECT_NE(typo["result"]["content"][0]["text"].get<std::string>().find("unknown argument 'new_profile'"),
            std::string::npos)
      << typo.dump();
  const Json bad_map = Tool("diff", {{"base_profile_id", a}, {"new_profile_id", a}, {"phase_map", "[1]"}});
  EXPECT_EQ(bad_map["result"]["isError"], true);
  EXPECT_NE(bad_map["result"]["content"][0]["text"].get<std::string>().find("phase_map"), std::string::npos);
  const Json ping = Call({{"jsonrpc", "2.0"}, {"id", next_++}, {"method", "ping"}});
  EXPECT_TRUE(ping.contains("result"));
}

}  // namespace
}  // namespace nsys::testing
