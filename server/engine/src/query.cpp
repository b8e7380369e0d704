// Profile::Query: one read-only statement for user skills, on a pooled, hardened query_only connection (see
// query_pool.h). Refused before it runs unless it is a single SELECT / WITH / EXPLAIN that SQLite itself calls
// read-only; an authorizer denies ATTACH, writes, every PRAGMA but a few schema introspection ones, and every function
// outside an allow-list, even inside a SELECT. Each query may be given a time budget and a result size in bytes.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "profile_impl.h"

namespace nsys::engine {
namespace {

// Skips whitespace and SQL comments.
size_t SkipSpace(std::string_view s, size_t i) {
  while (i < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (s.compare(i, 2, "--") == 0) {
      const size_t nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl + 1;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      break;
    }
  }
  return i;
}

std::string FirstKeyword(std::string_view s) {
  size_t i = SkipSpace(s, 0);
  std::string word;
  while (i < s.size() && (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_'))
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(s[i++])));
  return word;
}

bool OnlySpaceOrSemicolons(std::string_view s) {
  size_t i = 0;
  while ((i = SkipSpace(s, i)) < s.size()) {
    if (s[i] != ';') return false;
    ++i;
  }
  return true;
}

bool IsIntrospectionPragma(const char* name) {
  static const char* const kReadOnly[] = {"table_info",  "table_xinfo",    "table_list",       "index_list",
                                          "index_info",  "index_xinfo",    "foreign_key_list", "function_list",
                                          "pragma_list", "collation_list", "module_list"};
  for (const char* p : kReadOnly)
    if (name && std::strcmp(name, p) == 0) return true;
  return false;
}

// The functions an analysis query may call: SQLite's core scalar functions (less those that read connection state,
// load code or make big blobs), aggregates, window functions, date/time, math and the JSON readers and builders.
// Everything else is refused by name: fts3_tokenizer (a pointer primitive), load_extension, the FTS/R-tree
// auxiliaries, sqlite_compileoption_*, randomblob/zeroblob, and whatever a later SQLite adds until it is listed here.
bool IsAllowedFunction(std::string_view name) {
  static const std::set<std::string, std::less<>> kAllowed = {
      // core scalar
      "abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull", "iif", "instr", "length",
      "like", "likelihood", "likely", "lower", "ltrim", "max", "min", "nullif", "octet_length", "printf", "quote",
      "random", "replace", "round", "rtrim", "sign", "soundex", "substr", "substring", "trim", "typeof", "unhex",
      "unicode", "unlikely", "upper",
      // aggregate
      "avg", "count", "group_concat", "string_agg", "sum", "total",
      // window
      "cume_dist", "dense_rank", "first_value", "lag", "last_value", "lead", "nth_value", "ntile", "percent_rank",
      "rank", "row_number",
      // date and time
      "current_date", "current_time", "current_timestamp", "date", "datetime", "julianday", "strftime", "time",
      "timediff", "unixepoch",
      // math (SQLITE_ENABLE_MATH_FUNCTIONS; absent ones fail as "no such function" before the authorizer)
      "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees", "exp",
      "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan",
      "tanh", "trunc",
      // JSON: reading and building values (json_each/json_tree are table-valued and go through SQLITE_READ)
      "->", "->>", "json", "json_array", "json_array_length", "json_extract", "json_group_array", "json_group_object",
      "json_object", "json_quote", "json_type", "json_valid"};
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return kAllowed.count(lower) > 0;
}

Value CellValue(sqlite3_stmt* st, int col) {
  switch (sqlite3_column_type(st, col)) {
    case SQLITE_INTEGER:
      return Value(static_cast<int64_t>(sqlite3_column_int64(st, col)));
    case SQLITE_FLOAT:
      return Value(sqlite3_column_double(st, col));
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, col));
      return Value(std::string(p, static_cast<size_t>(sqlite3_column_bytes(st, col))));
    }
    case SQLITE_BLOB:
      return Value(fmt::format("<blob, {} bytes>", sqlite3_column_bytes(st, col)));
    default:
      return Value();
  }
}

// The memory a returned row takes: its vector, one Value per cell and the heap bytes of long strings.
size_t RowBytes(const std::vector<Value>& row) {
  size_t bytes = sizeof(row) + row.capacity() * sizeof(Value);
  for (const Value& v : row) {
    if (const auto* s = std::get_if<std::string>(&v); s && s->capacity() > std::string().capacity())
      bytes += s->capacity() + 1;
  }
  return bytes;
}

