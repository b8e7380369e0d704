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
#include <numeric>
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
  OpenedProfile out{id, (*entry)->profile->info()};
  std::lock_guard lock((*entry)->coverage->mu);
  out.coverage = (*entry)->coverage->value;
  return out;
}

Expected<OpenedProfile> Workspace::CheckTables(const std::string& id, const CancelToken& cancel,
                                               const ProgressSink& progress) {
  auto entry = EntryOf(id);
  if (!entry) return entry.error();
  if (Status loaded = (*entry)->profile->Require(engine::kAllTables, cancel, progress); !loaded) {
    return loaded.error();
  }
  if (auto coverage = MappingCoverage(id, cancel); !coverage) return coverage.error();
  return Describe(id);
}

std::vector<OpenedProfile> Workspace::List() const {
  std::vector<OpenedProfile> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, entry] : profiles_) result.push_back({id, entry->profile->info()});
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

// ---- runs (issue 13) ----

Expected<OpenedRun> Workspace::OpenRun(const RunRequest& request, const CancelToken& cancel,
                                       const ProgressSink& progress) {
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "opening the run was cancelled");
  if (request.threads < 0 || request.threads > 64) {
    return MakeError(ErrorKind::kInvalidArgument, "a run loads 1 to 64 ranks at a time");
  }
  OpenedRun run;
  auto ranks = ListRunFiles(request, &run.notes);
  if (!ranks) return ranks.error();
  const WorkspaceConfig config = this->config();
  run.ranks = std::move(*ranks);
  run.memory_budget_bytes =
      request.memory_budget_bytes > 0 ? request.memory_budget_bytes : config.run_memory_budget_bytes;
  run.threads = request.threads > 0 ? request.threads : std::max(1, config.run_threads);
  auto entry = std::make_shared<RunEntry>();
  // A rank whose tables alone take over half the run's budget is paged (engine::OpenOptions::memory_budget_bytes).
  engine::OpenOptions open = config.open;
  open.memory_budget_bytes = run.memory_budget_bytes;
  entry->ranks = std::make_shared<RankSet>(run.ranks, run.memory_budget_bytes, run.threads, open, config.opener);
  entry->memo = std::make_shared<skills::ResultMemo>(config.memo_budget_bytes);
  std::vector<trace::FileId> files;
  for (const auto& rank : run.ranks) {
    if (auto id = trace::FileIdOf(rank.path)) files.push_back(*id);
  }
  {
    std::lock_guard lock(mu_);
    if (runs_.size() >= config_.max_open_runs) {
      return MakeError(ErrorKind::kLimitExceeded, fmt::format("too many open runs (limit {}): close one with "
                                                              "nsys/closeRun",
                                                              config_.max_open_runs));
    }
    run.id = fmt::format("r{}", next_run_id_++);
    for (const auto& id : files) {
      if (std::find(opened_files_.begin(), opened_files_.end(), id) == opened_files_.end()) opened_files_.push_back(id);
    }
    entry->run = run;
    runs_[run.id] = entry;
  }
  if (progress) progress(100, fmt::format("run {}: {} ranks", run.id, run.ranks.size()));
  support::LogInfo(
      fmt::format("opened run {} ({} ranks, budget {} bytes)", run.id, run.ranks.size(), run.memory_budget_bytes));
  return run;
}

Status Workspace::CloseRun(const std::string& run_id) {
  std::shared_ptr<RunEntry> entry;
  {
    std::lock_guard lock(mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) return MakeError(ErrorKind::kNotFound, fmt::format("no open run has id '{}'", run_id));
    entry = std::move(it->second);
    runs_.erase(it);
  }
  entry.reset();  // its ranks are freed here, outside the lock (a request holding the run keeps it until it ends)
  support::LogInfo(fmt::format("closed run {}", run_id));
  return {};
}

std::vector<OpenedRun> Workspace::ListRuns() const {
  std::vector<OpenedRun> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, entry] : runs_) result.push_back(entry->run);
  }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return IdNumber(a.id) < IdNumber(b.id); });
  return result;
}

