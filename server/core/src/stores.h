#pragma once
// The workspace's state holders, apart from its features (as rust-analyzer keeps its database apart from `Analysis`):
// the open profiles with their loads, result memos and warm-ups (ProfileStore), the open jobs (JobStore) and the
// source sets (SourceSets). Workspace owns one of each; its calls look the state up here and hand it to a feature.
// Internal to server/core: no face sees these types.
#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nsys/core/job.h"
#include "nsys/core/sources.h"
#include "nsys/core/workspace.h"
#include "nsys/skills/job_partials.h"
#include "nsys/skills/nvtx_coverage.h"
#include "nsys/skills/nvtx_tree.h"
#include "nsys/skills/result_memo.h"
#include "nsys/trace/trace_output.h"

namespace nsys::source {
class AnnotationIndex;  // nsys/source/annotation_index.h
}

namespace nsys::core {

// "p12" -> 12, "r3" -> 3: ids listed in the order they were given.
int IdNumber(const std::string& id);
// A skill found in the registry with its run options (the user-skill time budget of the call).
struct SkillCall {
  std::shared_ptr<const skills::Skill> skill;
  skills::RunOptions options;
};

// The memo's key for a call: its arguments plus, when given, the filter's text under a name no argument can have
// (argument names are snake_case), so calls with different filters never share a result (workspace.cpp).
skills::Args MemoKeyArgs(const skills::Args& args, const engine::FilterSpec& filter);

// A loaded profile's mapping coverage once computed (shared with its warm-up thread).
struct CoverageSlot {
  std::mutex mu;
  std::optional<skills::NvtxCoverage> value;
};
// Computes the whole profile's coverage into `slot` unless it is there (kAttribution must be loaded).
Expected<skills::NvtxCoverage> StoreCoverage(const engine::Profile& profile, CoverageSlot& slot,
                                             const CancelToken& cancel);

// What the store keeps per loaded file, shared by every open id of it. Also held by requests: one holding it
// survives a concurrent Close.
struct LoadedProfile {
  std::shared_ptr<engine::Profile> profile;
  std::shared_ptr<skills::ResultMemo> memo;
  std::shared_ptr<CoverageSlot> coverage = std::make_shared<CoverageSlot>();
  CancelToken warm_cancel;
  std::thread warm;
  std::mutex warm_join_mu;  // one joiner at a time (WaitForWarmUp, Release, ~ProfileStore)
  // Guarded by ProfileStore::mu_.
  std::string load_key;         // what opens must agree on to share it (LoadKeyOf)
  int ids = 0;                  // ids referring to it and opens waiting for it (ClaimLoad .. AddId or Release)
  bool loading = true;          // its first opener is still in engine::Profile::Open
  std::optional<Error> failed;  // that load's error, for the opens that waited for it
  // The range figures, computed once (Workspace::FiguresOf) under figures_mu.
  std::mutex figures_mu;
  std::shared_ptr<const RangeFigureTable> figures;
  // nsys/nvtxTree's trees, built once per filter (the last kNvtxTreesKept, most recent first), under nvtx_trees_mu.
  std::mutex nvtx_trees_mu;
  std::vector<std::pair<std::string, std::shared_ptr<const skills::NvtxTree>>> nvtx_trees;
};

// A skill on a loaded profile through its result memo: answered from the memo when the same call (arguments and
// filter) ran before, otherwise run and remembered.
Expected<skills::Table> RunSkillMemoised(LoadedProfile& entry, const std::shared_ptr<const skills::Skill>& skill,
                                         const skills::Args& args, const engine::FilterSpec& filter,
                                         const skills::RunOptions& options, const CancelToken& cancel,
                                         const ProgressSink& progress);

// Skill calls to precompute once a profile has loaded: WorkspaceConfig::warm_skills resolved against the registry.
using WarmSkills = std::vector<std::pair<std::shared_ptr<const skills::Skill>, skills::Args>>;

// The open profiles. Opening a file that is already open and unchanged with the same loading options shares its
// load (see Workspace::Open); each open still gets its own id. Thread-safe.
class ProfileStore {
 public:
  struct Limits {
    size_t max_loaded_profiles = 8;
    size_t max_open_ids = 256;
    size_t memo_budget_bytes = skills::ResultMemo::kDefaultBudgetBytes;
    ProfileOpener opener;  // empty: engine::Profile::Open
  };
  explicit ProfileStore(Limits limits) : limits_(std::move(limits)) {}
  ~ProfileStore();  // stops warm-up threads
  ProfileStore(const ProfileStore&) = delete;
  ProfileStore& operator=(const ProfileStore&) = delete;

