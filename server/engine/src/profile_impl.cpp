// The loader's scheduler: stage graph, worker pool, Require() with progress and cancellation.
#include "profile_impl.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "nsys/support/cache_dir.h"
#include "nsys/support/log.h"
#include "nsys/support/path_text.h"
#include "table_ops.h"

namespace nsys::engine {
namespace {

std::string Count(int64_t n) {
  if (n >= 1000000) return fmt::format("{:.1f}M", static_cast<double>(n) / 1e6);
  if (n >= 10000) return fmt::format("{}k", n / 1000);
  return std::to_string(n);
}

double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

constexpr auto kPollInterval = std::chrono::milliseconds(20);

}  // namespace

ProfileImpl::TaskResult ProfileImpl::StatusOnly(Status status) {
  TaskResult r;
  r.status = std::move(status);
  return r;
}

ProfileImpl::ProfileImpl(OpenOptions options)
    : options_(std::move(options)), trace_(std::getenv("NSYS_ENGINE_TRACE") != nullptr) {}

ProfileImpl::~ProfileImpl() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (Stage& s : stages_) s.abort = true;
  }
  cv_.notify_all();
  for (auto& w : workers_)
    if (w->thread.joinable()) w->thread.join();
  // A one-shot run that loaded everything still leaves a warm cache behind.
  std::unique_lock<std::mutex> lock(mu_);
  MaybeWriteSnapshot(lock);
}

namespace {
template <typename Table>
uint64_t RowWidth() {
  Table t;
  uint64_t width = 0;
  ForEachColumn(t, [&width](auto& col) { width += sizeof(col[0]); });
  return width;
}
}  // namespace

uint64_t ModelBytes(const ProfileInfo& info) {
  const auto rows = [&info](std::string_view table) {
    return static_cast<uint64_t>(std::max<int64_t>(0, info.rows(table)));
  };
  return rows(kKernelTable) * RowWidth<KernelTable>() + rows(kRuntimeTable) * RowWidth<RuntimeTable>() +
         rows(kMemcpyTable) * RowWidth<MemcpyTable>() + rows(kMemsetTable) * RowWidth<MemsetTable>() +
         rows(kSyncTable) * RowWidth<SyncTable>() + rows(kGraphTable) * RowWidth<GraphTable>() +
         rows(kNvtxTable) * RowWidth<NvtxTable>() + rows(kOverheadTable) * RowWidth<OverheadTable>();
}

