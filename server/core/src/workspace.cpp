#include "nsys/core/workspace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "nsys/skills/user_skills.h"
#include "nsys/support/cache_dir.h"
#include "nsys/support/log.h"

namespace nsys::core {
namespace {

// The memo's key for a call: its arguments plus, when given, the filter's text under a name no argument can have
// (argument names are snake_case), so calls with different filters never share a result.
skills::Args MemoKeyArgs(const skills::Args& args, const engine::FilterSpec& filter) {
  const bool any = filter.window.start || filter.window.end || !filter.devices.empty() || !filter.processes.empty() ||
                   !filter.threads.empty();
  if (!any) return args;
  skills::Args key = args;
  key[" filter"] =
      Value(fmt::format("clock={} start={} end={} devices={} processes={} threads={}",
                        filter.window.clock == engine::WindowSpec::Clock::kCaptureNs ? "capture" : "relative",
                        filter.window.start ? fmt::format("{}", *filter.window.start) : "-",
                        filter.window.end ? fmt::format("{}", *filter.window.end) : "-", fmt::join(filter.devices, ","),
                        fmt::join(filter.processes, ","), fmt::join(filter.threads, ",")));
  return key;
}

// "p12" → 12, for listing profiles in the order they were opened.
int IdNumber(const std::string& id) {
  return id.size() > 1 ? std::atoi(id.c_str() + 1) : 0;
}

// User skills from folders, added to `registry` (which holds the built-ins). A user skill may not take a built-in's
// name: the built-ins are the ones checked against nsys, so shadowing one by accident would be a silent surprise.
std::vector<std::string> LoadUserSkillsInto(skills::Registry& registry, const std::vector<std::string>& dirs) {
  auto load = skills::LoadUserSkills(dirs);
  for (auto& skill : load.skills) {
    if (auto existing = registry.Find(skill->name()); existing && !skills::IsUserSkill(*existing)) {
      load.warnings.push_back(fmt::format("user skill '{}' in {} has the name of a built-in skill; it was not loaded",
                                          skill->name(), skills::UserSkillOrigin(*skill)));
      continue;
    }
    registry.Add(std::move(skill));
  }
  return load.warnings;
}

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

}  // namespace

Expected<std::chrono::milliseconds> SkillTimeoutFromSeconds(double seconds) {
  const double max_seconds = static_cast<double>(kMaxSkillTimeout.count()) / 1000.0;
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > max_seconds) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("the skill timeout must be a number of seconds above 0 and at most {:g}, not {:g}",
                                 max_seconds, seconds));
  }
  return std::chrono::milliseconds(std::max<int64_t>(1, std::llround(seconds * 1000.0)));
}

Expected<std::chrono::milliseconds> ParseSkillTimeout(const std::string& text) {
  char* end = nullptr;
  const double seconds = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("the skill timeout must be a number of seconds (e.g. 5 or 0.5), not '{}'", text));
  }
  return SkillTimeoutFromSeconds(seconds);
}

std::vector<WarmCall> DefaultWarmSkills() {
  return {{"nvtx_summary", {}},
          {"nvtx_gpu_projection", {}},
          {"nvtx_kernel_map", {}},
          {"kernel_launch_overhead", {}},
          {"nvtx_summary", {{"split_op_id", Value(true)}}}};
}

Workspace::Workspace(WorkspaceConfig config)
    : config_(std::move(config)), cache_dir_(support::ResolveCacheDir(config_.open.cache_dir)) {
  for (const auto& warning : ReloadSkills()) support::LogWarn(warning);
}

Workspace::~Workspace() {
  std::unordered_map<std::string, std::shared_ptr<Entry>> profiles;
  {
    std::lock_guard lock(mu_);
    profiles.swap(profiles_);
  }
  for (auto& [id, entry] : profiles) {  // an entry shared by several ids is stopped by the first, then not joinable
    std::lock_guard join_lock(entry->warm_join_mu);
    StopWarmUp(*entry);
  }
}

void Workspace::StopWarmUp(Entry& entry) {
  entry.warm_cancel.cancel();
  if (entry.warm.joinable()) entry.warm.join();
}

void Workspace::WarmUp(const std::shared_ptr<engine::Profile>& profile, const std::shared_ptr<skills::ResultMemo>& memo,
                       const std::shared_ptr<CoverageSlot>& coverage, const CancelToken& cancel,
                       const std::vector<WarmCall>& calls) {
  LowerThisThreadsPriority();
  std::vector<std::pair<std::shared_ptr<const skills::Skill>, const skills::Args*>> to_run;
  for (const auto& call : calls) {
    if (auto skill = FindSkill(call.skill)) to_run.emplace_back(std::move(*skill), &call.args);
  }
  engine::Need needs{};
  for (const auto& [skill, args] : to_run) needs = needs | skill->needs();
  // Waits for the background loads (it does not start any the open did not start: warm-up only runs when the
  // profile loads everything in the background).
  if (!profile->Require(needs, cancel).ok()) return;
  for (const auto& [skill, args] : to_run) {
    if (cancel.cancelled()) return;
    if (memo->Contains(skill, *args)) continue;  // a client asked first
    const auto t0 = std::chrono::steady_clock::now();
    auto table = skills::Run(*skill, *profile, *args, cancel);
    if (!table) continue;  // cancelled, or an error the user will see when they ask
    memo->Store(skill, *args, std::make_shared<const skills::Table>(std::move(*table)));
    support::LogDebug(
        fmt::format("warmed {} on {} in {:.0f} ms", skills::ResultMemo::KeyOf(*skill, *args), profile->info().path,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()));
  }
  // The mapping coverage rides on the attribution tables the warm-up has loaded anyway (profile info shows it).
  if (engine::Has(needs, engine::Need::kAttribution) && !cancel.cancelled()) StoreCoverage(*profile, *coverage, cancel);
}

