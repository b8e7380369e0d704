#pragma once
// Thin RAII over the SQLite C API, for read-only access to an export. Private to the engine.
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::engine::sql {

// Turns off SQLite's memory statistics (a global mutex on every allocation) before the first connection.
void ConfigureOnce();

// "file:/path%3Fx?immutable=1": a URI for a finished file that SQLite may treat as never changing
// (no locks, no journal lookups, nothing written next to it).
std::string ImmutableUri(const std::string& path);

class Stmt;

class Db {
 public:
  Db() = default;
  ~Db();
  // Move before WatchCancel(): the progress handler keeps `this`.
  Db(Db&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  using Clock = std::chrono::steady_clock;
  Db& operator=(Db&& other) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Read-only, immutable, query_only, and hardened against what a crafted schema or statement could reach: FTS3
  // tokenizer pointers off, defensive mode on, the schema untrusted (its views and triggers may only call innocuous
  // functions), extension loading off. Errors name `path`.
  static Expected<Db> OpenReadOnly(const std::string& path);

  sqlite3* get() const { return db_; }
  explicit operator bool() const { return db_ != nullptr; }

  // Runs `sql` (no rows expected).
  Status Exec(const std::string& sql);
  Expected<Stmt> Prepare(const std::string& sql) const;

  // Makes running statements stop with SQLITE_INTERRUPT when `cancel` fires, `*abort` becomes true or `deadline`
  // passes. Checked every ~10k virtual machine steps (well under a millisecond).
  // `every_ops` sets how many steps run between checks.
  void WatchCancel(const CancelToken* cancel, const std::atomic<bool>* abort,
                   std::optional<Clock::time_point> deadline = std::nullopt, int every_ops = 10000);
  // The same check, for code that runs inside one step (an SQL function): true when the statement should stop.
  bool ShouldStop();
  // Whether the last interruption came from the deadline (not from cancel or abort).
  bool deadline_passed() const { return deadline_passed_; }

  std::string ErrorMessage() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }

 private:
  static int ProgressHandler(void* self);
  sqlite3* db_ = nullptr;
  const CancelToken* cancel_ = nullptr;
  const std::atomic<bool>* abort_ = nullptr;
  std::optional<Clock::time_point> deadline_;
  bool deadline_passed_ = false;
};

class Stmt {
 public:
  Stmt() = default;
  explicit Stmt(sqlite3_stmt* s) : s_(s) {}
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(Stmt&& other) noexcept : s_(other.s_) { other.s_ = nullptr; }
  Stmt& operator=(Stmt&& other) noexcept {
    std::swap(s_, other.s_);
    return *this;
  }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  sqlite3_stmt* get() const { return s_; }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(s_); }
  void Reset() { sqlite3_reset(s_); }
  void Bind(int index, int64_t v) { sqlite3_bind_int64(s_, index, v); }
  void Bind(int index, std::string_view v) {
    sqlite3_bind_text(s_, index, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }

  int64_t Int(int col) const { return sqlite3_column_int64(s_, col); }
  // NULL -> fallback.
  int64_t IntOr(int col, int64_t fallback) const {
    return sqlite3_column_type(s_, col) == SQLITE_NULL ? fallback : sqlite3_column_int64(s_, col);
  }
  bool IsNull(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  double Double(int col) const { return sqlite3_column_double(s_, col); }
  std::string_view Text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(s_, col))) : std::string_view();
  }

 private:
  sqlite3_stmt* s_ = nullptr;
};

// An error for a failed SQLite call on `path`, with the kind that the result code implies
// (corruption -> kBadInput naming a damaged/truncated file, interrupt -> kCancelled, ...).
Error SqliteError(int rc, const std::string& detail, const std::string& path);

// "'name'" with SQL identifier quoting.
std::string QuoteIdent(std::string_view name);

}  // namespace nsys::engine::sql
