// The bounded versions of printf/format, instr, replace, trim/ltrim/rtrim(X, Y), like and glob (see the header).
// Each follows SQLite 3.40's own function step for step (argument conversions, NULLs, errors), so results are
// SQLite's; what changes is the work: searches are linear, and loops that stay long check the query's budget.
#include "bounded_functions.h"

#include <fmt/format.h>
#include <string.h>

#include <map>
#include <string_view>
#include <vector>

namespace nsys::engine {

struct BoundedFunctions::State {
  QueryGuard& guard;
  int max_value_bytes;
  // A private in-memory connection where SQLite's own printf (and LIKE with '%' or '_' as its ESCAPE) computes the
  // result once the arguments are known to be cheap. Opened on first use.
  sqlite3* side = nullptr;
  std::map<std::string, sqlite3_stmt*> side_statements;  // by SQL text
  std::vector<sqlite3_stmt*> printf_plain;               // by argument count, owned by side_statements
  std::vector<sqlite3_stmt*> printf_prefixed;

  ~State() {
    for (auto& entry : side_statements) sqlite3_finalize(entry.second);
    sqlite3_close_v2(side);
  }

  sqlite3_stmt* SideStatement(const std::string& sql) {
    if (auto it = side_statements.find(sql); it != side_statements.end()) return it->second;
    if (!side) {
      if (sqlite3_open_v2(":memory:", &side, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX,
                          nullptr) != SQLITE_OK) {
        sqlite3_close_v2(side);
        side = nullptr;
        return nullptr;
      }
      // The query's own limit, so that SQLite's printf drops the same results as too big (output > limit - 1).
      sqlite3_limit(side, SQLITE_LIMIT_LENGTH, max_value_bytes);
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(side, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return nullptr;
    }
    side_statements.emplace(sql, stmt);
    return stmt;
  }
};

namespace {

using BoundedState = BoundedFunctions::State;

BoundedState& BoundedStateOf(sqlite3_context* ctx) {
  return *static_cast<BoundedState*>(sqlite3_user_data(ctx));
}

// Past the query's deadline or cancelled: interrupt the statement instead of working.
bool BoundedInterrupted(sqlite3_context* ctx) {
  if (!BoundedStateOf(ctx).guard.Stop()) return false;
  sqlite3_interrupt(sqlite3_context_db_handle(ctx));
  sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  return true;
}

// How often a long loop asks the guard (byte comparisons between checks).
constexpr int64_t kBoundedCheckEvery = int64_t{1} << 20;

// ---- printf / format ----

// sqlite3_value_int64 of argument `i`, or 0 past the last one, as SQLite's printf reads its '*' and integer args.
int64_t PrintfIntArg(int argc, sqlite3_value** argv, int i) {
  return i < argc ? sqlite3_value_int64(argv[i]) : 0;
}

// One conversion of a format as SQLite's printf reads it: flags, width and precision with their '*' arguments taken.
struct PrintfSpec {
  std::string flags;
  int64_t width = 0;
  int64_t precision = -1;  // none
  char conversion = 0;     // 0: the format ended inside the spec
};

// Reads the spec after a '%' at *f (SQLite 3.40's loop: flags, width or '*', '.' and precision or '*', 'l', 'll'),
// leaving f on the conversion character and `next` on the first argument not yet taken.
// Long: SQLite's own parsing loop, case for case, so that every '*' takes the argument SQLite's takes.
PrintfSpec ReadPrintfSpec(const char*& f, int argc, sqlite3_value** argv, int& next) {
  PrintfSpec spec;
  char c = *++f;
  if (c == 0) return spec;
  bool done = false;
  do {
    switch (c) {
      case '-':
      case '+':
      case ' ':
      case '#':
      case '!':
      case '0':
      case ',':
        spec.flags += c;
        break;
      case 'l':
        c = *++f;
        if (c == 'l') c = *++f;
        done = true;
        break;
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9': {
        unsigned wx = static_cast<unsigned>(c - '0');
        while ((c = *++f) >= '0' && c <= '9') wx = wx * 10 + static_cast<unsigned>(c - '0');
        spec.width = wx & 0x7fffffff;
        if (c != '.' && c != 'l') {
          done = true;
        } else {
          --f;
        }
        break;
      }
      case '*': {
        const int w = static_cast<int>(static_cast<uint32_t>(PrintfIntArg(argc, argv, next++)));
        if (w < 0) {
          spec.flags += '-';
          spec.width = w >= -2147483647 ? -static_cast<int64_t>(w) : 0;
        } else {
          spec.width = w;
        }
        if ((c = f[1]) != '.' && c != 'l') {
          c = *++f;
          done = true;
        }
        break;
      }
      case '.': {
        c = *++f;
        if (c == '*') {
          const int p = static_cast<int>(static_cast<uint32_t>(PrintfIntArg(argc, argv, next++)));
          spec.precision = p >= 0 ? p : (p >= -2147483647 ? -static_cast<int64_t>(p) : -1);
          c = *++f;
        } else {
          unsigned px = 0;
          while (c >= '0' && c <= '9') {
            px = px * 10 + static_cast<unsigned>(c - '0');
            c = *++f;
          }
          spec.precision = px & 0x7fffffff;
        }
        if (c == 'l') {
          --f;
        } else {
          done = true;
        }
        break;
      }
      default:
        done = true;
        break;
    }
  } while (!done && (c = *++f) != 0);
  spec.conversion = c;
  return spec;
}

// The bytes the format's %c conversions must write, at the least: a precision repeats the character that many
// times (each at least one byte, NUL for a NULL argument). The format is read as SQLite's printf reads it
// (ReadPrintfSpec), so the precisions are its own.
int64_t PrintfRepeatedBytes(const char* format, int argc, sqlite3_value** argv) {
  int next = 1;  // argv[0] is the format
  int64_t total = 0;
  for (const char* f = format; *f; ++f) {
    if (*f != '%') continue;
    const PrintfSpec spec = ReadPrintfSpec(f, argc, argv, next);
    switch (spec.conversion) {
      case '%':
      case 'n':
        break;
      case 'c':
        if (spec.precision > 1) total += spec.precision;
        ++next;
        break;
      case 'd':
      case 's':
      case 'g':
      case 'z':
      case 'q':
      case 'Q':
      case 'w':
      case 'o':
      case 'u':
      case 'x':
      case 'X':
      case 'f':
      case 'e':
      case 'E':
      case 'G':
      case 'i':
      case 'p':
      case 'r':
        ++next;
        break;
      default:  // the end of the format, %T, %S and unknown conversions end SQLite's formatting
        return total;
    }
  }
  return total;
}

// Runs `stmt` (one result column, prepared on the side connection) with `argv` bound as ?1..?argc and hands the
// row to `take`; on failure the call fails with the side connection's error.
template <typename Take>
void RunOnSide(BoundedState& state, sqlite3_stmt* stmt, int argc, sqlite3_value** argv, sqlite3_context* ctx,
               Take take) {
  if (!stmt) {
    sqlite3_result_error(ctx, "internal error: the bounded function's helper connection failed", -1);
    return;
  }
  for (int i = 0; i < argc; ++i) sqlite3_bind_value(stmt, i + 1, argv[i]);
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    take(stmt);
  } else {
    sqlite3_result_error(ctx, sqlite3_errmsg(state.side), -1);
    sqlite3_result_error_code(ctx, sqlite3_errcode(state.side));
  }
  sqlite3_reset(stmt);
}

// "SELECT printf(?1, ?2, ...)" for `argc` arguments, with 'x' written first when `prefixed`; prepared once.
sqlite3_stmt* PrintfStatement(BoundedState& state, int argc, bool prefixed) {
  auto& cache = prefixed ? state.printf_prefixed : state.printf_plain;
  if (static_cast<size_t>(argc) < cache.size() && cache[static_cast<size_t>(argc)]) return cache[argc];
  std::string sql = prefixed ? "SELECT printf('x' || ?1" : "SELECT printf(?1";
  for (int i = 2; i <= argc; ++i) sql += fmt::format(", ?{}", i);
  sqlite3_stmt* stmt = state.SideStatement(sql + ")");
  if (cache.size() <= static_cast<size_t>(argc)) cache.resize(static_cast<size_t>(argc) + 1, nullptr);
  cache[static_cast<size_t>(argc)] = stmt;
  return stmt;
}

// SQLite's printf through its C interface, one conversion at a time: the same formatter, with the SQL function's
// argument reading (every integer as int64, text for strings, past the last argument 0 / NULL). False, with nothing
// set, when a conversion reads its argument differently in C (%c %z %n %p, and %T %S or unknown ones that end the
// format) or the output is empty (SQLite answers NULL or '' there): the caller asks SQLite's own.
bool PrintfDirect(sqlite3_context* ctx, const char* format, int argc, sqlite3_value** argv) {
  sqlite3_str* out = sqlite3_str_new(sqlite3_context_db_handle(ctx));
  int next = 1;
  for (const char* f = format; *f; ++f) {
    if (*f != '%') {
      const char* start = f;
      while (f[1] && f[1] != '%') ++f;
      sqlite3_str_append(out, start, static_cast<int>(f - start + 1));
      continue;
    }
    const PrintfSpec spec = ReadPrintfSpec(f, argc, argv, next);
    if (spec.conversion == 0) {  // a '%' that ends the format is written as is
      sqlite3_str_append(out, "%", 1);
      break;
    }
    std::string c_format = "%" + spec.flags;
    if (spec.width > 0) c_format += std::to_string(spec.width);
    if (spec.precision >= 0) c_format += "." + std::to_string(spec.precision);
    const char conv = spec.conversion;
    switch (conv) {
      case '%':
        sqlite3_str_appendf(out, (c_format + "%").c_str());
        break;
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o':
      case 'r':
        sqlite3_str_appendf(out, (c_format + "ll" + conv).c_str(),
                            static_cast<long long>(PrintfIntArg(argc, argv, next++)));
        break;
      case 'f':
      case 'e':
      case 'E':
      case 'g':
      case 'G': {
        const double v = next < argc ? sqlite3_value_double(argv[next]) : 0.0;
        ++next;
        sqlite3_str_appendf(out, (c_format + conv).c_str(), v);
        break;
      }
      case 's':
      case 'q':
      case 'Q':
      case 'w': {
        const char* v = next < argc ? reinterpret_cast<const char*>(sqlite3_value_text(argv[next])) : nullptr;
        ++next;
        sqlite3_str_appendf(out, (c_format + conv).c_str(), v);
        break;
      }
      default:
        sqlite3_free(sqlite3_str_finish(out));
        return false;
    }
  }
  const int error = sqlite3_str_errcode(out);
  const int length = sqlite3_str_length(out);
  char* text = sqlite3_str_finish(out);
  if (error == SQLITE_TOOBIG) {
    sqlite3_result_error_toobig(ctx);
  } else if (error != SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
  } else if (length == 0 || !text) {
    sqlite3_free(text);
    return false;
  } else {
    sqlite3_result_text(ctx, text, length, sqlite3_free);
    return true;
  }
  sqlite3_free(text);
  return true;
}

void BoundedPrintf(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (BoundedInterrupted(ctx)) return;
  BoundedState& state = BoundedStateOf(ctx);
  if (argc < 1) return;  // NULL, as SQLite's
  const auto* format = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (!format) return;
  if (PrintfRepeatedBytes(format, argc, argv) > state.max_value_bytes) {
    sqlite3_result_error_toobig(ctx);
    return;
  }
  if (PrintfDirect(ctx, format, argc, argv)) return;
  bool null = false;
  RunOnSide(state, PrintfStatement(state, argc, false), argc, argv, ctx, [&](sqlite3_stmt* stmt) {
    null = sqlite3_column_type(stmt, 0) == SQLITE_NULL;
    if (!null) sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
  });
  if (!null) return;
  // SQLite's printf answers NULL both for an empty result and for one past the length limit. With one byte written
  // first, an empty result is 'x' and a too big one stays too big: NULL can only mean too big.
  RunOnSide(state, PrintfStatement(state, argc, true), argc, argv, ctx, [&](sqlite3_stmt* stmt) {
    if (sqlite3_column_type(stmt, 0) == SQLITE_NULL) sqlite3_result_error_toobig(ctx);
  });
}

// ---- instr, replace ----

// The first occurrence of needle in haystack at or after `from` (glibc's two-way search: linear), or npos.
// memmem is given a window that doubles while nothing is found, never the whole rest of the haystack: an
// implementation may read all it is given even when the match is near (AddressSanitizer's memmem checks the whole
// range on each call), and replace() calls this once per match, which made 8 Mi matches quadratic there (320 s for one
// replace of 8 MiB). The cost is now the distance to the next match plus the needle, whatever memmem does.
size_t FindBytes(std::string_view haystack, std::string_view needle, size_t from) {
  if (from > haystack.size() || needle.size() > haystack.size() - from) return std::string_view::npos;
  size_t window = 2 * needle.size() + 64;
  for (size_t start = from;;) {
    const size_t end = haystack.size() - start <= window ? haystack.size() : start + window;
    const void* at = memmem(haystack.data() + start, end - start, needle.data(), needle.size());
    if (at) return static_cast<size_t>(static_cast<const char*>(at) - haystack.data());
    if (end == haystack.size()) return std::string_view::npos;
    start = end - (needle.size() - 1);  // a match that crosses the window's end starts in the next window
    window = window > haystack.size() / 2 ? haystack.size() : 2 * window;
  }
}

bool IsContinuation(unsigned char c) {
  return (c & 0xc0) == 0x80;
}

void BoundedInstr(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (BoundedInterrupted(ctx)) return;
  const int type_haystack = sqlite3_value_type(argv[0]);
  const int type_needle = sqlite3_value_type(argv[1]);
  if (type_haystack == SQLITE_NULL || type_needle == SQLITE_NULL) return;
  int n_haystack = sqlite3_value_bytes(argv[0]);
  int n_needle = sqlite3_value_bytes(argv[1]);
  int64_t result = 1;
  if (n_needle > 0) {
    const unsigned char* haystack = nullptr;
    const unsigned char* needle = nullptr;
    sqlite3_value* copies[2] = {nullptr, nullptr};
    bool text = true;
    if (type_haystack == SQLITE_BLOB && type_needle == SQLITE_BLOB) {
      haystack = static_cast<const unsigned char*>(sqlite3_value_blob(argv[0]));
      needle = static_cast<const unsigned char*>(sqlite3_value_blob(argv[1]));
      text = false;
    } else if (type_haystack != SQLITE_BLOB && type_needle != SQLITE_BLOB) {
      haystack = sqlite3_value_text(argv[0]);
      needle = sqlite3_value_text(argv[1]);
    } else {
      copies[0] = sqlite3_value_dup(argv[0]);
      haystack = sqlite3_value_text(copies[0]);
      n_haystack = sqlite3_value_bytes(copies[0]);
      copies[1] = sqlite3_value_dup(argv[1]);
      needle = sqlite3_value_text(copies[1]);
      n_needle = sqlite3_value_bytes(copies[1]);
    }
    if (!needle || (n_haystack && !haystack)) {
      sqlite3_value_free(copies[0]);
      sqlite3_value_free(copies[1]);
      sqlite3_result_error_nomem(ctx);
      return;
    }
    // SQLite tries each character start (each byte of a blob) in turn; a match found by the search starts with the
    // needle's first byte, so it is a character start unless that byte is itself a continuation byte.
    const std::string_view hay(reinterpret_cast<const char*>(haystack), static_cast<size_t>(n_haystack));
    const std::string_view nee(reinterpret_cast<const char*>(needle), static_cast<size_t>(n_needle));
    size_t at = std::string_view::npos;
    if (text && IsContinuation(needle[0])) {
      if (hay.substr(0, nee.size()) == nee) at = 0;
    } else {
      at = FindBytes(hay, nee, 0);
    }
    if (at == std::string_view::npos) {
      result = 0;
    } else if (!text) {
      result = static_cast<int64_t>(at) + 1;
    } else {
      for (size_t i = 1; i <= at; ++i) result += IsContinuation(haystack[i]) ? 0 : 1;
    }
    sqlite3_value_free(copies[0]);
    sqlite3_value_free(copies[1]);
  }
  sqlite3_result_int64(ctx, result);
}

void BoundedReplace(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (BoundedInterrupted(ctx)) return;
  const unsigned char* str = sqlite3_value_text(argv[0]);
  if (!str) return;
  const int n_str = sqlite3_value_bytes(argv[0]);
  const unsigned char* pattern = sqlite3_value_text(argv[1]);
  if (!pattern) return;
  if (pattern[0] == 0) {
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  const int n_pattern = sqlite3_value_bytes(argv[1]);
  const unsigned char* rep = sqlite3_value_text(argv[2]);
  if (!rep) return;
  const int n_rep = sqlite3_value_bytes(argv[2]);
  const std::string_view hay(reinterpret_cast<const char*>(str), static_cast<size_t>(n_str));
  const std::string_view pat(reinterpret_cast<const char*>(pattern), static_cast<size_t>(n_pattern));
  // Leftmost, non-overlapping occurrences, as SQLite's scan finds them; the length is known before anything is built.
  int64_t count = 0;
  for (size_t at = FindBytes(hay, pat, 0); at != std::string_view::npos; at = FindBytes(hay, pat, at + pat.size()))
    ++count;
  const int64_t length = n_str + count * (static_cast<int64_t>(n_rep) - n_pattern);
  if (n_rep > n_pattern && length > BoundedStateOf(ctx).max_value_bytes) {
    sqlite3_result_error_toobig(ctx);
    return;
  }
  std::string out;
  out.reserve(static_cast<size_t>(length));
  size_t from = 0;
  for (size_t at = FindBytes(hay, pat, 0); at != std::string_view::npos; at = FindBytes(hay, pat, from)) {
    out.append(hay.substr(from, at - from));
    out.append(reinterpret_cast<const char*>(rep), static_cast<size_t>(n_rep));
    from = at + pat.size();
  }
  out.append(hay.substr(from));
  sqlite3_result_text64(ctx, out.data(), out.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

// ---- trim, ltrim, rtrim with a character set ----

// SQLITE_SKIP_UTF8: a lead byte (>= 0xc0) and the continuation bytes after it, or one byte.
const unsigned char* SkipUtf8(const unsigned char* z) {
  if (*(z++) >= 0xc0) {
    while (IsContinuation(*z)) ++z;
  }
  return z;
}

// SQLite's trimFunc step for step (both ends, the character set), plus budget checks inside its loops.
void BoundedTrim(sqlite3_context* ctx, int, sqlite3_value** argv, int flags) {
  if (BoundedInterrupted(ctx)) return;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  const unsigned char* in = sqlite3_value_text(argv[0]);
  if (!in) return;
  int n_in = sqlite3_value_bytes(argv[0]);
  const unsigned char* set = sqlite3_value_text(argv[1]);
  if (!set) return;
  std::vector<std::string_view> chars;
  for (const unsigned char* z = set; *z;) {
    const unsigned char* start = z;
    z = SkipUtf8(z);
    chars.emplace_back(reinterpret_cast<const char*>(start), static_cast<size_t>(z - start));
  }
  int64_t work = 0;
  auto stop = [&](size_t steps) {
    work += static_cast<int64_t>(steps);
    if (work < kBoundedCheckEvery) return false;
    work = 0;
    return BoundedInterrupted(ctx);
  };
  // The first character of the set (in its order) that `in` starts (front) or ends (back) with: its length, or 0.
  auto match = [&](bool front) -> size_t {
    for (const std::string_view& c : chars) {
      if (c.size() <= static_cast<size_t>(n_in) && memcmp(front ? in : in + n_in - c.size(), c.data(), c.size()) == 0)
        return c.size();
    }
    return 0;
  };
  if (!chars.empty()) {
    if (flags & 1) {
      while (n_in > 0) {
        if (stop(chars.size())) return;
        const size_t len = match(true);
        if (len == 0) break;
        in += len;
        n_in -= static_cast<int>(len);
      }
    }
    if (flags & 2) {
      while (n_in > 0) {
        if (stop(chars.size())) return;
        const size_t len = match(false);
        if (len == 0) break;
        n_in -= static_cast<int>(len);
      }
    }
  }
  sqlite3_result_text(ctx, reinterpret_cast<const char*>(in), n_in, SQLITE_TRANSIENT);
}

void BoundedLtrim(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  BoundedTrim(ctx, argc, argv, 1);
}
void BoundedRtrim(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  BoundedTrim(ctx, argc, argv, 2);
}
void BoundedTrimBoth(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  BoundedTrim(ctx, argc, argv, 3);
}

// ---- like, glob ----

// sqlite3Utf8CharLen(z, -1) == 1: one character up to the terminating NUL.
bool OneUtf8Char(const unsigned char* z) {
  return *z != 0 && *SkipUtf8(z) == 0;
}

// sqlite3Utf8Read: the code point of the character at z (U+FFFD for overlong and surrogate forms).
uint32_t ReadUtf8(const unsigned char* z) {
  static constexpr unsigned char kTrans1[] = {
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
      0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00, 0x01, 0x02, 0x03, 0x00, 0x01, 0x00, 0x00,
  };
  uint32_t c = *(z++);
  if (c >= 0xc0) {
    c = kTrans1[c - 0xc0];
    while (IsContinuation(*z)) c = (c << 6) + (0x3f & *(z++));
    if (c < 0x80 || (c & 0xFFFFF800) == 0xD800 || (c & 0xFFFFFFFE) == 0xFFFE) c = 0xFFFD;
  }
  return c;
}

// SQLite's likeFunc checks in its order (pattern length, ESCAPE, NULLs), then the work bound, then the match.
void BoundedMatch(sqlite3_context* ctx, int argc, sqlite3_value** argv, bool glob) {
  if (BoundedInterrupted(ctx)) return;
  BoundedState& state = BoundedStateOf(ctx);
  sqlite3* db = sqlite3_context_db_handle(ctx);
  // Debian's SQLite is built with LIKE_DOESNT_MATCH_BLOBS: a blob on either side matches nothing.
  static const bool kBlobsNeverMatch = sqlite3_compileoption_used("LIKE_DOESNT_MATCH_BLOBS") != 0;
  if (kBlobsNeverMatch && (sqlite3_value_type(argv[0]) == SQLITE_BLOB || sqlite3_value_type(argv[1]) == SQLITE_BLOB)) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  const unsigned char* pattern = sqlite3_value_text(argv[0]);
  const unsigned char* text = sqlite3_value_text(argv[1]);
  const int n_pattern = sqlite3_value_bytes(argv[0]);
  if (n_pattern > sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, -1)) {
    sqlite3_result_error(ctx, "LIKE or GLOB pattern too complex", -1);
    return;
  }
  uint32_t escape = 0;
  if (argc == 3) {
    const unsigned char* esc = sqlite3_value_text(argv[2]);
    if (!esc) return;
    if (!OneUtf8Char(esc)) {
      sqlite3_result_error(ctx, "ESCAPE expression must be a single character", -1);
      return;
    }
    escape = ReadUtf8(esc);
  } else if (glob) {
    escape = '[';
  }
  if (!text || !pattern) return;
  // patternCompare tries the rest of the pattern at each place a '%' (or '*') may end: text x what follows it.
  const char all = glob ? '*' : '%';
  const char* first_all = strchr(reinterpret_cast<const char*>(pattern), all);
  const int64_t tail = first_all ? n_pattern - (first_all - reinterpret_cast<const char*>(pattern)) - 1 : 0;
  const int64_t n_text = sqlite3_value_bytes(argv[1]);
  if (tail > 0 && n_text * tail > kMaxMatchWork) {
    const std::string message = fmt::format(
        "{} of a {}-byte value against a pattern with {} bytes after its first '{}' is refused: it would take over "
        "{} steps (the limit on one match)",
        glob ? "GLOB" : "LIKE", n_text, tail, all, kMaxMatchWork);
    state.guard.RefuseByLimit(message);
    sqlite3_result_error(ctx, message.c_str(), -1);
    return;
  }
  if (argc == 3 && (escape == '%' || escape == '_')) {
    // An ESCAPE that is also a wildcard turns that wildcard off: only SQLite's like() does that; it is cheap here.
    RunOnSide(state, state.SideStatement("SELECT like(?1, ?2, ?3)"), argc, argv, ctx,
              [&](sqlite3_stmt* stmt) { sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0)); });
    return;
  }
  const auto* p = reinterpret_cast<const char*>(pattern);
  const auto* t = reinterpret_cast<const char*>(text);
  sqlite3_result_int(ctx, (glob ? sqlite3_strglob(p, t) : sqlite3_strlike(p, t, escape)) == 0);
}

void BoundedLike(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  BoundedMatch(ctx, argc, argv, false);
}
void BoundedGlob(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  BoundedMatch(ctx, argc, argv, true);
}

}  // namespace

