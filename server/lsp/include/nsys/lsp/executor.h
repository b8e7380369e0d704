#pragma once
// Where request handlers run. The server uses a ThreadPool, so a slow request never blocks the reader thread
// (and with it $/cancelRequest and fast requests); the fuzzer and some tests use InlineExecutor, a synchronous mode.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nsys::lsp {

class Executor {
 public:
  virtual ~Executor() = default;
  // Thread-safe. A task that throws is logged and does not take its thread down.
  virtual void Post(std::function<void()> task) = 0;
};

class ThreadPool final : public Executor {
 public:
  explicit ThreadPool(int threads);
  // Runs the tasks already queued, then joins. Tasks must observe their CancelTokens to make this quick.
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Post(std::function<void()> task) override;
  int size() const { return static_cast<int>(threads_.size()); }

 private:
  void Work();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Runs each task at once on the caller's thread.
class InlineExecutor final : public Executor {
 public:
  void Post(std::function<void()> task) override;
};

// The default worker count: between 2 and 4, following the machine.
int DefaultWorkerThreads();

}  // namespace nsys::lsp
