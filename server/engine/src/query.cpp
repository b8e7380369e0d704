// Profile::Query: one read-only statement for user skills, on its own query_only connection. Refused before
// it runs unless it is a single SELECT / WITH / EXPLAIN that SQLite itself calls read-only; an authorizer
// denies ATTACH, writes and every PRAGMA but a few schema introspection ones, even inside a SELECT.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

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

int Authorize(void*, int action, const char* arg1, const char* arg2, const char* db, const char*) {
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
      return arg2 && std::strcmp(arg2, "load_extension") == 0 ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_UPDATE:
      // SQLite checks this on sqlite_master itself when it connects an eponymous virtual table (a pragma
      // function); a real write cannot happen on this read-only, query_only connection.
      return arg1 && std::strcmp(arg1, "sqlite_master") == 0 && db && std::strcmp(db, "main") == 0 ? SQLITE_OK
                                                                                                   : SQLITE_DENY;
    default:  // ATTACH, DETACH, INSERT, DELETE, CREATE, DROP, ALTER, transactions, ...
      return SQLITE_DENY;
  }
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

}  // namespace

Expected<SqlResult> ProfileImpl::Query(const std::string& sql, const CancelToken& cancel, int64_t max_rows) const {
  return RunQuery(sql, nullptr, cancel, max_rows);
}

Expected<SqlResult> ProfileImpl::Query(const std::string& sql, const SqlParams& params, const CancelToken& cancel,
                                       int64_t max_rows) const {
  return RunQuery(sql, &params, cancel, max_rows);
}

Expected<SqlResult> ProfileImpl::RunQuery(const std::string& sql, const SqlParams* params, const CancelToken& cancel,
                                          int64_t max_rows) const {
  const std::string keyword = FirstKeyword(sql);
  if (keyword != "SELECT" && keyword != "WITH" && keyword != "EXPLAIN")
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("Only read-only queries are allowed: a single SELECT, WITH or EXPLAIN statement{}.",
                                 keyword.empty() ? "" : fmt::format(" (this one starts with {})", keyword)));
  std::lock_guard<std::mutex> lock(query_mu_);
  if (!query_db_) {
    auto db = sql::Db::OpenReadOnly(db_path_);
    if (!db) return db.error();
    query_db_.emplace(std::move(*db));
    sqlite3_set_authorizer(query_db_->get(), &Authorize, nullptr);
  }
  sqlite3* db = query_db_->get();
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, &tail);
  sql::Stmt stmt(raw);
  if (rc != SQLITE_OK) {
    const std::string msg = sqlite3_errmsg(db);
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

  // Values are bound, never spliced into the text. ":name", "@name" and "$name" all look up "name"; a parameter
  // the map lacks (or a positional "?") stays NULL.
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

  SqlResult result;
  const int ncol = sqlite3_column_count(raw);
  for (int c = 0; c < ncol; ++c) {
    const char* name = sqlite3_column_name(raw, c);
    result.columns.emplace_back(name ? name : "");
  }
  query_db_->WatchCancel(&cancel, nullptr);
  int step;
  while ((step = stmt.Step()) == SQLITE_ROW) {
    if (static_cast<int64_t>(result.rows.size()) < max_rows) {
      std::vector<Value> row;
      row.reserve(static_cast<size_t>(ncol));
      for (int c = 0; c < ncol; ++c) row.push_back(CellValue(raw, c));
      result.rows.push_back(std::move(row));
    }
    ++result.total_rows;
  }
  query_db_->WatchCancel(nullptr, nullptr);
  if (step != SQLITE_DONE) {
    if ((step & 0xff) == SQLITE_INTERRUPT) return MakeError(ErrorKind::kCancelled, "The query was cancelled.");
    return sql::SqliteError(step, fmt::format("running the query: {}", sqlite3_errmsg(db)), db_path_);
  }
  return result;
}

}  // namespace nsys::engine
