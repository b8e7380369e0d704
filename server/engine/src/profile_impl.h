#pragma once
// The Profile implementation: the opened export, its tables, and the loader that fills them. Private.
//
// Loading is a small dependency graph of stages (table loads, then links between tables). A pool of
// `worker_threads` threads runs stage tasks: a load is split into rowid-range parts so that a table someone
// is waiting for overtakes background loads within one part (~0.1 s), and every worker has its own read-only
// connection. Require() marks the stages it needs (and their dependencies) as wanted in the foreground and
// waits; cancelling it aborts the stages nobody else wants (parts stop through SQLite's progress handler),
// and a later Require() starts them again.
#include <array>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "file_checks.h"
#include "link.h"
#include "loaders.h"
#include "nsys/engine/profile.h"
#include "query_pool.h"
#include "schema.h"
#include "snapshot.h"
#include "sqlite_db.h"

namespace nsys::engine {

// Rows a part of the kernel table's load reads; the launch configurations are read again in the same parts.
inline constexpr int64_t kKernelRowsPerPart = 131072;

enum StageId : int {
  kRuntimeLoad,
  kKernelLoad,
  kKernelConfigs,
  kKernelLink,
  kMemcpyLoad,
  kMemcpyLink,
  kMemsetLoad,
  kMemsetLink,
  kSyncLoad,
  kSyncLink,
  kGraphLoad,
  kGraphLink,
  kOverheadLoad,
  kNvtxLoad,
  kAttributionLink,
  kStageCount,
};

struct Stage {
  enum class State { kIdle, kPreparing, kLoading, kFinalizing, kDone, kFailed };
  State state = State::kIdle;
  std::string label;  // table name, or what the link computes
  std::vector<StageId> deps;
  bool is_load = false;
  int64_t rows_per_part = 0;
  std::vector<RowidRange> parts;
  std::vector<size_t> pending;  // part indices to run, in order; interrupted parts are appended again
  size_t next_part = 0;         // into `pending`
  size_t parts_done = 0;
  int in_flight = 0;        // tasks of this stage running now
  int waiters = 0;          // Require() calls that need it
  bool background = false;  // wanted by background loading
  bool restored = false;    // filled from the warm snapshot
  std::atomic<bool> abort{false};
  std::atomic<int64_t> rows_done{0};
  int64_t rows_total = 0;
  Error error;

  bool wanted() const { return waiters > 0 || background; }
  bool finished() const { return state == State::kDone || state == State::kFailed; }
};

// What the event tables' columns take in memory: rows (as the export counts them) times the row's column widths.
uint64_t ModelBytes(const ProfileInfo& info);

class ProfileImpl final : public Profile {
 public:
  explicit ProfileImpl(OpenOptions options);
  ~ProfileImpl() override;

  const ProfileInfo& info() const override { return info_; }
  const StringPool& strings() const override { return pool_; }
  Status Require(Need needs, const CancelToken& cancel, const ProgressSink& progress) override;
  const KernelTable& kernels() const override { return kernels_; }
  const RuntimeTable& runtime() const override { return runtime_; }
  const MemcpyTable& memcpys() const override { return memcpys_; }
  const MemsetTable& memsets() const override { return memsets_; }
  const SyncTable& syncs() const override { return syncs_; }
  const GraphTable& graphs() const override { return graphs_; }
  const NvtxTable& nvtx() const override { return nvtx_; }
  const NvtxMarkTable& nvtx_marks() const override { return nvtx_marks_; }
  const OverheadTable& overhead() const override { return overhead_; }
  AttributionCoverage coverage() const override;
  std::string NvtxFullName(int32_t row) const override;
  Expected<SqlResult> Query(const std::string& sql, const CancelToken& cancel,
                            const QueryLimits& limits) const override;
  Expected<SqlResult> Query(const std::string& sql, const SqlParams& params, const CancelToken& cancel,
                            const QueryLimits& limits) const override;

  // Set up by Open() before the first Require().
  ProfileInfo info_;
  StringPool pool_;
  Schema schema_;
  StringIdMap ids_;
  std::string db_path_;
  std::optional<FileIdentity> identity_;  // set when the cache is on
  std::string snapshot_path_;             // empty when the cache is off
  std::unique_ptr<SnapshotReader> snapshot_;
  bool schema_ready_ = false;         // schema_ and ids_ are filled (guarded by schema_mu_ after Start())
  std::unique_ptr<ExportFile> file_;  // the page reader (null: SQLite reads every row); set with schema_
  AttributionCoverage coverage_;
  bool devices_pending_ = false;  // AddKernelDevices has yet to complete info_.devices: no snapshot before it (mu_)