BoundedFunctions::BoundedFunctions(QueryGuard& guard, int max_value_bytes)
    : state_(std::make_unique<State>(State{guard, max_value_bytes})) {}

BoundedFunctions::~BoundedFunctions() = default;

Status BoundedFunctions::Install(sqlite3* db) {
  using Fn = void (*)(sqlite3_context*, int, sqlite3_value**);
  struct Def {
    const char* name;
    int args;
    Fn fn;
  };
  static constexpr Def kDefs[] = {
      {"printf", -1, BoundedPrintf},  {"format", -1, BoundedPrintf}, {"instr", 2, BoundedInstr},
      {"replace", 3, BoundedReplace}, {"trim", 2, BoundedTrimBoth},  {"ltrim", 2, BoundedLtrim},
      {"rtrim", 2, BoundedRtrim},     {"like", 2, BoundedLike},      {"like", 3, BoundedLike},
      {"glob", 2, BoundedGlob},
  };
  // Innocuous and deterministic, as SQLite's own: a profile's views may call them, and constants fold the same.
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  for (const Def& d : kDefs) {
    if (sqlite3_create_function_v2(db, d.name, d.args, flags, state_.get(), d.fn, nullptr, nullptr, nullptr) !=
        SQLITE_OK) {
      return MakeError(ErrorKind::kInternal,
                       fmt::format("SQLite refused the bounded {}(): {}", d.name, sqlite3_errmsg(db)));
    }
  }
  return {};
}

}  // namespace nsys::engine
