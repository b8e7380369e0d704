// Offline ask, read compositionally: a question is a measure (count, time,
// average, median, share, bytes, grid or block size) of a subject (any CUDA API call in the profile, a copy
// direction, a named kernel, the kernels as a whole) with an optional grouping (per device, per process) and an
// optional comparison of two subjects. When the question reads as such a combination it is answered here, with the
// asked measure first; otherwise the topic handlers answer it (ask_intents.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ask_context.h"
#include "nsys/support/render_text.h"
#include "text_case.h"

namespace nsys::agent::ask_detail {

namespace {

enum class Measure {
  kNone,
  kCount,
  kTime,
  kAverage,
  kMedian,
  kPercentile,
  kShare,
  kBytes,
  kAverageBytes,
  kBandwidth,
  kGrid,
  kBlock
};

// "p90", "p99", "90th percentile": the percentile asked, or 0.
double PercentileOf(const std::string& q) {
  for (size_t at = q.find('p'); at != std::string::npos; at = q.find('p', at + 1)) {
    if (at > 0 && std::isalnum(static_cast<unsigned char>(q[at - 1]))) continue;
    size_t e = at + 1;
    while (e < q.size() && std::isdigit(static_cast<unsigned char>(q[e]))) ++e;
    if (e - at < 3 || e - at > 3 || (e < q.size() && std::isalnum(static_cast<unsigned char>(q[e])))) continue;
    return std::stod(q.substr(at + 1, e - at - 1));
  }
  for (size_t at = q.find("th percentile"); at != std::string::npos; at = q.find("th percentile", at + 1)) {
    size_t b = at;
    while (b > 0 && std::isdigit(static_cast<unsigned char>(q[b - 1]))) --b;
    if (at - b == 2) return std::stod(q.substr(b, 2));
  }
  return 0;
}

// Linear interpolation between the closest ranks (numpy's default); NaN for no values.
double PercentileOfSorted(const std::vector<double>& d, double pct) {
  if (d.empty()) return std::nan("");
  const double pos = pct / 100.0 * static_cast<double>(d.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  return d[lo] + (pos - static_cast<double>(lo)) * (d[std::min(lo + 1, d.size() - 1)] - d[lo]);
}

// The measure the question asks for, from its wording; kNone when it says none.
Measure MeasureOf(const Parsed& p) {
  const std::string& q = p.lower;
  if (HasAny(q, {"threads per block", "block size", "block dim", "threads in each block", "threads in a block"}))
    return Measure::kBlock;
  if (HasAny(q, {"thread block", "grid size", "grid dim", "number of blocks", "how many blocks", "blocks in the",
                 "grid/block", "grid and block", "block and grid", "launch config", "how was it launched",
                 "how were they launched", "launch dimensions", "launch geometry"}))
    return Measure::kGrid;
  if (HasAny(q, {"bandwidth", "gb/s", "bytes per second", "throughput", "transfer rate"})) return Measure::kBandwidth;
  if (p.type == QType::kShare) return Measure::kShare;
  if (HasAny(q, {"median", "p50", "50th percentile"})) return Measure::kMedian;
  if (const double pct = PercentileOf(q); pct > 0 && pct < 100) return Measure::kPercentile;
  if (HasAny(q, {"average", "mean ", "mean?", "on average", "per call", "per launch", "per copy", "typical"})) {
    // "the average size of a copy", "mean bytes per transfer": a size, not a duration.
    if (HasAny(q, {"size", "bytes", "how big", "how large", "volume"})) return Measure::kAverageBytes;
    return Measure::kAverage;
  }
  if (HasAny(q, {"bytes", "volume", "how big"}) || HasWord(q, "data")) return Measure::kBytes;
  if (p.type == QType::kHowMany || HasAny(q, {"how often", "number of", "count the", "count of"}))
    return Measure::kCount;
  if (p.type == QType::kHowMuch ||
      HasAny(q, {"total time", "time spent", "duration", "how long", "time in", "time did", "time of", "time went"}))
    return Measure::kTime;
  return Measure::kNone;
}

enum class Grouping { kNone, kDevice, kProcess };

Grouping GroupingOf(const std::string& q) {
  if (HasAny(q,
             {"per device", "per gpu", "each device", "each gpu", "by device", "by gpu", "every gpu", "every device"}))
    return Grouping::kDevice;
  // An MPI rank is a process (several may share one GPU).
  if (HasAny(q, {"per process", "each process", "by process", "every process", "per pid", "each pid", "per rank",
                 "each rank", "by rank", "every rank"}))
    return Grouping::kProcess;
  return Grouping::kNone;
}

// +1 when the comparison asks "is A more than B", -1 for "is A less than B", 0 when it names no direction.
int DirectionOf(const std::string& q) {
  static const char* kMore[] = {"more", "larger", "longer", "greater", "higher", "bigger", "slower", "exceed"};
  static const char* kLess[] = {"less", "fewer", "smaller", "shorter", "lower", "faster"};
  for (const char* w : kMore) {
    if (HasWord(q, w)) return 1;
  }
  for (const char* w : kLess) {
    if (HasWord(q, w)) return -1;
  }
  return 0;
}

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": exports name API calls with or without their version suffix.
std::string ApiBaseName(const std::string& name) {
  const size_t v = name.rfind("_v");
  if (v == std::string::npos || v == 0 || v + 2 >= name.size()) return name;
  const bool digits = std::all_of(name.begin() + static_cast<long>(v) + 2, name.end(),
                                  [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; });
  return digits ? name.substr(0, v) : name;
}

}  // namespace

// Whether a host-side row (a CUDA API call, an NVTX range: no device) is in the question's processes and starts in
// its window; a device filter does not narrow host rows (declared in ask_context.h: ask_topics.cpp uses it too).
bool InHostFilter(const Ctx& c, uint32_t pid, engine::Ns start) {
  const auto& f = c.filter;
  if (!f.processes.empty() && std::find(f.processes.begin(), f.processes.end(), pid) == f.processes.end()) return false;
  if (f.window.start || f.window.end) {
    const double s = static_cast<double>(start - c.profile.info().start_ns) / 1e9;
    if (s < f.window.start.value_or(0.0) || s >= f.window.end.value_or(1e300)) return false;
  }
  return true;
}

namespace {

// Whether a GPU operation is inside the question's device and process filter, and starts in its window.
bool InFilter(const Ctx& c, int32_t device, uint32_t pid, engine::Ns start) {
  const auto& d = c.filter.devices;
  return (d.empty() || std::find(d.begin(), d.end(), device) != d.end()) && InHostFilter(c, pid, start);
}

}  // namespace

std::string Ticked(const std::string& name) {
  return support::MarkdownCode(name.size() > 90 ? name.substr(0, 87) + "..." : name);
}

std::string WhereOf(const Ctx& c) {
  return c.scope.empty() ? " in the whole profile" : c.scope;
}

void Say(Ctx& c, std::string summary, std::string reason) {
  auto& a = c.turn.answer;
  a.summary = std::move(summary);
  // "host-to-device copies ..." starts a sentence; "cudaMalloc ..." keeps its case.
  const size_t word_end = std::min(a.summary.find(' '), a.summary.size());
  const bool identifier = std::any_of(a.summary.begin(), a.summary.begin() + static_cast<long>(word_end),
                                      [](char ch) { return std::isupper(static_cast<unsigned char>(ch)) != 0; });
  if (!a.summary.empty() && !identifier) UpperFirst(a.summary);
  a.confidence = Confidence::kHigh;
  a.confidence_reason = std::move(reason);
}

void CiteRows(Ctx& c, const std::string& skill, const skills::Table& t, const std::vector<std::string>& columns,
              std::string caption) {
  c.turn.answer.evidence.push_back(EvidenceFrom(CallOf(c, skill, {}), t, columns, 0, std::move(caption)));
}

// The table of a skill over the question's filter, or nullopt (and no answer) when it is missing or declined: the
// topic handlers then answer or refuse as before.
std::optional<skills::Table> Usable(Ctx& c, const std::string& skill) {
  auto t = RunSkill(c, skill, {});
  if (!t || t->declined) {
    c.failure.reset();
    c.turn.skills_used.clear();
    c.turn.state.calls.clear();
    return std::nullopt;
  }
  return std::move(*t);
}

namespace {

// One subject's figures, summed over its rows.
struct Figures {
  std::string label;
  double count = 0, total_ns = 0, median_ns = std::nan(""), bytes = std::nan("");
  double Average() const { return count > 0 ? total_ns / count : std::nan(""); }
};

std::string Yes(bool yes) {
  return yes ? "Yes:" : "No:";
}

// A comparison of how many, not how long: "called more often than", "fewer kernels than".
bool ComparesCounts(const std::string& q) {
  if (HasWord(q, "time") || HasAny(q, {"longer", "slower", "faster", "shorter", "duration", "bytes", "data"}))
    return false;
  return HasAny(q, {"fewer", "more often", "more times", "more calls", "calls than", "more kernels", "kernels than",
                    "more launches", "launches than", "more copies", "copies than", "how many", "number of"});
}

// Two subjects compared by the measure asked (count, bytes, average or, by default, time).
void AnswerPair(Ctx& c, const Figures& a, const Figures& b, Measure m, std::string_view unit_of,
                std::string_view count_noun = "calls") {
  if ((m == Measure::kNone || m == Measure::kTime) && ComparesCounts(c.p.lower)) m = Measure::kCount;
  double x = a.total_ns, y = b.total_ns;
  std::function<std::string(double)> show = [](double v) { return FormatNs(v); };
  std::string verb = "took", what = fmt::format(" of {}", unit_of);
  if (m == Measure::kCount) {
    x = a.count, y = b.count, verb = "has", what = fmt::format(" {}", count_noun);
    show = [](double v) { return FormatCount(v); };
  } else if (m == Measure::kBytes && !std::isnan(a.bytes) && !std::isnan(b.bytes)) {
    x = a.bytes, y = b.bytes, verb = "moved", what = "";
    show = [](double v) { return FormatBytes(v); };
  } else if (m == Measure::kAverageBytes && !std::isnan(a.bytes) && !std::isnan(b.bytes) && a.count > 0 &&
             b.count > 0) {
    x = a.bytes / a.count, y = b.bytes / b.count, verb = "moved", what = " per copy on average";
    show = [](double v) { return FormatBytes(v); };
  } else if (m == Measure::kAverage) {
    x = a.Average(), y = b.Average(), what = " per call on average";
  } else if (m == Measure::kBandwidth && !std::isnan(a.bytes) && !std::isnan(b.bytes) && a.total_ns > 0 &&
             b.total_ns > 0) {
    // "Which direction is faster?": the achieved rate, bytes over copy time (bytes per ns = GB/s).
    x = a.bytes / a.total_ns, y = b.bytes / b.total_ns, verb = "achieved", what = "";
    show = [](double v) { return fmt::format("{:.2f} GB/s", v); };
  }
  const int dir = DirectionOf(c.p.lower);
  const bool yes = dir < 0 ? x < y : x > y;
  const std::string rel = x == y ? "the same as" : (x > y ? "more than" : "less than");
  std::string ratio;
  if (x > 0 && y > 0 && x != y) ratio = fmt::format(" ({:.2f}x)", std::max(x, y) / std::min(x, y));
  std::string s;
  if (c.p.type == QType::kMoreThan && dir != 0) s = Yes(yes) + " ";
  if (c.p.type == QType::kCompare && x != y) s = fmt::format("{} is larger: ", x > y ? a.label : b.label);
  s += fmt::format("{} {} {}{}{}, {} {}'s {}{}.", a.label, verb, show(x), what, WhereOf(c), rel, b.label, show(y),
                   ratio);
  s += fmt::format(" ({}: {} {}, {}; {}: {} {}, {}.)", a.label, FormatCount(a.count), count_noun, FormatNs(a.total_ns),
                   b.label, FormatCount(b.count), count_noun, FormatNs(b.total_ns));
  Say(c, std::move(s), "both figures are exact sums over the same skill's rows");
}

// One subject, the asked measure first, then the rest of its figures.
std::string SentenceOf(const Figures& f, Measure m, const std::string& where, std::string_view noun,
                       std::string_view nouns, std::string_view time_kind) {
  const std::string avg = FormatNs(f.Average());
  const std::string med = std::isnan(f.median_ns) ? "" : fmt::format(", median {}", FormatNs(f.median_ns));
  const std::string bytes = std::isnan(f.bytes) ? "" : fmt::format(", {}", FormatBytes(f.bytes));
  switch (m) {
    case Measure::kAverage:
      return fmt::format("{} took {} per {} on average{} ({} {}, {} of {} in total{}{}).", f.label, avg, noun, where,
                         FormatCount(f.count), nouns, FormatNs(f.total_ns), time_kind, med, bytes);
    case Measure::kMedian:
      return fmt::format("The median duration of {} is {} per {}{} (average {}, {} {}, {} in total{}).", f.label,
                         FormatNs(f.median_ns), noun, where, avg, FormatCount(f.count), nouns, FormatNs(f.total_ns),
                         bytes);
    case Measure::kBytes:
      return fmt::format("{} moved {}{} in {} {} ({} of {}, average {}).", f.label, FormatBytes(f.bytes), where,
                         FormatCount(f.count), nouns, FormatNs(f.total_ns), time_kind, avg);
    case Measure::kAverageBytes:
      return fmt::format("{} moved {} per {} on average{} ({} {}, {} in all, {} of {}).", f.label,
                         FormatBytes(f.count > 0 ? f.bytes / f.count : std::nan("")), noun, where, FormatCount(f.count),
                         nouns, FormatBytes(f.bytes), FormatNs(f.total_ns), time_kind);
    case Measure::kCount:
      return fmt::format("{}: {} {}{}, {} of {} in total, {} on average{}{}.", f.label, FormatCount(f.count), nouns,
                         where, FormatNs(f.total_ns), time_kind, avg, med, bytes);
    default:
      return fmt::format("{} took {} of {} in total{} over {} {} ({} on average{}{}).", f.label, FormatNs(f.total_ns),
                         time_kind, where, FormatCount(f.count), nouns, avg, med, bytes);
  }
}

// --- Subject: CUDA API calls named in the question ---------------------------------------------------------------

// A word of the question written as a CUDA API name ("cudaMalloc", "cuMemAlloc_v2": cu or cuda, a capital and a
// small letter, then letters, digits or underscores) that the profile never calls: say so, with the calls whose names
// share its start.
bool AnswerAbsentApi(Ctx& c, const std::set<std::string>& bases) {
  const std::string& q = c.p.text;
  for (size_t i = 0; i + 4 <= q.size(); ++i) {
    if (q.compare(i, 2, "cu") != 0 ||
        (i > 0 && (std::isalnum(static_cast<unsigned char>(q[i - 1])) || q[i - 1] == '_')))
      continue;
    size_t j = i + 2;
    if (q.compare(j, 2, "da") == 0) j += 2;
    // A capital then a small letter: cudaMalloc, cuMemAlloc, not the library names cuBLAS, cuDNN or cuFFT.
    if (j + 1 >= q.size() || !std::isupper(static_cast<unsigned char>(q[j])) ||
        !std::islower(static_cast<unsigned char>(q[j + 1])))
      continue;
    while (j < q.size() && (std::isalnum(static_cast<unsigned char>(q[j])) || q[j] == '_')) ++j;
    const std::string name = q.substr(i, j - i);
    if (name.size() < 6) continue;
    std::string similar;
    int shown = 0;
    for (const auto& base : bases) {
      const size_t stem = std::min<size_t>(name.size(), 8);
      if (base.compare(0, stem, name, 0, stem) == 0 && shown++ < 5) similar += (similar.empty() ? "" : ", ") + base;
    }
    Say(c,
        fmt::format("This profile has no {} calls{}.{}", name, WhereOf(c),
                    similar.empty() ? "" : " Calls with a similar name that it has: " + similar + "."),
        "the names of every CUDA API call in the runtime table (nsys stats cudaapisum)");
    return true;
  }
  return false;
}

// "Is more than 100 ms going into MPI_Recv?", "added up, is more than half a second spent in cudaStreamSynchronize?":
// the bound is on the total, not on each instance ("did any call take more than 100 ms?").
bool BoundsTheTotal(const Parsed& p) {
  if (HasAny(p.lower, {"any ", "single", "each ", "every ", "individual", "instance", "one of", "how many"}))
    return false;
  return HasAny(p.lower, {"going into", "goes into", "go into", "spent", "in total", "added up", "altogether",
                          "combined", "overall", "total", "in all"});
}

// The subject's total against the bound: "Yes: cudaStreamSynchronize calls took 856.929 ms in total, more than
// 500.000 ms (8 calls)."
std::string TotalAgainstBound(const Ctx& c, const std::string& label, double total_ns, double count,
                              std::string_view kind) {
  const DurationBound& b = *c.p.bound;
  const bool past = b.above ? total_ns > b.ns : total_ns < b.ns;
  return fmt::format("{} {} took {} of {} in total{}, {} than {} ({} instances).", past ? "Yes:" : "No:", label,
                     FormatNs(total_ns), kind, WhereOf(c), total_ns > b.ns ? "more" : "less", FormatNs(b.ns),
                     FormatCount(count));
}

}  // namespace

// Whether a question asks yes or no ("Is there any copy over 1 ms?", "Did any kernel run longer than 5 ms?").
bool AsksYesNo(const std::string& q) {
  // At the start, after a leading clause ("After the change, did any SendRecv kernel run longer than 5 ms?") or as a
  // sentence after some context ("The solver moves 512 MB arrays. Are those transfers pinned?").
  std::vector<size_t> starts = {0};
  for (size_t at = q.find_first_of(",.?!:"); at != std::string::npos; at = q.find_first_of(",.?!:", at + 1)) {
    const size_t next = q.find_first_not_of(" ", at + 1);
    if (next != std::string::npos) starts.push_back(next);
  }
  for (size_t at : starts) {
    for (std::string_view w : {"is ", "are ", "was ", "were ", "do ", "does ", "did ", "has ", "have ", "any "}) {
      if (q.compare(at, w.size(), w) == 0) return true;
    }
  }
  return false;
}

namespace {

// "How many kernels ran longer than 100 us?", "Is there any copy over 1 ms?": the instances past the bound among
// sorted durations, with the extreme on that side.
std::string BoundSentence(const Ctx& c, const std::vector<double>& sorted, std::string_view nouns) {
  const DurationBound& b = *c.p.bound;
  const auto past = b.above
                        ? static_cast<size_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), b.ns))
                        : static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), b.ns) - sorted.begin());
  std::string s = AsksYesNo(c.p.lower) ? Yes(past > 0) + " " : "";
  const std::string took = b.above ? "longer than " + FormatNs(b.ns) : "shorter than " + FormatNs(b.ns);
  if (sorted.empty()) return s + fmt::format("no {} ran{}.", nouns, WhereOf(c));
  s += fmt::format("{} of the {} {}{} took {} ({})", FormatCount(static_cast<double>(past)),
                   FormatCount(static_cast<double>(sorted.size())), nouns, WhereOf(c), took,
                   FormatPct(100.0 * static_cast<double>(past) / static_cast<double>(sorted.size())));
  s += b.above ? fmt::format("; the longest took {}, the median {}.", FormatNs(sorted.back()),
                             FormatNs(PercentileOfSorted(sorted, 50)))
               : fmt::format("; the shortest took {}, the median {}.", FormatNs(sorted.front()),
                             FormatNs(PercentileOfSorted(sorted, 50)));
  return s;
}