void ProfileImpl::Start() {
  env_ = LoadEnv{db_path_, &schema_, &ids_, &pool_};
  info_.model_bytes = static_cast<int64_t>(ModelBytes(info_));
  if (options_.memory_budget_bytes > 0 && static_cast<uint64_t>(info_.model_bytes) > options_.memory_budget_bytes / 2) {
    // Paged only when the columns can really leave memory: spill files in the cache, or views of a warm snapshot.
    // Otherwise the tables are held in memory, and the log and `paged: false` say so rather than claim paging.
    const std::string cache = support::ResolveCacheDir(options_.cache_dir);
    const std::string dir = cache.empty() ? std::string() : cache + "/spill";
    if (!dir.empty() && (snapshot_ || CanSpillTo(dir))) {
      spill_.dir = dir;
      spill_.min_bytes = static_cast<size_t>(options_.spill_threshold_bytes);
      info_.paged = true;
    } else {
      support::LogWarn(fmt::format(
          "{}: its tables ({} bytes) are over half the memory budget, but {}: they are held in memory",
          support::QuoteInput(info_.path), info_.model_bytes,
          dir.empty() ? "there is no cache directory" : "no spill file can be made in " + support::QuoteInput(dir)));
    }
  }
  struct Def {
    StageId id;
    std::string_view table;  // load stages
    const char* label;       // link stages
    std::vector<StageId> deps;
    int64_t rows_per_part;
  };
  // Parts of ~0.1 s: small enough that a table someone waits for overtakes background loads quickly.
  const Def defs[] = {
      {kRuntimeLoad, kRuntimeTable, nullptr, {}, 262144},
      {kKernelLoad, kKernelTable, nullptr, {}, kKernelRowsPerPart},
      {kKernelConfigs, {}, "kernel launch configurations", {kKernelLoad}, 0},
      {kKernelLink, {}, "kernel launch links", {kKernelConfigs, kRuntimeLoad}, 0},
      {kMemcpyLoad, kMemcpyTable, nullptr, {}, 262144},
      {kMemcpyLink, {}, "memcpy launch links", {kMemcpyLoad, kRuntimeLoad}, 0},
      {kMemsetLoad, kMemsetTable, nullptr, {}, 262144},
      {kMemsetLink, {}, "memset launch links", {kMemsetLoad, kRuntimeLoad}, 0},
      {kSyncLoad, kSyncTable, nullptr, {}, 262144},
      {kSyncLink, {}, "synchronization launch links", {kSyncLoad, kRuntimeLoad}, 0},
      {kGraphLoad, kGraphTable, nullptr, {}, 262144},
      {kGraphLink, {}, "graph launch links", {kGraphLoad, kRuntimeLoad}, 0},
      {kOverheadLoad, kOverheadTable, nullptr, {}, 262144},
      {kNvtxLoad, kNvtxTable, nullptr, {}, 262144},
      {kAttributionLink, {}, "NVTX attribution", {kKernelLink, kNvtxLoad}, 0},
  };
  size_t tables = 0;
  for (const Def& d : defs) tables += !d.table.empty();
  info_.row_checks->Expect(tables);
  std::lock_guard<std::mutex> lock(mu_);
  for (const Def& d : defs) {
    Stage& s = stages_[d.id];
    s.is_load = !d.table.empty();
    s.label = s.is_load ? std::string(d.table) : d.label;
    s.deps = d.deps;
    s.rows_per_part = d.rows_per_part;
    s.rows_total = s.is_load ? info_.rows(d.table) : 0;
  }
  if (options_.load_all_in_background) {
    for (Stage& s : stages_) s.background = true;
    EnsureWorkers();
    cv_.notify_all();
  }
}

void ProfileImpl::EnsureWorkers() {
  if (!workers_.empty()) return;
  const int n = std::max(1, options_.worker_threads);
  for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>());
  for (int i = 0; i < n; ++i) workers_[i]->thread = std::thread([this, i] { WorkerLoop(static_cast<size_t>(i)); });
}

std::vector<StageId> ProfileImpl::Closure(Need needs) const {
  const std::pair<Need, StageId> roots[] = {
      {Need::kKernels, kKernelLink},    {Need::kKernels, kGraphLink},
      {Need::kGraphs, kGraphLink},      {Need::kRuntime, kRuntimeLoad},
      {Need::kMemcpy, kMemcpyLink},     {Need::kMemset, kMemsetLink},
      {Need::kSync, kSyncLink},         {Need::kNvtx, kNvtxLoad},
      {Need::kOverhead, kOverheadLoad}, {Need::kAttribution, kAttributionLink},
      {Need::kKernelRows, kKernelLoad}, {Need::kKernelConfig, kKernelConfigs},
  };
  std::array<bool, kStageCount> in{};
  std::vector<StageId> todo;
  for (auto [need, stage] : roots)
    if (Has(needs, need)) todo.push_back(stage);
  while (!todo.empty()) {
    const StageId id = todo.back();
    todo.pop_back();
    if (in[id]) continue;
    in[id] = true;
    for (StageId d : stages_[id].deps) todo.push_back(d);
  }
  std::vector<StageId> out;
  for (int i = 0; i < kStageCount; ++i)
    if (in[i]) out.push_back(static_cast<StageId>(i));
  return out;
}

bool ProfileImpl::Ready(const Stage& s) const {
  for (StageId d : s.deps)
    if (stages_[d].state != Stage::State::kDone) return false;
  return true;
}

std::optional<Error> ProfileImpl::DepError(const Stage& s) const {
  for (StageId d : s.deps) {
    if (stages_[d].state == Stage::State::kFailed) return stages_[d].error;
    if (auto e = DepError(stages_[d])) return e;
  }
  return std::nullopt;
}