std::string DescribeBytes(size_t bytes) {
  if (bytes >= (size_t{1} << 20) && bytes % (size_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

Status CheckStatementKind(const std::string& sql) {
  const std::string keyword = FirstKeyword(sql);
  if (keyword == "SELECT" || keyword == "WITH" || keyword == "EXPLAIN") return {};
  return MakeError(ErrorKind::kInvalidArgument,
                   fmt::format("Only read-only queries are allowed: a single SELECT, WITH or EXPLAIN statement{}.",
                               keyword.empty() ? "" : fmt::format(" (this one starts with {})", keyword)));
}

Expected<sql::Stmt> PrepareReadOnly(QueryConnection& conn, const std::string& sql) {
  sqlite3* db = conn.db().get();
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  conn.ClearRefusal();
  const int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, &tail);
  sql::Stmt stmt(raw);
  if (rc != SQLITE_OK) {
    const std::string msg = sqlite3_errmsg(db);
    if (!conn.refusal().empty())
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("The query was refused: {}.", conn.refusal()));
    if ((rc & 0xff) == SQLITE_AUTH || msg.find("not authorized") != std::string::npos)
      return MakeError(
          ErrorKind::kInvalidArgument,
          fmt::format("The query was refused: it would write, attach a database or set a PRAGMA ({}).", msg));
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("The query is not valid SQL for this export: {}.", msg));
  }
  if (!raw) return MakeError(ErrorKind::kInvalidArgument, "The query is empty.");
  if (tail && !OnlySpaceOrSemicolons(tail))
    return MakeError(ErrorKind::kInvalidArgument, "Only one statement per query is allowed.");
  if (!sqlite3_stmt_readonly(raw))
    return MakeError(ErrorKind::kInvalidArgument, "Only read-only queries are allowed: this statement would write.");
  return stmt;
}

// Values are bound, never spliced into the text. ":name", "@name" and "$name" all look up "name"; a parameter the
// map lacks (or a positional "?") stays NULL.
void BindParams(sqlite3_stmt* raw, const Profile::SqlParams* params) {
  const int nparams = sqlite3_bind_parameter_count(raw);
  for (int i = 1; i <= nparams; ++i) {
    const char* name = sqlite3_bind_parameter_name(raw, i);
    if (!params || !name || name[0] == '?') continue;
    auto it = params->find(name + 1);
    if (it == params->end()) continue;
    const Value& v = it->second;
    if (const auto* b = std::get_if<bool>(&v)) {
      sqlite3_bind_int64(raw, i, *b ? 1 : 0);
    } else if (const auto* n = std::get_if<int64_t>(&v)) {
      sqlite3_bind_int64(raw, i, *n);
    } else if (const auto* d = std::get_if<double>(&v)) {
      sqlite3_bind_double(raw, i, *d);
    } else if (const auto* t = std::get_if<std::string>(&v)) {
      sqlite3_bind_text(raw, i, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
    }
  }
}

Error ResultTooLarge(size_t limit) {
  return MakeError(ErrorKind::kLimitExceeded,
                   fmt::format("The query stopped: its result passed {} (the result size limit). Return fewer or "
                               "narrower rows (LIMIT, max_rows, aggregates).",
                               DescribeBytes(limit)));
}

constexpr int kResultTooLarge = -1;

// Steps the statement to its end, keeping the first max_rows rows and counting the rest. Returns SQLITE_DONE,
// SQLite's error code, or kResultTooLarge once the kept rows pass max_result_bytes.
int Collect(sql::Stmt& stmt, const QueryLimits& limits, SqlResult& result) {
  sqlite3_stmt* raw = stmt.get();
  const int ncol = sqlite3_column_count(raw);
  for (int c = 0; c < ncol; ++c) {
    const char* name = sqlite3_column_name(raw, c);
    result.columns.emplace_back(name ? name : "");
  }
  int step;
  while ((step = stmt.Step()) == SQLITE_ROW) {
    if (static_cast<int64_t>(result.rows.size()) < limits.max_rows) {
      std::vector<Value> row;
      row.reserve(static_cast<size_t>(ncol));
      for (int c = 0; c < ncol; ++c) row.push_back(CellValue(raw, c));
      result.bytes += RowBytes(row);
      if (result.bytes > limits.max_result_bytes) return kResultTooLarge;
      result.rows.push_back(std::move(row));
    }
    ++result.total_rows;
  }
  return step;
}

}  // namespace

std::string DescribeDuration(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms >= 120000 && ms % 60000 == 0) return fmt::format("{} min", ms / 60000);
  if (ms % 1000 == 0) return fmt::format("{} s", ms / 1000);
  return fmt::format("{:g} s", static_cast<double>(ms) / 1000.0);
}

// ---- QueryConnection and QueryPool ----

Expected<std::unique_ptr<QueryConnection>> QueryConnection::Open(const std::string& path) {
  auto db = sql::Db::OpenReadOnly(path);
  if (!db) return db.error();
  auto conn = std::make_unique<QueryConnection>();
  conn->db_ = std::move(*db);
  sqlite3* handle = conn->db_.get();
  sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
  sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_set_authorizer(handle, &QueryConnection::Authorize, conn.get());
  conn->bounded_ = std::make_unique<BoundedFunctions>(*conn, kMaxValueBytes);
  if (Status installed = conn->bounded_->Install(handle); !installed.ok()) return installed.error();
  return conn;
}

