#pragma once
// THE API BOUNDARY of nsys-ai (as rust-analyzer's `ide` crate, as clangd's ClangdServer): the LSP handlers, the MCP
// tools, the CLI and the agent all call this, and nothing below it. It knows no JSON-RPC. Arguments and results are
// plain structs that could be serialized (server/wire converts them for every face); it is thread-safe; long calls
// take their context last and in one order: (..., const CancelToken& cancel, const ProgressSink& progress).
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "nsys/agent/analyze.h"
#include "nsys/agent/diff.h"
#include "nsys/agent/explain.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/core/annotation_plan.h"
#include "nsys/core/ask.h"
#include "nsys/core/job.h"
#include "nsys/core/report.h"
#include "nsys/core/sources.h"
#include "nsys/core/traces.h"
#include "nsys/engine/profile.h"
#include "nsys/llm/config.h"
#include "nsys/skills/nvtx_coverage.h"
#include "nsys/skills/nvtx_tree.h"
#include "nsys/skills/registry.h"
#include "nsys/skills/result_memo.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "nsys/trace/trace_output.h"

namespace nsys::source {
class AnnotationIndex;  // nsys/source/annotation_index.h
}
namespace nsys::agent {
class KernelParagraphs;   // nsys/agent/explain_llm.h
class ConversationStore;  // nsys/agent/ask.h: its LLM messages carry JSON, kept out of every face
}  // namespace nsys::agent

