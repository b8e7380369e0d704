#include "schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include "loaders.h"
#include "nsys/engine/gpu_models.h"
#include "step_timer.h"

namespace nsys::engine {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; });
  return it != hay.end();
}

// Tables that only Nsight Systems writes: their presence makes a file an export even when it has no events.
bool IsNsysMarkerTable(std::string_view name) {
  return name == "StringIds" || name == "ThreadNames" || name == "EXPORT_META_DATA" || name == "META_DATA_EXPORT" ||
         name == "ANALYSIS_DETAILS" || name == "ProcessStreams" || StartsWith(name, "TARGET_INFO_") ||
         StartsWith(name, "ENUM_NSYS_") || StartsWith(name, "CUPTI_ACTIVITY_KIND_") || name == "NVTX_EVENTS";
}

bool IsEventTable(std::string_view name) {
  return StartsWith(name, "CUPTI_ACTIVITY_KIND_") || name == "NVTX_EVENTS" || name == "OSRT_API";
}

// Runs `sql` and calls row(stmt) for every row.
template <typename RowFn>
Status ForEachRow(const sql::Db& db, const std::string& sql, const std::string& path, RowFn row) {
  auto stmt = db.Prepare(sql);
  if (!stmt) return stmt.error();
  int rc;
  while ((rc = stmt->Step()) == SQLITE_ROW) row(*stmt);
  if (rc != SQLITE_DONE) return sql::SqliteError(rc, fmt::format("running `{}`: {}", sql, db.ErrorMessage()), path);
  return {};
}

Expected<int64_t> SingleInt(const sql::Db& db, const std::string& sql, const std::string& path, int64_t fallback) {
  int64_t value = fallback;
  Status s = ForEachRow(db, sql, path, [&](sql::Stmt& st) { value = st.IntOr(0, fallback); });
  if (!s.ok()) return s.error();
  return value;
}

Status ReadTables(const sql::Db& db, const std::string& path, int64_t file_size, Schema& schema) {
  struct Named {
    std::string name, sql;
    int64_t root;
  };
  std::vector<Named> names;
  Status s = ForEachRow(db, "SELECT name, coalesce(sql, ''), rootpage FROM sqlite_master WHERE type = 'table'", path,
                        [&](sql::Stmt& st) {
                          names.push_back(Named{std::string(st.Text(0)), std::string(st.Text(1)), st.Int(2)});
                        });
  if (!s.ok()) return s;
  // A table whose root page lies past the end of the file: the file was cut short.
  auto page_size = SingleInt(db, "PRAGMA page_size", path, 0);
  if (!page_size) return page_size.error();
  auto max_root = SingleInt(db, "SELECT max(rootpage) FROM sqlite_master", path, 0);
  if (!max_root) return max_root.error();
  if (*page_size > 0 && *max_root > file_size / *page_size)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is truncated: its schema refers to page {} but the file holds only {} pages "
                                 "of {} bytes. Was the copy or the export interrupted?",
                                 path, *max_root, file_size / *page_size, *page_size));
  for (auto& [name, create_sql, root] : names) {
    if (StartsWith(name, "sqlite_")) continue;
    TableInfo info;
    info.name = name;
    int pk_columns = 0;
    bool integer_pk = false, defaults = false;
    s = ForEachRow(db,
                   fmt::format("SELECT name, upper(type), pk, dflt_value IS NOT NULL FROM pragma_table_info({})",
                               sql::QuoteIdent(name)),
                   path, [&](sql::Stmt& st) {
                     info.columns.emplace_back(st.Text(0));
                     defaults |= st.Int(3) != 0;
                     if (st.Int(2) > 0) {
                       ++pk_columns;
                       integer_pk = st.Text(1) == "INTEGER";
                     }
                   });
    if (!s.ok()) return s;
    TableExtent extent;
    extent.root_page = root > 0 && root <= UINT32_MAX ? static_cast<uint32_t>(root) : 0;
    extent.direct = extent.root_page > 0 && !defaults && !(pk_columns == 1 && integer_pk) &&
                    !ContainsNoCase(create_sql, "WITHOUT ROWID");
    const std::string q = sql::QuoteIdent(name);
    // An INTEGER PRIMARY KEY is the rowid itself (StringIds.id, ENUM ids): its span says nothing about the count.
    if (ContainsNoCase(create_sql, "WITHOUT ROWID") || (pk_columns == 1 && integer_pk)) {
      auto n = SingleInt(db, "SELECT count(*) FROM " + q, path, 0);
      if (!n) return n.error();
      info.rows = *n;
      extent.dense = false;
    } else {
      // min/max(rowid) are single B-tree seeks, unlike count(*) which walks every page (0.3 s per GB).
      // Exports are written once and never delete, so the rowid span is the row count; a span that
      // no file of this size could hold is checked with count(*) instead.
      auto lo = SingleInt(db, "SELECT min(rowid) FROM " + q, path, 0);
      if (!lo) return lo.error();
      auto hi = SingleInt(db, "SELECT max(rowid) FROM " + q, path, -1);
      if (!hi) return hi.error();
      extent.min_rowid = *lo;
      extent.max_rowid = *hi;
      const int64_t span = *hi >= *lo ? *hi - *lo + 1 : 0;
      if (span > file_size / 4 + 16) {
        auto n = SingleInt(db, "SELECT count(*) FROM " + q, path, 0);
        if (!n) return n.error();
        info.rows = *n;
        extent.dense = false;
      } else {
        info.rows = span;
      }
    }
    schema.extents[name] = extent;
    schema.tables[name] = std::move(info);
  }
  return {};
}