int QueryConnection::Authorize(void* self, int action, const char* arg1, const char* arg2, const char* db,
                               const char*) {
  auto* conn = static_cast<QueryConnection*>(self);
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_READ:
      // Table-valued pragma functions read a virtual table "pragma_<name>": only schema introspection ones.
      if (arg1 && std::strncmp(arg1, "pragma_", 7) == 0)
        return IsIntrospectionPragma(arg1 + 7) ? SQLITE_OK : SQLITE_DENY;
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      // ... and run it as an internal PRAGMA statement while stepping. Top-level PRAGMAs never get here.
      return IsIntrospectionPragma(arg1) ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_FUNCTION:
      if (arg2 && IsAllowedFunction(arg2)) return SQLITE_OK;
      conn->refusal_ = fmt::format(
          "it calls {}(), which is not among the functions user queries may call (core scalar, aggregate, window, "
          "date/time, math and JSON functions)",
          arg2 ? arg2 : "a function");
      return SQLITE_DENY;
    case SQLITE_UPDATE:
      // SQLite checks this on sqlite_master itself when it connects an eponymous virtual table (a pragma
      // function); a real write cannot happen on this read-only, query_only connection.
      return arg1 && std::strcmp(arg1, "sqlite_master") == 0 && db && std::strcmp(db, "main") == 0 ? SQLITE_OK
                                                                                                   : SQLITE_DENY;
    default:  // ATTACH, DETACH, INSERT, DELETE, CREATE, DROP, ALTER, transactions, ...
      return SQLITE_DENY;
  }
}

QueryPool::Lease::~Lease() {
  if (conn_) pool_->Release(std::move(conn_));
}

void QueryPool::Release(std::unique_ptr<QueryConnection> conn) {
  {
    std::lock_guard lock(mu_);
    if (conn) {
      idle_.push_back(std::move(conn));
    } else {
      --open_;  // a slot reserved for a connection that failed to open
    }
  }
  cv_.notify_one();
}

Expected<QueryPool::Lease> QueryPool::Acquire(const std::string& path, const CancelToken& cancel) {
  std::unique_lock lock(mu_);
  for (;;) {
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(conn));
    }
    if (open_ < kMaxConnections) break;
    if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The query was cancelled.");
    // Woken when a connection comes back; the timeout only re-checks `cancel`.
    cv_.wait_for(lock, std::chrono::milliseconds(50));
  }
  ++open_;  // reserve the slot, then open outside the lock
  lock.unlock();
  auto conn = QueryConnection::Open(path);
  if (!conn) {
    Release(nullptr);
    return conn.error();
  }
  return Lease(this, std::move(*conn));
}

// ---- ProfileImpl::Query ----

Expected<SqlResult> ProfileImpl::Query(const std::string& sql, const CancelToken& cancel,
                                       const QueryLimits& limits) const {
  return RunQuery(sql, nullptr, cancel, limits);
}

Expected<SqlResult> ProfileImpl::Query(const std::string& sql, const SqlParams& params, const CancelToken& cancel,
                                       const QueryLimits& limits) const {
  return RunQuery(sql, &params, cancel, limits);
}

Expected<SqlResult> ProfileImpl::RunQuery(const std::string& sql, const SqlParams* params, const CancelToken& cancel,
                                          const QueryLimits& limits) const {
  if (Status kind = CheckStatementKind(sql); !kind.ok()) return kind.error();
  auto conn = query_pool_.Acquire(db_path_, cancel);
  if (!conn) return conn.error();
  sql::Db& db = (*conn)->db();
  auto stmt = PrepareReadOnly(**conn, sql);
  if (!stmt) return stmt.error();
  BindParams(stmt->get(), params);

  std::optional<sql::Db::Clock::time_point> deadline;
  if (limits.time_budget.count() > 0) deadline = sql::Db::Clock::now() + limits.time_budget;
  db.WatchCancel(&cancel, nullptr, deadline, QueryConnection::kStepsPerCheck);
  (*conn)->RefuseByLimit({});
  SqlResult result;
  const int step = Collect(*stmt, limits, result);
  const bool timed_out = db.deadline_passed();
  db.WatchCancel(nullptr, nullptr);
  if (step == SQLITE_DONE) return result;
  if (step == kResultTooLarge) return ResultTooLarge(limits.max_result_bytes);
  if (!(*conn)->limit_refusal().empty())
    return MakeError(ErrorKind::kLimitExceeded, fmt::format("The query stopped: {}.", (*conn)->limit_refusal()));
  if ((step & 0xff) == SQLITE_INTERRUPT) {
    if (!timed_out) return MakeError(ErrorKind::kCancelled, "The query was cancelled.");
    return MakeError(
        ErrorKind::kLimitExceeded,
        fmt::format("The query stopped after {} (its time budget{}).", DescribeDuration(limits.time_budget),
                    limits.time_budget_hint.empty() ? "" : "; " + limits.time_budget_hint));
  }
  if ((step & 0xff) == SQLITE_TOOBIG)
    return MakeError(ErrorKind::kLimitExceeded,
                     fmt::format("The query stopped: a value passed {} (the limit on one value's size).",
                                 DescribeBytes(QueryConnection::kMaxValueBytes)));
  return sql::SqliteError(step, fmt::format("running the query: {}", sqlite3_errmsg(db.get())), db_path_);
}

}  // namespace nsys::engine