// "The longest cudaMalloc call", "the fastest launch": +1 for the longest single instance, -1 for the shortest, 0
// when the question asks no extreme (or another measure: "the longest on average" is an average).
int ExtremeAsked(const Parsed& p, Measure m) {
  if (m != Measure::kNone && m != Measure::kTime) return 0;
  // "How long was the longest copy?" reads as how much, but asks for one instance.
  const bool one = HasWord(p.lower, "longest") || HasWord(p.lower, "shortest");
  if (p.type != QType::kWhich && p.type != QType::kDescribe && !(one && p.type == QType::kHowMuch)) return 0;
  for (std::string_view w : {"longest", "slowest", "maximum", "max", "worst", "peak"}) {
    if (HasWord(p.lower, w)) return 1;
  }
  for (std::string_view w : {"shortest", "fastest", "quickest", "minimum", "min"}) {
    if (HasWord(p.lower, w)) return -1;
  }
  return 0;
}

// "How big was the largest copy?", "the smallest memset": +1 for the largest single instance by size, -1 for the
// smallest, 0 when the question asks no size extreme (the longest or slowest one is a duration: ExtremeAsked).
int SizeExtremeAsked(const Parsed& p) {
  if (HasAny(p.lower, {"longest", "shortest", "slowest", "fastest"})) return 0;
  if (HasWord(p.lower, "largest") || HasWord(p.lower, "biggest")) return 1;
  if (HasWord(p.lower, "smallest") && HasAny(p.lower, {"size", "bytes", "how big", "how small", "how large"}))
    return -1;
  return 0;
}

// The durations of one API's calls (by base name) in the question's processes and window, sorted. The runtime table
// has no device: a device filter does not narrow host calls.
// Whether a runtime row's call has base name `base`, decided once per distinct name (rows repeat a few names).
class ApiNamed {
 public:
  ApiNamed(const Ctx& c, std::string base) : c_(c), base_(std::move(base)) {}
  bool operator()(engine::StrId name) {
    auto it = known_.find(name);
    if (it == known_.end())
      it = known_.emplace(name, ApiBaseName(std::string(c_.profile.strings().view(name))) == base_).first;
    return it->second;
  }

 private:
  const Ctx& c_;
  std::string base_;
  std::unordered_map<engine::StrId, bool> known_;
};

std::vector<double> ApiDurations(const Ctx& c, const std::string& base) {
  const engine::RuntimeTable& rt = c.profile.runtime();
  ApiNamed named(c, base);
  std::vector<double> d;
  for (size_t i = 0; i < rt.size(); ++i) {
    if (named(rt.name[i]) && InHostFilter(c, rt.pid[i], rt.start[i]))
      d.push_back(static_cast<double>(rt.end[i] - rt.start[i]));
  }
  std::sort(d.begin(), d.end());
  return d;
}

// The CUDA API calls the question names, by base name, in the order it names them (position in the question, base
// name); `bases` gets every base name the profile has. Empty when the question has no cu* word.
std::vector<std::pair<size_t, std::string>> ApisNamed(Ctx& c, std::set<std::string>* bases) {
  std::vector<std::pair<size_t, std::string>> named;
  // CUDA runtime and driver calls are all named cu*: without such a word there is no API to look up (and no
  // runtime summary to compute on a large export).
  if (!c.profile.info().caps.runtime || std::none_of(c.p.words.begin(), c.p.words.end(), [](const std::string& w) {
        return w.rfind("cu", 0) == 0 && w.size() >= 4;
      }))
    return named;
  auto all = RunSkill(c, "cuda_api_summary", {}, false);
  if (!all || all->declined) return named;
  // Every name the profile has, by base name; the question names one when the base name is a whole word of it.
  std::set<std::string> mine;
  std::set<std::string>& all_bases = bases ? *bases : mine;
  for (size_t r = 0; r < all->rows.size(); ++r) all_bases.insert(ApiBaseName(CellText(*all, r, "name")));
  for (const auto& base : all_bases) {
    const std::string lower = Lower(base);
    if (lower.size() < 4 || !HasWord(c.p.lower, lower)) continue;
    named.emplace_back(c.p.lower.find(lower), base);
  }
  std::sort(named.begin(), named.end());
  return named;
}

bool AnswerApiAgainstKernel(Ctx& c, const Figures& api, const skills::Table& api_rows, Measure m);
bool AnswerLaunchCallsOfKernel(Ctx& c, const std::string& api);

// Whether copy row `i` has pageable memory on its host side: the source of a host-to-device copy, the destination of
// a device-to-host one, either otherwise (ENUM_CUDA_MEM_KIND 0 is pageable).
bool HostSidePageable(const engine::MemcpyTable& t, size_t i) {
  const bool src = t.src_kind[i] == 0, dst = t.dst_kind[i] == 0;
  return t.copy_kind[i] == 1 ? src : t.copy_kind[i] == 2 ? dst : (src || dst);
}

// "Are any of the cudaMemcpyAsync calls touching pageable host memory?": the named copy call's calls whose copy has a
// pageable host side (the memcpy rows launched by them), out of all its calls in the filter.
std::string ApiPageable(const Ctx& c, const Figures& api) {
  const engine::MemcpyTable& t = c.profile.memcpys();
  const engine::RuntimeTable& rt = c.profile.runtime();
  ApiNamed named(c, api.label);
  std::set<int32_t> calls;
  double bytes = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.launch[i] < 0) continue;
    const auto r = static_cast<size_t>(t.launch[i]);
    if (!named(rt.name[r]) || !InHostFilter(c, rt.pid[r], rt.start[r])) continue;
    if (HostSidePageable(t, i) && calls.insert(t.launch[i]).second) bytes += static_cast<double>(t.bytes[i]);
  }
  const bool pinned_asked = HasWord(c.p.lower, "pinned") && !HasWord(c.p.lower, "pageable");
  const auto n = static_cast<double>(calls.size());
  const std::string yes = !AsksYesNo(c.p.lower) ? "" : Yes(pinned_asked ? n == 0 : n > 0) + " ";
  return fmt::format(
      "{}{} of the {} {} calls{} copied to or from pageable host memory ({}); the driver stages such "
      "copies through a pinned buffer, so an asynchronous call on pageable memory does not overlap "
      "with the host.",
      yes, FormatCount(n), FormatCount(api.count), api.label, WhereOf(c), FormatBytes(bytes));
}

// The longest (sign > 0) or shortest single call over cuda_api_summary's rows of one API.
double ApiExtreme(const skills::Table& rows, int sign) {
  double v = sign > 0 ? 0 : HUGE_VAL;
  for (size_t r = 0; r < rows.rows.size(); ++r)
    v = sign > 0 ? std::max(v, CellNumber(rows, r, "max_ns")) : std::min(v, CellNumber(rows, r, "min_ns"));
  return v;
}

bool AnswerApis(Ctx& c, Measure m) {
  if (m == Measure::kBytes || m == Measure::kAverageBytes || m == Measure::kBandwidth || m == Measure::kGrid ||
      m == Measure::kBlock)
    m = Measure::kNone;  // not measures of a host call
  std::set<std::string> bases;
  const std::vector<std::pair<size_t, std::string>> named = ApisNamed(c, &bases);
  if (named.empty()) return !bases.empty() && AnswerAbsentApi(c, bases);
  auto t = Usable(c, "cuda_api_summary");
  if (!t) return false;
  auto figures = [&](const std::string& base, skills::Table& rows) {
    Figures f;
    f.label = base;
    rows = KeepRows(*t, [&](size_t r) { return ApiBaseName(CellText(*t, r, "name")) == base; });
    for (size_t r = 0; r < rows.rows.size(); ++r) {
      f.count += CellNumber(rows, r, "num_calls");
      f.total_ns += CellNumber(rows, r, "total_time_ns");
    }
    if (rows.rows.size() == 1) f.median_ns = CellNumber(rows, 0, "med_ns");
    return f;
  };
  const std::vector<std::string> cols = {"name", "num_calls", "total_time_ns", "avg_ns", "med_ns", "time_pct"};
  skills::Table rows_a, rows_b;
  const Figures a = figures(named[0].second, rows_a);
  const bool pair = named.size() >= 2 && (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare);
  if (pair) {
    const Figures b = figures(named[1].second, rows_b);
    AnswerPair(c, a, b, m, "host time");
    skills::Table both = rows_a;
    both.rows.insert(both.rows.end(), rows_b.rows.begin(), rows_b.rows.end());
    CiteRows(c, "cuda_api_summary", both, cols, "The two CUDA API calls" + c.scope);
    return true;
  }
  // "Is the cuLaunchKernel call slower than the add_arrays_ kernel itself?": one call against a kernel it names.
  if (named.size() == 1 && (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare) &&
      HasAny(c.p.lower, {"kernel"}) && AnswerApiAgainstKernel(c, a, rows_a, m))
    return true;
  // "the cudaLaunchKernel calls that launched trsm_right_kernel": the launch calls of a kernel it names.
  if (named.size() == 1 && a.label.find("Launch") != std::string::npos && AnswerLaunchCallsOfKernel(c, a.label))
    return true;
  std::string s;
  const int extreme = ExtremeAsked(c.p, m);
  if (a.count == 0) {
    s = fmt::format("{} was not called{}.", a.label, WhereOf(c));
  } else if (c.p.bound && BoundsTheTotal(c.p)) {
    s = TotalAgainstBound(c, a.label + " calls", a.total_ns, a.count, "host time");
  } else if (c.p.bound) {
    s = BoundSentence(c, ApiDurations(c, a.label), a.label + " calls");
  } else if (extreme != 0) {
    s = fmt::format("The {} {} call{} took {} (of {} calls; {} per call on average).",
                    extreme > 0 ? "longest" : "shortest", a.label, WhereOf(c), FormatNs(ApiExtreme(rows_a, extreme)),
                    FormatCount(a.count), FormatNs(a.Average()));
  } else if (m == Measure::kShare) {
    const double all_ns = SumColumn(*t, "total_time_ns");
    s = fmt::format("{} holds {} of the CPU time in CUDA API calls{}: {} of {} ({} calls).", a.label,
                    FormatPct(100.0 * a.total_ns / all_ns), WhereOf(c), FormatNs(a.total_ns), FormatNs(all_ns),
                    FormatCount(a.count));
  } else if (HasAny(c.p.lower, {"pageable", "pinned"}) && c.profile.info().caps.memcpy &&
             a.label.find("Memcpy") != std::string::npos) {
    s = ApiPageable(c, a);
  } else if (m == Measure::kCount) {
    s = fmt::format("{} was called {} times{}, {} of host time in total ({} per call on average).", a.label,
                    FormatCount(a.count), WhereOf(c), FormatNs(a.total_ns), FormatNs(a.Average()));
    // "How many ... and how long was the longest one?": the count, then the extreme call.
    if (const int one = HasWord(c.p.lower, "longest") ? 1 : HasWord(c.p.lower, "shortest") ? -1 : 0; one != 0)
      s += fmt::format(" The {} one took {}.", one > 0 ? "longest" : "shortest", FormatNs(ApiExtreme(rows_a, one)));
  } else {
    s = SentenceOf(a, m == Measure::kNone ? Measure::kTime : m, WhereOf(c), "call", "calls", "host time");
  }
  Say(c, std::move(s), "exact sums over the runtime table (nsys stats cudaapisum)");
  std::vector<std::string> shown = cols;
  if (extreme != 0 || c.p.bound || HasWord(c.p.lower, "longest") || HasWord(c.p.lower, "shortest"))
    shown.insert(shown.end() - 1, {"min_ns", "max_ns"});
  CiteRows(c, "cuda_api_summary", rows_a, shown, a.label + " calls" + c.scope);
  return true;
}

// --- Subject: copies by direction ---------------------------------------------------------------------------------

struct Direction {
  std::vector<std::string_view> ops;  // memory_transfers' operations
  std::vector<uint8_t> copy_kinds;    // the memcpy table's copyKind of each
  std::string_view label;
  std::vector<std::string_view> said;
  std::vector<std::string_view> slices;  // time_budget's slices of these copies
  std::string_view noun = "copy", nouns = "copies";
};

// How questions name the two directions between host and device (copies and migrations alike).
const std::vector<std::string_view> kSaysHtoD = {
    "host to device", "host-to-device", "htod",          "h2d",
    "host->device",   "to the gpu",     "to the device", "host to the device"};
const std::vector<std::string_view> kSaysDtoH = {
    "device to host",   "device-to-host",    "dtoh", "d2h", "device->host", "from the gpu",
    "back to the host", "device to the host"};

const Direction kDirections[] = {
    {{"[CUDA memcpy HtoD]"}, {1}, "host-to-device copies", kSaysHtoD, {"copy_htod"}},
    {{"[CUDA memcpy DtoH]"}, {2}, "device-to-host copies", kSaysDtoH, {"copy_dtoh"}},
    {{"[CUDA memcpy DtoD]"},
     {8},
     "device-to-device copies",
     {"device to device", "device-to-device", "dtod", "d2d"},
     {"copy_dtod"}},
    // Memsets (their own table, no copyKind): "How many memsets were there?"
    {{"[CUDA memset]"}, {}, "memsets", {"memset"}, {"memset"}, "memset", "memsets"},
};

