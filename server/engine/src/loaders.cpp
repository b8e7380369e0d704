#include "loaders.h"

#include <fmt/format.h>

#include <algorithm>

#include "table_ops.h"

namespace nsys::engine {

std::vector<RowidRange> SplitRowids(const TableExtent& extent, int64_t rows_per_part) {
  std::vector<RowidRange> parts;
  if (extent.max_rowid < extent.min_rowid) return parts;
  if (!extent.dense) return {RowidRange{extent.min_rowid, extent.max_rowid}};
  rows_per_part = std::max<int64_t>(rows_per_part, 1);
  for (int64_t first = extent.min_rowid; first <= extent.max_rowid; first += rows_per_part)
    parts.push_back(RowidRange{first, std::min(extent.max_rowid, first + rows_per_part - 1)});
  return parts;
}

template <typename Table>
bool Staging<Table>::Prepare(const TableExtent& extent, int64_t rows, const std::atomic<bool>* abort) {
  dense = extent.dense;
  base_rowid = extent.min_rowid;
  next_slot = 0;
  const int64_t n = dense ? std::max<int64_t>(0, extent.max_rowid - extent.min_rowid + 1) : rows;
  bool aborted = false;
  ForEachColumn(table, [&](auto& col) {
    if (aborted || (abort && abort->load(std::memory_order_relaxed))) {
      aborted = true;
      return;
    }
    col.resize(static_cast<size_t>(n));
  });
  if (aborted) {
    table = Table{};
    return false;
  }
  filled.assign(static_cast<size_t>(n), 0);
  return true;
}

template struct Staging<KernelTable>;
template struct Staging<MemcpyTable>;
template struct Staging<MemsetTable>;
template struct Staging<SyncTable>;
template struct Staging<RuntimeTable>;
template struct Staging<OverheadTable>;
template struct Staging<NvtxTable>;

namespace {

constexpr int64_t kProgressRows = 16384;

// A table's requested columns: the SELECT list for SQLite and the record positions for the page reader.
struct ColumnSet {
  std::string select;
  std::vector<int> positions;
};

ColumnSet Columns(const Schema& schema, std::string_view table, std::initializer_list<std::string_view> names) {
  ColumnSet c;
  for (std::string_view n : names) {
    if (!c.select.empty()) c.select += ", ";
    c.select += schema.Col(table, n);
    c.positions.push_back(schema.Position(table, n));
  }
  return c;
}

// Reads rowids [range.first, range.last] and calls fill(row, table, slot) per row, where row.Int(0) is the
// rowid and row.Int(k) the k-th requested column. The page reader goes first; SQLite reads the part when the
// page reader declines it (and then reports any damage).
template <typename Table, typename Fill>
Status RunPart(PartContext& ctx, std::string_view table, const ColumnSet& columns, RowidRange range,
               Staging<Table>& stg, Fill fill) {
  int64_t pending = 0;
  auto store = [&](const auto& row) {
    const size_t slot = stg.Slot(row.Int(0));
    if (slot >= stg.filled.size()) return;  // a row added after the probe: cannot happen for an immutable file
    fill(row, stg.table, slot);
    stg.filled[slot] = 1;
    if (++pending == kProgressRows) {
      ctx.rows_done->fetch_add(pending, std::memory_order_relaxed);
      pending = 0;
    }
  };
  const TableExtent extent = ctx.env->schema->Extent(table);
  if (ctx.file && extent.direct && stg.dense) {
    const auto result = ctx.file->Scan(extent.root_page, range.first, range.last, columns.positions, ctx.abort,
                                       [&](const RecordRow& row) { store(row); });
    ctx.rows_done->fetch_add(pending, std::memory_order_relaxed);
    pending = 0;
    if (result == ExportFile::ScanResult::kOk) return {};
    if (result == ExportFile::ScanResult::kCancelled) return MakeError(ErrorKind::kCancelled, "Loading was cancelled.");
  }
  const std::string sql = fmt::format("SELECT rowid, {} FROM {} WHERE rowid BETWEEN ?1 AND ?2", columns.select, table);
  auto stmt = ctx.db->Prepare(sql);
  if (!stmt) return stmt.error();
  stmt->Bind(1, range.first);
  stmt->Bind(2, range.last);
  int rc;
  while ((rc = stmt->Step()) == SQLITE_ROW) store(*stmt);
  ctx.rows_done->fetch_add(pending, std::memory_order_relaxed);
  if (rc != SQLITE_DONE)
    return sql::SqliteError(rc, fmt::format("reading {}: {}", table, ctx.db->ErrorMessage()), ctx.env->path);
  return {};
}

template <typename Row>
int32_t I32(const Row& st, int col) {
  return static_cast<int32_t>(st.Int(col));
}
template <typename Row>
int8_t KindOrUnknown(const Row& st, int col) {
  return st.IsNull(col) ? int8_t{-1} : static_cast<int8_t>(st.Int(col));
}

template <typename Table>
void FinalizeTable(Staging<Table>& stg, Table& out) {
  if (std::find(stg.filled.begin(), stg.filled.end(), 0) != stg.filled.end()) CompactTable(stg.table, stg.filled);
  std::vector<uint8_t>().swap(stg.filled);
  SortByTime(stg.table);
  stg.table.max_duration = MaxDuration(stg.table);
  out = std::move(stg.table);
  stg.table = Table{};
}

}  // namespace

Status LoadKernelPart(PartContext& ctx, RowidRange range, Staging<KernelTable>& stg) {
  const Schema& s = *ctx.env->schema;
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols =
      Columns(s, kKernelTable,
              {"start", "end", "deviceId", "streamId", "contextId", "globalPid", "correlationId", "demangledName",
               "shortName", "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
               "registersPerThread", "staticSharedMemory", "dynamicSharedMemory"});
  return RunPart(ctx, kKernelTable, cols, range, stg, [&ids](const auto& st, KernelTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    t.device[i] = I32(st, 3);
    t.stream[i] = I32(st, 4);
    t.context[i] = I32(st, 5);
    t.pid[i] = PidOf(st.Int(6));
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(7));
    t.name[i] = ids.Lookup(st.Int(8));
    t.short_name[i] = ids.Lookup(st.Int(9));
    t.mangled_name[i] = st.IsNull(10) ? 0 : ids.Lookup(st.Int(10));
    t.grid_x[i] = I32(st, 11);
    t.grid_y[i] = I32(st, 12);
    t.grid_z[i] = I32(st, 13);
    t.block_x[i] = I32(st, 14);
    t.block_y[i] = I32(st, 15);
    t.block_z[i] = I32(st, 16);
    t.registers_per_thread[i] = I32(st, 17);
    t.static_shared_memory[i] = I32(st, 18);
    t.dynamic_shared_memory[i] = I32(st, 19);
    t.launch[i] = kNone;
  });
}

