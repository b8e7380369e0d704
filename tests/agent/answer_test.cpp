// The answer shape: verify commands a shell runs as written, Markdown that keeps facts and hypotheses apart, and the
// wire round trip.
#include "nsys/agent/answer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nsys::agent {
namespace {

TEST(Answer, VerifyCommandQuotesWhatTheShellWouldSplit) {
  SkillCall call;
  call.skill = "top_kernels";
  call.args = {{"limit", Value{int64_t{5}}}, {"name_filter", Value{std::string("gemm kernel's")}}};
  call.filter.devices = {1};
  call.filter.window.start = 0.25;
  call.filter.window.end = 0.5;
  EXPECT_EQ(VerifyCommand(call, "/data/my runs/train.sqlite"),
            "nsys-ai skill run top_kernels '/data/my runs/train.sqlite' --device 1 --trim 0.25 0.5 --arg limit=5 "
            "--arg 'name_filter=gemm kernel'\\''s'");
}

TEST(Answer, VerifyCommandNamesAFilterTheCliCannotSay) {
  SkillCall call;
  call.skill = "gpu_idle_gaps";
  call.filter.devices = {0, 1};
  call.filter.window.start = 1e9;
  call.filter.window.clock = WindowClock::kCaptureNs;
  const std::string cmd = VerifyCommand(call, "p.sqlite");
  EXPECT_EQ(cmd,
            "nsys-ai skill run gpu_idle_gaps p.sqlite --device 0 --arg start=1000000000 --clock capture_ns  # the "
            "answer used a filter of 2 devices; the command shows the first of each");
}

TEST(Answer, ShellQuoteLeavesSafeWordsAlone) {
  EXPECT_EQ(ShellQuote("a-b_c.d/e:f=g"), "a-b_c.d/e:f=g");
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("$(rm -rf /)"), "'$(rm -rf /)'");
  // A name that is not UTF-8 is written with $'...' and \xHH, so the command stays exact and valid UTF-8.
  EXPECT_EQ(ShellQuote("/tmp/prof\xFF it's.sqlite"), "$'/tmp/prof\\xFF it\\x27s.sqlite'");
}

TEST(Answer, EvidenceKeepsTheNamedColumnsInOrderAndSkipsUnknownOnes) {
  skills::Table t;
  t.columns = {{"name", ValueType::kString, ""}, {"count", ValueType::kInt, ""}, {"total_ns", ValueType::kInt, ""}};
  t.rows = {{std::string("k1"), int64_t{3}, int64_t{300}}, {std::string("k2"), int64_t{1}, int64_t{50}}};
  auto e = EvidenceFrom({"top_kernels", {}, {}}, t, {"total_ns", "nope", "name"}, 1, "Top kernel");
  ASSERT_EQ(e.columns, (std::vector<std::string>{"total_ns", "name"}));
  ASSERT_EQ(e.rows.size(), 1u);
  EXPECT_EQ(e.rows[0], (std::vector<Value>{int64_t{300}, std::string("k1")}));
}

TEST(Answer, MarkdownSeparatesHypothesesAndEscapesCells) {
  Answer a;
  a.summary = "Kernel k1 takes 300 ns.";
  skills::Table t;
  t.columns = {{"name", ValueType::kString, ""}, {"total_ns", ValueType::kInt, ""}};
  t.rows = {{std::string("a|b"), int64_t{300}}};
  a.evidence.push_back(EvidenceFrom({"top_kernels", {}, {}}, t, {"name", "total_ns"}, 0, "Kernels"));
  a.hypotheses = {"It may be memory bound."};
  a.recommendations = {"Fuse it."};
  a.confidence = Confidence::kHigh;
  a.confidence_reason = "every kernel is in the table";
  a.verify = "nsys-ai skill run top_kernels p.sqlite";
  const std::string md = RenderMarkdown(a);
  EXPECT_NE(md.find("| a\\|b | 300 |"), std::string::npos) << md;
  EXPECT_NE(md.find("### Hypotheses (not proven by the profile)\n\n- It may be memory bound."), std::string::npos);
  EXPECT_NE(md.find("Confidence: high (every kernel is in the table)."), std::string::npos);
  EXPECT_NE(md.find("Verify: `nsys-ai skill run top_kernels p.sqlite`"), std::string::npos);
}

TEST(Answer, RefusalSaysWhatIsMissingAndWhatItCanAnswer) {
  const Answer a = Refuse(
      {"This profile has no CUDA kernels.", {"CUPTI_ACTIVITY_KIND_KERNEL"}, {"Which NVTX ranges take longest?"}});
  EXPECT_EQ(a.summary, "This profile has no CUDA kernels.");
  EXPECT_TRUE(a.verify.empty());
  const std::string md = RenderMarkdown(a);
  EXPECT_NE(md.find("- Missing: CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos);
  EXPECT_NE(md.find("- Which NVTX ranges take longest?"), std::string::npos);
}

}  // namespace
}  // namespace nsys::agent
