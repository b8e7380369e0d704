#include "nsys/core/workspace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <utility>

#include "nsys/agent/ask.h"
#include "nsys/agent/explain_llm.h"
#include "nsys/skills/user_skills.h"
#include "nsys/support/cache_dir.h"
#include "nsys/support/log.h"
#include "stores.h"

namespace nsys::core {
namespace {

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

}  // namespace

namespace workspace_features {

// Appends each of `from` that `to` does not hold yet, in order.
template <typename T>
void AppendNew(std::vector<T>& to, const std::vector<T>& from) {
  for (const T& x : from) {
    if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
  }
}

// WorkspaceConfig::warm_skills resolved against the registry, when the options load in the background.
WarmSkills WarmSkillsFor(
    const engine::OpenOptions& options, const std::vector<WarmCall>& calls,
    const std::function<Expected<std::shared_ptr<const skills::Skill>>(const std::string&)>& find) {
  WarmSkills warm;
  if (!options.load_all_in_background) return warm;
  for (const auto& call : calls) {
    if (auto skill = find(call.skill)) warm.emplace_back(std::move(*skill), call.args);
  }
  return warm;
}

std::vector<std::shared_ptr<const skills::NvtxTree>> KeptTrees(const Expected<std::shared_ptr<LoadedProfile>>& entry) {
  std::vector<std::shared_ptr<const skills::NvtxTree>> out;
  if (!entry) return out;
  std::lock_guard lock((*entry)->nvtx_trees_mu);
  for (const auto& kept : (*entry)->nvtx_trees) out.push_back(kept.second);
  return out;
}

// Every table loaded and the mapping coverage computed, then the profile described.
Expected<OpenedProfile> CheckAll(const Expected<std::shared_ptr<LoadedProfile>>& entry,
                                 const std::function<Expected<skills::NvtxCoverage>()>& coverage,
                                 const std::function<Expected<OpenedProfile>()>& describe, const CancelToken& cancel,
                                 const ProgressSink& progress) {
  if (!entry) return entry.error();
  if (Status loaded = (*entry)->profile->Require(engine::kAllTables, cancel, progress); !loaded) {
    return loaded.error();
  }
  if (auto computed = coverage(); !computed) return computed.error();
  return describe();
}

// The user skill folders of a configuration: the default ones first (when asked), each once.
std::vector<std::string> SkillDirsOf(const WorkspaceConfig& config) {
  std::vector<std::string> dirs;
  if (config.default_skill_dirs) dirs = skills::DefaultUserSkillDirs();
  AppendNew(dirs, config.skill_dirs);
  return dirs;
}

// Built outside the workspace's lock (reading user folders touches the disk), then swapped in whole under it, so a
// reader never sees a half-loaded registry.
SkillReload Reload(const std::vector<std::string>& dirs, std::mutex& mu, skills::Registry& registry) {
  skills::Registry fresh;
  skills::RegisterBuiltins(fresh);
  std::vector<std::string> warnings = LoadUserSkillsInto(fresh, dirs);
  std::lock_guard lock(mu);
  registry = std::move(fresh);
  return SkillReload{std::move(warnings), registry.List().size()};
}

void AddDirs(const std::vector<std::string>& dirs, std::mutex& mu, std::vector<std::string>& skill_dirs) {
  std::lock_guard lock(mu);
  AppendNew(skill_dirs, dirs);
}

// The entry (profile and memo) and the skill are held by shared_ptr: closing the profile or reloading skills
// meanwhile is safe.
Expected<skills::Table> Run(const Expected<std::shared_ptr<LoadedProfile>>& entry, const Expected<SkillCall>& call,
                            const skills::Args& args, const engine::FilterSpec& filter, const CancelToken& cancel,
                            const ProgressSink& progress) {
  if (!entry) return entry.error();
  if (!call) return call.error();
  return RunSkillMemoised(**entry, call->skill, args, filter, call->options, cancel, progress);
}

Expected<SkillCall> CallOf(Expected<std::shared_ptr<const skills::Skill>> found, std::chrono::milliseconds timeout) {
  if (!found) return found.error();
  SkillCall call{std::move(*found), {}};
  call.options.user_skill_timeout = timeout;
  return call;
}

// The files no trace may replace: every profile and every job's rank opened, each once.
trace::OutputPolicy PolicyOf(std::vector<trace::FileId> profiles, const std::vector<trace::FileId>& jobs) {
  trace::OutputPolicy policy;
  policy.profiles = std::move(profiles);
  AppendNew(policy.profiles, jobs);
  return policy;
}

}  // namespace workspace_features

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

// nvtx_kernel_map first: every kernel hover (explainKernel) reads it, and hovers come as soon as kernels show.
std::vector<WarmCall> DefaultWarmSkills() {
  return {{"nvtx_kernel_map", {}},
          {"nvtx_summary", {}},
          {"nvtx_gpu_projection", {}},
          {"kernel_launch_overhead", {}},
          {"nvtx_summary", {{"split_op_id", Value(true)}}}};
}

Workspace::Workspace(WorkspaceConfig config)
    : config_(std::move(config)),
      cache_dir_(support::ResolveCacheDir(config_.open.cache_dir)),
      profiles_(std::make_unique<ProfileStore>(ProfileStore::Limits{config_.max_loaded_profiles, config_.max_open_ids,
                                                                    config_.memo_budget_bytes, config_.opener})),
      jobs_(std::make_unique<JobStore>(config_.max_open_jobs)),
      source_sets_(std::make_unique<SourceSets>()),
      conversations_(std::make_unique<agent::ConversationStore>(kMaxConversations, kConversationIdle)),
      paragraphs_(std::make_unique<agent::KernelParagraphs>()) {
  for (const auto& warning : ReloadSkills().warnings) support::LogWarn(warning);
}

Workspace::~Workspace() = default;  // the profile store stops the warm-ups

Expected<OpenedProfile> Workspace::Open(const std::string& path, const CancelToken& cancel,
                                        const ProgressSink& progress) {
  return Open(path, config().open, cancel, progress);
}

Expected<OpenedProfile> Workspace::Open(const std::string& path, const engine::OpenOptions& options,
                                        const CancelToken& cancel, const ProgressSink& progress) {
  const auto find = [this](const std::string& name) { return FindSkill(name); };
  return profiles_->Open(path, options, workspace_features::WarmSkillsFor(options, config().warm_skills, find), cancel,
                         progress);
}

Status Workspace::Close(const std::string& id) {
  return profiles_->Close(id);
}

Expected<OpenedProfile> Workspace::CloseAndDescribe(const std::string& id) {
  auto described = Describe(id);  // before the id goes; ids are never reused, so Close fails when this does
  if (Status closed = Close(id); !closed) return closed.error();
  return described;
}

Expected<std::shared_ptr<LoadedProfile>> Workspace::EntryOf(const std::string& id) const {
  return profiles_->Find(id);
}

Expected<std::shared_ptr<engine::Profile>> Workspace::Get(const std::string& id) const {
  auto entry = EntryOf(id);
  if (!entry) return entry.error();
  return (*entry)->profile;
}

std::vector<std::shared_ptr<const skills::NvtxTree>> Workspace::KeptNvtxTrees(const std::string& id) const {
  return workspace_features::KeptTrees(EntryOf(id));
}

Expected<OpenedProfile> Workspace::Describe(const std::string& id) const {
  return profiles_->Describe(id);
}

Expected<OpenedProfile> Workspace::CheckTables(const std::string& id, const CancelToken& cancel,
                                               const ProgressSink& progress) {
  return workspace_features::CheckAll(
      EntryOf(id), [&] { return MappingCoverage(id, cancel); }, [&] { return Describe(id); }, cancel, progress);
}

std::vector<OpenedProfile> Workspace::List() const {
  return profiles_->List();
}

void Workspace::WaitForWarmUp(const std::string& profile_id) {
  profiles_->WaitForWarmUp(profile_id);
}

std::vector<std::shared_ptr<const skills::Skill>> Workspace::Skills() const {
  std::lock_guard lock(mu_);
  return registry_.List();
}

Expected<std::shared_ptr<const skills::Skill>> Workspace::FindSkill(const std::string& name) const {
  std::lock_guard lock(mu_);
  return registry_.Get(name);
}

SkillReload Workspace::ReloadSkills() {
  return workspace_features::Reload(workspace_features::SkillDirsOf(config()), mu_, registry_);
}

std::vector<std::string> Workspace::AddSkillDirs(const std::vector<std::string>& dirs) {
  workspace_features::AddDirs(dirs, mu_, config_.skill_dirs);
  return ReloadSkills().warnings;
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
  return workspace_features::Run(EntryOf(profile_id), SkillCallOf(skill_name, skill_timeout), args, filter, cancel,
                                 progress);
}

Expected<SkillCall> Workspace::SkillCallOf(const std::string& name,
                                           std::optional<std::chrono::milliseconds> skill_timeout) const {
  std::lock_guard lock(mu_);
  return workspace_features::CallOf(registry_.Get(name), skill_timeout.value_or(config_.skill_timeout));
}

trace::OutputPolicy Workspace::TraceOutputPolicy() const {
  return workspace_features::PolicyOf(profiles_->OpenedFiles(), jobs_->OpenedFiles());
}

Expected<skills::ResultMemo::Stats> Workspace::MemoStats(const std::string& profile_id) const {
  auto entry = EntryOf(profile_id);
  if (!entry) return entry.error();
  return (*entry)->memo->stats();
}

// ---- jobs: the state in JobStore, the features over it in job_store.cpp ----

namespace job_features {

// The job's rank files listed, its budget and threads settled, its rank set made and kept in `jobs`.
Expected<OpenedJob> Open(const JobRequest& request, const WorkspaceConfig& config, JobStore& jobs,
                         const CancelToken& cancel, const ProgressSink& progress) {
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "opening the job was cancelled");
  if (request.threads < 0 || request.threads > 64) {
    return MakeError(ErrorKind::kInvalidArgument, "a job loads 1 to 64 ranks at a time");
  }
  OpenedJob job;
  auto ranks = ListJobFiles(request, &job.notes);
  if (!ranks) return ranks.error();
  job.ranks = std::move(*ranks);
  job.memory_budget_bytes =
      request.memory_budget_bytes > 0 ? request.memory_budget_bytes : config.job_memory_budget_bytes;
  job.threads = request.threads > 0 ? request.threads : std::max(1, config.job_threads);
  auto entry = std::make_shared<JobEntry>();
  // A rank whose tables alone take over half the job's budget is paged (engine::OpenOptions::memory_budget_bytes).
  engine::OpenOptions open = config.open;
  open.memory_budget_bytes = job.memory_budget_bytes;
  entry->ranks = std::make_shared<RankSet>(job.ranks, job.memory_budget_bytes, job.threads, open, config.opener);
  entry->memo = std::make_shared<skills::ResultMemo>(config.memo_budget_bytes);
  std::vector<trace::FileId> files;
  for (const auto& rank : job.ranks) {
    if (auto id = trace::FileIdOf(rank.path)) files.push_back(*id);
  }
  auto added = jobs.Add(std::move(job), std::move(entry), files);
  if (!added) return added.error();
  if (progress) progress(100, fmt::format("job {}: {} ranks", added->id, added->ranks.size()));
  support::LogInfo(fmt::format("opened job {} ({} ranks, budget {} bytes)", added->id, added->ranks.size(),
                               added->memory_budget_bytes));
  return added;
}

// A job skill over whole ranks (no filter), or a profile skill on every rank.
Expected<skills::Table> Run(JobEntry& entry, const std::string& skill_name, const skills::Args& args,
                            const engine::FilterSpec& filter, const std::function<Expected<SkillCall>()>& call_of,
                            const CancelToken& cancel, const ProgressSink& progress) {
  if (const skills::job::JobSkill* job_skill = skills::job::FindJobSkill(skill_name)) {
    const bool filtered = filter.window.start || filter.window.end || !filter.devices.empty() ||
                          !filter.processes.empty() || !filter.threads.empty();
    if (filtered) {
      return MakeError(ErrorKind::kUnsupported,
                       fmt::format("{} is a cross-rank analysis of whole ranks: it takes no filter", skill_name));
    }
    auto table = RunJobSkill(entry, *job_skill, args, cancel, progress);
    if (table) table->notes.insert(table->notes.end(), entry.job.notes.begin(), entry.job.notes.end());
    return table;
  }
  auto call = call_of();
  if (!call) return call.error();
  return RunSkillOnRanks(entry, call->skill, args, filter, call->options, cancel, progress);
}

Expected<skills::Table> Merge(JobEntry& entry, const std::string& skill_name, const skills::Args& args,
                              std::vector<Expected<skills::job::RankPartial>> parts, const CancelToken& cancel) {
  const skills::job::JobSkill* skill = skills::job::FindJobSkill(skill_name);
  if (!skill) return MakeError(ErrorKind::kNotFound, fmt::format("'{}' is not a job skill", skill_name));
  return MergeJobSkill(entry, *skill, args, std::move(parts), cancel);
}

// The report's per-rank half, with the two skills it runs on each rank.
Expected<std::vector<RankReportPart>> ReportRanksWith(
    JobEntry& entry, const std::function<Expected<std::shared_ptr<const skills::Skill>>(const std::string&)>& find,
    const std::vector<size_t>& which, const CancelToken& cancel, const ProgressSink& progress) {
  auto nccl = find("nccl_breakdown");
  if (!nccl) return nccl.error();
  auto iterations = find("iterations");
  if (!iterations) return iterations.error();
  return ReportRanks(entry, **nccl, **iterations, which, cancel, progress);
}

// Every rank's index (none when the job is not open: the call that takes them says why).
std::vector<size_t> AllRanks(const Expected<std::shared_ptr<JobEntry>>& entry) {
  std::vector<size_t> all(entry ? (*entry)->ranks->ranks().size() : 0);
  std::iota(all.begin(), all.end(), size_t{0});
  return all;
}

}  // namespace job_features