// Unified-memory page migrations (copyKind 11 and 12): named by "unified memory", "UVM", "managed memory" or
// "migration", each direction by the same words as copies, both together when the question names none.
const Direction kMigrations[] = {
    {{"[CUDA Unified Memory memcpy HtoD]"},
     {11},
     "unified-memory host-to-device migrations",
     kSaysHtoD,
     {"copy_uvm_htod"}},
    {{"[CUDA Unified Memory memcpy DtoH]"},
     {12},
     "unified-memory device-to-host migrations",
     kSaysDtoH,
     {"copy_uvm_dtoh"}},
};
const Direction kAllMigrations = {{"[CUDA Unified Memory memcpy HtoD]", "[CUDA Unified Memory memcpy DtoH]"},
                                  {11, 12},
                                  "unified-memory migrations",
                                  {},
                                  {"copy_uvm_htod", "copy_uvm_dtoh"}};

// Every copy of the memcpy table but unified-memory migrations: "Is any copy slower than 1 ms?" names no direction.
const Direction kAllCopies = {
    {"[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]", "[CUDA memcpy DtoD]", "[CUDA memcpy HtoH]", "[CUDA memcpy PtoP]"},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
    "copies",
    {},
    {"copy_htod", "copy_dtoh", "copy_dtod", "copy_other"}};

bool AsksMigrations(const std::string& q) {
  return HasAny(q, {"unified memory", "unified-memory", "uvm", "managed memory", "migrat", "page fault"});
}

// time_budget's (process, device) spans: how many there are and their sum (every slice row repeats its span).
struct SpanSum {
  size_t count = 0;
  double ns = 0;
};
SpanSum SummedSpans(const skills::Table& t) {
  std::map<std::pair<double, double>, double> spans;
  for (size_t r = 0; r < t.rows.size(); ++r)
    spans[{CellNumber(t, r, "pid"), CellNumber(t, r, "device_id")}] = CellNumber(t, r, "span_ns");
  SpanSum out{spans.size(), 0};
  for (const auto& [key, v] : spans) out.ns += v;
  return out;
}

// "What fraction of the GPU span is device-to-host copying?": the share of the summed (process, device) spans that
// time_budget gives these copies (the time no kernel overlaps), beside their own copy time.
std::optional<std::string> ShareOfSpan(Ctx& c, const Direction& d, double copy_ns) {
  if (!HasAny(c.p.lower, {"span", "timeline", "wall", "elapsed"})) return std::nullopt;
  auto t = RunSkill(c, "time_budget", {});
  if (!t || t->declined || t->rows.empty()) return std::nullopt;
  double ns = 0;
  for (size_t r = 0; r < t->rows.size(); ++r) {
    const std::string slice = CellText(*t, r, "slice");
    if (std::find(d.slices.begin(), d.slices.end(), slice) != d.slices.end()) ns += CellNumber(*t, r, "time_ns");
  }
  const SpanSum spans = SummedSpans(*t);
  const double span_ns = spans.ns;
  if (span_ns <= 0) return std::nullopt;
  const auto mine = KeepRows(*t, [&](size_t r) {
    return std::find(d.slices.begin(), d.slices.end(), CellText(*t, r, "slice")) != d.slices.end();
  });
  CiteRows(c, "time_budget", mine, {"pid", "device_id", "slice", "time_ns", "span_pct", "span_ns"},
           std::string(d.label) + " in the time budget" + c.scope);
  return fmt::format(
      "{} hold {} of the GPU span{}: {} of {} summed over {} (process, device) span{} (the time no kernel overlaps "
      "them; their copy time in all is {}).",
      d.label, FormatPct(100.0 * ns / span_ns), WhereOf(c), FormatNs(ns), FormatNs(span_ns), spans.count,
      spans.count == 1 ? "" : "s", FormatNs(copy_ns));
}

// The memcpy table's rows of one direction (its copy kinds) in the question's filter, by index.
template <typename Each>
void ForEachMemcpyRow(const Ctx& c, const Direction& d, Each each) {
  const engine::MemcpyTable& t = c.profile.memcpys();
  for (size_t i = 0; i < t.size(); ++i) {
    if (std::find(d.copy_kinds.begin(), d.copy_kinds.end(), t.copy_kind[i]) != d.copy_kinds.end() &&
        InFilter(c, t.device[i], t.pid[i], t.start[i]))
      each(i);
  }
}

// The bytes and duration of each copy of one direction (or each memset, for memsets) in the question's filter.
template <typename Each>
void ForEachCopy(const Ctx& c, const Direction& d, Each each) {
  if (d.copy_kinds.empty()) {
    const engine::MemsetTable& t = c.profile.memsets();
    for (size_t i = 0; i < t.size(); ++i) {
      if (InFilter(c, t.device[i], t.pid[i], t.start[i])) each(t.bytes[i], t.end[i] - t.start[i]);
    }
    return;
  }
  const engine::MemcpyTable& t = c.profile.memcpys();
  ForEachMemcpyRow(c, d, [&](size_t i) { each(t.bytes[i], t.end[i] - t.start[i]); });
}

// The durations of a direction's copies (or of memsets), in the question's filter, sorted.
std::vector<double> CopyDurations(const Ctx& c, const Direction& d) {
  std::vector<double> v;
  ForEachCopy(c, d, [&](int64_t, int64_t ns) { v.push_back(static_cast<double>(ns)); });
  std::sort(v.begin(), v.end());
  return v;
}

// "The longest memcpy", "the shortest device-to-host copy": one instance (extreme > 0 the longest).
std::string CopyExtreme(const Ctx& c, const Direction& d, int extreme) {
  const std::vector<double> v = CopyDurations(c, d);
  if (v.empty()) return fmt::format("No {} ran{}.", d.label, WhereOf(c));
  return fmt::format("The {} of the {} {}{} took {} (median {}).", extreme > 0 ? "longest" : "shortest",
                     FormatCount(static_cast<double>(v.size())), d.label, WhereOf(c),
                     FormatNs(extreme > 0 ? v.back() : v.front()), FormatNs(PercentileOfSorted(v, 50)));
}

// "The p90 of host-to-device copies".
std::string CopyPercentile(const Ctx& c, const Direction& d) {
  const std::vector<double> v = CopyDurations(c, d);
  const double pct = PercentileOf(c.p.lower);
  return fmt::format(
      "The p{:.0f} duration of {} is {}{} (of {} {}; median {}, max {}; linear interpolation between ranks).", pct,
      d.label, FormatNs(PercentileOfSorted(v, pct)), WhereOf(c), FormatCount(static_cast<double>(v.size())), d.nouns,
      FormatNs(PercentileOfSorted(v, 50)), FormatNs(v.empty() ? std::nan("") : v.back()));
}

// One direction's rows of memory_transfers (into `rows`) and their summed figures.
Figures DirectionFigures(const skills::Table& t, const Direction& d, skills::Table& rows) {
  Figures f;
  f.label = std::string(d.label);
  rows = KeepRows(
      t, [&](size_t r) { return std::find(d.ops.begin(), d.ops.end(), CellText(t, r, "operation")) != d.ops.end(); });
  f.bytes = 0;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    f.count += CellNumber(rows, r, "count");
    f.total_ns += CellNumber(rows, r, "total_time_ns");
    f.bytes += CellNumber(rows, r, "total_bytes");
  }
  if (rows.rows.size() == 1) f.median_ns = CellNumber(rows, 0, "med_ns");
  return f;
}

// "Did it spend more time copying device-to-host than running kernels?": the copies against all kernel time.
bool AnswerCopiesAgainstKernels(Ctx& c, const Figures& a, const skills::Table& rows_a,
                                const std::vector<std::string>& cols, Measure m) {
  auto k = Usable(c, "top_kernels");
  if (!k) return false;
  Figures b;
  b.label = "kernels";
  b.count = SumColumn(*k, "instances");
  b.total_ns = SumColumn(*k, "total_time_ns");
  AnswerPair(c, a, b, m, "GPU time", "instances");
  CiteRows(c, "memory_transfers", rows_a, cols, a.label + c.scope);
  CiteRows(c, "top_kernels", KeepRows(*k, [](size_t r) { return r < 5; }),
           {"name", "instances", "total_time_ns", "time_pct"}, "Kernels by GPU time" + c.scope);
  return true;
}

// "How many HtoD memcpys have a pageable source?", "Are those transfers pinned?": the copies whose host side is
// pageable memory (the source of a host-to-device copy, the destination of a device-to-host one, either otherwise).
std::string CopyPageable(const Ctx& c, const Direction& d) {
  const engine::MemcpyTable& t = c.profile.memcpys();
  size_t n = 0, pageable = 0;
  double bytes = 0;
  ForEachMemcpyRow(c, d, [&](size_t i) {
    ++n;
    if (HostSidePageable(t, i)) ++pageable, bytes += static_cast<double>(t.bytes[i]);
  });
  const bool pinned_asked = HasWord(c.p.lower, "pinned");
  const std::string yes = !AsksYesNo(c.p.lower) ? "" : Yes(pinned_asked ? pageable == 0 : pageable > 0) + " ";
  return fmt::format("{}{} of the {} {}{} use pageable host memory ({}, {}); the other {} use pinned or device memory.",
                     yes, FormatCount(static_cast<double>(pageable)), FormatCount(static_cast<double>(n)), d.nouns,
                     WhereOf(c), FormatBytes(bytes), FormatPct(n ? 100.0 * pageable / static_cast<double>(n) : 0),
                     FormatCount(static_cast<double>(n - pageable)));
}

// "How big was the largest one?", "the single biggest copy: how long, what throughput?": the largest (size > 0) or
// smallest single copy of the direction by bytes, with its duration and rate (the longer of equal sizes).
std::string CopySizeExtreme(const Ctx& c, const Direction& d, const Figures& a, int size) {
  int64_t bytes = -1, ns = 0;
  ForEachCopy(c, d, [&](int64_t b, int64_t dur) {
    const bool better = bytes < 0 || (size > 0 ? b > bytes : b < bytes) || (b == bytes && dur > ns);
    if (better) bytes = b, ns = dur;
  });
  if (bytes < 0) return fmt::format("No {} ran{}.", d.label, WhereOf(c));
  return fmt::format("{} {} ran{}, {} in all; the {} moved {} in {} ({:.2f} GB/s).", FormatCount(a.count), d.nouns,
                     WhereOf(c), FormatBytes(a.bytes), size > 0 ? "largest" : "smallest",
                     FormatBytes(static_cast<double>(bytes)), FormatNs(static_cast<double>(ns)),
                     ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0);
}

// "How many H2D transfers were larger than 100 MB?": the copies past the size bound, with the extreme on that side.
std::string CopySizeBound(const Ctx& c, const Direction& d) {
  const SizeBound& b = *c.p.size_bound;
  size_t n = 0, past = 0;
  double extreme = b.above ? 0 : HUGE_VAL;
  ForEachCopy(c, d, [&](int64_t bytes, int64_t) {
    ++n;
    const auto v = static_cast<double>(bytes);
    if (b.above ? v > b.bytes : v < b.bytes) ++past;
    extreme = b.above ? std::max(extreme, v) : std::min(extreme, v);
  });
  if (n == 0) return fmt::format("No {} ran{}.", d.label, WhereOf(c));
  return fmt::format("{}{} of the {} {}{} moved {} than {} ({}); the {} moved {}.",
                     AsksYesNo(c.p.lower) ? Yes(past > 0) + " " : "", FormatCount(static_cast<double>(past)),
                     FormatCount(static_cast<double>(n)), d.nouns, WhereOf(c), b.above ? "more" : "less",
                     FormatBytes(b.bytes), FormatPct(100.0 * static_cast<double>(past) / static_cast<double>(n)),
                     b.above ? "largest" : "smallest", FormatBytes(extreme));
}

// Each direction named, in turn, by the measure asked (a sentence each), with their rows as evidence.
bool AnswerEachDirection(Ctx& c, const std::vector<std::pair<size_t, const Direction*>>& named, const skills::Table& t,
                         const std::vector<std::string>& cols, Measure m) {
  std::string s;
  skills::Table all_rows;
  for (const auto& [at, d] : named) {
    skills::Table rows;
    const Figures f = DirectionFigures(t, *d, rows);
    std::string sentence = f.count == 0 ? fmt::format("No {} ran{}.", f.label, WhereOf(c))
                                        : SentenceOf(f, m == Measure::kNone ? Measure::kTime : m, WhereOf(c), d->noun,
                                                     d->nouns, "GPU time");
    UpperFirst(sentence);
    s += (s.empty() ? "" : " ") + sentence;
    all_rows.columns = rows.columns;
    all_rows.rows.insert(all_rows.rows.end(), rows.rows.begin(), rows.rows.end());
  }
  Say(c, std::move(s), "exact sums over the copy table per direction (nsys stats cudagpumemsizesum/timesum)");
  CiteRows(c, "memory_transfers", all_rows, cols, "The copy directions" + c.scope);
  return true;
}

// The copy directions (or migrations) the question names, by where it names them; all copies when it asks about
// copies as a whole with a bound, an extreme or their memory kind.
std::vector<std::pair<size_t, const Direction*>> DirectionsNamed(const Ctx& c, int extreme) {
  std::vector<std::pair<size_t, const Direction*>> named;
  const bool migrations = AsksMigrations(c.p.lower);
  for (const auto& d : migrations ? std::span<const Direction>(kMigrations) : std::span<const Direction>(kDirections)) {
    size_t at = std::string::npos;
    for (auto w : d.said) at = std::min(at, c.p.lower.find(w));
    if (at != std::string::npos) named.emplace_back(at, &d);
  }
  if (migrations && named.empty()) named.emplace_back(0, &kAllMigrations);
  const bool any_copy = c.p.topic == "memcpy" && !migrations && !HasAny(c.p.lower, {"direction", "kind of", "type of"});
  if (named.empty() && any_copy && (c.p.bound || extreme != 0 || HasAny(c.p.lower, {"pageable", "pinned"})))
    named.emplace_back(0, &kAllCopies);
  return named;
}