Expected<std::shared_ptr<Workspace::RunEntry>> Workspace::RunEntryOf(const std::string& run_id) const {
  std::lock_guard lock(mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) {
    return MakeError(ErrorKind::kNotFound, runs_.empty()
                                               ? fmt::format("no open run has id '{}' (no run is open)", run_id)
                                               : fmt::format("no open run has id '{}'", run_id));
  }
  return it->second;
}

Expected<RunMemoryStats> Workspace::RunStats(const std::string& run_id) const {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  return (*entry)->ranks->stats();
}

Expected<skills::Table> Workspace::RunSkillOnRun(const std::string& run_id, const std::string& skill_name,
                                                 const skills::Args& args, const engine::FilterSpec& filter,
                                                 const CancelToken& cancel, const ProgressSink& progress,
                                                 std::optional<std::chrono::milliseconds> skill_timeout) {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  if (const skills::run::RunSkill* run_skill = skills::run::FindRunSkill(skill_name)) {
    const bool filtered = filter.window.start || filter.window.end || !filter.devices.empty() ||
                          !filter.processes.empty() || !filter.threads.empty();
    if (filtered) {
      return MakeError(ErrorKind::kUnsupported,
                       fmt::format("{} is a cross-rank analysis of whole ranks: it takes no filter", skill_name));
    }
    auto table = RunRunSkill(**entry, *run_skill, args, cancel, progress);
    if (table) table->notes.insert(table->notes.end(), (*entry)->run.notes.begin(), (*entry)->run.notes.end());
    return table;
  }
  std::shared_ptr<const skills::Skill> skill;
  skills::RunOptions options;
  {
    std::lock_guard lock(mu_);
    options.user_skill_timeout = skill_timeout.value_or(config_.skill_timeout);
    auto found = registry_.Get(skill_name);
    if (!found) return found.error();
    skill = std::move(*found);
  }
  const skills::Args key = MemoKeyArgs(args, filter);
  if (auto known = (*entry)->memo->Find(skill, key)) return *known;
  RankSet& ranks = *(*entry)->ranks;
  std::vector<Expected<skills::Table>> tables(ranks.ranks().size(), skills::Table{});
  auto statuses = ranks.ForEachRank(
      skill->needs(),
      [&](size_t i, engine::Profile& profile) -> Status {
        tables[i] = skills::Run(*skill, profile, args, filter, cancel, {}, options);
        return {};
      },
      cancel, progress);
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (!statuses[i]) tables[i] = statuses[i].error();
  }
  auto merged = MergeRankTables(ranks.ranks(), std::move(tables));
  if (!merged) return merged;
  merged->notes.insert(merged->notes.end(), (*entry)->run.notes.begin(), (*entry)->run.notes.end());  // skipped
  (*entry)->memo->Store(skill, key, std::make_shared<const skills::Table>(*merged));
  return merged;
}

Expected<std::shared_ptr<Workspace::RunPartials>> Workspace::CollectPartials(
    const RankSet& ranks, std::vector<Expected<skills::run::RankPartial>> parts) {
  auto out = std::make_shared<RunPartials>();
  std::optional<Error> first_error;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i]) {
      out->ranks.push_back(std::move(*parts[i]));
      out->index.push_back(i);
      continue;
    }
    if (parts[i].error().kind == ErrorKind::kCancelled) return parts[i].error();
    if (!first_error) first_error = parts[i].error();
    out->errors[i] = parts[i].error().message;
    out->notes.push_back(
        fmt::format("{}: error: {} (left out of the run's analyses)", ranks.ranks()[i].rank, parts[i].error().message));
  }
  if (out->ranks.empty() && first_error) return *first_error;
  return out;
}

