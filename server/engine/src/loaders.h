#pragma once
// Event table loaders. A table is read in parts (rowid ranges), each on its own read-only connection, into a
// staging table whose rows are addressed by rowid, so parts write disjoint slots without locks. Finalize()
// drops unused slots, sorts by time and derives per-table facts. Private to the engine.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "nsys/engine/expected.h"
#include "nsys/engine/model.h"
#include "page_reader.h"
#include "schema.h"
#include "sqlite_db.h"

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

template <typename Table>
struct Staging {
  Table table;
  std::vector<uint8_t> filled;  // 1 where a row was stored
  int64_t base_rowid = 0;
  bool dense = true;     // slot = rowid - base_rowid; otherwise one part appends in order
  size_t next_slot = 0;  // append mode only

  // Sizes the columns; false (columns freed) when `abort` turned true on the way (checked between columns).
  bool Prepare(const TableExtent& extent, int64_t rows, const std::atomic<bool>* abort = nullptr);
  size_t Slot(int64_t rowid) { return dense ? static_cast<size_t>(rowid - base_rowid) : next_slot++; }
};

// Extra per-table state of the NVTX load: marks arrive in any part.
struct NvtxStaging : Staging<NvtxTable> {
  std::mutex marks_mu;
  std::vector<std::pair<int64_t, NvtxMarkTable>> mark_parts;  // by the part's first rowid
};

Status LoadKernelPart(PartContext& ctx, RowidRange range, Staging<KernelTable>& stg);
Status LoadMemcpyPart(PartContext& ctx, RowidRange range, Staging<MemcpyTable>& stg);
Status LoadMemsetPart(PartContext& ctx, RowidRange range, Staging<MemsetTable>& stg);
Status LoadSyncPart(PartContext& ctx, RowidRange range, Staging<SyncTable>& stg);
Status LoadRuntimePart(PartContext& ctx, RowidRange range, Staging<RuntimeTable>& stg);
Status LoadOverheadPart(PartContext& ctx, RowidRange range, Staging<OverheadTable>& stg);
Status LoadNvtxPart(PartContext& ctx, RowidRange range, NvtxStaging& stg);

// Compacts, sorts by (start, end) and sets max_duration.
void Finalize(Staging<KernelTable>& stg, KernelTable& out);
void Finalize(Staging<MemcpyTable>& stg, MemcpyTable& out);
void Finalize(Staging<MemsetTable>& stg, MemsetTable& out);
void Finalize(Staging<SyncTable>& stg, SyncTable& out);
void Finalize(Staging<RuntimeTable>& stg, RuntimeTable& out);
void Finalize(Staging<OverheadTable>& stg, OverheadTable& out);
// Sorts by (start, end desc), resolves push/pop nesting (parent, depth) and collects the marks.
void Finalize(NvtxStaging& stg, NvtxTable& out, NvtxMarkTable& marks);

// "aten::mm, op_id = 317126" -> ("aten::mm", 317126); any other text -> (text, -1). Exact: FormatNvtxName()
// of the result is the input byte for byte.
std::pair<std::string_view, int64_t> SplitOpId(std::string_view text);
std::string FormatNvtxName(std::string_view name, int64_t op_id);

}  // namespace nsys::engine