void Workspace::WaitForWarmUp(const std::string& profile_id) {
  auto entry = EntryOf(profile_id);
  if (!entry) return;
  // Every joiner (this, the last Release, ~Workspace) holds warm_join_mu and joins only a joinable thread.
  std::lock_guard lock((*entry)->warm_join_mu);
  if ((*entry)->warm.joinable()) (*entry)->warm.join();
}

Expected<OpenedProfile> Workspace::Open(const std::string& path, const CancelToken& cancel,
                                        const ProgressSink& progress) {
  return Open(path, config().open, cancel, progress);
}

Expected<OpenedProfile> Workspace::Open(const std::string& path, const engine::OpenOptions& options,
                                        const CancelToken& cancel, const ProgressSink& progress) {
  if (path.empty()) return MakeError(ErrorKind::kInvalidArgument, "no profile path was given");
  const std::string load_key = LoadKeyOf(path, options);
  // Loops only when the open this one waited for was cancelled: then this one loads the file itself.
  for (;;) {
    auto claim = ClaimLoad(load_key);
    if (!claim) return claim.error();
    Status status =
        claim->load ? Load(path, options, *claim->entry, progress, cancel) : AwaitLoad(*claim->entry, progress, cancel);
    if (status && cancel.cancelled()) {
      status = MakeError(ErrorKind::kCancelled, fmt::format("opening {} was cancelled", path));
    }
    if (status) return AddId(path, claim->entry);
    Release(claim->entry);
    if (!claim->load && status.error().kind == ErrorKind::kCancelled && !cancel.cancelled()) continue;
    return status.error();
  }
}

