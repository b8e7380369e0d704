#pragma once
// Helpers for the engine tests: temp dirs, opening fixtures, and independent SQL on the fixtures (expected
// values come from SQLite, never from the engine under test).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "fixtures.h"
#include "nsys/engine/profile.h"

namespace nsys::testing {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "nsys-engine-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  std::string path() const { return path_; }
  std::string operator/(const std::string& name) const { return (fs::path(path_) / name).string(); }

 private:
  std::string path_;
};

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Options for tests: no background loading unless asked, and no cache unless a dir is given.
inline engine::OpenOptions TestOptions(const std::string& cache_dir = {}) {
  engine::OpenOptions o;
  o.use_cache = !cache_dir.empty();
  o.cache_dir = cache_dir;
  o.load_all_in_background = false;
  return o;
}

inline std::shared_ptr<engine::Profile> OpenOrDie(const std::string& path, const engine::OpenOptions& options) {
  auto p = engine::Profile::Open(path, options);
  if (!p) ADD_FAILURE() << "Open(" << path << ") failed: " << p.error().message;
  return p ? *p : nullptr;
}

// An independent read-only connection on a fixture.
class Sql {
 public:
  explicit Sql(const std::string& path) {
    sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  }
  ~Sql() { sqlite3_close(db_); }
  int64_t Int(const std::string& sql) const {
    int64_t v = 0;
    Each(sql, [&](sqlite3_stmt* s) { v = sqlite3_column_int64(s, 0); });
    return v;
  }
  void Each(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row) const {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "test SQL failed: " << sqlite3_errmsg(db_) << " in " << sql;
      return;
    }
    while (sqlite3_step(s) == SQLITE_ROW) row(s);
    sqlite3_finalize(s);
  }

 private:
  sqlite3* db_ = nullptr;
};

// Runs statements on a writable connection (a copy, never a fixture).
inline void Exec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "") << " in " << sql;
  sqlite3_free(error);
  sqlite3_close(db);
}

// A copy of `fixture` in `dir` (never the fixture itself), edited by `sql` (Exec); its path.
inline std::string EditedCopy(const TempDir& dir, const std::string& fixture, const std::string& sql) {
  const std::string copy = dir / fs::path(fixture).filename().string();
  std::error_code ec;
  fs::copy_file(Fixture(fixture), copy, ec);
  EXPECT_FALSE(ec) << "copying " << fixture << ": " << ec.message();
  Exec(copy, sql);
  return copy;
}

// Nsight declares start/end NOT NULL; a damaged file need not keep to it. Dropping the constraint from the schema
// text (the records are unchanged) lets the copy hold the NULLs such a file can.
inline void AllowNulls(const std::string& path) {
  Exec(path,
       "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') "
       "WHERE type = 'table';");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%NOT NULL%'", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 0) << "sqlite " << sqlite3_libversion();
  sqlite3_finalize(st);
  sqlite3_close(db);
}

// Names are compared as strings: string ids depend on the order loaders interned them.
inline void ExpectSameModel(const engine::Profile& a, const engine::Profile& b) {
  const engine::KernelTable &ka = a.kernels(), &kb = b.kernels();
  ASSERT_EQ(ka.size(), kb.size());
  for (size_t i = 0; i < ka.size(); ++i) {
    ASSERT_EQ(ka.start[i], kb.start[i]);
    ASSERT_EQ(ka.end[i], kb.end[i]);
    ASSERT_EQ(ka.device[i], kb.device[i]);
    ASSERT_EQ(ka.correlation_id[i], kb.correlation_id[i]);
    ASSERT_EQ(ka.launch[i], kb.launch[i]);
    const engine::KernelConfig &ca = ka.Config(i), &cb = kb.Config(i);
    ASSERT_EQ(std::tie(ca.grid_x, ca.grid_y, ca.grid_z, ca.block_x, ca.block_y, ca.block_z, ca.context),
              std::tie(cb.grid_x, cb.grid_y, cb.grid_z, cb.block_x, cb.block_y, cb.block_z, cb.context));
    ASSERT_EQ(std::tie(ca.registers_per_thread, ca.static_shared_memory, ca.dynamic_shared_memory),
              std::tie(cb.registers_per_thread, cb.static_shared_memory, cb.dynamic_shared_memory));
    ASSERT_EQ(a.strings().view(ca.mangled_name), b.strings().view(cb.mangled_name));
    ASSERT_EQ(a.strings().view(ka.name[i]), b.strings().view(kb.name[i]));
    ASSERT_EQ(a.strings().view(ka.short_name[i]), b.strings().view(kb.short_name[i]));
  }
  EXPECT_EQ(ka.max_duration, kb.max_duration);
  const engine::RuntimeTable &ra = a.runtime(), &rb = b.runtime();
  ASSERT_EQ(ra.size(), rb.size());
  for (size_t i = 0; i < ra.size(); ++i) {
    ASSERT_EQ(ra.start[i], rb.start[i]);
    ASSERT_EQ(ra.tid[i], rb.tid[i]);
    ASSERT_EQ(ra.nvtx[i], rb.nvtx[i]);
    ASSERT_EQ(a.strings().view(ra.name[i]), b.strings().view(rb.name[i]));
  }
  const engine::NvtxTable &na = a.nvtx(), &nb = b.nvtx();
  ASSERT_EQ(na.size(), nb.size());
  for (size_t i = 0; i < na.size(); ++i) {
    ASSERT_EQ(na.start[i], nb.start[i]);
    ASSERT_EQ(na.end[i], nb.end[i]);
    ASSERT_EQ(na.parent[i], nb.parent[i]);
    ASSERT_TRUE(na.Attributes(i) == nb.Attributes(i)) << "NVTX row " << i;
    ASSERT_EQ(a.NvtxFullName(static_cast<int32_t>(i)), b.NvtxFullName(static_cast<int32_t>(i)));
  }
  ASSERT_EQ(a.memcpys().size(), b.memcpys().size());
  for (size_t i = 0; i < a.memcpys().size(); ++i) {
    ASSERT_EQ(a.memcpys().bytes[i], b.memcpys().bytes[i]);
    ASSERT_EQ(a.memcpys().launch[i], b.memcpys().launch[i]);
    ASSERT_EQ(a.memcpys().src_kind[i], b.memcpys().src_kind[i]);
  }
  EXPECT_EQ(a.memsets().size(), b.memsets().size());
  EXPECT_EQ(a.syncs().size(), b.syncs().size());
  EXPECT_EQ(a.overhead().size(), b.overhead().size());
  EXPECT_EQ(a.nvtx_marks().size(), b.nvtx_marks().size());
  const engine::AttributionCoverage ca = a.coverage(), cb = b.coverage();
  EXPECT_EQ(ca.with_nvtx_time_ns, cb.with_nvtx_time_ns);
  EXPECT_EQ(ca.with_launch, cb.with_launch);
  EXPECT_EQ(a.info().start_ns, b.info().start_ns);
  EXPECT_EQ(a.info().end_ns, b.info().end_ns);
  EXPECT_EQ(a.info().devices.size(), b.info().devices.size());
  EXPECT_EQ(a.info().threads.size(), b.info().threads.size());
  EXPECT_EQ(a.info().tables.size(), b.info().tables.size());
  EXPECT_EQ(a.info().metadata, b.info().metadata);
  EXPECT_EQ(a.info().caps.nccl, b.info().caps.nccl);
}

}  // namespace nsys::testing