Status LoadMemcpyPart(PartContext& ctx, RowidRange range, Staging<MemcpyTable>& stg) {
  const ColumnSet cols = Columns(*ctx.env->schema, kMemcpyTable,
                                 {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", "bytes",
                                  "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId"});
  return RunPart(ctx, kMemcpyTable, cols, range, stg, [](const auto& st, MemcpyTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    t.device[i] = I32(st, 3);
    t.stream[i] = I32(st, 4);
    t.pid[i] = PidOf(st.Int(5));
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(6));
    t.bytes[i] = st.Int(7);
    t.copy_kind[i] = static_cast<uint8_t>(st.Int(8));
    t.src_kind[i] = KindOrUnknown(st, 9);
    t.dst_kind[i] = KindOrUnknown(st, 10);
    t.src_device[i] = static_cast<int32_t>(st.IntOr(11, -1));
    t.dst_device[i] = static_cast<int32_t>(st.IntOr(12, -1));
    t.launch[i] = kNone;
  });
}

Status LoadMemsetPart(PartContext& ctx, RowidRange range, Staging<MemsetTable>& stg) {
  const ColumnSet cols =
      Columns(*ctx.env->schema, kMemsetTable,
              {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", "bytes", "value", "memKind"});
  return RunPart(ctx, kMemsetTable, cols, range, stg, [](const auto& st, MemsetTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    t.device[i] = I32(st, 3);
    t.stream[i] = I32(st, 4);
    t.pid[i] = PidOf(st.Int(5));
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(6));
    t.bytes[i] = st.Int(7);
    t.value[i] = I32(st, 8);
    t.mem_kind[i] = KindOrUnknown(st, 9);
    t.launch[i] = kNone;
  });
}

Status LoadSyncPart(PartContext& ctx, RowidRange range, Staging<SyncTable>& stg) {
  const Schema& s = *ctx.env->schema;
  // 2.x exports have `syncType`; 3.x keep it next to `deprecatedSyncType`.
  const std::string_view type =
      s.HasColumn(kSyncTable, "syncType") ? std::string_view("syncType") : std::string_view("deprecatedSyncType");
  const ColumnSet cols =
      Columns(s, kSyncTable, {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", type});
  return RunPart(ctx, kSyncTable, cols, range, stg, [](const auto& st, SyncTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    t.device[i] = I32(st, 3);
    t.stream[i] = static_cast<int32_t>(st.IntOr(4, -1));
    t.pid[i] = PidOf(st.Int(5));
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(6));
    t.sync_type[i] = I32(st, 7);
    t.launch[i] = kNone;
  });
}

Status LoadRuntimePart(PartContext& ctx, RowidRange range, Staging<RuntimeTable>& stg) {
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols =
      Columns(*ctx.env->schema, kRuntimeTable, {"start", "end", "globalTid", "nameId", "correlationId", "returnValue"});
  return RunPart(ctx, kRuntimeTable, cols, range, stg, [&ids](const auto& st, RuntimeTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    const int64_t gtid = st.Int(3);
    t.pid[i] = PidOf(gtid);
    t.tid[i] = TidOf(gtid);
    t.name[i] = ids.Lookup(st.Int(4));
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(5));
    t.return_value[i] = I32(st, 6);
    t.nvtx[i] = kNone;
  });
}

Status LoadOverheadPart(PartContext& ctx, RowidRange range, Staging<OverheadTable>& stg) {
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols = Columns(*ctx.env->schema, kOverheadTable, {"start", "end", "globalTid", "nameId"});
  return RunPart(ctx, kOverheadTable, cols, range, stg, [&ids](const auto& st, OverheadTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.IntOr(2, st.Int(1));
    const int64_t gtid = st.Int(3);
    t.pid[i] = PidOf(gtid);
    t.tid[i] = TidOf(gtid);
    t.name[i] = ids.Lookup(st.Int(4));
  });
}

void Finalize(Staging<KernelTable>& stg, KernelTable& out) {
  FinalizeTable(stg, out);
}
void Finalize(Staging<MemcpyTable>& stg, MemcpyTable& out) {
  FinalizeTable(stg, out);
}
void Finalize(Staging<MemsetTable>& stg, MemsetTable& out) {
  FinalizeTable(stg, out);
}
void Finalize(Staging<SyncTable>& stg, SyncTable& out) {
  FinalizeTable(stg, out);
}
void Finalize(Staging<RuntimeTable>& stg, RuntimeTable& out) {
  FinalizeTable(stg, out);
}

void Finalize(Staging<OverheadTable>& stg, OverheadTable& out) {
  if (std::find(stg.filled.begin(), stg.filled.end(), 0) != stg.filled.end()) CompactTable(stg.table, stg.filled);
  std::vector<uint8_t>().swap(stg.filled);
  SortByTime(stg.table);
  out = std::move(stg.table);
  stg.table = OverheadTable{};
}

}  // namespace nsys::engine
