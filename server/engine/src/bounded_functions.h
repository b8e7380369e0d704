#pragma once
// SQL functions of the user-query allow-list that SQLite implements with work beyond their output's size in ONE call,
// replaced on query connections by versions with SQLite's exact results whose work is bounded, so one call in a user's
// query cannot run far past its budget. A progress handler runs between virtual machine steps, so it cannot stop one
// long call; these can:
//   printf/format  '%.*c' repeats a character `precision` times even when the result is past the length limit (2e9
//                  repeats: 3 s, then NULL). A precision that would pass the limit is refused before any work with
//                  SQLITE_TOOBIG (the 16 MiB value error), and so is any result SQLite's own printf drops as too big
//                  (it answers NULL for those); otherwise SQLite's printf computes the result (on a private in-memory
//                  connection, so the output is SQLite's to the byte).
//   instr, replace naive search: a 2 MB haystack and a 1 MB needle take 29 s. Here glibc's memmem (two-way, linear).
//   trim/ltrim/rtrim(X, Y)  every character of X against every character of Y: 100 KB each, 15 s. Same loop here,
//                  checking the budget as it goes.
//   like, glob     patternCompare is text x pattern (1 MB against 1 KB: 1.1 s). Here the same matcher
//                  (sqlite3_strlike / sqlite3_strglob), refused with a limit error when the text's bytes times the
//                  pattern's bytes after its first '%' or '*' pass kMaxMatchWork.
// Every one of them checks the query's cancellation and deadline before it works (QueryGuard::Stop) and interrupts
// the statement when they have passed.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>

#include "nsys/support/expected.h"

namespace nsys::engine {

// What the functions ask of the connection they run on.
class QueryGuard {
 public:
  virtual ~QueryGuard() = default;
  // True once the query is cancelled or past its deadline; the function then interrupts the statement.
  virtual bool Stop() = 0;
  // A function refused its arguments by a limit: the query fails with kLimitExceeded and this message.
  virtual void RefuseByLimit(std::string message) = 0;
};

// LIKE/GLOB: text bytes x pattern bytes after the first matchAll wildcard, at most (~0.15 s of SQLite's matcher).
inline constexpr int64_t kMaxMatchWork = int64_t{1} << 27;

class BoundedFunctions {
 public:
  BoundedFunctions(QueryGuard& guard, int max_value_bytes);
  ~BoundedFunctions();
  BoundedFunctions(const BoundedFunctions&) = delete;
  BoundedFunctions& operator=(const BoundedFunctions&) = delete;

  // Registers the bounded versions on `db` (they shadow the built-in ones of the same names and arities).
  Status Install(sqlite3* db);

  // For the functions (sqlite3_user_data): state shared by every call on this connection.
  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace nsys::engine
