#pragma once
// Independent expectations for the analysis-skill tests: read-only SQL on the fixture (never the engine), and a
// plain interval union written here, so a test compares the skill against a second implementation.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"

namespace nsys::testing {

class FixtureSql {
 public:
  explicit FixtureSql(const std::string& fixture_name) {
    const std::string uri = "file:" + Fixture(fixture_name) + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << fixture_name;
    }
  }
  ~FixtureSql() { sqlite3_close(db_); }
  FixtureSql(const FixtureSql&) = delete;
  FixtureSql& operator=(const FixtureSql&) = delete;

  void Each(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row) const {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "test SQL failed: " << sqlite3_errmsg(db_) << "\n" << sql;
      return;
    }
    while (sqlite3_step(st) == SQLITE_ROW) row(st);
    sqlite3_finalize(st);
  }
  int64_t Int(const std::string& sql) const {
    int64_t v = 0;
    Each(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
  }
  std::string Text(const std::string& sql) const {
    std::string v;
    Each(sql, [&](sqlite3_stmt* st) {
      const unsigned char* text = sqlite3_column_text(st, 0);
      v = text ? reinterpret_cast<const char*>(text) : "";
    });
    return v;
  }
  // Rows of (start, end) as returned by `sql` (two integer columns).
  std::vector<std::pair<int64_t, int64_t>> Intervals(const std::string& sql) const {
    std::vector<std::pair<int64_t, int64_t>> v;
    Each(sql, [&](sqlite3_stmt* st) { v.emplace_back(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)); });
    return v;
  }
  // The third column of each row (a GPU's deviceId), or -1 for a row without one: the timeline each interval is on.
  std::vector<int64_t> ThirdColumn(const std::string& sql) const {
    std::vector<int64_t> v;
    Each(sql, [&](sqlite3_stmt* st) {
      v.push_back(
          sqlite3_column_count(st) > 2 && sqlite3_column_type(st, 2) != SQLITE_NULL ? sqlite3_column_int64(st, 2) : -1);
    });
    return v;
  }

 private:
  sqlite3* db_ = nullptr;
};

// |∪ intervals|, straightforwardly: sort, sweep.
inline int64_t UnionLengthOf(std::vector<std::pair<int64_t, int64_t>> v) {
  std::sort(v.begin(), v.end());
  int64_t total = 0, cur_start = 0, cur_end = INT64_MIN;
  for (const auto& [s, e] : v) {
    if (e <= s) continue;
    if (s > cur_end) {
      if (cur_end != INT64_MIN) total += cur_end - cur_start;
      cur_start = s;
      cur_end = e;
    } else {
      cur_end = std::max(cur_end, e);
    }
  }
  if (cur_end != INT64_MIN) total += cur_end - cur_start;
  return total;
}

}  // namespace nsys::testing
