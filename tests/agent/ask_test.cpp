// Offline ask: the mapper on real fixtures through a real Workspace runner, conversations (follow-ups, bounds,
// expiry) and bad input.
#include "nsys/agent/ask.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"

namespace nsys {
namespace {

using testing::Fixture;
using testing::HaveFixtures;

core::WorkspaceConfig Hermetic() {
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  return config;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// 1234567 -> "1,234,567", as answers write counts.
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

class AskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveFixtures()) GTEST_SKIP() << "fixtures not found";
    auto opened = ws_.Open(Fixture("h100_2gpu_1s.sqlite"));
    ASSERT_TRUE(opened) << opened.error().message;
    id_ = opened->id;
  }
  core::AskResult Ask(const std::string& question, const std::string& conversation = "") {
    auto r = ws_.Ask({id_, question, conversation}, {});
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : core::AskResult{};
  }
  core::Workspace ws_{Hermetic()};
  std::string id_;
};

TEST_F(AskTest, AWindowBecomesTheFilterAndTheVerifyCommand) {
  const auto r = Ask("How many kernels ran in the first 100 ms?");
  ASSERT_FALSE(r.answer.refusal) << r.answer.summary;
  ASSERT_FALSE(r.answer.evidence.empty());
  const auto& f = r.answer.evidence[0].call.filter;
  ASSERT_TRUE(f.window.start && f.window.end);
  EXPECT_DOUBLE_EQ(*f.window.start, 0.0);
  EXPECT_DOUBLE_EQ(*f.window.end, 0.1);
  EXPECT_TRUE(Has(r.answer.verify, "--trim 0 0.1")) << r.answer.verify;
  // The count equals the skill's own rows for the same window (the question set checks every cited row too).
  auto t = ws_.RunSkill(id_, "top_kernels", {}, f);
  ASSERT_TRUE(t);
  int64_t instances = 0;
  for (const auto& row : t->rows) instances += std::get<int64_t>(row[2]);
  ASSERT_GT(instances, 0);
  EXPECT_TRUE(Has(r.answer.summary, Grouped(instances) + " kernels")) << r.answer.summary;
  EXPECT_TRUE(Has(r.answer.summary, "between 0.000 s and 0.100 s")) << r.answer.summary;
}

TEST_F(AskTest, FollowUpsReuseTheConversation) {
  const auto first = Ask("Which kernels take the most GPU time?");
  ASSERT_GE(first.answer.evidence.at(0).rows.size(), 2u);
  const auto second = Ask("what about the second one?", first.conversation_id);
  EXPECT_EQ(second.conversation_id, first.conversation_id);
  ASSERT_FALSE(second.answer.refusal) << second.answer.summary;
  // The second row of the ranking, by name.
  const auto& ranking = first.answer.evidence[0];
  const auto name_at = std::find(ranking.columns.begin(), ranking.columns.end(), "group");
  ASSERT_NE(name_at, ranking.columns.end());
  const std::string second_name =
      std::get<std::string>(ranking.rows[1][static_cast<size_t>(name_at - ranking.columns.begin())]);
  EXPECT_TRUE(Has(second.answer.summary, second_name.substr(0, 40))) << second.answer.summary;
  const auto device = Ask("and on device 1?", first.conversation_id);
  ASSERT_FALSE(device.answer.evidence.empty());
  EXPECT_EQ(device.answer.evidence[0].call.filter.devices, std::vector<int32_t>{1});
  const auto why = Ask("why?", first.conversation_id);
  EXPECT_FALSE(why.answer.refusal) << why.answer.summary;
  EXPECT_TRUE(std::find(why.skills_used.begin(), why.skills_used.end(), "sync_apis") != why.skills_used.end());
}

TEST_F(AskTest, BadInputGetsClearMessages) {
  auto empty = ws_.Ask({id_, "   ", ""}, {});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(Has(empty.error().message, "question: empty"));
  auto unknown_profile = ws_.Ask({"p99", "top kernels", ""}, {});
  ASSERT_FALSE(unknown_profile);
  EXPECT_EQ(unknown_profile.error().kind, ErrorKind::kNotFound);
  const auto unknown_kernel = Ask("How long does `gemm_that_does_not_exist` take?");
  ASSERT_TRUE(unknown_kernel.answer.refusal);
  EXPECT_TRUE(Has(unknown_kernel.answer.summary, "closest:")) << unknown_kernel.answer.summary;
  EXPECT_EQ(unknown_kernel.answer.refusal->alternatives.size(), 2u);
  EXPECT_TRUE(unknown_kernel.answer.verify.empty());
}

TEST_F(AskTest, ACancelledAskSaysSo) {
  CancelToken cancel;
  cancel.cancel();
  auto r = ws_.Ask({id_, "Which kernels take the most GPU time?", ""}, {}, cancel);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
}

TEST_F(AskTest, StreamedPiecesMakeTheMarkdown) {
  std::string streamed;
  size_t pieces = 0;
  auto r = ws_.Ask({id_, "How much time goes to memory copies?", ""}, [&](const std::string& text) {
    streamed += text;
    ++pieces;
  });
  ASSERT_TRUE(r);
  EXPECT_GT(pieces, 2u);
  EXPECT_EQ(streamed, agent::RenderMarkdown(r->answer));
}

TEST(ConversationStore, BoundedInCountAndIdleAge) {
  agent::ConversationStore store(2, std::chrono::seconds(10));
  auto now = agent::ConversationStore::Clock::now();
  store.SetClockForTest([&] { return now; });
  agent::ConversationState s;
  s.intent = "kernels";
  const std::string a = store.Put("", s);
  now += std::chrono::seconds(1);
  const std::string b = store.Put("", s);
  EXPECT_NE(a, b);
  now += std::chrono::seconds(1);
  ASSERT_TRUE(store.Get(a));  // a is now the most recently used
  now += std::chrono::seconds(1);
  store.Put("", s);  // evicts b, the least recently used
  EXPECT_FALSE(store.Get(b));
  EXPECT_TRUE(store.Get(a));
  EXPECT_EQ(store.size(), 2u);
  now += std::chrono::seconds(11);
  EXPECT_FALSE(store.Get(a));
  EXPECT_EQ(store.size(), 0u);
  EXPECT_EQ(store.Put("mine", s), "mine");
  EXPECT_EQ(store.Get("mine")->intent, "kernels");
}

}  // namespace
}  // namespace nsys
