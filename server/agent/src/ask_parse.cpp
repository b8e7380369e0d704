// Reading a question: its type, its topic and what it names. Plain keyword and pattern rules, so the same question
// always maps to the same skills.
//
// The question is a client's text (nsys/ask, MCP ask, the CLI): every pattern runs through RE2, which matches in time
// linear in the text without recursion (std::regex recursed per character and overflowed the stack on a 100 KB
// question). The patterns are the ones std::regex ran, in its semantics: Latin-1 mode so text and patterns are bytes
// as they were ("“" in a class is its three bytes, and no invalid UTF-8 can fail a match), `\s` spelled out with \v,
// `.` excluding \r as ECMAScript's does, leftmost-first alternation. Numbers too big for their type are no number
// (std::stoul threw, which ended the request as an internal error).
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ask_internal.h"
#include "text_case.h"

namespace nsys::agent::ask_detail {

namespace {

std::string Trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// ECMAScript's \s and `.` over bytes (RE2's \s lacks \v; its `.` takes \r).
const std::string kAskSpace = R"([\t\n\x0B\f\r ])";
const std::string kAskAny = R"([^\n\r])";

// A pattern over bytes (see the file comment). The patterns are constants, so a failure to compile is a bug that
// the parser tests catch (a pattern RE2 refuses never matches).
class AskPattern {
 public:
  explicit AskPattern(const std::string& pattern) : re_(pattern, Options()) {}
  const RE2& re() const { return re_; }

