#pragma once
// Where request handlers run. The server uses a ThreadPool, so a slow request never blocks the reader thread
// (and with it $/cancelRequest and fast requests); the fuzzer and some tests use InlineExecutor, a synchronous mode.
//
// Fairness: a task names the queue it belongs to (one per client session) and whether it is cheap. The pool keeps
// one FIFO per queue and serves the queues round-robin, so a client with 50k requests waiting delays another
// client's request by at most one task per worker. Cheap tasks (methods marked `cheap` in the bind table: they
// never load tables nor take a profile's query lock) have their own lane: a thread that runs only them, and every
// worker takes a cheap task before an ordinary one, so they answer fast even when every worker is busy.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace nsys::support {

struct TaskOrigin {
  uint64_t queue = 0;  // tasks with the same queue run in order of posting; queues take turns
  bool cheap = false;  // runs on the cheap lane
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Thread-safe. A task that throws is logged and does not take its thread down.
  virtual void Post(std::function<void()> task, TaskOrigin origin) = 0;
  void Post(std::function<void()> task) { Post(std::move(task), TaskOrigin{}); }
};

// A fresh queue id for TaskOrigin (one per session).
uint64_t NewTaskQueue();

class ThreadPool final : public Executor {
 public:
  // `threads` workers for every task, plus one more thread that runs only cheap tasks.
  explicit ThreadPool(int threads);
  // Runs the tasks already queued, then joins. Tasks must observe their CancelTokens to make this quick.
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  using Executor::Post;
  void Post(std::function<void()> task, TaskOrigin origin) override;
  int size() const { return worker_count_; }  // the workers (the cheap lane's thread not counted)
  size_t queued() const;
  // Waits until no task is queued or running, at most `timeout`; false when work is left. A server that was asked to
  // stop uses it to leave without joining a worker that does not observe its cancellation.
  bool WaitIdle(std::chrono::milliseconds timeout);

 private:
  // Per-lane round-robin over queues: `turns` lists the queues with tasks, in the order they get served.
  struct Lane {
    std::map<uint64_t, std::deque<std::function<void()>>> tasks;
    std::deque<uint64_t> turns;
    size_t size = 0;
    void Push(uint64_t queue, std::function<void()> task);
    std::function<void()> Pop();
  };
  void Work(bool cheap_only);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  Lane cheap_;
  Lane ordinary_;
  bool stopping_ = false;
  size_t running_ = 0;  // tasks being run now
  std::condition_variable idle_cv_;
  int worker_count_ = 0;
  std::vector<std::thread> threads_;
};

// Runs each task at once on the caller's thread.
class InlineExecutor final : public Executor {
 public:
  using Executor::Post;
  void Post(std::function<void()> task, TaskOrigin origin) override;
};

// The default worker count: between 2 and 4, following the machine.
int DefaultWorkerThreads();

}  // namespace nsys::support
