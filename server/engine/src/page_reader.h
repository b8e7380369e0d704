#pragma once
// A direct reader of SQLite table B-trees, for the bulk loads of event tables. Private to the engine.
//
// Why: decoding rows through sqlite3_step + sqlite3_column_* costs ~0.5 us per 20-column kernel row; walking
// the leaf pages of the (immutable, finished) export and decoding the records here costs a fifth of that,
// which is the difference between answering in a fraction of the sqlite3 CLI's time or not.
// Scope: rowid tables in UTF-8 files, records read by column position (the format in
// https://www.sqlite.org/fileformat2.html: table B-tree pages, cells, overflow chains, record serial types).
// Every page number, offset and length is checked; anything unexpected makes Scan() return kUnsupported and
// the caller reads the same rows through SQLite instead, which then reports real damage in its own words.
// Pages are read with pread in blocks (leaves of a table sit together in a file written once), not mapped:
// a file truncated under us then gives a short read, not a SIGBUS, and the resident set holds only a block.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nsys::engine {

// One row as the loaders see it: column 0 is the rowid, column k >= 1 is the k-th requested column.
// Same accessors as sql::Stmt, so a loader's fill code is written once for both readers.
struct RecordRow {
  struct Field {
    enum Type : uint8_t { kNull, kInt, kReal, kText, kBlob } type = kNull;
    int64_t i = 0;
    double d = 0;
    std::string_view s;
  };
  int64_t Int(int col) const {
    const Field& f = fields[col];
    return f.type == Field::kInt ? f.i : f.type == Field::kReal ? static_cast<int64_t>(f.d) : 0;
  }
  int64_t IntOr(int col, int64_t fallback) const { return fields[col].type == Field::kNull ? fallback : Int(col); }
  bool IsNull(int col) const { return fields[col].type == Field::kNull; }
  std::string_view Text(int col) const {
    const Field& f = fields[col];
    return f.type == Field::kText || f.type == Field::kBlob ? f.s : std::string_view();
  }

  std::vector<Field> fields;  // [0] is the rowid
};

class ExportFile {
 public:
  enum class ScanResult { kOk, kCancelled, kUnsupported };

  // Opens the file read-only. nullptr when the fast path cannot be used (not UTF-8, unusual header).
  static std::unique_ptr<ExportFile> Map(const std::string& path);
  ~ExportFile();
  ExportFile(const ExportFile&) = delete;
  ExportFile& operator=(const ExportFile&) = delete;

  // Calls row(r) for each row of the table rooted at `root_page` whose rowid is in [first, last], in rowid
  // order. `positions` are the requested columns' positions in the record (-1: absent, reads as NULL).
  // Checks `abort` every few thousand rows. Thread-safe: each call has its own buffers.
  template <typename RowFn>
  ScanResult Scan(uint32_t root_page, int64_t first, int64_t last, const std::vector<int>& positions,
                  const std::atomic<bool>* abort, RowFn&& row) const {
    using Fn = std::remove_reference_t<RowFn>;
    return ScanImpl(root_page, first, last, positions, abort, const_cast<void*>(static_cast<const void*>(&row)),
                    [](void* fn, const RecordRow& r) { (*static_cast<Fn*>(fn))(r); });
  }

 private:
  ExportFile() = default;
  using Callback = void (*)(void*, const RecordRow&);
  ScanResult ScanImpl(uint32_t root_page, int64_t first, int64_t last, const std::vector<int>& positions,
                      const std::atomic<bool>* abort, void* fn, Callback callback) const;

  int fd_ = -1;
  size_t size_ = 0;
  uint32_t page_size_ = 0;
  uint32_t usable_ = 0;  // page size minus the reserved bytes at the end of each page
  uint32_t pages_ = 0;
};

// ExportFile::Map, unless NSYS_ENGINE_NO_PAGE_READER is set (tests compare both readers with it).
std::unique_ptr<ExportFile> MapExportFile(const std::string& path);

}  // namespace nsys::engine
