#pragma once
// Event table loaders. A table is read in parts (rowid ranges), each on its own read-only connection, into a
// staging table whose rows are addressed by rowid, so parts write disjoint slots without locks. Finalize()
// drops unused slots, sorts by time and derives per-table facts. Private to the engine.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dictionary.h"
#include "nsys/engine/model.h"
#include "nsys/support/expected.h"
#include "page_reader.h"
#include "schema.h"
#include "sqlite_db.h"
#include "table_ops.h"

namespace nsys::engine {

struct LoadEnv {
  std::string path;
  const Schema* schema = nullptr;
  const StringIdMap* ids = nullptr;
  StringPool* pool = nullptr;
};

struct PartContext {
  sql::Db* db = nullptr;             // this worker's connection; its progress handler watches `abort`
  const ExportFile* file = nullptr;  // the page reader, when the export allows it (else rows come through SQLite)
  const LoadEnv* env = nullptr;
  std::atomic<int64_t>* rows_done = nullptr;
  const std::atomic<bool>* abort = nullptr;
};

struct RowidRange {
  int64_t first = 0;
  int64_t last = -1;  // inclusive
};

// Splits a table's rowids into parts of about `rows_per_part` rows (one part when rowids are sparse).
std::vector<RowidRange> SplitRowids(const TableExtent& extent, int64_t rows_per_part);

// What became of each rowid slot of a staging table. Parts write disjoint slots, so no lock is needed.
enum SlotState : uint8_t {
  kSlotEmpty = 0,    // no reader returned this rowid (yet)
  kSlotKept = 1,     // stored
  kSlotBadTime = 2,  // skipped: a time NULL or not an integer
  kSlotBadSpan = 3,  // skipped: end before start, or a time beyond +-kTimeLimit
  kSlotOther = 4,    // read but not a row of this table's model (NVTX marks, domain creates)
};

// Times must lie strictly within +-2^62 ns (146 years either side of the clock's zero): then end - start, and the
// sum of two such durations, cannot overflow an int64.
inline constexpr Ns kTimeLimit = Ns{1} << 62;
// What a non-integer time (text, real, blob) reads as, from either reader: never a valid time.
inline constexpr Ns kNotATime = INT64_MIN;
// Rows a part reads between progress updates (one shared atomic add per batch), in every table loader.
inline constexpr int64_t kProgressRows = 16384;

// The rule both readers apply to a row's times. `end_present` false with `end_optional` means end = start.
inline SlotState CheckTimes(bool start_present, Ns start, bool end_present, Ns end, bool end_optional) {
  if (!start_present || start == kNotATime) return kSlotBadTime;
  if (!end_present) {
    if (!end_optional) return kSlotBadTime;
    end = start;
  }
  if (end == kNotATime) return kSlotBadTime;
  if (start <= -kTimeLimit || end >= kTimeLimit || end < start) return kSlotBadSpan;
  return kSlotKept;
}

// A time column for the SQLite reader's SELECT list: non-integers read as kNotATime, as the page reader reads them.
std::string TimeColumnSql(std::string_view quoted_column);

// A time field as the rule above wants it: (present, value), with non-integers as kNotATime.
inline std::pair<bool, Ns> TimeField(const RecordRow& row, int col) {
  const RecordRow::Field& f = row.fields[static_cast<size_t>(col)];
  if (f.type == RecordRow::Field::kNull) return {false, 0};
  return {true, f.type == RecordRow::Field::kInt ? f.i : kNotATime};
}
inline std::pair<bool, Ns> TimeField(const sql::Stmt& st, int col) {
  if (st.IsNull(col)) return {false, 0};
  return {true, st.Int(col)};  // the SELECT went through TimeColumnSql
}
template <typename Row>
SlotState CheckRowTimes(const Row& row, int start_col, int end_col, bool end_optional) {
  const auto [has_start, start] = TimeField(row, start_col);
  const auto [has_end, end] = TimeField(row, end_col);
  return CheckTimes(has_start, start, has_end, end, end_optional);
}

template <typename Table>
struct Staging {
  Table table;
  std::vector<uint8_t> filled;  // a SlotState per slot
  int64_t base_rowid = 0;
  bool dense = true;     // slot = rowid - base_rowid; otherwise one part appends in order
  size_t next_slot = 0;  // append mode only

