#include "loaders.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "step_timer.h"
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

template <typename Table>
bool Staging<Table>::Complete(int64_t first, int64_t last) const {
  if (!dense || last < first) return true;
  const auto begin = filled.begin() + (first - base_rowid);
  const auto end = filled.begin() + (last - base_rowid + 1);
  return std::find(begin, end, kSlotEmpty) == end;
}

template <typename Table>
void Staging<Table>::Reset(int64_t first, int64_t last) {
  if (!dense) {  // the one part is the whole table: it starts over from the first slot
    next_slot = 0;
    std::fill(filled.begin(), filled.end(), kSlotEmpty);
    return;
  }
  if (last < first) return;
  std::fill(filled.begin() + (first - base_rowid), filled.begin() + (last - base_rowid + 1), kSlotEmpty);
}

std::string TimeColumnSql(std::string_view quoted_column) {
  if (quoted_column == "NULL") return "NULL";
  return fmt::format("CASE WHEN typeof({0}) IN ('integer', 'null') THEN {0} ELSE -9223372036854775807 - 1 END",
                     quoted_column);
}

void CountSlots(std::vector<uint8_t>& filled, bool dense, RowDamage& damage) {
  for (uint8_t& state : filled) {
    damage.bad_time += state == kSlotBadTime;
    damage.bad_span += state == kSlotBadSpan;
    if (dense) damage.unreadable += state == kSlotEmpty;  // in append mode unused slots are only spare room
    state = state == kSlotKept;
  }
}

template struct Staging<KernelTable>;
template struct Staging<MemcpyTable>;
template struct Staging<MemsetTable>;
template struct Staging<SyncTable>;
template struct Staging<GraphTable>;
template struct Staging<RuntimeTable>;
template struct Staging<OverheadTable>;
template struct Staging<NvtxTable>;

