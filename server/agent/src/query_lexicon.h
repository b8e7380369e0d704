#pragma once
// The offline filler's lexicon: words and phrases (lower case, single spaces) and the Query slot each fills. Data, not
// code: a new phrasing is a new line of query_lexicon.cpp, never a new branch of the grammar (query_fill.cpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nsys::agent::lexicon {

enum class Slot : uint8_t {
  kMeasure,      // value: Measure
  kWeakTotal,    // value 0 "total", 1 a time word, 2 "GPU time", 3 "wall time": total time unless the clause names
                 // another statistic
  kEvents,       // value: EventKind
  kCopyKind,     // value: index into CopyKinds()
  kDeviceNoun,   // gpu, device: a number after it is a device; "which/each/per" before it groups by device
  kProcessNoun,  // process, pid
  kStreamNoun,   // stream
  kRangeNoun,    // as a grouping target: "which NVTX range"
  kTop,          // most, highest, top N (value 1: a word of quantity, "most kernels" ranks by count; 2: of size)
  kBottom,       // least, fewest (value 1 as kTop's)
  kMore,         // more (value 1: a word of quantity, "more kernels than" compares counts)
  kWhich,        // which, what ... is the (value 1: "which one", a pronoun: the noun is the one said before)
  kMargin,       // "by how much": the first two of a ranking, so the answer shows the difference
  kPer,          // per, each, every, by, for each
  kVersus,       // than, vs, versus, compared to, or
  kLess,         // less, fewer, shorter: with "than", the yes of a yes/no question is "smaller" (value 1 as kMore's)
  kInside,       // inside, within, in, under, during
  kAuxiliary,    // is, are, does, did: a yes/no question when it opens one with a comparison
  kFirst,        // first (a window from the start); value 1: "in the next", a window from an origin said elsewhere
  kBetween,      // between (a window)
  kSplit,        // and, also, plus, then: may split a compound question
  kDistinct,     // distinct, unique, different: "how many distinct kernels" counts names
  kApiClass,     // a kind of CUDA call (value: index into ApiClasses()): "syncs", "allocations"
  kCompare,      // compare: two things named after it are the two sides
  kComparator,   // before a quantity, a bound on each event: value 1 above ("longer than"), 2 below ("under")
  kUnit,         // a quantity's unit: 1 s, 2 ms, 3 us, 4 ns; 11 B, 12 KB, 13 MB, 14 GB
  kMemory,       // a kind of host memory (value: index into agent::MemoryKindNames()): "pageable", "pinned"
  kCause,        // why unified memory migrated (value: index into agent::MigrationCauseNames()): "page faults"
  kAny,          // any, some: "are there any ... longer than 5 ms?" asks whether the count is above 0
  kHalf,         // a fraction said in words (value: percent): "half", "a third", "a quarter"
  kLast,         // last: "in the last 200 ms" (a window from the end), or "first and last" (the span)
  kFromFirstKernel,  // "after the first kernel starts": a window counts from the first kernel's start
  kCaptureClock,     // "into the capture", "after the session start": a window's seconds are on the capture clock
  kUnsupported,      // a measure a Query does not hold ("launch latency", "occupancy"): read, and said unread; value 1:
                     // a hardware counter no skill measures ("L2 cache", "hit rate"): the question is declined
  kStop,             // words that carry no slot
};

struct Entry {
  std::string_view phrase;
  Slot slot;
  uint8_t value = 0;
};

