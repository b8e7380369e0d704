#include "nsys/lsp/executor.h"

#include <algorithm>
#include <exception>
#include <string>

#include "nsys/core/log.h"

namespace nsys::lsp {
namespace {

void RunGuarded(const std::function<void()>& task) {
  try {
    task();
  } catch (const std::exception& e) {
    core::LogError(std::string("a worker task threw: ") + e.what());
  } catch (...) {
    core::LogError("a worker task threw a non-standard exception");
  }
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  threads = std::max(1, threads);
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& thread : threads_) thread.join();
}

void ThreadPool::Post(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void ThreadPool::Work() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    RunGuarded(task);
  }
}

void InlineExecutor::Post(std::function<void()> task) {
  RunGuarded(task);
}

int DefaultWorkerThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores * 2, 2, 4);
}

}  // namespace nsys::lsp