Expected<std::vector<Expected<skills::run::RankPartial>>> Workspace::RunPartialsOfRanks(
    const std::string& run_id, const std::vector<size_t>& which, const std::string& marker, const CancelToken& cancel,
    const ProgressSink& progress) {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  RankSet& ranks = *(*entry)->ranks;
  for (size_t i : which) {
    if (i >= ranks.ranks().size()) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("run {} has no rank {}", run_id, i));
    }
  }
  std::vector<Expected<skills::run::RankPartial>> parts(ranks.ranks().size(), skills::run::RankPartial{});
  const skills::run::PartialOptions options{marker};
  auto statuses = ranks.ForEachRank(
      skills::run::kRankPartialNeeds,
      [&](size_t i, engine::Profile& profile) -> Status {
        auto part = skills::run::ComputeRankPartial(profile, options, cancel);
        if (!part) return part.error();
        part->label = ranks.ranks()[i].rank;
        parts[i] = std::move(*part);
        return {};
      },
      cancel, progress, &which);
  std::vector<Expected<skills::run::RankPartial>> result;
  for (size_t i : which) result.push_back(statuses[i] ? std::move(parts[i]) : statuses[i].error());
  return result;
}

Expected<std::shared_ptr<const Workspace::RunPartials>> Workspace::PartialsOf(RunEntry& entry,
                                                                              const std::string& marker,
                                                                              const CancelToken& cancel,
                                                                              const ProgressSink& progress) {
  {
    std::lock_guard lock(entry.partials_mu);
    if (auto it = entry.partials.find(marker); it != entry.partials.end()) return it->second;
  }
  std::vector<size_t> all(entry.ranks->ranks().size());
  std::iota(all.begin(), all.end(), size_t{0});
  auto parts = RunPartialsOfRanks(entry.run.id, all, marker, cancel, progress);
  if (!parts) return parts.error();
  auto out = CollectPartials(*entry.ranks, std::move(*parts));
  if (!out) return out.error();
  std::lock_guard lock(entry.partials_mu);
  return entry.partials.emplace(marker, std::move(*out)).first->second;
}

Expected<skills::Table> Workspace::MergeRunSkill(const std::string& run_id, const std::string& skill_name,
                                                 const skills::Args& raw_args,
                                                 std::vector<Expected<skills::run::RankPartial>> parts,
                                                 const CancelToken& cancel) {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  const skills::run::RunSkill* skill = skills::run::FindRunSkill(skill_name);
  if (!skill) return MakeError(ErrorKind::kNotFound, fmt::format("'{}' is not a run skill", skill_name));
  auto args = CheckRunSkillArgs(*skill, raw_args);
  if (!args) return args.error();
  if (parts.size() != (*entry)->ranks->ranks().size()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("{} partials for a run of {} ranks", parts.size(), (*entry)->ranks->ranks().size()));
  }
  auto out = CollectPartials(*(*entry)->ranks, std::move(parts));
  if (!out) return out.error();
  {
    std::lock_guard lock((*entry)->partials_mu);
    (*entry)->partials.emplace(std::get<std::string>(args->at("marker")), std::move(*out));
  }
  return RunRunSkill(**entry, *skill, *args, cancel, {});
}

Expected<skills::Table> Workspace::RunRunSkill(RunEntry& entry, const skills::run::RunSkill& skill,
                                               const skills::Args& raw_args, const CancelToken& cancel,
                                               const ProgressSink& progress) {
  auto args = CheckRunSkillArgs(skill, raw_args);
  if (!args) return args.error();
  auto partials = PartialsOf(entry, std::get<std::string>(args->at("marker")), cancel, progress);
  if (!partials) return partials.error();
  const auto nodes = NodesOfRanks((*partials)->index, std::get<int64_t>(args->at("ranks_per_node")));
  skills::Table table = skill.merge((*partials)->ranks, nodes, *args);
  table.notes.insert(table.notes.end(), (*partials)->notes.begin(), (*partials)->notes.end());
  return table;
}

