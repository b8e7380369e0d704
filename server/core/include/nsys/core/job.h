#pragma once
// A job: N rank exports (one per process, `nsys profile -o rank%q{RANK}`) opened as one. Opening a job
// only lists and checks its files; a rank's profile is opened, and the tables a query needs loaded, when a query
// reaches it, a few ranks at a time (JobConfig::threads), and the least recently used ranks are dropped when the
// job's memory budget would be exceeded. Reopening a dropped rank is cheap: the engine's warm snapshot cache.
//
// The job's memory accounting is its own (RankSet), apart from the Workspace's limits on open profiles, so a
// 64-rank job is not refused by WorkspaceConfig::max_loaded_profiles. What a rank costs is an estimate from its
// row counts (known right after Profile::Open, before any event table loads) and the model's column widths
// (EstimateRankBytes); the figures measured against real RSS are in docs/architecture.md.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/job_partials.h"
#include "nsys/skills/skill.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::core {

inline constexpr uint64_t kDefaultJobMemoryBudget = uint64_t{4} << 30;  // 4 GiB
inline constexpr int kDefaultJobThreads = 2;
inline constexpr size_t kMaxJobRanks = 100'000;
// How `nsys-ai job-report --progress-lines` writes progress on stderr ("nsys-ai-progress 42.0 rank0003 done (4/64)"),
// and how the server reads it from a job it launched (initializationOptions.runLauncher).
inline constexpr const char* kProgressLinePrefix = "nsys-ai-progress";

// What a client asks to open: files (`paths`) or every *.sqlite / *.nsys-rep / *.qdrep directly in `directory` (one of
// the two). A manifest.json beside them (split_ranks.py's) is not read: numbers come from the exports only.
struct JobRequest {
  std::vector<std::string> paths;
  std::string directory;
  uint64_t memory_budget_bytes = 0;  // 0 = the workspace's default (kDefaultJobMemoryBudget)
  int threads = 0;                   // ranks loaded at once; 0 = kDefaultJobThreads
};

struct JobRank {
  std::string rank;  // the file name without its extension ("rank0003"): what the `rank` column holds
  std::string path;
  int64_t file_size = 0;
};

struct OpenedJob {
  std::string id;  // "j1", "j2", ...
  std::vector<JobRank> ranks;
  std::vector<std::string> notes;  // directory entries skipped (ListJobFiles), said in every report and skill result
  uint64_t memory_budget_bytes = 0;
  int threads = 0;
};

// How the job's accounting went so far (for reports and tests).
struct JobMemoryStats {
  uint64_t budget_bytes = 0;
  uint64_t accounted_bytes = 0;       // ranks loaded now, by estimate
  uint64_t peak_accounted_bytes = 0;  // the most ever held at once
  int64_t loads = 0;                  // Profile::Open calls (first opens and reopens)
  int64_t evictions = 0;              // ranks dropped to stay within the budget
  size_t loaded_ranks = 0;
  size_t over_budget_ranks = 0;  // ranks that alone exceed the budget (loaded alone, said in a note)
};

// Natural order of names: digit runs compare as numbers ("rank2" < "rank10"), the rest byte by byte.
bool NaturalLess(const std::string& a, const std::string& b);
// The files of a job, ranks named and naturally ordered. kInvalidArgument when both or neither of paths and
// directory are given, a name repeats, or no rank file is found; kNotFound for a file that does not exist.
// A directory's entry named like a rank file that is not a regular file (a directory, a FIFO, a socket, a device,
// a dangling link) is skipped with a note in `skipped` naming it and why. A rank's name is its file name without the
// extension, as valid UTF-8 (support::DisplayText: a byte outside UTF-8 is written \xHH); its path is exact.
Expected<std::vector<JobRank>> ListJobFiles(const JobRequest& request, std::vector<std::string>* skipped = nullptr);
// "4G", "512M", "1.5GiB", "1073741824": a byte count (K, M, G, T binary; an optional "B" or "iB"). More than 0.
Expected<uint64_t> ParseByteSize(const std::string& text);
// The memory a rank's model takes once `needs` are loaded, from its row counts (info.tables) and the model's
// column widths, plus its strings and small tables.
uint64_t EstimateRankBytes(const engine::ProfileInfo& info, engine::Need needs);

// How a RankSet opens a rank (engine::Profile::Open unless a test substitutes one).
using RankOpener = std::function<Expected<std::shared_ptr<engine::Profile>>(
    const std::string& path, const engine::OpenOptions& options, const ProgressSink& progress,
    const CancelToken& cancel)>;

// The ranks of one job with their loaded profiles under a byte budget. Thread-safe.
class RankSet {
 public:
  RankSet(std::vector<JobRank> ranks, uint64_t budget_bytes, int threads, engine::OpenOptions open,
          RankOpener opener = {});
  ~RankSet();
  RankSet(const RankSet&) = delete;
  RankSet& operator=(const RankSet&) = delete;

  const std::vector<JobRank>& ranks() const { return ranks_; }
  int threads() const { return threads_; }
  JobMemoryStats stats() const;

