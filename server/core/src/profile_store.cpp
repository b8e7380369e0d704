// The open profiles (stores.h): loads shared between opens of one unchanged file, their result memos and warm-ups.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nsys/support/log.h"
#include "stores.h"

namespace nsys::core {
namespace {

// What two opens must agree on to share one load. The file: device and inode name it; size, mtime and ctime (ns)
// change with every write to it, and ctime cannot be set back by a user, so an in-place rewrite that restores
// mtime (`rsync --inplace -t`) still gives a new key. And the options that change what loads: an open without the
// cache must not be answered by a profile read from a snapshot, background loading decides the warm-up, and the
// nsys binary decides what a .nsys-rep converts to (loader threads, progress interval and the cache's place and
// budget change only how). Empty when the file cannot be stat'ed: that open loads alone and the engine says why.
std::string LoadKeyOf(const std::string& path, const engine::OpenOptions& options) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  const auto ns = [](const timespec& t) { return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; };
  return fmt::format("{}:{}:{}:{}:{}|cache={} background={} nsys={}", st.st_dev, st.st_ino, st.st_size, ns(st.st_mtim),
                     ns(st.st_ctim), options.use_cache, options.load_all_in_background, options.nsys_binary);
}

Error TooManyProfiles(size_t limit, const char* what) {
  return MakeError(ErrorKind::kLimitExceeded,
                   fmt::format("too many open profiles (limit {} {}): close one with nsys/closeProfile", limit, what));
}

// How often an open waiting for another one's load of the same file looks at its own cancel token.
constexpr std::chrono::milliseconds kAwaitPoll{50};

// Lowers the calling thread's priority: warm-up must not slow the requests a user is waiting for.
void LowerThisThreadsPriority() {
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  setpriority(PRIO_PROCESS, tid, 10);
}

// The warm-up thread's work: the calls into the memo (unless a client asked first), then the mapping coverage.
void WarmUp(const std::shared_ptr<engine::Profile>& profile, const std::shared_ptr<skills::ResultMemo>& memo,
            const std::shared_ptr<CoverageSlot>& coverage, const CancelToken& cancel, const WarmSkills& calls) {
  LowerThisThreadsPriority();
  engine::Need needs{};
  for (const auto& [skill, args] : calls) needs = needs | skill->needs();
  // Waits for the background loads (it does not start any the open did not start: warm-up only runs when the
  // profile loads everything in the background).
  if (!profile->Require(needs, cancel).ok()) return;
  for (const auto& [skill, args] : calls) {
    if (cancel.cancelled()) return;
    if (memo->Contains(skill, args)) continue;  // a client asked first
    const auto t0 = std::chrono::steady_clock::now();
    // The warm-up runs at low priority, so on a busy machine its wall time stretches: a request's 5 s budget would
    // drop a warm call there (seen under the sanitizers with builds beside them, 10 s per call). Its built-in calls
    // take at most 1.2 s each on the 2 GB export on a free machine; a minute bounds them, and closing the profile
    // cancels them.
    skills::RunOptions options;
    options.user_skill_timeout = std::chrono::minutes(1);
    auto table = skills::Run(*skill, *profile, args, cancel, {}, options);
    if (!table) continue;  // cancelled, or an error the user will see when they ask
    memo->Store(skill, args, std::make_shared<const skills::Table>(std::move(*table)));
    support::LogDebug(
        fmt::format("warmed {} on {} in {:.0f} ms", skills::ResultMemo::KeyOf(*skill, args), profile->info().path,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()));
  }
  // The mapping coverage rides on the attribution tables the warm-up has loaded anyway (profile info shows it).
  if (engine::Has(needs, engine::Need::kAttribution) && !cancel.cancelled()) StoreCoverage(*profile, *coverage, cancel);
}

void StopWarmUp(LoadedProfile& entry) {
  entry.warm_cancel.cancel();
  if (entry.warm.joinable()) entry.warm.join();
}

}  // namespace

int IdNumber(const std::string& id) {
  return id.size() > 1 ? std::atoi(id.c_str() + 1) : 0;
}

Expected<skills::NvtxCoverage> StoreCoverage(const engine::Profile& profile, CoverageSlot& slot,
                                             const CancelToken& cancel) {
  {
    std::lock_guard lock(slot.mu);
    if (slot.value) return *slot.value;
  }
  auto filter = engine::ResolveFilter(profile.info(), engine::FilterSpec{});
  if (!filter) return filter.error();
  auto computed = skills::ComputeNvtxCoverage(profile, *filter, cancel);
  if (!computed) return computed.error();
  std::lock_guard lock(slot.mu);
  if (!slot.value) slot.value = *computed;
  return *slot.value;
}