namespace {

// Σ of an int column over a table's rows (cells of another type count 0); -1 when the column is absent.
int64_t SumColumn(const skills::Table& table, const std::string& column, const std::string& where_column = {},
                  const std::string& where_value = {}) {
  size_t c = table.columns.size(), w = table.columns.size();
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == column) c = i;
    if (!where_column.empty() && table.columns[i].name == where_column) w = i;
  }
  if (c == table.columns.size()) return -1;
  int64_t sum = 0;
  for (const auto& row : table.rows) {
    if (!where_column.empty() && (w == table.columns.size() || !std::holds_alternative<std::string>(row[w]) ||
                                  std::get<std::string>(row[w]) != where_value))
      continue;
    if (const auto* v = std::get_if<int64_t>(&row[c])) sum += *v;
  }
  return sum;
}

}  // namespace

// ReportRun's per-rank half: the report's three measures per rank (kernel table, nccl_breakdown's "all" rows, the
// iterations skill's median) and the run skills' partials, each rank visited once with every table they need.
// Long: one visit per rank computes every measure, so the steps share the rank's loaded profile.
Expected<std::vector<RankReportPart>> Workspace::ReportRunRanks(const std::string& run_id,
                                                                const std::vector<size_t>& which,
                                                                const CancelToken& cancel,
                                                                const ProgressSink& progress) {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  auto nccl = FindSkill("nccl_breakdown");
  if (!nccl) return nccl.error();
  auto iterations = FindSkill("iterations");
  if (!iterations) return iterations.error();
  RankSet& ranks = *(*entry)->ranks;
  for (size_t i : which) {
    if (i >= ranks.ranks().size()) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("run {} has no rank {}", run_id, i));
    }
  }
  std::vector<RankReportPart> parts(ranks.ranks().size());
  const engine::Need needs =
      engine::Need::kKernels | (*nccl)->needs() | (*iterations)->needs() | skills::run::kRankPartialNeeds;
  // The run skills' partials (default step marker) are computed in the same visit, unless an earlier call did.
  bool have_partials = false;
  {
    std::lock_guard lock((*entry)->partials_mu);
    have_partials = (*entry)->partials.count("") > 0;
  }
  auto statuses = ranks.ForEachRank(
      needs,
      [&](size_t i, engine::Profile& profile) -> Status {
        RankSummary& summary = parts[i].summary;
        if (!have_partials) {
          auto part = skills::run::ComputeRankPartial(profile, {}, cancel);
          if (!part) return part.error();
          part->label = ranks.ranks()[i].rank;
          parts[i].partial = std::move(*part);
        }
        const auto& kernels = profile.kernels();
        summary.kernels = static_cast<int64_t>(kernels.size());
        for (size_t r = 0; r < kernels.size(); ++r) summary.gpu_time_ns += kernels.end[r] - kernels.start[r];
        auto comm = skills::Run(**nccl, profile, {}, cancel);
        if (!comm) return comm.error();
        if (!comm->declined) {
          summary.nccl_kernels = std::max<int64_t>(0, SumColumn(*comm, "count", "collective", "all"));
          summary.nccl_time_ns = std::max<int64_t>(0, SumColumn(*comm, "total_ns", "collective", "all"));
        }
        auto steps = skills::Run(**iterations, profile, {}, cancel);
        if (!steps) return steps.error();
        if (!steps->declined && !steps->rows.empty()) {
          std::vector<int64_t> durations;
          size_t c = 0;
          while (c < steps->columns.size() && steps->columns[c].name != "duration_ns") ++c;
          for (const auto& row : steps->rows) {
            if (const auto* v = c < row.size() ? std::get_if<int64_t>(&row[c]) : nullptr) durations.push_back(*v);
          }
          if (!durations.empty()) {
            std::sort(durations.begin(), durations.end());
            const size_t n = durations.size();
            // The median as the iterations skill states it: the middle one, or the mean of the two middle ones.
            summary.step_time_ns = n % 2 == 1 ? durations[n / 2] : (durations[n / 2 - 1] + durations[n / 2]) / 2;
            summary.steps = static_cast<int64_t>(n);
          }
        }
        return {};
      },
      cancel, progress, &which);
  std::vector<RankReportPart> result;
  for (size_t i : which) {
    RankReportPart part;
    if (statuses[i]) {
      part = std::move(parts[i]);
    } else {
      part.error = statuses[i].error();
    }
    part.summary.rank = ranks.ranks()[i].rank;
    part.summary.path = ranks.ranks()[i].path;
    result.push_back(std::move(part));
  }
  return result;
}

