// `nsys-ai ask` through the real binary on the fixtures: Markdown and JSON, a refusal, bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(AskCli, AnswersInMarkdownAndJson) {
  NSYS_REQUIRE_FIXTURES();
  const auto md = RunCli({"ask", Fixture("h100_2gpu_1s.sqlite"), "How many kernels ran on GPU 1?", "--no-cache"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  // 1,721 kernels on device 1 for 22,444,359 ns: SELECT COUNT(*), SUM(end-start) ... WHERE deviceId = 1.
  EXPECT_TRUE(Has(md.out, "Read as: count of kernels, on device 1.")) << md.out;
  EXPECT_TRUE(Has(md.out, "1,721 kernels")) << md.out;
  EXPECT_TRUE(Has(md.out, "22.444 ms")) << md.out;
  EXPECT_TRUE(Has(md.out, "### Evidence")) << md.out;
  EXPECT_TRUE(Has(md.out, "Verify: `nsys-ai skill run event_stats")) << md.out;
  EXPECT_TRUE(Has(md.out, "--device 1")) << md.out;

  const auto js = RunCli({"ask", Fixture("mfu_2gpu_before.sqlite"), "How much time goes to NCCL communication?",
                          "--no-cache", "--format", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const Json j = Json::parse(js.out);
  EXPECT_FALSE(j.contains("conversationId"));
  EXPECT_EQ(j["skillsUsed"], Json::array({"event_stats"}));
  // 66 NCCL kernels, 25,401,752 ns: SELECT COUNT(*), SUM(end-start) ... WHERE shortName LIKE '%nccl%'.
  EXPECT_TRUE(Has(j["answer"]["summary"], "Read as: total time of kernels whose name contains `NCCL`")) << js.out;
  EXPECT_TRUE(Has(j["answer"]["summary"], "25.402 ms")) << js.out;
  EXPECT_TRUE(Has(j["answer"]["summary"], "66 kernels")) << js.out;
  EXPECT_FALSE(j["answer"]["markdown"].get<std::string>().empty());
}

TEST(AskCli, RefusesWhatTheProfileCannotAnswer) {
  NSYS_REQUIRE_FIXTURES();
  const auto no_kernels = RunCli(
      {"ask", Fixture("titanrtx_tensorrt_nvtx.sqlite"), "Which kernel is slowest?", "--no-cache", "--format", "json"});
  ASSERT_EQ(no_kernels.exit_code, 0) << no_kernels.err;
  const Json j = Json::parse(no_kernels.out);
  ASSERT_TRUE(j["answer"].contains("refusal")) << no_kernels.out;
  EXPECT_TRUE(Has(j["answer"]["refusal"]["missing"][0], "CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(j["answer"]["verify"], "");

  const auto unknown =
      RunCli({"ask", Fixture("h100_2gpu_1s.sqlite"), "How long does flash_attn_fwd take?", "--no-cache"});
  ASSERT_EQ(unknown.exit_code, 0) << unknown.err;
  EXPECT_TRUE(Has(unknown.out, "No kernel named 'flash_attn_fwd'")) << unknown.out;
  EXPECT_TRUE(Has(unknown.out, "closest:")) << unknown.out;

  const auto empty = RunCli({"ask", Fixture("h100_2gpu_1s.sqlite"), " ", "--no-cache"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_TRUE(Has(empty.err, "question is empty")) << empty.err;
  const auto bad_format = RunCli({"ask", Fixture("mock.sqlite"), "top kernels", "--format", "csv"});
  EXPECT_EQ(bad_format.exit_code, 2);
  const auto empty_export = RunCli({"ask", Fixture("empty_export.sqlite"), "Which kernel is slowest?", "--no-cache"});
  EXPECT_EQ(empty_export.exit_code, 1);
  EXPECT_TRUE(Has(empty_export.err, "no events")) << empty_export.err;
}

// `ask --query`: the question already typed, as one Query object or an array; a bad one is a usage error (exit 2)
// naming its path, before the profile is opened.
TEST(AskCli, AnswersTypedQueriesAndRefusesABadOneAsUsage) {
  NSYS_REQUIRE_FIXTURES();
  const std::string query =
      R"([{"measures": ["bytes", "count"], "subject": {"events": "memcpy", "copyKind": "HtoD"}, "scope": {"devices": [0]}}])";
  const auto r = RunCli({"ask", Fixture("h100_2gpu_1s.sqlite"), "--query", query, "--no-cache", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  const std::string summary = j["answer"]["summary"];
  // Device 0's host-to-device copies: SELECT SUM(bytes), COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1
  // AND deviceId = 0 -> 25,475,253,792 bytes in 225 copies.
  EXPECT_EQ(summary.rfind("Read as: bytes and count of HtoD copies, on device 0.", 0), 0u) << summary;
  EXPECT_TRUE(Has(summary, "25.48 GB")) << summary;
  EXPECT_TRUE(Has(summary, "225 copies")) << summary;
  EXPECT_EQ(j["skillsUsed"], Json::array({"event_stats"}));

  const auto bad =
      RunCli({"ask", "/nonexistent.sqlite", "--query", R"({"measures": ["mean"], "subject": {"events": "kernels"}})"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_TRUE(Has(bad.err, "queries[0].measures[0]: unknown measure 'mean'")) << bad.err;
  const auto both = RunCli({"ask", Fixture("h100_2gpu_1s.sqlite"), "a question", "--query", "{}"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
}

}  // namespace
}  // namespace nsys::testing
