#pragma once
// Opening an export and reaching its tables. Open() probes the schema and reads the small tables (metadata,
// strings, devices, processes, threads) synchronously; event tables load in the background on a worker pool.
// Callers that need tables call Require() first; the table accessors then return loaded, immutable data.
//
// Architecture Invariant: the user's file and its directory are never written. Connections are read-only
// (SQLITE_OPEN_READONLY, immutable=1 where safe, PRAGMA query_only); caches live under $XDG_CACHE_HOME/nsys-ai.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "nsys/engine/model.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "nsys/support/value.h"

namespace nsys::engine {

// Table groups that load (and are required) together. kKernels implies kRuntime because of correlation;
// kAttribution = kernels + runtime + NVTX with the launch/NVTX links resolved. kKernelRows is the kernel table
// alone, for answers that never look at launches (a kernel summary): its `launch` column is not valid until
// kKernels is required, and it does not wait for the runtime table (5.8M rows on the L benchmark export). Nor are
// its launch configurations (`config`, `configs`, Config()) valid until kKernelConfig or kKernels is required: the
// eleven columns behind them are a third of the kernel rows' load, and a summary by name reads none of them.
enum class Need : uint32_t {
  kKernels = 1u << 0,
  kRuntime = 1u << 1,
  kMemcpy = 1u << 2,
  kMemset = 1u << 3,
  kSync = 1u << 4,
  kNvtx = 1u << 5,
  kOverhead = 1u << 6,
  kAttribution = 1u << 7,
  kKernelRows = 1u << 8,
  kKernelConfig = 1u << 9,  // the kernel rows with their launch configurations (implies kKernelRows)
  kGraphs = 1u << 10,       // CUDA graph executions recorded whole; kKernels brings them too (GPU work as kernels are)
};
inline constexpr Need operator|(Need a, Need b) {
  return static_cast<Need>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
inline constexpr bool Has(Need set, Need bit) {
  return (static_cast<uint32_t>(set) & static_cast<uint32_t>(bit)) != 0;
}
inline constexpr Need kAllTables = static_cast<Need>(0x7FF);

// The export tables behind a set of needs ("CUPTI_ACTIVITY_KIND_KERNEL", ...).
std::vector<std::string> TablesOf(Need needs);
// One note per table behind `needs` that had rows skipped as damaged or left unnamed (info.row_checks), for the
// notes of an answer built from those tables. Call after Require(needs).
std::vector<std::string> DamageNotes(const ProfileInfo& info, Need needs);

struct OpenOptions {
  bool use_cache = true;  // read/write the warm snapshot under the cache dir
  std::string cache_dir;  // empty = $XDG_CACHE_HOME/nsys-ai (or ~/.cache/nsys-ai)
  // After writing a snapshot, the least recently used other snapshots are deleted until all fit in this budget.
  uint64_t cache_budget_bytes = uint64_t{20} << 30;
  bool load_all_in_background = true;  // start loading every event table right after open
  int worker_threads = 2;              // loader threads
  // The Nsight Systems CLI that converts .nsys-rep reports: a path, or a name looked up on PATH. Empty = the newest
  // `nsys` on PATH or in the standard install locations (nsys_search) that can read the report.
  std::string nsys_binary;
  // Glob patterns of `nsys` binaries searched besides PATH; empty = StandardNsysLocations() (nsys_rep.h).
  std::vector<std::string> nsys_search;
  // Memory the model may take (0 = no limit). An export whose columns would take more than half of it loads
  // into spill files in the cache directory and reopens as views of its warm snapshot: the OS pages the tables
  // (ProfileInfo::paged). The rest of the budget is the loads' working memory.
  uint64_t memory_budget_bytes = 0;
  uint64_t spill_threshold_bytes = uint64_t{4} << 20;  // when paged, columns from this size go to spill files
  // How often Require() reports progress; the editor shows at most a few updates a second anyway.
  std::chrono::milliseconds progress_interval{200};
};

// A result of a read-only SQL query (user skills, schema_inspect).
struct SqlResult {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
  int64_t total_rows = 0;  // rows the statement produced; more than rows.size() when max_rows capped it
  size_t bytes = 0;        // memory of `rows` as Query() counts it against max_result_bytes
};

// What one Query() may take. Hitting max_result_bytes or time_budget ends the query with kLimitExceeded, naming
// the limit and its value; max_rows only stops returning rows (the rest are counted).
struct QueryLimits {
  static constexpr size_t kDefaultResultBytes = size_t{64} << 20;
  int64_t max_rows = 100000;
  // Cells (sizeof(Value) each), the bytes of text values and each row's vector.
  size_t max_result_bytes = kDefaultResultBytes;
  std::chrono::milliseconds time_budget{0};  // 0 = none; measured from when the query has a connection
  std::string time_budget_hint;              // added to the time-limit message, e.g. "see --skill-timeout"
};

// "5 s", "0.25 s", "2 min": a duration as the limit messages write it.
std::string DescribeDuration(std::chrono::milliseconds duration);

class Profile {
 public:
  // Opens a .sqlite export (or converts a .nsys-rep with `nsys export` into the cache first).
  // Errors name the problem: missing file, directory, permission, not SQLite, not an Nsight Systems export.
  // An export that names no GPUs (no TARGET_INFO_GPU or TARGET_INFO_CUDA_GPU) has as devices those its GPU activity
  // names; the kernel table's come from loading its rows (kKernelRows, what the first answer needs anyway) rather
  // than from a scan of their own, so such an open returns with the kernel rows loaded.
  static Expected<std::shared_ptr<Profile>> Open(const std::string& path, const OpenOptions& options,
                                                 const ProgressSink& progress = {}, const CancelToken& cancel = {});
  virtual ~Profile() = default;

  virtual const ProfileInfo& info() const = 0;
  virtual const StringPool& strings() const = 0;

  // Blocks until the named tables are loaded (starting their loads if needed), reporting progress.
  // Returns the load's error (e.g. a truncated file) or kCancelled. Tables absent from the export load as empty.
  virtual Status Require(Need needs, const CancelToken& cancel = {}, const ProgressSink& progress = {}) = 0;

  // Valid only after a successful Require() of the matching Need.
  virtual const KernelTable& kernels() const = 0;
  virtual const RuntimeTable& runtime() const = 0;
  virtual const MemcpyTable& memcpys() const = 0;
  virtual const MemsetTable& memsets() const = 0;
  virtual const SyncTable& syncs() const = 0;
  virtual const GraphTable& graphs() const = 0;
  virtual const NvtxTable& nvtx() const = 0;
  virtual const NvtxMarkTable& nvtx_marks() const = 0;
  virtual const OverheadTable& overhead() const = 0;

  // Needs kAttribution.
  virtual AttributionCoverage coverage() const = 0;
  // Rebuilds an NVTX range's text as the export has it ("aten::mm, op_id = 317126").
  virtual std::string NvtxFullName(int32_t row) const = 0;

  // Runs one read-only statement on a query_only connection. Statements that write, ATTACH, set PRAGMAs or call a
  // function outside the analysis allow-list (core, aggregate, window, date/time, math and JSON functions) are
  // refused before they run. Queries run on a small pool of connections, so a slow one does not hold up others.
  virtual Expected<SqlResult> Query(const std::string& sql, const CancelToken& cancel = {},
                                    const QueryLimits& limits = {}) const = 0;

  // The same with named parameters (":name" in the SQL, key "name"), bound with sqlite3_bind_* so that values are
  // never spliced into the text (user skills' arguments). Parameters the statement does not use are ignored; a
  // parameter it uses but `params` lacks binds NULL.
  using SqlParams = std::map<std::string, Value>;
  virtual Expected<SqlResult> Query(const std::string& sql, const SqlParams& params, const CancelToken& cancel,
                                    const QueryLimits& limits = {}) const = 0;

  // Data a higher layer derives from the loaded (immutable) tables, such as the skills' index of NVTX rows by group,
  // computed once and kept as long as the profile. The first call for `key` runs `make`; a non-null result is kept
  // and returned to every later call. Calls for one key are serialised: a second caller waits for the first's
  // result. A null result (cancelled, failed) is not kept, so the next call tries again.
  using DerivedMaker = std::function<std::shared_ptr<const void>()>;
  std::shared_ptr<const void> Derived(const std::string& key, const DerivedMaker& make) const;

 private:
  struct DerivedSlot {
    std::mutex mu;  // held while the slot's value is made
    std::shared_ptr<const void> value;
  };
  mutable std::mutex derived_mu_;
  mutable std::map<std::string, std::shared_ptr<DerivedSlot>> derived_;
};

}  // namespace nsys::engine