bool AnswerDirections(Ctx& c, Measure m) {
  const int extreme = ExtremeAsked(c.p, m);
  std::vector<std::pair<size_t, const Direction*>> named = DirectionsNamed(c, extreme);
  if (named.empty()) return false;
  const Direction& first = *named[0].second;
  if (!(first.copy_kinds.empty() ? c.profile.info().caps.memset : c.profile.info().caps.memcpy)) return false;
  std::sort(named.begin(), named.end());
  auto t = Usable(c, "memory_transfers");
  if (!t) return false;
  auto figures = [&](const Direction& d, skills::Table& rows) { return DirectionFigures(*t, d, rows); };
  const std::vector<std::string> cols = {"operation", "count",       "total_time_ns", "avg_ns",
                                         "med_ns",    "total_bytes", "bandwidth_gb_s"};
  skills::Table rows_a, rows_b;
  const Figures a = figures(*named[0].second, rows_a);
  if (named.size() >= 2 && (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare)) {
    const Figures b = figures(*named[1].second, rows_b);
    AnswerPair(c, a, b, m, "GPU time");
    skills::Table both = rows_a;
    both.rows.insert(both.rows.end(), rows_b.rows.begin(), rows_b.rows.end());
    CiteRows(c, "memory_transfers", both, cols, "The two copy directions" + c.scope);
    return true;
  }
  if (named.size() == 1 && (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare) &&
      c.profile.info().caps.kernels && HasAny(c.p.lower, {"kernel", "computing", "compute"}))
    return AnswerCopiesAgainstKernels(c, a, rows_a, cols, m);
  // "how much data moved D2H and how much H2D?": each direction named, in turn, by the measure asked.
  if (named.size() >= 2 && !c.p.size_bound && !c.p.bound && extreme == 0 && SizeExtremeAsked(c.p) == 0 &&
      !HasAny(c.p.lower, {"pageable", "pinned"}) &&
      (m == Measure::kNone || m == Measure::kTime || m == Measure::kBytes || m == Measure::kCount ||
       m == Measure::kAverage))
    return AnswerEachDirection(c, named, *t, cols, m);
  std::string s;
  std::optional<std::string> span_share;
  if (a.count == 0) {
    s = fmt::format("No {} ran{}.", a.label, WhereOf(c));
  } else if (HasAny(c.p.lower, {"pageable", "pinned"}) && !first.copy_kinds.empty()) {
    s = CopyPageable(c, first);
  } else if (c.p.size_bound) {
    s = CopySizeBound(c, first);
  } else if (const int size = SizeExtremeAsked(c.p); size != 0) {
    s = CopySizeExtreme(c, first, a, size);
  } else if (m == Measure::kBandwidth) {
    s = fmt::format("{} achieved {:.2f} GB/s{}: {} in {} of GPU time ({} {}).", a.label,
                    a.total_ns > 0 ? a.bytes / a.total_ns : 0.0, WhereOf(c), FormatBytes(a.bytes), FormatNs(a.total_ns),
                    FormatCount(a.count), first.nouns);
  } else if (c.p.bound) {
    s = BoundSentence(c, CopyDurations(c, *named[0].second), first.label);
  } else if (extreme != 0) {
    s = CopyExtreme(c, first, extreme);
  } else if (m == Measure::kPercentile) {
    s = CopyPercentile(c, *named[0].second);
  } else if (m == Measure::kShare && (span_share = ShareOfSpan(c, *named[0].second, a.total_ns))) {
    s = std::move(*span_share);
  } else if (m == Measure::kShare) {
    const double all_ns = SumColumn(*t, "total_time_ns");
    s = fmt::format("{} hold {} of the GPU time in memory operations{}: {} of {} ({}, {} {}).", a.label,
                    FormatPct(100.0 * a.total_ns / all_ns), WhereOf(c), FormatNs(a.total_ns), FormatNs(all_ns),
                    FormatBytes(a.bytes), FormatCount(a.count), first.nouns);
  } else {
    s = SentenceOf(a, m == Measure::kNone ? Measure::kTime : m, WhereOf(c), first.noun, first.nouns, "GPU time");
  }
  const double bw = a.total_ns > 0 ? a.bytes / a.total_ns : std::nan("");  // bytes per ns = GB/s, over every row
  // A copy's rate beside its time, count or volume (not beside a share, a percentile or a memset).
  const bool rate_helps = m == Measure::kNone || m == Measure::kTime || m == Measure::kCount || m == Measure::kBytes ||
                          m == Measure::kAverageBytes || m == Measure::kAverage;
  if (!std::isnan(bw) && a.count > 0 && rate_helps && !first.copy_kinds.empty())
    s += fmt::format(" Achieved {:.2f} GB/s.", bw);
  Say(c, std::move(s), "exact sums over the memcpy table (nsys stats gpumemtimesum)");
  std::vector<std::string> shown = cols;
  if (SizeExtremeAsked(c.p) != 0) shown.insert(shown.end() - 1, {"min_bytes", "max_bytes"});
  CiteRows(c, "memory_transfers", rows_a, shown, a.label + c.scope);
  return true;
}

// --- Subject: named kernels, their configuration and distribution ------------------------------------------------

// The kernel rows of the profile inside the question's device and process filter (the window: whole rows that
// start in it).
std::vector<size_t> KernelRowsOf(const Ctx& c, const std::set<std::string>& names) {
  const engine::KernelTable& k = c.profile.kernels();
  const auto& strings = c.profile.strings();
  std::vector<size_t> out;
  std::unordered_map<engine::StrId, bool> known;  // per distinct name: is it one of `names`?
  for (size_t i = 0; i < k.size(); ++i) {
    auto it = known.find(k.name[i]);
    if (it == known.end()) it = known.emplace(k.name[i], names.count(std::string(strings.view(k.name[i]))) > 0).first;
    if (!it->second) continue;
    if (InFilter(c, k.device[i], k.pid[i], k.start[i])) out.push_back(i);
  }
  return out;
}

// Every kernel row inside the question's filter, whatever its name.
std::vector<size_t> KernelRowsInFilter(const Ctx& c) {
  const engine::KernelTable& k = c.profile.kernels();
  std::vector<size_t> out;
  for (size_t i = 0; i < k.size(); ++i) {
    if (InFilter(c, k.device[i], k.pid[i], k.start[i])) out.push_back(i);
  }
  return out;
}

double MedianOf(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string KernelLabel(const Ctx& c) {
  return c.kernels.size() == 1 ? Ticked(c.kernels.front())
                               : fmt::format("the {} kernels matching '{}'", c.kernels.size(), c.kernel_query);
}

}  // namespace

std::vector<std::string> KernelsWithShortName(const skills::Table& all, const std::string& lower_word) {
  std::vector<std::string> hit;
  for (size_t r = 0; r < all.rows.size(); ++r) {
    if (Lower(CellText(all, r, "short_name")) == lower_word) hit.push_back(CellText(all, r, "name"));
  }
  return hit;
}

namespace {

// A kernel said as a plain word ("the add kernel"): a short name equal to a word of the question.
void KernelByShortWord(Ctx& c, const skills::Table& all) {
  if (!c.kernels.empty()) return;
  for (const auto& w : c.p.words) {
    if (w.size() < 3 || IsCommonWord(w)) continue;
    std::vector<std::string> hit = KernelsWithShortName(all, w);
    if (!hit.empty()) {
      c.kernels = hit;
      c.kernel_query = w;
      return;
    }
  }
}

// The kernels the question names, or else the kernel a plain word of it names by its short name (top_kernels); false
// when it names none.
bool NameKernelByShortWord(Ctx& c) {
  if (c.kernels.empty()) {
    if (auto all = Usable(c, "top_kernels")) KernelByShortWord(c, *all);
  }
  return !c.kernels.empty();
}

// A CUDA API call against a kernel the question names by its short name, by the measure asked: the call's host time
// from cuda_api_summary, the kernel's GPU time from top_kernels.
bool AnswerApiAgainstKernel(Ctx& c, const Figures& api, const skills::Table& api_rows, Measure m) {
  auto all = Usable(c, "top_kernels");
  if (!all) return false;
  KernelByShortWord(c, *all);
  if (c.kernels.empty()) return false;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const auto rows = KeepRows(*all, [&](size_t r) { return names.count(CellText(*all, r, "name")) > 0; });
  if (rows.rows.empty()) return false;
  Figures kernel;
  kernel.label = c.kernels.size() == 1 ? Ticked(CellText(rows, 0, "short_name")) : KernelLabel(c);
  kernel.count = SumColumn(rows, "instances");
  kernel.total_ns = SumColumn(rows, "total_time_ns");
  AnswerPair(c, api, kernel, m, "time (host time for the call, GPU time for the kernel)");
  CiteRows(c, "cuda_api_summary", api_rows, {"name", "num_calls", "total_time_ns", "avg_ns", "med_ns"},
           api.label + " calls" + c.scope);
  CiteRows(c, "top_kernels", rows, {"name", "instances", "total_time_ns", "med_ns"}, "The kernel" + c.scope);
  return true;
}

// The calls of launch API `api` (a base name) that launched the kernels the question names by a short name: their
// count and host time, with kernel_launch_overhead's rows of those kernels as evidence. False when no kernel is named.
bool AnswerLaunchCallsOfKernel(Ctx& c, const std::string& api) {
  if (!NameKernelByShortWord(c)) return false;
  auto table = Usable(c, "kernel_launch_overhead");
  if (!table) return false;
  const engine::KernelTable& k = c.profile.kernels();
  const engine::RuntimeTable& rt = c.profile.runtime();
  ApiNamed is_api(c, api);
  std::set<int32_t> calls;
  double host_ns = 0;
  size_t kernels = 0;
  for (size_t i : KernelRowsOf(c, {c.kernels.begin(), c.kernels.end()})) {
    ++kernels;
    if (k.launch[i] < 0) continue;
    const auto r = static_cast<size_t>(k.launch[i]);
    if (is_api(rt.name[r]) && calls.insert(k.launch[i]).second) host_ns += static_cast<double>(rt.end[r] - rt.start[r]);
  }
  const auto n = static_cast<double>(calls.size());
  Say(c,
      fmt::format("{} {} calls launched {}{}, {} of host time in them ({} per call on average){}.", FormatCount(n), api,
                  KernelLabel(c), WhereOf(c), FormatNs(host_ns), FormatNs(n > 0 ? host_ns / n : 0),
                  calls.size() < kernels ? fmt::format("; {} of its {} kernels have no {} call in the export",
                                                       FormatCount(static_cast<double>(kernels - calls.size())),
                                                       FormatCount(static_cast<double>(kernels)), api)
                                         : ""),
      "each kernel's launch call by correlation id in the same process");
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  CiteRows(c, "kernel_launch_overhead",
           KeepRows(*table, [&](size_t r) { return names.count(CellText(*table, r, "kernel_name")) > 0; }),
           {"pid", "tid", "count", "aavg_ns", "amed_ns", "api_name", "kernel_name"},
           "The kernel's launch calls" + c.scope);
  return true;
}

// "What was the launch latency of add_arrays_, from the start of the cuLaunchKernel call to the kernel starting?",
// "how long do kernels wait between launch and start?".
bool AsksLaunchLatency(const std::string& q) {
  if (HasAny(q, {"launch latency", "launch-to-start", "launch to start", "launch-to-execution", "launch to execution",
                 "queue time", "queueing delay", "queuing delay", "queue delay"}))
    return true;
  return HasWord(q, "launch") &&
         HasAny(q, {"and start", "to the kernel actually", "kernel actually start", "until the kernel",
                    "before the kernel start", "to the kernel start", "kernel starts running", "and the kernel start"});
}

// The latency from each launch call's start to its kernel's start on the GPU (named kernels, else all in the filter),
// with its two parts: the call's own duration and the queue after it returned (negative when the kernel started
// before the call returned). kernel_launch_overhead (nsys stats kernexecsum) is the evidence.
bool AnswerLaunchLatency(Ctx& c) {
  auto table = Usable(c, "kernel_launch_overhead");
  if (!table) return false;
  const engine::KernelTable& k = c.profile.kernels();
  const engine::RuntimeTable& rt = c.profile.runtime();
  const std::vector<size_t> rows =
      c.kernels.empty() ? KernelRowsInFilter(c) : KernelRowsOf(c, {c.kernels.begin(), c.kernels.end()});
  std::vector<double> latency, call;
  for (size_t i : rows) {
    if (k.launch[i] < 0) continue;
    const auto r = static_cast<size_t>(k.launch[i]);
    latency.push_back(static_cast<double>(k.start[i] - rt.start[r]));
    call.push_back(static_cast<double>(rt.end[r] - rt.start[r]));
  }
  if (latency.empty()) return false;
  const std::string who = !c.kernels.empty() ? KernelLabel(c) : latency.size() == 1 ? "the kernel" : "kernels";
  const double med = MedianOf(latency), call_med = MedianOf(call);
  double sum = 0;
  for (double v : latency) sum += v;
  std::string s;
  if (latency.size() == 1) {
    s = fmt::format(
        "The launch latency of {}{} is {}: its launch call started {} before the kernel started on the GPU; "
        "the call itself took {}, so the kernel {} {} {} the call returned.",
        who, WhereOf(c), FormatNs(latency[0]), FormatNs(latency[0]), FormatNs(call[0]),
        latency[0] >= call[0] ? "started" : "was already running", FormatNs(std::abs(latency[0] - call[0])),
        latency[0] >= call[0] ? "after" : "before");
  } else {
    s = fmt::format(
        "From launch call start to kernel start, {} {} waited {} at the median and {} on average{} (max "
        "{}); the launch calls themselves took {} at the median.",
        FormatCount(static_cast<double>(latency.size())), who, FormatNs(med),
        FormatNs(sum / static_cast<double>(latency.size())), WhereOf(c),
        FormatNs(*std::max_element(latency.begin(), latency.end())), FormatNs(call_med));
  }
  if (latency.size() < rows.size())
    s += fmt::format(" {} kernels have no launch call in the export and are left out.",
                     FormatCount(static_cast<double>(rows.size() - latency.size())));
  Say(c, std::move(s), "each kernel's start minus the start of the launch call with its correlation id");
  CiteRows(c, "kernel_launch_overhead", KeepRows(*table, [](size_t r) { return r < 5; }),
           {"pid", "tid", "devid", "count", "aavg_ns", "qavg_ns", "kavg_ns", "api_name", "kernel_name"},
           "Launch call, queue and kernel times" + c.scope);
  return true;
}

// "What is the p99 kernel duration?", "the median kernel duration": over every kernel instance in the filter.
bool AnswerKernelDurations(Ctx& c, Measure m) {
  auto all = Usable(c, "top_kernels");
  if (!all) return false;
  const engine::KernelTable& k = c.profile.kernels();
  std::vector<double> d;
  for (size_t i : KernelRowsInFilter(c)) d.push_back(static_cast<double>(k.end[i] - k.start[i]));
  if (d.empty()) return false;
  std::sort(d.begin(), d.end());
  double sum = 0;
  for (double v : d) sum += v;
  const double pct = m == Measure::kMedian ? 50 : PercentileOf(c.p.lower);
  Say(c,
      fmt::format("The {} kernel duration{} is {} (of {} kernel instances; median {}, average {}, max {}; linear "
                  "interpolation between ranks).",
                  m == Measure::kMedian ? "median" : fmt::format("p{:.0f}", pct), WhereOf(c),
                  FormatNs(PercentileOfSorted(d, pct)), FormatCount(static_cast<double>(d.size())),
                  FormatNs(PercentileOfSorted(d, 50)), FormatNs(sum / static_cast<double>(d.size())),
                  FormatNs(d.back())),
      "exact order statistics of the kernel table's instances");
  const auto top = KeepRows(*all, [](size_t r) { return r < 5; });
  CiteRows(c, "top_kernels", top, {"name", "instances", "min_ns", "med_ns", "max_ns", "total_time_ns"},
           "The kernels with the most GPU time" + c.scope);
  return true;
}

// The durations of the named range's instances (of every range when none is named) in the question's processes and
// window, sorted; range time is CPU wall time.
std::vector<double> NvtxDurations(const Ctx& c) {
  const engine::NvtxTable& n = c.profile.nvtx();
  std::unordered_map<engine::StrId, bool> mine;  // per distinct name: is it the named range?
  std::vector<double> d;
  for (size_t i = 0; i < n.size(); ++i) {
    if (!c.nvtx_range.empty()) {
      auto it = mine.find(n.name[i]);
      if (it == mine.end()) it = mine.emplace(n.name[i], c.profile.strings().view(n.name[i]) == c.nvtx_range).first;
      if (!it->second) continue;
    }
    if (InHostFilter(c, n.pid[i], n.start[i])) d.push_back(static_cast<double>(n.end[i] - n.start[i]));
  }
  std::sort(d.begin(), d.end());
  return d;
}

// "How many NVTX ranges lasted longer than 10 ms?": the range instances past the bound (of the named range, else of
// all), nvtx_summary's rows as evidence. False when a named range matches no row by name (a domain-prefixed label).
bool AnswerNvtxBound(Ctx& c) {
  auto t = Usable(c, "nvtx_summary");
  if (!t) return false;
  if (!c.nvtx_range.empty() && BoundsTheTotal(c.p)) {
    const auto mine = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "range") == c.nvtx_range; });
    if (mine.rows.empty()) return false;
    Say(c,
        TotalAgainstBound(c, "NVTX range " + Ticked(c.nvtx_range), SumColumn(mine, "total_time_ns"),
                          SumColumn(mine, "instances"), "wall time"),
        "the NVTX table's sum for the range (nsys stats nvtxsum) against the bound");
    CiteRows(c, "nvtx_summary", mine, {"range", "instances", "total_time_ns", "avg_ns"},
             "NVTX range " + c.nvtx_range + c.scope);
    return true;
  }
  const std::vector<double> d = NvtxDurations(c);
  if (d.empty() && !c.nvtx_range.empty()) return false;
  Say(c, BoundSentence(c, d, c.nvtx_range.empty() ? "NVTX range instances" : "instances of " + Ticked(c.nvtx_range)),
      "exact counts of the NVTX table's ranges against the bound (range time is CPU wall time)");
  const auto rows = c.nvtx_range.empty()
                        ? KeepRows(*t, [](size_t r) { return r < 5; })
                        : KeepRows(*t, [&](size_t r) { return CellText(*t, r, "range") == c.nvtx_range; });
  CiteRows(c, "nvtx_summary", rows, {"range", "instances", "min_ns", "med_ns", "max_ns", "total_time_ns"},
           (c.nvtx_range.empty() ? "The NVTX ranges with the most time" : "NVTX range " + c.nvtx_range) + c.scope);
  return true;
}

