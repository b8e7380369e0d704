// RunProcess: the run launcher's child, with stdout collected, stderr read line by line, and cancellation.
#include "nsys/support/child_process.h"

#include <gtest/gtest.h>
#include <unistd.h>

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

// Issue 38, item 15: the child kept every descriptor the server had open without FD_CLOEXEC (its listening socket,
// its clients' connections). Descriptor 100 here is such a one; the child sees only 0, 1, 2 and what ls opens itself.
TEST(RunProcess, TheChildKeepsOnlyItsStandardDescriptors) {
  ASSERT_EQ(dup2(STDERR_FILENO, 100), 100);
  auto run = RunProcess({"sh", "-c", "ls /proc/$$/fd"}, {}, CancelToken());
  close(100);
  ASSERT_TRUE(static_cast<bool>(run)) << run.error().message;
  EXPECT_EQ(run->exit_code, 0);
  std::vector<std::string> fds;
  for (size_t start = 0, nl; (nl = run->out.find('\n', start)) != std::string::npos; start = nl + 1) {
    fds.push_back(run->out.substr(start, nl - start));
  }
  EXPECT_EQ(fds, (std::vector<std::string>{"0", "1", "2"}));
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