 private:
  static RE2::Options Options() {
    RE2::Options o;
    o.set_encoding(RE2::Options::EncodingLatin1);
    o.set_log_errors(false);
    return o;
  }
  RE2 re_;
};

// The first match in `text` with its groups (an unmatched group has a null data()), as std::regex_search gave.
template <size_t Groups>
bool SearchIn(const AskPattern& p, std::string_view text, std::array<re2::StringPiece, Groups + 1>& m) {
  return p.re().Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, m.data(),
                      static_cast<int>(m.size()));
}

// Every match in turn, each search starting where the last match ended with the text before it as context (so `\b`
// sees it), as std::sregex_iterator walked them. None of the patterns matches the empty string.
template <size_t Groups, typename OnMatch>
void ForEachMatchIn(const AskPattern& p, std::string_view text, OnMatch on_match) {
  std::array<re2::StringPiece, Groups + 1> m;
  const re2::StringPiece all(text.data(), text.size());
  size_t pos = 0;
  while (pos <= text.size() &&
         p.re().Match(all, pos, text.size(), RE2::UNANCHORED, m.data(), static_cast<int>(m.size()))) {
    on_match(m);
    const auto end = static_cast<size_t>(m[0].data() - text.data()) + m[0].size();
    pos = end > pos ? end : pos + 1;
  }
}

std::string Str(const re2::StringPiece& s) {
  return s.data() == nullptr ? std::string() : std::string(s.data(), s.size());
}

// A run of digits as T; nullopt when it does not fit.
template <typename T>
std::optional<T> WholeNumber(const re2::StringPiece& digits) {
  T v{};
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return v;
}

// "12" or "0.25" as a double; nullopt when it over- or underflows (std::stod threw there).
std::optional<double> DecimalNumber(const re2::StringPiece& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

QType TypeOf(const std::string& q) {
  if (HasWord(q, "why") || HasAny(q, {"what causes", "root cause", "what is causing", "reason for"}))
    return QType::kWhy;
  static const AskPattern more(
      R"(\b(is|are|was|does|do|did)\b)" + kAskAny +
      R"(*\b(more|less|fewer|bigger|larger|greater|smaller|slower|faster|longer|shorter|higher|lower)\b)" + kAskAny +
      R"(*\bthan\b)");
  if (std::array<re2::StringPiece, 1> m; SearchIn<0>(more, q, m)) return QType::kMoreThan;
  // "differ" as a word: "how many different kernels" compares nothing.
  if (HasAny(q, {"compare", " vs ", " vs. ", "versus", "difference between"}) || HasWord(q, "differ") ||
      HasWord(q, "differs") || HasWord(q, "differences"))
    return QType::kCompare;
  // "Which is larger, A or B?", "which took longer: A or B": a comparison, not a ranking.
  static const AskPattern which_of(
      R"(\bwhich\b)" + kAskAny +
      R"(*\b(more|less|fewer|bigger|larger|greater|smaller|slower|faster|longer|shorter|higher|lower)\b)" + kAskAny +
      R"(*\bor\b)");
  if (std::array<re2::StringPiece, 2> m; SearchIn<1>(which_of, q, m)) return QType::kCompare;
  if (HasAny(q, {"share", "percent", "%", "fraction", "proportion"})) return QType::kShare;
  if (HasAny(q, {"how many", "number of", "count of", "how often"})) return QType::kHowMany;
  if (HasAny(q, {"how much", "how long", "total time", "time spent", "how big"})) return QType::kHowMuch;
  if (HasAny(q, {"which", "top", "most", "slowest", "biggest", "largest", "longest", "heaviest", "dominat",
                 "what is the", "what are the", "list"}))
    return QType::kWhich;
  return QType::kDescribe;
}

}  // namespace

// The topic words, most specific first: "launch overhead" is about launches, not kernels; "NCCL kernels" about NCCL.
std::string TopicOf(const std::string& q) {
  struct Rule {
    std::string_view topic;
    std::initializer_list<std::string_view> phrases;
  };
  static const Rule rules[] = {
      {"help", {"what can you", "what questions", "help me", "what can i ask"}},
      {"nccl",
       {"nccl", "communication", "collective", "allreduce", "all-reduce", "all reduce", "sendrecv", "allgather",
        "reducescatter"}},
      {"launch", {"launch overhead", "launch latency", "launch time", "queue time", "queued", "launch cost"}},
      // "How long was the GPU idle (no kernel, memcpy or memset running)?": idle names what is asked, whatever
      // else the question lists.
      {"idle", {"idle", "dead time", "nothing running"}},
      {"sync",
       {"synchroniz", "sync ", "sync?", "syncs", "blocking call", "blocks the host", "cudastreamsync",
        "cudadevicesync"}},
      {"memcpy",
       {"memcpy", "memset", "copy", "copies", "transfer", "bytes", "htod", "dtoh", "host-to-device", "device-to-host",
        "host to device", "device to host", "bandwidth"}},
      {"streams", {"stream", "concurren"}},
      {"idle", {"gap", "starv", "bubble", "utiliz", "busy", "underused"}},
      {"iterations", {"iteration", "training step", "steps", "per step"}},
      {"nvtx", {"nvtx", "range", "annotation", "region", "marker"}},
      {"api", {"api call", "cuda api", "runtime api", "api time", "cpu time", "host time"}},
      {"kernels", {"kernel", "gemm", "gpu time", "compute", "spent on the gpu", "gpu work"}},
  };
  for (const auto& r : rules) {
    for (auto p : r.phrases) {
      if (q.find(p) != std::string::npos) return std::string(r.topic);
    }
  }
  return "";
}

namespace {

double ToSeconds(double v, const std::string& unit) {
  if (unit.rfind("ms", 0) == 0 || unit.rfind("milli", 0) == 0) return v / 1e3;
  if (unit == "us" || unit == "µs" || unit.rfind("micro", 0) == 0) return v / 1e6;
  if (unit == "ns" || unit.rfind("nano", 0) == 0) return v / 1e9;
  return v;  // s, sec, seconds, or none said
}

// "between A and B s", "from A to B ms", "in the first N ms", "the last N s", "after A s", "before B s".
// A number too big (or too small) for a double gives no window.
std::optional<AskWindow> WindowOf(const std::string& q, const engine::ProfileInfo& info) {
  static const std::string& space = kAskSpace;
  static const std::string num = R"((?:t=)?([0-9]+(?:\.[0-9]+)?))";  // "between t=1.6 s and t=1.8 s"
  static const std::string unit = space + R"(*(ms|us|µs|ns|s|sec|secs|seconds?|milliseconds?|microseconds?)?\b)";
  static const AskPattern between("(?:between|from)" + space + "+" + num + unit + space + "+(?:and|to)" + space + "+" +
                                  num + unit);
  static const AskPattern first("first" + space + "+" + num + unit);
  // "within the next 10 ms" (after an anchor the question names, e.g. the first kernel): from 0 on that anchor.
  static const AskPattern next("next" + space + "+" + num + unit);
  static const AskPattern last("last" + space + "+" + num + unit);
  static const AskPattern after("(?:after|since)" + space + "+" + num + unit);
  static const AskPattern before("(?:before|until)" + space + "+" + num + unit);
  // "more than 1 s after the first kernel", "2 s into the run": the window from that offset on.
  static const AskPattern offset("(?:more than|over|at least|later than)?" + space + "*" + num + unit + space +
                                 "+(?:after|into)");
  // "in the first second", "within the first minute": a unit without a number is one of it.
  static const AskPattern first_unit("first" + space + "+(second|minute)\\b");
  const double span_s = static_cast<double>(info.end_ns - info.start_ns) / 1e9;
  if (std::array<re2::StringPiece, 5> m; SearchIn<4>(between, q, m)) {
    // "between 200 and 400 ms": the unit said once, at the end, applies to both.
    const std::string u2 = Str(m[4]);
    const std::string u1 = m[2].data() != nullptr ? Str(m[2]) : u2;
    const auto a = DecimalNumber(m[1]), b = DecimalNumber(m[3]);
    if (!a || !b) return std::nullopt;
    return AskWindow{ToSeconds(*a, u1), ToSeconds(*b, u2), Str(m[0])};
  }
  std::array<re2::StringPiece, 3> m;
  std::optional<double> v;
  if (SearchIn<2>(first, q, m)) {
    if (!(v = DecimalNumber(m[1]))) return std::nullopt;
    return AskWindow{0, ToSeconds(*v, Str(m[2])), Str(m[0])};
  }
  if (SearchIn<2>(next, q, m) && m[2].data() != nullptr) {
    if (!(v = DecimalNumber(m[1]))) return std::nullopt;
    return AskWindow{0, ToSeconds(*v, Str(m[2])), Str(m[0])};
  }
  if (std::array<re2::StringPiece, 2> u; SearchIn<1>(first_unit, q, u))
    return AskWindow{0, Str(u[1]) == "minute" ? 60.0 : 1.0, Str(u[0])};
  if (SearchIn<2>(offset, q, m) && m[2].data() != nullptr) {
    if (!(v = DecimalNumber(m[1]))) return std::nullopt;
    return AskWindow{ToSeconds(*v, Str(m[2])), span_s, Str(m[0])};
  }
  if (SearchIn<2>(last, q, m)) {
    if (!(v = DecimalNumber(m[1]))) return std::nullopt;
    const double len = ToSeconds(*v, Str(m[2]));
    return AskWindow{std::max(0.0, span_s - len), span_s, Str(m[0])};
  }
  if (SearchIn<2>(after, q, m) && m[2].data() != nullptr) {
    if (!(v = DecimalNumber(m[1]))) return std::nullopt;
    return AskWindow{ToSeconds(*v, Str(m[2])), span_s, Str(m[0])};
  }
  if (SearchIn<2>(before, q, m) && m[2].data() != nullptr) {
    if (!(v = DecimalNumber(m[1]))) return std::nullopt;
    return AskWindow{0, ToSeconds(*v, Str(m[2])), Str(m[0])};
  }
  return std::nullopt;
}

// A comparison word, a number and a unit (the pattern's three groups): "longer than 100 us", "over 1 GiB".
struct BoundMatch {
  double value = 0;
  std::string unit, said;
  bool below = false;  // shorter, less, faster, smaller, under, below, at most
};
// The pattern of such a bound: one of `words`, an optional "than", a number, one of `units`.
std::string BoundPattern(std::string_view words, std::string_view units) {
  return R"(\b()" + std::string(words) + ")" + kAskSpace + "*(?:than" + kAskSpace + "+)?" + R"(([0-9]+(?:\.[0-9]+)?))" +
         kAskSpace + "*(" + std::string(units) + R"()\b)";
}
std::optional<BoundMatch> BoundIn(const AskPattern& pattern, const std::string& q) {
  std::array<re2::StringPiece, 4> m;
  if (!SearchIn<3>(pattern, q, m)) return std::nullopt;
  const auto v = DecimalNumber(m[2]);
  if (!v) return std::nullopt;
  const std::string word = Str(m[1]);
  const bool below = word == "shorter" || word == "less" || word == "faster" || word == "smaller" || word == "under" ||
                     word == "below" || word == "at most";
  return BoundMatch{*v, Str(m[3]), Str(m[0]), below};
}

// "longer than 100 us", "over 2 ms", "at least 1 s", "under 500 ns", "> 10 ms": a bound on each instance's
// duration. The unit must be said: "more than 100" is a count, not a time. The comparison then belongs to the bound,
// so the question is no longer "is A more than B".
std::optional<DurationBound> BoundOf(const std::string& q) {
  static const AskPattern bound(BoundPattern(
      "longer|more|greater|slower|shorter|less|faster|over|above|under|below|exceed(?:s|ed|ing)?|beyond|at least|"
      "at most",
      "ns|us|µs|μs|ms|s|secs?|seconds?|milliseconds?|microseconds?|nanoseconds?"));
  const auto b = BoundIn(bound, q);
  if (!b) return std::nullopt;
  return DurationBound{ToSeconds(b->value, b->unit == "μs" ? "us" : b->unit) * 1e9, !b->below, b->said};
}

// "larger than 100 MB", "over 1 GiB", "smaller than 4 KB": a bound on each copy's size (MB = 1e6 bytes, as nsys
// prints; MiB = 2^20).
std::optional<SizeBound> SizeBoundOf(const std::string& q) {
  static const AskPattern bound(BoundPattern(
      "larger|bigger|greater|more|over|above|exceed(?:s|ed|ing)?|at least|smaller|less|under|below|at most",
      "bytes?|b|kb|kib|mb|mib|gb|gib"));
  // "1 MB or larger", "100 KB or more": the same bound said after the number.
  static const AskPattern after(R"(([0-9]+(?:\.[0-9]+)?))" + kAskSpace + R"(*(bytes?|b|kb|kib|mb|mib|gb|gib))" +
                                kAskSpace + R"(+or)" + kAskSpace +
                                R"(+(larger|bigger|more|greater|above|over|smaller|less|below|under)\b)");
  auto b = BoundIn(bound, q);
  if (std::array<re2::StringPiece, 4> m; !b && SearchIn<3>(after, q, m)) {
    const std::string word = Str(m[3]);
    const bool below = word == "smaller" || word == "less" || word == "below" || word == "under";
    if (const auto v = DecimalNumber(m[1])) b = BoundMatch{*v, Str(m[2]), Str(m[0]), below};
  }
  if (!b) return std::nullopt;
  static const std::pair<std::string_view, double> kUnits[] = {
      {"kb", 1e3}, {"kib", 1024.0}, {"mb", 1e6}, {"mib", 1048576.0}, {"gb", 1e9}, {"gib", 1073741824.0}};
  double scale = 1;
  for (const auto& [unit, factor] : kUnits) {
    if (b->unit == unit) scale = factor;
  }
  return SizeBound{b->value * scale, !b->below, b->said};
}

void DevicesAndProcesses(const std::string& q, const engine::ProfileInfo& info, Parsed& p) {
  static const AskPattern device(R"(\b(?:gpu|device|dev|cuda:|rank))" + kAskSpace + "*#?" + kAskSpace +
                                 R"(*([0-9]+)\b)");
  static const AskPattern pid(R"(\b(?:pid|process))" + kAskSpace + "*#?" + kAskSpace + R"(*([0-9]+)\b)");
  ForEachMatchIn<1>(device, q, [&](const auto& m) {
    const auto number = WholeNumber<long>(m[1]);
    if (!number) return;
    const auto d = static_cast<int32_t>(*number);
    if (std::find(p.devices.begin(), p.devices.end(), d) == p.devices.end()) p.devices.push_back(d);
  });
  ForEachMatchIn<1>(pid, q, [&](const auto& m) {
    const auto number = WholeNumber<unsigned long>(m[1]);
    if (!number) return;
    const auto v = static_cast<uint32_t>(*number);
    if (std::find(p.processes.begin(), p.processes.end(), v) == p.processes.end()) p.processes.push_back(v);
  });
  for (const auto& proc : info.processes) {
    const std::string name = Lower(proc.name);
    if (name.size() >= 3 && !IsCommonWord(name) && HasWord(q, name) &&
        std::find(p.processes.begin(), p.processes.end(), proc.pid) == p.processes.end()) {
      p.processes.push_back(proc.pid);
    }
  }
}

// A GPU's product name ("H100", "A100", "GH200", "RTX3090", "L40S", "MI300X"): the hardware, never a kernel's name.
bool IsGpuModel(const std::string& w) {
  static const AskPattern model(R"((?i)(?:[abhlptv]|gh|gb|rtx|gtx|mi)[0-9]{2,4}[a-z]{0,2})");
  return re2::RE2::FullMatch(w, model.re());
}

void QuotedAndIdents(const std::string& text, Parsed& p) {
  // An opening quote follows the start or a character that is no ASCII letter or digit: the apostrophes of "GPU 1's"
  // and "don't" open nothing. (The patterns read bytes: a curly quote is three of them, any of which may open.)
  static const AskPattern quoted(R"((?:^|[^A-Za-z0-9])["'`“”‘’]([^"'`“”‘’]{2,})["'`“”‘’])");
  ForEachMatchIn<1>(quoted, text, [&](const auto& m) { p.quoted.push_back(Str(m[1])); });
  // Identifier-like: has '_' or "::" or mixes letters and digits, or CamelCase; at least 4 characters.
  static const AskPattern ident(R"([A-Za-z_][A-Za-z0-9_:<>]*[A-Za-z0-9_>])");
  ForEachMatchIn<0>(ident, text, [&](const auto& m) {
    const std::string w = Str(m[0]);
    if (w.size() < 4) return;
    const bool has_sep = w.find('_') != std::string::npos || w.find("::") != std::string::npos;
    const bool has_digit = std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(c); });
    const bool camel = std::any_of(w.begin() + 1, w.end(), [](char c) { return std::isupper(c); }) &&
                       std::any_of(w.begin(), w.end(), [](char c) { return std::islower(c); });
    // An acronym's plural ("GEMMs", "SMs") is a plain word, not an identifier.
    const bool plural_acronym = w.back() == 's' && std::all_of(w.begin(), w.end() - 1, [](char ch) {
                                  return std::isupper(static_cast<unsigned char>(ch)) != 0;
                                });
    if (!(has_sep || has_digit || camel) || plural_acronym || IsCommonWord(Lower(w)) || IsGpuModel(w)) return;
    p.idents.push_back(w);
  });
}