// "On average, is 3D_backbone slower than find_centers?": two NVTX ranges the question names (a range's name, or the
// name after its domain prefix, as a whole word), compared by the measure asked with nvtx_summary's rows.
bool AnswerNvtxPair(Ctx& c, Measure m) {
  auto all = RunSkill(c, "nvtx_summary", {}, false);
  if (!all || all->declined) return false;
  std::map<size_t, std::string> at;  // position in the question -> the longest range named there
  for (size_t r = 0; r < all->rows.size(); ++r) {
    const std::string range = CellText(*all, r, "range"), lower = Lower(range);
    for (const std::string& said : {lower, RangeNameTail(lower)}) {
      if (said.size() < 3 || IsCommonWord(said) || !HasWord(c.p.lower, said)) continue;
      const size_t pos = c.p.lower.find(said);
      if (!at.count(pos) || Lower(at[pos]).size() < lower.size()) at[pos] = range;
      break;
    }
  }
  std::vector<std::string> named;
  for (const auto& [pos, range] : at) {
    if (std::find(named.begin(), named.end(), range) == named.end()) named.push_back(range);
  }
  if (named.size() != 2) return false;
  auto t = Usable(c, "nvtx_summary");
  if (!t) return false;
  skills::Table rows;
  Figures f[2];
  for (int i = 0; i < 2; ++i) {
    f[i].label = Ticked(named[i]);
    const auto mine = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "range") == named[i]; });
    f[i].count = SumColumn(mine, "instances");
    f[i].total_ns = SumColumn(mine, "total_time_ns");
    rows.columns = mine.columns;
    rows.rows.insert(rows.rows.end(), mine.rows.begin(), mine.rows.end());
  }
  if (f[0].count == 0 || f[1].count == 0) return false;
  AnswerPair(c, f[0], f[1], m, "wall time", "instances");
  CiteRows(c, "nvtx_summary", rows, {"range", "instances", "total_time_ns", "avg_ns", "med_ns"},
           "The two NVTX ranges" + c.scope);
  return true;
}

// "p95 of the 3D_backbone NVTX range?": a percentile of a named range's instance durations (linear interpolation
// between ranks), beside nvtx_summary's median and maximum.
bool AnswerNvtxPercentile(Ctx& c, Measure m) {
  auto t = Usable(c, "nvtx_summary");
  if (!t) return false;
  const auto mine = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "range") == c.nvtx_range; });
  const std::vector<double> d = NvtxDurations(c);
  if (d.empty() || mine.rows.empty()) return false;
  const double pct = m == Measure::kMedian ? 50 : PercentileOf(c.p.lower);
  Say(c,
      fmt::format("The p{:.0f} duration of NVTX range {}{} is {} (of {} instances; median {}, max {}; linear "
                  "interpolation between ranks).",
                  pct, Ticked(c.nvtx_range), WhereOf(c), FormatNs(PercentileOfSorted(d, pct)),
                  FormatCount(static_cast<double>(d.size())), FormatNs(PercentileOfSorted(d, 50)), FormatNs(d.back())),
      "the NVTX table's instances of the range, sorted (range time is CPU wall time)");
  CiteRows(c, "nvtx_summary", mine, {"range", "instances", "med_ns", "min_ns", "max_ns"},
           "NVTX range " + c.nvtx_range + c.scope);
  return true;
}

// "How many kernels ran longer than 100 us?", "Did any gemm take more than 1 ms?": the kernel instances past the
// bound (of the named kernels, else of all), with the kernels that have the most of them.
bool AnswerKernelsBound(Ctx& c) {
  auto all = Usable(c, "top_kernels");
  if (!all) return false;
  const engine::KernelTable& k = c.profile.kernels();
  const std::set<std::string> named(c.kernels.begin(), c.kernels.end());
  const std::vector<size_t> rows = named.empty() ? KernelRowsInFilter(c) : KernelRowsOf(c, named);
  const DurationBound& b = *c.p.bound;
  std::vector<double> d;
  std::map<engine::StrId, size_t> past_by_name;
  for (size_t i : rows) {
    const auto ns = static_cast<double>(k.end[i] - k.start[i]);
    d.push_back(ns);
    if (b.above ? ns > b.ns : ns < b.ns) ++past_by_name[k.name[i]];
  }
  std::sort(d.begin(), d.end());
  std::vector<std::pair<size_t, std::string>> most;
  for (const auto& [name, n] : past_by_name) most.emplace_back(n, std::string(c.profile.strings().view(name)));
  std::stable_sort(most.begin(), most.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::string s = BoundSentence(c, d, named.empty() ? "kernel instances" : "instances of " + KernelLabel(c));
  for (size_t i = 0; i < std::min<size_t>(most.size(), 3); ++i)
    s += fmt::format("{}{} ({})", i ? "; " : " Most of them: ", Ticked(most[i].second), FormatCount(most[i].first));
  if (!most.empty()) s += ".";
  Say(c, s, "exact counts of the kernel table's instances against the bound");
  std::set<std::string> with_past;
  for (const auto& m : most) with_past.insert(m.second);
  const auto mine = KeepRows(*all, [&](size_t r) { return with_past.count(CellText(*all, r, "name")) > 0; });
  CiteRows(c, "top_kernels", mine.rows.empty() ? *all : mine,
           {"name", "instances", "min_ns", "med_ns", "max_ns", "total_time_ns"},
           (mine.rows.empty() ? "Kernels (none past the bound)" : "Kernels with instances past the bound") + c.scope);
  return true;
}

bool AnswerNamedKernel(Ctx& c, Measure m) {
  if (m == Measure::kBytes || m == Measure::kAverageBytes || m == Measure::kBandwidth)
    m = Measure::kNone;  // not measures of a kernel
  auto t = Usable(c, "top_kernels");
  if (!t) return false;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const auto mine = KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; });
  if (mine.rows.empty()) return false;
  Figures f;
  f.label = KernelLabel(c);
  f.count = SumColumn(mine, "instances");
  f.total_ns = SumColumn(mine, "total_time_ns");
  const std::vector<std::string> cols = {"name", "instances", "total_time_ns", "avg_ns", "med_ns", "time_pct"};
  const auto rows = KernelRowsOf(c, names);
  const engine::KernelTable& k = c.profile.kernels();
  std::string s;
  if (m == Measure::kShare) {
    const double all_ns = SumColumn(*t, "total_time_ns");
    s = fmt::format("{} is {} of kernel time{}: {} of {} ({} instances).", f.label,
                    FormatPct(100.0 * f.total_ns / all_ns), WhereOf(c), FormatNs(f.total_ns), FormatNs(all_ns),
                    FormatCount(f.count));
  } else if (m == Measure::kGrid || m == Measure::kBlock) {
    std::map<std::array<int64_t, 6>, int64_t> configs;
    for (size_t i : rows) {
      const auto& g = k.Config(i);
      ++configs[{g.grid_x, g.grid_y, g.grid_z, g.block_x, g.block_y, g.block_z}];
    }
    std::vector<std::pair<std::array<int64_t, 6>, int64_t>> list(configs.begin(), configs.end());
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    s = fmt::format("{} launched{} with ", f.label, WhereOf(c));
    for (size_t i = 0; i < list.size() && i < 3; ++i) {
      const auto& g = list[i].first;
      const int64_t blocks = g[0] * g[1] * g[2], threads = g[3] * g[4] * g[5];
      s += fmt::format("{}{} block{} (grid {}x{}x{}) of {} threads (block {}x{}x{}) in {} of its {} launches",
                       i ? "; " : "", FormatCount(static_cast<double>(blocks)), blocks == 1 ? "" : "s", g[0], g[1],
                       g[2], FormatCount(static_cast<double>(threads)), g[3], g[4], g[5],
                       FormatCount(static_cast<double>(list[i].second)), FormatCount(static_cast<double>(rows.size())));
    }
    if (list.size() > 3) s += fmt::format("; {} configurations in all", list.size());
    s += fmt::format(". {} took {} of GPU time.",
                     f.count == 1 ? std::string("Its one launch") : "Its " + FormatCount(f.count) + " launches",
                     FormatNs(f.total_ns));
  } else if (m == Measure::kPercentile) {
    std::vector<double> d;
    d.reserve(rows.size());
    for (size_t i : rows) d.push_back(static_cast<double>(k.end[i] - k.start[i]));
    std::sort(d.begin(), d.end());
    const double pct = PercentileOf(c.p.lower);
    const double v = PercentileOfSorted(d, pct);
    s = fmt::format(
        "The p{:.0f} duration of {} is {}{} (of {} launches; median {}, max {}; linear interpolation "
        "between ranks).",
        pct, f.label, FormatNs(v), WhereOf(c), FormatCount(static_cast<double>(d.size())), FormatNs(MedianOf(d)),
        FormatNs(d.empty() ? std::nan("") : d.back()));
  } else {
    if (m == Measure::kMedian && mine.rows.size() == 1) {
      f.median_ns = CellNumber(mine, 0, "med_ns");
    } else {
      std::vector<double> d;
      d.reserve(rows.size());
      for (size_t i : rows) d.push_back(static_cast<double>(k.end[i] - k.start[i]));
      f.median_ns = MedianOf(std::move(d));
    }
    s = SentenceOf(f, m, WhereOf(c), "launch", "launches", "GPU time");
  }
  Say(c, std::move(s), "exact figures over the kernel table rows of the named kernel(s)");
  CiteRows(c, "top_kernels", mine, cols, "The named kernel(s)" + c.scope);
  for (size_t r = 0; r < mine.rows.size() && r < 10; ++r) c.turn.state.listed.push_back(CellText(mine, r, "name"));
  return true;
}

// --- Grouping: kernels per device or per process -------------------------------------------------------------------

bool AnswerKernelsGrouped(Ctx& c, Grouping g) {
  auto t = Usable(c, "device_imbalance");
  if (!t || t->rows.empty()) return false;
  const char* key = g == Grouping::kDevice ? "device_id" : "pid";
  std::map<int64_t, std::pair<double, double>> by;  // key -> (kernels, kernel_ns)
  for (size_t r = 0; r < t->rows.size(); ++r) {
    auto& e = by[static_cast<int64_t>(CellNumber(*t, r, key))];
    e.first += CellNumber(*t, r, "kernels");
    e.second += CellNumber(*t, r, "kernel_ns");
  }
  double n = 0, ns = 0;
  std::string parts;
  for (const auto& [id, e] : by) {
    parts += fmt::format("{}{} {}: {} kernels, {}", parts.empty() ? "" : "; ",
                         g == Grouping::kDevice ? "device" : "process", id, FormatCount(e.first), FormatNs(e.second));
    n += e.first;
    ns += e.second;
  }
  Say(c,
      fmt::format("Kernels per {}{}: {}. Total: {} kernels, {} of GPU time.",
                  g == Grouping::kDevice ? "device" : "process", WhereOf(c), parts, FormatCount(n), FormatNs(ns)),
      "exact sums of the kernel table per process and device");
  CiteRows(c, "device_imbalance", *t, {"pid", "device_id", "kernels", "kernel_ns", "nccl_ns"},
           std::string("Kernels per ") + (g == Grouping::kDevice ? "device" : "process") + c.scope);
  return true;
}

// "How many streams ran kernels?": distinct (device, stream) pairs of the kernel table in the filter.
bool AnswerStreamCount(Ctx& c) {
  auto t = Usable(c, "stream_concurrency");
  if (!t) return false;
  const engine::KernelTable& k = c.profile.kernels();
  std::map<int32_t, std::set<int32_t>> by_device;
  for (size_t i : KernelRowsInFilter(c)) by_device[k.device[i]].insert(k.stream[i]);
  size_t n = 0;
  std::string parts;
  for (const auto& [d, streams] : by_device) {
    n += streams.size();
    parts +=
        fmt::format("{}device {}: {}", parts.empty() ? "" : "; ", d, FormatCount(static_cast<double>(streams.size())));
  }
  Say(c, fmt::format("{} CUDA streams ran kernels{} ({}).", FormatCount(static_cast<double>(n)), WhereOf(c), parts),
      "distinct (device, stream) pairs of the kernel table; stream_concurrency shows how many ran at once");
  CiteRows(c, "stream_concurrency", *t, {"device_id", "streams_busy", "time_ns", "time_pct"},
           "Time with k streams busy, per device" + c.scope);
  return true;
}

// "How long from the first kernel to the last?", "the gap between the first and last kernel": a span, not an idle gap.
bool AsksFirstToLast(const Parsed& p) {
  return !p.window && HasWord(p.lower, "first") && HasWord(p.lower, "last") &&
         HasAny(p.lower, {"kernel", "gpu work", "gpu activity"}) &&
         HasAny(p.lower, {"how long", "how much time", "time between", "gap between", "span", "elapsed", "passed",
                          "from the first", "from first"});
}

// From each device's first kernel start to its last kernel end, in the question's filter; time_budget's spans (of
// every GPU operation) beside them as evidence.
bool AnswerIdleShare(Ctx& c);

// "How long was GPU 0 idle between its first and last kernel?": with "idle", the span less the union of the
// kernels on the device (no kernel running); idle between any GPU operations is time_budget's (AnswerIdleShare).
bool AnswerKernelSpan(Ctx& c) {
  const bool idle = HasWord(c.p.lower, "idle");
  if (idle && HasAny(c.p.lower, {"memcpy", "copy", "copies", "memset", "activity", "operation", " op "}))
    return AnswerIdleShare(c);
  auto t = Usable(c, "time_budget");
  if (!t) return false;
  const engine::KernelTable& k = c.profile.kernels();
  struct Span {
    engine::Ns first = 0, last = 0;
    std::vector<std::pair<engine::Ns, engine::Ns>> runs;  // the kernels, for their union
  };
  std::map<int32_t, Span> by_device;
  for (size_t i = 0; i < k.size(); ++i) {
    if (!InFilter(c, k.device[i], k.pid[i], k.start[i])) continue;
    auto [it, fresh] = by_device.try_emplace(k.device[i], Span{k.start[i], k.end[i], {}});
    it->second.first = std::min(it->second.first, k.start[i]);
    it->second.last = std::max(it->second.last, k.end[i]);
    if (idle) it->second.runs.emplace_back(k.start[i], k.end[i]);
  }
  if (by_device.empty()) return false;
  std::string parts;
  for (auto& [d, sp] : by_device) {
    const double span = static_cast<double>(sp.last - sp.first);
    std::string what = FormatNs(span);
    if (idle) {
      std::sort(sp.runs.begin(), sp.runs.end());
      engine::Ns busy = 0, reach = sp.first;
      for (const auto& [a, b] : sp.runs) {
        if (b > reach) busy += b - std::max(a, reach), reach = b;
      }
      const double free = span - static_cast<double>(busy);
      what = fmt::format("idle {} of its {} span ({}; kernels ran {})", FormatNs(free), FormatNs(span),
                         FormatPct(span > 0 ? 100.0 * free / span : 0), FormatNs(static_cast<double>(busy)));
    }
    parts += fmt::format("{}device {}: {} (from {} to {} s into the capture)", parts.empty() ? "" : "; ", d, what,
                         fmt::format("{:.6f}", static_cast<double>(sp.first - c.profile.info().start_ns) / 1e9),
                         fmt::format("{:.6f}", static_cast<double>(sp.last - c.profile.info().start_ns) / 1e9));
  }
  Say(c,
      fmt::format("{} the first kernel's start to the last kernel's end{}: {}.",
                  idle ? "With no kernel running, from" : "From", WhereOf(c), parts),
      idle ? "the earliest start and latest end of the kernel table's rows per device, less the union of the kernels"
           : "the earliest start and latest end of the kernel table's rows per device");
  std::set<std::pair<double, double>> seen;
  const auto spans = KeepRows(*t, [&](size_t r) {
    return seen.insert({CellNumber(*t, r, "pid"), CellNumber(*t, r, "device_id")}).second;
  });
  CiteRows(c, "time_budget", spans, {"pid", "device_id", "span_ns"},
           "Each (process, device) span, first to last GPU operation" + c.scope);
  return true;
}