namespace nsys::core {

// The workspace's state holders (server/core/src/stores.h).
class ProfileStore;
class JobStore;
class SourceSets;
struct LoadedProfile;
struct JobEntry;
struct SkillCall;  // a skill found in the registry with its run options (stores.h)

// A skill call to precompute: the skill's name and its raw arguments (as a client would send them).
struct WarmCall {
  std::string skill;
  skills::Args args;
};

// How the workspace loads a profile: engine::Profile::Open unless a test substitutes one (to hold a load at a
// chosen point, or count loads).
using ProfileOpener = std::function<Expected<std::shared_ptr<engine::Profile>>(
    const std::string& path, const engine::OpenOptions& options, const ProgressSink& progress,
    const CancelToken& cancel)>;

struct WorkspaceConfig {
  engine::OpenOptions open;             // cache on/off, cache dir, loader threads
  std::vector<std::string> skill_dirs;  // user skill folders, loaded after the default ones
  bool default_skill_dirs = true;  // also ~/.config/nsys-ai/skills and ./.nsys-ai/skills (skills::DefaultUserSkillDirs)
  // Long-lived front ends (serve, mcp): once a profile has loaded every table, run these calls on a low-priority
  // thread so that the first request for them is answered from the result memo. The one-shot CLI leaves it empty
  // (it would load tables nobody asked for).
  std::vector<WarmCall> warm_skills;
  // Traces written for exportTrace calls without `output` (in <cache>/exported-traces): how many stay, and how long.
  trace::TraceCacheLimits trace_cache;
  // How long one user skill's SQL may run (CLI --skill-timeout; a session may set its own through
  // initializationOptions.skillTimeoutSeconds, see RunSkill). Past it the job fails with kLimitExceeded.
  std::chrono::milliseconds skill_timeout = skills::kDefaultUserSkillTimeout;
  // Each open profile's result memo holds at most this many bytes (ResultMemo::BytesOf plus keys).
  size_t memo_budget_bytes = skills::ResultMemo::kDefaultBudgetBytes;
  // Bounds on what clients may hold open. Opens of one unchanged file share its load (see Workspace::Open), so
  // only distinct files cost memory: ~20 MiB each for the 2.2 MB examples/h100_2gpu_1s.sqlite (8 copies took
  // `serve` from 6 to 166 MiB RSS), ~1.65 GB for a fully loaded 2 GB export, so 8 of those fit a 16 GB budget.
  // Past either bound Open fails with kLimitExceeded.
  size_t max_loaded_profiles = 8;  // distinct files loaded (or loading) at once
  size_t max_open_ids = 256;       // open ids, shared or not: each costs a map entry
  ProfileOpener opener;            // empty: engine::Profile::Open
  // Jobs (core/job.h): each job's ranks are loaded under its own byte budget (JobRequest's, else this),
  // `job_threads` at a time, apart from max_loaded_profiles above. At most `max_open_jobs` jobs are open.
  uint64_t job_memory_budget_bytes = kDefaultJobMemoryBudget;
  int job_threads = kDefaultJobThreads;
  std::string launch_binary;  // the nsys-ai a job launcher runs (LaunchJobReport); empty = this process's binary
  size_t max_open_jobs = 16;
  // The LLM the agent may use (ask, explanations). Provider kNone = offline; a session may give its own through
  // initializationOptions.llm. The key never leaves the server.
  llm::Config llm;
};

// The longest skill timeout a front end accepts: a day.
inline constexpr std::chrono::milliseconds kMaxSkillTimeout{86'400'000};
// The LLM configuration from this process's environment (llm::ConfigFromEnvironment over getenv): what front ends
// put in WorkspaceConfig::llm.
Expected<llm::Config> LlmConfigFromEnvironment();

// Seconds (from --skill-timeout or initializationOptions.skillTimeoutSeconds) as a timeout: more than 0 (at least
// 1 ms once rounded) and at most kMaxSkillTimeout. kInvalidArgument otherwise, naming the accepted range.
Expected<std::chrono::milliseconds> SkillTimeoutFromSeconds(double seconds);
// The same from command-line text ("5", "0.5").
Expected<std::chrono::milliseconds> ParseSkillTimeout(const std::string& text);

// The calls worth warming: the whole-profile NVTX and launch analyses with their defaults, and nvtx_summary as nsys
// groups it (split_op_id), each a few hundred ms of scanning on a profile with tens of millions of rows; the
// others answer in well under 100 ms without help.
std::vector<WarmCall> DefaultWarmSkills();

// nsys/nvtxTree: one level of a profile's NVTX hierarchy (skills/nvtx_tree.h). `parent` empty = the
// threads with NVTX ranges; otherwise a node id an earlier call returned.
struct NvtxTreeRequest {
  std::string profile_id;
  std::string parent;
  engine::FilterSpec filter;  // window, devices, processes, threads (ResolveFilter checks them)
};

// An open profile as the faces see it: a copy of what is known, never the loaded profile itself (the workspace owns
// that; every query goes through a Workspace call).
struct OpenedProfile {
  std::string id;  // "p1", "p2", ...: stable for the session
  // The profile's description when the call returned (engine::ProfileInfo; its row_checks are the profile's own
  // running counts of damaged rows).
  engine::ProfileInfo info;
  // Its NVTX mapping coverage when already computed (KnownMappingCoverage); filled by Open, Describe and
  // CheckTables.
  std::optional<skills::NvtxCoverage> coverage = std::nullopt;
};

// What ReloadSkills did: the warnings of the user skill files it could not load, and how many skills are known now.
struct SkillReload {
  std::vector<std::string> warnings;
  size_t skill_count = 0;
};

// nsys/analyze in an editor (Workspace::AnalyzeForEditor): the analysis, and the profile's source file, on which the
// findings are published; nullopt when the id was closed while the analysis ran.
struct EditorAnalysis {
  agent::Analysis analysis;
  std::optional<std::string> source_path;
};

class Workspace {
 public:
  explicit Workspace(WorkspaceConfig config);
  ~Workspace();  // stops warm-up threads
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // Opens a profile under a new id. Opening a file that is already open and unchanged (same device, inode, size,
  // mtime and ctime) with the same loading options shares the loaded profile, its result memo and its warm-up; a
  // concurrent open of the same file waits for the first one's load rather than loading it twice. Each open still
  // gets its own id, and the shared profile is released when the last id referring to it is closed.
  // Context parameters come last, cancel then progress, as in every Workspace call.
  Expected<OpenedProfile> Open(const std::string& path, const CancelToken& cancel = {},
                               const ProgressSink& progress = {});
  // The same with per-call options (e.g. an editor asking for one profile without the cache).
  Expected<OpenedProfile> Open(const std::string& path, const engine::OpenOptions& options,
                               const CancelToken& cancel = {}, const ProgressSink& progress = {});
  Status Close(const std::string& id);
  // Describe, then Close, in one call (nsys/closeProfile: the editor clears the diagnostics published on the
  // profile's source file). Close's error when the id is not open.
  Expected<OpenedProfile> CloseAndDescribe(const std::string& id);
  // The open profile with what is known of it without loading anything (nsys/profileInfo): its mapping coverage
  // when computed. kNotFound, listing the open ids, for an id that is not open.
  Expected<OpenedProfile> Describe(const std::string& id) const;
  std::vector<OpenedProfile> List() const;
  // Loads every event table (so that the damaged-row counts cover the whole export) and computes the mapping
  // coverage, then describes the profile as Describe does (`info --check`).
  Expected<OpenedProfile> CheckTables(const std::string& id, const CancelToken& cancel = {},
                                      const ProgressSink& progress = {});