std::optional<size_t> OrdinalOf(const std::string& q) {
  static const std::pair<std::string_view, size_t> words[] = {{"first one", 0}, {"second", 1}, {"third", 2},
                                                              {"fourth", 3},    {"fifth", 4},  {"2nd", 1},
                                                              {"3rd", 2},       {"4th", 3},    {"5th", 4}};
  // Whole words only: "seconds", "milliseconds" and "32nd" are no ordinal; nor is a unit ("per second", "1 second",
  // "a second"), which made a question about durations a follow-up of the previous turn.
  static const AskPattern unit(R"((?:\bper|\ba|[0-9]))" + kAskSpace + "*second\\b");
  for (const auto& [w, i] : words) {
    if (!HasWord(q, w)) continue;
    if (std::array<re2::StringPiece, 1> m; w == "second" && SearchIn<0>(unit, q, m)) continue;
    if (w == "second" && HasAny(q, {"first second"})) continue;  // "in the first second": a window
    return i;
  }
  static const AskPattern number(R"((?:number|#|no\.))" + kAskSpace + "*([0-9]+)");
  if (std::array<re2::StringPiece, 2> m; SearchIn<1>(number, q, m)) {
    const auto n = WholeNumber<size_t>(m[1]);
    if (n && *n >= 1) return *n - 1;
  }
  return std::nullopt;
}

}  // namespace

