// RunProcess: the run launcher's child, with stdout collected, stderr read line by line, and cancellation.
#include "nsys/support/child_process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace nsys::support {
namespace {

TEST(RunProcess, CollectsStdoutAndHandsStderrOverLineByLine) {
  std::vector<std::string> lines;
  auto run = RunProcess(
      {"sh", "-c", "printf 'a\\nb'; echo first >&2; printf 'sec' >&2; echo ond >&2; exit 3"},
      [&](const std::string& line) { lines.push_back(line); }, CancelToken());
  ASSERT_TRUE(static_cast<bool>(run)) << run.error().message;
  EXPECT_EQ(run->exit_code, 3);
  EXPECT_EQ(run->out, "a\nb");
  EXPECT_EQ(lines, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(run->error_tail, "first\nsecond\n");
}

TEST(RunProcess, AProgramThatCannotRunIsNotFound) {
  auto run = RunProcess({"nsys-ai-no-such-launcher"}, {}, CancelToken());
  ASSERT_FALSE(static_cast<bool>(run));
  EXPECT_EQ(run.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(run.error().message.find("nsys-ai-no-such-launcher"), std::string::npos);
}

TEST(RunProcess, CancellingStopsTheChildAndItsChildren) {
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  // The grandchild (sleep) shares the group, so the pipes close and nothing is left running.
  auto run = RunProcess({"sh", "-c", "sleep 30 & wait"}, {}, cancel);
  canceller.join();
  ASSERT_FALSE(static_cast<bool>(run));
  EXPECT_EQ(run.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST(RunProcess, OutputPastTheLimitStopsTheChild) {
  auto run = RunProcess({"yes"}, {}, CancelToken(), 1 << 20);
  ASSERT_FALSE(static_cast<bool>(run));
  EXPECT_EQ(run.error().kind, ErrorKind::kLimitExceeded);
}

}  // namespace
}  // namespace nsys::support