  // Skills: built-ins plus user skills. ReloadSkills re-reads the user folders and returns warnings (bad files) and
  // the number of skills it left known.
  std::vector<std::shared_ptr<const skills::Skill>> Skills() const;
  SkillReload ReloadSkills();
  // Adds user skill folders (those not already known) and reloads; returns the reload's warnings.
  std::vector<std::string> AddSkillDirs(const std::vector<std::string>& dirs);
  // kNotFound naming the known skills (skills::Registry::Get) when there is none by that name.
  Expected<std::shared_ptr<const skills::Skill>> FindSkill(const std::string& name) const;
  // Answered from the profile's result memo when the same call ran before (skills are pure functions of an
  // immutable profile); otherwise runs the skill and remembers the result. `skill_timeout` overrides the
  // configured one for this call (a session's initializationOptions.skillTimeoutSeconds).
  Expected<skills::Table> RunSkill(const std::string& profile_id, const std::string& skill, const skills::Args& args,
                                   const CancelToken& cancel = {}, const ProgressSink& progress = {},
                                   std::optional<std::chrono::milliseconds> skill_timeout = std::nullopt);
  // The same with a filter in the one filter shape (a client's `filter`), besides the common arguments in `args`.
  Expected<skills::Table> RunSkill(const std::string& profile_id, const std::string& skill, const skills::Args& args,
                                   const engine::FilterSpec& filter, const CancelToken& cancel = {},
                                   const ProgressSink& progress = {},
                                   std::optional<std::chrono::milliseconds> skill_timeout = std::nullopt);