Status ReadMetadata(const sql::Db& db, const std::string& path, const Schema& schema, ProfileInfo& info) {
  for (std::string_view table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
    if (!schema.Has(table) || !schema.HasColumn(table, "name") || !schema.HasColumn(table, "value")) continue;
    info.metadata_table = std::string(table);
    Status s = ForEachRow(db, fmt::format("SELECT name, value FROM {}", table), path, [&](sql::Stmt& st) {
      info.metadata.emplace(std::string(st.Text(0)), std::string(st.Text(1)));
    });
    if (!s.ok()) return s;
    break;
  }
  if (auto it = info.metadata.find("EXPORT_PRODUCT_VERSION"); it != info.metadata.end()) info.nsys_version = it->second;
  if (auto it = info.metadata.find("EXPORT_SCHEMA_VERSION"); it != info.metadata.end())
    info.schema_version = it->second;
  return {};
}

Status ReadStrings(const sql::Db& db, const std::string& path, const Schema& schema, StringPool& pool,
                   StringIdMap& ids) {
  if (!schema.HasColumn("StringIds", "id") || !schema.HasColumn("StringIds", "value")) return {};
  return ForEachRow(db, "SELECT id, value FROM StringIds", path,
                    [&](sql::Stmt& st) { ids.Set(st.Int(0), pool.intern(st.Text(1))); });
}

// Old exports name their GPUs in TARGET_INFO_CUDA_GPU (keyed by the activity rows' deviceId, with the SM count in
// numMultiprocessors), alone or beside a TARGET_INFO_GPU that lacks the name or the SMs. Fills what is missing.
Status ReadCudaGpuTable(const sql::Db& db, const std::string& path, const Schema& schema,
                        std::map<int32_t, Device>& by_id) {
  std::string_view gpu = "TARGET_INFO_CUDA_GPU";
  std::string id;
  for (std::string_view c : {"deviceId", "id", "cudaId"}) {
    if (schema.HasColumn(gpu, c)) {
      id = sql::QuoteIdent(c);
      break;
    }
  }
  if (schema.Rows(gpu) == 0 || id.empty()) return {};
  const std::string sql =
      fmt::format("SELECT {}, {}, {}, {}, {} FROM TARGET_INFO_CUDA_GPU", id, schema.Col(gpu, "name"),
                  schema.Col(gpu, "numMultiprocessors"), schema.Col(gpu, "computeCapabilityMajor"),
                  schema.Col(gpu, "computeCapabilityMinor"));
  return ForEachRow(db, sql, path, [&](sql::Stmt& st) {
    Device& d = by_id[static_cast<int32_t>(st.Int(0))];
    d.id = static_cast<int32_t>(st.Int(0));
    if (d.name.empty()) d.name = st.Text(1);
    if (d.sm_count <= 0) d.sm_count = static_cast<int32_t>(st.Int(2));
    if (d.compute_major <= 0)
      d.compute_major = static_cast<int32_t>(st.Int(3)), d.compute_minor = static_cast<int32_t>(st.Int(4));
  });
}