// "What percentage of the time is the GPU idle?": time_budget's idle slices over each (process, device) span.
bool AnswerIdleShare(Ctx& c) {
  auto t = Usable(c, "time_budget");
  if (!t || t->rows.empty()) return false;
  const auto idle = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "kind") == "idle"; });
  std::map<std::pair<int64_t, int64_t>, std::pair<double, double>> by;  // (pid, device) -> (idle, span)
  for (size_t r = 0; r < t->rows.size(); ++r) {
    auto& e =
        by[{static_cast<int64_t>(CellNumber(*t, r, "pid")), static_cast<int64_t>(CellNumber(*t, r, "device_id"))}];
    e.second = CellNumber(*t, r, "span_ns");
    if (CellText(*t, r, "kind") == "idle") e.first += CellNumber(*t, r, "time_ns");
  }
  const bool busy = HasAny(c.p.lower, {"busy", "utiliz", "utilis", "active"}) &&
                    !HasAny(c.p.lower, {"idle", "dead time", "nothing running", "wasted", "unused"});
  double kernel_ns = 0;  // kernels alone: what "utilization" means to some (nvidia-smi's is any kernel running)
  for (size_t r = 0; r < t->rows.size(); ++r) {
    if (CellText(*t, r, "kind") == "kernel") kernel_ns += CellNumber(*t, r, "time_ns");
  }
  double idle_ns = 0, span_ns = 0;
  std::string parts;
  for (const auto& [key, e] : by) {
    idle_ns += e.first;
    span_ns += e.second;
    const double v = busy ? e.second - e.first : e.first;
    parts += fmt::format("{}device {} (pid {}): {} of {} ({})", parts.empty() ? "" : "; ", key.second, key.first,
                         FormatNs(v), FormatNs(e.second), FormatPct(e.second > 0 ? 100.0 * v / e.second : 0));
  }
  const double v = busy ? span_ns - idle_ns : idle_ns;
  const std::string kernels_alone =
      busy ? fmt::format(" Kernels alone ran {} of it ({}).", FormatPct(span_ns > 0 ? 100.0 * kernel_ns / span_ns : 0),
                         FormatNs(kernel_ns))
           : "";
  Say(c,
      fmt::format("The GPU was {} {} of its span{}: {} of {} summed over {} (process, device) span{} ({}).{}",
                  busy ? "busy (kernels, copies or memsets)" : "idle", FormatPct(span_ns > 0 ? 100.0 * v / span_ns : 0),
                  WhereOf(c), FormatNs(v), FormatNs(span_ns), by.size(), by.size() == 1 ? "" : "s", parts,
                  kernels_alone),
      "time_budget cuts each span (first to last GPU operation of the process on the device) into slices that add "
      "up to it");
  CiteRows(c, "time_budget", idle, {"pid", "device_id", "slice", "time_ns", "span_pct", "span_ns"},
           "Idle slices of each GPU span" + c.scope);
  return true;
}

// Kernels named in a question about NVTX ranges ("which range launches flash_fwd_kernel?"): exact short names or
// name substrings of identifier-like words.
void KernelsForRanges(Ctx& c, const skills::Table& all) {
  KernelByShortWord(c, all);
  if (!c.kernels.empty()) return;
  std::vector<std::string> cands = c.p.idents;
  cands.insert(cands.end(), c.p.quoted.begin(), c.p.quoted.end());
  for (const auto& cand : cands) {
    const std::string lc = Lower(cand);
    if (lc == Lower(c.nvtx_range)) continue;
    std::vector<std::string> hit;
    for (size_t r = 0; r < all.rows.size(); ++r) {
      if (Lower(CellText(all, r, "name")).find(lc) != std::string::npos) hit.push_back(CellText(all, r, "name"));
    }
    if (!hit.empty()) {
      c.kernels = hit;
      c.kernel_query = cand;
      return;
    }
  }
}

bool AnswerRangesOfKernels(Ctx& c) {
  auto t = Usable(c, "nvtx_kernel_map");
  if (!t) return false;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const auto mine = KeepRows(*t, [&](size_t r) {
    return names.count(CellText(*t, r, "kernel_name")) > 0 && !CellText(*t, r, "nvtx_range").empty();
  });
  std::map<std::string, std::pair<double, double>> by;  // range -> (kernel launches, GPU time)
  for (size_t r = 0; r < mine.rows.size(); ++r) {
    auto& e = by[CellText(mine, r, "nvtx_range")];
    e.first += CellNumber(mine, r, "kern_inst");
    e.second += CellNumber(mine, r, "total_time_ns");
  }
  std::vector<std::pair<std::string, std::pair<double, double>>> list(by.begin(), by.end());
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  std::string s;
  if (list.empty()) {
    s = fmt::format("No NVTX range encloses the launches of {}{}.", KernelLabel(c), WhereOf(c));
  } else {
    s = fmt::format("{} {} launched inside {} NVTX range name{}{}; ", KernelLabel(c),
                    c.kernels.size() == 1 ? "is" : "are", list.size(), list.size() == 1 ? "" : "s", WhereOf(c));
    for (size_t i = 0; i < list.size() && i < 3; ++i) {
      s += fmt::format("{}{} ({} launches, {} of GPU time)", i ? ", " : "", Ticked(list[i].first),
                       FormatCount(list[i].second.first), FormatNs(list[i].second.second));
    }
    s += ". Nested ranges each count a launch.";
  }
  Say(c, std::move(s),
      "nvtx_kernel_map attributes each kernel to the ranges around its launch call (nsys nvtxkernsum)");
  CiteRows(c, "nvtx_kernel_map", mine, {"nvtx_range", "pid", "tid", "kern_inst", "total_time_ns", "kernel_name"},
           "Ranges launching the kernel(s)" + c.scope);
  for (size_t i = 0; i < list.size() && i < 10; ++i) c.turn.state.listed.push_back(list[i].first);
  return true;
}

// Two devices compared by kernel count or kernel time (device_imbalance's sums per process and device).
bool AnswerDevicePair(Ctx& c, Measure m) {
  auto t = Usable(c, "device_imbalance");
  if (!t) return false;
  Figures f[2];
  skills::Table rows[2];
  for (int i = 0; i < 2; ++i) {
    const int32_t d = c.p.devices[static_cast<size_t>(i)];
    f[i].label = fmt::format("device {}", d);
    rows[i] = KeepRows(*t, [&](size_t r) { return static_cast<int32_t>(CellNumber(*t, r, "device_id")) == d; });
    if (rows[i].rows.empty()) return false;
    f[i].count = SumColumn(rows[i], "kernels");
    f[i].total_ns = SumColumn(rows[i], "kernel_ns");
  }
  const std::string scope = c.scope;
  c.scope = "";  // each side names its device
  for (int32_t d : c.filter.devices) {
    if (std::find(c.p.devices.begin(), c.p.devices.end(), d) == c.p.devices.end()) c.scope = scope;
  }
  AnswerPair(c, f[0], f[1], m, "kernel time", "kernels");
  c.scope = scope;
  skills::Table both = rows[0];
  both.rows.insert(both.rows.end(), rows[1].rows.begin(), rows[1].rows.end());
  CiteRows(c, "device_imbalance", both, {"pid", "device_id", "kernels", "kernel_ns"}, "Kernels of the two devices");
  return true;
}

// The named kernel(s) on two devices ("Is flash_fwd_kernel slower on GPU 0 than on GPU 1?"): top_kernels on each
// device, compared by the measure asked; "slower" and "faster" compare the time per launch.
bool AnswerKernelOnDevices(Ctx& c, Measure m) {
  if (m == Measure::kNone && HasAny(c.p.lower, {"slower", "faster", "quicker"})) m = Measure::kAverage;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  Figures f[2];
  skills::Table rows[2];
  const auto saved = c.filter.devices;
  for (int i = 0; i < 2; ++i) {
    const int32_t d = c.p.devices[static_cast<size_t>(i)];
    c.filter.devices = {d};
    auto t = Usable(c, "top_kernels");
    c.filter.devices = saved;
    if (!t) return false;
    rows[i] = KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; });
    f[i].label = fmt::format("{} on device {}", KernelLabel(c), d);
    f[i].count = SumColumn(rows[i], "instances");
    f[i].total_ns = SumColumn(rows[i], "total_time_ns");
  }
  const std::string scope = c.scope;
  c.scope = "";  // each side names its device
  AnswerPair(c, f[0], f[1], m, "GPU time", "launches");
  c.scope = scope;
  const std::vector<std::string> cols = {"name", "instances", "total_time_ns", "avg_ns", "med_ns", "time_pct"};
  for (int i = 0; i < 2; ++i) {
    c.filter.devices = {c.p.devices[static_cast<size_t>(i)]};
    CiteRows(c, "top_kernels", rows[i], cols, f[i].label);
    c.filter.devices = saved;
  }
  return true;
}

// Kernels per (device, stream), from the kernel table; stream_concurrency's rows as evidence.
bool AnswerKernelsPerStream(Ctx& c) {
  auto t = Usable(c, "stream_concurrency");
  if (!t) return false;
  const engine::KernelTable& k = c.profile.kernels();
  std::map<std::pair<int32_t, int32_t>, std::pair<double, double>> by;
  for (size_t i : KernelRowsInFilter(c)) {
    auto& e = by[{k.device[i], k.stream[i]}];
    e.first += 1;
    e.second += static_cast<double>(k.end[i] - k.start[i]);
  }
  std::vector<std::pair<std::pair<int32_t, int32_t>, std::pair<double, double>>> list(by.begin(), by.end());
  // By kernel time, or by kernel count when the question counts ("which stream runs the most kernels?").
  const bool by_count = MeasureOf(c.p) == Measure::kCount ||
                        HasAny(c.p.lower, {"most kernels", "most launches", "fewest", "most often", "number of"});
  const bool least = HasWord(c.p.lower, "fewest") || HasWord(c.p.lower, "least") || HasWord(c.p.lower, "idlest");
  std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
    const double x = by_count ? a.second.first : a.second.second, y = by_count ? b.second.first : b.second.second;
    return least ? x < y : x > y;
  });
  double n = 0, ns = 0;
  std::string parts;
  for (size_t i = 0; i < list.size(); ++i) {
    n += list[i].second.first;
    ns += list[i].second.second;
    if (i < 12)
      parts += fmt::format("{}device {} stream {}: {} kernels, {}", i ? "; " : "", list[i].first.first,
                           list[i].first.second, FormatCount(list[i].second.first), FormatNs(list[i].second.second));
  }
  if (list.size() > 12) parts += fmt::format("; {} more streams", list.size() - 12);
  std::string lead;
  if (!list.empty() && HasAny(c.p.lower, {"which", "what stream"}))
    lead = fmt::format("Device {} stream {} ran the {} {}{}: {} kernels, {} ({} of the kernel time). ",
                       list[0].first.first, list[0].first.second, least ? (by_count ? "fewest" : "least") : "most",
                       by_count ? "kernels" : "kernel time", WhereOf(c), FormatCount(list[0].second.first),
                       FormatNs(list[0].second.second), FormatPct(ns > 0 ? 100.0 * list[0].second.second / ns : 0));
  const auto ranked = [&](size_t i) { return by_count ? list[i].second.first : list[i].second.second; };
  if (!lead.empty() && list.size() > 1 && ranked(1) == ranked(0))
    lead.insert(lead.size() - 2,
                fmt::format(" (tied with device {} stream {})", list[1].first.first, list[1].first.second));
  Say(c,
      fmt::format("{}Kernels per stream{}: {}. Total: {} kernels, {} of GPU time on {} streams.", lead, WhereOf(c),
                  parts, FormatCount(n), FormatNs(ns), list.size()),
      "exact counts and sums of the kernel table per (device, stream)");
  CiteRows(c, "stream_concurrency", *t, {"device_id", "streams_busy", "time_ns", "time_pct"},
           "Time with k streams busy, per device" + c.scope);
  return true;
}

// "On stream 16, how many kernels ran and how much GPU time did they take?": the kernels (the named ones, else all)
// on the streams asked, per (device, stream), with the kernel that holds the most time there.
bool AnswerKernelsOnStreams(Ctx& c) {
  const std::set<int32_t> streams(c.p.streams.begin(), c.p.streams.end());
  auto t = Usable(c, "stream_concurrency");
  if (!t) return false;
  const engine::KernelTable& k = c.profile.kernels();
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  struct On {
    double n = 0, ns = 0;
    std::map<engine::StrId, double> by_name;
  };
  std::map<std::pair<int32_t, int32_t>, On> by;
  for (size_t i : names.empty() ? KernelRowsInFilter(c) : KernelRowsOf(c, names)) {
    if (!streams.count(k.stream[i])) continue;
    On& e = by[{k.device[i], k.stream[i]}];
    const double d = static_cast<double>(k.end[i] - k.start[i]);
    e.n += 1, e.ns += d, e.by_name[k.name[i]] += d;
  }
  std::string s;
  for (const auto& [key, e] : by) {
    const auto top = std::max_element(e.by_name.begin(), e.by_name.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    s += fmt::format("{}Stream {} on device {} ran {} {}{}, {} of GPU time (most in {}: {})", s.empty() ? "" : "; ",
                     key.second, key.first, FormatCount(e.n),
                     c.kernels.empty() ? "kernels" : KernelLabel(c) + " instances", WhereOf(c), FormatNs(e.ns),
                     Ticked(std::string(c.profile.strings().view(top->first))), FormatNs(top->second));
  }
  if (s.empty()) {
    std::string said;
    for (int32_t id : streams) said += (said.empty() ? "" : ", ") + std::to_string(id);
    s = fmt::format("No {} ran on stream {}{}", c.kernels.empty() ? "kernel" : KernelLabel(c), said, WhereOf(c));
  }
  Say(c, s + ".", "exact counts and sums of the kernel table's rows on those streams");
  CiteRows(c, "stream_concurrency", *t, {"device_id", "streams_busy", "time_ns", "time_pct"},
           "Time with k streams busy, per device" + c.scope);
  return true;
}

// "What share of GPU time do the top 3 kernels take?": the first N rows of top_kernels against all kernel time.
bool AnswerTopShare(Ctx& c) {
  auto t = Usable(c, "top_kernels");
  if (!t || t->rows.empty()) return false;
  const size_t n = std::min(*c.p.top_n, t->rows.size());
  double ns = 0, all = 0;
  for (size_t r = 0; r < t->rows.size(); ++r) {
    all += CellNumber(*t, r, "total_time_ns");
    if (r < n) ns += CellNumber(*t, r, "total_time_ns");
  }
  Say(c,
      fmt::format("The top {} kernels by GPU time hold {} of kernel time{}: {} of {} ({} distinct kernels in all); "
                  "the first is {} with {}.",
                  n, FormatPct(all > 0 ? 100.0 * ns / all : 0), WhereOf(c), FormatNs(ns), FormatNs(all), t->rows.size(),
                  Ticked(CellText(*t, 0, "name")), FormatNs(CellNumber(*t, 0, "total_time_ns"))),
      "exact sums over top_kernels' rows (nsys stats gpukernsum)");
  const auto top = KeepRows(*t, [&](size_t r) { return r < n; });
  CiteRows(c, "top_kernels", top, {"name", "time_pct", "total_time_ns", "instances"},
           fmt::format("The top {} kernels", n) + c.scope);
  return true;
}

// "What percentage of GPU time is memcpy?": memory operations against kernels plus memory operations.
bool AnswerMemcpyShare(Ctx& c) {
  auto mem = Usable(c, "memory_transfers");
  if (!mem) return false;
  auto ker = RunSkill(c, "top_kernels", {});
  const double kernel_ns = ker && !ker->declined ? SumColumn(*ker, "total_time_ns") : 0;
  const double mem_ns = SumColumn(*mem, "total_time_ns");
  const double all_ns = kernel_ns + mem_ns;
  Say(c,
      fmt::format("Memory copies and memsets hold {} of GPU time{}: {} of {} (kernels {}, copies and memsets {}; "
                  "summed durations).",
                  FormatPct(all_ns > 0 ? 100.0 * mem_ns / all_ns : 0), WhereOf(c), FormatNs(mem_ns), FormatNs(all_ns),
                  FormatNs(kernel_ns), FormatNs(mem_ns)),
      "exact sums over the kernel and memcpy/memset tables");
  CiteRows(c, "memory_transfers", *mem, {"operation", "time_pct", "total_time_ns", "count", "total_bytes"},
           "Memory operations by kind" + c.scope);
  return true;
}

// Things an Nsight Systems export does not measure: asking for them is refused, never answered with something else.
bool AsksUnmeasured(const std::string& q) {
  // ("cost" alone is time in a profiler's words: "which cost more, MPI_Send or MPI_Recv?"; money is asked so.)
  static const char* kWords[] = {"color",     "colour",  "temperature", "power draw",    "watts",      "voltage",
                                 "fan speed", "price",   "dollars",     "cost in money", "cloud bill", "author",
                                 "who wrote", "weather", "license",     "energy"};
  return std::any_of(std::begin(kWords), std::end(kWords), [&](const char* w) { return HasWord(q, w); });
}

// The members of a grouping that did work of the subject's kind: devices of the profile, or the pids found in the
// subject's table (a capture may record hundreds of processes that did nothing).
template <typename Table>
std::vector<int64_t> MembersOf(const Ctx& c, Grouping g, const Table& t) {
  std::set<int64_t> out;
  if (g == Grouping::kDevice) {
    for (const auto& d : c.profile.info().devices) out.insert(d.id);
  } else {
    for (size_t i = 0; i < t.size(); ++i) out.insert(t.pid[i]);
  }
  return {out.begin(), out.end()};
}

// "How many cudaLaunchKernel calls per process?", "HtoD bytes per device", "flash_fwd_kernel time on each GPU":
// the subject's answer over the whole scope, then once per member with the filter narrowed to it. At most 16
// members are shown (a per-X table of hundreds helps nobody; the total says how many there were).
bool AnswerPerMember(Ctx& c, Measure m, Grouping g, bool (*subject)(Ctx&, Measure),
                     const std::vector<int64_t>& members) {
  if (!subject(c, m)) return false;
  const Answer total = c.turn.answer;
  std::string parts;
  size_t shown = 0;
  for (int64_t id : members) {
    if (shown == 16) break;
    Ctx sub = c;
    sub.turn = AskTurn{};
    if (g == Grouping::kDevice) {
      sub.filter.devices = {static_cast<int32_t>(id)};
    } else {
      sub.filter.processes = {static_cast<uint32_t>(id)};
    }
    sub.scope = c.scope + fmt::format(" {} {}", g == Grouping::kDevice ? "on device" : "in process", id);
    if (!subject(sub, m) || sub.turn.answer.refusal) continue;
    ++shown;
    parts += fmt::format("{}{}", parts.empty() ? "" : " ", sub.turn.answer.summary);
    for (auto& e : sub.turn.answer.evidence) c.turn.answer.evidence.push_back(std::move(e));
    for (auto& call : sub.turn.state.calls) c.turn.state.calls.push_back(std::move(call));
  }
  if (parts.empty()) return true;
  c.turn.answer.summary =
      fmt::format("Per {}: {} In all: {}", g == Grouping::kDevice ? "device" : "process", parts, total.summary);
  if (members.size() > shown) c.turn.answer.summary += fmt::format(" ({} of {} shown.)", shown, members.size());
  return true;
}

// "How many GPUs were used?", "How many processes did GPU work?": the (process, device) pairs with any kernel, copy
// or memset (time_budget's spans), not the devices and processes the export merely records.
bool AnswerActiveCounts(Ctx& c) {
  auto t = Usable(c, "time_budget");
  if (!t) return false;
  std::set<int64_t> pids, devices;
  for (size_t r = 0; r < t->rows.size(); ++r) {
    pids.insert(static_cast<int64_t>(CellNumber(*t, r, "pid")));
    devices.insert(static_cast<int64_t>(CellNumber(*t, r, "device_id")));
  }
  auto list = [](const std::set<int64_t>& v) {
    std::string out;
    for (int64_t x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
    return out;
  };
  const auto& info = c.profile.info();
  Say(c,
      fmt::format("{} GPU{} did work{} (device {}), in {} process{} (pid {}); the export records {} device{} and {} "
                  "process{}.",
                  devices.size(), devices.size() == 1 ? "" : "s", WhereOf(c), list(devices), pids.size(),
                  pids.size() == 1 ? "" : "es", list(pids), info.devices.size(), info.devices.size() == 1 ? "" : "s",
                  info.processes.size(), info.processes.size() == 1 ? "" : "es"),
      "a (process, device) pair did work when it ran a kernel, copy or memset (time_budget's spans)");
  const auto spans = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "slice") == CellText(*t, 0, "slice"); });
  CiteRows(c, "time_budget", spans, {"pid", "device_id", "span_ns"}, "(process, device) spans with GPU work");
  return true;
}