std::string_view QTypeName(QType t) {
  switch (t) {
    case QType::kWhy:
      return "why";
    case QType::kMoreThan:
      return "more_than";
    case QType::kCompare:
      return "compare";
    case QType::kShare:
      return "share";
    case QType::kHowMany:
      return "how_many";
    case QType::kHowMuch:
      return "how_much";
    case QType::kWhich:
      return "which";
    case QType::kDescribe:
      return "describe";
  }
  return "describe";
}

bool HasWord(const std::string& lower, std::string_view word) {
  if (word.empty()) return false;
  for (size_t pos = lower.find(word); pos != std::string::npos; pos = lower.find(word, pos + 1)) {
    const bool left = pos == 0 || !IsWordChar(lower[pos - 1]);
    const size_t end = pos + word.size();
    const bool right = end >= lower.size() || !IsWordChar(lower[end]);
    if (left && right) return true;
  }
  return false;
}

bool HasAny(const std::string& lower, std::initializer_list<std::string_view> phrases) {
  return std::any_of(phrases.begin(), phrases.end(),
                     [&](std::string_view p) { return lower.find(p) != std::string::npos; });
}

bool IsCommonWord(std::string_view w) {
  static const std::set<std::string_view> common = {
      "the",     "and",    "for",       "what",       "which",   "how",       "many",     "much",    "time",
      "times",   "gpu",    "gpus",      "cpu",        "device",  "kernel",    "kernels",  "most",    "top",
      "total",   "spent",  "does",      "did",        "take",    "takes",     "took",     "run",     "runs",
      "ran",     "called", "call",      "calls",      "launch",  "launches",  "launched", "this",    "that",
      "profile", "share",  "with",      "than",       "more",    "less",      "slowest",  "longest", "biggest",
      "there",   "are",    "were",      "was",        "why",     "compare",   "between",  "from",    "first",
      "last",    "second", "one",       "about",      "process", "instances", "much",     "long",    "get",
      "name",    "named",  "show",      "list",       "tell",    "give",      "percent",  "share",   "fraction",
      "all",     "any",    "its",       "their",      "memcpy",  "copy",      "copies",   "sync",    "nccl",
      "nvtx",    "range",  "ranges",    "idle",       "gap",     "gaps",      "api",      "cuda",    "busy",
      "step",    "steps",  "iteration", "iterations", "stream",  "streams",   "on",       "in",      "of",
      "to",      "is",     "it",        "main",       "python",  "work",      "used",     "use",     "average",
      "mean",    "median", "duration",  "slow",       "fast",    "time?",     "kernel?",  "vs",      "versus",
      "and",     "or",     "per",       "each",       "every",   "when",      "where",    "who",     "overall"};
  return common.count(w) > 0;
}