// A named GPU whose export does not give its SMs or compute capability gets its model's (gpu_models.h), marked so.
void FillFromModels(std::vector<Device>& devices) {
  for (Device& d : devices) {
    if (d.name.empty() || (d.sm_count > 0 && d.compute_major > 0)) continue;
    const std::optional<GpuModel> model = LookUpGpuModel(d.name);
    if (!model) continue;
    if (d.sm_count <= 0) d.sm_count = model->sm_count, d.sm_count_from_model = true;
    if (d.compute_major <= 0) d.compute_major = model->compute_major, d.compute_minor = model->compute_minor;
  }
}

// TARGET_INFO_GPU: one device per id (the first row, if a VM repeats it), with what the schema's columns give.
Status ReadGpuTable(const sql::Db& db, const std::string& path, const Schema& schema,
                    std::map<int32_t, Device>& by_id) {
  std::string_view gpu = "TARGET_INFO_GPU";
  if (schema.Rows(gpu) == 0 || !schema.HasColumn(gpu, "id")) return {};
  const std::string sql =
      fmt::format("SELECT id, {}, {}, {}, {}, {}, {}, {}, {} FROM TARGET_INFO_GPU", schema.Col(gpu, "name"),
                  schema.Col(gpu, "chipName"), schema.Col(gpu, "totalMemory"), schema.Col(gpu, "memoryBandwidth"),
                  schema.Col(gpu, "smCount"), schema.Col(gpu, "clockRate"), schema.Col(gpu, "computeMajor"),
                  schema.Col(gpu, "computeMinor"));
  return ForEachRow(db, sql, path, [&](sql::Stmt& st) {
    Device d;
    d.id = static_cast<int32_t>(st.Int(0));
    d.name = st.Text(1);
    d.chip = st.Text(2);
    d.total_memory = st.Int(3);
    d.memory_bandwidth = st.Int(4);
    d.sm_count = static_cast<int32_t>(st.Int(5));
    d.clock_rate = st.Int(6);
    d.compute_major = static_cast<int32_t>(st.Int(7));
    d.compute_minor = static_cast<int32_t>(st.Int(8));
    by_id.emplace(d.id, std::move(d));
  });
}

}  // namespace

Status ReadActivityDevices(const sql::Db& db, const std::string& path, const Schema& schema, const ExportFile* file,
                           const std::vector<std::string_view>& tables, std::vector<Device>& devices) {
  // A scan of each table's deviceId column (0.25 s per 3.4M kernels through SQL, about 0.1 s through the page
  // reader), so the rowids are split in two and the second half runs on its own connection.
  struct Range {
    std::string_view table;
    int64_t first, last;
  };
  std::vector<Range> halves[2];
  for (std::string_view t : tables) {
    if (schema.Rows(t) == 0 || !schema.HasColumn(t, "deviceId")) continue;
    const TableExtent e = schema.Extent(t);
    const int64_t mid = e.min_rowid + (e.max_rowid - e.min_rowid) / 2;
    halves[0].push_back(Range{t, e.min_rowid, mid});
    halves[1].push_back(Range{t, mid + 1, e.max_rowid});
  }
  auto scan = [&path, &schema, file](const sql::Db& conn, const std::vector<Range>& ranges,
                                     std::set<int32_t>& seen) -> Status {
    for (const Range& r : ranges) {
      int32_t last = INT32_MIN;
      const TableExtent e = schema.Extent(r.table);
      if (file && e.direct) {
        const auto result = file->Scan(e.root_page, r.first, r.last, {schema.Position(r.table, "deviceId")}, nullptr,
                                       [&](const RecordRow& row) {
                                         const auto id = static_cast<int32_t>(row.Int(1));
                                         if (id != last) seen.insert(last = id);
                                       });
        if (result == ExportFile::ScanResult::kOk) continue;
      }
      Status s = ForEachRow(
          conn, fmt::format("SELECT deviceId FROM {} WHERE rowid BETWEEN {} AND {}", r.table, r.first, r.last), path,
          [&](sql::Stmt& st) {
            const auto id = static_cast<int32_t>(st.Int(0));
            if (id != last) seen.insert(last = id);
          });
      if (!s.ok()) return s;
    }
    return {};
  };
  std::set<int32_t> seen[2];
  if (!halves[1].empty()) {
    Status second_status;
    std::thread second([&] {
      auto conn = sql::Db::OpenReadOnly(path);
      second_status = conn ? scan(*conn, halves[1], seen[1]) : Status(conn.error());
    });
    Status first_status = scan(db, halves[0], seen[0]);
    second.join();
    if (!first_status.ok()) return first_status;
    if (!second_status.ok()) return second_status;
  }
  seen[0].insert(seen[1].begin(), seen[1].end());
  AddDevices(seen[0], devices);
  return {};
}

