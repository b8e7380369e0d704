#include "nsys/support/executor.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>

#include "nsys/support/log.h"

namespace nsys::support {
namespace {

void RunGuarded(const std::function<void()>& task) {
  try {
    task();
  } catch (const std::exception& e) {
    LogError(std::string("a worker task threw: ") + e.what());
  } catch (...) {
    LogError("a worker task threw a non-standard exception");
  }
}

}  // namespace

uint64_t NewTaskQueue() {
  static std::atomic<uint64_t> next{1};  // 0 is the queue of tasks posted without an origin
  return next.fetch_add(1);
}

void ThreadPool::Lane::Push(uint64_t queue, std::function<void()> task) {
  auto& fifo = tasks[queue];
  if (fifo.empty()) turns.push_back(queue);
  fifo.push_back(std::move(task));
  ++size;
}

std::function<void()> ThreadPool::Lane::Pop() {
  const uint64_t queue = turns.front();
  turns.pop_front();
  auto it = tasks.find(queue);
  std::function<void()> task = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) {
    tasks.erase(it);
  } else {
    turns.push_back(queue);  // its next task waits for every other queue's turn
  }
  --size;
  return task;
}

ThreadPool::ThreadPool(int threads) {
  worker_count_ = std::max(1, threads);
  threads_.reserve(worker_count_ + 1);
  for (int i = 0; i < worker_count_; ++i) threads_.emplace_back([this] { Work(false); });
  threads_.emplace_back([this] { Work(true); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& thread : threads_) thread.join();
}

void ThreadPool::Post(std::function<void()> task, TaskOrigin origin) {
  {
    std::lock_guard lock(mu_);
    (origin.cheap ? cheap_ : ordinary_).Push(origin.queue, std::move(task));
  }
  // notify_all: a notify_one could wake the cheap lane's thread for an ordinary task, which it leaves alone.
  cv_.notify_all();
}

size_t ThreadPool::queued() const {
  std::lock_guard lock(mu_);
  return cheap_.size + ordinary_.size;
}

void ThreadPool::Work(bool cheap_only) {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || cheap_.size > 0 || (!cheap_only && ordinary_.size > 0); });
      if (cheap_.size > 0) {
        task = cheap_.Pop();
      } else if (!cheap_only && ordinary_.size > 0) {
        task = ordinary_.Pop();
      } else {
        return;  // stopping, and nothing left to run on this thread
      }
      ++running_;
    }
    RunGuarded(task);
    task = nullptr;  // what it holds is released before the pool counts it done
    {
      std::lock_guard lock(mu_);
      --running_;
    }
    idle_cv_.notify_all();
  }
}

bool ThreadPool::WaitIdle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return idle_cv_.wait_for(lock, timeout, [&] { return running_ == 0 && cheap_.size == 0 && ordinary_.size == 0; });
}

void InlineExecutor::Post(std::function<void()> task, TaskOrigin) {
  RunGuarded(task);
}

int DefaultWorkerThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores * 2, 2, 4);
}

}  // namespace nsys::support