std::optional<int64_t> NumberWordAt(std::string_view lower) {
  static const std::string_view kWords[] = {"one", "two",   "three", "four", "five",
                                            "six", "seven", "eight", "nine", "ten"};
  for (size_t i = 0; i < std::size(kWords); ++i) {
    const std::string_view w = kWords[i];
    if (lower.substr(0, w.size()) == w &&
        (lower.size() == w.size() || !std::isalpha(static_cast<unsigned char>(lower[w.size()]))))
      return static_cast<int64_t>(i + 1);
  }
  return std::nullopt;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace nsys::agent::ask_detail

namespace nsys::agent {

Status CheckQuestion(const std::string& question) {
  if (question.find_first_not_of(" \t\r\n") == std::string::npos) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "question: empty; ask about this profile, e.g. \"Which kernels take the most GPU time?\"");
  }
  if (question.size() > kMaxQuestionBytes) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("question: {} bytes, over the limit of {} bytes ({} KiB) for a question; ask a "
                                 "shorter one",
                                 question.size(), kMaxQuestionBytes, kMaxQuestionBytes / 1024));
  }
  return {};
}

}  // namespace nsys::agent

namespace nsys::agent::ask_detail {

Parsed ParseQuestion(const std::string& question, const engine::ProfileInfo& info) {
  Parsed p;
  p.text = Trim(question);
  p.lower = Lower(p.text);
  p.type = TypeOf(p.lower);
  p.topic = TopicOf(p.lower);
  p.window = WindowOf(p.lower, info);
  // A window counted from the first kernel ("within the first second after the first kernel hit the GPU"), or from
  // the first of the kernels a word names ("from the moment the first `sample` kernel begins", "after the solver
  // kernel first starts").
  if (p.window) {
    static const AskPattern first_named(
        R"(\bfirst[\t\n\x0B\f\r ]+(?:`?([a-z_][a-z0-9_:]*)`?[\t\n\x0B\f\r ]+)?kernel\b)");
    static const AskPattern named_first(
        R"(\b`?([a-z_][a-z0-9_:]*)`?[\t\n\x0B\f\r ]+kernel[\t\n\x0B\f\r ]+first[\t\n\x0B\f\r ]+(?:start|begin|run|hit|launch))");
    std::array<re2::StringPiece, 2> m;
    if (SearchIn<1>(first_named, p.lower, m) || SearchIn<1>(named_first, p.lower, m)) {
      p.from_first_kernel = true;
      const std::string word = m[1].data() != nullptr ? Str(m[1]) : "";
      if (word != "the" && word != "a" && word != "cuda" && word != "gpu") p.first_kernel_word = word;
    }
  }
  // "more than half a second", "over a second": the number said in words.
  std::string said = p.lower;
  for (const auto& [words, digits] :
       std::initializer_list<std::pair<std::string_view, std::string_view>>{{"half a second", "0.5 s"},
                                                                            {"a quarter of a second", "0.25 s"},
                                                                            {"than a second", "than 1 s"},
                                                                            {"over a second", "over 1 s"},
                                                                            {"than a minute", "than 60 s"}}) {
    for (size_t at = said.find(words); at != std::string::npos; at = said.find(words, at + digits.size()))
      said.replace(at, words.size(), digits);
  }
  p.bound = BoundOf(said);
  // "more than 1 s after the first kernel" is where a window starts, not how long each instance took.
  if (p.bound && p.window && p.window->text.find(p.bound->said) != std::string::npos) p.bound.reset();
  p.size_bound = SizeBoundOf(p.lower);
  if (p.bound && (p.type == QType::kMoreThan || p.type == QType::kCompare)) p.type = QType::kDescribe;
  DevicesAndProcesses(p.lower, info, p);
  QuotedAndIdents(p.text, p);
  p.ordinal = OrdinalOf(p.lower);
  static const AskPattern top(R"(\btop)" + kAskSpace + R"(*([0-9]+)\b)");
  if (std::array<re2::StringPiece, 2> m; SearchIn<1>(top, p.lower, m)) p.top_n = WholeNumber<size_t>(m[1]);
  static const AskPattern bottom(R"(\bbottom)" + kAskSpace + R"(*([0-9]+)\b)");
  if (std::array<re2::StringPiece, 2> m; !p.top_n && !p.window && SearchIn<1>(bottom, p.lower, m))
    p.top_n = WholeNumber<size_t>(m[1]);
  // "which two kernels", "the top three", "bottom five": a count in words.
  static const AskPattern counted(R"(\b(?:top|bottom|which|what|the|list)" + kAskSpace +
                                  R"(+(two|three|four|five|six|seven|eight|nine|ten)\b)");
  if (std::array<re2::StringPiece, 2> m; !p.top_n && SearchIn<1>(counted, p.lower, m)) {
    if (const auto n = NumberWordAt(Str(m[1]))) p.top_n = static_cast<size_t>(*n);
  }
  static const AskPattern stream(R"(\bstreams?)" + kAskSpace + "*(?:#|id" + kAskSpace + "*|number" + kAskSpace +
                                 "*)?([0-9]{1,9})\\b");
  ForEachMatchIn<1>(stream, p.lower, [&](const auto& m) {
    if (const auto v = WholeNumber<int32_t>(m[1])) p.streams.push_back(*v);
  });
  static const AskPattern word(R"([a-z0-9_]+)");
  ForEachMatchIn<0>(word, p.lower, [&](const auto& m) { p.words.push_back(Str(m[0])); });
  // Short questions that start with "and", "what about", "why?" or only name a filter lean on the previous turn.
  p.follow_up = p.words.size() <= 8 && (p.lower.rfind("and ", 0) == 0 || p.lower.rfind("what about", 0) == 0 ||
                                        p.lower.rfind("how about", 0) == 0 || p.lower == "why?" || p.lower == "why" ||
                                        p.lower.rfind("same ", 0) == 0 || p.ordinal.has_value());
  return p;
}

std::string FormatNs(double ns) {
  const double a = std::fabs(ns);
  if (a >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (a >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (a >= 1e3) return fmt::format("{:.3f} µs", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::string FormatPct(double pct) {
  // Below 10%, two decimals: "0.66%", "4.75%", as a small share is written, and as the skills' cells hold shares (to
  // two decimals), so that a share is rounded once.
  if (pct != 0 && std::fabs(pct) < 10) return fmt::format("{:.2f}%", pct);
  return fmt::format("{:.1f}%", pct);
}

std::string FormatCount(double n) {
  std::string digits = fmt::format("{:.0f}", n);
  std::string out;
  const size_t start = (!digits.empty() && digits[0] == '-') ? 1 : 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string FormatBytes(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.2f} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.2f} MB", bytes / 1e6);
  if (bytes >= 1e3) return fmt::format("{:.2f} KB", bytes / 1e3);
  return fmt::format("{:.0f} B", bytes);
}

std::optional<size_t> ColumnIndex(const skills::Table& t, std::string_view name) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == name) return i;
  }
  return std::nullopt;
}

double CellNumber(const skills::Table& t, size_t row, std::string_view column) {
  const auto c = ColumnIndex(t, column);
  if (!c || row >= t.rows.size() || *c >= t.rows[row].size()) return std::nan("");
  const Value& v = t.rows[row][*c];
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
  return std::nan("");
}

std::string CellText(const skills::Table& t, size_t row, std::string_view column) {
  const auto c = ColumnIndex(t, column);
  if (!c || row >= t.rows.size() || *c >= t.rows[row].size()) return "";
  const Value& v = t.rows[row][*c];
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
  return "";
}

}  // namespace nsys::agent::ask_detail