  // ---- runs ----
  // Opens a job: lists and checks its files (ListJobFiles) without loading any; ranks load when a query needs them
  // (core/job.h). The rank files are protected from trace outputs like profiles. kLimitExceeded past
  // WorkspaceConfig::max_open_jobs.
  Expected<OpenedJob> OpenJob(const JobRequest& request, const CancelToken& cancel = {},
                              const ProgressSink& progress = {});
  Status CloseJob(const std::string& job_id);
  std::vector<OpenedJob> ListJobs() const;
  // A skill on every rank of a job: the ranks' rows in rank order, each led by a `rank` column (the file's name),
  // and their notes prefixed with the ranks they come from. A rank that fails or declines is named in a note, the
  // others still answer; when every rank fails the first error is returned. Results are memoised per job.
  // A job skill's name (skills::job::JobSkills(): job_stragglers, job_clock_alignment, ...) runs that cross-rank
  // analysis instead: each rank's partial (computed once per job and step marker), then the skill's merge; its
  // arguments are its own plus JobSkillCommonArgs() (marker, ranks_per_node); `filter` must be empty.
  Expected<skills::Table> RunSkillOnJob(const std::string& job_id, const std::string& skill, const skills::Args& args,
                                        const engine::FilterSpec& filter, const CancelToken& cancel = {},
                                        const ProgressSink& progress = {},
                                        std::optional<std::chrono::milliseconds> skill_timeout = std::nullopt);
  // Per rank: kernels, GPU time, NCCL time, step time when iterations are found; and every job skill with its
  // defaults (JobReport::analyses), from partials computed in the same visit of each rank.
  Expected<JobReport> ReportJob(const std::string& job_id, const CancelToken& cancel = {},
                                const ProgressSink& progress = {});
  // ReportJob as a batch task of `launcher` (initializationOptions.runLauncher, e.g. {"srun", "-N", "8"}): it runs
  // `<launcher> <nsys-ai> job-report RANKS... --mpi --format json --progress-lines --memory-budget B` and returns
  // what the job printed (the report as nsys/jobReport's JSON); the job's progress lines come to `progress`.
  // kCancelled kills the job; a job that fails is kInternal with the end of its stderr.
  Expected<std::string> LaunchJobReport(const std::string& job_id, const std::vector<std::string>& launcher,
                                        const CancelToken& cancel = {}, const ProgressSink& progress = {});
  Expected<JobMemoryStats> JobStats(const std::string& job_id) const;
  // ReportJob in its two halves, for a job spread over processes (server/mpi; ReportJob is both in one process).
  // The per-rank half for the ranks `which` (indices into OpenedJob::ranks): one part per index, in that order; a
  // rank that fails is a part with its error. kInvalidArgument for an index out of range.
  Expected<std::vector<RankReportPart>> ReportJobRanks(const std::string& job_id, const std::vector<size_t>& which,
                                                       const CancelToken& cancel = {},
                                                       const ProgressSink& progress = {});
  // The merge half: one part per rank of the job, in rank order, computed by any process (their partials become
  // the job's, unless it has them already); then every job skill. kInvalidArgument when the parts do not name the
  // job's ranks; the first error when every rank failed; kCancelled when a rank was cancelled. The report's memory
  // figures are this process's.
  Expected<JobReport> MergeJobReport(const std::string& job_id, std::vector<RankReportPart> parts,
                                     const CancelToken& cancel = {});
  // A job skill in the same two halves: the partials of the ranks `which` for the step marker `marker` (one per
  // index, or that rank's error), then the skill's merge over one per rank of the job in rank order (`args` as
  // RunSkillOnJob's). kNotFound when `skill` is not a job skill.
  Expected<std::vector<Expected<skills::job::RankPartial>>> JobPartialsOfRanks(const std::string& job_id,
                                                                               const std::vector<size_t>& which,
                                                                               const std::string& marker,
                                                                               const CancelToken& cancel = {},
                                                                               const ProgressSink& progress = {});
  Expected<skills::Table> MergeJobSkill(const std::string& job_id, const std::string& skill, const skills::Args& args,
                                        std::vector<Expected<skills::job::RankPartial>> parts,
                                        const CancelToken& cancel = {});