ProfileImpl::Task ProfileImpl::PickTask() {
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < kStageCount; ++i) {
      Stage& s = stages_[i];
      const bool wanted = pass == 0 ? s.waiters > 0 : s.background;
      if (!wanted || s.finished()) continue;
      if (auto e = DepError(s)) {
        s.state = Stage::State::kFailed;
        s.error = *e;
        cv_.notify_all();
        continue;
      }
      if (!Ready(s)) continue;
      const auto id = static_cast<StageId>(i);
      switch (s.state) {
        case Stage::State::kIdle:
          s.state = s.is_load ? Stage::State::kPreparing : Stage::State::kLoading;
          ++s.in_flight;
          return Task{s.is_load ? Task::Kind::kPrepare : Task::Kind::kRun, id, 0};
        case Stage::State::kLoading:
          if (!s.is_load || s.abort) continue;
          if (s.next_part < s.pending.size()) {
            ++s.in_flight;
            return Task{Task::Kind::kPart, id, s.pending[s.next_part++]};
          }
          if (s.parts_done == s.parts.size() && s.in_flight == 0) {
            s.state = Stage::State::kFinalizing;
            ++s.in_flight;
            return Task{Task::Kind::kFinalize, id, 0};
          }
          continue;
        default:
          continue;
      }
    }
  }
  return Task{};
}

void ProfileImpl::WorkerLoop(size_t index) {
  Worker& worker = *workers_[index];
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    Task task = PickTask();
    if (task.kind == Task::Kind::kNothing) {
      MaybeWriteSnapshot(lock);
      if (stopping_) break;
      cv_.wait(lock);
      continue;
    }
    lock.unlock();
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = ThreadCpuMs();
    TaskResult result = RunTask(worker, task);
    if (trace_) {
      static const char* const kKinds[] = {"-", "prepare", "part", "finalize", "run"};
      fmt::print(stderr, "[engine] {} {} {} wall {:.1f} ms cpu {:.1f} ms\n", stages_[task.stage].label,
                 kKinds[static_cast<int>(task.kind)], task.part,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count(),
                 ThreadCpuMs() - cpu_started);
    }
    lock.lock();
    CompleteTask(task, std::move(result));
    cv_.notify_all();
  }
}

ProfileImpl::TaskResult ProfileImpl::RunTask(Worker& worker, const Task& task) {
  const ScopedSpill spill(info_.paged ? &spill_ : nullptr);
  try {
    switch (task.kind) {
      case Task::Kind::kPrepare:
        return PrepareLoad(task.stage);
      case Task::Kind::kPart:
        return StatusOnly(LoadPart(worker, task.stage, stages_[task.stage].parts[task.part]));
      case Task::Kind::kFinalize:
        return FinalizeLoad(task.stage);
      case Task::Kind::kRun:
        return StatusOnly(RunLink(worker, task.stage));
      case Task::Kind::kNothing:
        break;
    }
  } catch (const std::bad_alloc&) {
    return StatusOnly(
        MakeError(ErrorKind::kInternal, fmt::format("Out of memory while loading {}.", stages_[task.stage].label)));
  } catch (const std::exception& e) {
    return StatusOnly(
        MakeError(ErrorKind::kInternal, fmt::format("Loading {} failed: {}.", stages_[task.stage].label, e.what())));
  }
  return TaskResult{};
}

void ProfileImpl::CompleteTask(const Task& task, TaskResult result) {
  Stage& s = stages_[task.stage];
  --s.in_flight;
  if (result.nccl) info_.caps.nccl = true;
  const bool interrupted = !result.status.ok() && result.status.error().kind == ErrorKind::kCancelled && s.abort;
  if (!result.status.ok() && !interrupted) {
    if (s.state != Stage::State::kFailed) {
      s.state = Stage::State::kFailed;
      s.error = result.status.error();
      s.abort = true;  // stop the other parts of this table
    }
  } else if (s.state != Stage::State::kFailed) {
    switch (task.kind) {
      case Task::Kind::kPrepare:
        if (interrupted) {
          s.state = Stage::State::kIdle;  // nothing was kept; a later Require() prepares again
        } else if (result.restored) {
          s.restored = true;
          s.rows_done = s.rows_total;
          s.state = Stage::State::kDone;
        } else {
          s.parts = std::move(result.parts);
          s.pending.clear();
          for (size_t i = 0; i < s.parts.size(); ++i) s.pending.push_back(i);
          s.next_part = 0;
          s.parts_done = 0;
          s.state = Stage::State::kLoading;
        }
        break;
      case Task::Kind::kPart:
        if (interrupted) {
          s.pending.push_back(task.part);  // resumed by a later Require()
        } else {
          ++s.parts_done;
        }
        break;
      case Task::Kind::kFinalize:
        s.state = Stage::State::kDone;
        break;
      case Task::Kind::kRun:
        s.state = interrupted ? Stage::State::kIdle : Stage::State::kDone;  // an interrupted run starts over
        break;
      case Task::Kind::kNothing:
        break;
    }
  }
  if (s.in_flight == 0) {
    if (s.state == Stage::State::kFailed) ClearStaging(task.stage);
    if (s.abort && !stopping_ && s.state != Stage::State::kFailed)
      s.abort = false;  // interrupted parts are queued again
  }
  if (stages_[kKernelLink].state == Stage::State::kDone && stages_[kMemcpyLink].state == Stage::State::kDone &&
      stages_[kMemsetLink].state == Stage::State::kDone && stages_[kSyncLink].state == Stage::State::kDone) {
    std::lock_guard<std::mutex> index_lock(launch_index_mu_);
    launch_index_.reset();
  }
}