void AddDevices(const std::set<int32_t>& ids, std::vector<Device>& devices) {
  std::map<int32_t, Device> by_id;
  for (Device& d : devices) by_id.emplace(d.id, std::move(d));
  for (int32_t id : ids) by_id.try_emplace(id).first->second.id = id;
  devices.clear();
  for (auto& [id, d] : by_id) devices.push_back(std::move(d));
}

namespace {

// The export's GPU tables; without them, the devices that GPU activity names. The kernel table is left out when
// `kernels_later`: the open loads that table next and takes its devices from the loaded column (no extra pass).
Status ReadDevices(const sql::Db& db, const std::string& path, const Schema& schema, const ExportFile* file,
                   bool& kernels_later, ProfileInfo& info) {
  std::map<int32_t, Device> by_id;
  if (Status s = ReadGpuTable(db, path, schema, by_id); !s.ok()) return s;
  if (Status s = ReadCudaGpuTable(db, path, schema, by_id); !s.ok()) return s;
  if (!by_id.empty()) {
    kernels_later = false;
    for (auto& [id, d] : by_id) info.devices.push_back(std::move(d));
    FillFromModels(info.devices);
    return {};
  }
  kernels_later = kernels_later && schema.Rows(kKernelTable) > 0 && schema.HasColumn(kKernelTable, "deviceId");
  std::vector<std::string_view> tables{kMemcpyTable, kMemsetTable};
  if (!kernels_later) tables.push_back(kKernelTable);
  return ReadActivityDevices(db, path, schema, file, tables, info.devices);
}

Status ReadProcessesAndThreads(const sql::Db& db, const std::string& path, const Schema& schema, const StringIdMap& ids,
                               const StringPool& pool, ProfileInfo& info) {
  if (schema.Has("PROCESSES") && schema.HasColumn("PROCESSES", "globalPid")) {
    std::map<uint32_t, std::string> by_pid;
    Status s = ForEachRow(db, fmt::format("SELECT globalPid, {} FROM PROCESSES", schema.Col("PROCESSES", "name")), path,
                          [&](sql::Stmt& st) {
                            auto& name = by_pid[PidOf(st.Int(0))];
                            if (name.empty()) name = st.Text(1);
                          });
    if (!s.ok()) return s;
    for (auto& [pid, name] : by_pid) info.processes.push_back(Process{pid, std::move(name)});
  }
  if (info.processes.empty()) {
    // Old exports may have no process table: the processes are then those the activity rows name (one scan each of
    // the tables that have rows; their names are not in the export).
    std::string parts;
    for (auto [table, column] : {std::pair{kKernelTable, "globalPid"}, std::pair{kMemcpyTable, "globalPid"},
                                 std::pair{kMemsetTable, "globalPid"}, std::pair{kRuntimeTable, "globalTid"},
                                 std::pair{kNvtxTable, "globalTid"}}) {
      if (schema.Rows(table) == 0 || !schema.HasColumn(table, column)) continue;
      parts += fmt::format("{}SELECT DISTINCT {} AS g FROM {}", parts.empty() ? "" : " UNION ", column, table);
    }
    if (!parts.empty()) {
      std::set<uint32_t> pids;
      Status s = ForEachRow(db, fmt::format("SELECT g FROM ({}) WHERE g IS NOT NULL", parts), path,
                            [&](sql::Stmt& st) { pids.insert(PidOf(st.Int(0))); });
      if (!s.ok()) return s;
      for (uint32_t pid : pids) info.processes.push_back(Process{pid, ""});
    }
  }
  if (schema.Has("ThreadNames") && schema.HasColumn("ThreadNames", "globalTid")) {
    std::map<std::pair<uint32_t, uint32_t>, std::string> by_thread;
    Status s = ForEachRow(db, fmt::format("SELECT globalTid, {} FROM ThreadNames", schema.Col("ThreadNames", "nameId")),
                          path, [&](sql::Stmt& st) {
                            auto& name = by_thread[{PidOf(st.Int(0)), TidOf(st.Int(0))}];
                            if (name.empty() && !st.IsNull(1)) name = pool.view(ids.Lookup(st.Int(1)));
                          });
    if (!s.ok()) return s;
    for (auto& [key, name] : by_thread) info.threads.push_back(Thread{key.first, key.second, std::move(name)});
  }
  return {};
}

Status ReadStreams(const sql::Db& db, const std::string& path, const Schema& schema, ProfileInfo& info) {
  std::string_view t = "TARGET_INFO_CUDA_STREAM";
  if (schema.Rows(t) == 0 || !schema.HasColumn(t, "streamId")) return {};
  // The stream table names a context, not a device; TARGET_INFO_CUDA_CONTEXT_INFO maps one to the other.
  std::map<std::pair<int64_t, int64_t>, int32_t> context_device;
  std::string_view ctx = "TARGET_INFO_CUDA_CONTEXT_INFO";
  if (schema.HasColumn(ctx, "processId") && schema.HasColumn(ctx, "contextId") && schema.HasColumn(ctx, "deviceId")) {
    Status s = ForEachRow(db, "SELECT processId, contextId, deviceId FROM TARGET_INFO_CUDA_CONTEXT_INFO", path,
                          [&](sql::Stmt& st) {
                            context_device[{st.Int(0), st.Int(1)}] = static_cast<int32_t>(st.Int(2));
                          });
    if (!s.ok()) return s;
  }
  const std::string sql =
      fmt::format("SELECT streamId, {}, {}, {}, {} FROM TARGET_INFO_CUDA_STREAM", schema.Col(t, "processId"),
                  schema.Col(t, "contextId"), schema.Col(t, "priority"), schema.Col(t, "flag"));
  Status s = ForEachRow(db, sql, path, [&](sql::Stmt& st) {
    CudaStream cs;
    cs.stream = static_cast<int32_t>(st.Int(0));
    cs.pid = static_cast<uint32_t>(st.Int(1));
    auto it = context_device.find({st.Int(1), st.Int(2)});
    cs.device = it == context_device.end() ? -1 : it->second;
    cs.priority = static_cast<int32_t>(static_cast<uint32_t>(st.Int(3)));  // stored as uint32: 4294967295 is -1
    cs.stream_type = static_cast<int32_t>(st.Int(4));
    info.streams.push_back(cs);
  });
  if (!s.ok()) return s;
  std::sort(info.streams.begin(), info.streams.end(), [](const CudaStream& a, const CudaStream& b) {
    return std::tie(a.pid, a.device, a.stream) < std::tie(b.pid, b.device, b.stream);
  });
  return {};
}

// The profile's time range. Rule: start_ns = the smallest `start` and end_ns = the largest `end` (or start,
// for rows without an end) over the event tables the engine loads (kernels, memcpy, memset, sync, runtime,
// NVTX except domain-create rows, profiler overhead). Why not ANALYSIS_DETAILS.startTime/stopTime: in the
// fixtures it is the whole capture even when the export is a window cut from it (h100_2gpu_1s: 35.3 s vs
// events at 155.4 s), and on another clock when times were normalised (titanrtx: 15.4 s vs events from
// 0.009 s). Why not MIN(start) over whole tables: no index, so that is a full scan (seconds on 2 GB).
// nsys writes each table in (almost) time order, so the first and last kTimeChunk rows by rowid hold the
// extremes; for tables of up to 2 * kTimeChunk rows (every fixture) this is exact. Deterministic per file,
// and the warm snapshot stores the same values.
constexpr int64_t kTimeChunk = 32768;

// CheckTimes as a WHERE condition: a row whose times the loaders would skip is not part of the range.
std::string ValidTimesSql(bool has_end, bool end_optional) {
  std::string valid = fmt::format("typeof(start) = 'integer' AND start > {} AND start < {}", -kTimeLimit, kTimeLimit);
  if (!has_end) return valid;
  const std::string end_ok =
      fmt::format("typeof(\"end\") = 'integer' AND \"end\" >= start AND \"end\" < {}", kTimeLimit);
  return valid + (end_optional ? fmt::format(" AND (\"end\" IS NULL OR ({}))", end_ok) : " AND " + end_ok);
}

Status ComputeTimeRange(const sql::Db& db, const std::string& path, const Schema& schema, const ExportFile* file,
                        ProfileInfo& info) {
  Ns lo = std::numeric_limits<Ns>::max(), hi = std::numeric_limits<Ns>::min();
  for (std::string_view t :
       {kKernelTable, kMemcpyTable, kMemsetTable, kSyncTable, kGraphTable, kRuntimeTable, kNvtxTable, kOverheadTable}) {
    if (schema.Rows(t) == 0 || !schema.HasColumn(t, "start")) continue;
    const TableExtent ext = schema.Extent(t);
    // The loaders' row rule (CheckTimes): rows they skip must not move the profile's range either.
    const bool end_optional = t == kNvtxTable || t == kOverheadTable || !schema.HasColumn(t, "end");
    const std::string end = schema.HasColumn(t, "end") ? "coalesce(\"end\", start)" : "start";
    std::string filter = ValidTimesSql(schema.HasColumn(t, "end"), end_optional);
    if (t == kNvtxTable && schema.HasColumn(t, "eventType"))
      filter += fmt::format(" AND eventType != {}", kNvtxDomainCreate);
    std::vector<std::pair<int64_t, int64_t>> ranges;
    if (!ext.dense || ext.max_rowid - ext.min_rowid + 1 <= 2 * kTimeChunk) {
      ranges.emplace_back(ext.min_rowid, ext.max_rowid);
    } else {
      ranges.emplace_back(ext.min_rowid, ext.min_rowid + kTimeChunk - 1);
      ranges.emplace_back(ext.max_rowid - kTimeChunk + 1, ext.max_rowid);
    }
    const int start_pos = schema.Position(t, "start"), end_pos = schema.Position(t, "end");
    const int type_pos = t == kNvtxTable ? schema.Position(t, "eventType") : -1;
    bool direct = file && ext.direct;
    for (auto [a, b] : ranges) {
      if (direct) {
        const auto result =
            file->Scan(ext.root_page, a, b, {start_pos, end_pos, type_pos}, nullptr, [&](const RecordRow& row) {
              if (type_pos >= 0 && row.Int(3) == kNvtxDomainCreate) return;
              if (CheckRowTimes(row, 1, 2, end_optional) != kSlotKept) return;
              lo = std::min(lo, row.Int(1));
              hi = std::max(hi, row.IntOr(2, row.Int(1)));
            });
        if (result == ExportFile::ScanResult::kOk) continue;
        direct = false;  // SQLite reads these rows again (min/max are idempotent)
      }
      const std::string sql =
          fmt::format("SELECT min(start), max({}) FROM {} WHERE rowid BETWEEN {} AND {} AND {}", end, t, a, b, filter);
      Status s = ForEachRow(db, sql, path, [&](sql::Stmt& st) {
        if (st.IsNull(0)) return;
        lo = std::min(lo, st.Int(0));
        hi = std::max(hi, st.Int(1));
      });
      if (!s.ok()) return s;
    }
  }
  if (lo <= hi) {
    info.start_ns = lo;
    info.end_ns = hi;
  }
  return {};
}

}  // namespace