// "How long did the capture last?": the profile's time range (first to last event), and the summed GPU spans in it
// (time_budget's, cited) when GPU operations ran. A question that names a call, copy, kernel or range is not this.
bool AsksCaptureLength(const std::string& q) {
  const bool capture = HasAny(q, {"capture", "profile", "trace", "recording", "session"});
  const bool length = HasAny(q, {"how long", "duration", "length of", "how many seconds", "time span", "timespan"});
  const bool other = HasAny(q, {"kernel", "cuda", "copy", "copies", "memcpy", "memset", "nvtx", "range", "spend",
                                "spent", " in ", "sync", "launch", "api", "idle", "busy"});
  return capture && length && !other;
}

bool AnswerCaptureLength(Ctx& c) {
  const auto& info = c.profile.info();
  std::string s = fmt::format("The capture lasted {} (capture clock {} to {} ns, from its first to its last event).",
                              FormatNs(static_cast<double>(info.end_ns - info.start_ns)), info.start_ns, info.end_ns);
  auto t = c.profile.info().caps.kernels || c.profile.info().caps.memcpy || c.profile.info().caps.memset
               ? Usable(c, "time_budget")
               : std::nullopt;
  if (t && !t->rows.empty()) {
    const SpanSum spans = SummedSpans(*t);
    s += fmt::format(" Its {} (process, device) GPU span{} add{} up to {}.", spans.count, spans.count == 1 ? "" : "s",
                     spans.count == 1 ? "s" : "", FormatNs(spans.ns));
    const auto rows = KeepRows(*t, [&](size_t r) { return CellText(*t, r, "slice") == CellText(*t, 0, "slice"); });
    CiteRows(c, "time_budget", rows, {"pid", "device_id", "span_ns"}, "(process, device) GPU spans");
  }
  Say(c, std::move(s), "the profile's time range: the earliest start and latest end of its events");
  return true;
}

// "Which process launched the most kernels?", "Which GPU spent the most time in kernels?": the grouped kernel
// figures, ranked by the measure asked.
bool AnswerWhichMember(Ctx& c, Grouping g) {
  auto t = Usable(c, "device_imbalance");
  if (!t || t->rows.empty()) return false;
  const char* key = g == Grouping::kDevice ? "device_id" : "pid";
  std::map<int64_t, std::pair<double, double>> by;  // member -> (kernels, kernel_ns)
  for (size_t r = 0; r < t->rows.size(); ++r) {
    auto& e = by[static_cast<int64_t>(CellNumber(*t, r, key))];
    e.first += CellNumber(*t, r, "kernels");
    e.second += CellNumber(*t, r, "kernel_ns");
  }
  const bool counts = ComparesCounts(c.p.lower) ||
                      HasAny(c.p.lower, {"launched the", "launched more", "launched fewer", "ran the most",
                                         "most kernels", "more kernels", "fewest kernels", "fewer kernels"});
  const bool fewest = HasAny(c.p.lower, {"least", "fewest", "smallest", "lowest"});
  std::vector<std::pair<int64_t, std::pair<double, double>>> list(by.begin(), by.end());
  std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
    const double x = counts ? a.second.first : a.second.second, y = counts ? b.second.first : b.second.second;
    return fewest ? x < y : x > y;
  });
  const char* noun = g == Grouping::kDevice ? "device" : "process";
  std::string s =
      fmt::format("{} {} {} the {} {}{}: {} kernels, {} of GPU time.",
                  noun == std::string("device") ? "Device" : "Process", list[0].first, counts ? "ran" : "spent",
                  fewest ? (counts ? "fewest" : "least") : "most", counts ? "kernels" : "time in kernels", WhereOf(c),
                  FormatCount(list[0].second.first), FormatNs(list[0].second.second));
  const auto value = [&](size_t i) { return counts ? list[i].second.first : list[i].second.second; };
  if (list.size() > 1 && value(0) == value(1)) {
    s += fmt::format(" It ties with {} {}.", noun, list[1].first);
  } else if (list.size() > 1 && value(1) > 0) {
    // "and by how much?": the margin over the next one, in the measure ranked.
    const double margin = std::abs(value(0) - value(1));
    s += fmt::format(" That is {} {} than {} {} ({}).", counts ? FormatCount(margin) : FormatNs(margin),
                     counts ? (fewest ? "fewer kernels" : "more kernels") : (fewest ? "less" : "more"), noun,
                     list[1].first, FormatPct(100.0 * margin / value(1)));
  }
  for (size_t i = 1; i < list.size() && i < 8; ++i) {
    s += fmt::format("{}{} {}: {} kernels, {}", i == 1 ? " Then " : "; ", noun, list[i].first,
                     FormatCount(list[i].second.first), FormatNs(list[i].second.second));
  }
  if (list.size() > 1) s += ".";
  Say(c, std::move(s), "exact sums of the kernel table per process and device");
  CiteRows(c, "device_imbalance", *t, {"pid", "device_id", "kernels", "kernel_ns"},
           std::string("Kernels per ") + noun + c.scope);
  return true;
}

// "Which process spent longer in ncclDevKernel_SendRecv?", "Which rank burned the most time in cudaFree?", "Which
// GPU ran flash_fwd_kernel the most?": a "which" grouping of a named subject (kGrouping for the words).
// Also "which of the two GPUs", and "which one" / "which of them" after the members were named ("There are two
// processes here. Which one kept its GPU busier?"): processes first, as a process is what a rank or a job's member is.
Grouping WhichGroupingOf(const std::string& q) {
  if (HasAny(q, {"which process", "what process", "which pid", "which rank", "what rank", "which mpi rank"}))
    return Grouping::kProcess;
  if (HasAny(q, {"which gpu", "which device", "what gpu", "what device"})) return Grouping::kDevice;
  if (!HasAny(q, {"which one", "which of"})) return Grouping::kNone;
  for (std::string_view w : {"processes", "ranks", "pids"}) {
    if (HasWord(q, w)) return Grouping::kProcess;
  }
  for (std::string_view w : {"gpus", "devices"}) {
    if (HasWord(q, w)) return Grouping::kDevice;
  }
  return Grouping::kNone;
}

// The named kernels (c.kernels) or the first named CUDA API call, per member of the grouping: each member's count and
// time from the kernel or runtime table in its narrowed filter, the member with the most (or the least) leading,
// then the subject's own answer per member (AnswerPerMember, whose evidence it cites).
bool AnswerWhichMemberOf(Ctx& c, Grouping g, Measure m) {
  std::string api;
  if (c.kernels.empty()) {
    const auto named = ApisNamed(c, nullptr);
    if (named.empty() || g == Grouping::kDevice) return false;  // host calls have no device
    api = named.front().second;
  }
  const auto members = api.empty() ? MembersOf(c, g, c.profile.kernels()) : MembersOf(c, g, c.profile.runtime());
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  std::vector<std::tuple<int64_t, double, double>> list;  // (member, count, ns)
  for (int64_t id : members) {
    Ctx sub = c;
    if (g == Grouping::kDevice) sub.filter.devices = {static_cast<int32_t>(id)};
    if (g == Grouping::kProcess) sub.filter.processes = {static_cast<uint32_t>(id)};
    double n = 0, ns = 0;
    if (api.empty()) {
      const engine::KernelTable& k = c.profile.kernels();
      for (size_t i : KernelRowsOf(sub, names)) ++n, ns += static_cast<double>(k.end[i] - k.start[i]);
    } else {
      for (double d : ApiDurations(sub, api)) ++n, ns += d;
    }
    if (n > 0) list.emplace_back(id, n, ns);
  }
  if (list.empty()) return false;
  const bool counts = m == Measure::kCount || ComparesCounts(c.p.lower) ||
                      HasAny(c.p.lower, {"the most times", "most often", "most calls", "most launches"});
  const bool fewest = HasAny(c.p.lower, {"least", "fewest", "smallest", "lowest", "shortest"});
  std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
    const double x = counts ? std::get<1>(a) : std::get<2>(a), y = counts ? std::get<1>(b) : std::get<2>(b);
    return fewest ? x < y : x > y;
  });
  const std::string label = api.empty() ? KernelLabel(c) : api;
  const char* noun = g == Grouping::kDevice ? "device" : "process";
  const char* unit = api.empty() ? "instances" : "calls";
  const std::string verb =
      counts ? fmt::format("{} {} the {} times", api.empty() ? "ran" : "called", label, fewest ? "fewest" : "most")
             : fmt::format("spent the {} time in {}", fewest ? "least" : "most", label);
  std::string lead =
      fmt::format("{} {} {}{}: {} {}, {}.", g == Grouping::kDevice ? "Device" : "Process", std::get<0>(list[0]), verb,
                  WhereOf(c), FormatCount(std::get<1>(list[0])), unit, FormatNs(std::get<2>(list[0])));
  for (size_t i = 1; i < list.size() && i < 8; ++i) {
    lead += fmt::format("{}{} {}: {} {}, {}", i == 1 ? " Then " : "; ", noun, std::get<0>(list[i]),
                        FormatCount(std::get<1>(list[i])), unit, FormatNs(std::get<2>(list[i])));
  }
  if (list.size() > 1) lead += ".";
  const Measure shown = m == Measure::kNone ? (counts ? Measure::kCount : Measure::kTime) : m;
  if (!AnswerPerMember(c, shown, g, api.empty() ? AnswerNamedKernel : AnswerApis, members)) return false;
  c.turn.answer.summary = lead + " " + c.turn.answer.summary;
  return true;
}

// A bound on the kernels the question means: the named ones, the NCCL ones ("Do any NCCL kernels run longer than
// 5 ms?", by name as nccl_breakdown recognises them), else all.
bool AnswerKernelsOrNcclBound(Ctx& c) {
  if (c.kernels.empty()) {
    auto all = RunSkill(c, "top_kernels", {}, false);
    if (all && !all->declined && c.p.topic == "nccl") {
      // "Do any NCCL kernels run longer than 5 ms?": the communication kernels, by name as nccl_breakdown has them.
      for (size_t r = 0; r < all->rows.size(); ++r) {
        if (Lower(CellText(*all, r, "name")).find("nccl") != std::string::npos)
          c.kernels.push_back(CellText(*all, r, "name"));
      }
      c.kernel_query = "nccl";
      if (c.kernels.empty()) return false;
    } else if (all && !all->declined) {
      KernelByShortWord(c, *all);
    }
  }
  return AnswerKernelsBound(c);
}

// "more than half", "under 10%", "over a third": the fraction a share is compared with, in percent.
std::optional<double> FractionSaid(const std::string& q) {
  static const std::pair<std::string_view, double> kWords[] = {{"three quarters", 75},
                                                               {"two thirds", 100.0 * 2 / 3},
                                                               {"half", 50},
                                                               {"a third", 100.0 / 3},
                                                               {"one third", 100.0 / 3},
                                                               {"a quarter", 25},
                                                               {"one quarter", 25},
                                                               {"a tenth", 10}};
  for (const auto& [w, pct] : kWords) {
    if (HasAny(q, {w})) return pct;
  }
  const size_t at = q.find('%');
  if (at == std::string::npos) return std::nullopt;
  size_t b = at;
  while (b > 0 && (std::isdigit(static_cast<unsigned char>(q[b - 1])) || q[b - 1] == '.')) --b;
  if (b == at) return std::nullopt;
  return std::atof(q.substr(b, at - b).c_str());
}

// "Is cufcm_pair_correction more than half of all the kernel time?": the named kernels' share of kernel time
// against the fraction said, with Yes or No; false when no fraction is said (two subjects are compared elsewhere).
bool AnswerShareAgainst(Ctx& c) {
  const auto fraction = FractionSaid(c.p.lower);
  if (!fraction) return false;
  if (!AnswerNamedKernel(c, Measure::kShare)) return false;
  auto t = Usable(c, "top_kernels");
  if (!t) return false;
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const double mine =
      SumColumn(KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; }), "total_time_ns");
  const double all = SumColumn(*t, "total_time_ns");
  const double pct = all > 0 ? 100.0 * mine / all : 0;
  const bool yes = DirectionOf(c.p.lower) < 0 ? pct < *fraction : pct > *fraction;
  const std::string side = pct == *fraction ? "exactly" : (pct > *fraction ? "over" : "under");
  c.turn.answer.summary =
      fmt::format("{}, {} is {} {}: ", yes ? "Yes" : "No", FormatPct(pct), side, FormatPct(*fraction)) +
      c.turn.answer.summary;
  return true;
}

