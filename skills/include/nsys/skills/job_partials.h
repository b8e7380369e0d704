#pragma once
// Cross-rank analyses of a job: many rank exports (`nsys profile -o rank%q{RANK}`) analysed as one job.
//
// Every analysis is split in two so that the same code serves one process and MPI:
//  1. a PER-RANK PARTIAL (`RankPartial`), computed from ONE loaded engine::Profile by ComputeRankPartial. It is
//     small (a few numbers per step, per collective instance and per collective kind; no event rows) and plain
//     data, so it can be sent between processes;
//  2. a MERGE over the partials of all ranks (in rank order), which aligns their clocks (AlignClocks) and builds
//     the job skill's skills::Table. Merges are pure functions of the partials: the result does not depend on
//     which process computed which partial.
//
// One partial serves every job skill, so a job loads each rank once. Times in a partial are on the RANK'S OWN
// capture clock; merges put them on the job's clock (rank 0's node) with the ClockAlignment.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/skill.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills::job {

using engine::Ns;

// ---- the per-rank partial ----

// What a rank's profile must have loaded (Profile::Require) before ComputeRankPartial: kernels (with their launch
// calls, for iterations), runtime and NVTX.
inline constexpr engine::Need kRankPartialNeeds = engine::Need::kKernels | engine::Need::kRuntime | engine::Need::kNvtx;

struct PartialOptions {
  // Steps are the outermost NVTX ranges (or mark-to-mark spans) whose name contains this text; empty = training
  // iterations detected by kernel periodicity (common_iterations.h's DetectIterations).
  std::string step_marker;
};

// One step (training iteration) of a rank, on the rank's clock.
struct StepSample {
  int64_t index = 0;  // 0-based in the rank (steps of every device/process of the file, in DetectIterations order)
  int32_t device = -1;
  Ns start = 0, end = 0;
  Ns gpu_busy = 0;  // |∪ kernels of the step|
  int64_t kernels = 0;
  bool operator==(const StepSample&) const = default;
};

// One communication kernel (a collective instance as this rank ran it), on the rank's clock. Instances are matched
// across ranks by (kind, channel, ordinal): the k-th kernel of a collective kind on the rank's c-th communication
// stream (streams numbered by their first communication kernel), which is how NCCL orders a communicator's work.
struct CollectiveSample {
  uint8_t kind = 0;     // builtin::Collective (common_nccl.h); CollectiveKindName() gives its name
  int32_t channel = 0;  // ordinal of the communication stream in the rank
  int64_t ordinal = 0;  // k: 0-based instance of this kind on this channel
  int32_t device = -1;
  int32_t stream = 0;
  Ns start = 0, end = 0;
  // The parts of [start, end) that the rank's compute kernels on the same device overlap (the union of every kernel
  // that is not communication), disjoint and in time order: the rest of the kernel is exposed communication.
  std::vector<std::pair<Ns, Ns>> covered;
  bool operator==(const CollectiveSample&) const = default;
};

// Totals per collective kind (every kernel, not only matched instances).
struct CollectiveTotals {
  uint8_t kind = 0;
  int64_t count = 0;
  Ns total_ns = 0;     // Σ durations
  Ns busy_ns = 0;      // |∪ these kernels|
  Ns overlap_ns = 0;   // |∪ these ∩ ∪ compute kernels| (HTA convention, as nccl_breakdown)
  int64_t bytes = -1;  // message bytes when known; -1 = unknown (kernel rows carry no sizes)
  bool operator==(const CollectiveTotals&) const = default;
};

struct RankPartial {
  std::string label;             // set by the caller (the rank file's name); merges name ranks by it
  std::vector<uint32_t> pids;    // processes with kernels in the file
  std::vector<int32_t> devices;  // devices with kernels
  // Session start, for the coarse clock alignment: the capture clock reads `session_clock_ns` at UTC
  // `session_utc_ns` (TARGET_INFO_SESSION_START_TIME.utcEpochNs and systemClockNs, or ANALYSIS_DETAILS.startTime
  // for exports without systemClockNs). has_session_clock = both are known.
  bool has_session_clock = false;
  int64_t session_utc_ns = 0;
  Ns session_clock_ns = 0;
  Ns first_ns = 0, last_ns = 0;  // the profile's event span (ProfileInfo start_ns/end_ns)