  // Sizes the columns; false (columns freed) when `abort` turned true on the way (checked between columns).
  bool Prepare(const TableExtent& extent, int64_t rows, const std::atomic<bool>* abort = nullptr);
  size_t Slot(int64_t rowid) { return dense ? static_cast<size_t>(rowid - base_rowid) : next_slot++; }
  // Whether every slot of rowids [first, last] was reached (dense staging only).
  bool Complete(int64_t first, int64_t last) const;
  // Forgets what a reader stored for rowids [first, last], before another reader reads them again. In append mode
  // it forgets every row: a part that was interrupted (a cancelled Require) and is run again must not append after
  // its first attempt's rows.
  void Reset(int64_t first, int64_t last);
};

// Extra per-table state of the kernel load: the launch configurations LoadKernelConfigs interns.
struct KernelStaging : Staging<KernelTable> {
  Dictionary<KernelConfig> configs;
};

// Extra per-table state of the NVTX load: the attributes the parts intern; marks arrive in any part.
struct NvtxStaging : Staging<NvtxTable> {
  Dictionary<NvtxAttributes> attributes;
  std::mutex marks_mu;
  std::vector<std::pair<int64_t, NvtxMarkTable>> mark_parts;  // by the part's first rowid
};

Status LoadKernelPart(PartContext& ctx, RowidRange range, KernelStaging& stg);
// The launch configurations of the kernel rows Finalize left in `t`, read part by part as the rows were: each
// row's `config` turns from its staging slot into an index into `t.configs` (canonical, as for any dictionary).
Status LoadKernelConfigs(PartContext& ctx, KernelStaging& stg, int64_t rows_per_part, KernelTable& t);
Status LoadMemcpyPart(PartContext& ctx, RowidRange range, Staging<MemcpyTable>& stg);
Status LoadMemsetPart(PartContext& ctx, RowidRange range, Staging<MemsetTable>& stg);
Status LoadSyncPart(PartContext& ctx, RowidRange range, Staging<SyncTable>& stg);
Status LoadGraphPart(PartContext& ctx, RowidRange range, Staging<GraphTable>& stg);
Status LoadRuntimePart(PartContext& ctx, RowidRange range, Staging<RuntimeTable>& stg);
Status LoadOverheadPart(PartContext& ctx, RowidRange range, Staging<OverheadTable>& stg);
Status LoadNvtxPart(PartContext& ctx, RowidRange range, NvtxStaging& stg);

// Compacts (keeping the kSlotKept rows), sorts by (start, end) and sets max_duration. Returns the rows that were
// skipped or left unnamed (RowDamage::table is left to the caller).
RowDamage Finalize(KernelStaging& stg, KernelTable& out);
RowDamage Finalize(Staging<MemcpyTable>& stg, MemcpyTable& out);
RowDamage Finalize(Staging<MemsetTable>& stg, MemsetTable& out);
RowDamage Finalize(Staging<SyncTable>& stg, SyncTable& out);
RowDamage Finalize(Staging<GraphTable>& stg, GraphTable& out);
RowDamage Finalize(Staging<RuntimeTable>& stg, RuntimeTable& out);
RowDamage Finalize(Staging<OverheadTable>& stg, OverheadTable& out);
// Sorts by (start, end desc), resolves push/pop nesting (parent; depth is NvtxTable::Depth), canonicalizes the
// attributes dictionary and collects the marks.
RowDamage Finalize(NvtxStaging& stg, NvtxTable& out, NvtxMarkTable& marks);

// Sorts a part's rows by time as soon as they are read (dense staging: the part owns its slots), so Finalize merges
// sorted parts instead of sorting the table (table_ops.h's SortSlotRange and MergeSortedRuns).
template <typename Table>
void SortPart(Staging<Table>& stg, RowidRange range, bool end_descending) {
  if (!stg.dense || range.last < range.first) return;
  SortSlotRange(stg.table, stg.filled, kSlotKept, static_cast<size_t>(range.first - stg.base_rowid),
                static_cast<size_t>(range.last - stg.base_rowid + 1), end_descending);
}

// Counts the slot states into `damage` and turns `filled` into the keep mask CompactTable wants.
void CountSlots(std::vector<uint8_t>& filled, bool dense, RowDamage& damage);

// A string id column's StrId: NULL, or an id StringIds lacks, gives 0 (the empty string), never string id 0's text.
template <typename Row>
StrId NameOf(const Row& row, int col, const StringIdMap& ids) {
  return row.IsNull(col) ? 0 : ids.Lookup(row.Int(col));
}

// "aten::mm, op_id = 317126" -> ("aten::mm", 317126); any other text -> (text, -1). Exact: FormatNvtxName()
// of the result is the input byte for byte.
std::pair<std::string_view, int64_t> SplitOpId(std::string_view text);
std::string FormatNvtxName(std::string_view name, int64_t op_id);

}  // namespace nsys::engine
