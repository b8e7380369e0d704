#pragma once
// Schema probing: which tables and columns an export has, its metadata and small tables. Never assumes a
// column exists: SELECT lists are built from what the probe found. Private to the engine.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/engine/model.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "page_reader.h"
#include "sqlite_db.h"

namespace nsys::engine {

inline constexpr std::string_view kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr std::string_view kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr std::string_view kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr std::string_view kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
inline constexpr std::string_view kSyncTable = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
inline constexpr std::string_view kGraphTable = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
inline constexpr std::string_view kNvtxTable = "NVTX_EVENTS";
inline constexpr std::string_view kOverheadTable = "PROFILER_OVERHEAD";

// NVTX eventType ids (ENUM_NSYS_EVENT_TYPE; stable across schema versions, and the only source in 2.x exports).
inline constexpr int kNvtxMark = 34;
inline constexpr int kNvtxPushPop = 59;
inline constexpr int kNvtxStartEnd = 60;
inline constexpr int kNvtxDomainCreate = 75;

struct TableExtent {
  int64_t min_rowid = 0;
  int64_t max_rowid = -1;  // empty when max < min
  // Rows may be addressed by rowid slot (rowid - min_rowid); false when rowids are too sparse for that.
  bool dense = true;
  uint32_t root_page = 0;  // sqlite_master.rootpage
  // The page reader may decode its records by column position: a plain rowid table (no INTEGER PRIMARY KEY
  // alias, not WITHOUT ROWID) with no column DEFAULTs (a record shorter than the schema reads as NULL).
  bool direct = false;
};

// StringIds.id -> StrId (dense vector; ids are small consecutive integers in every export seen).
class StringIdMap {
 public:
  void Set(int64_t id, StrId s);
  StrId Lookup(int64_t id) const {
    if (id >= 0 && static_cast<uint64_t>(id) < dense_.size()) {
      const StrId s = dense_[static_cast<size_t>(id)];
      return s == kAbsent ? 0 : s;
    }
    if (sparse_.empty()) return 0;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? 0 : it->second;
  }

 private:
  static constexpr StrId kAbsent = UINT32_MAX;  // a hole in dense_
  std::vector<StrId> dense_;
  std::unordered_map<int64_t, StrId> sparse_;
};

struct Schema {
  std::map<std::string, TableInfo, std::less<>> tables;
  std::map<std::string, TableExtent, std::less<>> extents;

  bool Has(std::string_view table) const { return tables.find(table) != tables.end(); }
  bool HasColumn(std::string_view table, std::string_view column) const;
  int64_t Rows(std::string_view table) const;
  TableExtent Extent(std::string_view table) const;
  // The quoted column when the table has it, else NULL: a SELECT list that works on every schema version.
  std::string Col(std::string_view table, std::string_view column) const;
  // The column's position in the table's records, or -1 when the table has no such column.
  int Position(std::string_view table, std::string_view column) const;
};

struct ProbeResult {
  ProfileInfo info;
  Schema schema;
  StringIdMap ids;
  // info.devices still lacks the devices of the kernel table: the export names no GPUs and the caller asked to
  // take them from the loaded kernel rows (AddDevices), which it loads next anyway.
  bool devices_from_kernel_load = false;
};

// The tables and the string ids only: what the loaders need when the info came from the warm snapshot.
Status ProbeTablesAndStrings(const sql::Db& db, const std::string& path, int64_t file_size, StringPool& pool,
                             Schema& schema, StringIdMap& ids);

// Reads the schema, metadata, strings (interned into `pool`), devices, processes, threads, streams and the
// profile's time range. Errors name the file and the problem ("not an Nsight Systems export", ...).
// `file` (may be null) lets the device scan use the page reader. With `kernels_later`, an export that names no
// GPUs leaves the kernel table's devices to the caller (ProbeResult::devices_from_kernel_load).
Expected<ProbeResult> ProbeExport(const sql::Db& db, const std::string& path, int64_t file_size, StringPool& pool,
                                  const ExportFile* file, bool kernels_later = false);

// The devices named by the deviceId column of each of `tables` (GPU activity), added to `devices` in id order.
Status ReadActivityDevices(const sql::Db& db, const std::string& path, const Schema& schema, const ExportFile* file,
                           const std::vector<std::string_view>& tables, std::vector<Device>& devices);
// Adds a device (id only) for each of `ids` not in `devices`; keeps `devices` in id order.
void AddDevices(const std::set<int32_t>& ids, std::vector<Device>& devices);

}  // namespace nsys::engine