Expected<Workspace::Claim> Workspace::ClaimLoad(const std::string& load_key) {
  std::lock_guard lock(mu_);
  if (reserved_ids_ >= config_.max_open_ids) return TooManyProfiles(config_.max_open_ids, "open ids");
  Claim claim;
  if (auto it = loads_.find(load_key); !load_key.empty() && it != loads_.end()) claim.entry = it->second;
  if (!claim.entry) {
    if (loads_.size() >= config_.max_loaded_profiles) {
      return TooManyProfiles(config_.max_loaded_profiles, "distinct files loaded at once");
    }
    claim.entry = std::make_shared<Entry>();
    claim.entry->memo = std::make_shared<skills::ResultMemo>(config_.memo_budget_bytes);
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
Status Workspace::Load(const std::string& path, const engine::OpenOptions& options, Entry& entry,
                       const ProgressSink& progress, const CancelToken& cancel) {
  const ProfileOpener opener = config().opener;
  auto opened =
      opener ? opener(path, options, progress, cancel) : engine::Profile::Open(path, options, progress, cancel);
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
  const std::vector<WarmCall> warm = options.load_all_in_background ? config().warm_skills : std::vector<WarmCall>{};
  if (!warm.empty()) {
    entry.warm = std::thread([this, profile = entry.profile, memo = entry.memo, coverage = entry.coverage,
                              cancel = entry.warm_cancel, warm] { WarmUp(profile, memo, coverage, cancel, warm); });
  }
  {
    std::lock_guard lock(mu_);
    entry.loading = false;
  }
  load_done_.notify_all();
  return {};
}

Status Workspace::AwaitLoad(Entry& entry, const ProgressSink& progress, const CancelToken& cancel) {
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

OpenedProfile Workspace::AddId(const std::string& path, const std::shared_ptr<Entry>& entry) {
  std::lock_guard lock(mu_);
  OpenedProfile result{fmt::format("p{}", next_id_++), entry->profile};
  {
    std::lock_guard coverage_lock(entry->coverage->mu);  // a shared load may have computed it
    result.coverage = entry->coverage->value;
  }
  for (const std::string* file : {&result.profile->info().path, &result.profile->info().source_path}) {
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

void Workspace::Release(const std::shared_ptr<Entry>& entry) {
  {
    std::lock_guard lock(mu_);
    --reserved_ids_;
    if (--entry->ids > 0) return;
    // The last holder: later opens load the file afresh. A failed load already left loads_ (and another entry may
    // have taken its key since), hence the identity check.
    if (auto it = loads_.find(entry->load_key); it != loads_.end() && it->second == entry) loads_.erase(it);
  }
  std::lock_guard join_lock(entry->warm_join_mu);
  StopWarmUp(*entry);  // outside the workspace lock: the warm-up thread looks up skills through it
}

Status Workspace::Close(const std::string& id) {
  std::shared_ptr<Entry> entry;
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

Expected<std::shared_ptr<Workspace::Entry>> Workspace::EntryOf(const std::string& id) const {
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

Expected<std::shared_ptr<engine::Profile>> Workspace::Get(const std::string& id) const {
  auto entry = EntryOf(id);
  if (!entry) return entry.error();
  return (*entry)->profile;
}

Expected<OpenedProfile> Workspace::Describe(const std::string& id) const {
  auto entry = EntryOf(id);
  if (!entry) return entry.error();
  OpenedProfile out{id, (*entry)->profile};
  std::lock_guard lock((*entry)->coverage->mu);
  out.coverage = (*entry)->coverage->value;
  return out;
}

std::vector<OpenedProfile> Workspace::List() const {
  std::vector<OpenedProfile> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, entry] : profiles_) result.push_back({id, entry->profile});
  }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return IdNumber(a.id) < IdNumber(b.id); });
  return result;
}

std::vector<std::shared_ptr<const skills::Skill>> Workspace::Skills() const {
  std::lock_guard lock(mu_);
  return registry_.List();
}

Expected<std::shared_ptr<const skills::Skill>> Workspace::FindSkill(const std::string& name) const {
  std::lock_guard lock(mu_);
  return registry_.Get(name);
}

std::vector<std::string> Workspace::ReloadSkills() {
  std::vector<std::string> dirs;
  {
    std::lock_guard lock(mu_);
    if (config_.default_skill_dirs) dirs = skills::DefaultUserSkillDirs();
    for (const auto& dir : config_.skill_dirs) {
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    }
  }
  // Built outside the lock (reading user folders touches the disk), then swapped in whole, so a reader never
  // sees a half-loaded registry.
  skills::Registry fresh;
  skills::RegisterBuiltins(fresh);
  std::vector<std::string> warnings = LoadUserSkillsInto(fresh, dirs);
  std::lock_guard lock(mu_);
  registry_ = std::move(fresh);
  return warnings;
}

std::vector<std::string> Workspace::AddSkillDirs(const std::vector<std::string>& dirs) {
  {
    std::lock_guard lock(mu_);
    for (const auto& dir : dirs) {
      if (std::find(config_.skill_dirs.begin(), config_.skill_dirs.end(), dir) == config_.skill_dirs.end()) {
        config_.skill_dirs.push_back(dir);
      }
    }
  }
  return ReloadSkills();
}

agent::SkillRunner Workspace::RunnerFor(const std::string& profile_id) {
  return [this, profile_id](const std::string& skill, const skills::Args& args, const engine::FilterSpec& filter,
                            const CancelToken& cancel) { return RunSkill(profile_id, skill, args, filter, cancel); };
}

Expected<skills::Table> Workspace::RunSkill(const std::string& profile_id, const std::string& skill_name,
                                            const skills::Args& args, const CancelToken& cancel,
                                            const ProgressSink& progress,
                                            std::optional<std::chrono::milliseconds> skill_timeout) {
  return RunSkill(profile_id, skill_name, args, engine::FilterSpec{}, cancel, progress, skill_timeout);
}

Expected<skills::Table> Workspace::RunSkill(const std::string& profile_id, const std::string& skill_name,
                                            const skills::Args& args, const engine::FilterSpec& filter,
                                            const CancelToken& cancel, const ProgressSink& progress,
                                            std::optional<std::chrono::milliseconds> skill_timeout) {
  auto entry = EntryOf(profile_id);
  if (!entry) return entry.error();
  std::shared_ptr<const skills::Skill> skill;
  skills::RunOptions options;
  {
    std::lock_guard lock(mu_);
    options.user_skill_timeout = skill_timeout.value_or(config_.skill_timeout);
    auto found = registry_.Get(skill_name);
    if (!found) return found.error();
    skill = std::move(*found);
  }
  // The entry (profile and memo) and the skill are held by shared_ptr: closing the profile or reloading skills
  // meanwhile is safe.
  skills::ResultMemo& memo = *(*entry)->memo;
  const skills::Args key = MemoKeyArgs(args, filter);
  if (auto known = memo.Find(skill, key)) return *known;
  auto table = skills::Run(*skill, *(*entry)->profile, args, filter, cancel, progress, options);
  if (table) memo.Store(skill, key, std::make_shared<const skills::Table>(*table));
  return table;
}

trace::OutputPolicy Workspace::TraceOutputPolicy() const {
  trace::OutputPolicy policy;
  std::lock_guard lock(mu_);
  policy.profiles = opened_files_;
  return policy;
}

Expected<skills::ResultMemo::Stats> Workspace::MemoStats(const std::string& profile_id) const {
  auto entry = EntryOf(profile_id);
  if (!entry) return entry.error();
  return (*entry)->memo->stats();
}

}  // namespace nsys::core
