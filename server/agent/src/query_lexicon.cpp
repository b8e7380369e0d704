// The offline filler's lexicon (see query_lexicon.h): each line a phrase and the slot it fills.
#include "query_lexicon.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/agent/query.h"
#include "nsys/skills/kernel_names.h"
#include "text_case.h"

namespace nsys::agent::lexicon {
namespace {

constexpr uint8_t M(Measure m) {
  return static_cast<uint8_t>(m);
}
constexpr uint8_t E(EventKind e) {
  return static_cast<uint8_t>(e);
}

constexpr std::array<std::string_view, 6> kCopyKinds = {"HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "Unified"};
// Nouns for the recording a question is about.
constexpr std::string_view kRecordingNouns[] = {"trace",     "traces", "profile", "profiles", "capture",    "export",
                                                "recording", "report", "session", "engine",   "job",        "workload",
                                                "benchmark", "run",    "runs",    "sim",      "simulation", "window"};
// Frameworks, languages and words for the program a question names to say which run it means; GPU brands before a
// model number.
constexpr std::string_view kContextWords[] = {
    "pytorch",   "torch",     "jax",         "keras",       "tensorflow", "tf",          "julia",   "openmp",
    "tensorrt",  "trt",       "python",      "fortran",     "app",        "application", "program", "binary",
    "version",   "build",     "nvidia",      "geforce",     "rtx",        "gtx",         "tesla",   "quadro",
    "optimised", "optimized", "unoptimised", "unoptimized", "baseline",   "simulation",  "script"};
// Words that, left unread, may change what a question asks: time and order ("after", "last", "second"), bounds
// and exclusions ("except", "only", "without"), relations ("that", "whose", "while"), sizes and speeds said as
// adjectives ("small", "slow"), states of events ("idle", "overlapping", "blocking", "failed"), units of a program
// no Query holds ("thread", "frame", "step", "layer"), and the words of a diagnosis below. Any other plain word a
// clause that names its events does not read is taken as describing them (IsDescriptiveWord).
constexpr std::string_view kMeaningWords[] = {
    "after",       "before",     "since",      "until",        "till",         "between",      "within",
    "during",      "while",      "when",       "whenever",     "once",         "then",         "next",
    "previous",    "prior",      "later",      "earlier",      "early",        "late",         "latest",
    "earliest",    "recent",     "initial",    "final",        "first",        "last",         "second",
    "third",       "fourth",     "fifth",      "start",        "starts",       "starting",     "begin",
    "begins",      "began",      "beginning",  "end",          "ends",         "ending",       "ended",
    "finish",      "finished",   "moment",     "window",       "interval",     "period",       "phase",
    "step",        "steps",      "iteration",  "iterations",   "epoch",        "epochs",       "frame",
    "frames",      "stage",      "stages",     "layer",        "layers",       "warmup",       "warm",
    "cold",        "except",     "excluding",  "exclude",      "excluded",     "without",      "not",
    "no",          "none",       "nor",        "never",        "only",         "just",         "outside",
    "ignoring",    "ignore",     "besides",    "other",        "others",       "else",         "apart",
    "that",        "which",      "whose",      "who",          "where",        "if",           "unless",
    "whether",     "same",       "different",  "distinct",     "unique",       "new",          "old",
    "repeated",    "small",      "smaller",    "smallest",     "large",        "big",          "tiny",
    "huge",        "long",       "short",      "slow",         "fast",         "quick",        "quickest",
    "expensive",   "cheap",      "cheapest",   "heavy",        "light",        "hot",          "busy",
    "busiest",     "idle",       "idling",     "gap",          "gaps",         "overlap",      "overlaps",
    "overlapping", "overlapped", "concurrent", "concurrently", "simultaneous", "parallel",     "serial",
    "serialized",  "failed",     "fail",       "fails",        "failing",      "error",        "errors",
    "blocking",    "blocked",    "blocks",     "exposed",      "hidden",       "waiting",      "wait",
    "waits",       "waited",     "stalled",    "stall",        "synchronous",  "asynchronous", "async",
    "thread",      "core",       "cores",      "cpu",          "sm",           "sms",          "warp",
    "warps",       "register",   "registers",  "occupancy",    "utilization",  "utilisation",  "efficiency",
    "latency",     "queue",      "queued",     "delay",        "delayed",      "causes",       "expected",
    "normal",      "usual",      "typical",    "half",         "double",       "twice",        "triple",
    "ratio",       "percentile", "median",     "variance",     "deviation",    "jitter",       "spread",
    "outlier",     "outliers",   "nested",     "nesting",      "enclosing",    "enclosed",     "child",
    "children",    "parent",     "parents",    "inner",        "outer",        "according"};
constexpr std::string_view kLibraryNames[] = {
    "mpi",         "openmpi",  "mpich",    "ucx",     "nvshmem",   "cufft",      "cublas", "cublaslt",
    "cudnn",       "cusparse", "cusolver", "curand",  "nccl",      "cutlass",    "thrust", "tensorrt",
    "triton",      "xla",      "jax",      "pytorch", "torch",     "tensorflow", "keras",  "julia",
    "openmp",      "openacc",  "nvfuser",  "apex",    "deepspeed", "megatron",   "vllm",   "onnx",
    "onnxruntime", "cupy",     "numba",    "rapids",  "kokkos",    "raja"};
// Words that ask for a cause or a remedy: the Book's diagnosis answers such a question (AskOfflineTurn).
constexpr std::string_view kDiagnosisWords[] = {"why",      "bottleneck", "bottlenecks", "wrong",          "improve",
                                                "optimize", "optimise",   "recommend",   "recommendation", "suggest",
                                                "fix",      "problem",    "problems",    "advice",         "cause"};
// Words of everyday English and the lexicon word each stands for: the same slot, said another way. Each stands
// for the word in every phrase too ("the longest idle stretch" is "the longest idle gap").
struct Synonym {
  std::string_view word, stands_for;
};
// What `word` stands for in a table of such pairs, or "".
std::string_view StandsFor(std::span<const Synonym> table, std::string_view word) {
  for (const Synonym& s : table) {
    if (s.word == word) return s.stands_for;
  }
  return {};
}
constexpr Synonym kSynonyms[] = {
    // A time taken, summed.
    {"accumulate", "take"},
    {"amass", "take"},
    {"occupy", "take"},
    {"cover", "take"},
    {"hog", "take"},
    {"absorb", "take"},
    {"devour", "take"},
    {"soak", "take"},
    {"require", "take"},
    {"hold", "take"},  // "what percentage of the kernel time do they hold"
    {"contribute", "take"},
    {"burn", "take"},
    {"eat", "take"},
    {"ate", "took"},
    {"accounted", "took"},      // "which stream accounted for the most kernel time"
    {"computer", "host"},       // "between the computer and the card"
    {"calculation", "kernel"},  // "the GPU's calculation time", "one calculation on the GPU"
    {"calculations", "kernels"},
    {"request", "call"},  // "reserving memory, over how many requests"
    {"requests", "calls"},
    {"account", "take"},
    {"gone", "spent"},   // "how much kernel time has already gone by"
    {"waste", "spend"},  // "how much time was wasted in copies": spent, as the person sees it
    {"wasted", "spent"},
    {"sink", "spend"},
    {"sank", "spent"},
    {"sunk", "spent"},
    {"hogged", "took"},
    {"tally", "total"},
    {"totaling", "total"},
    {"totalling", "total"},
    // A share of a whole.
    {"slice", "share"},
    {"chunk", "share"},
    {"contribution", "share"},
    // The most of a ranking.
    {"bulk", "most"},
    {"majority", "most"},
    {"greatest", "most"},
    // An idle stretch of a GPU.
    {"stretch", "gap"},
    {"stretches", "gaps"},
    {"lull", "gap"},
    {"lulls", "gaps"},
    {"pause", "gap"},
    {"pauses", "gaps"},
    {"hole", "gap"},
    {"holes", "gaps"},
    // A gap's neighbours, and its width on a timeline: "between neighbouring kernels", "the widest hole".
    {"neighbouring", "consecutive"},
    {"neighboring", "consecutive"},
    {"adjacent", "consecutive"},
    {"successive", "consecutive"},
    {"widest", "longest"},
    {"narrowest", "shortest"},
    {"wide", "long"},
    // Nothing drawn: a stretch of a timeline with no bar on it.
    // A bar's girth on a timeline is its length: the "fattest" bar is the longest.
    {"fattest", "longest"},
    {"fatter", "longer"},
    {"skinniest", "shortest"},
    // Bytes that go somewhere move.
    {"travel", "move"},
    {"travels", "moves"},
    {"travelled", "moved"},
    {"traveled", "moved"},
    {"blank", "idle"},
    {"quiet", "idle"},
    {"empty", "idle"},
    // A copy's speed.
    {"rate", "bandwidth"},
    {"rates", "bandwidth"},
    {"speed", "bandwidth"},  // "the average transfer speed of the host-to-GPU copies"
    {"speeds", "bandwidth"},
    // One side above the other.
    {"outweigh", "exceed"},
    {"surpass", "exceed"},
    {"beat", "exceed"},  // "do the copies beat 300 GB/s on average"
    {"beats", "exceeds"},
    {"outpace", "exceed"},
    {"outstrip", "exceed"},
    // A count of what ran.
    {"occurrence", "instances"},
    {"occurrences", "instances"},
    {"enter", "run"},
    {"land", "run"},  // "how many bytes landed on each GPU"
    // Where: a preposition said another way ("copied onto GPU 1").
    {"onto", "on"},
    {"upon", "on"},
    {"ratio", "what is the ratio"},
};

// Shorthand of chat and notes, as people who profile GPUs type it: each stands for lexicon words. Only whole words
// (a name's part is never one: "dev" in `ncclDevKernel` is read as written when the question quotes it).
constexpr Synonym kShorthand[] = {
    {"tot", "total"},
    {"ttl", "total"},
    {"krnl", "kernel"},
    {"krnls", "kernels"},
    {"kern", "kernel"},
    {"kerns", "kernels"},
    {"knl", "kernel"},
    {"knls", "kernels"},
    {"dur", "duration"},
    {"durs", "durations"},
    {"med", "median"},
    {"cnt", "count"},
    {"cnts", "counts"},
    {"num", "number of"},
    {"#", "number of"},
    {"b/w", "bandwidth"},
    {"bw", "bandwidth"},
    {"tput", "throughput"},
    {"thruput", "throughput"},
    {"xfer", "transfer"},
    {"xfers", "transfers"},
    {"cpy", "copy"},
    {"cpys", "copies"},
    {"dev", "device"},
    {"devs", "devices"},
    {"proc", "process"},
    {"procs", "processes"},
    {"strm", "stream"},
    {"strms", "streams"},
    {"perc", "percent"},
    {"pcnt", "percent"},
    {"w/o", "without"},
    {"w/", "with"},
    {"wrt", "of"},  // "pct wrt total kernel time": a share of it
    {"iter", "iteration"},
    {"iters", "iterations"},
    {"config", "configuration"},
    {"cfg", "configuration"},
    {"cfgs", "configurations"},
    {"smem", "shared memory"},
    {"regs", "registers"},
    {"reg", "register"},
    {"pctl", "percentile"},
    {"pctls", "percentiles"},
    {"dir", "direction"},
    {"dirs", "directions"},
    {"configs", "configurations"},
    {"blk", "block"},
    {"blks", "blocks"},
    {"thr", "threads"},
    {"alloc", "allocation"},
    {"mem", "memory"},
    {">", "more than"},
    {"<", "less than"},
    {">=", "at least"},
    {"=>", "at least"},
    {"<=", "at most"},
    {"\u2265", "at least"},
    {"\u2264", "at most"},
    {"plz", "please"},
    {"thx", "thanks"},
    {"ty", "thanks"},
};

// Column names of NVIDIA's export that people write as words, in any case ("flash_fwd_kernel (shortName)").
constexpr Synonym kExportColumns[] = {
    {"shortname", "short name"},
    {"shortnames", "short names"},
    {"demangledname", "name"},
    // nsys stats' columns, as its reports capitalise them: "Med (ns)", "Num Calls" (the others are lexicon words).
    {"med", "median"},
    {"num", "number of"},
};

// nsys stats' reports (NVIDIA's Analysis Guide), each under its name since 2023 and its name before ("gpukernsum"),
// and the events their rows are. The memory reports' rows are copies of each direction and memsets ("[CUDA memcpy
// HtoD]", "[CUDA memset]"), so the report says no kind; the size report's statistics are bytes.
constexpr Synonym kStatsReports[] = {
    {"cuda_gpu_kern_sum", "kernels"},
    {"gpukernsum", "kernels"},
    {"cuda_gpu_kern_gb_sum", "kernels"},
    {"cuda_kern_exec_sum", "kernels"},
    {"kernexecsum", "kernels"},
    {"cuda_api_sum", "cuda api calls"},
    {"cudaapisum", "cuda api calls"},
    {"cuda_api_trace", "cuda api calls"},
    {"cudaapitrace", "cuda api calls"},
    {"nvtx_sum", "nvtx ranges"},
    {"nvtxsum", "nvtx ranges"},
    {"nvtx_pushpop_sum", "nvtx ranges"},
    {"nvtxppsum", "nvtx ranges"},
    {"nvtx_startend_sum", "nvtx ranges"},
    {"nvtxsesum", "nvtx ranges"},
    {"nvtx_pushpop_trace", "nvtx ranges"},
    {"nvtxpptrace", "nvtx ranges"},
    {"cuda_gpu_mem_time_sum", ""},
    {"gpumemtimesum", ""},
    {"cuda_gpu_mem_size_sum", "bytes"},
    {"gpumemsizesum", "bytes"},
    {"osrt_sum", "os runtime calls"},
    {"osrtsum", "os runtime calls"},
};

constexpr std::array<std::string_view, 5> kApiClasses = {"sync", "alloc", "free", "module", "launch"};

constexpr Entry kEntries[] = {
    // Measures.
    {"how many", Slot::kMeasure, M(Measure::kCount)},
    {"number of", Slot::kMeasure, M(Measure::kCount)},
    {"count", Slot::kMeasure, M(Measure::kCount)},
    {"counts", Slot::kMeasure, M(Measure::kCount)},
    {"how often", Slot::kMeasure, M(Measure::kCount)},
    {"how many times", Slot::kMeasure, M(Measure::kCount)},
    {"times", Slot::kStop},
    {"instances", Slot::kMeasure, M(Measure::kCount)},  // "instances and total time": how many ran
    {"#", Slot::kMeasure, M(Measure::kCount)},
    {"total", Slot::kWeakTotal, 0},
    {"sum", Slot::kWeakTotal, 0},
    {"summed", Slot::kWeakTotal, 0},
    {"cumulative", Slot::kWeakTotal, 0},
    {"aggregate", Slot::kWeakTotal, 0},
    {"how much time", Slot::kWeakTotal, 1},
    {"time", Slot::kWeakTotal, 1},
    {"duration", Slot::kWeakTotal, 1},
    {"durations", Slot::kWeakTotal, 1},
    {"how long", Slot::kWeakTotal, 1},
    {"length", Slot::kWeakTotal, 1},  // of a range or a call: its duration
    {"lengths", Slot::kWeakTotal, 1},
    {"rack up", Slot::kWeakTotal, 1},
    {"racked up", Slot::kWeakTotal, 1},
    {"add up to", Slot::kWeakTotal, 1},
    {"how much", Slot::kWeakTotal, 1},
    {"spent", Slot::kWeakTotal, 1},
    {"spend", Slot::kWeakTotal, 1},
    {"take", Slot::kWeakTotal, 1},
    {"takes", Slot::kWeakTotal, 1},
    {"took", Slot::kWeakTotal, 1},
    {"taken", Slot::kWeakTotal, 1},
    {"taking", Slot::kWeakTotal, 1},
    {"runtime", Slot::kWeakTotal, 1},
    {"gpu time", Slot::kWeakTotal, 2},
    {"share", Slot::kMeasure, M(Measure::kShare)},
    {"fraction", Slot::kMeasure, M(Measure::kShare)},
    {"percent", Slot::kMeasure, M(Measure::kShare)},
    {"percentage", Slot::kMeasure, M(Measure::kShare)},
    {"pct", Slot::kMeasure, M(Measure::kShare)},
    {"%", Slot::kMeasure, M(Measure::kShare)},
    {"proportion", Slot::kMeasure, M(Measure::kShare)},
    {"portion", Slot::kMeasure, M(Measure::kShare)},
    {"average", Slot::kMeasure, M(Measure::kAverage)},
    {"avg", Slot::kMeasure, M(Measure::kAverage)},
    {"mean", Slot::kMeasure, M(Measure::kAverage)},
    {"on average", Slot::kMeasure, M(Measure::kAverage)},
    {"per call", Slot::kMeasure, M(Measure::kAverage)},
    {"per launch", Slot::kMeasure, M(Measure::kAverage)},
    {"per instance", Slot::kMeasure, M(Measure::kAverage)},
    {"median", Slot::kMeasure, M(Measure::kMedian)},
    {"p50", Slot::kMeasure, M(Measure::kMedian)},
    {"50th percentile", Slot::kMeasure, M(Measure::kMedian)},
    {"typical", Slot::kMeasure, M(Measure::kMedian)},
    {"middle value", Slot::kMeasure, M(Measure::kMedian)},
    {"the middle value", Slot::kMeasure, M(Measure::kMedian)},
    {"p90", Slot::kMeasure, M(Measure::kP90)},
    {"90th percentile", Slot::kMeasure, M(Measure::kP90)},
    {"90th-percentile", Slot::kMeasure, M(Measure::kP90)},
    {"90th pct", Slot::kMeasure, M(Measure::kP90)},
    {"p95", Slot::kMeasure, M(Measure::kP95)},
    {"95th percentile", Slot::kMeasure, M(Measure::kP95)},
    {"95th-percentile", Slot::kMeasure, M(Measure::kP95)},
    {"p99", Slot::kMeasure, M(Measure::kP99)},
    {"99th percentile", Slot::kMeasure, M(Measure::kP99)},
    {"99th-percentile", Slot::kMeasure, M(Measure::kP99)},
    {"tail latency", Slot::kMeasure, M(Measure::kP99)},
    {"launch latency", Slot::kMeasure, M(Measure::kLatency)},
    {"launch latencies", Slot::kMeasure, M(Measure::kLatency)},
    {"launch-to-start latency", Slot::kMeasure, M(Measure::kLatency)},
    {"launch delay", Slot::kMeasure, M(Measure::kLaunchDelay)},
    // The worst case of each, said in words beside them (MeanOfAMean).
    {"longest launch latency", Slot::kMeasure, M(Measure::kMaxLatency)},
    {"longest launch delay", Slot::kMeasure, M(Measure::kMaxDelay)},
    {"launch delays", Slot::kMeasure, M(Measure::kLaunchDelay)},
    {"queue delay", Slot::kMeasure, M(Measure::kLaunchDelay)},
    {"queueing delay", Slot::kMeasure, M(Measure::kLaunchDelay)},
    {"queuing delay", Slot::kMeasure, M(Measure::kLaunchDelay)},
    {"variability", Slot::kMeasure, M(Measure::kStddev)},
    // Ranks as the standard deviation does; its figure is not one (query_fill's UnreadVariance).
    {"variance", Slot::kMeasure, M(Measure::kStddev)},
    {"std", Slot::kMeasure, M(Measure::kStddev)},
    // The definitions the skills follow, said beside the statistic (guides/analysis.md): the sample standard
    // deviation, nearest-rank percentiles.
    {"sample std", Slot::kMeasure, M(Measure::kStddev)},
    {"sample standard deviation", Slot::kMeasure, M(Measure::kStddev)},
    {"sample stddev", Slot::kMeasure, M(Measure::kStddev)},
    {"sample std dev", Slot::kMeasure, M(Measure::kStddev)},
    {"nearest-rank", Slot::kStop},
    {"nearest rank", Slot::kStop},
    {"often", Slot::kMeasure, M(Measure::kCount)},
    // "the 3 most frequent kernels", "the most common call": ranked by how many there are.
    {"most frequent", Slot::kTop, 1},
    {"most common", Slot::kTop, 1},
    {"least frequent", Slot::kBottom, 1},
    {"least common", Slot::kBottom, 1},
    {"frequently", Slot::kMeasure, M(Measure::kCount)},
    // "which kernel runs the most times", "the API called the fewest times": a count ranked ("times" alone is no
    // measure: "3 times faster", "how many times").
    {"most times", Slot::kMeasure, M(Measure::kCount)},
    {"most times", Slot::kTop, 1},
    {"called most", Slot::kMeasure, M(Measure::kCount)},  // how often a call was made: ranked by how many
    {"called most", Slot::kTop, 1},
    {"called the most", Slot::kMeasure, M(Measure::kCount)},
    {"called the most", Slot::kTop, 1},
    {"most called", Slot::kMeasure, M(Measure::kCount)},
    {"most called", Slot::kTop, 1},
    {"called most often", Slot::kMeasure, M(Measure::kCount)},
    {"called most often", Slot::kTop, 1},
    {"called the most often", Slot::kMeasure, M(Measure::kCount)},
    {"called the most often", Slot::kTop, 1},
    {"most frequently called", Slot::kMeasure, M(Measure::kCount)},
    {"most frequently called", Slot::kTop, 1},
    {"invoked most", Slot::kMeasure, M(Measure::kCount)},
    {"invoked most", Slot::kTop, 1},
    {"invoked the most", Slot::kMeasure, M(Measure::kCount)},
    {"invoked the most", Slot::kTop, 1},
    {"most invoked", Slot::kMeasure, M(Measure::kCount)},
    {"most invoked", Slot::kTop, 1},
    {"fewest times", Slot::kMeasure, M(Measure::kCount)},
    {"fewest times", Slot::kBottom, 1},
    {"least times", Slot::kMeasure, M(Measure::kCount)},
    {"least times", Slot::kBottom, 1},
    {"latency", Slot::kWeakTotal, 1},
    {"latencies", Slot::kWeakTotal, 1},
    {"wall time", Slot::kWeakTotal, 3},
    {"wall-clock time", Slot::kWeakTotal, 3},
    {"wall clock time", Slot::kWeakTotal, 3},
    {"wall", Slot::kStop},
    {"lasted", Slot::kWeakTotal, 1},
    {"lasts", Slot::kWeakTotal, 1},
    {"how big", Slot::kMeasure, M(Measure::kBytes)},
    {"sizes", Slot::kMeasure, M(Measure::kBytes)},
    {"dead time", Slot::kMeasure, M(Measure::kIdle)},
    {"dead", Slot::kMeasure, M(Measure::kIdle)},
    {"gaps", Slot::kMeasure, M(Measure::kIdle)},
    // Idle gaps one by one: how many, the longest.
    {"how many gaps", Slot::kMeasure, M(Measure::kGaps)},
    {"how many idle gaps", Slot::kMeasure, M(Measure::kGaps)},
    {"number of gaps", Slot::kMeasure, M(Measure::kGaps)},
    {"number of idle gaps", Slot::kMeasure, M(Measure::kGaps)},
    {"gap count", Slot::kMeasure, M(Measure::kGaps)},
    {"how many bubbles", Slot::kMeasure, M(Measure::kGaps)},
    {"longest gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"longest idle gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"longest idle period", Slot::kMeasure, M(Measure::kMaxGap)},
    {"largest gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"largest idle gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"biggest gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"biggest idle gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"longest bubble", Slot::kMeasure, M(Measure::kMaxGap)},
    {"biggest bubble", Slot::kMeasure, M(Measure::kMaxGap)},
    {"largest bubble", Slot::kMeasure, M(Measure::kMaxGap)},
    {"bubbles", Slot::kMeasure, M(Measure::kIdle)},
    {"max gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"average gap", Slot::kMeasure, M(Measure::kAvgGap)},
    {"average idle gap", Slot::kMeasure, M(Measure::kAvgGap)},
    {"average gap length", Slot::kMeasure, M(Measure::kAvgGap)},
    {"mean gap", Slot::kMeasure, M(Measure::kAvgGap)},
    {"mean idle gap", Slot::kMeasure, M(Measure::kAvgGap)},
    {"avg gap", Slot::kMeasure, M(Measure::kAvgGap)},
    {"average bubble", Slot::kMeasure, M(Measure::kAvgGap)},
    {"maximum gap", Slot::kMeasure, M(Measure::kMaxGap)},
    {"single longest gap", Slot::kMeasure, M(Measure::kMaxGap)},
    // What a gap is, said in words: read as said ("between one kernel ending and the next starting" says which gaps:
    // GapsBetweenOneAndNext).
    {"between kernels", Slot::kStop},
    {"between consecutive kernels", Slot::kStop},
    {"between one kernel and the next", Slot::kStop},
    {"sitting idle", Slot::kMeasure, M(Measure::kIdle)},
    {"sit idle", Slot::kMeasure, M(Measure::kIdle)},
    {"sits idle", Slot::kMeasure, M(Measure::kIdle)},
    {"min", Slot::kMeasure, M(Measure::kMin)},
    {"minimum", Slot::kMeasure, M(Measure::kMin)},
    {"shortest", Slot::kMeasure, M(Measure::kMin)},
    {"fastest", Slot::kMeasure, M(Measure::kMin)},
    {"quickest", Slot::kMeasure, M(Measure::kMin)},
    {"max", Slot::kMeasure, M(Measure::kMax)},
    {"maximum", Slot::kMeasure, M(Measure::kMax)},
    {"longest", Slot::kMeasure, M(Measure::kMax)},
    {"slowest", Slot::kMeasure, M(Measure::kMax)},
    {"worst", Slot::kMeasure, M(Measure::kMax)},
    {"peak", Slot::kMeasure, M(Measure::kMax)},
    {"stddev", Slot::kMeasure, M(Measure::kStddev)},
    {"std dev", Slot::kMeasure, M(Measure::kStddev)},
    {"standard deviation", Slot::kMeasure, M(Measure::kStddev)},
    {"jitter", Slot::kMeasure, M(Measure::kStddev)},
    {"spread", Slot::kMeasure, M(Measure::kStddev)},
    {"bytes", Slot::kMeasure, M(Measure::kBytes)},
    {"how much data", Slot::kMeasure, M(Measure::kBytes)},
    {"data", Slot::kMeasure, M(Measure::kBytes)},
    {"volume", Slot::kMeasure, M(Measure::kBytes)},
    {"size", Slot::kMeasure, M(Measure::kBytes)},
    {"gb", Slot::kMeasure, M(Measure::kBytes)},
    {"mb", Slot::kMeasure, M(Measure::kBytes)},
    {"moved", Slot::kMeasure, M(Measure::kBytes)},
    {"bandwidth", Slot::kMeasure, M(Measure::kBandwidth)},
    {"throughput", Slot::kMeasure, M(Measure::kBandwidth)},
    {"gb/s", Slot::kMeasure, M(Measure::kBandwidth)},
    {"how fast", Slot::kMeasure, M(Measure::kBandwidth)},  // of copies: the speed of data, not of a kernel
    // The bytes said as their total or count: "the HtoD byte total", "byte count per direction".
    {"byte total", Slot::kMeasure, M(Measure::kBytes)},
    {"bytes total", Slot::kMeasure, M(Measure::kBytes)},
    {"byte count", Slot::kMeasure, M(Measure::kBytes)},
    {"byte counts", Slot::kMeasure, M(Measure::kBytes)},
    {"byte totals", Slot::kMeasure, M(Measure::kBytes)},
    {"busy", Slot::kMeasure, M(Measure::kBusy)},
    {"busier", Slot::kMeasure, M(Measure::kBusy)},
    {"busiest", Slot::kMeasure, M(Measure::kBusy)},
    {"busiest", Slot::kTop, 0},  // a superlative: "the busiest stream" is the first of the streams by busy time
    {"utilization", Slot::kMeasure, M(Measure::kUtilization)},
    {"utilisation", Slot::kMeasure, M(Measure::kUtilization)},
    {"util", Slot::kMeasure, M(Measure::kUtilization)},
    {"distinct", Slot::kDistinct},
    {"unique", Slot::kDistinct},
    {"different", Slot::kDistinct},
    {"active", Slot::kMeasure, M(Measure::kBusy)},
    {"idle", Slot::kMeasure, M(Measure::kIdle)},
    {"idling", Slot::kMeasure, M(Measure::kIdle)},
    {"idle time", Slot::kMeasure, M(Measure::kIdle)},
    {"starved", Slot::kMeasure, M(Measure::kIdle)},
    // A GPU "doing nothing", "with nothing to do": idle, said in everyday words.
    {"doing nothing", Slot::kMeasure, M(Measure::kIdle)},
    {"did nothing", Slot::kMeasure, M(Measure::kIdle)},
    {"does nothing", Slot::kMeasure, M(Measure::kIdle)},
    {"nothing to do", Slot::kMeasure, M(Measure::kIdle)},
    {"span", Slot::kMeasure, M(Measure::kSpan)},
    // The window a GPU's time is measured over, said by its length: "that window's length", "the active window's
    // duration", "how long is the window".
    {"window length", Slot::kMeasure, M(Measure::kSpan)},
    {"window duration", Slot::kMeasure, M(Measure::kSpan)},
    {"length of the window", Slot::kMeasure, M(Measure::kSpan)},
    {"length of that window", Slot::kMeasure, M(Measure::kSpan)},
    {"duration of the window", Slot::kMeasure, M(Measure::kSpan)},
    {"grid size", Slot::kMeasure, M(Measure::kGrid)},
    {"grid", Slot::kMeasure, M(Measure::kGrid)},
    {"blocks per grid", Slot::kMeasure, M(Measure::kGrid)},
    {"number of blocks", Slot::kMeasure, M(Measure::kGrid)},
    {"blocks", Slot::kMeasure, M(Measure::kGrid)},
    {"block size", Slot::kMeasure, M(Measure::kBlock)},
    {"threads per block", Slot::kMeasure, M(Measure::kBlock)},
    {"block dim", Slot::kMeasure, M(Measure::kBlock)},
    {"launch configuration", Slot::kMeasure, M(Measure::kGrid)},
    {"launch configuration", Slot::kMeasure, M(Measure::kBlock)},
    {"launch config", Slot::kMeasure, M(Measure::kGrid)},
    {"launch config", Slot::kMeasure, M(Measure::kBlock)},
    {"launch dimensions", Slot::kMeasure, M(Measure::kGrid)},
    {"launch dimensions", Slot::kMeasure, M(Measure::kBlock)},
    // The rest of a launch configuration, and the GPU's SMs beside it.
    {"block count", Slot::kMeasure, M(Measure::kGrid)},
    {"thread block count", Slot::kMeasure, M(Measure::kGrid)},
    {"number of thread blocks", Slot::kMeasure, M(Measure::kGrid)},
    {"blocks per launch", Slot::kMeasure, M(Measure::kGrid)},
    {"registers", Slot::kMeasure, M(Measure::kRegisters)},
    {"register", Slot::kMeasure, M(Measure::kRegisters)},
    {"registers per thread", Slot::kMeasure, M(Measure::kRegisters)},
    {"register count", Slot::kMeasure, M(Measure::kRegisters)},
    {"register usage", Slot::kMeasure, M(Measure::kRegisters)},
    {"regs", Slot::kMeasure, M(Measure::kRegisters)},
    {"regs per thread", Slot::kMeasure, M(Measure::kRegisters)},
    {"regs/thread", Slot::kMeasure, M(Measure::kRegisters)},
    {"registers/thread", Slot::kMeasure, M(Measure::kRegisters)},
    {"shared memory", Slot::kMeasure, M(Measure::kStaticShared)},
    {"shared memory", Slot::kMeasure, M(Measure::kDynamicShared)},
    {"shared mem", Slot::kMeasure, M(Measure::kStaticShared)},
    {"shared mem", Slot::kMeasure, M(Measure::kDynamicShared)},
    {"smem", Slot::kMeasure, M(Measure::kStaticShared)},
    {"smem", Slot::kMeasure, M(Measure::kDynamicShared)},
    {"dynamic shared memory", Slot::kMeasure, M(Measure::kDynamicShared)},
    {"dynamic shared mem", Slot::kMeasure, M(Measure::kDynamicShared)},
    {"dynamic smem", Slot::kMeasure, M(Measure::kDynamicShared)},
    {"static shared memory", Slot::kMeasure, M(Measure::kStaticShared)},
    {"static shared mem", Slot::kMeasure, M(Measure::kStaticShared)},
    {"static smem", Slot::kMeasure, M(Measure::kStaticShared)},
    {"total threads", Slot::kMeasure, M(Measure::kThreads)},
    {"total number of threads", Slot::kMeasure, M(Measure::kThreads)},
    {"total thread count", Slot::kMeasure, M(Measure::kThreads)},
    {"threads in total", Slot::kMeasure, M(Measure::kThreads)},
    {"threads launched", Slot::kMeasure, M(Measure::kThreads)},
    // "how many threads did it launch in total": a kernel's (blocks x threads per block); of calls or ranges no Query
    // holds them and the clause is declined.
    {"how many threads", Slot::kMeasure, M(Measure::kThreads)},
    {"how many threads per block", Slot::kMeasure, M(Measure::kBlock)},
    {"how many threads in a block", Slot::kMeasure, M(Measure::kBlock)},
    {"how many threads in each block", Slot::kMeasure, M(Measure::kBlock)},
    {"how many threads per thread block", Slot::kMeasure, M(Measure::kBlock)},
    {"threads in the launch", Slot::kMeasure, M(Measure::kThreads)},
    {"threads in the grid", Slot::kMeasure, M(Measure::kThreads)},
    {"threads per launch", Slot::kMeasure, M(Measure::kThreads)},
    // The product said as one: "how many blocks x threads did it launch".
    {"blocks x threads", Slot::kMeasure, M(Measure::kThreads)},
    {"blocks times threads", Slot::kMeasure, M(Measure::kThreads)},
    {"blocks \u00d7 threads", Slot::kMeasure, M(Measure::kThreads)},
    {"blocks x threads per block", Slot::kMeasure, M(Measure::kThreads)},
    {"sms", Slot::kMeasure, M(Measure::kSmCount)},
    {"sm", Slot::kMeasure, M(Measure::kSmCount)},
    {"sm count", Slot::kMeasure, M(Measure::kSmCount)},
    // The GPUs the export lists: their memory and peak memory bandwidth.
    {"how much memory", Slot::kMeasure, M(Measure::kMemory)},
    {"how much gpu memory", Slot::kMeasure, M(Measure::kMemory)},
    {"how much device memory", Slot::kMeasure, M(Measure::kMemory)},
    {"memory capacity", Slot::kMeasure, M(Measure::kMemory)},
    {"memory size", Slot::kMeasure, M(Measure::kMemory)},
    {"vram", Slot::kMeasure, M(Measure::kMemory)},
    {"memory bandwidth", Slot::kMeasure, M(Measure::kMemoryBandwidth)},
    {"peak memory bandwidth", Slot::kMeasure, M(Measure::kMemoryBandwidth)},
    {"peak bandwidth", Slot::kMeasure, M(Measure::kMemoryBandwidth)},
    {"dram bandwidth", Slot::kMeasure, M(Measure::kMemoryBandwidth)},
    {"number of sms", Slot::kMeasure, M(Measure::kSmCount)},
    {"multiprocessors", Slot::kMeasure, M(Measure::kSmCount)},
    {"streaming multiprocessors", Slot::kMeasure, M(Measure::kSmCount)},
    {"processor units", Slot::kMeasure, M(Measure::kSmCount)},  // "how many processor units (SMs) does it have"
    {"processing units", Slot::kMeasure, M(Measure::kSmCount)},
    {"multiprocessor count", Slot::kMeasure, M(Measure::kSmCount)},
    {"multiprocessor units", Slot::kMeasure, M(Measure::kSmCount)},
    {"multiprocessor", Slot::kMeasure, M(Measure::kSmCount)},
    // Events.
    {"kernel", Slot::kEvents, E(EventKind::kKernels)},
    {"kernels", Slot::kEvents, E(EventKind::kKernels)},
    // A newcomer's words for kernels: what runs on the GPU, called as a function is.
    {"gpu function", Slot::kEvents, E(EventKind::kKernels)},
    {"gpu functions", Slot::kEvents, E(EventKind::kKernels)},
    {"gpu function launches", Slot::kEvents, E(EventKind::kKernels)},
    {"kernel launches", Slot::kEvents, E(EventKind::kKernels)},
    {"launches", Slot::kEvents, E(EventKind::kKernels)},
    {"launched", Slot::kStop},
    {"replayed", Slot::kStop},
    {"launch", Slot::kStop},
    {"api", Slot::kEvents, E(EventKind::kApi)},
    {"apis", Slot::kEvents, E(EventKind::kApi)},
    {"api call", Slot::kEvents, E(EventKind::kApi)},
    {"api calls", Slot::kEvents, E(EventKind::kApi)},
    {"cuda function", Slot::kEvents, E(EventKind::kApi)},
    {"api function", Slot::kEvents, E(EventKind::kApi)},
    {"api functions", Slot::kEvents, E(EventKind::kApi)},
    {"runtime function", Slot::kEvents, E(EventKind::kApi)},
    {"runtime functions", Slot::kEvents, E(EventKind::kApi)},
    {"runtime api function", Slot::kEvents, E(EventKind::kApi)},
    {"runtime api functions", Slot::kEvents, E(EventKind::kApi)},
    {"cuda functions", Slot::kEvents, E(EventKind::kApi)},
    {"cuda call", Slot::kEvents, E(EventKind::kApi)},
    {"cuda calls", Slot::kEvents, E(EventKind::kApi)},
    {"cuda api", Slot::kEvents, E(EventKind::kApi)},
    {"runtime api", Slot::kEvents, E(EventKind::kApi)},
    {"runtime calls", Slot::kEvents, E(EventKind::kApi)},
    {"driver calls", Slot::kEvents, E(EventKind::kApi)},
    {"call", Slot::kEvents, E(EventKind::kApi)},
    {"calls", Slot::kEvents, E(EventKind::kApi)},
    {"memcpy", Slot::kEvents, E(EventKind::kMemcpy)},
    {"memcpys", Slot::kEvents, E(EventKind::kMemcpy)},
    {"copy", Slot::kEvents, E(EventKind::kMemcpy)},
    {"copies", Slot::kEvents, E(EventKind::kMemcpy)},
    {"memory copies", Slot::kEvents, E(EventKind::kMemcpy)},
    {"transfer", Slot::kEvents, E(EventKind::kMemcpy)},
    {"transfers", Slot::kEvents, E(EventKind::kMemcpy)},
    {"memory transfers", Slot::kEvents, E(EventKind::kMemcpy)},
    {"memory copy", Slot::kEvents, E(EventKind::kMemcpy)},
    {"memory transfer", Slot::kEvents, E(EventKind::kMemcpy)},
    {"copied", Slot::kEvents, E(EventKind::kMemcpy)},
    {"transferred", Slot::kEvents, E(EventKind::kMemcpy)},
    {"memset", Slot::kEvents, E(EventKind::kMemset)},
    {"memsets", Slot::kEvents, E(EventKind::kMemset)},
    // A memset said in plain words: what it does to memory.
    {"memory fill", Slot::kEvents, E(EventKind::kMemset)},
    {"memory fills", Slot::kEvents, E(EventKind::kMemset)},
    {"fill operation", Slot::kEvents, E(EventKind::kMemset)},
    {"fill operations", Slot::kEvents, E(EventKind::kMemset)},
    {"gpu activity", Slot::kEvents, E(EventKind::kGpu)},
    {"gpu work", Slot::kEvents, E(EventKind::kGpu)},
    // "copy around inside its own memory": from the GPU's memory to itself.
    {"inside its own memory", Slot::kCopyKind, 2},
    {"within its own memory", Slot::kCopyKind, 2},
    // "busy with something", "was it doing something": any of a GPU's work, not its kernels alone.
    {"with something", Slot::kEvents, E(EventKind::kGpu)},
    {"with anything", Slot::kEvents, E(EventKind::kGpu)},
    {"doing something", Slot::kEvents, E(EventKind::kGpu)},
    {"doing anything", Slot::kEvents, E(EventKind::kGpu)},
    {"gpu operations", Slot::kEvents, E(EventKind::kGpu)},
    {"gpu operation", Slot::kEvents, E(EventKind::kGpu)},
    {"gpu ops", Slot::kEvents, E(EventKind::kGpu)},
    {"gpu op", Slot::kEvents, E(EventKind::kGpu)},
    // "from its first op to its last", "(first op to last op)": a GPU op, in a span ("pointwise ops" describes
    // kernels).
    {"first op", Slot::kEvents, E(EventKind::kGpu)},
    {"last op", Slot::kEvents, E(EventKind::kGpu)},
    {"gpu activities", Slot::kEvents, E(EventKind::kGpu)},
    // Whatever a GPU did, said in plain words: "the first and last thing the card did", "its last bit of work".
    {"thing the gpu did", Slot::kEvents, E(EventKind::kGpu)},
    {"thing the card did", Slot::kEvents, E(EventKind::kGpu)},
    {"thing the device did", Slot::kEvents, E(EventKind::kGpu)},
    {"thing it did", Slot::kEvents, E(EventKind::kGpu)},
    {"thing the graphics card did", Slot::kEvents, E(EventKind::kGpu)},
    {"things the graphics card did", Slot::kEvents, E(EventKind::kGpu)},
    {"things the gpu did", Slot::kEvents, E(EventKind::kGpu)},
    {"things the card did", Slot::kEvents, E(EventKind::kGpu)},
    {"bit of work", Slot::kEvents, E(EventKind::kGpu)},
    {"bit of gpu work", Slot::kEvents, E(EventKind::kGpu)},
    {"piece of gpu work", Slot::kEvents, E(EventKind::kGpu)},
    {"first activity", Slot::kEvents, E(EventKind::kGpu)},  // "from its first activity to its last"
    {"first gpu activity", Slot::kEvents, E(EventKind::kGpu)},
    // "doing nothing at all": no GPU op of any kind running, idle of all of the GPU's work.
    {"doing nothing at all", Slot::kMeasure, M(Measure::kIdle)},
    {"doing nothing at all", Slot::kEvents, E(EventKind::kGpu)},
    {"piece of work", Slot::kEvents, E(EventKind::kGpu)},
    {"first and last job", Slot::kEvents, E(EventKind::kGpu)},
    {"between its first and last job", Slot::kEvents, E(EventKind::kGpu)},
    {"between the first and last job", Slot::kEvents, E(EventKind::kGpu)},
    {"activity", Slot::kStop},
    {"graph", Slot::kEvents, E(EventKind::kGraphs)},
    {"graphs", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graphs", Slot::kEvents, E(EventKind::kGraphs)},
    {"cudagraph", Slot::kEvents, E(EventKind::kGraphs)},
    {"cudagraphs", Slot::kEvents, E(EventKind::kGraphs)},
    {"graph launch", Slot::kEvents, E(EventKind::kGraphs)},
    {"graph launches", Slot::kEvents, E(EventKind::kGraphs)},
    {"graph replay", Slot::kEvents, E(EventKind::kGraphs)},
    {"graph replays", Slot::kEvents, E(EventKind::kGraphs)},
    {"graph execution", Slot::kEvents, E(EventKind::kGraphs)},
    {"graph executions", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph launch", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph launches", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph replay", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph replays", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph execution", Slot::kEvents, E(EventKind::kGraphs)},
    {"cuda graph executions", Slot::kEvents, E(EventKind::kGraphs)},
    {"zeroing", Slot::kEvents, E(EventKind::kMemset)},
    {"nvtx", Slot::kRangeNoun},
    {"nvtx range", Slot::kRangeNoun},
    {"nvtx ranges", Slot::kRangeNoun},
    {"range", Slot::kRangeNoun},
    {"ranges", Slot::kRangeNoun},
    {"annotation", Slot::kRangeNoun},
    {"annotations", Slot::kRangeNoun},
    {"label", Slot::kRangeNoun},
    {"labels", Slot::kRangeNoun},
    {"marker", Slot::kRangeNoun},
    {"markers", Slot::kRangeNoun},
    {"region", Slot::kRangeNoun},
    {"regions", Slot::kRangeNoun},
    // A network's layers, as frameworks and TensorRT mark them with NVTX ranges ("the /maxpool/MaxPool layer", "which
    // layer costs the most").
    {"layer", Slot::kRangeNoun},
    {"layers", Slot::kRangeNoun},
    {"per-layer", Slot::kRangeNoun},
    // Copy kinds.
    {"host to device", Slot::kCopyKind, 0},
    {"host-to-device", Slot::kCopyKind, 0},
    {"host to gpu", Slot::kCopyKind, 0},
    {"host-to-gpu", Slot::kCopyKind, 0},
    {"cpu to gpu", Slot::kCopyKind, 0},
    {"cpu-to-gpu", Slot::kCopyKind, 0},
    {"h2d", Slot::kCopyKind, 0},
    {"htod", Slot::kCopyKind, 0},
    {"upload", Slot::kCopyKind, 0},
    {"uploads", Slot::kCopyKind, 0},
    {"device to host", Slot::kCopyKind, 1},
    {"gpu to host", Slot::kCopyKind, 1},
    {"gpu-to-host", Slot::kCopyKind, 1},
    {"gpu to cpu", Slot::kCopyKind, 1},
    {"gpu-to-cpu", Slot::kCopyKind, 1},
    {"device-to-host", Slot::kCopyKind, 1},
    {"d2h", Slot::kCopyKind, 1},
    {"dtoh", Slot::kCopyKind, 1},
    {"download", Slot::kCopyKind, 1},
    {"downloads", Slot::kCopyKind, 1},
    {"device to device", Slot::kCopyKind, 2},
    {"device-to-device", Slot::kCopyKind, 2},
    {"d2d", Slot::kCopyKind, 2},
    {"dtod", Slot::kCopyKind, 2},
    {"host to host", Slot::kCopyKind, 3},
    {"h2h", Slot::kCopyKind, 3},
    {"htoh", Slot::kCopyKind, 3},
    {"peer", Slot::kCopyKind, 4},
    {"peer-to-peer", Slot::kCopyKind, 4},
    {"peer to peer", Slot::kCopyKind, 4},
    {"p2p", Slot::kCopyKind, 4},
    {"ptop", Slot::kCopyKind, 4},
    {"host->device", Slot::kCopyKind, 0},
    {"h->d", Slot::kCopyKind, 0},
    {"cpu to gpu", Slot::kCopyKind, 0},
    {"cpu->gpu", Slot::kCopyKind, 0},
    {"host to the device", Slot::kCopyKind, 0},
    {"from the host to the device", Slot::kCopyKind, 0},
    {"device->host", Slot::kCopyKind, 1},
    {"d->h", Slot::kCopyKind, 1},
    {"gpu to cpu", Slot::kCopyKind, 1},
    {"gpu->cpu", Slot::kCopyKind, 1},
    {"device to the host", Slot::kCopyKind, 1},
    {"device back to host", Slot::kCopyKind, 1},
    {"device back to the host", Slot::kCopyKind, 1},
    {"back to the host", Slot::kCopyKind, 1},
    {"back to host", Slot::kCopyKind, 1},
    {"from the device to the host", Slot::kCopyKind, 1},
    {"device->device", Slot::kCopyKind, 2},
    {"unified memory", Slot::kCopyKind, 5},
    {"unified-memory", Slot::kCopyKind, 5},
    {"uvm", Slot::kCopyKind, 5},
    {"um", Slot::kCopyKind, 5},
    {"migration", Slot::kCopyKind, 5},
    {"migrations", Slot::kCopyKind, 5},
    {"page migrations", Slot::kCopyKind, 5},
    {"page migration", Slot::kCopyKind, 5},
    {"migrated", Slot::kCopyKind, 5},
    {"migrate", Slot::kCopyKind, 5},
    {"migrating", Slot::kCopyKind, 5},
    // Kinds of host memory a copy reads or writes (ENUM_CUDA_MEM_KIND).
    // Why the driver migrated unified memory, as the export classifies it (ENUM_CUDA_UNIF_MEM_MIGRATION): the values
    // index agent::MigrationCauseNames() (0 user prefetch, 1 page fault, 2 speculative prefetch, 3 eviction, 4 access
    // counters).
    {"user prefetch", Slot::kCause, 0},
    {"user prefetches", Slot::kCause, 0},
    {"user-initiated prefetch", Slot::kCause, 0},
    {"explicit prefetch", Slot::kCause, 0},
    {"page fault", Slot::kCause, 1},
    {"page faults", Slot::kCause, 1},
    {"page-fault", Slot::kCause, 1},
    {"page-faults", Slot::kCause, 1},
    {"page faulting", Slot::kCause, 1},
    {"page-fault driven", Slot::kCause, 1},
    {"fault-driven", Slot::kCause, 1},
    {"faults", Slot::kCause, 1},
    {"coherence", Slot::kCause, 1},
    {"speculative prefetch", Slot::kCause, 2},
    {"speculative prefetches", Slot::kCause, 2},
    {"speculative prefetching", Slot::kCause, 2},
    {"speculatively prefetched", Slot::kCause, 2},
    {"speculative", Slot::kCause, 2},
    {"eviction", Slot::kCause, 3},
    {"evictions", Slot::kCause, 3},
    {"evicted", Slot::kCause, 3},
    {"access counters", Slot::kCause, 4},
    {"access counter", Slot::kCause, 4},
    // The verb that says a migration's cause, with the cause: "triggered by page faults", "due to eviction".
    {"triggered by page faults", Slot::kCause, 1},
    {"triggered by page fault", Slot::kCause, 1},
    {"triggered by speculative prefetch", Slot::kCause, 2},
    {"triggered by speculative prefetching", Slot::kCause, 2},
    {"triggered by user prefetch", Slot::kCause, 0},
    {"triggered by eviction", Slot::kCause, 3},
    {"triggered by evictions", Slot::kCause, 3},
    {"caused by page faults", Slot::kCause, 1},
    {"caused by page fault", Slot::kCause, 1},
    {"caused by speculative prefetch", Slot::kCause, 2},
    {"caused by speculative prefetching", Slot::kCause, 2},
    {"caused by user prefetch", Slot::kCause, 0},
    {"caused by eviction", Slot::kCause, 3},
    {"caused by evictions", Slot::kCause, 3},
    {"due to page faults", Slot::kCause, 1},
    {"due to page fault", Slot::kCause, 1},
    {"due to speculative prefetch", Slot::kCause, 2},
    {"due to speculative prefetching", Slot::kCause, 2},
    {"due to user prefetch", Slot::kCause, 0},
    {"due to eviction", Slot::kCause, 3},
    {"due to evictions", Slot::kCause, 3},
    {"because of page faults", Slot::kCause, 1},
    {"because of page fault", Slot::kCause, 1},
    {"because of speculative prefetch", Slot::kCause, 2},
    {"because of speculative prefetching", Slot::kCause, 2},
    {"because of user prefetch", Slot::kCause, 0},
    {"because of eviction", Slot::kCause, 3},
    {"because of evictions", Slot::kCause, 3},
    {"driven by page faults", Slot::kCause, 1},
    {"driven by page fault", Slot::kCause, 1},
    {"driven by speculative prefetch", Slot::kCause, 2},
    {"driven by speculative prefetching", Slot::kCause, 2},
    {"driven by user prefetch", Slot::kCause, 0},
    {"driven by eviction", Slot::kCause, 3},
    {"driven by evictions", Slot::kCause, 3},
    {"from page faults", Slot::kCause, 1},
    {"from speculative prefetch", Slot::kCause, 2},
    {"from speculative prefetching", Slot::kCause, 2},
    {"from user prefetch", Slot::kCause, 0},
    {"from eviction", Slot::kCause, 3},
    {"from evictions", Slot::kCause, 3},
    {"pageable", Slot::kMemory, 0},
    {"pageable memory", Slot::kMemory, 0},
    {"pageable host memory", Slot::kMemory, 0},
    {"unpinned", Slot::kMemory, 0},
    {"pinned", Slot::kMemory, 1},
    {"pinned memory", Slot::kMemory, 1},
    {"pinned host memory", Slot::kMemory, 1},
    {"page-locked", Slot::kMemory, 1},
    {"page locked", Slot::kMemory, 1},
    {"managed memory", Slot::kMemory, 4},
    // Where and how.
    {"gpu", Slot::kDeviceNoun},
    {"gpus", Slot::kDeviceNoun},
    {"device", Slot::kDeviceNoun},
    {"devices", Slot::kDeviceNoun},
    {"cuda device", Slot::kDeviceNoun},
    {"deviceid", Slot::kDeviceNoun},  // the export's own column name: "(deviceId 0)"
    {"device id", Slot::kDeviceNoun},
    {"card", Slot::kDeviceNoun},
    {"cards", Slot::kDeviceNoun},
    {"graphics card", Slot::kDeviceNoun},
    {"graphics cards", Slot::kDeviceNoun},
    {"graphics processor", Slot::kDeviceNoun},
    {"graphics processors", Slot::kDeviceNoun},
    {"process", Slot::kProcessNoun},
    {"processes", Slot::kProcessNoun},
    {"programs", Slot::kProcessNoun},
    // "Two copies of the program shared one card. Which of them ...": the processes that ran it.
    {"copies of the program", Slot::kProcessNoun},
    {"copies of the application", Slot::kProcessNoun},
    {"copies of the app", Slot::kProcessNoun},
    {"instances of the program", Slot::kProcessNoun},
    {"instances of the application", Slot::kProcessNoun},
    {"instances of the app", Slot::kProcessNoun},
    {"pid", Slot::kProcessNoun},
    {"pids", Slot::kProcessNoun},
    {"stream", Slot::kStreamNoun},
    {"streams", Slot::kStreamNoun},
    {"cuda stream", Slot::kStreamNoun},
    {"most", Slot::kTop, 1},
    {"highest", Slot::kTop},
    // "the most crowded stream": the one with the most events on it, a word of quantity.
    {"most crowded", Slot::kTop, 1},
    {"least crowded", Slot::kBottom, 1},
    {"largest", Slot::kTop, 2},
    {"biggest", Slot::kTop, 2},
    {"top", Slot::kTop},
    {"first row", Slot::kTop},  // of a summary table, nsys stats' among them: its rows go by total time
    {"top row", Slot::kTop},
    {"heaviest", Slot::kTop},
    {"hottest", Slot::kTop},
    {"costliest", Slot::kTop},
    {"most costly", Slot::kTop},
    {"most time-consuming", Slot::kTop},
    {"most expensive", Slot::kTop},
    {"dominant", Slot::kTop},
    {"dominates", Slot::kTop},
    {"least", Slot::kBottom, 1},
    {"fewest", Slot::kBottom, 1},
    {"lowest", Slot::kBottom},
    {"smallest", Slot::kBottom, 2},
    {"bottom", Slot::kBottom},
    {"cheapest", Slot::kBottom},
    {"which", Slot::kWhich},
    {"which one", Slot::kWhich, 1},
    {"what", Slot::kStop},
    {"whats", Slot::kStop},
    {"what's", Slot::kStop},
    {"per", Slot::kPer},
    {"each", Slot::kPer},
    {"every", Slot::kPer},
    {"for each", Slot::kPer},
    {"by", Slot::kPer},
    {"grouped by", Slot::kPer},
    // "the top 5 kernels (ranked by total time)": what ranks them, a measure after "by" as after "by" alone.
    {"ranked by", Slot::kPer},
    {"sorted by", Slot::kPer},
    {"ordered by", Slot::kPer},
    {"broken down by", Slot::kPer},
    {"split by", Slot::kPer},
    // Shared out over groups: "how are the kernels split between the two GPUs", "spread across the streams".
    {"split between", Slot::kPer},
    {"split across", Slot::kPer},
    {"divided between", Slot::kPer},
    {"divided across", Slot::kPer},
    {"distributed across", Slot::kPer},
    {"distributed between", Slot::kPer},
    {"distributed over", Slot::kPer},
    {"spread across", Slot::kPer},
    {"spread over", Slot::kPer},
    {"broken down by", Slot::kPer},
    {"than", Slot::kVersus},
    {"any", Slot::kAny},
    {"is there a", Slot::kAny},
    {"is there an", Slot::kAny},
    {"are there", Slot::kAny},
    {"is there", Slot::kAny},
    {"was there a", Slot::kAny},
    {"were there any", Slot::kAny},
    {"some", Slot::kAny},
    {"half", Slot::kHalf, 50},
    {"a half", Slot::kHalf, 50},
    {"a third", Slot::kHalf, 33},
    {"a quarter", Slot::kHalf, 25},
    {"a tenth", Slot::kHalf, 10},
    {"last", Slot::kLast},
    {"first and last", Slot::kStop},
    {"between its first and last", Slot::kStop},
    {"between the first and last", Slot::kStop},
    {"from the first to the last", Slot::kStop},
    {"from first to last", Slot::kStop},
    {"vs", Slot::kVersus},
    {"vs.", Slot::kVersus},
    {"versus", Slot::kVersus},
    {"compared to", Slot::kVersus},
    {"compared with", Slot::kVersus},
    {"compare", Slot::kCompare},
    {"comparison", Slot::kCompare},
    {"against", Slot::kVersus},
    {"or", Slot::kVersus},
    {"more", Slot::kMore, 1},
    {"larger", Slot::kStop},
    {"longer", Slot::kStop},
    {"greater", Slot::kStop},
    {"higher", Slot::kStop},
    {"bigger", Slot::kStop},
    {"more expensive", Slot::kStop},  // of time: "is X more expensive than Y" compares totals, as "longer"
    {"costlier", Slot::kStop},
    {"heavier", Slot::kStop},  // of time: "which pid is heavier", as "longer"
    {"lighter", Slot::kLess},
    {"slower", Slot::kMeasure, M(Measure::kAverage)},
    {"less", Slot::kLess, 1},
    {"fewer", Slot::kLess, 1},
    {"shorter", Slot::kLess},
    {"smaller", Slot::kLess},
    {"less expensive", Slot::kLess},
    {"cheaper", Slot::kLess},
    {"lower", Slot::kLess},
    {"faster", Slot::kLess},
    {"faster", Slot::kMeasure, M(Measure::kAverage)},
    {"quicker", Slot::kLess},
    {"quicker", Slot::kMeasure, M(Measure::kAverage)},
    {"inside", Slot::kInside},
    {"within", Slot::kInside},
    {"in", Slot::kInside},
    {"under", Slot::kInside},
    {"during", Slot::kInside},
    {"enclosed by", Slot::kInside},
    {"nested in", Slot::kInside},   // NVTX ranges nested in a range: inside it, on its thread, at any depth
    {"at any depth", Slot::kStop},  // what nesting is: the ranges inside, however deep
    {"any depth", Slot::kStop},
    {"nested inside", Slot::kInside},
    {"nested within", Slot::kInside},
    {"nested under", Slot::kInside},
    {"on the same thread", Slot::kStop},  // a range's nesting and launches are on its own thread
    {"same thread", Slot::kStop},
    {"from", Slot::kInside},
    {"is", Slot::kAuxiliary},
    {"is it true that", Slot::kAuxiliary},  // yes or no of what follows
    {"is it the case that", Slot::kAuxiliary},
    {"are", Slot::kAuxiliary},
    {"does", Slot::kAuxiliary},
    {"do", Slot::kAuxiliary},
    {"did", Slot::kAuxiliary},
    {"was", Slot::kAuxiliary},
    {"were", Slot::kAuxiliary},
    {"has", Slot::kAuxiliary},
    {"first", Slot::kFirst},
    {"between", Slot::kBetween},
    {"and", Slot::kSplit},
    {"also", Slot::kSplit},
    {"plus", Slot::kSplit},
    {"+", Slot::kSplit},
    {"then", Slot::kSplit},
    {"as well as", Slot::kSplit},
    // Kinds of CUDA calls, by NVIDIA's API sections.
    {"sync", Slot::kApiClass, 0},
    {"syncs", Slot::kApiClass, 0},
    {"synchronization", Slot::kApiClass, 0},
    {"synchronizations", Slot::kApiClass, 0},
    {"synchronize", Slot::kApiClass, 0},
    {"synchronizing", Slot::kApiClass, 0},
    {"blocking", Slot::kApiClass, 0},
    {"allocation", Slot::kApiClass, 1},
    {"allocations", Slot::kApiClass, 1},
    {"allocs", Slot::kApiClass, 1},
    {"frees", Slot::kApiClass, 2},
    {"deallocation", Slot::kApiClass, 2},
    {"deallocations", Slot::kApiClass, 2},
    {"module load", Slot::kApiClass, 3},
    {"module loads", Slot::kApiClass, 3},
    {"module loading", Slot::kApiClass, 3},
    // Bounds on each event: a comparator before a quantity and its unit.
    {"longer", Slot::kComparator, 1},
    {"over", Slot::kComparator, 1},
    {"above", Slot::kComparator, 1},
    {"exceed", Slot::kComparator, 1},
    {"past", Slot::kComparator, 1},      // "ran past 5 ms"
    {"north of", Slot::kComparator, 1},  // "north of 70% of the kernel time"
    {"south of", Slot::kComparator, 2},
    {"exceeds", Slot::kComparator, 1},
    {"exceeded", Slot::kComparator, 1},
    {"exceeding", Slot::kComparator, 1},
    {"greater", Slot::kComparator, 1},
    {"larger", Slot::kComparator, 1},
    {"bigger", Slot::kComparator, 1},
    {"more", Slot::kComparator, 1},
    {"slower", Slot::kComparator, 1},
    {"shorter", Slot::kComparator, 2},
    {"under", Slot::kComparator, 2},
    {"below", Slot::kComparator, 2},
    {"less", Slot::kComparator, 2},
    {"smaller", Slot::kComparator, 2},
    {"faster", Slot::kComparator, 2},
    {"at least", Slot::kComparator, 1},
    {"at most", Slot::kComparator, 2},
    {"at most", Slot::kMeasure, M(Measure::kMax)},  // "for how long in total and at most?": no bound follows
    {"s", Slot::kUnit, 1},
    {"sec", Slot::kUnit, 1},
    {"secs", Slot::kUnit, 1},
    {"second", Slot::kUnit, 1},
    {"seconds", Slot::kUnit, 1},
    {"ms", Slot::kUnit, 2},
    {"msec", Slot::kUnit, 2},
    {"millisecond", Slot::kUnit, 2},
    {"milliseconds", Slot::kUnit, 2},
    {"us", Slot::kUnit, 3},
    {"µs", Slot::kUnit, 3},
    {"usec", Slot::kUnit, 3},
    {"microsecond", Slot::kUnit, 3},
    {"microseconds", Slot::kUnit, 3},
    {"ns", Slot::kUnit, 4},
    {"nanosecond", Slot::kUnit, 4},
    {"nanoseconds", Slot::kUnit, 4},
    {"minute", Slot::kUnit, 5},
    {"minutes", Slot::kUnit, 5},
    {"b", Slot::kUnit, 11},
    {"kb", Slot::kUnit, 12},
    {"mb", Slot::kUnit, 13},
    {"gb", Slot::kUnit, 14},
    {"kib", Slot::kUnit, 15},
    {"mib", Slot::kUnit, 16},
    {"gib", Slot::kUnit, 17},
    // Verbs of time and of running, and nouns of the same events.
    {"goes", Slot::kWeakTotal, 1},
    {"going", Slot::kWeakTotal, 1},
    {"go", Slot::kWeakTotal, 1},
    {"went", Slot::kWeakTotal, 1},
    {"spends", Slot::kWeakTotal, 1},
    {"burned", Slot::kWeakTotal, 1},
    {"burn", Slot::kWeakTotal, 1},
    {"eaten", Slot::kWeakTotal, 1},
    {"cost", Slot::kWeakTotal, 1},
    {"stuck", Slot::kWeakTotal, 1},
    {"blocked", Slot::kWeakTotal, 1},
    {"waiting", Slot::kWeakTotal, 1},
    {"account for", Slot::kWeakTotal, 1},
    {"accounts for", Slot::kWeakTotal, 1},
    {"use", Slot::kWeakTotal, 1},
    {"used", Slot::kWeakTotal, 1},
    {"uses", Slot::kWeakTotal, 1},
    {"runs", Slot::kStop},
    {"occur", Slot::kStop},
    {"occurs", Slot::kStop},
    {"occurred", Slot::kStop},
    {"contain", Slot::kStop},
    {"contains", Slot::kStop},
    {"here", Slot::kStop},
    {"into", Slot::kStop},
    {"falls", Slot::kStop},
    {"fall", Slot::kStop},
    {"carries", Slot::kStop},
    // Verbs that say what events did, not what is asked of them: "how many bytes did the memsets set/write", "how long
    // did the host sit in them", "which call consumed the most time", "how many did TensorFlow issue".
    {"set", Slot::kStop},
    {"sets", Slot::kStop},
    {"write", Slot::kStop},
    {"writes", Slot::kStop},
    {"wrote", Slot::kStop},
    {"sit", Slot::kStop},
    {"sat", Slot::kStop},
    {"consume", Slot::kWeakTotal, 1},
    {"consumes", Slot::kWeakTotal, 1},
    {"consumed", Slot::kWeakTotal, 1},
    {"consuming", Slot::kWeakTotal, 1},
    {"issue", Slot::kStop},
    {"issues", Slot::kStop},
    {"record", Slot::kStop},
    {"records", Slot::kStop},
    {"sees", Slot::kStop},
    {"saw", Slot::kStop},
    {"back", Slot::kStop},
    {"executions", Slot::kEvents, E(EventKind::kKernels)},
    {"traffic", Slot::kMeasure, M(Measure::kBytes)},
    {"worst-case", Slot::kMeasure, M(Measure::kMax)},
    {"worst case", Slot::kMeasure, M(Measure::kMax)},
    {"averages", Slot::kMeasure, M(Measure::kAverage)},
    {"ate", Slot::kWeakTotal, 1},
    {"eat", Slot::kWeakTotal, 1},
    {"eats", Slot::kWeakTotal, 1},
    {"eating", Slot::kWeakTotal, 1},
    {"costs", Slot::kWeakTotal, 1},
    {"costing", Slot::kWeakTotal, 1},
    {"hit", Slot::kStop},
    {"operation", Slot::kStop},
    {"operations", Slot::kStop},
    {"better", Slot::kStop},  // "which direction gets better bandwidth": the larger, as "higher"
    {"transfer rate", Slot::kMeasure, M(Measure::kBandwidth)},
    {"transfer rates", Slot::kMeasure, M(Measure::kBandwidth)},
    {"effective rate", Slot::kMeasure, M(Measure::kBandwidth)},
    {"effective rates", Slot::kMeasure, M(Measure::kBandwidth)},
    {"copy rate", Slot::kMeasure, M(Measure::kBandwidth)},
    {"as a total", Slot::kWeakTotal, 0},  // "as a total and as a percent of kernel time"
    {"as a sum", Slot::kWeakTotal, 0},
    {"as a percentage", Slot::kMeasure, M(Measure::kShare)},
    {"as a percent", Slot::kMeasure, M(Measure::kShare)},
    {"as a share", Slot::kMeasure, M(Measure::kShare)},
    {"as a fraction", Slot::kMeasure, M(Measure::kShare)},
    {"as a proportion", Slot::kMeasure, M(Measure::kShare)},
    {"in percent", Slot::kMeasure, M(Measure::kShare)},
    {"as a %", Slot::kMeasure, M(Measure::kShare)},
    {"as a pct", Slot::kMeasure, M(Measure::kShare)},
    {"as a fraction", Slot::kMeasure, M(Measure::kShare)},
    {"api function", Slot::kEvents, E(EventKind::kApi)},
    {"api functions", Slot::kEvents, E(EventKind::kApi)},
    {"runtime function", Slot::kEvents, E(EventKind::kApi)},
    {"runtime functions", Slot::kEvents, E(EventKind::kApi)},
    {"kernel function", Slot::kEvents, E(EventKind::kKernels)},
    {"kernel functions", Slot::kEvents, E(EventKind::kKernels)},
    {"process id", Slot::kProcessNoun},
    {"process ids", Slot::kProcessNoun},
    {"comparing", Slot::kCompare},
    // Words that say where the question looks, or that a window counts from the profile's start, as windows do.
    {"looking at", Slot::kStop},
    {"looking only at", Slot::kStop},
    {"only looking at", Slot::kStop},
    {"just looking at", Slot::kStop},
    {"focusing on", Slot::kStop},
    {"yes or no", Slot::kStop},
    {"numbers", Slot::kStop},  // "give both numbers": the figures the clauses ask for
    {"figures", Slot::kStop},
    // "give me the memset picture: number, bytes, time": the figures asked for, said as a whole before the list.
    {"picture", Slot::kStop},
    {"overview", Slot::kStop},
    {"summary", Slot::kStop},
    {"rundown", Slot::kStop},
    {"snapshot", Slot::kStop},
    {"stats", Slot::kStop},
    {"statistics", Slot::kStop},
    {"in the next", Slot::kFirst, 1},  // "in the next 100 ms": a window of that length from the origin
    {"within the next", Slot::kFirst, 1},
    {"over the next", Slot::kFirst, 1},
    {"during the next", Slot::kFirst, 1},
    {"in the following", Slot::kFirst, 1},  // "within the following 500 ms": the same, said as "following"
    {"within the following", Slot::kFirst, 1},
    {"over the following", Slot::kFirst, 1},
    {"during the following", Slot::kFirst, 1},
    {"for the following", Slot::kFirst, 1},
    {"for the next", Slot::kFirst, 1},
    {"the moment", Slot::kStop},
    // The capture's own clock, from the session start, as the Nsight Systems timeline counts: "into the capture",
    // "after the session start", "on the timeline" (a window's seconds; said of the profile or trace, from its first
    // event).
    {"on the timeline", Slot::kCaptureClock},
    {"on the profile timeline", Slot::kCaptureClock},
    {"on the capture clock", Slot::kCaptureClock},
    {"of the capture", Slot::kCaptureClock},
    {"after the session start", Slot::kCaptureClock},
    {"after the session started", Slot::kCaptureClock},
    {"after the session starts", Slot::kCaptureClock},
    {"after the start of the session", Slot::kCaptureClock},
    {"since the session start", Slot::kCaptureClock},
    {"from the session start", Slot::kCaptureClock},
    {"from the start of the session", Slot::kCaptureClock},
    {"into the session", Slot::kCaptureClock},
    {"measuring time", Slot::kStop},
    {"from the beginning of the capture", Slot::kCaptureClock},
    {"from the start of the capture", Slot::kCaptureClock},
    {"from the beginning of the profile", Slot::kStop},
    {"from the start of the profile", Slot::kStop},
    {"from the beginning of the trace", Slot::kStop},
    {"from the start of the trace", Slot::kStop},
    {"capture session", Slot::kStop},
    {"from the beginning of the capture session", Slot::kCaptureClock},
    {"from the start of the capture session", Slot::kCaptureClock},
    // The first kernel as the window's origin, however it is said: query_fill's ReadOrigin makes the words one item of
    // this phrase ("counting from the moment the first kernel hits the GPU", "taking the first kernel as time zero").
    {"after the first kernel", Slot::kFromFirstKernel},
    {"after the capture started", Slot::kCaptureClock},
    {"after the capture began", Slot::kCaptureClock},
    {"after the capture starts", Slot::kCaptureClock},
    {"after the profile started", Slot::kStop},
    {"after the profile starts", Slot::kStop},
    {"after the trace started", Slot::kStop},
    {"after the trace starts", Slot::kStop},
    {"after the start of the capture", Slot::kCaptureClock},
    {"after the start of the profile", Slot::kStop},
    {"after the start of the trace", Slot::kStop},
    {"into the capture", Slot::kCaptureClock},
    {"into the profile", Slot::kStop},
    {"into the trace", Slot::kStop},
    {"carry", Slot::kStop},
    {"carried", Slot::kStop},
    {"cpu time", Slot::kWeakTotal, 1},  // of CUDA calls: the host's time in them
    {"host time", Slot::kWeakTotal, 1},
    {"host-side time", Slot::kWeakTotal, 1},
    {"host side time", Slot::kWeakTotal, 1},
    {"cpu-side time", Slot::kWeakTotal, 1},
    {"cpu side time", Slot::kWeakTotal, 1},
    {"kept", Slot::kStop},
    {"written", Slot::kStop},
    {"achieve", Slot::kStop},
    {"achieved", Slot::kStop},
    {"actually", Slot::kStop},
    {"really", Slot::kStop},
    {"started", Slot::kStop},
    {"began", Slot::kStop},    // "the copies that began between 5 s and 10 s": as "started"
    {"already", Slot::kStop},  // "before X started, how many copies had already happened": before it, as said
    {"among", Slot::kStop},    // "among the DtoH migrations, how many ...": the events the clause names
    {"kicked off", Slot::kStop},
    {"host", Slot::kStop},
    {"invocation", Slot::kEvents, E(EventKind::kKernels)},
    {"invocations", Slot::kEvents, E(EventKind::kKernels)},
    {"thread blocks", Slot::kMeasure, M(Measure::kGrid)},
    {"thread block", Slot::kMeasure, M(Measure::kGrid)},
    {"block", Slot::kMeasure, M(Measure::kBlock)},
    {"threads per block", Slot::kMeasure, M(Measure::kBlock)},
    {"threads in a block", Slot::kMeasure, M(Measure::kBlock)},
    {"block dims", Slot::kMeasure, M(Measure::kBlock)},
    {"block dimensions", Slot::kMeasure, M(Measure::kBlock)},
    {"grid dims", Slot::kMeasure, M(Measure::kGrid)},
    {"grid dimensions", Slot::kMeasure, M(Measure::kGrid)},
    {"dims", Slot::kStop},
    {"dimensions", Slot::kStop},
    {"launched with", Slot::kStop},
    {"launch with", Slot::kStop},
    {"host threads", Slot::kStop},
    {"cpu threads", Slot::kStop},
    {"threads", Slot::kStop},  // "across threads", "on every thread": the host's, where calls and ranges run
    {"rank", Slot::kProcessNoun},
    {"ranks", Slot::kProcessNoun},
    // An MPI job's processes, said with the library's name: "per MPI rank", "the two MPI processes".
    {"mpi rank", Slot::kProcessNoun},
    {"mpi ranks", Slot::kProcessNoun},
    {"mpi process", Slot::kProcessNoun},
    {"mpi processes", Slot::kProcessNoun},
    // Words that fill no slot.
    {"the", Slot::kStop},
    {"a", Slot::kStop},
    {"an", Slot::kStop},
    {"of", Slot::kStop},
    {"on", Slot::kStop},
    {"for", Slot::kStop},
    {"to", Slot::kStop},
    {"with", Slot::kStop},
    {"all", Slot::kStop},
    {"how", Slot::kStop},
    {"there", Slot::kStop},
    {"their", Slot::kStop},
    {"its", Slot::kStop},
    {"it", Slot::kStop},
    {"that", Slot::kStop},
    {"this", Slot::kStop},
    {"these", Slot::kStop},
    {"those", Slot::kStop},
    {"them", Slot::kStop},
    {"they", Slot::kStop},
    {"me", Slot::kStop},
    {"show", Slot::kStop},
    {"tell", Slot::kStop},
    {"give", Slot::kStop},
    {"list", Slot::kStop},
    {"please", Slot::kStop},
    {"kindly", Slot::kStop},
    {"kindly share", Slot::kStop},  // "Kindly share its total time": the verb of a request, no share of a whole
    {"please share", Slot::kStop},
    // "plain cudaLaunchKernel calls (not the ExC variant)": the name itself, as a whole name already is.
    {"plain", Slot::kStop},
    // "how many bytes came back device-to-host", "came from pinned memory": a verb of movement, the direction said
    // by the copy kind or the memory beside it.
    {"came", Slot::kStop},
    {"come", Slot::kStop},
    {"coming", Slot::kStop},
    {"came back", Slot::kStop},
    {"come back", Slot::kStop},
    {"coming back", Slot::kStop},
    {"profile", Slot::kStop},
    {"trace", Slot::kStop},
    {"export", Slot::kStop},
    {"report", Slot::kStop},
    {"overall", Slot::kStop},
    {"across", Slot::kStop},
    {"base name", Slot::kStop},
    {"base names", Slot::kStop},
    {"short name", Slot::kStop},
    {"short names", Slot::kStop},
    {"separately", Slot::kStop},
    // "the process driving GPU 1", "the rank that owns GPU 0": a process said by its GPU (a GPU's CUDA calls and NVTX
    // ranges are its processes', query_exec's HostEventsOfGpus).
    // "(so all template variants of one kernel count together)": "count" as a verb that groups, no measure.
    {"count together", Slot::kStop},
    {"counted together", Slot::kStop},
    {"count as one", Slot::kStop},
    {"counted as one", Slot::kStop},
    // "Quick question: ...", "unified memory question: ...": the question said as such.
    {"question", Slot::kStop},
    // "how many bytes did the memsets clear": what a memset does.
    {"clear", Slot::kStop},
    {"cleared", Slot::kStop},
    {"fill", Slot::kStop},  // "how many bytes did it fill"
    {"filled", Slot::kStop},
    // "copies that touch pageable memory": that involve it, either way.
    {"touch", Slot::kStop},
    {"touches", Slot::kStop},
    {"touching", Slot::kStop},
    {"touched", Slot::kStop},
    {"driving", Slot::kStop},
    {"drives", Slot::kStop},
    {"drove", Slot::kStop},
    {"owns", Slot::kStop},
    {"owning", Slot::kStop},
    {"went through", Slot::kStop},
    {"go through", Slot::kStop},
    {"goes through", Slot::kStop},
    {"one", Slot::kStop},
    {"single", Slot::kStop},
    {"ones", Slot::kStop},
    {"value", Slot::kStop},
    {"cuda", Slot::kStop},
    {"run", Slot::kStop},
    {"ran", Slot::kStop},
    {"running", Slot::kStop},
    // "break the copies down by direction", "break down kernel time per process": a request to split, which "by"
    // and "per" say.
    {"break", Slot::kStop},
    {"broken down", Slot::kStop},
    {"down", Slot::kStop},
    {"executed", Slot::kStop},
    {"execution", Slot::kStop},
    {"was", Slot::kStop},
    {"be", Slot::kStop},
    {"been", Slot::kStop},
    {"we", Slot::kStop},
    {"i", Slot::kStop},
    {"you", Slot::kStop},
    {"my", Slot::kStop},
    {"our", Slot::kStop},
    {"whole", Slot::kStop},
    {"entire", Slot::kStop},
    {"altogether", Slot::kStop},
    {"combined", Slot::kStop},
    {"together", Slot::kStop},
    {"both", Slot::kStop},
    {"any", Slot::kStop},
    {"name", Slot::kStop},
    {"named", Slot::kStop},
    {"called", Slot::kStop},
    {"so", Slot::kStop},
    {"us", Slot::kStop},
    {"µs", Slot::kStop},
    {"microseconds", Slot::kStop},
    {"milliseconds", Slot::kStop},
    {"ns", Slot::kStop},
    {"nanoseconds", Slot::kStop},
    {"units", Slot::kStop},
    {"roughly", Slot::kStop},
    {"about", Slot::kStop},
    {"exactly", Slot::kStop},
    {"happen", Slot::kStop},
    {"happened", Slot::kStop},
    {"were there", Slot::kStop},
    {"get", Slot::kStop},
    {"got", Slot::kStop},
    {"issued", Slot::kStop},
    {"made", Slot::kStop},
    {"invoked", Slot::kStop},
    {"recorded", Slot::kStop},
    {"captured", Slot::kStop},
    {"traced", Slot::kStop},
    {"at", Slot::kStop},
    {"altogether", Slot::kStop},
    {"overall", Slot::kStop},
    // Narrative and talk: words that say how the question is asked, not what it asks.
    {"i think", Slot::kStop},
    {"i suspect", Slot::kStop},
    {"i guess", Slot::kStop},
    {"i wonder", Slot::kStop},
    {"i want to know", Slot::kStop},
    {"i'd like to know", Slot::kStop},
    // A request said as a wish: "I'd like the GPU utilisation of device 1", "we need the top kernels".
    {"i'd like", Slot::kStop},
    {"i would like", Slot::kStop},
    {"we'd like", Slot::kStop},
    {"i want", Slot::kStop},
    {"i need", Slot::kStop},
    {"we need", Slot::kStop},
    {"i mean", Slot::kStop},
    {"can you", Slot::kStop},
    {"could you", Slot::kStop},
    {"would you", Slot::kStop},
    {"pls", Slot::kStop},
    {"plz", Slot::kStop},
    {"thanks", Slot::kStop},
    {"quick", Slot::kStop},
    {"quickly", Slot::kStop},
    {"quick one", Slot::kStop},
    {"quick question", Slot::kStop},
    {"sanity check", Slot::kStop},
    {"just", Slot::kStop},
    {"like", Slot::kStop},
    {"way", Slot::kStop},
    {"too", Slot::kStop},
    {"very", Slot::kStop},
    {"lot", Slot::kStop},
    {"a lot", Slot::kStop},
    {"thing", Slot::kStop},
    {"things", Slot::kStop},
    {"stuff", Slot::kStop},
    {"fine", Slot::kStop},
    {"okay", Slot::kStop},
    {"ok", Slot::kStop},
    {"sure", Slot::kStop},
    {"basically", Slot::kStop},
    {"approximately", Slot::kStop},
    {"approx", Slot::kStop},
    {"around", Slot::kStop},
    {"ish", Slot::kStop},
    {"your", Slot::kStop},
    {"his", Slot::kStop},
    {"her", Slot::kStop},
    {"can", Slot::kStop},
    {"could", Slot::kStop},
    {"would", Slot::kStop},
    {"should", Slot::kStop},
    {"will", Slot::kStop},
    {"may", Slot::kStop},
    {"might", Slot::kStop},
    {"need", Slot::kStop},
    {"want", Slot::kStop},
    {"know", Slot::kStop},
    {"see", Slot::kStop},
    {"describe", Slot::kStop},
    {"explain", Slot::kStop},
    {"walk me through", Slot::kStop},
    {"figure out", Slot::kStop},
    {"find", Slot::kStop},
    {"compute", Slot::kStop},
    {"calculate", Slot::kStop},
    {"report", Slot::kStop},
    {"print", Slot::kStop},
    {"getting", Slot::kStop},
    {"gets", Slot::kStop},
    {"put", Slot::kStop},
    {"puts", Slot::kStop},
    {"sits", Slot::kStop},
    {"sitting", Slot::kStop},
    {"seen", Slot::kStop},
    {"look", Slot::kStop},
    {"looks", Slot::kStop},
    {"seem", Slot::kStop},
    {"seems", Slot::kStop},
    {"i.e", Slot::kStop},
    {"ie", Slot::kStop},
    {"namely", Slot::kStop},
    {"that is", Slot::kStop},
    {"meaning", Slot::kStop},
    {"e.g", Slot::kStop},
    {"etc", Slot::kStop},
    {"now", Slot::kStop},
    {"only", Slot::kStop},
    {"still", Slot::kStop},
    {"even", Slot::kStop},
    {"in total", Slot::kStop},
    {"in all", Slot::kStop},
    {"added up", Slot::kStop},
    {"added together", Slot::kStop},  // "all the copies added together": their sum, a total
    {"put together", Slot::kStop},
    {"taken together", Slot::kStop},
    {"add up", Slot::kWeakTotal, 0},  // "add up all the X ranges": their total, asked as the reader's arithmetic
    // "Out of all the time the kernels spent, what percent belongs to X": the whole a share is of, said first.
    {"out of", Slot::kStop},
    {"belongs to", Slot::kStop},
    {"being", Slot::kStop},  // "how fast was data being copied"
    // Waiting for the GPU, said in plain words: a synchronizing call.
    {"wait for the card", Slot::kApiClass, 0},
    {"to finish its work", Slot::kStop},  // "waiting for the card to finish its work"
    {"wait for the gpu", Slot::kApiClass, 0},
    {"wait for the device", Slot::kApiClass, 0},
    {"waits for the gpu", Slot::kApiClass, 0},
    {"waiting for the gpu", Slot::kApiClass, 0},
    {"waiting for the card", Slot::kApiClass, 0},
    {"stop and wait", Slot::kStop},
    {"sharing", Slot::kStop},  // "the two ranks sharing this A100": the scene, no share
    // "How many streams did the program set up": streams created, which the export lists apart from the work on them
    // (no Query counts them); the streams that carried work are another count.
    {"set up", Slot::kUnsupported},
    {"separate", Slot::kStop},  // "how many separate times", "individual launches": each one, as counted
    {"individual", Slot::kStop},
    {"in plain terms", Slot::kStop},
    {"bit of", Slot::kStop},                // "from its first bit of activity to its last"
    {"from start to finish", Slot::kStop},  // "how long did it take from start to finish": its duration
    {"while you're in there", Slot::kStop},
    {"while you are in there", Slot::kStop},
    {"hi", Slot::kStop},  // greetings
    {"hello", Slot::kStop},
    {"hey", Slot::kStop},
    {"is left", Slot::kStop},  // "how much idle time is left inside the span"
    // "the ones whose names start with nvjet", "kernels starting with ncclDev": a part of names said as their start,
    // read as a part of them (the reading says "whose name contains").
    {"whose names start with", Slot::kStop},
    {"whose name starts with", Slot::kStop},
    {"whose names begin with", Slot::kStop},
    {"whose name begins with", Slot::kStop},
    {"names starting with", Slot::kStop},
    {"name starting with", Slot::kStop},
    {"starting with", Slot::kStop},
    {"that start with", Slot::kStop},
    {"which start with", Slot::kStop},
    {"beginning with", Slot::kStop},
    {"prefixed with", Slot::kStop},
    {"for the gpu to finish", Slot::kStop},  // "waiting for the GPU to finish": a sync said whole
    {"for the card to finish", Slot::kStop},
    {"for the device to finish", Slot::kStop},
    {"something", Slot::kStop},  // "busy with something (kernels, copies or memsets)": any of the work said
    {"results", Slot::kStop},    // "copying results back from the GPU": the data a copy moves
    // "and the same two figures for UVM device-to-host", "then the same for device 1": what was asked before, asked
    // again of what follows (a clause that names only events or a place asks the question before it again of them).
    {"the same for", Slot::kStop},
    {"same for", Slot::kStop},
    {"then the same for", Slot::kStop},
    {"the same 2 figures for", Slot::kStop},  // numbers said in words are read as digits ("two": 2)
    {"the same 3 figures for", Slot::kStop},
    {"the same 2 numbers for", Slot::kStop},
    {"the same figures for", Slot::kStop},
    {"the same numbers for", Slot::kStop},
    {"likewise for", Slot::kStop},
    {"union of", Slot::kStop},      // "busy time (union of kernels and copies)": a definition (DefinesGpuWork)
    {"waits", Slot::kApiClass, 0},  // "the stream-synchronize waits", "how many waits"
    {"catch up", Slot::kStop},
    {"adds up", Slot::kStop},
    {"sum up", Slot::kWeakTotal, 0},
    // "how much time do they cover when you add them all up": a sum, said as the reader's own arithmetic.
    // ("them" stays a word of its own: it points back at what is summed.)
    {"when you add", Slot::kStop},
    {"if you add", Slot::kStop},
    {"all up", Slot::kStop},
    {"adding up", Slot::kStop},
    {"all added up", Slot::kStop},
    {"stack up", Slot::kStop},
    {"summed over", Slot::kWeakTotal, 0},
    {"by how much", Slot::kMargin},
    // "the difference", "the gap between them": the margin between two sides or the first two of a ranking.
    {"the difference", Slot::kMargin},
    {"difference", Slot::kMargin},
    {"the gap between them", Slot::kMargin},
    {"the gap between their", Slot::kMargin},  // "the gap between their averages": the difference of the two
    {"how many times more", Slot::kMargin},    // a ratio: the margin line gives it beside the difference
    {"how many times longer", Slot::kMargin},
    {"how many times larger", Slot::kMargin},
    {"how many times bigger", Slot::kMargin},
    {"how many times slower", Slot::kMargin},
    {"how many times faster", Slot::kMargin},
    {"how much more", Slot::kMargin},
    {"by what factor", Slot::kMargin},
    {"by which factor", Slot::kMargin},
    {"what factor", Slot::kMargin},
    {"by what margin", Slot::kMargin},
    {"by how many times", Slot::kMargin},
    {"how big is the gap", Slot::kMargin},
    {"how large is the gap", Slot::kMargin},
    {"how big is the difference", Slot::kMargin},
    {"how large is the difference", Slot::kMargin},
    {"what is the difference", Slot::kMargin},
    {"what is the ratio", Slot::kMargin},
    {"nothing running", Slot::kEvents, E(EventKind::kGpu)},
    // "how many ns is nothing running on it", "how long is nothing at all running": the idle time of all its work
    // (read as GPU work alone, the time asked was the work's, the opposite).
    {"nothing running", Slot::kMeasure, M(Measure::kIdle)},
    {"nothing at all running", Slot::kEvents, E(EventKind::kGpu)},
    {"nothing at all running", Slot::kMeasure, M(Measure::kIdle)},
    {"nothing is running", Slot::kEvents, E(EventKind::kGpu)},
    {"nothing is running", Slot::kMeasure, M(Measure::kIdle)},
    {"nothing was running", Slot::kEvents, E(EventKind::kGpu)},
    {"nothing was running", Slot::kMeasure, M(Measure::kIdle)},
    {"running nothing", Slot::kEvents, E(EventKind::kGpu)},
    {"running nothing", Slot::kMeasure, M(Measure::kIdle)},
    {"with nothing running", Slot::kEvents, E(EventKind::kGpu)},
    {"nothing on the gpu", Slot::kEvents, E(EventKind::kGpu)},
    {"no activity", Slot::kEvents, E(EventKind::kGpu)},
    // "I want the kernel name, how many launches ...": the kernel's name asked for is which kernel it is.
    {"the kernel name", Slot::kEvents, E(EventKind::kKernels)},
    {"the kernel name", Slot::kWhich},
    {"the kernel names", Slot::kEvents, E(EventKind::kKernels)},
    {"the kernel names", Slot::kWhich},
    {"which of them", Slot::kWhich, 1},
    {"which of the two", Slot::kWhich, 1},
    {"standpoint", Slot::kStop},
    {"perspective", Slot::kStop},
    {"point of view", Slot::kStop},
    {"in terms of", Slot::kStop},
    {"respectively", Slot::kStop},
    {"actual", Slot::kStop},
    {"effective", Slot::kStop},
    {"real", Slot::kStop},
    {"nothing", Slot::kStop},
    {"no", Slot::kStop},
    {"none", Slot::kStop},
    {"busy with", Slot::kMeasure, M(Measure::kBusy)},
    {"busy with something", Slot::kMeasure, M(Measure::kBusy)},  // with anything: every kind of its work
    {"busy with something", Slot::kEvents, E(EventKind::kGpu)},
    {"busy with anything", Slot::kMeasure, M(Measure::kBusy)},
    {"busy with anything", Slot::kEvents, E(EventKind::kGpu)},
    {"work", Slot::kEvents, E(EventKind::kGpu)},
    // "the most kernel work", "is kernel work balanced": the kernels, by their time.
    {"kernel work", Slot::kEvents, E(EventKind::kKernels)},
    {"kernel work", Slot::kWeakTotal, 1},
    {"capture", Slot::kStop},
    {"timeline", Slot::kStop},
    {"window", Slot::kStop},
    {"session", Slot::kStop},
    {"run", Slot::kStop},
    {"runs", Slot::kStop},
    {"before the change", Slot::kStop},
    {"after the change", Slot::kStop},
    {"before the optimisation", Slot::kStop},
    {"after the optimisation", Slot::kStop},
    {"before the optimization", Slot::kStop},
    {"after the optimization", Slot::kStop},
    {"after-optimisation", Slot::kStop},
    {"after-optimization", Slot::kStop},
    {"before-optimisation", Slot::kStop},
    {"before-optimization", Slot::kStop},
    {"did it", Slot::kStop},
    {"does it", Slot::kStop},
    {"is it", Slot::kStop},
    {"are they", Slot::kStop},
    {"it's", Slot::kStop},
    {"they're", Slot::kStop},
    {"there's", Slot::kStop},
    {"one", Slot::kStop},
    {"the two of them", Slot::kStop},
    {"two of them", Slot::kStop},
    {"both of them", Slot::kStop},
    {"instance", Slot::kStop},
    // Words that stress a question without changing it: "any device-to-device copies anywhere", "were any kernels
    // captured at all", "did GPU 1 end up with more". ("ever" is not among them: read as no word, it gave a batch
    // nobody reads a wrong answer.)
    {"anywhere", Slot::kStop},
    {"its own", Slot::kStop},
    // "every ensure_layer_N_weights range over all layers": all of them, the whole profile ("per layer" still groups).
    {"over all layers", Slot::kStop},
    {"across all layers", Slot::kStop},
    {"for all layers", Slot::kStop},
    {"their own", Slot::kStop},
    {"at all", Slot::kStop},
    {"end up", Slot::kStop},
    {"ends up", Slot::kStop},
    {"ended up", Slot::kStop},
    {"end up with", Slot::kStop},
    {"ends up with", Slot::kStop},
    {"ended up with", Slot::kStop},
    // "Did any run past 5 ms? If not, what was the longest one?": the second question is asked whatever the first's
    // answer; both are answered.
    {"if not", Slot::kSplit},
    {"if so", Slot::kSplit},
    {"if yes", Slot::kSplit},
    {"if no", Slot::kSplit},
    {"otherwise", Slot::kSplit},
    {"several", Slot::kStop},
    {"up", Slot::kStop},
    {"have", Slot::kStop},
    {"had", Slot::kStop},
    {"using", Slot::kStop},
    {"such", Slot::kStop},
    {"itself", Slot::kStop},
    {"themselves", Slot::kStop},
    {"make", Slot::kStop},
    {"makes", Slot::kStop},
    {"kind", Slot::kStop},  // "each kind", "of that kind": the events said
    {"kinds", Slot::kStop},
    {"absolute", Slot::kStop},  // "absolute and as a %": the figure itself
    {"in absolute terms", Slot::kStop},
    {"while you're at it", Slot::kStop},
    {"while you are at it", Slot::kStop},
    {"on the cpu", Slot::kStop},  // where CUDA calls run
    {"cpu side", Slot::kStop},
    {"break down", Slot::kStop},  // the grouping is said after it ("per process", "by direction")
    {"broken down", Slot::kStop},
    {"breakdown", Slot::kStop},
    // What a GPU's busy time is, said again: "kernels, copies and memsets merged", "overlaps counted once".
    {"merged", Slot::kStop},
    {"overlaps counted once", Slot::kStop},
    {"overlaps count once", Slot::kStop},
    {"so overlaps count once", Slot::kStop},
    {"overlap counted once", Slot::kStop},
    {"overlapping work counted once", Slot::kStop},
    // NVTX's two styles of range, said of ranges a name selects: "Start/end ranges named X", "push/pop ranges".
    {"start/end", Slot::kStop},
    {"push/pop", Slot::kStop},
    {"split", Slot::kStop},      // "a per-process split": the grouping said beside it, as "breakdown"
    {"all count", Slot::kStop},  // "kernels, copies and memsets all count": each is included
    {"group", Slot::kStop},      // "group the kernels by short name": the verb; "by" groups
    {"check", Slot::kStop},      // "Unified memory check: ...", "check whether ...": the request, not what it asks
    // "how many crossed that line": the bound said before, not a name ("line" is a part of "aten::linear").
    {"that line", Slot::kStop},
    {"that threshold", Slot::kStop},
    {"that limit", Slot::kStop},
    {"that cutoff", Slot::kStop},
    {"that bar", Slot::kStop},
    // Words that narrow to what follows them, which the words after say ("keep only those larger than 1 MB").
    {"keep only", Slot::kStop},
    {"if i keep only", Slot::kStop},
    {"considering only", Slot::kStop},
    {"looking only at", Slot::kStop},
    {"zooming in on", Slot::kStop},
    {"zoom in on", Slot::kStop},
    {"restrict to", Slot::kStop},
    {"restricting to", Slot::kStop},
    // "finished in under 21 ms", "completed in less than 1 ms": a duration's bound, as "took" says one.
    {"finished in", Slot::kWeakTotal, 1},
    {"finish in", Slot::kWeakTotal, 1},
    {"completed in", Slot::kWeakTotal, 1},
    {"complete in", Slot::kWeakTotal, 1},
    {"grouping", Slot::kStop},   // "grouping kernels by their base name": "by" groups
    {"demangled", Slot::kStop},  // the names a grouping by name uses
    {"full demangled", Slot::kStop},
    // "summed over all its instances": every instance, not how many.
    {"all its instances", Slot::kStop},
    {"all of its instances", Slot::kStop},
    {"all instances", Slot::kStop},
    // "counting only kernels as busy": which work counts, the kernels the clause names.
    {"as busy", Slot::kStop},
    {"count as busy", Slot::kStop},
    {"counted as busy", Slot::kStop},
    {"full name", Slot::kStop},
    {"full names", Slot::kStop},
    {"variant", Slot::kStop},
    {"variants", Slot::kStop},
    {"template variants", Slot::kStop},
    {"instantiations", Slot::kStop},
    {"short base name", Slot::kStop},
    {"short base names", Slot::kStop},
    {"if", Slot::kStop},
    {"if so", Slot::kStop},
    {"whether", Slot::kStop},
    {"reach", Slot::kStop},
    {"reached", Slot::kStop},
    {"pull", Slot::kStop},
    {"pulled", Slot::kStop},
    {"push", Slot::kStop},
    {"pushed", Slot::kStop},
    {"counting", Slot::kStop},
    // Measures a Query does not hold: named, so that they are never read as a time or a count.
    {"launch overhead", Slot::kUnsupported},
    {"overhead", Slot::kUnsupported},
    // CUDA's event objects (cudaEventRecord): no Query counts them. Other "events" are the events the clause names
    // ("migration events", "NVTX events"): a word of no slot.
    {"cuda event", Slot::kUnsupported},
    {"cuda events", Slot::kUnsupported},
    {"event", Slot::kStop},
    {"events", Slot::kStop},
    // OS runtime calls (OSRT_API: poll, ioctl, locks, sleeps): the time budget reads them, no Query does.
    {"os runtime", Slot::kUnsupported},
    {"os runtime call", Slot::kUnsupported},
    {"os runtime calls", Slot::kUnsupported},
    {"osrt", Slot::kUnsupported},
    {"osrt calls", Slot::kUnsupported},
    // "(either card)", "on either GPU": any of them, no one GPU or process.
    {"either gpu", Slot::kStop},
    {"either card", Slot::kStop},
    {"either device", Slot::kStop},
    {"either process", Slot::kStop},
    {"either rank", Slot::kStop},
    // The export's rows, said as a table's: "the memcpy rows", "the NVTX entries" are the events the clause names.
    {"row", Slot::kStop},
    {"rows", Slot::kStop},
    {"entry", Slot::kStop},
    {"entries", Slot::kStop},
    {"column", Slot::kStop},  // "the Total Time column": the statistic it names
    {"columns", Slot::kStop},
    {"rank order", Slot::kStop},  // "the first three rows in rank order": the order a ranking's rows have
    {"in rank order", Slot::kStop},
    // Hardware counters (Nsight Compute's, not traced): achieved occupancy, DRAM throughput, a "% of peak".
    {"occupancy", Slot::kUnsupported, 1},
    {"dram", Slot::kUnsupported, 1},
    {"of peak", Slot::kUnsupported, 1},
    {"registers", Slot::kUnsupported},
    {"shared memory", Slot::kUnsupported},
    {"power", Slot::kUnsupported},
    {"temperature", Slot::kUnsupported},
    {"clock", Slot::kUnsupported},
    {"frequency", Slot::kUnsupported},
    // Hardware counters (value 1): no skill measures them from the events an export records (they are Nsight
    // Compute's metrics), so a question for one is declined whatever else it says.
    {"cache", Slot::kUnsupported, 1},
    {"hit rate", Slot::kUnsupported, 1},
    // A GPU's power and heat: sampled only with GPU metrics, which no skill reads ("Peak watts?", "was it
    // throttling?").
    {"watts", Slot::kUnsupported, 1},
    {"watt", Slot::kUnsupported, 1},
    {"wattage", Slot::kUnsupported, 1},
    {"power draw", Slot::kUnsupported, 1},
    {"power consumption", Slot::kUnsupported, 1},
    {"power-throttling", Slot::kUnsupported, 1},
    {"power throttling", Slot::kUnsupported, 1},
    {"throttling", Slot::kUnsupported, 1},
    {"throttled", Slot::kUnsupported, 1},
    {"thermal", Slot::kUnsupported, 1},
    {"miss rate", Slot::kUnsupported, 1},
    // Lines of source code: a profile of NVTX ranges and kernels records no line (Nsight Compute's source view does).
    {"line of my source code", Slot::kUnsupported, 1},
    {"line of source code", Slot::kUnsupported, 1},
    {"line of code", Slot::kUnsupported, 1},
    {"line number", Slot::kUnsupported, 1},
    {"line numbers", Slot::kUnsupported, 1},
    {"which line", Slot::kUnsupported, 1},
    {"line of the training script", Slot::kUnsupported, 1},
    {"lines of code", Slot::kUnsupported, 1},
    // Python's own frames (a sampled or traced Python stack): the export of a CUDA trace holds none.
    {"python function", Slot::kUnsupported, 1},
    {"python functions", Slot::kUnsupported, 1},
    {"python call", Slot::kUnsupported, 1},
    {"python calls", Slot::kUnsupported, 1},
    {"python code", Slot::kUnsupported, 1},
    {"python stack", Slot::kUnsupported, 1},
    {"call stack", Slot::kUnsupported, 1},
    {"call stacks", Slot::kUnsupported, 1},
    {"backtrace", Slot::kUnsupported, 1},
    {"backtraces", Slot::kUnsupported, 1},
    {"stack trace", Slot::kUnsupported, 1},
    {"stack traces", Slot::kUnsupported, 1},
    {"source line", Slot::kUnsupported, 1},
    {"source lines", Slot::kUnsupported, 1},
    {"source code", Slot::kUnsupported, 1},
    {"l1", Slot::kUnsupported, 1},
    {"l2", Slot::kUnsupported, 1},
    {"stall", Slot::kUnsupported, 1},
    {"stalls", Slot::kUnsupported, 1},
    {"ipc", Slot::kUnsupported, 1},
    {"warp efficiency", Slot::kUnsupported, 1},
    {"sm efficiency", Slot::kUnsupported, 1},
    {"communication", Slot::kStop},
    {"comms", Slot::kStop},
    {"collective", Slot::kStop},
    {"collectives", Slot::kStop},
    {"come", Slot::kStop},
    // The words of a reading (DescribeQuery), so that a reading offered as an alternative reads back as itself.
    {"whose", Slot::kStop},
    {"whose name contains", Slot::kStop},
    {"whose name matches", Slot::kStop},
    {"name contains", Slot::kStop},
    {"named like", Slot::kInside},
    {"inside nvtx ranges named like", Slot::kInside},
    {"of class", Slot::kStop},
    {"the whole profile", Slot::kStop},
    {"from the profile start", Slot::kStop},
    {"after the profile start", Slot::kStop},
    {"unified", Slot::kCopyKind, 5},
    {"to or from", Slot::kStop},
    {"host memory", Slot::kStop},
    {"comes", Slot::kStop},
    {"coming", Slot::kStop},
    {"touching", Slot::kStop},
    {"source", Slot::kStop},
    {"side", Slot::kStop},
    {"staging", Slot::kStop},
    {"move", Slot::kMeasure, M(Measure::kBytes)},
    {"moves", Slot::kMeasure, M(Measure::kBytes)},
    {"averaged", Slot::kMeasure, M(Measure::kAverage)},
    {"averaging", Slot::kMeasure, M(Measure::kAverage)},  // "are they averaging under 15 us each?"
    {"eat", Slot::kWeakTotal, 1},
    {"eats", Slot::kWeakTotal, 1},
    {"totals", Slot::kWeakTotal, 0},
    {"copying", Slot::kEvents, E(EventKind::kMemcpy)},
    {"direction", Slot::kEvents, E(EventKind::kMemcpy)},
    {"directions", Slot::kEvents, E(EventKind::kMemcpy)},
    // Communication against compute (HTA): the share overlapped, the time exposed.
    {"exposed", Slot::kMeasure, M(Measure::kExposed)},
    {"left exposed", Slot::kMeasure, M(Measure::kExposed)},
    {"not hidden", Slot::kMeasure, M(Measure::kExposed)},
    {"overlapped by compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"overlapped with compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"overlapped by computation", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"overlaps compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"overlap with compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"overlaps with compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"hidden behind compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"hidden by compute", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"compute overlap", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"comm/compute overlap", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"communication overlap", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"comm overlap", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"compute kernels overlap", Slot::kMeasure, M(Measure::kCommOverlap)},
    {"cuda api function", Slot::kEvents, E(EventKind::kApi)},
    {"cuda api functions", Slot::kEvents, E(EventKind::kApi)},
    {"stream id", Slot::kStreamNoun},
    {"stream ids", Slot::kStreamNoun},
    {"executing", Slot::kStop},
    {"execute", Slot::kStop},
    {"executes", Slot::kStop},
    {"exact", Slot::kStop},
    // A rate said with its unit: bytes per second is a copy's bandwidth; anything else per unit of time ("kernels per
    // second") is a rate no Query measures: read, and said unread, never answered as a count.
    {"gb per second", Slot::kMeasure, M(Measure::kBandwidth)},
    {"gb per sec", Slot::kMeasure, M(Measure::kBandwidth)},
    {"gigabytes per second", Slot::kMeasure, M(Measure::kBandwidth)},
    {"mb per second", Slot::kMeasure, M(Measure::kBandwidth)},
    {"megabytes per second", Slot::kMeasure, M(Measure::kBandwidth)},
    {"bytes per second", Slot::kMeasure, M(Measure::kBandwidth)},
    {"per second", Slot::kUnsupported},
    {"per sec", Slot::kUnsupported},
    {"per minute", Slot::kUnsupported},
    {"per millisecond", Slot::kUnsupported},
    {"per ms", Slot::kUnsupported},
    {"every second", Slot::kUnsupported},
    // Everyday words of people who do not profile GPUs: the same slots, said as a newcomer says them.
    {"gpu job", Slot::kEvents, E(EventKind::kKernels)},  // "the one GPU job in this run": a kernel it ran
    {"gpu jobs", Slot::kEvents, E(EventKind::kKernels)},
    {"gpu task", Slot::kEvents, E(EventKind::kKernels)},
    {"gpu tasks", Slot::kEvents, E(EventKind::kKernels)},
    {"compute job", Slot::kEvents, E(EventKind::kKernels)},
    {"compute jobs", Slot::kEvents, E(EventKind::kKernels)},
    {"compute task", Slot::kEvents, E(EventKind::kKernels)},
    {"compute tasks", Slot::kEvents, E(EventKind::kKernels)},
    {"crunching numbers", Slot::kEvents, E(EventKind::kKernels)},
    {"number crunching", Slot::kEvents, E(EventKind::kKernels)},
    {"crunching", Slot::kEvents, E(EventKind::kKernels)},
    {"computing", Slot::kEvents, E(EventKind::kKernels)},  // "not computing and not copying": kernels and copies
    {"computation", Slot::kEvents, E(EventKind::kKernels)},
    {"queue", Slot::kStreamNoun},  // "which queue carried the most": CUDA's queue of work is a stream
    {"queues", Slot::kStreamNoun},
    {"work queue", Slot::kStreamNoun},
    {"work queues", Slot::kStreamNoun},
    {"gpu queue", Slot::kStreamNoun},
    {"gpu queues", Slot::kStreamNoun},
    {"command queue", Slot::kStreamNoun},
    {"command queues", Slot::kStreamNoun},
    {"cpu", Slot::kStop},  // "the CPU waiting for the GPU": the host, whose calls the runtime table holds
    {"the cpu", Slot::kStop},
    {"working", Slot::kMeasure, M(Measure::kBusy)},  // "how much of the time was the GPU actually working"
    {"working time", Slot::kMeasure, M(Measure::kBusy)},
    {"doing work", Slot::kMeasure, M(Measure::kBusy)},
    {"in use", Slot::kMeasure, M(Measure::kBusy)},
    {"reserving memory", Slot::kApiClass, 1},  // cudaMalloc and its kin: the allocation class
    {"reserve memory", Slot::kApiClass, 1},
    {"allocating memory", Slot::kApiClass, 1},
    {"allocate memory", Slot::kApiClass, 1},
    {"memory allocation", Slot::kApiClass, 1},
    {"memory allocations", Slot::kApiClass, 1},
    {"freeing memory", Slot::kApiClass, 2},
    {"free memory", Slot::kApiClass, 2},
    {"releasing memory", Slot::kApiClass, 2},
    {"freeing", Slot::kApiClass, 2},
    {"moving data", Slot::kEvents, E(EventKind::kMemcpy)},
    {"data movement", Slot::kEvents, E(EventKind::kMemcpy)},
    {"shuttling data", Slot::kEvents, E(EventKind::kMemcpy)},
    {"shuttled", Slot::kMeasure, M(Measure::kBytes)},  // "how much data was shuttled to the card", as "moved"
    {"shipped", Slot::kMeasure, M(Measure::kBytes)},
    {"spent the longest", Slot::kWeakTotal, 1},  // "which process spent the longest in X": the most time, summed
    {"spent the longest", Slot::kTop},
    {"spends the longest", Slot::kWeakTotal, 1},
    {"spends the longest", Slot::kTop},
    {"spend the longest", Slot::kWeakTotal, 1},
    {"spend the longest", Slot::kTop},
    {"sorted", Slot::kStop},  // "per process, sorted": every grouped answer lists its groups largest first
    {"in descending order", Slot::kStop},
    {"largest first", Slot::kStop},
    {"biggest first", Slot::kStop},
    {"passed", Slot::kStop},  // "how much time passed between X and Y": the time between (AsksTheTimeBetween)
    {"went by", Slot::kStop},
    {"admittedly", Slot::kStop},
    {"basically", Slot::kStop},
    {"honestly", Slot::kStop},
    {"really", Slot::kStop},
    {"&", Slot::kSplit},  // "grid & block dims"
    {"/", Slot::kSplit},  // "avg / min / max duration"; a ratio in parentheses is a definition (DropDefinitions)
};

}  // namespace

std::vector<Entry> EntriesOf(std::string_view phrase) {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, std::vector<Entry>>;
    for (const Entry& e : kEntries) (*m)[e.phrase].push_back(e);
    return m;
  }();
  const auto it = index->find(phrase);
  return it == index->end() ? std::vector<Entry>{} : it->second;
}

std::span<const std::string_view> CopyKinds() {
  return kCopyKinds;
}

std::span<const std::string_view> ApiClasses() {
  return kApiClasses;
}

namespace {

// Whether a single word is a lexicon word; `inflected`: one whose sense an inflected form keeps (Canonical).
bool HasEntry(std::string_view word, bool inflected) {
  const std::vector<Entry> entries = EntriesOf(word);
  return std::any_of(entries.begin(), entries.end(), [&](const Entry& e) {
    if (!inflected) return true;
    switch (e.slot) {
      case Slot::kWeakTotal:
      case Slot::kStop:
      case Slot::kComparator:
        return true;
      case Slot::kMeasure:
        return e.value != static_cast<uint8_t>(Measure::kShare);
      default:
        return false;
    }
  });
}

}  // namespace

std::string ExportColumnOf(std::string_view lower) {
  return std::string(StandsFor(kExportColumns, lower));
}

std::optional<std::string> StatsReportWordsOf(std::string_view lower) {
  for (const Synonym& s : kStatsReports) {
    if (s.word == lower) return std::string(s.stands_for);
  }
  return std::nullopt;
}

std::string ShorthandOf(std::string_view lower) {
  if (lower.size() > 1 && lower.front() == '#' && std::isalpha(static_cast<unsigned char>(lower[1])))
    return "number of " + std::string(lower.substr(1));  // "#calls", "#kernels"
  return std::string(StandsFor(kShorthand, lower));
}

namespace {

std::string_view SynonymOf(std::string_view word) {
  return StandsFor(kSynonyms, word);
}

// The forms a word may be inflected from: "summing" sum, "amassed" amass, "accumulated" accumulate, "outweighs"
// outweigh, "tallies" tally.
std::vector<std::string> BaseForms(std::string_view w) {
  std::vector<std::string> out;
  const auto ends = [&](std::string_view s) { return w.size() > s.size() + 2 && w.substr(w.size() - s.size()) == s; };
  const auto stem = [&](size_t cut) { return std::string(w.substr(0, w.size() - cut)); };
  const auto undoubled = [](std::string s) {  // "summ" sum, "spann" span
    if (s.size() >= 3 && s.back() == s[s.size() - 2]) s.pop_back();
    return s;
  };
  if (ends("ing")) out = {stem(3), stem(3) + "e", undoubled(stem(3))};
  if (ends("ed")) out = {stem(2), stem(1), undoubled(stem(2))};
  if (ends("ies")) out = {stem(3) + "y"};
  if (ends("es")) out.push_back(stem(2));
  if (ends("s") && !ends("ss")) out.push_back(stem(1));
  return out;
}

}  // namespace

std::string Canonical(std::string_view lower) {
  if (HasEntry(lower, false)) return std::string(lower);
  if (const std::string_view s = SynonymOf(lower); !s.empty()) return std::string(s);
  for (const std::string& base : BaseForms(lower)) {
    if (HasEntry(base, true)) return base;
    if (const std::string_view s = SynonymOf(base); !s.empty() && HasEntry(s, true)) return std::string(s);
  }
  return std::string(lower);
}

bool IsContextWord(std::string_view lower) {
  if (std::find(std::begin(kContextWords), std::end(kContextWords), lower) != std::end(kContextWords)) return true;
  // A GPU model: letters then digits, maybe letters after ("a100", "h100", "t4", "rtx3090", "4060ti", "mi250x").
  size_t i = 0;
  while (i < lower.size() && std::isalpha(static_cast<unsigned char>(lower[i]))) ++i;
  const size_t letters = i;
  while (i < lower.size() && std::isdigit(static_cast<unsigned char>(lower[i]))) ++i;
  const size_t digits = i - letters;
  while (i < lower.size() && std::isalpha(static_cast<unsigned char>(lower[i]))) ++i;
  // Precisions and architectures ("fp16", "bf16", "int8", "sm80") name kinds of kernels: never context.
  for (std::string_view kind : {"fp", "bf", "int", "sm", "tf"}) {
    if (lower.substr(0, letters) == kind) return false;
  }
  // An ordinal ("100th", "101st", "122nd") is a place among events, never a GPU model ("4060ti").
  if (letters == 0 && i == lower.size() && lower.size() == digits + 2) {
    const std::string_view suffix = lower.substr(digits);
    if (suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th") return false;
  }
  return i == lower.size() && letters <= 4 && digits >= 1 && digits <= 4 && lower.size() - letters - digits <= 2 &&
         (letters > 0 || digits >= 3);
}

bool IsCommWord(std::string_view lower) {
  static constexpr std::string_view kCommWords[] = {"comm",       "comms",       "communication", "communications",
                                                    "collective", "collectives", "nccl",          "rccl",
                                                    "hccl",       "all-reduce",  "allreduce",     "comm/compute"};
  return std::find(std::begin(kCommWords), std::end(kCommWords), lower) != std::end(kCommWords);
}

bool IsRecordingNoun(std::string_view lower) {
  return std::find(std::begin(kRecordingNouns), std::end(kRecordingNouns), lower) != std::end(kRecordingNouns);
}

// Only a swap for words of four letters or fewer (one changed letter there is too often another word: "fast", "last").
bool OneEditApart(std::string_view a, std::string_view b) {
  if (a == b) return false;
  const bool short_word = std::min(a.size(), b.size()) <= 4;
  if (a.size() == b.size()) {
    size_t first = 0;
    while (a[first] == b[first]) ++first;
    const bool swap = first + 1 < a.size() && a[first] == b[first + 1] && a[first + 1] == b[first] &&
                      a.substr(first + 2) == b.substr(first + 2);
    return swap || (!short_word && a.substr(first + 1) == b.substr(first + 1));
  }
  if (short_word || (a.size() + 1 != b.size() && b.size() + 1 != a.size())) return false;
  const std::string_view longer = a.size() > b.size() ? a : b, shorter = a.size() > b.size() ? b : a;
  size_t first = 0;
  while (first < shorter.size() && shorter[first] == longer[first]) ++first;
  // A letter more at the end is another form of the word ("execute", "executed"), not a slip of the hand.
  return first < shorter.size() && shorter.substr(first) == longer.substr(first + 1);
}

namespace {

// The single words a question may mean: the lexicon's one-word phrases and the synonyms' words, each once.
const std::vector<std::string_view>& SpelledWords() {
  static const auto* words = [] {
    auto* out = new std::vector<std::string_view>;
    for (const Entry& e : kEntries) {
      if (e.phrase.find(' ') == std::string_view::npos && e.phrase.size() >= 4) out->push_back(e.phrase);
    }
    for (const Synonym& s : kSynonyms) {
      if (s.word.size() >= 4) out->push_back(s.word);
    }
    std::sort(out->begin(), out->end());
    out->erase(std::unique(out->begin(), out->end()), out->end());
    return out;
  }();
  return *words;
}

}  // namespace

std::string SpellingOf(std::string_view lower) {
  if (lower.size() < 4 || IsMeaningWord(lower) || IsContextWord(lower) || IsLibraryName(lower) ||
      !std::all_of(lower.begin(), lower.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
    return {};
  std::string found;
  for (std::string_view w : SpelledWords()) {
    if (!OneEditApart(lower, w)) continue;
    if (!found.empty()) return {};  // two words as near: no guess
    found = w;
  }
  return found;
}

bool IsLibraryName(std::string_view lower) {
  return std::find(std::begin(kLibraryNames), std::end(kLibraryNames), lower) != std::end(kLibraryNames);
}

// The decoder's libraries and kinds of work, by the words a question says them with. Its names are its own
// (KernelIdentity::library, ::category); only words no kernel name of the profile holds reach this table (a name's
// part is read as a name first).
constexpr Synonym kFamilyWords[] = {
    {"flashattention", "FlashAttention"},
    {"flash-attention", "FlashAttention"},
    {"fa2", "FlashAttention"},
    {"cublas", "cuBLAS"},
    {"cublaslt", "cuBLASLt"},
    {"cudnn", "cuDNN"},
    {"cutlass", "CUTLASS"},
    {"nccl", "NCCL"},
    {"tensorrt", "TensorRT"},
    {"pytorch", "PyTorch"},
    {"triton", "Triton"},
    {"nvfuser", "nvFuser"},
    {"gemm", "gemm"},
    {"gemms", "gemm"},
    {"matmul", "gemm"},
    {"matmuls", "gemm"},
    {"convolution", "conv"},
    {"convolutions", "conv"},
    {"conv", "conv"},
    {"convs", "conv"},
    {"attention", "attention"},
    {"elementwise", "elementwise"},
    {"element-wise", "elementwise"},
    {"reduction", "reduction"},
    {"reductions", "reduction"},
    {"softmax", "softmax"},
    {"normalization", "norm"},
    {"normalisation", "norm"},
    {"collective", "collective"},
    {"collectives", "collective"},
    {"fft", "fft"},
    {"ffts", "fft"},
};
// Families said in everyday words: the word of kFamilyWords for each, the kind of work the kernel-name decoder names.
constexpr Synonym kFamilyPhrases[] = {
    {"fourier transform", "fft"},
    {"fourier transforms", "ffts"},
    {"matrix multiply", "gemm"},
    {"matrix multiplies", "gemms"},
    {"matrix multiplication", "gemm"},
    {"matrix multiplications", "gemms"},
    {"matrix product", "gemm"},
    {"matrix products", "gemms"},
    {"matrix-matrix multiply", "gemm"},
    {"matrix-multiply", "gemm"},
    {"matrix mult", "gemm"},
    {"layer normalization", "normalization"},
    {"layer norm", "normalization"},
    {"batch normalization", "normalization"},
    {"batch norm", "normalization"},
    {"flash attention", "flashattention"},
    {"element wise", "elementwise"},
    {"soft max", "softmax"},
};
constexpr Synonym kOperationWords[] = {{"forward", "fwd"}, {"backward", "bwd"}, {"fwd", "fwd"}, {"bwd", "bwd"}};

// A library the decoder names, as it spells it, said as one word in any case ("cufft" cuFFT, "xla" XLA).
std::string_view DecodersLibrary(std::string_view lower) {
  for (const std::string_view library : skills::KernelLibraries()) {
    if (library.find(' ') == std::string_view::npos && Lower(library) == lower) return library;
  }
  return {};
}

// The kernels a library made, said as one hyphenated word: "nvfuser-generated", "xla-compiled", "cudnn-based".
constexpr std::string_view kMadeBy[] = {"-generated", "-emitted", "-compiled", "-produced", "-based", "-launched"};

std::string_view KernelFamilyWord(std::string_view lower, bool operation) {
  std::string_view family = StandsFor(kFamilyWords, lower);
  if (family.empty()) family = DecodersLibrary(lower);
  for (const std::string_view made : kMadeBy) {
    if (family.empty() && lower.size() > made.size() && lower.ends_with(made)) {
      family = KernelFamilyWord(lower.substr(0, lower.size() - made.size()));
    }
  }
  return family.empty() && operation ? StandsFor(kOperationWords, lower) : family;
}

std::string_view FamilyPhraseWord(std::string_view phrase) {
  return StandsFor(kFamilyPhrases, phrase);
}

bool IsDiagnosisWord(std::string_view lower) {
  return std::find(std::begin(kDiagnosisWords), std::end(kDiagnosisWords), lower) != std::end(kDiagnosisWords);
}

bool IsMeaningWord(std::string_view lower) {
  const auto listed = [](std::string_view w) {
    return IsDiagnosisWord(w) ||
           std::find(std::begin(kMeaningWords), std::end(kMeaningWords), w) != std::end(kMeaningWords);
  };
  // A plural of a listed word ("threads", "layers") means what its singular does.
  return listed(lower) || (lower.size() > 3 && lower.back() == 's' && listed(lower.substr(0, lower.size() - 1)));
}

bool IsDescriptiveWord(std::string_view word) {
  if (word.size() < 2 || !std::isalpha(static_cast<unsigned char>(word.front())) ||
      !std::isalpha(static_cast<unsigned char>(word.back())))
    return false;
  for (char ch : word) {
    if (!std::isalpha(static_cast<unsigned char>(ch)) && ch != '-') return false;  // names: "run_x", "a::b", "fp16"
  }
  // Each part of a hyphenated word counts: "co-location" is description, "non-overlapping" is not. A part written as
  // a name ("FlashAttention", "runFusion": a capital after a small letter) is a name the profile does not have, which
  // says what is asked about, not how it looks; unless it is a library's ("cuBLASLt", "nvFuser-generated") or a copy
  // kind's ("DtoH"), said to describe.
  for (size_t at = 0; at <= word.size();) {
    const size_t dash = std::min(word.find('-', at), word.size());
    const std::string_view part = word.substr(at, dash - at);
    std::string lower;
    for (char ch : part) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool camel = CapitalAfterSmall(part);
    const bool copy_kind = std::any_of(kCopyKinds.begin(), kCopyKinds.end(), [&](std::string_view k) {
      return k.size() == part.size() && std::equal(k.begin(), k.end(), part.begin());
    });
    if (camel && !IsLibraryName(lower) && !copy_kind) return false;
    if (lower.empty() || IsMeaningWord(lower) || lower == "non" || lower == "un") return false;
    at = dash + 1;
  }
  return true;
}

}  // namespace nsys::agent::lexicon
