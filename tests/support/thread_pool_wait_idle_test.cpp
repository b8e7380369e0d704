// ThreadPool::WaitIdle: what lets a server stop within its grace without joining a worker that ignores cancellation.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "nsys/support/executor.h"

namespace nsys::support {
namespace {

TEST(ThreadPoolWaitIdle, TrueAtOnceWhenIdleFalseWhileATaskRunsTrueWhenItEnds) {
  ThreadPool pool(2);
  EXPECT_TRUE(pool.WaitIdle(std::chrono::milliseconds(0)));
  std::atomic<bool> release{false};
  pool.Post([&] {
    while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  pool.Post([] {}, TaskOrigin{0, true});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(pool.WaitIdle(std::chrono::milliseconds(100))) << "a running task must count as work left";
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    release = true;
  });
  EXPECT_TRUE(pool.WaitIdle(std::chrono::seconds(5)));
  releaser.join();
}

}  // namespace
}  // namespace nsys::support