Expected<skills::Table> RunSkillMemoised(LoadedProfile& entry, const std::shared_ptr<const skills::Skill>& skill,
                                         const skills::Args& args, const engine::FilterSpec& filter,
                                         const skills::RunOptions& options, const CancelToken& cancel,
                                         const ProgressSink& progress) {
  skills::ResultMemo& memo = *entry.memo;
  const skills::Args key = MemoKeyArgs(args, filter);
  if (auto known = memo.Find(skill, key)) return *known;
  auto table = skills::Run(*skill, *entry.profile, args, filter, cancel, progress, options);
  if (table) memo.Store(skill, key, std::make_shared<const skills::Table>(*table));
  return table;
}

ProfileStore::~ProfileStore() {
  std::unordered_map<std::string, std::shared_ptr<LoadedProfile>> profiles;
  {
    std::lock_guard lock(mu_);
    profiles.swap(profiles_);
  }
  for (auto& [id, entry] : profiles) {  // an entry shared by several ids is stopped by the first, then not joinable
    std::lock_guard join_lock(entry->warm_join_mu);
    StopWarmUp(*entry);
  }
}

void ProfileStore::WaitForWarmUp(const std::string& id) {
  auto entry = Find(id);
  if (!entry) return;
  // Every joiner (this, the last Release, ~ProfileStore) holds warm_join_mu and joins only a joinable thread.
  std::lock_guard lock((*entry)->warm_join_mu);
  if ((*entry)->warm.joinable()) (*entry)->warm.join();
}

Expected<OpenedProfile> ProfileStore::Open(const std::string& path, const engine::OpenOptions& options, WarmSkills warm,
                                           const CancelToken& cancel, const ProgressSink& progress) {
  if (path.empty()) return MakeError(ErrorKind::kInvalidArgument, "no profile path was given");
  const std::string load_key = LoadKeyOf(path, options);
  // Loops only when the open this one waited for was cancelled: then this one loads the file itself.
  for (;;) {
    auto claim = ClaimLoad(load_key);
    if (!claim) return claim.error();
    Status status = claim->load ? Load(path, options, warm, *claim->entry, progress, cancel)
                                : AwaitLoad(*claim->entry, progress, cancel);
    if (status && cancel.cancelled()) {
      status = MakeError(ErrorKind::kCancelled, fmt::format("opening {} was cancelled", path));
    }
    if (status) return AddId(path, claim->entry);
    Release(claim->entry);
    if (!claim->load && status.error().kind == ErrorKind::kCancelled && !cancel.cancelled()) continue;
    return status.error();
  }
}

Expected<ProfileStore::Claim> ProfileStore::ClaimLoad(const std::string& load_key) {
  std::lock_guard lock(mu_);
  if (reserved_ids_ >= limits_.max_open_ids) return TooManyProfiles(limits_.max_open_ids, "open ids");
  Claim claim;
  if (auto it = loads_.find(load_key); !load_key.empty() && it != loads_.end()) claim.entry = it->second;
  if (!claim.entry) {
    if (loads_.size() >= limits_.max_loaded_profiles) {
      return TooManyProfiles(limits_.max_loaded_profiles, "distinct files loaded at once");
    }
    claim.entry = std::make_shared<LoadedProfile>();
    claim.entry->memo = std::make_shared<skills::ResultMemo>(limits_.memo_budget_bytes);
    claim.entry->load_key = load_key.empty() ? fmt::format("unshared {}", fmt::ptr(claim.entry.get())) : load_key;
    loads_.emplace(claim.entry->load_key, claim.entry);
    claim.load = true;
  }
  ++claim.entry->ids;
  ++reserved_ids_;
  return claim;
}

// The engine's open runs outside the lock, so that several files load at once and the opens of the same file
// wait on load_done_. A failed (or cancelled) load leaves loads_ at once, so the next open tries afresh.
Status ProfileStore::Load(const std::string& path, const engine::OpenOptions& options, WarmSkills warm,
                          LoadedProfile& entry, const ProgressSink& progress, const CancelToken& cancel) {
  auto opened = limits_.opener ? limits_.opener(path, options, progress, cancel)
                               : engine::Profile::Open(path, options, progress, cancel);
  if (!opened) {
    {
      std::lock_guard lock(mu_);
      entry.loading = false;
      entry.failed = opened.error();
      if (auto it = loads_.find(entry.load_key); it != loads_.end() && it->second.get() == &entry) loads_.erase(it);
    }
    load_done_.notify_all();
    return opened.error();
  }
  entry.profile = std::move(opened.value());
  if (options.load_all_in_background && !warm.empty()) {
    entry.warm =
        std::thread([profile = entry.profile, memo = entry.memo, coverage = entry.coverage, cancel = entry.warm_cancel,
                     warm = std::move(warm)] { WarmUp(profile, memo, coverage, cancel, warm); });
  }
  {
    std::lock_guard lock(mu_);
    entry.loading = false;
  }
  load_done_.notify_all();
  return {};
}