  // What a visit sees: the rank's index, and its profile with `needs` loaded (valid during the call only).
  using Visit = std::function<Status(size_t rank, engine::Profile& profile)>;
  // Calls `visit` for every rank, `threads()` ranks at a time, each rank's profile opened (or kept) and `needs`
  // loaded within the budget first. Returns one status per rank, in rank order: a rank that fails does not stop
  // the others. Cancellation stops the visits not yet started (their status is kCancelled). Progress reports each
  // rank done ("rank0003 done (4/64)").
  // `only` (when not null): visit just these ranks (indices, e.g. an MPI process's share); the others' statuses stay
  // ok.
  std::vector<Status> ForEachRank(engine::Need needs, const Visit& visit, const std::vector<size_t>* only,
                                  const CancelToken& cancel, const ProgressSink& progress);

 private:
  struct Slot {
    std::shared_ptr<engine::Profile> profile;
    engine::Need loaded{};   // needs accounted for
    uint64_t accounted = 0;  // bytes counted against the budget
    int pins = 0;            // visits using it now
    uint64_t last_used = 0;  // LRU clock
    bool opening = false;    // a visit is opening it (others wait)
  };
  // Opens (or keeps) rank `i` and reserves the bytes `needs` take, evicting unpinned ranks (least recently used
  // first) or waiting for pinned ones to finish. Pins the slot; Unpin releases it. `require` receives what to load
  // (`needs`, or every table on a first load that should write the warm snapshot).
  Expected<std::shared_ptr<engine::Profile>> Acquire(size_t i, engine::Need needs, engine::Need* require,
                                                     const CancelToken& cancel);
  void Unpin(size_t i);
  // Frees least recently used unpinned ranks other than `keep` until `extra` more bytes fit; true if they fit.
  bool MakeRoom(uint64_t extra, size_t keep);  // mu_ held
  void Reserve(Slot& slot, uint64_t bytes);    // mu_ held
  bool AnyBusy(size_t except) const;           // another rank is pinned or opening; mu_ held

  std::vector<JobRank> ranks_;
  uint64_t budget_;
  int threads_;
  engine::OpenOptions open_;
  RankOpener opener_;

  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Slot> slots_;
  uint64_t clock_ = 0;
  JobMemoryStats stats_;
  std::vector<std::shared_ptr<engine::Profile>> dropped_;  // released outside mu_ (their destructors may be slow)
};

// The ranks' results of one skill as one table: a leading `rank` column (the rank's name), then the skill's columns,
// rows in rank order. Notes are prefixed with the ranks that gave them ("rank0001: ...", "rank0000, rank0001: ...",
// "every rank (64): ..."); a rank that failed or declined is named in a note. Ranks whose columns differ from the
// first answering rank's are left out, with a note. Every rank failed: the first error (kCancelled if any was).
Expected<skills::Table> MergeRankTables(const std::vector<JobRank>& ranks,
                                        std::vector<Expected<skills::Table>> results);

// One rank's line of a job report: what every export gives, computed from its own tables.
struct RankSummary {
  std::string rank;
  std::string path;
  int64_t kernels = 0;
  int64_t gpu_time_ns = 0;  // Σ kernel durations
  int64_t nccl_kernels = 0;
  int64_t nccl_time_ns = 0;             // Σ durations of communication kernels (nccl_breakdown's "all" rows)
  std::optional<int64_t> step_time_ns;  // median iteration (the iterations skill), when iterations are found
  int64_t steps = 0;
  std::string error;  // the rank could not be read: why (its numbers are 0)
};

// One cross-rank analysis of a job (a job skill of skills/job_partials.h with its default arguments).
struct JobAnalysis {
  std::string skill;  // "job_stragglers", "job_clock_alignment", ...
  skills::Table table;
};

// One rank's half of a job report, computed where the rank is loaded (this process, or an MPI process of a job
// spread over many: server/mpi): its summary and its job skills' partial (default step marker), or why it failed.
struct RankReportPart {
  RankSummary summary;                              // rank, path and the measures (error left empty)
  std::optional<skills::job::RankPartial> partial;  // absent when the rank failed or the job already had partials
  std::optional<Error> error;                       // the rank could not be read
};

struct JobReport {
  std::string job_id;
  std::vector<RankSummary> ranks;
  std::vector<JobAnalysis> analyses;  // every job skill, in skills::job::JobSkills() order
  std::vector<std::string> notes;
  JobMemoryStats memory;
};

// The arguments core adds to every job skill (skills::job::JobSkill): `marker` (the step marker, given to
// ComputeRankPartial) and `ranks_per_node` (consecutive ranks that share a node's clock; 0 = each rank its own).
std::vector<skills::ArgSpec> JobSkillCommonArgs();
// The arguments a job skill takes (JobSkillCommonArgs, then its own), or nullopt when `name` is not a job skill.
std::optional<std::vector<skills::ArgSpec>> JobSkillArgSpecs(const std::string& name);
// Checks raw arguments against a job skill's own and the common ones (names, types; an int is accepted for a
// double; string choices) and fills in defaults. kInvalidArgument naming the argument.
Expected<skills::Args> CheckJobSkillArgs(const skills::job::JobSkill& skill, const skills::Args& raw);
// The node of each answering rank (`rank_index`: the ranks' places in the job) for `ranks_per_node`; empty when 0.
std::vector<int32_t> NodesOfRanks(const std::vector<size_t>& rank_index, int64_t ranks_per_node);

}  // namespace nsys::core
