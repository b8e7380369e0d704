// Profile::Open: file checks, report (.nsys-rep, .qdrep) conversion, the warm snapshot or the SQLite probe.
#include <fmt/format.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cache_budget.h"
#include "file_checks.h"
#include "loaders.h"
#include "nsys/support/cache_dir.h"
#include "nsys/support/log.h"
#include "nsys_rep.h"
#include "profile_impl.h"

namespace nsys::engine {
namespace {

Error Cancelled() {
  return MakeError(ErrorKind::kCancelled, "Opening the profile was cancelled.");
}

// Opens through the snapshot when a valid one exists; nullptr otherwise.
std::shared_ptr<ProfileImpl> OpenFromSnapshot(const OpenOptions& options, const std::string& snapshot_path,
                                              const FileIdentity& identity) {
  auto reader = SnapshotReader::Open(snapshot_path, identity);
  if (!reader) return nullptr;
  auto impl = std::make_shared<ProfileImpl>(options);
  if (!reader->ReadInfo(impl->info_, impl->pool_, impl->coverage_)) return nullptr;
  impl->snapshot_ = std::move(reader);
  impl->info_.from_cache = true;
  TouchSnapshot(snapshot_path);  // recently used: the last to go when the cache is over budget
  return impl;
}

}  // namespace

Expected<std::shared_ptr<Profile>> Profile::Open(const std::string& path, const OpenOptions& options,
                                                 const ProgressSink& progress, const CancelToken& cancel) {
  std::string db_path = path;
  // A report (.nsys-rep, .qdrep, or any name) is known by its first bytes; a file named like one that is not one
  // gets CheckExportFile's "not a report" answer below.
  if (IsNsysReport(path)) {
    auto converted = ConvertNsysRep(path, options, progress, cancel);
    if (!converted) return converted.error();
    db_path = *converted;
  }
  if (Status s = CheckExportFile(db_path); !s.ok()) return s.error();
  if (cancel.cancelled()) return Cancelled();

  std::shared_ptr<ProfileImpl> impl;
  std::optional<FileIdentity> identity;
  std::string snapshot_path;
  std::string cache_dir;
  if (options.use_cache) {
    // Only a directory of this user's with mode 0700 is read or written, so another user can neither plant a
    // snapshot for us to load nor read ours. Without one the profile opens cold.
    auto private_dir = support::PrivateCacheDir(options.cache_dir);
    if (private_dir)
      cache_dir = *private_dir;
    else
      support::LogWarn(private_dir.error().message + " The profile opens without the warm cache.");
  }
  if (!cache_dir.empty()) {
    if (auto id = IdentifyFile(db_path)) {
      identity = *id;
      snapshot_path = fmt::format("{}/{}.snap", cache_dir, id->Key());
      impl = OpenFromSnapshot(options, snapshot_path, *identity);
    }
  }
  if (!impl) {
    auto db = sql::Db::OpenReadOnly(db_path);
    if (!db) return db.error();
    db->WatchCancel(&cancel, nullptr);
    impl = std::make_shared<ProfileImpl>(options);
    struct stat st {};
    const int64_t size = stat(db_path.c_str(), &st) == 0 ? st.st_size : 0;
    impl->file_ = MapExportFile(db_path);
    auto probe = ProbeExport(*db, db_path, size, impl->pool_, impl->file_.get(), /*kernels_later=*/true);
    if (!probe) return probe.error();
    // The kernel table's devices come from its loaded rows; until then no worker may write the snapshot.
    impl->devices_pending_ = probe->devices_from_kernel_load;
    impl->info_ = std::move(probe->info);
    impl->schema_ = std::move(probe->schema);
    impl->ids_ = std::move(probe->ids);
    impl->schema_ready_ = true;
  }
  struct stat st {};
  impl->info_.file_size = stat(db_path.c_str(), &st) == 0 ? st.st_size : 0;
  impl->info_.path = db_path;
  impl->info_.source_path = path;
  impl->db_path_ = db_path;
  impl->identity_ = identity;
  impl->snapshot_path_ = snapshot_path;
  impl->Start();
  if (impl->devices_pending_) {  // written only by this thread until Open returns
    if (Status s = impl->AddKernelDevices(cancel, progress); !s.ok()) return s.error();
  }
  if (progress) progress(100.0, "opened");
  return std::shared_ptr<Profile>(std::move(impl));
}

std::vector<std::string> TablesOf(Need needs) {
  const std::pair<Need, std::string_view> tables[] = {
      {Need::kKernels | Need::kKernelRows | Need::kKernelConfig | Need::kAttribution, kKernelTable},
      {Need::kKernels | Need::kRuntime | Need::kAttribution, kRuntimeTable},
      {Need::kMemcpy, kMemcpyTable},
      {Need::kMemset, kMemsetTable},
      {Need::kSync, kSyncTable},
      {Need::kKernels | Need::kGraphs, kGraphTable},
      {Need::kNvtx | Need::kAttribution, kNvtxTable},
      {Need::kOverhead, kOverheadTable},
  };
  std::vector<std::string> out;
  for (const auto& [any_of, table] : tables)
    if ((static_cast<uint32_t>(needs) & static_cast<uint32_t>(any_of)) != 0) out.emplace_back(table);
  return out;
}

std::vector<std::string> DamageNotes(const ProfileInfo& info, Need needs) {
  std::vector<std::string> notes;
  if (!info.row_checks) return notes;
  for (const std::string& table : TablesOf(needs)) {
    const auto damage = info.row_checks->Of(table);
    if (!damage || !damage->any()) continue;
    notes.push_back(fmt::format("Damaged data in {}: {}{}.", table, damage->Describe(),
                                damage->skipped() > 0 ? "; the numbers here leave the skipped rows out" : ""));
  }
  return notes;
}

// An export that names no GPUs has as its devices those its GPU activity names. The kernel table's are read from
// the loaded kernel rows, since the first answer almost always loads them (issue 41: a separate scan of its deviceId
// column was 80-100 ms of a 0.5 s first answer on the 2 GB export). When that load fails, the column is scanned,
// so a table the loader refuses still leaves the open as it was.
Status ProfileImpl::AddKernelDevices(const CancelToken& cancel, const ProgressSink& progress) {
  std::set<int32_t> ids;
  if (Status loaded = Require(Need::kKernelRows, cancel, progress); loaded.ok()) {
    int32_t last = INT32_MIN;
    for (size_t i = 0; i < kernels_.size(); ++i) {
      if ((i & 0xFFFFF) == 0 && cancel.cancelled()) return Cancelled();
      if (kernels_.device[i] != last) ids.insert(last = kernels_.device[i]);
    }
  } else if (cancel.cancelled()) {
    return Cancelled();
  } else {
    auto db = sql::Db::OpenReadOnly(db_path_);
    if (!db) return db.error();
    db->WatchCancel(&cancel, nullptr);
    std::vector<Device> scanned;
    std::lock_guard<std::mutex> schema_lock(schema_mu_);
    // On failure the open fails, and devices_pending_ keeps a snapshot from being written.
    if (Status s = ReadActivityDevices(*db, db_path_, schema_, file_.get(), {kKernelTable}, scanned); !s.ok()) return s;
    for (const Device& d : scanned) ids.insert(d.id);
  }
  // The workers may have loaded every table meanwhile: the snapshot they held back is written now, with the devices.
  std::unique_lock<std::mutex> lock(mu_);
  AddDevices(ids, info_.devices);
  devices_pending_ = false;
  MaybeWriteSnapshot(lock);
  return {};
}

AttributionCoverage ProfileImpl::coverage() const {
  std::lock_guard<std::mutex> lock(mu_);
  return coverage_;
}

std::string ProfileImpl::NvtxFullName(int32_t row) const {
  if (row < 0 || static_cast<size_t>(row) >= nvtx_.size()) return {};
  return FormatNvtxName(pool_.view(nvtx_.name[row]), nvtx_.op_id[row]);
}

}  // namespace nsys::engine