Status ProfileStore::AwaitLoad(LoadedProfile& entry, const ProgressSink& progress, const CancelToken& cancel) {
  std::unique_lock lock(mu_);
  if (entry.loading && progress) {
    lock.unlock();  // a sink may write to the client
    progress(0, "waiting for another open of the same file");
    lock.lock();
  }
  while (entry.loading && !cancel.cancelled()) load_done_.wait_for(lock, kAwaitPoll);
  if (entry.loading) {
    return MakeError(ErrorKind::kCancelled, "the open was cancelled while another open of the same file loaded it");
  }
  if (entry.failed) return *entry.failed;
  return {};
}

OpenedProfile ProfileStore::AddId(const std::string& path, const std::shared_ptr<LoadedProfile>& entry) {
  std::lock_guard lock(mu_);
  OpenedProfile result{fmt::format("p{}", next_id_++), entry->profile->info()};
  {
    std::lock_guard coverage_lock(entry->coverage->mu);  // a shared load may have computed it
    result.coverage = entry->coverage->value;
  }
  for (const std::string* file : {&result.info.path, &result.info.source_path}) {
    auto id = trace::FileIdOf(*file);  // export targets are checked against every profile ever opened
    if (id && std::find(opened_files_.begin(), opened_files_.end(), *id) == opened_files_.end()) {
      opened_files_.push_back(*id);
    }
  }
  profiles_[result.id] = entry;
  support::LogInfo(entry->ids > 1 ? fmt::format("opened {} as {} (sharing its load with {} other id(s))", path,
                                                result.id, entry->ids - 1)
                                  : fmt::format("opened {} as {}", path, result.id));
  return result;
}

void ProfileStore::Release(const std::shared_ptr<LoadedProfile>& entry) {
  {
    std::lock_guard lock(mu_);
    --reserved_ids_;
    if (--entry->ids > 0) return;
    // The last holder: later opens load the file afresh. A failed load already left loads_ (and another entry may
    // have taken its key since), hence the identity check.
    if (auto it = loads_.find(entry->load_key); it != loads_.end() && it->second == entry) loads_.erase(it);
  }
  std::lock_guard join_lock(entry->warm_join_mu);
  StopWarmUp(*entry);  // outside the store's lock: a warm-up is joined, never waited for under it
}

Status ProfileStore::Close(const std::string& id) {
  std::shared_ptr<LoadedProfile> entry;
  {
    std::lock_guard lock(mu_);
    auto it = profiles_.find(id);
    if (it == profiles_.end()) return MakeError(ErrorKind::kNotFound, fmt::format("no open profile has id '{}'", id));
    entry = std::move(it->second);
    profiles_.erase(it);
  }
  Release(entry);
  support::LogInfo(fmt::format("closed {}", id));
  return {};
}

Expected<std::shared_ptr<LoadedProfile>> ProfileStore::Find(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = profiles_.find(id);
  if (it == profiles_.end()) {
    std::vector<std::string> open;
    for (const auto& [key, _] : profiles_) open.push_back(key);
    std::sort(open.begin(), open.end(), [](const auto& a, const auto& b) { return IdNumber(a) < IdNumber(b); });
    return MakeError(ErrorKind::kNotFound,
                     open.empty() ? fmt::format("no open profile has id '{}' (no profile is open)", id)
                                  : fmt::format("no open profile has id '{}' (open: {})", id, fmt::join(open, ", ")));
  }
  return it->second;
}

Expected<OpenedProfile> ProfileStore::Describe(const std::string& id) const {
  auto entry = Find(id);
  if (!entry) return entry.error();
  OpenedProfile out{id, (*entry)->profile->info()};
  std::lock_guard lock((*entry)->coverage->mu);
  out.coverage = (*entry)->coverage->value;
  return out;
}

std::vector<OpenedProfile> ProfileStore::List() const {
  std::vector<OpenedProfile> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, entry] : profiles_) result.push_back({id, entry->profile->info()});
  }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return IdNumber(a.id) < IdNumber(b.id); });
  return result;
}

std::vector<trace::FileId> ProfileStore::OpenedFiles() const {
  std::lock_guard lock(mu_);
  return opened_files_;
}

}  // namespace nsys::core