  // `warm` runs on a low-priority thread once a new load has finished (only when options load in the background).
  Expected<OpenedProfile> Open(const std::string& path, const engine::OpenOptions& options, WarmSkills warm,
                               const CancelToken& cancel, const ProgressSink& progress);
  Status Close(const std::string& id);
  // The loaded profile behind an open id, or kNotFound listing the open ids.
  Expected<std::shared_ptr<LoadedProfile>> Find(const std::string& id) const;
  Expected<OpenedProfile> Describe(const std::string& id) const;
  std::vector<OpenedProfile> List() const;
  // The files of every profile opened (open now or closed since), one entry per file whatever the path.
  std::vector<trace::FileId> OpenedFiles() const;
  // Blocks until the profile's warm-up has finished.
  void WaitForWarmUp(const std::string& id);

 private:
  // Open's steps. ClaimLoad reserves an id on the entry of `load_key` (a new one, which the caller must Load, or
  // one loaded or loading, which it must AwaitLoad); AddId names the reservation; Release gives it back (also
  // Close's), and the last one stops the entry's warm-up and drops it from loads_.
  struct Claim {
    std::shared_ptr<LoadedProfile> entry;
    bool load = false;
  };
  Expected<Claim> ClaimLoad(const std::string& load_key);
  Status Load(const std::string& path, const engine::OpenOptions& options, WarmSkills warm, LoadedProfile& entry,
              const ProgressSink& progress, const CancelToken& cancel);
  Status AwaitLoad(LoadedProfile& entry, const ProgressSink& progress, const CancelToken& cancel);
  OpenedProfile AddId(const std::string& path, const std::shared_ptr<LoadedProfile>& entry);
  void Release(const std::shared_ptr<LoadedProfile>& entry);

  const Limits limits_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<LoadedProfile>> profiles_;  // by id
  std::unordered_map<std::string, std::shared_ptr<LoadedProfile>> loads_;     // by load key: loading or held by an id
  std::condition_variable load_done_;                                         // an entry in loads_ stopped loading
  size_t reserved_ids_ = 0;  // ids held plus opens under way: what max_open_ids bounds
  int next_id_ = 1;
  std::vector<trace::FileId> opened_files_;
};

// The ranks' partials for the job skills (skills/job_partials.h) with one step marker: the answering ranks'
// partials in rank order, their places in the job, and a note per rank that failed.
struct JobPartials {
  std::vector<skills::job::RankPartial> ranks;
  std::vector<size_t> index;             // ranks[k] is the job's rank index[k]
  std::map<size_t, std::string> errors;  // a rank with no partial (by rank index) -> why
  std::vector<std::string> notes;        // those errors as the analyses' notes
};

struct JobEntry {
  OpenedJob job;
  std::shared_ptr<RankSet> ranks;
  std::shared_ptr<skills::ResultMemo> memo;  // merged job-level results
  std::mutex partials_mu;
  std::map<std::string, std::shared_ptr<const JobPartials>> partials;  // by step marker
};

// The open jobs. Thread-safe.
class JobStore {
 public:
  explicit JobStore(size_t max_open_jobs) : max_open_jobs_(max_open_jobs) {}
  // Keeps `entry` for `job` under the next id ("j1", ...) and protects `files` from trace outputs; returns the job
  // with its id. kLimitExceeded past max_open_jobs.
  Expected<OpenedJob> Add(OpenedJob job, std::shared_ptr<JobEntry> entry, const std::vector<trace::FileId>& files);
  Status Close(const std::string& job_id);
  std::vector<OpenedJob> List() const;
  Expected<std::shared_ptr<JobEntry>> Find(const std::string& job_id) const;
  // `feature` on the job `job_id`, or Find's error: a Workspace call's one line.
  template <typename Feature>
  auto With(const std::string& job_id, Feature&& feature) const -> decltype(feature(std::declval<JobEntry&>())) {
    auto entry = Find(job_id);
    if (!entry) return entry.error();
    return feature(**entry);
  }
  // The rank files of every job opened (open now or closed since).
  std::vector<trace::FileId> OpenedFiles() const;