  // ---- analyze ----
  // The Book of Root Causes checked against the profile (agent/analyze.h), its skills run through the result memo.
  // `on_finding` sees each finding as soon as it is known (for streaming); the result ranks them.
  Expected<agent::Analysis> Analyze(const std::string& profile_id, const agent::AnalyzeOptions& options,
                                    const agent::FindingSink& on_finding = {}, const CancelToken& cancel = {},
                                    const ProgressSink& progress = {});
  // Analyze (no streaming of findings unless `on_finding`), with the profile's source file as Describe gives it
  // after the analysis: nsys/analyze, which publishes the findings on that file.
  Expected<EditorAnalysis> AnalyzeForEditor(const std::string& profile_id, const agent::AnalyzeOptions& options,
                                            const agent::FindingSink& on_finding = {}, const CancelToken& cancel = {},
                                            const ProgressSink& progress = {});
  // The cross-rank causes of a job (agent/job_analyze.h: stragglers, kernel imbalance, step-time spread) from the
  // ranks' partials (computed once per job); `ranks_per_node` as the job skills' (the clock alignment's nodes).
  Expected<agent::Analysis> AnalyzeJob(const std::string& job_id, int64_t ranks_per_node = 0,
                                       const CancelToken& cancel = {}, const ProgressSink& progress = {});
  // ---- explain ----
  // What a kernel is and how it behaves in the profile (agent/explain.h), for hovers: loads the kernel table (and the
  // runtime table for launches) if needed, then answers from one pass over it plus the memoised nvtx_kernel_map.
  // kNotFound names the closest kernels when none matches.
  Expected<agent::KernelExplanation> ExplainKernel(const std::string& profile_id, const std::string& kernel,
                                                   const CancelToken& cancel = {}, const ProgressSink& progress = {});
  // With an LLM configured (the session's `llm`, else WorkspaceConfig::llm), the model's paragraph on the
  // explanation, grounded in its facts (agent/explain_llm.h), put into its Markdown. Never waits on the model: what
  // is cached (memory, then <cache>/llm-explain) shows at once; otherwise the request starts in the background and
  // the Markdown says so. Without an LLM the explanation is left as it is.
  void AddAiParagraph(agent::KernelExplanation& explanation, const std::optional<llm::Config>& llm = std::nullopt);
  // An editor's explanation (nsys/explainKernel, the hover on a report's kernel): ExplainKernelWithSources, then
  // AddAiParagraph with the session's `llm` (never waits on the model).
  Expected<agent::KernelExplanation> ExplainKernelForEditor(const std::string& profile_id, const std::string& kernel,
                                                            const std::string& set_id,
                                                            const std::optional<llm::Config>& llm,
                                                            const CancelToken& cancel = {},
                                                            const ProgressSink& progress = {});
  // ---- NVTX tree ----
  // Loads kernels, runtime calls and NVTX ranges with their links (engine::Need::kAttribution), then reads one level
  // of the tree (skills::NvtxTree, built once per profile and filter and kept: the last 4 filters). kInvalidArgument
  // naming `parent` for an id that is not a node.
  Expected<skills::NvtxTreeLevel> NvtxTree(const NvtxTreeRequest& request, const CancelToken& cancel = {},
                                           const ProgressSink& progress = {});
  // ---- report ----
  // The profile as a text document (core/report.h): loads kernels and NVTX ranges, runs Analyze on the whole
  // profile (through the result memo), renders the summary, top kernels, findings and NVTX ranges with their spans.
  // `on_partial` gets the document after each part is known, the summary first.
  Expected<ProfileReport> Report(const std::string& profile_id, const ReportSink& on_partial = {},
                                 const CancelToken& cancel = {}, const ProgressSink& progress = {});
  // ---- diff ----
  // The diff of two open profiles (agent/diff.h), each read through its result memo (RunnerFor). kNotFound for an
  // id that is not open; kInvalidArgument for a bad phase map. Progress names the step.
  Expected<agent::DiffReport> Diff(const std::string& base_id, const std::string& new_id,
                                   const agent::DiffOptions& options, const CancelToken& cancel = {},
                                   const ProgressSink& progress = {});

  // ---- annotation plan (nsys/annotationPlan, CLI suggest) and mapping coverage ----
  // The profile's mapping coverage (skills::ComputeNvtxCoverage over the whole profile) when it is already known:
  // the warm-up computes it once the attribution tables have loaded, and MappingCoverage / AnnotationPlanFor remember
  // it. Cheap: never loads a table. nullopt when not computed yet, or for an id that is not open.
  std::optional<skills::NvtxCoverage> KnownMappingCoverage(const std::string& profile_id) const;
  // Loads kernels, runtime calls and NVTX ranges with their links (engine::Need::kAttribution), then computes the
  // coverage once per loaded profile.
  Expected<skills::NvtxCoverage> MappingCoverage(const std::string& profile_id, const CancelToken& cancel = {},
                                                 const ProgressSink& progress = {});
  // What to refine next (annotation_plan.h): every innermost range whose instances launch more than one kernel, most
  // GPU time first, each with the place its name is given in the request's sources and the edit that adds finer ranges
  // inside it (source/edits.h), and the command to profile again. Runs nvtx_range_kernels through the result memo.
  // kNotFound for an unknown profile or a source root that does not exist.
  Expected<AnnotationPlan> AnnotationPlanFor(const AnnotationPlanRequest& request, const CancelToken& cancel = {},
                                             const ProgressSink& progress = {});
  // The code actions at a place of a source file (annotation_plan.h): "Add NVTX ranges inside 'X'" for each range named
  // on the selected lines (or whose body holds them) that is innermost and launches more than one kernel in a call of
  // the profile (nvtx_range_kernels through the result memo; none without a profile), and "Annotate this function"
  // when the innermost function around the selection has no range. Empty for a language the edits do not support.
  Expected<std::vector<SourceAction>> SourceActions(const SourceActionRequest& request, const CancelToken& cancel = {},
                                                    const ProgressSink& progress = {});