// A launch configuration belongs to a kernel: without one named, answering the kernel count would answer another
// question.
bool RefuseConfigWithoutKernel(Ctx& c) {
  Refusal r;
  r.alternatives = {"Which kernels take the most GPU time?", "How many thread blocks did KERNEL launch with?"};
  r.reason = "I can't answer that from this profile; the closest questions I can answer are: " + r.alternatives[0] +
             " " + r.alternatives[1] + " (the question names no kernel of this profile).";
  r.missing = {"the name of a kernel this profile ran"};
  c.turn.answer = Refuse(std::move(r));
  return true;
}

// "Does the add kernel run with more than one thread block?": the named kernels' launch configurations, with Yes or
// No for the largest grid against the count said (a number or one to ten in words).
bool AnswerGridAgainst(Ctx& c) {
  std::optional<int64_t> said;
  const size_t than = c.p.lower.find("than ");
  if (than != std::string::npos) {
    const std::string rest = c.p.lower.substr(than + 5);
    if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0])))
      said = std::strtoll(rest.c_str(), nullptr, 10);
    if (const auto n = NumberWordAt(rest)) said = n;
  }
  if (!said || !AnswerNamedKernel(c, Measure::kGrid)) return false;
  int64_t most = 0;
  const engine::KernelTable& k = c.profile.kernels();
  for (size_t i : KernelRowsOf(c, std::set<std::string>(c.kernels.begin(), c.kernels.end()))) {
    const auto& g = k.Config(i);
    most = std::max<int64_t>(most, int64_t{g.grid_x} * g.grid_y * g.grid_z);
  }
  const bool less = DirectionOf(c.p.lower) < 0;
  const bool yes = less ? most < *said : most > *said;
  c.turn.answer.summary = fmt::format("{}: its largest grid is {} block{}. ", yes ? "Yes" : "No",
                                      FormatCount(static_cast<double>(most)), most == 1 ? "" : "s") +
                          c.turn.answer.summary;
  return true;
}

// "Does add_arrays_ launch at least one thread block per SM?", "how many blocks vs how many SMs?": each launch
// configuration's grid against its GPU's SM count (launch_sizes), of the named kernels or of all.
bool AnswerBlocksPerSm(Ctx& c) {
  auto t = Usable(c, "launch_sizes");
  if (!t) return false;
  NameKernelByShortWord(c);
  const std::set<std::string> names(c.kernels.begin(), c.kernels.end());
  const auto rows =
      names.empty() ? *t : KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; });
  if (rows.rows.empty()) return false;
  if (SumColumn(rows, "sm_count") <= 0) {
    Say(c,
        fmt::format("This export does not record its GPUs' SM counts (TARGET_INFO_GPU), so blocks per SM cannot be "
                    "told{}; {} launches {} blocks of {} threads.",
                    WhereOf(c), Ticked(CellText(rows, 0, "short_name")), FormatCount(CellNumber(rows, 0, "blocks")),
                    FormatCount(CellNumber(rows, 0, "threads_per_block"))),
        "launch_sizes has the grids but no SM count for these GPUs");
    CiteRows(c, "launch_sizes", KeepRows(rows, [](size_t r) { return r < 10; }),
             {"short_name", "device_id", "blocks", "threads_per_block", "sm_count", "calls"}, "Launch configurations");
    return true;
  }
  double below_calls = 0, calls = 0;
  std::string list;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    const double blocks = CellNumber(rows, r, "blocks"), sms = CellNumber(rows, r, "sm_count");
    const double n = CellNumber(rows, r, "calls");
    calls += n;
    if (blocks < sms) below_calls += n;
    if (r < 3)
      list += fmt::format(
          "{}{} launches {} blocks of {} threads on device {} with {} SMs ({:.2f} blocks per SM, {} "
          "calls)",
          r ? "; " : "", Ticked(CellText(rows, r, "short_name")), FormatCount(blocks),
          FormatCount(CellNumber(rows, r, "threads_per_block")), CellText(rows, r, "device_id"), FormatCount(sms),
          sms > 0 ? blocks / sms : 0.0, FormatCount(n));
  }
  const std::string yes = AsksYesNo(c.p.lower) ? Yes(below_calls == 0) + " " : "";
  std::string s = fmt::format("{}{}{}.", yes, list,
                              rows.rows.size() > 3 ? fmt::format("; {} configurations in all", rows.rows.size()) : "");
  s += below_calls > 0 ? fmt::format(
                             " {} of {} calls launch fewer blocks than the GPU has SMs, so some SMs sit idle "
                             "during them.",
                             FormatCount(below_calls), FormatCount(calls))
                       : " Every call launches at least one block per SM.";
  Say(c, std::move(s), "each launch configuration's grid (blocks) against the SM count of its GPU");
  CiteRows(c, "launch_sizes", KeepRows(rows, [](size_t r) { return r < 10; }),
           {"short_name", "device_id", "blocks", "threads_per_block", "sm_count", "calls"},
           "Launch configurations and SM counts" + c.scope);
  return true;
}

// The first readings after the kernels are resolved: the span from the first to the last kernel, the kernels on
// the streams asked, and "which process/GPU" of a named kernel (or of all kernels, when the question named
// something that is no kernel).
bool AnswerStreamsOrMembers(Ctx& c, Measure m) {
  if (c.kernels.empty() && c.nvtx_range.empty() && AsksFirstToLast(c.p)) return AnswerKernelSpan(c);
  if (!c.p.streams.empty() && c.nvtx_range.empty() &&
      (c.p.topic.empty() || c.p.topic == "streams" || c.p.topic == "kernels"))
    return AnswerKernelsOnStreams(c);
  const Grouping which = WhichGroupingOf(c.p.lower);
  if (which == Grouping::kNone || c.p.type == QType::kMoreThan || c.p.type == QType::kCompare || !c.nvtx_range.empty())
    return false;
  if (!c.kernels.empty()) return AnswerWhichMemberOf(c, which, m);
  return (!c.p.idents.empty() || !c.p.quoted.empty()) && (which != Grouping::kDevice || c.p.topic != "streams") &&
         AnswerWhichMember(c, which);
}

}  // namespace

bool AnswerComposedBeforeKernels(Ctx& c) {
  if (AsksUnmeasured(c.p.lower) && c.p.skill.empty()) {
    Refusal r;
    r.alternatives = Alternatives(c);
    std::string closest;
    for (const auto& a : r.alternatives) closest += (closest.empty() ? "" : " ") + a;
    r.reason = "I can't answer that from this profile; the closest questions I can answer are: " + closest +
               " (an Nsight Systems export records GPU and CPU activity, not that).";
    r.missing = {"a measurement of what the question asks"};
    c.turn.answer = Refuse(std::move(r));
    return true;
  }
  if (c.p.type == QType::kWhy || !c.p.skill.empty() || c.p.follow_up) return false;
  const Measure m = MeasureOf(c.p);
  if (AsksCaptureLength(c.p.lower) && !c.p.window) return AnswerCaptureLength(c);
  if (HasAny(c.p.lower, {"how many gpus", "how many devices", "number of gpus", "number of devices",
                         "how many processes", "number of processes", "how many ranks", "how many gpu"}) &&
      !HasAny(c.p.lower, {"gpu time", "gpu work time"}) && AnswerActiveCounts(c))
    return true;
  if (c.profile.info().caps.kernels && c.profile.info().caps.runtime && AsksLaunchLatency(c.p.lower)) {
    NameKernelByShortWord(c);
    if (AnswerLaunchLatency(c)) return true;
  }
  // A named CUDA API call per process ("Which rank burned the most time in cudaFree?"); a named kernel waits for the
  // kernels to be resolved (AnswerComposedAfterKernels).
  const Grouping which = WhichGroupingOf(c.p.lower);
  if (which == Grouping::kProcess && c.p.type != QType::kMoreThan && c.p.type != QType::kCompare &&
      AnswerWhichMemberOf(c, which, m))
    return true;
  const bool names_something = !c.p.idents.empty() || !c.p.quoted.empty();
  if (c.profile.info().caps.kernels && c.p.type != QType::kMoreThan && c.p.type != QType::kCompare &&
      !names_something) {
    if (which == Grouping::kProcess && AnswerWhichMember(c, Grouping::kProcess)) return true;
    if (which == Grouping::kDevice && c.p.topic != "streams" && AnswerWhichMember(c, Grouping::kDevice)) return true;
  }
  if (const Grouping g = GroupingOf(c.p.lower); g != Grouping::kNone) {
    if (g == Grouping::kProcess && AnswerPerMember(c, m, g, AnswerApis, MembersOf(c, g, c.profile.runtime())))
      return true;
    if (AnswerPerMember(c, m, g, AnswerDirections, MembersOf(c, g, c.profile.memcpys()))) return true;
  }
  if (c.p.bound && (c.p.topic == "nvtx" || !c.nvtx_range.empty()) && c.profile.info().caps.nvtx && AnswerNvtxBound(c))
    return true;
  if ((m == Measure::kPercentile || m == Measure::kMedian) && !c.nvtx_range.empty() && c.profile.info().caps.nvtx &&
      AnswerNvtxPercentile(c, m))
    return true;
  if ((c.p.type == QType::kMoreThan || c.p.type == QType::kCompare) && c.profile.info().caps.nvtx &&
      (!c.nvtx_range.empty() || c.p.topic == "nvtx") && AnswerNvtxPair(c, m))
    return true;
  // "How long was the GPU idle (no kernel, memcpy or memset running)?" lists copies to say what idle means.
  if (c.p.topic != "idle" && (AnswerApis(c, m) || AnswerDirections(c, m))) return true;
  if (c.p.topic == "memcpy" && m == Measure::kShare && c.profile.info().caps.memcpy) return AnswerMemcpyShare(c);
  return false;
}

bool AnswerComposedAfterKernels(Ctx& c) {
  if (c.p.type == QType::kWhy || !c.p.skill.empty() || c.p.follow_up || !c.profile.info().caps.kernels) return false;
  const Measure m = MeasureOf(c.p);
  if ((m == Measure::kGrid || HasWord(c.p.lower, "blocks") || HasWord(c.p.lower, "block")) &&
      HasAny(c.p.lower, {" sm ", " sms", "per sm", "multiprocessor", "sm count"}))
    return AnswerBlocksPerSm(c);
  if (c.p.topic == "streams" && c.kernels.empty() &&
      (HasAny(c.p.lower, {"per stream", "each stream", "by stream", "which stream", "what stream", "busiest stream",
                          "which cuda stream", "what cuda stream"}) ||
       (c.p.type == QType::kWhich && HasWord(c.p.lower, "which") && HasAny(c.p.lower, {"kernel", "busiest"}))))
    return AnswerKernelsPerStream(c);
  if (AnswerStreamsOrMembers(c, m)) return true;
  if (c.p.topic == "streams" && m == Measure::kCount && c.kernels.empty()) return AnswerStreamCount(c);
  if (c.p.devices.size() >= 2 && (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare) && !c.kernels.empty() &&
      c.nvtx_range.empty() && (c.p.topic.empty() || c.p.topic == "kernels" || c.p.topic == "nccl"))
    return AnswerKernelOnDevices(c, m);
  if (c.p.devices.size() >= 2 && (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare) &&
      (c.p.topic.empty() || c.p.topic == "kernels") && ComparesCounts(c.p.lower))
    return AnswerDevicePair(c, Measure::kCount);
  // "What fraction of the time is the GPU idle?", "How long was the GPU idle?": the idle slices of the spans (a
  // question about gaps gets the gaps).
  if (c.p.topic == "idle" &&
      (m == Measure::kShare || HasAny(c.p.lower, {"what fraction", "how much of the"}) ||
       (c.p.type == QType::kHowMuch && !HasAny(c.p.lower, {"gap", "bubble", "longest", "largest", "biggest"}))))
    return AnswerIdleShare(c);
  // "What is the GPU utilization?", "How busy was the GPU?": the busy share of the spans, not a list of idle gaps.
  if (c.kernels.empty() && c.nvtx_range.empty() && HasAny(c.p.lower, {"utiliz", "utilis", "how busy"}))
    return AnswerIdleShare(c);
  if (c.p.topic == "nvtx" && c.profile.info().caps.nvtx && HasAny(c.p.lower, {"kernel"}) &&
      HasAny(c.p.lower, {"which range", "which nvtx", "what range", "what nvtx", "ranges launch", "range launch",
                         "enclos", "contain", "inside which", "in which"})) {
    auto all = RunSkill(c, "top_kernels", {}, false);
    if (all && !all->declined) KernelsForRanges(c, *all);
    if (!c.kernels.empty()) return AnswerRangesOfKernels(c);
  }
  if (c.p.bound && c.nvtx_range.empty() && (c.p.topic.empty() || c.p.topic == "kernels" || c.p.topic == "nccl"))
    return AnswerKernelsOrNcclBound(c);
  const bool about_kernels = c.p.topic.empty() || c.p.topic == "kernels" || c.p.topic == "launch" ||
                             (c.p.topic == "nccl" && !c.kernels.empty());
  if (about_kernels && c.p.type == QType::kMoreThan && c.kernels.empty() && m == Measure::kGrid) {
    auto all = RunSkill(c, "top_kernels", {}, false);  // "the add kernel": a short name said as a word
    if (all && !all->declined) KernelByShortWord(c, *all);
  }
  if (about_kernels && c.p.type == QType::kMoreThan && !c.kernels.empty() && c.nvtx_range.empty())
    return m == Measure::kGrid ? AnswerGridAgainst(c) : AnswerShareAgainst(c);
  if (!about_kernels || c.p.type == QType::kMoreThan || c.p.type == QType::kCompare) return false;
  if (c.kernels.empty() && (m == Measure::kGrid || m == Measure::kBlock || m != Measure::kNone)) {
    auto all = RunSkill(c, "top_kernels", {}, false);
    if (all && !all->declined) KernelByShortWord(c, *all);
    // "What grid did the kernel launch with?" where the profile ran one kernel: that one.
    if (all && !all->declined && c.kernels.empty() && all->rows.size() == 1 &&
        (m == Measure::kGrid || m == Measure::kBlock))
      c.kernels = {CellText(*all, 0, "name")};
  }
  if (m == Measure::kShare && c.p.top_n && *c.p.top_n > 0 && c.kernels.empty() && c.nvtx_range.empty() &&
      AnswerTopShare(c))
    return true;
  // "the p99 kernel duration", "the median kernel time": over all instances, when no kernel is named.
  if ((m == Measure::kPercentile || m == Measure::kMedian) && c.kernels.empty() && c.nvtx_range.empty() &&
      AnswerKernelDurations(c, m))
    return true;
  if ((m == Measure::kGrid || m == Measure::kBlock) && c.kernels.empty()) return RefuseConfigWithoutKernel(c);
  if (const Grouping g = GroupingOf(c.p.lower); g != Grouping::kNone && !c.kernels.empty() && c.nvtx_range.empty())
    return AnswerPerMember(c, m, g, AnswerNamedKernel, MembersOf(c, g, c.profile.kernels()));
  if (!c.kernels.empty() && c.nvtx_range.empty() &&
      (m == Measure::kGrid || m == Measure::kBlock || m == Measure::kAverage || m == Measure::kMedian ||
       m == Measure::kPercentile || m == Measure::kShare))
    return AnswerNamedKernel(c, m);
  if (c.kernels.empty() && c.nvtx_range.empty()) {
    if (const Grouping g = GroupingOf(c.p.lower); g != Grouping::kNone) return AnswerKernelsGrouped(c, g);
    // "What is the total kernel time?", "Count the kernels": totals, not the top kernel.
    // ("Top 3 kernels by total GPU time" is a list.)
    if ((c.p.type == QType::kWhich || c.p.type == QType::kDescribe) && !c.p.top_n &&
        HasAny(c.p.lower, {"total", "sum of", "count the", "all kernel"}))
      c.p.type = m == Measure::kCount ? QType::kHowMany : QType::kHowMuch;
  }
  return false;
}

}  // namespace nsys::agent::ask_detail