 private:
  const size_t max_open_jobs_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<JobEntry>> jobs_;  // by job id
  int next_job_id_ = 1;
  std::vector<trace::FileId> opened_files_;
};

// The job features over a job's state (job_store.cpp). The job's partials for `marker` from one per rank (or its
// error), in rank order: kCancelled if a rank was.
Expected<std::shared_ptr<JobPartials>> CollectPartials(const RankSet& ranks,
                                                       std::vector<Expected<skills::job::RankPartial>> parts);
// The partials of the ranks `which` (indices into the job's ranks; kInvalidArgument past them) for `marker`.
Expected<std::vector<Expected<skills::job::RankPartial>>> PartialsOfRanks(JobEntry& entry,
                                                                          const std::vector<size_t>& which,
                                                                          const std::string& marker,
                                                                          const CancelToken& cancel,
                                                                          const ProgressSink& progress);
// The partials of every rank for `marker`, computed once per job (one visit of each rank) and kept.
Expected<std::shared_ptr<const JobPartials>> PartialsOf(JobEntry& entry, const std::string& marker,
                                                        const CancelToken& cancel, const ProgressSink& progress);
// A job skill (skills::job::JobSkill) over the job's partials.
Expected<skills::Table> RunJobSkill(JobEntry& entry, const skills::job::JobSkill& skill, const skills::Args& args,
                                    const CancelToken& cancel, const ProgressSink& progress);
// A job skill's merge over partials computed elsewhere (one per rank, in rank order), kept as the job's.
Expected<skills::Table> MergeJobSkill(JobEntry& entry, const skills::job::JobSkill& skill, const skills::Args& args,
                                      std::vector<Expected<skills::job::RankPartial>> parts, const CancelToken& cancel);
// A built-in skill on every rank, merged (core/job.h MergeRankTables) and memoised per job.
Expected<skills::Table> RunSkillOnRanks(JobEntry& entry, const std::shared_ptr<const skills::Skill>& skill,
                                        const skills::Args& args, const engine::FilterSpec& filter,
                                        const skills::RunOptions& options, const CancelToken& cancel,
                                        const ProgressSink& progress);
// ReportJob's halves (Workspace::ReportJobRanks, Workspace::MergeJobReport); `nccl` and `iterations` are those
// built-in skills.
Expected<std::vector<RankReportPart>> ReportRanks(JobEntry& entry, const skills::Skill& nccl,
                                                  const skills::Skill& iterations, const std::vector<size_t>& which,
                                                  const CancelToken& cancel, const ProgressSink& progress);
Expected<JobReport> MergeReport(JobEntry& entry, std::vector<RankReportPart> parts, const CancelToken& cancel);

// The source sets: one annotation index per editor session, by id ("s1", ...). Thread-safe.
class SourceSets {
 public:
  // kLimitExceeded past kMaxSourceSets.
  Expected<std::string> Open();
  void Close(const std::string& set_id);  // an unknown id is ignored
  Expected<std::shared_ptr<source::AnnotationIndex>> Find(const std::string& set_id) const;
  // `feature` on the set `set_id`, or Find's error: a Workspace call's one line.
  template <typename Feature>
  auto With(const std::string& set_id, Feature&& feature) const
      -> decltype(feature(std::declval<source::AnnotationIndex&>())) {
    auto set = Find(set_id);
    if (!set) return set.error();
    return feature(**set);
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<source::AnnotationIndex>> sets_;
  int next_ = 1;
};

}  // namespace nsys::core
