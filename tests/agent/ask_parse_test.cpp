// The question parser (ask_parse.cpp) on its own: what it reads from a question, on client text of any length and
// content. The expected values are what the std::regex parser read (the RE2 one gives the same on the question set
// and 60,000 generated questions); the long and number cases are where std::regex crashed or threw.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "../../server/agent/src/ask_internal.h"
#include "nsys/agent/ask.h"

namespace nsys {
namespace {

using agent::ask_detail::Parsed;
using agent::ask_detail::ParseQuestion;
using agent::ask_detail::QTypeName;

engine::ProfileInfo ParseInfo() {
  engine::ProfileInfo info;
  info.start_ns = 1000;
  info.end_ns = 1000 + 1'500'000'000;  // 1.5 s
  info.processes = {{111, "python"}, {222, "trainer_main"}};
  return info;
}

Parsed Parse(const std::string& q) {
  return ParseQuestion(q, ParseInfo());
}

TEST(AskParse, TypesTopicsDevicesAndProcesses) {
  auto p = Parse("Is kernel time on GPU 0 more than on GPU 1?");
  EXPECT_EQ(QTypeName(p.type), "more_than");
  EXPECT_EQ(p.topic, "kernels");
  EXPECT_EQ(p.devices, (std::vector<int32_t>{0, 1}));
  p = Parse("Is memcpy time more\vthan kernel time?");  // `.` crosses \v
  EXPECT_EQ(QTypeName(p.type), "more_than");
  p = Parse("Is memcpy time more\rthan kernel time?");  // `.` does not cross \r (nor \n)
  EXPECT_EQ(QTypeName(p.type), "describe");
  p = Parse("How much GPU time did kernels take in process 1679 and pid #42 and trainer_main?");
  EXPECT_EQ(QTypeName(p.type), "how_much");
  EXPECT_EQ(p.processes, (std::vector<uint32_t>{1679, 42, 222}));
  p = Parse("compare device 0 vs cuda:3 and rank\v#2, gpu12a");
  EXPECT_EQ(QTypeName(p.type), "compare");
  EXPECT_EQ(p.devices, (std::vector<int32_t>{0, 3, 2}));  // "gpu12a" is no device (\b)
  EXPECT_FALSE(p.follow_up);
  EXPECT_TRUE(Parse("and on device 1?").follow_up);
}

TEST(AskParse, TimeWindows) {
  struct Case {
    std::string question;
    double start_s, end_s;
    std::string text;
  };
  const Case cases[] = {
      {"How many kernels ran between 5 and 6 s?", 5, 6, "between 5 and 6 s"},
      {"what ran between 200 and 400 ms", 0.2, 0.4, "between 200 and 400 ms"},
      {"from 0.25 seconds to 300 milliseconds", 0.25, 0.3, "from 0.25 seconds to 300 milliseconds"},
      {"in the first 100 ms", 0, 0.1, "first 100 ms"},
      {"in the first\v100\vµs", 0, 100e-6, "first\v100\vµs"},
      {"the last 500 ms", 1.0, 1.5, "last 500 ms"},
      {"after 1 s", 1, 1.5, "after 1 s"},
      {"before 250 us", 0, 250e-6, "before 250 us"},
      {"what ran before\n400\nmillisecond", 0, 0.4, "before\n400\nmillisecond"},
  };
  for (const auto& c : cases) {
    const auto p = Parse(c.question);
    ASSERT_TRUE(p.window.has_value()) << c.question;
    EXPECT_DOUBLE_EQ(p.window->start_s, c.start_s) << c.question;
    EXPECT_DOUBLE_EQ(p.window->end_s, c.end_s) << c.question;
    EXPECT_EQ(p.window->text, c.text) << c.question;
  }
  EXPECT_FALSE(Parse("after 3 kernels").window.has_value());  // no unit: no window after/before
  EXPECT_FALSE(Parse("the first 5msx").window.has_value());   // \b after the unit
}

TEST(AskParse, QuotesIdentifiersOrdinalsAndTop) {
  auto p = Parse("Why is “flash_fwd_kernel” slower than `ampere::sgemm<128>` in step 'x'?");
  // The quote class is bytes (as it was for std::regex): the last byte of ” opens a quote that ` closes.
  EXPECT_EQ(p.quoted, (std::vector<std::string>{"flash_fwd_kernel", " slower than ", " in step "}));
  EXPECT_EQ(p.idents, (std::vector<std::string>{"flash_fwd_kernel", "ampere::sgemm<128>"}));
  p = Parse("How long did FusionKernelRuntime::compileKernel take? and MyKernel2, abc, x1");
  EXPECT_EQ(p.idents, (std::vector<std::string>{"FusionKernelRuntime::compileKernel", "MyKernel2"}));
  EXPECT_EQ(p.words, (std::vector<std::string>{"how", "long", "did", "fusionkernelruntime", "compilekernel", "take",
                                               "and", "mykernel2", "abc", "x1"}));
  EXPECT_EQ(Parse("what about number 3").ordinal, std::optional<size_t>(2));
  EXPECT_EQ(Parse("what about #\v7").ordinal, std::optional<size_t>(6));
  EXPECT_EQ(Parse("the top 5 kernels").top_n, std::optional<size_t>(5));
  EXPECT_EQ(Parse("the top5 kernels").top_n, std::optional<size_t>(5));
  EXPECT_FALSE(Parse("the laptop 5 kernels").top_n.has_value());
}

// "longer than 100 us", "under 2 ms": a bound on each instance, which takes the comparison over from "is A more than
// B"; a number without a unit is no bound. A duration unit is never an ordinal ("seconds" held "second").
TEST(AskParse, DurationBounds) {
  auto p = Parse("How many kernels ran longer than 100 us?");
  ASSERT_TRUE(p.bound.has_value());
  EXPECT_DOUBLE_EQ(p.bound->ns, 100e3);
  EXPECT_TRUE(p.bound->above);
  p = Parse("Is there any host to device memcpy slower than 1.5 ms?");
  ASSERT_TRUE(p.bound.has_value());
  EXPECT_DOUBLE_EQ(p.bound->ns, 1.5e6);
  EXPECT_NE(QTypeName(p.type), "more_than");
  p = Parse("Are any kernels under 2 microseconds?");
  ASSERT_TRUE(p.bound.has_value());
  EXPECT_DOUBLE_EQ(p.bound->ns, 2e3);
  EXPECT_FALSE(p.bound->above);
  EXPECT_DOUBLE_EQ(Parse("launches that exceeded 3 seconds").bound->ns, 3e9);
  EXPECT_DOUBLE_EQ(Parse("copies at least 250 ns long").bound->ns, 250);
  EXPECT_FALSE(Parse("kernels with more than 100 instances").bound.has_value());
  EXPECT_FALSE(Parse("in the first 100 ms").bound.has_value());
  EXPECT_FALSE(Parse("how many kernels took over 5 seconds").ordinal.has_value());
  EXPECT_FALSE(Parse("launches per second").ordinal.has_value());
  EXPECT_FALSE(Parse("what happened in the last 2 milliseconds").follow_up);
  EXPECT_EQ(Parse("and the second one?").ordinal, std::optional<size_t>(1));
}

TEST(AskParse, NumbersTooBigForTheirTypeAreNoNumber) {
  // std::stoul/std::stol/std::stod threw out_of_range here: the whole ask failed as an internal error.
  auto p = Parse("top 99999999999999999999 kernels on gpu 99999999999999999999 in pid 99999999999999999999");
  EXPECT_FALSE(p.top_n.has_value());
  EXPECT_TRUE(p.devices.empty());
  EXPECT_TRUE(p.processes.empty());
  EXPECT_EQ(p.topic, "kernels");
  EXPECT_FALSE(Parse("number 99999999999999999999").ordinal.has_value());
  EXPECT_FALSE(Parse("the first 1" + std::string(400, '0') + " ms").window.has_value());
  EXPECT_FALSE(Parse("between 0." + std::string(400, '0') + "1 and 2 s").window.has_value());
  EXPECT_TRUE(Parse("between 1 and 2 s").window.has_value());
}

TEST(AskParse, LongQuestionsParseInLinearTime) {
  // std::regex recursed once per character: "is x...x more than" of 50 KB overflowed the stack (SIGSEGV).
  const auto time_of = [](const std::string& q) {
    const auto t0 = std::chrono::steady_clock::now();
    const Parsed p = Parse(q);
    EXPECT_EQ(QTypeName(p.type), "more_than");
    EXPECT_EQ(p.devices, (std::vector<int32_t>{1}));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const auto question = [](size_t n) {
    std::string q = "is gpu 1 ";
    while (q.size() < n) q += "x_y \"'` between 1 and ";
    return q + " more than";
  };
  const double small = time_of(question(100'000));
  const double big = time_of(question(1'000'000));
  EXPECT_LT(big, 5.0);
  EXPECT_LT(big, 40 * small + 0.5) << "10x the text took " << big / small << "x the time";
  // Arbitrary bytes: NUL, invalid UTF-8, every byte value.
  std::string bytes;
  for (int i = 0; i < 256 * 64; ++i) bytes += static_cast<char>(i * 7 % 256);
  const Parsed p = Parse(bytes);
  EXPECT_FALSE(p.lower.empty());
}

TEST(AskParse, CheckQuestionRefusesEmptyAndOverlongQuestionsNamingTheLimit) {
  EXPECT_TRUE(agent::CheckQuestion("Which kernel takes the most GPU time?").ok());
  EXPECT_TRUE(agent::CheckQuestion(std::string(agent::kMaxQuestionBytes, 'q')).ok());
  const Status empty = agent::CheckQuestion(" \t\r\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(empty.error().message.find("question: empty"), std::string::npos);
  const Status big = agent::CheckQuestion(std::string(agent::kMaxQuestionBytes + 1, 'q'));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(big.error().message,
            "question: 8193 bytes, over the limit of 8192 bytes (8 KiB) for a question; ask a shorter one");
}

}  // namespace
}  // namespace nsys