// ReportRun's merge half: the failure accounting, the partials kept for later run skill calls, every run skill.
// Long: one pass over the parts, then every run skill and the notes.
Expected<RunReport> Workspace::MergeRunReport(const std::string& run_id, std::vector<RankReportPart> parts,
                                              const CancelToken& cancel) {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  RankSet& ranks = *(*entry)->ranks;
  if (parts.size() != ranks.ranks().size()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("{} rank parts for a run of {} ranks", parts.size(), ranks.ranks().size()));
  }
  RunReport report;
  report.run_id = run_id;
  size_t failed = 0;
  std::optional<Error> first_error;
  std::vector<Expected<skills::run::RankPartial>> partials;
  bool every_partial = true;
  for (size_t i = 0; i < parts.size(); ++i) {
    RankReportPart& part = parts[i];
    if (part.summary.rank != ranks.ranks()[i].rank) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("rank part {} names '{}', not the run's '{}'", i,
                                                                part.summary.rank, ranks.ranks()[i].rank));
    }
    if (part.error) {
      if (part.error->kind == ErrorKind::kCancelled) {
        return MakeError(ErrorKind::kCancelled, "the run report was cancelled");
      }
      if (!first_error) first_error = part.error;
      RankSummary summary;
      summary.rank = ranks.ranks()[i].rank;
      summary.path = ranks.ranks()[i].path;
      summary.error = part.error->message;
      report.ranks.push_back(std::move(summary));
      partials.push_back(*part.error);
      ++failed;
      continue;
    }
    report.ranks.push_back(std::move(part.summary));
    every_partial &= part.partial.has_value();
    partials.push_back(part.partial ? std::move(*part.partial) : skills::run::RankPartial{});
  }
  if (failed == parts.size() && !parts.empty()) return *first_error;
  if (every_partial) {
    auto out = CollectPartials(ranks, std::move(partials));
    if (!out) return out.error();
    std::lock_guard lock((*entry)->partials_mu);
    (*entry)->partials.emplace("", std::move(*out));  // kept unless an earlier call computed them
  }
  for (const auto& run_skill : skills::run::RunSkills()) {
    auto table = RunRunSkill(**entry, run_skill, {}, cancel, {});
    if (!table) return table.error();
    report.analyses.push_back({run_skill.name, std::move(*table)});
  }
  report.memory = ranks.stats();
  report.notes.push_back(
      "GPU time is the sum of kernel durations; NCCL time the sum of communication kernels' durations "
      "(nccl_breakdown); step time the median iteration found by the iterations skill.");
  if (failed > 0) report.notes.push_back(fmt::format("{} of {} ranks could not be read.", failed, parts.size()));
  report.notes.insert(report.notes.end(), (*entry)->run.notes.begin(), (*entry)->run.notes.end());  // skipped
  if (report.memory.over_budget_ranks > 0) {
    report.notes.push_back(fmt::format("{} ranks alone exceed the memory budget; they were loaded one at a time.",
                                       report.memory.over_budget_ranks));
  }
  return report;
}

Expected<RunReport> Workspace::ReportRun(const std::string& run_id, const CancelToken& cancel,
                                         const ProgressSink& progress) {
  auto entry = RunEntryOf(run_id);
  if (!entry) return entry.error();
  std::vector<size_t> all((*entry)->ranks->ranks().size());
  std::iota(all.begin(), all.end(), size_t{0});
  auto parts = ReportRunRanks(run_id, all, cancel, progress);
  if (!parts) return parts.error();
  return MergeRunReport(run_id, std::move(*parts), cancel);
}

}  // namespace nsys::core
