// explain_kernel against the real binary (`nsys-ai mcp`): listed with its schema, answers with the nsys/explainKernel
// result, and refuses bad arguments and unknown kernels as isError results while the server keeps serving.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "fixtures.h"
#include "mcp/child_process.h"
#include "mcp/transcript_match.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ExplainToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    ASSERT_TRUE(fs::exists(NSYS_AI_BINARY)) << NSYS_AI_BINARY;
    scratch_ = fs::temp_directory_path() / ("nsys-ai-explain-tool-" + std::to_string(::getpid()));
    fs::create_directories(scratch_);
    std::string error;
    child_ = ChildProcess::Start(
        {NSYS_AI_BINARY, "mcp", "--no-cache"},
        {"XDG_CACHE_HOME=" + (scratch_ / "cache").string(), "XDG_CONFIG_HOME=" + (scratch_ / "config").string()},
        (scratch_ / "stderr.log").string(), &error);
    ASSERT_TRUE(child_) << error;
    Send({{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()}}}});
    ASSERT_EQ(Receive()["id"], 1);
    Send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }
  void TearDown() override {
    child_.reset();
    std::error_code ec;
    fs::remove_all(scratch_, ec);
  }
  void Send(const Json& message) { ASSERT_TRUE(child_->WriteLine(message.dump())); }
  Json Receive() {
    bool timed_out = false;
    const std::optional<std::string> line = child_->ReadLine(60s, &timed_out);
    if (!line) {
      ADD_FAILURE() << (timed_out ? "no reply within 60 s" : "nsys-ai closed its output");
      return nullptr;
    }
    return Json::parse(*line, nullptr, false);
  }
  Json Call(int id, const std::string& tool, const Json& arguments) {
    Send({{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params", {{"name", tool}, {"arguments", arguments}}}});
    return Receive();
  }
  static std::string Text(const Json& reply) { return reply["result"]["content"][0]["text"]; }

  fs::path scratch_;
  std::unique_ptr<ChildProcess> child_;
};

TEST_F(ExplainToolTest, ListedAndAnswersWithTheMethodResult) {
  Send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}});
  const Json tools = Receive()["result"]["tools"];
  Json listed;
  for (const auto& tool : tools) {
    if (tool["name"] == "explain_kernel") listed = tool;
  }
  ASSERT_FALSE(listed.is_null());
  EXPECT_EQ(listed["inputSchema"]["required"], Json::array({"profile_id", "kernel"}));

  const Json open = Call(3, "open_profile", {{"path", Fixture("a100_2proc_mpi.sqlite")}});
  ASSERT_EQ(open["result"]["isError"], false) << open.dump();
  const Json reply = Call(4, "explain_kernel", {{"profile_id", "p1"}, {"kernel", "d884gemm_32x64"}});
  ASSERT_EQ(reply["result"]["isError"], false) << reply.dump();
  const Json result = Json::parse(Text(reply));
  EXPECT_EQ(result["matched_by"], "substring");
  EXPECT_EQ(result["identity"]["library"], "CUTLASS");
  EXPECT_EQ(result["identity"]["precision"], "fp64");
  EXPECT_EQ(result["identity"]["tile"], "32x64x16");
  EXPECT_EQ(result["identity"]["tensorCores"], "yes");
  // The same numbers as top_kernels (sqlite3 on the fixture: 2 executions of this kernel, on device 0).
  const Json top = Call(5, "run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}});
  const Json table = Json::parse(Text(top));
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < table["columns"].size(); ++c) col[table["columns"][c]["name"]] = c;
  bool found = false;
  for (const auto& row : table["rows"]) {
    if (row[col.at("name")] != result["kernel"]) continue;
    found = true;
    EXPECT_EQ(result["calls"], row[col.at("instances")]);
    EXPECT_EQ(result["total_ns"], row[col.at("total_time_ns")]);
  }
  EXPECT_TRUE(found) << result["kernel"];
  ASSERT_TRUE(result.contains("occupancy")) << result.dump();
  EXPECT_EQ(result["occupancy"]["gpu"], "NVIDIA A100-PCIE-40GB");
  EXPECT_NE(result["markdown"].get<std::string>().find("CUTLASS GEMM"), std::string::npos);
}

TEST_F(ExplainToolTest, BadArgumentsAndUnknownKernelsAreToolErrors) {
  const Json open = Call(2, "open_profile", {{"path", Fixture("mfu_2gpu_before.sqlite")}});
  ASSERT_EQ(open["result"]["isError"], false) << open.dump();
  const Json unknown = Call(3, "explain_kernel", {{"profile_id", "p1"}, {"kernel", "flash_fwd_kernal"}});
  EXPECT_EQ(unknown["result"]["isError"], true);
  EXPECT_NE(Text(unknown).find("closest: flash_fwd_kernel"), std::string::npos) << unknown.dump();
  const Json extra = Call(4, "explain_kernel", {{"profile_id", "p1"}, {"kernel", "x"}, {"format", "json"}});
  EXPECT_EQ(extra["result"]["isError"], true);
  EXPECT_NE(Text(extra).find("unknown argument 'format'"), std::string::npos) << extra.dump();
  const Json missing = Call(5, "explain_kernel", {{"profile_id", "p1"}});
  EXPECT_EQ(missing["result"]["isError"], true);
  EXPECT_NE(Text(missing).find("arguments.kernel: missing required argument"), std::string::npos) << missing.dump();
  const Json ok = Call(6, "explain_kernel", {{"profile_id", "p1"}, {"kernel", "ncclDevKernel_SendRecv"}});
  ASSERT_EQ(ok["result"]["isError"], false) << ok.dump();
  EXPECT_EQ(Json::parse(Text(ok))["identity"]["category"], "collective");
}

}  // namespace
}  // namespace nsys::testing