// The entries of one phrase (a phrase may fill two slots), from an index built once; empty when it holds none.
std::vector<Entry> EntriesOf(std::string_view phrase);
// The copy kinds as nsys names them, in kCopyKind's value order ("HtoD", "DtoH", "DtoD", "HtoH", "PtoP").
std::span<const std::string_view> CopyKinds();
// NVIDIA's API classes (skills/builtin/common_api_class.h's names), in kApiClass's value order.
std::span<const std::string_view> ApiClasses();
// Words that describe the run rather than ask about it, when they are no name of the profile: frameworks and
// languages ("the JAX run"), and GPU models by their shape ("A100", "RTX 3090", "4060ti": letters and digits).
bool IsContextWord(std::string_view lower);
// Nouns for a recording itself ("trace", "profile", "run", "sim", "window"), lower case: the head of a phrase that says
// which recording a question is about ("the keras darknet run", "this co-located serving profile").
bool IsRecordingNoun(std::string_view lower);
// The one lexicon word, synonym or inflected form one edit from `lower` ("duraton" duration, "tiem" time, "exectuion"
// execution): a letter left out, added, changed or two swapped; a four-letter word only by a swap. Empty when none,
// when two are that near, or when `lower` is a word of meaning (IsMeaningWord) or context itself.
std::string SpellingOf(std::string_view lower);
// Words for communication kernels ("comm", "communication", "collectives"), lower case: what a question asks the
// overlap with compute or the exposed time of.
bool IsCommWord(std::string_view lower);
// The names of NVIDIA's libraries and of the frameworks and languages that launch kernels ("cufft", "cublaslt",
// "nccl", "pytorch", "julia"), lower case: a question says them to describe events or the run, and no event of the
// profile need carry them in its name.
bool IsLibraryName(std::string_view lower);
// A word for a family of kernels the kernel-name decoder knows (skills/src/kernel_names.cpp), lower case, and the word
// event_stats' `family` takes for it: a library ("flashattention" FlashAttention, "cublas" cuBLAS), a kind of work
// ("gemms" gemm, "matmul" gemm, "convolutions" conv, "collectives" collective) or, with `operation`, a direction of
// one ("forward" fwd, "backward" bwd). Empty when it is none.
std::string_view KernelFamilyWord(std::string_view lower, bool operation = false);
// A family of kernels said in everyday words of two or three ("matrix multiplies", "batch norm"): the one
// word of KernelFamilyWord that says it ("gemms", "normalization"); "" when the phrase (lower case, single spaces)
// is none.
std::string_view FamilyPhraseWord(std::string_view phrase);
// Words that ask for a cause or a remedy ("why", "bottleneck", "improve"), lower case.
bool IsDiagnosisWord(std::string_view lower);
// Words that may change what a question asks when left unread ("after", "only", "idle", "thread"), the diagnosis
// words among them.
bool IsMeaningWord(std::string_view lower);
// The lexicon word a word stands for, when it is none itself: a synonym of one ("slice" a share, "stretch" a gap,
// "outweigh" exceed, "accumulate" a time taken), or an inflected form of one or of a synonym ("summing", "amassed",
// "spanned", "outweighs"). An inflected form stands only for words whose sense it keeps: a time taken, a statistic, a
// bound or a word of no slot, never a share ("shared") or a noun for events, devices or processes ("ranked"). The word
// itself when it stands for none.
std::string Canonical(std::string_view lower);
// The words a shorthand of chat and notes stands for ("krnl" kernel, "tot" total, "b/w" bandwidth, "#calls" number of
// calls, ">" more than, "dev" device), one string of words; "" when `lower` is none. Read before any name or phrase.
std::string ShorthandOf(std::string_view lower);
// The words a column name of NVIDIA's export or of its `nsys stats` reports stands for ("shortName": short name,
// "Med": median, "Num": number of), in any case; "" when none.
std::string ExportColumnOf(std::string_view lower);
// What one of `nsys stats`' report names ("cuda_gpu_kern_sum", and before 2023 "gpukernsum") says of a question that
// names it: the words of the events its rows are ("kernels", "cuda api calls", "nvtx ranges") or of its statistic
// ("bytes" for the memory-size report, whose rows name their copy or memset themselves); "" for a report of no
// single kind (its rows name what they are: "[CUDA memcpy HtoD]"); nullopt when `lower` names no report.
std::optional<std::string> StatsReportWordsOf(std::string_view lower);
// Whether `a` is `b` with one letter left out, added or changed, or two neighbours swapped (SpellingOf's rule), both
// in lower case; a letter more at the end is another form of the word, not one edit.
bool OneEditApart(std::string_view a, std::string_view b);
// A plain word (letters, maybe hyphens) that is no meaning word: unread in a clause that names its events, it is
// taken as describing them ("the nvjet GEMM kernels", "flash attention"), and the answer says so.
bool IsDescriptiveWord(std::string_view word);

}  // namespace nsys::agent::lexicon
