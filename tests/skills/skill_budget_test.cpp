// The runner's time budget and cancellation for every skill, built-in ones included: the token a skill
// checks fires when the caller cancels or when --skill-timeout's budget passes, and the runner answers the budget
// error even for a skill that does not look at its token.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using BudgetClock = std::chrono::steady_clock;

// Spins until its token fires (or 20 s pass), as a built-in skill's long loop does with its periodic check.
class BudgetSpinner final : public skills::Skill {
 public:
  explicit BudgetSpinner(bool checks_token = true, std::chrono::milliseconds work = std::chrono::seconds(20))
      : checks_token_(checks_token), work_(work) {}
  std::string name() const override { return "budget_spinner"; }
  std::string description() const override { return "Spins until cancelled."; }
  engine::Need needs() const override { return static_cast<engine::Need>(0); }
  Expected<skills::Table> run(const skills::Context& ctx) const override {
    const auto until = BudgetClock::now() + work_;
    while (BudgetClock::now() < until) {
      if (checks_token_ && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    skills::Table t;
    t.columns = {{"done", ValueType::kInt, ""}};
    t.rows.push_back({Value(int64_t{1})});
    return t;
  }

 private:
  bool checks_token_;
  std::chrono::milliseconds work_;
};

double SecondsSince(BudgetClock::time_point start) {
  return std::chrono::duration<double>(BudgetClock::now() - start).count();
}

// A skill whose Prepare() (per-profile data, like the loads) takes `prepare`, then whose run() answers at once.
class SlowPreparation final : public skills::Skill {
 public:
  explicit SlowPreparation(std::chrono::milliseconds prepare, Status outcome = {})
      : prepare_(prepare), outcome_(std::move(outcome)) {}
  std::string name() const override { return "slow_preparation"; }
  std::string description() const override { return "Prepares slowly."; }
  engine::Need needs() const override { return static_cast<engine::Need>(0); }
  Status Prepare(const engine::Profile&, const skills::Args&, const CancelToken& cancel) const override {
    const auto until = BudgetClock::now() + prepare_;
    while (BudgetClock::now() < until) {
      if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return outcome_;
  }
  Expected<skills::Table> run(const skills::Context&) const override {
    skills::Table t;
    t.columns = {{"done", ValueType::kInt, ""}};
    t.rows.push_back({Value(int64_t{1})});
    return t;
  }

 private:
  std::chrono::milliseconds prepare_;
  Status outcome_;
};

TEST(SkillBudget, PreparationIsNotCountedInTheBudgetButStopsWhenTheCallerCancels) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH100);
  ASSERT_NE(profile, nullptr);
  skills::RunOptions options;
  options.user_skill_timeout = std::chrono::milliseconds(100);
  auto r = skills::Run(SlowPreparation(std::chrono::milliseconds(300)), *profile, {}, CancelToken{}, {}, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().rows.size(), 1u);

  CancelToken caller;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    caller.cancel();
  });
  const auto start = BudgetClock::now();
  r = skills::Run(SlowPreparation(std::chrono::seconds(20)), *profile, {}, caller, {}, options);
  canceller.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(SecondsSince(start), 5.0);

  r = skills::Run(SlowPreparation(std::chrono::milliseconds(0), MakeError(ErrorKind::kInternal, "no index")), *profile,
                  {}, CancelToken{}, {}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "no index");
}

TEST(SkillBudget, ABuiltInSkillStopsAtItsTimeBudget) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH100);
  ASSERT_NE(profile, nullptr);
  BudgetSpinner spinner;
  skills::RunOptions options;
  options.user_skill_timeout = std::chrono::milliseconds(200);
  const auto start = BudgetClock::now();
  auto r = skills::Run(spinner, *profile, {}, CancelToken{}, {}, options);
  const double took = SecondsSince(start);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(r.error().message, "Skill 'budget_spinner' stopped after 0.2 s (its time budget; see --skill-timeout).");
  EXPECT_GE(took, 0.19);
  EXPECT_LT(took, 1.0) << "the skill ran past its budget";
}

TEST(SkillBudget, CancelStopsABuiltInSkillMidRun) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH100);
  ASSERT_NE(profile, nullptr);
  BudgetSpinner spinner;
  skills::RunOptions options;
  options.user_skill_timeout = std::chrono::seconds(60);
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  const auto start = BudgetClock::now();
  auto r = skills::Run(spinner, *profile, {}, cancel, {}, options);
  const double took = SecondsSince(start);
  canceller.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(took, 1.0) << "cancel did not reach the skill's token";
}

TEST(SkillBudget, ASkillThatIgnoresItsTokenStillAnswersTheBudgetError) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH100);
  ASSERT_NE(profile, nullptr);
  BudgetSpinner deaf(/*checks_token=*/false, std::chrono::milliseconds(400));
  skills::RunOptions options;
  options.user_skill_timeout = std::chrono::milliseconds(100);
  auto r = skills::Run(deaf, *profile, {}, CancelToken{}, {}, options);
  ASSERT_FALSE(r.ok()) << "a result computed past the budget was returned";
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
}

TEST(SkillBudget, SkillsWithinTheirBudgetAnswerAsBefore) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture(kH100);
  ASSERT_NE(profile, nullptr);
  BudgetSpinner quick(/*checks_token=*/true, std::chrono::milliseconds(20));
  skills::RunOptions options;
  options.user_skill_timeout = std::chrono::seconds(5);
  auto r = skills::Run(quick, *profile, {}, CancelToken{}, {}, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->rows.size(), 1u);
  // A real built-in under the default budget: same rows as ever.
  auto top = skills::RunByName(Builtins(), "top_kernels", *profile, {});
  ASSERT_TRUE(top.ok()) << top.error().message;
  EXPECT_FALSE(top->rows.empty());
}

}  // namespace
}  // namespace nsys::testing