  // ---- ask ----
  // One question over an open profile, answered in the agent's answer shape (agent/answer.h): offline by the
  // deterministic mapper (agent/ask.h), or, once joined, by the configured LLM. `conversation_id` keeps the
  // previous turn for follow-ups (bounded: kMaxConversations, idle kConversationIdle). The answer's Markdown goes
  // to `on_text` in pieces (may be empty). kInvalidArgument for an empty question or one over 8 KiB
  // (agent::kMaxQuestionBytes), kNotFound for an unknown profile.
  Expected<AskResult> Ask(const AskRequest& request, const agent::TextSink& on_text, const CancelToken& cancel = {},
                          const ProgressSink& progress = {});
  // Questions given as typed Queries (agent/query.h), answered by the executor `ask` uses when it reads a question
  // whole: the answer opens with each Query's reading. kInvalidArgument for a Query out of agent::CheckQuery's bounds
  // (or none), kNotFound for an unknown profile. No conversation: a Query carries all it needs.
  Expected<AskResult> AskQueries(const QueryRequest& request, const CancelToken& cancel = {});

  // ---- sources (kernel -> source; structs in sources.h) ----
  // A source set is the annotation index of one editor session's source tree (server/source/), owned here so that
  // every face maps profiles onto it through one API. At most kMaxSourceSets (kLimitExceeded past it); ids "s1",
  // "s2", ...; an unknown id is kNotFound. Every call is thread-safe.
  Expected<std::string> OpenSourceSet();
  void CloseSourceSet(const std::string& set_id);  // an unknown id is ignored
  // Indexes each root (a directory: gitignored, VCS and build directories skipped), replacing what was indexed
  // under it before. A root that is not a directory is a warning of the result, not an error; kCancelled when
  // cancelled. Progress names the root.
  Expected<SourceIndexStats> IndexSources(const std::string& set_id, const std::vector<std::string>& roots,
                                          const CancelToken& cancel = {}, const ProgressSink& progress = {});
  // An editor buffer's text overrides the file until CloseSourceText; RefreshSource re-reads a file from disk
  // (saved, created or changed), RemoveSource forgets a deleted one. Files of no known language are ignored.
  Status SetSourceText(const std::string& set_id, const std::string& path, const std::string& text);
  Status CloseSourceText(const std::string& set_id, const std::string& path);
  Status RefreshSource(const std::string& set_id, const std::string& path);
  Status RemoveSource(const std::string& set_id, const std::string& path);
  // The indexed files that have annotations, and one file's annotations (in source order).
  Expected<std::vector<std::string>> SourceFiles(const std::string& set_id) const;
  Expected<std::vector<source::Annotation>> SourceAnnotations(const std::string& set_id, const std::string& path) const;
  // Every annotation of request.file matched against the profile (candidate calls only when their literal is a
  // range name), in source order.
  Expected<std::vector<SourceMatch>> SourceMatches(const SourceRequest& request, const CancelToken& cancel = {},
                                                   const ProgressSink& progress = {});
  Expected<std::vector<SourceLens>> SourceLenses(const SourceRequest& request, const CancelToken& cancel = {},
                                                 const ProgressSink& progress = {});
  // The hover of the name literal at (line, character), or nullopt when there is none there.
  Expected<std::optional<SourceHover>> SourceHoverAt(const SourceRequest& request, int line, int character,
                                                     const CancelToken& cancel = {}, const ProgressSink& progress = {});
  // Diagnostics of request.file, or (file empty) of every indexed file with annotations.
  Expected<std::vector<SourceFileDiagnostics>> SourceDiagnostics(const SourceRequest& request,
                                                                 const CancelToken& cancel = {},
                                                                 const ProgressSink& progress = {});
  // The innermost annotated ranges launching `kernel` (short or demangled name). kNotFound for an unknown kernel.
  Expected<KernelSources> KernelSourcesOf(const std::string& set_id, const std::string& profile_id,
                                          const std::string& kernel, const CancelToken& cancel = {},
                                          const ProgressSink& progress = {});
  // ExplainKernel, its Markdown followed by the kernel's source locations in the set (when it has any).
  Expected<agent::KernelExplanation> ExplainKernelWithSources(const std::string& profile_id, const std::string& kernel,
                                                              const std::string& set_id, const CancelToken& cancel = {},
                                                              const ProgressSink& progress = {});
  // nsys-ai.revealRange: PublishTrace of the instance's window, and the range's kernels (most GPU time first).
  Expected<RangeRevelation> RevealRange(const RevealRangeRequest& request, TracePublisher& publisher,
                                        const std::string& perfetto_origin, const CancelToken& cancel = {},
                                        const ProgressSink& progress = {});

