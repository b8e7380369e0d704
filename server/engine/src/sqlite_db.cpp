#include "sqlite_db.h"

#include <fmt/format.h>

#include <mutex>

namespace nsys::engine::sql {
namespace {
std::string FileName(sqlite3* db) {
  const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
  return name ? name : "";
}

// Settings every connection gets. Fails closed: a library that cannot turn one off is not used for untrusted input.
Status Harden(sqlite3* db, const std::string& path) {
  struct Setting {
    int op;
    int value;
    const char* what;
  };
  static constexpr Setting kSettings[] = {
      // fts3_tokenizer(name, blob) installs a raw pointer as a tokenizer (Debian builds enable it): a query could
      // make the next FTS access call through any address.
      {SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, "turn off FTS3 tokenizer pointers"},
      {SQLITE_DBCONFIG_DEFENSIVE, 1, "turn on defensive mode"},
      {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "stop trusting the schema"},
      {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "turn off extension loading"},
  };
  for (const Setting& s : kSettings) {
    int now = -1;
    if (sqlite3_db_config(db, s.op, s.value, &now) != SQLITE_OK || now != s.value) {
      return MakeError(ErrorKind::kInternal, fmt::format("SQLite {} cannot {} on '{}', so the file is not opened.",
                                                         sqlite3_libversion(), s.what, path));
    }
  }
  return {};
}

}  // namespace

void ConfigureOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Must precede sqlite3_initialize(); if another component already opened a connection this returns
    // SQLITE_MISUSE and we simply keep the default.
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3_initialize();
  });
}

std::string ImmutableUri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    // Characters with a meaning in a URI are escaped; everything else (including UTF-8) passes through.
    if (c == '%' || c == '?' || c == '#' || c < 0x20 || c == 0x7f) {
      uri += fmt::format("%{:02X}", c);
    } else {
      uri += static_cast<char>(c);
    }
  }
  uri += "?immutable=1";
  return uri;
}

Db::~Db() {
  sqlite3_close_v2(db_);
}

Db& Db::operator=(Db&& other) noexcept {
  std::swap(db_, other.db_);
  std::swap(cancel_, other.cancel_);
  std::swap(abort_, other.abort_);
  std::swap(deadline_, other.deadline_);
  std::swap(deadline_passed_, other.deadline_passed_);
  return *this;
}

Expected<Db> Db::OpenReadOnly(const std::string& path) {
  ConfigureOnce();
  Db db;
  const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(ImmutableUri(path).c_str(), &db.db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string detail = db.db_ ? sqlite3_errmsg(db.db_) : sqlite3_errstr(rc);
    return SqliteError(rc, "opening it: " + detail, path);
  }
  sqlite3_extended_result_codes(db.db_, 1);
  if (Status s = Harden(db.db_, path); !s.ok()) return s.error();
  if (Status s = db.Exec("PRAGMA query_only=1"); !s.ok()) return s.error();
  return db;
}

Status Db::Exec(const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    return SqliteError(rc, fmt::format("running `{}`: {}", sql, msg), FileName(db_));
  }
  return {};
}

Expected<Stmt> Db::Prepare(const std::string& sql) const {
  sqlite3_stmt* s = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &s, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(s);
    return SqliteError(rc, fmt::format("preparing `{}`: {}", sql, sqlite3_errmsg(db_)), FileName(db_));
  }
  return Stmt(s);
}

int Db::ProgressHandler(void* self) {
  return static_cast<Db*>(self)->ShouldStop() ? 1 : 0;
}

bool Db::ShouldStop() {
  if (abort_ && abort_->load(std::memory_order_relaxed)) return true;
  if (cancel_ && cancel_->cancelled()) return true;
  if (deadline_ && Clock::now() >= *deadline_) {
    deadline_passed_ = true;
    return true;
  }
  return false;
}

void Db::WatchCancel(const CancelToken* cancel, const std::atomic<bool>* abort,
                     std::optional<Clock::time_point> deadline, int every_ops) {
  cancel_ = cancel;
  abort_ = abort;
  deadline_ = deadline;
  deadline_passed_ = false;
  if (cancel_ || abort_ || deadline_) {
    sqlite3_progress_handler(db_, every_ops, &Db::ProgressHandler, this);
  } else {
    sqlite3_progress_handler(db_, 0, nullptr, nullptr);
  }
}

Error SqliteError(int rc, const std::string& detail, const std::string& path) {
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
      return MakeError(ErrorKind::kBadInput, fmt::format("'{}' is not a SQLite database ({}).", path, detail));
    case SQLITE_CORRUPT:
      return MakeError(ErrorKind::kBadInput,
                       fmt::format("'{}' is damaged or truncated: SQLite reports a malformed database while {}. "
                                   "Export the report again with `nsys export --type sqlite`.",
                                   path, detail));
    case SQLITE_IOERR:
      return MakeError(
          ErrorKind::kBadInput,
          fmt::format("could not read '{}' (the file may be truncated or unreadable) while {}.", path, detail));
    case SQLITE_INTERRUPT:
      return MakeError(ErrorKind::kCancelled, "The operation was cancelled.");
    case SQLITE_CANTOPEN:
      return MakeError(ErrorKind::kBadInput, fmt::format("cannot open '{}' with SQLite while {}.", path, detail));
    case SQLITE_AUTH:
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("refused: {}.", detail));
    case SQLITE_ERROR:
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("SQL error on '{}' while {}.", path, detail));
    default:
      return MakeError(ErrorKind::kInternal,
                       fmt::format("SQLite error {} ({}) on '{}' while {}.", rc, sqlite3_errstr(rc), path, detail));
  }
}

std::string QuoteIdent(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace nsys::engine::sql