namespace {

// A table's requested columns: the SELECT list for SQLite and the record positions for the page reader.
struct ColumnSet {
  std::string select;
  std::vector<int> positions;
};

ColumnSet Columns(const Schema& schema, std::string_view table, std::initializer_list<std::string_view> names) {
  ColumnSet c;
  for (std::string_view n : names) {
    if (!c.select.empty()) c.select += ", ";
    c.select += n == "start" || n == "end" ? TimeColumnSql(schema.Col(table, n)) : schema.Col(table, n);
    c.positions.push_back(schema.Position(table, n));
  }
  return c;
}

// Reads rowids [range.first, range.last] and calls fill(row, table, slot) per row whose times pass CheckTimes
// (start in column 1, end in column 2), where row.Int(0) is the rowid and row.Int(k) the k-th requested column;
// the other rows are marked skipped in the staging. The page reader goes first; SQLite reads the part when the
// page reader declines it, or when it left a rowid of the part unread (a damaged page it walked past): then the
// part holds what SQLite reads, and rowids neither returned are counted as unreadable by Finalize.
template <typename Table, typename Fill>
Status RunPart(PartContext& ctx, std::string_view table, const ColumnSet& columns, RowidRange range,
               Staging<Table>& stg, bool end_optional, Fill fill) {
  if (!stg.dense) stg.Reset(range.first, range.last);  // a resumed append-mode part starts over
  int64_t pending = 0;
  auto store = [&](const auto& row) {
    const size_t slot = stg.Slot(row.Int(0));
    if (slot >= stg.filled.size()) return;  // a rowid outside the probed span: counted by its empty slot
    const SlotState state = CheckRowTimes(row, 1, 2, end_optional);
    if (state == kSlotKept) fill(row, stg.table, slot);
    stg.filled[slot] = state;
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
    if (result == ExportFile::ScanResult::kCancelled) return MakeError(ErrorKind::kCancelled, "Loading was cancelled.");
    if (result == ExportFile::ScanResult::kOk && stg.Complete(range.first, range.last)) {
      SortPart(stg, range, /*end_descending=*/false);
      return {};
    }
    stg.Reset(range.first, range.last);  // the part is what SQLite reads, not a mix of both readers
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
  SortPart(stg, range, /*end_descending=*/false);
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

// The columns every GPU operation's SELECT starts with (after the rowid): start, end, deviceId, streamId, globalPid,
// correlationId; its launch is linked later.
template <typename Row, typename Table>
void FillGpuOpColumns(const Row& st, Table& t, size_t i) {
  t.start[i] = st.Int(1);
  t.end[i] = st.Int(2);
  t.device[i] = I32(st, 3);
  t.stream[i] = I32(st, 4);
  t.pid[i] = PidOf(st.Int(5));
  t.correlation_id[i] = static_cast<uint32_t>(st.Int(6));
  t.launch[i] = kNone;
}

template <typename Table>
RowDamage FinalizeTable(Staging<Table>& stg, Table& out) {
  StepTimer timer;
  RowDamage damage;
  CountSlots(stg.filled, stg.dense, damage);
  if (std::find(stg.filled.begin(), stg.filled.end(), 0) != stg.filled.end()) CompactTable(stg.table, stg.filled);
  std::vector<uint8_t>().swap(stg.filled);
  timer.Lap("finalize: compact");
  SortByTime(stg.table);
  timer.Lap("finalize: sort");
  if constexpr (requires { stg.table.max_duration; }) stg.table.max_duration = MaxDuration(stg.table);
  out = std::move(stg.table);
  stg.table = Table{};
  return damage;
}

// Rows whose name is the empty string: kernels and API calls always have one in a sound export.
int64_t CountUnnamed(const Column<StrId>& names) {
  return std::count(names.begin(), names.end(), StrId{0});
}

}  // namespace

// The rows without their launch configurations (LoadKernelConfigs reads those): `config` holds each row's slot
// until then, and travels with the row through the part's sort and Finalize's compaction and merge.
Status LoadKernelPart(PartContext& ctx, RowidRange range, KernelStaging& stg) {
  const Schema& s = *ctx.env->schema;
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols =
      Columns(s, kKernelTable,
              {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", "demangledName", "shortName"});
  return RunPart(ctx, kKernelTable, cols, range, stg, false, [&ids](const auto& st, KernelTable& t, size_t i) {
    FillGpuOpColumns(st, t, i);
    t.name[i] = NameOf(st, 7, ids);
    t.short_name[i] = NameOf(st, 8, ids);
    t.config[i] = static_cast<uint32_t>(i);
  });
}

namespace {

constexpr uint32_t kConfigUnread = UINT32_MAX;

// Interns the configuration of each row read into `of_slot` (the slot -> dictionary index map).
template <typename Row>
void StoreConfig(const Row& st, size_t slot, const StringIdMap& ids, DictionaryCache<KernelConfig>& configs,
                 std::vector<uint32_t>& of_slot) {
  if (slot >= of_slot.size()) return;
  KernelConfig c;
  c.context = I32(st, 1);
  c.mangled_name = NameOf(st, 2, ids);
  c.grid_x = I32(st, 3);
  c.grid_y = I32(st, 4);
  c.grid_z = I32(st, 5);
  c.block_x = I32(st, 6);
  c.block_y = I32(st, 7);
  c.block_z = I32(st, 8);
  c.registers_per_thread = I32(st, 9);
  c.static_shared_memory = I32(st, 10);
  c.dynamic_shared_memory = I32(st, 11);
  c.graph_id = static_cast<uint32_t>(std::max<int64_t>(0, st.IntOr(12, 0)));
  of_slot[slot] = configs.Intern(c);
}

}  // namespace

Status LoadKernelConfigs(PartContext& ctx, KernelStaging& stg, int64_t rows_per_part, KernelTable& t) {
  if (t.size() == 0) {
    t.configs.clear();
    return {};
  }
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols = Columns(*ctx.env->schema, kKernelTable,
                                 {"contextId", "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                                  "registersPerThread", "staticSharedMemory", "dynamicSharedMemory", "graphId"});
  // The slots of the kept rows: the ones to read (a slot no kept row has is left unread).
  std::vector<uint32_t> of_slot(static_cast<size_t>(*std::max_element(t.config.begin(), t.config.end())) + 1,
                                kConfigUnread);
  std::vector<uint8_t> wanted(of_slot.size(), 0);
  for (uint32_t slot : t.config) wanted[slot] = 1;
  DictionaryCache<KernelConfig> configs(stg.configs);
  const TableExtent extent = ctx.env->schema->Extent(kKernelTable);
  // The same parts and the same readers as the rows' load (RunPart), so whatever that load read, this reads.
  for (const RowidRange& range : SplitRowids(extent, rows_per_part)) {
    if (ctx.file && extent.direct && stg.dense) {
      const auto result =
          ctx.file->Scan(extent.root_page, range.first, range.last, cols.positions, ctx.abort,
                         [&](const RecordRow& row) { StoreConfig(row, stg.Slot(row.Int(0)), ids, configs, of_slot); });
      if (result == ExportFile::ScanResult::kCancelled)
        return MakeError(ErrorKind::kCancelled, "Loading was cancelled.");
      bool complete = result == ExportFile::ScanResult::kOk;
      for (int64_t r = range.first; complete && r <= range.last; ++r) {
        const size_t slot = static_cast<size_t>(r - stg.base_rowid);
        complete = slot >= of_slot.size() || !wanted[slot] || of_slot[slot] != kConfigUnread;
      }
      if (complete) continue;
      // As in RunPart: the part holds what SQLite reads, not a mix of both readers.
      const size_t first = static_cast<size_t>(range.first - stg.base_rowid);
      const size_t last = std::min(of_slot.size(), static_cast<size_t>(range.last - stg.base_rowid + 1));
      if (first < last) std::fill(of_slot.begin() + first, of_slot.begin() + last, kConfigUnread);
    }
    if (!stg.dense) stg.next_slot = 0;  // one part, read in rowid order as the rows' load read it
    auto stmt = ctx.db->Prepare(
        fmt::format("SELECT rowid, {} FROM {} WHERE rowid BETWEEN ?1 AND ?2", cols.select, kKernelTable));
    if (!stmt) return stmt.error();
    stmt->Bind(1, range.first);
    stmt->Bind(2, range.last);
    int rc;
    while ((rc = stmt->Step()) == SQLITE_ROW) StoreConfig(*stmt, stg.Slot(stmt->Int(0)), ids, configs, of_slot);
    if (rc != SQLITE_DONE)
      return sql::SqliteError(rc, fmt::format("reading {}: {}", kKernelTable, ctx.db->ErrorMessage()), ctx.env->path);
  }
  for (size_t slot = 0; slot < of_slot.size(); ++slot)
    if (wanted[slot] && of_slot[slot] == kConfigUnread) of_slot[slot] = configs.Intern(KernelConfig{});
  for (uint32_t& c : t.config) c = of_slot[c];
  t.configs = stg.configs.Take();
  CanonicalizeDictionary(t.config, t.configs);
  return {};
}

Status LoadMemcpyPart(PartContext& ctx, RowidRange range, Staging<MemcpyTable>& stg) {
  const ColumnSet cols = Columns(*ctx.env->schema, kMemcpyTable,
                                 {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", "bytes",
                                  "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "migrationCause"});
  return RunPart(ctx, kMemcpyTable, cols, range, stg, false, [](const auto& st, MemcpyTable& t, size_t i) {
    FillGpuOpColumns(st, t, i);
    t.bytes[i] = st.Int(7);
    t.copy_kind[i] = static_cast<uint8_t>(st.Int(8));
    t.src_kind[i] = KindOrUnknown(st, 9);
    t.dst_kind[i] = KindOrUnknown(st, 10);
    t.src_device[i] = static_cast<int32_t>(st.IntOr(11, -1));
    t.dst_device[i] = static_cast<int32_t>(st.IntOr(12, -1));
    t.migration_cause[i] = KindOrUnknown(st, 13);
  });
}

Status LoadMemsetPart(PartContext& ctx, RowidRange range, Staging<MemsetTable>& stg) {
  const ColumnSet cols =
      Columns(*ctx.env->schema, kMemsetTable,
              {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", "bytes", "value", "memKind"});
  return RunPart(ctx, kMemsetTable, cols, range, stg, false, [](const auto& st, MemsetTable& t, size_t i) {
    FillGpuOpColumns(st, t, i);
    t.bytes[i] = st.Int(7);
    t.value[i] = I32(st, 8);
    t.mem_kind[i] = KindOrUnknown(st, 9);
  });
}

Status LoadSyncPart(PartContext& ctx, RowidRange range, Staging<SyncTable>& stg) {
  const Schema& s = *ctx.env->schema;
  // 2.x exports have `syncType`; 3.x keep it next to `deprecatedSyncType`.
  const std::string_view type =
      s.HasColumn(kSyncTable, "syncType") ? std::string_view("syncType") : std::string_view("deprecatedSyncType");
  const ColumnSet cols =
      Columns(s, kSyncTable,
              {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", type, "eventId", "eventSyncId"});
  return RunPart(ctx, kSyncTable, cols, range, stg, false, [](const auto& st, SyncTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    t.device[i] = I32(st, 3);
    t.stream[i] = static_cast<int32_t>(st.IntOr(4, -1));
    t.pid[i] = PidOf(st.Int(5));
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(6));
    t.sync_type[i] = I32(st, 7);
    t.event_id[i] = st.IntOr(8, -1);
    t.event_sync_id[i] = st.IntOr(9, -1);
    t.launch[i] = kNone;
  });
}

Status LoadGraphPart(PartContext& ctx, RowidRange range, Staging<GraphTable>& stg) {
  const ColumnSet cols =
      Columns(*ctx.env->schema, kGraphTable,
              {"start", "end", "deviceId", "streamId", "globalPid", "correlationId", "graphId", "graphExecId"});
  return RunPart(ctx, kGraphTable, cols, range, stg, false, [](const auto& st, GraphTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    t.device[i] = static_cast<int32_t>(st.IntOr(3, -1));
    t.stream[i] = static_cast<int32_t>(st.IntOr(4, -1));
    t.pid[i] = PidOf(st.IntOr(5, 0));
    t.correlation_id[i] = static_cast<uint32_t>(st.IntOr(6, 0));
    t.graph_id[i] = st.IntOr(7, -1);
    t.graph_exec_id[i] = st.IntOr(8, -1);
    t.launch[i] = kNone;
  });
}

Status LoadRuntimePart(PartContext& ctx, RowidRange range, Staging<RuntimeTable>& stg) {
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols =
      Columns(*ctx.env->schema, kRuntimeTable, {"start", "end", "globalTid", "nameId", "correlationId", "returnValue"});
  return RunPart(ctx, kRuntimeTable, cols, range, stg, false, [&ids](const auto& st, RuntimeTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.Int(2);
    const int64_t gtid = st.Int(3);
    t.pid[i] = PidOf(gtid);
    t.tid[i] = TidOf(gtid);
    t.name[i] = NameOf(st, 4, ids);
    t.correlation_id[i] = static_cast<uint32_t>(st.Int(5));
    t.return_value[i] = I32(st, 6);
    t.nvtx[i] = kNone;
  });
}

Status LoadOverheadPart(PartContext& ctx, RowidRange range, Staging<OverheadTable>& stg) {
  const StringIdMap& ids = *ctx.env->ids;
  const ColumnSet cols = Columns(*ctx.env->schema, kOverheadTable, {"start", "end", "globalTid", "nameId"});
  return RunPart(ctx, kOverheadTable, cols, range, stg, true, [&ids](const auto& st, OverheadTable& t, size_t i) {
    t.start[i] = st.Int(1);
    t.end[i] = st.IntOr(2, st.Int(1));
    const int64_t gtid = st.Int(3);
    t.pid[i] = PidOf(gtid);
    t.tid[i] = TidOf(gtid);
    t.name[i] = NameOf(st, 4, ids);
  });
}

RowDamage Finalize(KernelStaging& stg, KernelTable& out) {
  RowDamage damage = FinalizeTable(stg, out);
  damage.unnamed = CountUnnamed(out.name);
  return damage;
}
RowDamage Finalize(Staging<MemcpyTable>& stg, MemcpyTable& out) {
  return FinalizeTable(stg, out);
}
RowDamage Finalize(Staging<MemsetTable>& stg, MemsetTable& out) {
  return FinalizeTable(stg, out);
}
RowDamage Finalize(Staging<SyncTable>& stg, SyncTable& out) {
  return FinalizeTable(stg, out);
}
RowDamage Finalize(Staging<GraphTable>& stg, GraphTable& out) {
  return FinalizeTable(stg, out);
}
RowDamage Finalize(Staging<RuntimeTable>& stg, RuntimeTable& out) {
  RowDamage damage = FinalizeTable(stg, out);
  damage.unnamed = CountUnnamed(out.name);
  return damage;
}
RowDamage Finalize(Staging<OverheadTable>& stg, OverheadTable& out) {
  return FinalizeTable(stg, out);
}

}  // namespace nsys::engine