  // Builds the stage graph from the schema (or the snapshot), decides whether the tables are paged (the memory
  // budget) and starts background loading if asked.
  void Start();
  // Open()'s last step when the probe left the kernel table's devices to the load (ProbeResult).
  Status AddKernelDevices(const CancelToken& cancel, const ProgressSink& progress);

 private:
  struct Task {
    enum class Kind { kNothing, kPrepare, kPart, kFinalize, kRun } kind = Kind::kNothing;
    StageId stage = kStageCount;
    size_t part = 0;
  };
  struct TaskResult {
    Status status;
    bool restored = false;          // kPrepare: the table came from the snapshot
    std::vector<RowidRange> parts;  // kPrepare: the parts to load from SQLite
    bool nccl = false;              // kFinalize: NCCL kernels or ranges seen
  };
  struct Worker {
    std::thread thread;
    std::optional<sql::Db> db;
  };

  void WorkerLoop(size_t index);
  Task PickTask();                   // needs mu_
  bool Ready(const Stage& s) const;  // deps done; needs mu_
  std::optional<Error> DepError(const Stage& s) const;
  static TaskResult StatusOnly(Status status);  // a result that carries only a status
  TaskResult RunTask(Worker& worker, const Task& task);
  void CompleteTask(const Task& task, TaskResult result);  // needs mu_
  void EnsureWorkers();                                    // needs mu_
  // Writes the snapshot once everything is loaded (releases the lock while writing); needs mu_.
  void MaybeWriteSnapshot(std::unique_lock<std::mutex>& lock);

  // Task bodies (profile_stages.cpp), run without mu_.
  TaskResult PrepareLoad(StageId id);
  Status LoadPart(Worker& worker, StageId id, RowidRange range);
  Expected<PartContext> ContextFor(Worker& worker, StageId id);  // the worker's connection, watching the stage
  TaskResult FinalizeLoad(StageId id);
  Status RunLink(Worker& worker, StageId id);
  bool RestoreFromSnapshot(StageId id);
  Status EnsureSchema();          // the SQLite schema and string ids, when the snapshot let Open() skip them
  void ClearStaging(StageId id);  // frees a failed load's partial rows
  std::vector<StageId> Closure(Need needs) const;
  Expected<SqlResult> RunQuery(const std::string& sql, const SqlParams* params, const CancelToken& cancel,
                               const QueryLimits& limits) const;

  OpenOptions options_;
  SpillPolicy spill_;  // where the columns go when info_.paged (set by Start())
  const bool trace_;   // NSYS_ENGINE_TRACE set: task timings on stderr (for scripts/bench)
  LoadEnv env_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::array<Stage, kStageCount> stages_;
  std::vector<std::unique_ptr<Worker>> workers_;
  bool stopping_ = false;
  bool snapshot_done_ = false;  // written, or not to be written
  bool snapshot_writing_ = false;
  std::atomic<bool> snapshot_broken_{false};  // a section failed its check: load the rest from SQLite
  std::mutex schema_mu_;

  KernelStaging kernel_stage_;
  Staging<MemcpyTable> memcpy_stage_;
  Staging<MemsetTable> memset_stage_;
  Staging<SyncTable> sync_stage_;
  Staging<GraphTable> graph_stage_;
  Staging<RuntimeTable> runtime_stage_;
  Staging<OverheadTable> overhead_stage_;
  NvtxStaging nvtx_stage_;
  std::mutex launch_index_mu_;
  std::shared_ptr<LaunchIndex> launch_index_;

  KernelTable kernels_;
  RuntimeTable runtime_;
  MemcpyTable memcpys_;
  MemsetTable memsets_;
  SyncTable syncs_;
  GraphTable graphs_;
  NvtxTable nvtx_;
  NvtxMarkTable nvtx_marks_;
  OverheadTable overhead_;

  mutable QueryPool query_pool_;  // connections for Query()
};

}  // namespace nsys::engine