void StringIdMap::Set(int64_t id, StrId s) {
  // Dense while ids stay within a reasonable multiple of the count seen so far.
  if (id >= 0 && id < (int64_t{1} << 26)) {
    if (static_cast<size_t>(id) >= dense_.size()) dense_.resize(static_cast<size_t>(id) + 1, kAbsent);
    dense_[static_cast<size_t>(id)] = s;
  } else {
    sparse_[id] = s;
  }
}

bool Schema::HasColumn(std::string_view table, std::string_view column) const {
  auto it = tables.find(table);
  if (it == tables.end()) return false;
  return std::find(it->second.columns.begin(), it->second.columns.end(), column) != it->second.columns.end();
}

int64_t Schema::Rows(std::string_view table) const {
  auto it = tables.find(table);
  return it == tables.end() ? 0 : it->second.rows;
}

TableExtent Schema::Extent(std::string_view table) const {
  auto it = extents.find(table);
  return it == extents.end() ? TableExtent{} : it->second;
}

int Schema::Position(std::string_view table, std::string_view column) const {
  auto it = tables.find(table);
  if (it == tables.end()) return -1;
  const auto& cols = it->second.columns;
  auto c = std::find(cols.begin(), cols.end(), column);
  return c == cols.end() ? -1 : static_cast<int>(c - cols.begin());
}

