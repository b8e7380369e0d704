#pragma once
// A copy of a real export, edited by SQL statements at test time (another name for the same event, a hostile nesting),
// in a fresh 0700 folder removed with the object. The fixtures themselves are never written, and no copy is committed.
#include <fmt/format.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "fixtures.h"

namespace nsys::testing {

// A copy of a fixture in a fresh 0700 folder, edited by SQL statements, removed with the object.
class DerivedExport {
 public:
  DerivedExport(const std::string& fixture, const std::vector<std::string>& edits) {
    std::string pattern = (std::filesystem::temp_directory_path() / "nsys-ai-derived-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) return;
    dir_ = pattern;
    path_ = (std::filesystem::path(dir_) / std::filesystem::path(fixture).filename()).string();
    std::error_code ec;
    std::filesystem::copy_file(Fixture(fixture), path_, ec);
    if (ec) return;
    sqlite3* db = nullptr;
    if (sqlite3_open(path_.c_str(), &db) != SQLITE_OK) {
      sqlite3_close(db);
      return;
    }
    ok_ = true;
    for (const std::string& sql : edits) {
      char* err = nullptr;
      if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK || sqlite3_changes(db) == 0) {
        error_ = fmt::format("{}: {}", sql, err ? err : "changed no row");
        ok_ = false;
      }
      sqlite3_free(err);
    }
    sqlite3_close(db);
  }
  ~DerivedExport() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_, error_;
  bool ok_ = false;
};

}  // namespace nsys::testing