  // Kernels: every kernel of the file.
  int64_t kernels = 0;
  Ns kernel_ns = 0;        // Σ kernel durations
  Ns compute_ns = 0;       // Σ durations of non-communication kernels
  Ns compute_busy_ns = 0;  // |∪ compute kernels| (per device, summed over devices)
  Ns comm_ns = 0;          // Σ durations of communication kernels
  Ns comm_busy_ns = 0;     // |∪ communication kernels| (per device, summed)
  Ns comm_overlap_ns = 0;  // |∪ comm ∩ ∪ compute| (per device, summed)

  std::string step_method;  // "nvtx_range", "nvtx_mark", "kernel_period" or "" when no steps were found
  std::vector<StepSample> steps;
  std::vector<CollectiveSample> collectives;        // sorted by (kind, channel, ordinal)
  std::vector<CollectiveTotals> collective_totals;  // by kind
  std::vector<std::string> notes;
  bool operator==(const RankPartial&) const = default;
};

// Computes the rank's partial. The profile must have kRankPartialNeeds loaded (Require) first. Errors: kCancelled.
Expected<RankPartial> ComputeRankPartial(const engine::Profile& profile, const PartialOptions& options,
                                         const CancelToken& cancel);

const char* CollectiveKindName(uint8_t kind);

// A partial as bytes and back, for sending it between processes (MPI): a versioned little-endian binary form.
// DecodePartial reads untrusted bytes: a short, oversized or malformed buffer is a kInvalidArgument error, never a
// crash, and it allocates no more than the buffer's size justifies.
std::string EncodePartial(const RankPartial& partial);
Expected<RankPartial> DecodePartial(std::string_view bytes);

// ---- clock alignment ----

struct NodeOffset {
  int32_t node = 0;
  std::vector<size_t> ranks;  // indices into the partials
  // This node's clock minus the reference node's (node of rank 0): subtract it from the node's times.
  Ns offset_ns = 0;
  Ns uncertainty_ns = 0;    // the alignment's error bound (see AlignClocks)
  Ns coarse_offset_ns = 0;  // from session start times alone (0 when unknown)
  int64_t matched = 0;      // collective instances used for the refinement (0 = coarse only)
  std::string method;       // "reference", "nccl_ends", "session_start" or "none"
};

struct ClockAlignment {
  std::vector<NodeOffset> nodes;        // in node order
  std::vector<Ns> rank_offset_ns;       // per partial: its node's offset
  std::vector<Ns> rank_uncertainty_ns;  // -1 = unknown
  std::vector<int32_t> rank_node;       // per partial: its node
  // Per partial, per (collective kind, channel): how many instances of rank 0's the rank's capture lacks before its
  // first one (negative: it holds that many more), so that the rank's instance k is rank 0's k + shift.
  std::vector<std::map<std::pair<uint8_t, int32_t>, int64_t>> ordinal_shift;
  std::vector<std::string> notes;
  Ns ToRunClock(size_t rank, Ns t) const { return t - rank_offset_ns[rank]; }
};

// Aligns the ranks' clocks. `node_of_rank` gives each partial's node (ranks of a node share a clock); empty = every
// rank is its own node. Coarse: the session start times (a node's UTC-to-capture-clock mapping); refined: the
// matched collective instances' ENDS, which are near-simultaneous on every rank, per node against the reference
// node: offset = the median over instances of (median end on the node - median end on the reference node);
// uncertainty = the largest deviation of an instance from it, at least the largest spread of one instance's ends
// within a node (which measures how simultaneous the ends are). Without collectives the coarse offset stands.
// Captures that start or stop at different instances are matched first: per rank and (kind, channel), the
// ordinal shift (|shift| <= 8) against rank 0 under which the end differences are steadiest (ordinal_shift).
ClockAlignment AlignClocks(const std::vector<RankPartial>& ranks, const std::vector<int32_t>& node_of_rank);

// ---- the job skills ----

// A merge's result: the table a client shows (rows carry a `rank` column naming the file where per rank) and the
// typed figures behind it, for callers (the agent, tests, MPI equality checks) that want numbers, not cells.
struct StepStats {  // job_step_times
  struct Rank {
    size_t rank = 0;
    int64_t steps = 0;
    Ns median_ns = 0, mean_ns = 0, min_ns = 0, max_ns = 0;
  };
  std::vector<Rank> ranks;
  Ns spread_ns = 0;       // max - min over the ranks' median step times
  double spread_pct = 0;  // spread / median of the medians x 100
};