Status ProfileImpl::Require(Need needs, const CancelToken& cancel, const ProgressSink& progress) {
  const std::vector<StageId> ids = Closure(needs);
  std::unique_lock<std::mutex> lock(mu_);
  for (StageId id : ids) ++stages_[id].waiters;
  EnsureWorkers();
  cv_.notify_all();
  auto release = [&] {
    for (StageId id : ids) --stages_[id].waiters;
  };
  const auto progress_interval = options_.progress_interval;
  auto last_report = std::chrono::steady_clock::now() - progress_interval;
  while (true) {
    bool all_done = true;
    for (StageId id : ids) {
      const Stage& s = stages_[id];
      if (s.state == Stage::State::kFailed) {
        Error e = s.error;
        release();
        return e;
      }
      if (s.state != Stage::State::kDone) all_done = false;
    }
    if (all_done) {
      release();
      lock.unlock();
      if (progress) progress(100.0, "loaded");
      return {};
    }
    if (cancel.cancelled()) {
      release();
      std::vector<std::string> stopped;
      for (StageId id : ids) {
        Stage& s = stages_[id];
        if (s.finished() || s.waiters > 0) continue;
        s.background = false;  // the user said stop: background loading does not resume it either
        const bool running = s.state == Stage::State::kLoading || s.state == Stage::State::kPreparing;
        if (s.is_load && running && s.in_flight > 0) s.abort = true;
        stopped.push_back(s.label);
      }
      cv_.notify_all();
      return MakeError(ErrorKind::kCancelled, fmt::format("Loading was cancelled{}{}.", stopped.empty() ? "" : ": ",
                                                          fmt::join(stopped, ", ")));
    }
    const auto now = std::chrono::steady_clock::now();
    if (progress && now - last_report >= progress_interval) {
      last_report = now;
      int64_t done = 0, total = 0;
      std::string message;
      for (StageId id : ids) {
        const Stage& s = stages_[id];
        if (!s.is_load) continue;
        const int64_t t = std::max<int64_t>(s.rows_total, 1);
        const int64_t d = s.state == Stage::State::kDone ? t : std::min(s.rows_done.load(), t);
        total += t;
        done += d;
        if (!message.empty() || s.state == Stage::State::kDone) continue;
        if (snapshot_ && !snapshot_broken_) {
          message = fmt::format("{} from the warm cache", s.label);
        } else if (s.state == Stage::State::kLoading) {
          message = fmt::format("{} {}/{} rows", s.label, Count(d), Count(s.rows_total));
        } else if (s.state == Stage::State::kFinalizing) {
          message = fmt::format("{}: sorting {} rows", s.label, Count(s.rows_total));
        } else {
          message = fmt::format("{}: starting", s.label);
        }
      }
      if (message.empty()) message = "linking tables";
      const double pct = total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0.0;
      lock.unlock();
      progress(std::min(pct, 99.0), message);
      lock.lock();
      continue;
    }
    cv_.wait_for(lock, std::min<std::chrono::milliseconds>(kPollInterval, progress_interval));
  }
}

}  // namespace nsys::engine
