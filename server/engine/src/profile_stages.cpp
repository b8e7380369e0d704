// Stage task bodies: prepare (or restore from the snapshot), load parts, finalize, link; and the snapshot write.
#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cache_budget.h"
#include "profile_impl.h"
#include "step_timer.h"

namespace nsys::engine {
namespace {

bool StartsWithNccl(std::string_view s) {
  return s.substr(0, 4) == "nccl";
}

// Whether any of `names` starts with "nccl" (each distinct id is checked once).
bool AnyNccl(const Column<StrId>& names, const StringPool& pool) {
  std::vector<uint8_t> seen(pool.size(), 0);
  for (StrId id : names) {
    if (id >= seen.size() || seen[id]) continue;
    seen[id] = 1;
    if (StartsWithNccl(pool.view(id))) return true;
  }
  return false;
}

// The columns a loader cannot do without; anything else may be missing (it reads as NULL).
Status CheckRequiredColumns(const Schema& schema, std::string_view table, const std::string& path) {
  const bool nvtx = table == kNvtxTable;
  for (std::string_view col : {std::string_view("start"), nvtx ? std::string_view("eventType") : "end"}) {
    if (!schema.HasColumn(table, col))
      return MakeError(ErrorKind::kBadInput,
                       fmt::format("'{}' has a {} table without a `{}` column: this export's schema is not supported.",
                                   path, table, col));
  }
  return {};
}

}  // namespace

Status ProfileImpl::EnsureSchema() {
  std::lock_guard<std::mutex> lock(schema_mu_);
  if (schema_ready_) return {};
  auto db = sql::Db::OpenReadOnly(db_path_);
  if (!db) return db.error();
  Status s = ProbeTablesAndStrings(*db, db_path_, info_.file_size, pool_, schema_, ids_);
  if (!s.ok()) return s;
  file_ = MapExportFile(db_path_);
  schema_ready_ = true;
  return s;
}

bool ProfileImpl::RestoreFromSnapshot(StageId id) {
  switch (id) {
    case kRuntimeLoad:
      return snapshot_->Restore(runtime_, info_.paged);
    case kKernelLoad:
      return snapshot_->Restore(kernels_, info_.paged);
    case kMemcpyLoad:
      return snapshot_->Restore(memcpys_, info_.paged);
    case kMemsetLoad:
      return snapshot_->Restore(memsets_, info_.paged);
    case kSyncLoad:
      return snapshot_->Restore(syncs_, info_.paged);
    case kGraphLoad:
      return snapshot_->Restore(graphs_, info_.paged);
    case kOverheadLoad:
      return snapshot_->Restore(overhead_, info_.paged);
    case kNvtxLoad:
      return snapshot_->Restore(nvtx_, info_.paged) && snapshot_->Restore(nvtx_marks_, info_.paged);
    default:
      return false;
  }
}

ProfileImpl::TaskResult ProfileImpl::PrepareLoad(StageId id) {
  TaskResult r;
  if (snapshot_ && !snapshot_broken_) {
    if (RestoreFromSnapshot(id)) {
      r.restored = true;
      return r;
    }
    snapshot_broken_ = true;  // this section and the ones not restored yet come from SQLite
    ClearStaging(id);
  }
  if (Status s = EnsureSchema(); !s.ok()) {
    r.status = s;
    return r;
  }
  const std::string& table = stages_[id].label;
  if (schema_.Has(table)) {
    if (Status s = CheckRequiredColumns(schema_, table, db_path_); !s.ok()) {
      r.status = s;
      return r;
    }
  }
  // An absent table loads as empty: no parts.
  const TableExtent extent = schema_.Has(table) ? schema_.Extent(table) : TableExtent{};
  const int64_t rows = schema_.Rows(table);
  const std::atomic<bool>* abort = &stages_[id].abort;
  bool prepared = true;
  switch (id) {
    case kRuntimeLoad:
      prepared = runtime_stage_.Prepare(extent, rows, abort);
      break;
    case kKernelLoad:
      prepared = kernel_stage_.Prepare(extent, rows, abort);
      break;
    case kMemcpyLoad:
      prepared = memcpy_stage_.Prepare(extent, rows, abort);
      break;
    case kMemsetLoad:
      prepared = memset_stage_.Prepare(extent, rows, abort);
      break;
    case kSyncLoad:
      prepared = sync_stage_.Prepare(extent, rows, abort);
      break;
    case kGraphLoad:
      prepared = graph_stage_.Prepare(extent, rows, abort);
      break;
    case kOverheadLoad:
      prepared = overhead_stage_.Prepare(extent, rows, abort);
      break;
    case kNvtxLoad:
      prepared = nvtx_stage_.Prepare(extent, rows, abort);
      break;
    default:
      break;
  }
  if (!prepared) {
    r.status = MakeError(ErrorKind::kCancelled, "Loading was cancelled.");
    return r;
  }
  r.parts = SplitRowids(extent, stages_[id].rows_per_part);
  return r;
}

Expected<PartContext> ProfileImpl::ContextFor(Worker& worker, StageId id) {
  if (!worker.db) {
    auto db = sql::Db::OpenReadOnly(db_path_);
    if (!db) return db.error();
    worker.db.emplace(std::move(*db));
  }
  Stage& stage = stages_[id];
  worker.db->WatchCancel(nullptr, &stage.abort);
  return PartContext{&*worker.db, file_.get(), &env_, &stage.rows_done, &stage.abort};
}

Status ProfileImpl::LoadPart(Worker& worker, StageId id, RowidRange range) {
  auto context = ContextFor(worker, id);
  if (!context) return context.error();
  PartContext& ctx = *context;
  switch (id) {
    case kRuntimeLoad:
      return LoadRuntimePart(ctx, range, runtime_stage_);
    case kKernelLoad:
      return LoadKernelPart(ctx, range, kernel_stage_);
    case kMemcpyLoad:
      return LoadMemcpyPart(ctx, range, memcpy_stage_);
    case kMemsetLoad:
      return LoadMemsetPart(ctx, range, memset_stage_);
    case kSyncLoad:
      return LoadSyncPart(ctx, range, sync_stage_);
    case kGraphLoad:
      return LoadGraphPart(ctx, range, graph_stage_);
    case kOverheadLoad:
      return LoadOverheadPart(ctx, range, overhead_stage_);
    case kNvtxLoad:
      return LoadNvtxPart(ctx, range, nvtx_stage_);
    default:
      return MakeError(ErrorKind::kInternal, "LoadPart on a stage that is not a table load.");
  }
}

ProfileImpl::TaskResult ProfileImpl::FinalizeLoad(StageId id) {
  TaskResult r;
  RowDamage damage;
  switch (id) {
    case kRuntimeLoad: {
      damage = Finalize(runtime_stage_, runtime_);
      // Build the (pid, correlationId) index here, while the other worker still reads GPU tables, so the
      // launch links that follow only resolve.
      StepTimer timer;
      auto index = std::make_shared<LaunchIndex>(runtime_);
      timer.Lap("runtime finalize: launch index");
      std::lock_guard<std::mutex> lock(launch_index_mu_);
      launch_index_ = std::move(index);
      break;
    }
    case kKernelLoad:
      damage = Finalize(kernel_stage_, kernels_);
      r.nccl = AnyNccl(kernels_.short_name, pool_);
      break;
    case kMemcpyLoad:
      damage = Finalize(memcpy_stage_, memcpys_);
      break;
    case kMemsetLoad:
      damage = Finalize(memset_stage_, memsets_);
      break;
    case kSyncLoad:
      damage = Finalize(sync_stage_, syncs_);
      break;
    case kGraphLoad:
      damage = Finalize(graph_stage_, graphs_);
      break;
    case kOverheadLoad:
      damage = Finalize(overhead_stage_, overhead_);
      break;
    case kNvtxLoad:
      damage = Finalize(nvtx_stage_, nvtx_, nvtx_marks_);
      r.nccl = AnyNccl(nvtx_.name, pool_);
      break;
    default:
      return r;
  }
  damage.table = stages_[id].label;
  info_.row_checks->Record(std::move(damage));
  return r;
}

Status ProfileImpl::RunLink(Worker& worker, StageId id) {
  auto restored = [this](std::initializer_list<StageId> ids) {
    for (StageId s : ids)
      if (!stages_[s].restored) return false;
    return true;
  };
  auto index = [this] {
    std::lock_guard<std::mutex> lock(launch_index_mu_);
    if (!launch_index_) launch_index_ = std::make_shared<LaunchIndex>(runtime_);
    return launch_index_;
  };
  switch (id) {
    case kKernelConfigs: {
      if (restored({kKernelLoad})) break;  // the snapshot holds them
      auto context = ContextFor(worker, id);
      if (!context) return context.error();
      return LoadKernelConfigs(*context, kernel_stage_, kKernelRowsPerPart, kernels_);
    }
    case kKernelLink:
      if (!restored({kKernelLoad, kRuntimeLoad}))
        index()->Resolve(kernels_.pid, kernels_.correlation_id, kernels_.launch);
      break;
    case kMemcpyLink:
      if (!restored({kMemcpyLoad, kRuntimeLoad}))
        index()->Resolve(memcpys_.pid, memcpys_.correlation_id, memcpys_.launch);
      break;
    case kMemsetLink:
      if (!restored({kMemsetLoad, kRuntimeLoad}))
        index()->Resolve(memsets_.pid, memsets_.correlation_id, memsets_.launch);
      break;
    case kSyncLink:
      if (!restored({kSyncLoad, kRuntimeLoad})) index()->Resolve(syncs_.pid, syncs_.correlation_id, syncs_.launch);
      break;
    case kGraphLink:
      if (!restored({kGraphLoad, kRuntimeLoad})) index()->Resolve(graphs_.pid, graphs_.correlation_id, graphs_.launch);
      break;
    case kAttributionLink:
      if (!restored({kKernelLoad, kRuntimeLoad, kNvtxLoad})) {
        ResolveRuntimeNvtx(runtime_, nvtx_);
        const AttributionCoverage c = ComputeCoverage(kernels_, runtime_);
        std::lock_guard<std::mutex> lock(mu_);
        coverage_ = c;
      }
      break;
    default:
      return MakeError(ErrorKind::kInternal, "RunLink on a stage that is not a link.");
  }
  return {};
}

void ProfileImpl::ClearStaging(StageId id) {
  switch (id) {
    case kRuntimeLoad:
      runtime_stage_ = {};
      runtime_ = {};
      break;
    case kKernelLoad:
      static_cast<Staging<KernelTable>&>(kernel_stage_) = {};
      kernel_stage_.configs.Clear();
      kernels_ = {};
      break;
    case kMemcpyLoad:
      memcpy_stage_ = {};
      memcpys_ = {};
      break;
    case kMemsetLoad:
      memset_stage_ = {};
      memsets_ = {};
      break;
    case kSyncLoad:
      sync_stage_ = {};
      syncs_ = {};
      break;
    case kGraphLoad:
      graph_stage_ = {};
      graphs_ = {};
      break;
    case kOverheadLoad:
      overhead_stage_ = {};
      overhead_ = {};
      break;
    case kNvtxLoad: {
      static_cast<Staging<NvtxTable>&>(nvtx_stage_) = {};
      nvtx_stage_.attributes.Clear();
      std::lock_guard<std::mutex> lock(nvtx_stage_.marks_mu);
      nvtx_stage_.mark_parts.clear();
      nvtx_ = {};
      nvtx_marks_ = {};
      break;
    }
    default:
      break;
  }
}

void ProfileImpl::MaybeWriteSnapshot(std::unique_lock<std::mutex>& lock) {
  if (snapshot_done_ || snapshot_writing_ || devices_pending_ || snapshot_path_.empty() || !identity_) return;
  bool all_restored = !snapshot_broken_;
  for (const Stage& s : stages_) {
    if (s.state != Stage::State::kDone) return;
    if (s.is_load) all_restored = all_restored && s.restored;
  }
  if (all_restored) {  // the snapshot on disk is this model already
    snapshot_done_ = true;
    return;
  }
  snapshot_writing_ = true;
  lock.unlock();
  SnapshotTables tables{&kernels_, &runtime_,    &memcpys_,  &memsets_, &syncs_,
                        &nvtx_,    &nvtx_marks_, &overhead_, coverage_, &graphs_};
  // A failed write (disk full, read-only cache dir) only costs the next open its warm start.
  if (WriteSnapshot(snapshot_path_, *identity_, info_, pool_, tables).ok()) {
    const std::string dir = std::filesystem::path(snapshot_path_).parent_path().string();
    for (const auto& gone : PruneSnapshots(dir, options_.cache_budget_bytes, snapshot_path_)) {
      if (trace_) std::fprintf(stderr, "nsys-ai engine: cache over budget, deleted %s\n", gone.c_str());
    }
  }
  lock.lock();
  snapshot_writing_ = false;
  snapshot_done_ = true;
}

}  // namespace nsys::engine