Expected<OpenedJob> Workspace::OpenJob(const JobRequest& request, const CancelToken& cancel,
                                       const ProgressSink& progress) {
  return job_features::Open(request, config(), *jobs_, cancel, progress);
}

Status Workspace::CloseJob(const std::string& job_id) {
  if (Status closed = jobs_->Close(job_id); !closed) return closed;
  support::LogInfo(fmt::format("closed job {}", job_id));
  return {};
}

std::vector<OpenedJob> Workspace::ListJobs() const {
  return jobs_->List();
}

Expected<std::shared_ptr<JobEntry>> Workspace::JobEntryOf(const std::string& job_id) const {
  return jobs_->Find(job_id);
}

Expected<JobMemoryStats> Workspace::JobStats(const std::string& job_id) const {
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  return (*entry)->ranks->stats();
}

Expected<skills::Table> Workspace::RunSkillOnJob(const std::string& job_id, const std::string& skill_name,
                                                 const skills::Args& args, const engine::FilterSpec& filter,
                                                 const CancelToken& cancel, const ProgressSink& progress,
                                                 std::optional<std::chrono::milliseconds> skill_timeout) {
  const auto call_of = [&] { return SkillCallOf(skill_name, skill_timeout); };
  return jobs_->With(
      job_id, [&](JobEntry& e) { return job_features::Run(e, skill_name, args, filter, call_of, cancel, progress); });
}