  // Traces (traces.h). ExportTrace writes request.output (checked by trace_output.h against every profile this
  // workspace opened; a refusal is kInvalidArgument naming the reason) or, without it, a fresh file in the trace
  // cache; the result names the file. ExportTraceStream hands the bytes to `sink` in chunks of about `chunk_bytes`
  // (0 = the writer's default) instead; request.output is ignored. PublishTrace writes into the publisher's
  // directory and publishes the file (removed again on cancellation or a refused publication).
  Expected<TraceExport> ExportTrace(const TraceRequest& request, const CancelToken& cancel = {},
                                    const ProgressSink& progress = {});
  Expected<TraceExport> ExportTraceStream(const TraceRequest& request, const TraceChunkSink& sink, size_t chunk_bytes,
                                          const CancelToken& cancel = {}, const ProgressSink& progress = {});
  Expected<TracePublication> PublishTrace(const TraceRequest& request, TracePublisher& publisher,
                                          const std::string& perfetto_origin, const CancelToken& cancel = {},
                                          const ProgressSink& progress = {});
  // A job's trace (ExportJobTrace, request.output ignored) written into the publisher's directory and published:
  // openInPerfetto on a job.
  Expected<TracePublication> PublishJobTrace(JobTraceRequest request, TracePublisher& publisher,
                                             const std::string& perfetto_origin, const CancelToken& cancel = {},
                                             const ProgressSink& progress = {});
  // A job's trace (JobTraceRequest): the clock alignment from the ranks' partials (computed once per job), then
  // each rank loaded in turn under the job's budget and written as its part. A rank that fails is named in the
  // result and left out; kNotFound for an unknown run; the output is checked as ExportTrace's.
  Expected<JobTraceExport> ExportJobTrace(const JobTraceRequest& request, const CancelToken& cancel = {},
                                          const ProgressSink& progress = {});
  // Loads the tables the request's trace needs (the export calls do it too; a front end that times the load apart
  // from the write calls this first).
  Status LoadForTrace(const TraceRequest& request, const CancelToken& cancel = {}, const ProgressSink& progress = {});
  // Whether `output` ("-" = stdout) may receive a trace of the profile: the export's own check, run early.
  Status CheckTraceOutput(const std::string& profile_id, const std::string& output, bool force) const;

  // The files of every profile this workspace opened (open now or closed since), and their conversions: what a
  // trace output may never replace (trace_output.h). By device and inode, so links to them count too.
  trace::OutputPolicy TraceOutputPolicy() const;
  // The cache directory (support::ResolveCacheDir of the configured one), resolved once when the workspace is made.
  std::string CacheDir() const;

