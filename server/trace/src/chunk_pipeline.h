#pragma once
// Internal: hashes and delivers finished chunks on a second thread while the writer encodes the next ones. The sink
// still sees every chunk once, in order, one call at a time; after its first error the rest are dropped.
// A few encoders circulate between the two threads, so memory stays at `buffers` chunks.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "nsys/support/sha256.h"
#include "nsys/trace/protobuf.h"
#include "nsys/trace/trace_writer.h"

namespace nsys::trace::internal {

class ChunkPipeline {
 public:
  ChunkPipeline(const ChunkSink& sink, support::Sha256& sha, size_t chunk_bytes, size_t buffers = 4)
      : sink_(sink), sha_(sha) {
    for (size_t i = 0; i < buffers; ++i) free_.emplace_back(chunk_bytes + 4096);
    thread_ = std::thread([this] { Run(); });
  }
  ~ChunkPipeline() {
    {
      std::lock_guard lock(mu_);
      abort_ = true;  // a write that ended early (cancelled, failed): queued chunks are not delivered
    }
    ready_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  // Queues `encoder`'s bytes and leaves it holding an empty buffer. Blocks while every buffer is in flight.
  void Submit(ProtoEncoder& encoder) {
    std::unique_lock lock(mu_);
    freed_.wait(lock, [this] { return !free_.empty() || !status_.ok(); });
    if (!status_.ok()) {  // nothing more will be delivered: keep encoding into the same buffer
      encoder.Clear();
      return;
    }
    ProtoEncoder next = std::move(free_.back());
    free_.pop_back();
    next.Clear();
    full_.push_back(std::move(encoder));
    encoder = std::move(next);
    ready_.notify_one();
  }

  // Waits until every queued chunk was delivered; returns the sink's first error.
  Status Finish() {
    {
      std::lock_guard lock(mu_);
      finishing_ = true;
    }
    ready_.notify_all();
    if (thread_.joinable()) thread_.join();
    return status_;
  }

  bool ok() const {
    std::lock_guard lock(mu_);
    return status_.ok();
  }

 private:
  void Run() {
    std::unique_lock lock(mu_);
    for (;;) {
      ready_.wait(lock, [this] { return abort_ || finishing_ || !full_.empty(); });
      if (abort_ || (full_.empty() && finishing_)) return;
      ProtoEncoder chunk = std::move(full_.front());
      full_.pop_front();
      const bool deliver = status_.ok();
      lock.unlock();
      Status delivered;
      if (deliver && chunk.size() > 0) {
        sha_.Update(chunk.view());
        delivered = sink_(chunk.view());
      }
      lock.lock();
      if (!delivered.ok() && status_.ok()) status_ = delivered;
      free_.push_back(std::move(chunk));
      freed_.notify_one();
    }
  }

  const ChunkSink& sink_;
  support::Sha256& sha_;
  mutable std::mutex mu_;
  std::condition_variable ready_;  // a chunk was queued, or the end came
  std::condition_variable freed_;  // a buffer came back
  std::deque<ProtoEncoder> full_;
  std::deque<ProtoEncoder> free_;
  Status status_;
  bool finishing_ = false;
  bool abort_ = false;
  std::thread thread_;
};

}  // namespace nsys::trace::internal
