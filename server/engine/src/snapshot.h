#pragma once
// The warm reopen cache: a binary snapshot of a fully loaded model, keyed by the export's identity.
//
// Layout: a header (magic, format version, the export's FileIdentity, a hash of the header), a table of
// sections (offset, size, hash), then the sections: the ProfileInfo, the string pool, and one section per
// model table with its columns as raw arrays. Written to a temp file and renamed (atomic); read through mmap,
// one section at a time, so the first answer only copies the tables it needs. A profile under a memory budget
// copies nothing: its columns are views of the mapping (copy-on-write), paged in and out by the OS. Every section is
// hashed: a damaged or truncated snapshot is ignored section by section, and the engine falls back to SQLite.
#include <cstdint>
#include <memory>
#include <string>

#include "file_checks.h"
#include "nsys/engine/model.h"
#include "nsys/support/expected.h"

namespace nsys::engine {

// 2: damaged-row report, ctime and sampled pages in the key; 3: dictionaries; 4: a device's SM count from its model; 5:
// a sync record's eventId and eventSyncId; 6: CUDA graph executions, and a kernel's graph in its configuration; 7: a
// unified-memory migration's cause
inline constexpr uint32_t kSnapshotFormatVersion = 7;

enum class SnapshotSection : uint32_t {
  kInfo = 0,
  kStrings,
  kKernels,
  kRuntime,
  kMemcpy,
  kMemset,
  kSync,
  kNvtx,
  kNvtxMarks,
  kOverhead,
  kGraphs,
  kCount,
};

struct SnapshotTables {
  const KernelTable* kernels = nullptr;
  const RuntimeTable* runtime = nullptr;
  const MemcpyTable* memcpys = nullptr;
  const MemsetTable* memsets = nullptr;
  const SyncTable* syncs = nullptr;
  const NvtxTable* nvtx = nullptr;
  const NvtxMarkTable* nvtx_marks = nullptr;
  const OverheadTable* overhead = nullptr;
  AttributionCoverage coverage;
  const GraphTable* graphs = nullptr;
};

class SnapshotReader {
 public:
  // nullptr when the file is absent, of another format version, for another export, or damaged.
  static std::unique_ptr<SnapshotReader> Open(const std::string& file, const FileIdentity& identity);
  ~SnapshotReader();
  SnapshotReader(const SnapshotReader&) = delete;
  SnapshotReader& operator=(const SnapshotReader&) = delete;

  // Info (paths are left to the caller), the string pool (into an empty pool) and the coverage.
  bool ReadInfo(ProfileInfo& info, StringPool& pool, AttributionCoverage& coverage) const;
  // Each returns false (leaving the table empty) when its section is missing or damaged. `view`: the columns
  // point into the mapping (which they keep alive) instead of holding a copy.
  bool Restore(KernelTable& t, bool view = false) const;
  bool Restore(RuntimeTable& t, bool view = false) const;
  bool Restore(MemcpyTable& t, bool view = false) const;
  bool Restore(MemsetTable& t, bool view = false) const;
  bool Restore(SyncTable& t, bool view = false) const;
  bool Restore(GraphTable& t, bool view = false) const;
  bool Restore(NvtxTable& t, bool view = false) const;
  bool Restore(NvtxMarkTable& t, bool view = false) const;
  bool Restore(OverheadTable& t, bool view = false) const;

 private:
  SnapshotReader() = default;
  struct Span {
    const unsigned char* data = nullptr;
    size_t size = 0;
  };
  Span Section(SnapshotSection id) const;  // empty when damaged
  template <typename Table>
  bool RestoreTable(SnapshotSection id, Table& t, bool view) const;

  std::shared_ptr<const void> mapping_;  // the whole file, mapped copy-on-write; shared with column views
  const unsigned char* map_ = nullptr;
  size_t map_size_ = 0;
  struct Entry {
    uint64_t offset, size, hash;
  };
  Entry entries_[static_cast<size_t>(SnapshotSection::kCount)] = {};
};

// Writes atomically (temp file + rename). The snapshot is a cache: failures are reported but harmless.
Status WriteSnapshot(const std::string& file, const FileIdentity& identity, const ProfileInfo& info,
                     const StringPool& pool, const SnapshotTables& tables);

}  // namespace nsys::engine