std::string Schema::Col(std::string_view table, std::string_view column) const {
  return HasColumn(table, column) ? sql::QuoteIdent(column) : std::string("NULL");
}

Status ProbeTablesAndStrings(const sql::Db& db, const std::string& path, int64_t file_size, StringPool& pool,
                             Schema& schema, StringIdMap& ids) {
  if (Status s = ReadTables(db, path, file_size, schema); !s.ok()) return s;
  return ReadStrings(db, path, schema, pool, ids);
}

Expected<ProbeResult> ProbeExport(const sql::Db& db, const std::string& path, int64_t file_size, StringPool& pool,
                                  const ExportFile* file, bool kernels_later) {
  ProbeResult r;
  StepTimer timer;
  if (Status s = ReadTables(db, path, file_size, r.schema); !s.ok()) return s.error();
  timer.Lap("probe: tables");
  bool nsys = false, events = false;
  for (const auto& [name, t] : r.schema.tables) {
    nsys |= IsNsysMarkerTable(name);
    events |= IsEventTable(name) && t.rows > 0;
  }
  if (!nsys)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is not an Nsight Systems export: no CUPTI or NVTX tables (it is a SQLite "
                                 "database with {} other tables). Make one with `nsys export --type sqlite`.",
                                 path, r.schema.tables.size()));
  if (!events)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is an Nsight Systems export with no events: it has no CUPTI, NVTX or OS runtime "
                                 "rows{}. The capture recorded nothing; check that the application ran CUDA or NVTX "
                                 "code inside the capture range and that tracing was on (`nsys profile -t cuda,nvtx`).",
                                 path,
                                 r.schema.Has("EXPORT_META_DATA") || r.schema.Has("META_DATA_EXPORT")
                                     ? ""
                                     : " and no export metadata table"));
  ProfileInfo& info = r.info;
  for (const auto& [name, t] : r.schema.tables) info.tables.push_back(t);  // std::map: sorted by name
  if (Status s = ReadMetadata(db, path, r.schema, info); !s.ok()) return s.error();
  if (Status s = ReadStrings(db, path, r.schema, pool, r.ids); !s.ok()) return s.error();
  timer.Lap("probe: metadata, strings");

  Capabilities& caps = info.caps;
  caps.kernels = r.schema.Rows(kKernelTable) > 0;
  caps.runtime = r.schema.Rows(kRuntimeTable) > 0;
  caps.memcpy = r.schema.Rows(kMemcpyTable) > 0;
  caps.memset = r.schema.Rows(kMemsetTable) > 0;
  caps.sync = r.schema.Rows(kSyncTable) > 0;
  caps.graphs = r.schema.Rows(kGraphTable) > 0;
  caps.nvtx = r.schema.Rows(kNvtxTable) > 0;
  caps.gpu_info = r.schema.Rows("TARGET_INFO_GPU") > 0;
  caps.cuda_streams = r.schema.Rows("TARGET_INFO_CUDA_STREAM") > 0;
  caps.profiler_overhead = r.schema.Rows(kOverheadTable) > 0;
  caps.osrt = r.schema.Rows("OSRT_API") > 0;
  for (const auto& [name, t] : r.schema.tables) caps.enums |= StartsWith(name, "ENUM_");

  r.devices_from_kernel_load = kernels_later;
  if (Status s = ReadDevices(db, path, r.schema, file, r.devices_from_kernel_load, info); !s.ok()) return s.error();
  timer.Lap("probe: devices");
  if (Status s = ReadProcessesAndThreads(db, path, r.schema, r.ids, pool, info); !s.ok()) return s.error();
  if (Status s = ReadStreams(db, path, r.schema, info); !s.ok()) return s.error();
  std::string_view session = "TARGET_INFO_SESSION_START_TIME";
  if (r.schema.HasColumn(session, "utcEpochNs")) {
    auto utc = SingleInt(db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", path, 0);
    if (!utc) return utc.error();
    info.session_start_utc_ns = *utc;
  }
  timer.Lap("probe: processes, threads, streams");
  if (Status s = ComputeTimeRange(db, path, r.schema, file, info); !s.ok()) return s.error();
  timer.Lap("probe: time range");
  return r;
}

}  // namespace nsys::engine
