#pragma once
// Connections for Profile::Query, which runs untrusted SQL (user skills). Private to the engine.
//
// Each connection is opened read-only and hardened (sql::Db::OpenReadOnly), then gets an authorizer that allows
// reads and an allow-list of functions, and a cap on the size of any one value. A query leases a connection for its
// whole run: at most kMaxConnections queries of a profile run at once, and a slow one (bounded by its time budget)
// holds up only its own connection, not every other query of the profile.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bounded_functions.h"
#include "sqlite_db.h"

namespace nsys::engine {

class QueryConnection final : public QueryGuard {
 public:
  // Every value (text, blob, a group_concat) is at most this long; SQLite's own default is 1 GB.
  static constexpr int kMaxValueBytes = 16 << 20;
  // Virtual machine steps between two checks of the query's cancellation and deadline (SQLite's progress handler).
  // One step may handle a 16 MiB value (a few ms), so checks are frequent; each costs a clock read.
  static constexpr int kStepsPerCheck = 100;

  static Expected<std::unique_ptr<QueryConnection>> Open(const std::string& path);
  sql::Db& db() { return db_; }
  // Why the authorizer refused the last statement prepared, as a phrase ("it calls fts3_tokenizer(), ..."); empty
  // when it did not. Reset by ClearRefusal() before each prepare.
  const std::string& refusal() const { return refusal_; }
  void ClearRefusal() { refusal_.clear(); }
  // What a bounded function (bounded_functions.h) refused by a limit while the statement ran; "" when none did.
  const std::string& limit_refusal() const { return limit_refusal_; }

  // QueryGuard, for the bounded functions.
  bool Stop() override { return db_.ShouldStop(); }
  void RefuseByLimit(std::string message) override { limit_refusal_ = std::move(message); }

 private:
  static int Authorize(void* self, int action, const char* arg1, const char* arg2, const char* db, const char*);
  sql::Db db_;
  std::string refusal_;
  std::string limit_refusal_;
  std::unique_ptr<BoundedFunctions> bounded_;
};

class QueryPool {
 public:
  static constexpr size_t kMaxConnections = 4;

  // A connection on loan; it goes back to the pool when the lease ends.
  class Lease {
   public:
    Lease(QueryPool* pool, std::unique_ptr<QueryConnection> conn) : pool_(pool), conn_(std::move(conn)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    QueryConnection* operator->() const { return conn_.get(); }
    QueryConnection& operator*() const { return *conn_; }

   private:
    QueryPool* pool_;
    std::unique_ptr<QueryConnection> conn_;
  };

  // A free connection, opening one on `path` while fewer than kMaxConnections exist, else waits for one to come
  // back. kCancelled when `cancel` fires while waiting.
  Expected<Lease> Acquire(const std::string& path, const CancelToken& cancel);

 private:
  void Release(std::unique_ptr<QueryConnection> conn);

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<QueryConnection>> idle_;
  size_t open_ = 0;  // connections that exist or are being opened
};

}  // namespace nsys::engine
