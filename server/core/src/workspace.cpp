#include "nsys/core/workspace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
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
  WarmSkills warm;
  if (options.load_all_in_background) {
    for (const auto& call : config().warm_skills) {
      if (auto skill = FindSkill(call.skill)) warm.emplace_back(std::move(*skill), call.args);
    }
  }
  return profiles_->Open(path, options, std::move(warm), cancel, progress);
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
  std::vector<std::shared_ptr<const skills::NvtxTree>> out;
  auto entry = EntryOf(id);
  if (!entry) return out;
  std::lock_guard lock((*entry)->nvtx_trees_mu);
  for (const auto& kept : (*entry)->nvtx_trees) out.push_back(kept.second);
  return out;
}

Expected<OpenedProfile> Workspace::Describe(const std::string& id) const {
  return profiles_->Describe(id);
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
  return SkillReload{std::move(warnings), registry_.List().size()};
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
  auto entry = EntryOf(profile_id);
  if (!entry) return entry.error();
  auto call = SkillCallOf(skill_name, skill_timeout);
  if (!call) return call.error();
  // The entry (profile and memo) and the skill are held by shared_ptr: closing the profile or reloading skills
  // meanwhile is safe.
  return RunSkillMemoised(**entry, call->skill, args, filter, call->options, cancel, progress);
}

Expected<Workspace::SkillCall> Workspace::SkillCallOf(const std::string& name,
                                                      std::optional<std::chrono::milliseconds> skill_timeout) const {
  std::lock_guard lock(mu_);
  auto found = registry_.Get(name);
  if (!found) return found.error();
  SkillCall call{std::move(*found), {}};
  call.options.user_skill_timeout = skill_timeout.value_or(config_.skill_timeout);
  return call;
}

trace::OutputPolicy Workspace::TraceOutputPolicy() const {
  trace::OutputPolicy policy;
  policy.profiles = profiles_->OpenedFiles();
  for (const auto& id : jobs_->OpenedFiles()) {
    if (std::find(policy.profiles.begin(), policy.profiles.end(), id) == policy.profiles.end()) {
      policy.profiles.push_back(id);
    }
  }
  return policy;
}

Expected<skills::ResultMemo::Stats> Workspace::MemoStats(const std::string& profile_id) const {
  auto entry = EntryOf(profile_id);
  if (!entry) return entry.error();
  return (*entry)->memo->stats();
}

// ---- jobs: the state in JobStore, the features over it in job_store.cpp ----

Expected<OpenedJob> Workspace::OpenJob(const JobRequest& request, const CancelToken& cancel,
                                       const ProgressSink& progress) {
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "opening the job was cancelled");
  if (request.threads < 0 || request.threads > 64) {
    return MakeError(ErrorKind::kInvalidArgument, "a job loads 1 to 64 ranks at a time");
  }
  OpenedJob job;
  auto ranks = ListJobFiles(request, &job.notes);
  if (!ranks) return ranks.error();
  const WorkspaceConfig config = this->config();
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
  auto added = jobs_->Add(std::move(job), std::move(entry), files);
  if (!added) return added.error();
  if (progress) progress(100, fmt::format("job {}: {} ranks", added->id, added->ranks.size()));
  support::LogInfo(fmt::format("opened job {} ({} ranks, budget {} bytes)", added->id, added->ranks.size(),
                               added->memory_budget_bytes));
  return added;
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
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  if (const skills::job::JobSkill* job_skill = skills::job::FindJobSkill(skill_name)) {
    const bool filtered = filter.window.start || filter.window.end || !filter.devices.empty() ||
                          !filter.processes.empty() || !filter.threads.empty();
    if (filtered) {
      return MakeError(ErrorKind::kUnsupported,
                       fmt::format("{} is a cross-rank analysis of whole ranks: it takes no filter", skill_name));
    }
    auto table = RunJobSkill(**entry, *job_skill, args, cancel, progress);
    if (table) table->notes.insert(table->notes.end(), (*entry)->job.notes.begin(), (*entry)->job.notes.end());
    return table;
  }
  auto call = SkillCallOf(skill_name, skill_timeout);
  if (!call) return call.error();
  return RunSkillOnRanks(**entry, call->skill, args, filter, call->options, cancel, progress);
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
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  const skills::job::JobSkill* skill = skills::job::FindJobSkill(skill_name);
  if (!skill) return MakeError(ErrorKind::kNotFound, fmt::format("'{}' is not a job skill", skill_name));
  return core::MergeJobSkill(**entry, *skill, args, std::move(parts), cancel);
}

Expected<std::vector<RankReportPart>> Workspace::ReportJobRanks(const std::string& job_id,
                                                                const std::vector<size_t>& which,
                                                                const CancelToken& cancel,
                                                                const ProgressSink& progress) {
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  auto nccl = FindSkill("nccl_breakdown");
  if (!nccl) return nccl.error();
  auto iterations = FindSkill("iterations");
  if (!iterations) return iterations.error();
  return ReportRanks(**entry, **nccl, **iterations, which, cancel, progress);
}

Expected<JobReport> Workspace::MergeJobReport(const std::string& job_id, std::vector<RankReportPart> parts,
                                              const CancelToken& cancel) {
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  return MergeReport(**entry, std::move(parts), cancel);
}

Expected<JobReport> Workspace::ReportJob(const std::string& job_id, const CancelToken& cancel,
                                         const ProgressSink& progress) {
  auto entry = JobEntryOf(job_id);
  if (!entry) return entry.error();
  std::vector<size_t> all((*entry)->ranks->ranks().size());
  std::iota(all.begin(), all.end(), size_t{0});
  auto parts = ReportJobRanks(job_id, all, cancel, progress);
  if (!parts) return parts.error();
  return MergeJobReport(job_id, std::move(*parts), cancel);
}

}  // namespace nsys::core