Expected<std::vector<Expected<skills::job::RankPartial>>> Workspace::JobPartialsOfRanks(
    const std::string& job_id, const std::vector<size_t>& which, const std::string& marker, const CancelToken& cancel,
    const ProgressSink& progress) {
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  return PartialsOfRanks(**entry, which, marker, cancel, progress);
}

Expected<skills::Table> Workspace::MergeJobSkill(const std::string& job_id, const std::string& skill_name,
                                                 const skills::Args& args,
                                                 std::vector<Expected<skills::job::RankPartial>> parts,
                                                 const CancelToken& cancel) {
  return jobs_->With(job_id,
                     [&](JobEntry& e) { return job_features::Merge(e, skill_name, args, std::move(parts), cancel); });
}

Expected<std::vector<RankReportPart>> Workspace::ReportJobRanks(const std::string& job_id,
                                                                const std::vector<size_t>& which,
                                                                const CancelToken& cancel,
                                                                const ProgressSink& progress) {
  const auto find = [this](const std::string& name) { return FindSkill(name); };
  return jobs_->With(job_id,
                     [&](JobEntry& e) { return job_features::ReportRanksWith(e, find, which, cancel, progress); });
}

Expected<JobReport> Workspace::MergeJobReport(const std::string& job_id, std::vector<RankReportPart> parts,
                                              const CancelToken& cancel) {
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  return MergeReport(**entry, std::move(parts), cancel);
}

Expected<JobReport> Workspace::ReportJob(const std::string& job_id, const CancelToken& cancel,
                                         const ProgressSink& progress) {
  auto parts = ReportJobRanks(job_id, job_features::AllRanks(JobEntryOf(job_id)), cancel, progress);
  if (!parts) return parts.error();
  return MergeJobReport(job_id, std::move(*parts), cancel);
}

}  // namespace nsys::core