  // A copy: skill folders can change (AddSkillDirs) while other threads read the configuration.
  WorkspaceConfig config() const {
    std::lock_guard lock(mu_);
    return config_;
  }

 private:
  // Test hooks (tests/core/workspace_test_util.h: WorkspaceTestAccess), not part of the API.
  friend struct WorkspaceTestAccess;
  // Until no AI paragraph is being written, at most `timeout`. No front end waits on the model.
  bool WaitForAiParagraphs(std::chrono::milliseconds timeout);
  // The agent's way to run skills on one open profile: RunSkill through the result memo, with the configured
  // timeout. The runner holds the profile's id, not the profile: a call after Close fails with kNotFound. The
  // workspace must outlive it. Used by the features here (Analyze, ExplainKernel, Diff, Ask).
  agent::SkillRunner RunnerFor(const std::string& profile_id);
  // Hits, misses and size of a profile's result memo.
  Expected<skills::ResultMemo::Stats> MemoStats(const std::string& profile_id) const;
  // Blocks until the profile's warm-up (WorkspaceConfig::warm_skills) has finished.
  void WaitForWarmUp(const std::string& profile_id);
  // The loaded profile behind an open id (tests compare it with SQL).
  Expected<std::shared_ptr<engine::Profile>> Get(const std::string& id) const;
  // The NVTX trees kept for a profile (NvtxTree), most recently used first; empty for an id that is not open.
  std::vector<std::shared_ptr<const skills::NvtxTree>> KeptNvtxTrees(const std::string& id) const;
  // A profile's range figures (sources.h): nvtx_range_kernels through the result memo plus one pass for the
  // per-range kernels, longest instances and kernel stacks (skills/nvtx_range_breakdown.h). Computed once per
  // loaded profile, then shared: the source calls answer from it in microseconds. Tests read it through
  // WorkspaceTestAccess::Figures.
  Expected<std::shared_ptr<const RangeFigureTable>> FiguresOf(const std::string& profile_id,
                                                              const CancelToken& cancel = {},
                                                              const ProgressSink& progress = {});

  // The skill by that name (kNotFound naming the known ones) and how to run it: `skill_timeout` or the configured one.
  Expected<SkillCall> SkillCallOf(const std::string& name,
                                  std::optional<std::chrono::milliseconds> skill_timeout) const;
  // The state of an open profile, run or source set (server/core/src/stores.h), or kNotFound naming the id.
  Expected<std::shared_ptr<LoadedProfile>> EntryOf(const std::string& id) const;
  Expected<std::shared_ptr<JobEntry>> JobEntryOf(const std::string& job_id) const;
  Expected<std::shared_ptr<source::AnnotationIndex>> SourceSet(const std::string& set_id) const;
  // The cache of traces written without an output path; created on first use, its traces removed with the workspace.
  trace::TraceCache& TraceCache();

  mutable std::mutex mu_;  // guards config_, registry_ and trace_cache_
  WorkspaceConfig config_;
  skills::Registry registry_;
  std::unique_ptr<trace::TraceCache> trace_cache_;
  std::string cache_dir_;
  // The state holders (stores.h); the calls above look their state up there and hand it to a feature.
  std::unique_ptr<ProfileStore> profiles_;
  std::unique_ptr<JobStore> jobs_;
  std::unique_ptr<SourceSets> source_sets_;
  std::unique_ptr<agent::ConversationStore> conversations_;
  // Last, so it is destroyed first: its threads are cancelled and joined before the rest goes. Held by pointer: its
  // header brought the LLM client (and nlohmann's JSON) into every face's include closure; the one way left is
  // listed in tests/architecture/layering_test.cpp (kKnownJsonEntries).
  std::unique_ptr<agent::KernelParagraphs> paragraphs_;
};

// The same check before any profile is open (the CLI refuses a bad output before a long load): `profile_path`'s
// file is protected.
Status CheckTraceOutputBeforeOpen(const std::string& profile_path, const std::string& output, bool force);

}  // namespace nsys::core