struct Straggler {  // job_stragglers, one per matched collective instance
  uint8_t kind = 0;
  int32_t channel = 0;
  int64_t ordinal = 0;
  size_t last_rank = 0;  // the rank the others wait for: the last to start, on the job clock
  Ns spread_ns = 0;      // last start - first start
  // The order of the first and last start is beyond the clock alignment's error: spread_ns > the uncertainty of the
  // first and the last rank's nodes together (always when both share a node); false when an uncertainty is unknown.
  bool resolved = false;
  Ns lost_ns = 0;  // Σ over the other ranks of (last start - their start): time lost waiting
};
struct StragglerStats {
  std::vector<Straggler> instances;
  std::vector<int64_t> times_last;  // per rank: instances where it was last
  std::vector<Ns> caused_ns;        // per rank: Σ lost_ns of the instances where it was last
  std::vector<Ns> waited_ns;        // per rank: Σ of its own waits
  int64_t unresolved = 0;           // instances whose order the alignment cannot tell (see Straggler::resolved)
};

struct NcclRankStats {  // job_nccl
  size_t rank = 0;
  uint8_t kind = 0;  // 0xFF = every collective kind
  int64_t count = 0;
  Ns total_ns = 0, busy_ns = 0;
  int64_t bytes = -1;
  double bandwidth_gbps = -1;  // bytes / busy time; -1 when bytes are unknown
  // Of the kernels' time, what no compute kernel of the rank overlaps (exposed), split into: skew, the part of each
  // kernel before the last rank started the same collective instance (this rank waited for the others); transfer, up
  // to the shortest participant's duration of the rest (the transfer itself); and the remainder (this rank's kernel
  // ran longer than the fastest participant, or the instance ran on no other rank). exposed = skew + transfer + rest.
  Ns exposed_ns = 0, skew_ns = 0, transfer_ns = 0, rest_ns = 0;
  int64_t matched = 0;  // kernels matched to the same instance on another rank
};

struct OverlapRankStats {  // job_overlap
  size_t rank = 0;
  Ns compute_busy_ns = 0, comm_busy_ns = 0, overlap_ns = 0, exposed_ns = 0;
  double overlap_pct = 0;  // overlap / comm busy x 100
};

struct ImbalanceStats {       // job_kernel_imbalance
  std::vector<Ns> kernel_ns;  // per rank
  Ns min_ns = 0, max_ns = 0, mean_ns = 0;
  double imbalance_pct = 0;  // (max - mean) / mean x 100
  size_t slowest_rank = 0;
};

struct HeatMap {                         // job_step_heatmap: ranks x steps
  std::vector<std::vector<Ns>> step_ns;  // [rank][step], -1 where the rank has no such step
  int64_t steps = 0;                     // columns: the largest step count of a rank
};

template <typename Figures>
struct Merged {
  Table table;
  Figures figures;
};

Merged<StepStats> MergeStepTimes(const std::vector<RankPartial>& ranks);
Merged<StragglerStats> MergeStragglers(const std::vector<RankPartial>& ranks, const ClockAlignment& clocks);
Merged<std::vector<NcclRankStats>> MergeNccl(const std::vector<RankPartial>& ranks, const ClockAlignment& clocks);
Merged<std::vector<OverlapRankStats>> MergeOverlap(const std::vector<RankPartial>& ranks);
Merged<ImbalanceStats> MergeKernelImbalance(const std::vector<RankPartial>& ranks);
Merged<HeatMap> MergeStepHeatMap(const std::vector<RankPartial>& ranks);
Merged<ClockAlignment> MergeClockTable(const std::vector<RankPartial>& ranks, const std::vector<int32_t>& node_of_rank);

// The job skills as a list, for front ends (`nsys-ai skill run NAME --job DIR`, job-report): name, description,
// the merge's own arguments (checked by the caller against ArgSpec as the skill runner does; PartialOptions'
// `marker` is given to ComputeRankPartial, not here) and the merge to a Table. `node_of_rank` as AlignClocks.
struct JobSkill {
  std::string name;
  std::string description;
  std::vector<ArgSpec> args;
  std::function<Table(const std::vector<RankPartial>& ranks, const std::vector<int32_t>& node_of_rank,
                      const Args& args)>
      merge;
};
const std::vector<JobSkill>& JobSkills();
const JobSkill* FindJobSkill(const std::string& name);

}  // namespace nsys::skills::job
