// The offline filler: a question read into Queries with the lexicon (query_lexicon.cpp) and the profile's names.
//
// Steps: Tokenize (quoted names kept whole, "gpu0" and "100ms" split); Classify each position as the longest profile
// name, lexicon phrase, name fragment or number that starts there; SplitClauses where a new question starts ("and how
// many ...", ", the slowest ..."); ReadClause fills one Query's slots from the items of a clause; Inherit gives a
// clause without a subject or measures its predecessor's; Merge joins Queries that differ only in their measures. Words
// that no step accounts for are returned as unread: the caller answers only a complete reading.
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/agent/query.h"
#include "nsys/agent/query_answer.h"
#include "nsys/engine/gpu_models.h"
#include "nsys/support/name_pattern.h"
#include "query_lexicon.h"
#include "text_case.h"

namespace nsys::agent {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace query_fill {

using lexicon::Slot;

struct Token {
  std::string text;   // as written
  std::string lower;  // lower case
  bool quoted = false;
  bool separator = false;  // , ; ? !
  bool paren = false;      // written inside parentheses: "bandwidth (total bytes / total copy time)"
  bool colon = false;      // a separator written as a colon, read as a comma
  bool family = false;     // a family said in everyday words ("matrix multiplies": the decoder's "gemm"), no name
};

bool IsDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "10^9", "10^6": a power of ten as people type one (an exponent of one or two digits), or nullopt.
std::optional<double> PowerOfTen(std::string_view s) {
  if (s.size() < 4 || s.size() > 5 || s.substr(0, 3) != "10^" || !IsDigits(s.substr(3))) return std::nullopt;
  return std::pow(10.0, std::stoi(std::string(s.substr(3))));  // at most 99: finite
}

bool IsNumber(std::string_view s) {
  bool digit = false, dot = false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  return digit;
}

bool IsStartWord(const std::string& w);  // "start", "began": the start of events (ReadSpanPhrase)
// The longest phrase of the lexicon, in words ("from the device to the host").
constexpr size_t kMaxPhraseWords = 9;

// "two" to "ten": a number said in words ("which two kernels", "the top three").
std::optional<int> SpelledNumber(std::string_view lower) {
  constexpr std::string_view kWords[] = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"};
  for (size_t i = 0; i < std::size(kWords); ++i) {
    if (lower == kWords[i]) return static_cast<int>(i) + 2;
  }
  return std::nullopt;
}

// "gpu0", "gpu:1", "cuda:0", "device#2", "top5", "100ms", "0.5s", "15%": a word and a number, split in two tokens.
// "grid/block": two words of the lexicon, two tokens. "two": the number 2.
void PushSplit(std::vector<Token>& out, const std::string& word) {
  const std::string lower = Lower(word);
  if (const auto n = SpelledNumber(lower)) {
    out.push_back({word, std::to_string(*n)});
    return;
  }
  // "threads/blk", "regs/thread", "bytes/copy": a plural then a singular around a slash is one per the other.
  if (const size_t slash = lower.find('/'); slash != std::string::npos && slash > 1 && slash + 1 < lower.size() &&
                                            lower.find('/', slash + 1) == std::string::npos) {
    const auto word = [](std::string part) {
      const std::string s = lexicon::ShorthandOf(part);
      return s.empty() ? part : s;
    };
    const std::string a = word(lower.substr(0, slash)), b = word(lower.substr(slash + 1));
    if (a.back() == 's' && b.back() != 's' && !lexicon::EntriesOf(a).empty() && !lexicon::EntriesOf(b).empty()) {
      out.push_back({a, a});
      out.push_back({"per", "per"});
      out.push_back({b, b});
      return;
    }
  }
  // "GPU-function", "memory-fill": words joined by hyphens that the lexicon holds as a phrase are that phrase's words.
  if (lower.find('-') != std::string::npos && lexicon::EntriesOf(lower).empty()) {
    std::string spaced = lower;
    std::replace(spaced.begin(), spaced.end(), '-', ' ');
    if (!lexicon::EntriesOf(spaced).empty()) {
      for (size_t at = 0; at <= lower.size();) {
        const size_t end = std::min(lower.find('-', at), lower.size());
        out.push_back({word.substr(at, end - at), lower.substr(at, end - at)});
        at = end + 1;
      }
      return;
    }
  }
  // "kernel/copy/memset", "per-process", "krnl+memcpy+memset": as many tokens as parts, when each is a word of the
  // lexicon or shorthand for one.
  for (const char mark : {'/', '-', '+'}) {
    if (lower.find(mark) == std::string::npos || !lexicon::EntriesOf(lower).empty()) continue;
    std::vector<Token> parts;
    for (size_t at = 0; at <= lower.size();) {
      const size_t end = std::min(lower.find(mark, at), lower.size());
      std::string part = lower.substr(at, end - at);
      if (const std::string s = lexicon::ShorthandOf(part); !s.empty() && s.find(' ') == std::string::npos) part = s;
      if (lexicon::EntriesOf(part).empty()) break;
      parts.push_back({word.substr(at, end - at), part});
      at = end + 1;
    }
    if (parts.size() >= 2 && parts.size() == static_cast<size_t>(std::count(lower.begin(), lower.end(), mark)) + 1) {
      out.insert(out.end(), parts.begin(), parts.end());
      return;
    }
  }
  for (std::string_view head : {"gpu", "device", "dev", "cuda", "stream", "pid", "top", "rank"}) {
    if (lower.size() > head.size() && lower.compare(0, head.size(), head) == 0) {
      std::string rest = lower.substr(head.size());
      if (!rest.empty() && (rest[0] == ':' || rest[0] == '#' || rest[0] == '-')) rest.erase(0, 1);
      if (IsDigits(rest)) {
        const std::string noun = head == "dev" ? "device" : std::string(head);  // "dev0": device 0
        out.push_back({noun, noun});
        out.push_back({rest, rest});
        return;
      }
    }
  }
  for (std::string_view unit : {"ms", "us", "µs", "ns", "s", "%"}) {
    if (lower.size() > unit.size() && lower.compare(lower.size() - unit.size(), unit.size(), unit) == 0 &&
        IsNumber(std::string_view(lower).substr(0, lower.size() - unit.size()))) {
      const std::string number = lower.substr(0, lower.size() - unit.size());
      out.push_back({number, number});
      out.push_back({std::string(unit), std::string(unit)});
      return;
    }
  }
  out.push_back({word, lower});
}

// The words of a phrase, separated by spaces ("after the first kernel"), as they stand in it.
std::vector<std::string_view> WordsOfPhrase(std::string_view phrase) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at < phrase.size();) {
    const size_t end = std::min(phrase.find(' ', at), phrase.size());
    out.push_back(phrase.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// Words separated by spaces ("unified htod", "number of"), each a token as the lexicon reads it, in `paren`.
void PushWords(std::vector<Token>& out, std::string_view words, bool paren = false) {
  for (std::string_view w : WordsOfPhrase(words)) {
    out.push_back({std::string(w), std::string(w)});
    out.back().paren = paren;
  }
}

// One word as tokens: shorthand ("krnl", "tot", "b/w", "#calls") and NVIDIA's column names ("shortName") as the words
// they stand for, else split at its parts (PushSplit). Shorthand is read when written in one case only: "Mem" or
// "Dev" with a capital is a part of a name ("cudaMemset", "ncclDevKernel"), read as the profile has it.
void PushWord(std::vector<Token>& out, const std::string& word) {
  const bool one_case = std::none_of(word.begin(), word.end(), [](unsigned char ch) { return std::isupper(ch); }) ||
                        std::none_of(word.begin(), word.end(), [](unsigned char ch) { return std::islower(ch); });
  if (const auto report = lexicon::StatsReportWordsOf(Lower(word))) {
    PushWords(out, *report);  // "in cuda_api_sum": the report's events, or nothing a row does not say itself
    return;
  }
  std::string words = lexicon::ExportColumnOf(Lower(word));
  if (words.empty() && one_case) words = lexicon::ShorthandOf(Lower(word));
  if (words.empty()) {
    PushSplit(out, word);
    return;
  }
  const size_t first = out.size();
  PushWords(out, words);
  // "#NCCL" is "number of NCCL": a word of the expansion that is a part of the word keeps its case as written.
  const std::string lower = Lower(word);
  for (size_t k = first; k < out.size(); ++k) {
    if (const size_t at = lower.find(out[k].lower); at != std::string::npos)
      out[k].text = word.substr(at, out[k].lower.size());
  }
}

// A word that ends a sentence when it ends with a full stop: not an abbreviation ("vs.", "e.g.", "no.").
// `capital_next`: the next word opens with a capital letter.
bool EndsSentence(const std::string& word, bool capital_next) {
  if (word.size() < 2 || word.back() != '.') return false;
  const std::string lower = Lower(word);
  // "nvkernel_solve_...", "cudaMemcpy...": an ellipsis after a word written as a name says the rest of the name; it
  // ends the sentence too only before a capital ("a kernel named sm80_xmma_gemm_f64f64... What is ...").
  if (lower.ends_with("...") && !capital_next) {
    const std::string stem = word.substr(0, word.find_last_not_of('.') + 1);
    const bool camel =
        std::adjacent_find(stem.begin(), stem.end(), [](char a, char b) {
          return std::islower(static_cast<unsigned char>(a)) && std::isupper(static_cast<unsigned char>(b));
        }) != stem.end();
    if (stem.find('_') != std::string::npos || stem.find("::") != std::string::npos || camel) return false;
  }
  for (std::string_view abbreviation :
       {"vs.", "e.g.", "i.e.", "no.", "approx.", "etc.", "avg.", "min.", "max.", "resp."}) {
    if (lower == abbreviation) return false;
  }
  return true;
}

// Nouns taken one at a time that stand for another: "per program", "each application", "every app" are the
// profile's processes (a program said alone names the recording: "this program"); "each way", "both ways" are the
// directions copies moved in.
void NounsOneByOne(std::vector<Token>& tokens) {
  static constexpr std::pair<std::string_view, std::string_view> kStandFor[] = {
      {"program", "process"},     {"programs", "process"},     {"app", "process"},        {"apps", "process"},
      {"application", "process"}, {"applications", "process"}, {"executable", "process"}, {"executables", "process"},
      {"binary", "process"},      {"binaries", "process"},     {"way", "direction"},      {"ways", "directions"}};
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& before = tokens[i - 1].lower;
    if (before != "per" && before != "each" && before != "every" && before != "both") continue;
    for (const auto& [noun, stands_for] : kStandFor) {
      if (tokens[i].lower == noun) tokens[i].lower = std::string(stands_for);
    }
  }
}

// PyTorch's NVTX texts "aten::mm, op_id = 317126": the engine names such a range "aten::mm" and keeps the op_id apart
// (nsys/engine/model.h), so what a question says of that suffix is how names already read here. A quoted name that ends
// in the suffix with a placeholder for its number ('aten::linear, op_id = ...', '..., op_id = N') is its head; a part
// of a sentence that only speaks of the suffix ("Ignoring the op_id suffix,", "(they carry op_id suffixes)", "(any
// op_id, same thread)": a word of the suffix in a part that asks nothing, between separators or within parentheses)
// goes. A quoted name with a real op_id stays as written: one range of one op, which no Query picks.
void SuffixesOfNames(std::vector<Token>& tokens, std::vector<std::string>* dropped) {
  static constexpr std::string_view kInfix = ", op_id = ";  // server/engine/src/nvtx_loader.cpp's, PyTorch's
  for (Token& t : tokens) {
    const size_t at = t.lower.find(kInfix);
    if (!t.quoted || at == std::string::npos) continue;
    const std::string tail = t.lower.substr(at + kInfix.size());
    if (tail == "..." || tail == "\u2026" || tail == "n" || tail == "*" || tail == "<n>" || tail == "#") {
      t.text.resize(at);
      t.lower.resize(at);
    }
  }
  const auto of_suffix = [](const Token& t) {
    return !t.quoted && !t.separator &&
           (t.lower.find("op_id") != std::string::npos || t.lower == "suffix" || t.lower == "suffixes");
  };
  const auto asks = [](const Token& t) {
    static constexpr std::string_view kAsking[] = {"how",  "what", "what's", "whats", "which",
                                                   "give", "list", "show",   "count", "tell"};
    return std::find(std::begin(kAsking), std::end(kAsking), t.lower) != std::end(kAsking);
  };
  for (size_t i = 0; i < tokens.size();) {
    if (!of_suffix(tokens[i])) {
      ++i;
      continue;
    }
    // The part it stands in: within its parentheses, or between separators.
    const bool paren = tokens[i].paren;
    const auto same_part = [&](size_t k) { return !tokens[k].separator && tokens[k].paren == paren; };
    size_t from = i, to = i + 1;
    while (from > 0 && same_part(from - 1)) --from;
    while (to < tokens.size() && same_part(to)) ++to;
    const auto first = tokens.begin() + static_cast<std::ptrdiff_t>(from);
    const auto last = tokens.begin() + static_cast<std::ptrdiff_t>(to);
    if (std::any_of(first, last, asks)) {
      i = to;
      continue;
    }
    // The comma or semicolon that closed the part goes with it. The part is said as taken (Reading::described).
    const bool closed = to < tokens.size() && (tokens[to].lower == "," || tokens[to].lower == ";");
    if (dropped) {
      std::string words;
      for (auto k = first; k != last; ++k) words += (words.empty() ? "" : " ") + k->text;
      dropped->push_back(std::move(words));
    }
    tokens.erase(first, closed ? last + 1 : last);
    i = from;
  }
}

bool IsLengthWord(const std::string& lower) {
  return lower == "length" || lower == "lengths" || lower == "width" || lower == "widths" || lower == "duration" ||
         lower == "durations";
}

// A timeline's mark said by how it looks: a bar, a box, a row, a lane, a track.
bool IsTimelineMark(const Token& t) {
  static constexpr std::string_view kMarks[] = {"bar",    "bars",    "box",      "boxes",    "rectangle", "rectangles",
                                                "marker", "markers", "row",      "rows",     "lane",      "lanes",
                                                "track",  "tracks",  "swimlane", "swimlanes"};
  return !t.quoted && std::find(std::begin(kMarks), std::end(kMarks), t.lower) != std::end(kMarks);
}

// Whether a word, as the lexicon reads it (its synonyms and inflections), fills one of `slots`.
bool FillsSlot(const std::string& lower, std::initializer_list<Slot> slots) {
  for (const lexicon::Entry& e : lexicon::EntriesOf(lexicon::Canonical(lower))) {
    if (std::find(slots.begin(), slots.end(), e.slot) != slots.end()) return true;
  }
  return false;
}

// "GPU 1's kernel row: how many stretches between bars ...", "between neighbouring bars": plural marks between which
// gaps are, are the events the sentence drew before them (the last noun of events said in it), else they stay.
void MarksBetweenEvents(std::vector<Token>& tokens) {
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& before = tokens[i - 1].lower;
    // "between", or "consecutive" and the words the lexicon reads as it ("neighbouring", "adjacent", "successive").
    if (!IsTimelineMark(tokens[i]) || tokens[i].lower.back() != 's' ||
        (before != "between" && lexicon::Canonical(before) != "consecutive"))
      continue;
    for (size_t k = i - 1; k-- > 0 && tokens[k].lower != ".";) {
      if (tokens[k].quoted || tokens[k].lower.back() != 's' || !FillsSlot(tokens[k].lower, {Slot::kEvents})) continue;
      tokens[i].text = tokens[k].text;
      tokens[i].lower = tokens[k].lower;
      break;
    }
  }
}

// "kernel bars", "the copy bars", "stream lanes", "GPU 1's kernel row", "the 3D_backbone bar": a timeline's marks,
// said by how they look. A mark right after the word of what it draws (a noun of events or of a place, or a name) is
// those events or that place and goes. A row, lane or track of events holds all of them ("the kernel row": the
// kernels), as plural bars do; a place keeps the number the mark has ("stream lanes": streams). A mark after any other
// word ("the first bar", "between bars") stays, unread; a row after a name stays too.
void MarksOfTheTimeline(std::vector<Token>& tokens) {
  for (size_t i = 1; i < tokens.size(); ++i) {
    Token& before = tokens[i - 1];
    if (!IsTimelineMark(tokens[i]) || before.separator) continue;
    // "the median bar length", "its average bar width": a mark before its length is the events' own.
    if (i + 1 < tokens.size() && IsLengthWord(tokens[i + 1].lower)) {
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i--));
      continue;
    }
    const bool events = FillsSlot(before.lower, {Slot::kEvents, Slot::kCopyKind});
    const bool place = FillsSlot(before.lower, {Slot::kDeviceNoun, Slot::kProcessNoun, Slot::kStreamNoun});
    const bool name =
        before.quoted || (lexicon::EntriesOf(before.lower).empty() && !lexicon::IsMeaningWord(before.lower) &&
                          !IsDigits(before.lower) && before.lower.size() > 2);
    // A row, lane or track holds many marks: "the kernel row" is the kernels.
    const bool row = tokens[i].lower.find("row") != std::string::npos ||
                     tokens[i].lower.find("lane") != std::string::npos ||
                     tokens[i].lower.find("track") != std::string::npos;
    // "the myelin-exec row": a row named by a name is a thread's or an NVTX domain's, not the name's events: left as
    // written (the lexicon reads "row" as a table's).
    if (!events && !place && (!name || row)) continue;
    const bool many = tokens[i].lower.back() == 's' || row;
    if ((events && many) || (place && tokens[i].lower.back() == 's')) {
      // "kernel" kernels, "copy" copies: the plural the lexicon holds, written in the case the word was.
      const bool y = before.lower.back() == 'y';
      const std::string cut = y ? before.lower.substr(0, before.lower.size() - 1) + "ies" : before.lower + "s";
      if (before.lower.back() != 's' && FillsSlot(cut, {Slot::kEvents, Slot::kDeviceNoun, Slot::kStreamNoun})) {
        before.text = (y ? before.text.substr(0, before.text.size() - 1) + "ies" : before.text + "s");
        before.lower = cut;
      }
    }
    tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i--));
  }
  MarksBetweenEvents(tokens);
}

// "copyKind 11", "copy kind = 1": NVIDIA's CUPTI_ACTIVITY_MEMCPY_KIND value, as the words the lexicon reads for that
// kind ("unified HtoD"). Array copies (3 to 7) have no such words: left as written, unread.
void CopyKindsByNumber(std::vector<Token>& tokens) {
  static constexpr std::array<std::string_view, 14> kWords = {
      "", "htod", "dtoh", "", "", "", "", "", "dtod", "htoh", "ptop", "unified htod", "unified dtoh", "unified dtod"};
  for (size_t i = 0; i < tokens.size(); ++i) {
    size_t k = i;
    if (tokens[k].lower == "copykind") {
      ++k;
    } else if (tokens[k].lower == "copy" && k + 1 < tokens.size() && tokens[k + 1].lower == "kind") {
      k += 2;
    } else {
      continue;
    }
    if (k < tokens.size() && tokens[k].lower == "=") ++k;
    if (k >= tokens.size() || !IsDigits(tokens[k].lower) || tokens[k].lower.size() > 2) continue;
    const size_t value = std::stoul(tokens[k].lower);  // at most two digits
    if (value >= kWords.size() || kWords[value].empty()) continue;
    std::vector<Token> kind;
    PushWords(kind, kWords[value], tokens[i].paren);
    tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i), tokens.begin() + static_cast<std::ptrdiff_t>(k + 1));
    tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(i), kind.begin(), kind.end());
    i += kind.size() - 1;
  }
}

// "most long", "the most short launch", "most big": "most" before an adjective whose superlative the lexicon holds is
// that superlative ("longest", "shortest", "biggest"), as people write it in a language they learned.
void MostOfAnAdjective(std::vector<Token>& tokens) {
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const std::string& adj = tokens[i + 1].lower;
    if (tokens[i].lower != "most" || tokens[i + 1].separator || tokens[i + 1].quoted || adj.size() < 3 ||
        !std::all_of(adj.begin(), adj.end(), [](unsigned char c) { return std::islower(c); }) ||
        !lexicon::EntriesOf("most " + adj).empty())
      continue;
    const char last = adj.back();
    const bool vowel_before = std::string_view("aeiou").find(adj[adj.size() - 2]) != std::string_view::npos;
    std::vector<std::string> forms = {adj + "est"};
    if (last == 'e') forms.push_back(adj + "st");                                          // large, largest
    if (last == 'y') forms.push_back(adj.substr(0, adj.size() - 1) + "iest");              // busy, busiest
    if (vowel_before && std::string_view("aeiouwy").find(last) == std::string_view::npos)  // big, biggest
      forms.push_back(adj + last + "est");
    for (const std::string& form : forms) {
      if (lexicon::EntriesOf(form).empty()) continue;
      tokens[i].text += " " + tokens[i + 1].text;
      tokens[i].lower = form;
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i + 1));
      break;
    }
  }
}

// "the matrix multiplies", "flash attention": a family said in everyday words becomes the one word that says it
// ("gemms", "flashattention"), read as the decoder's family of kernels only: never as a part of a name the question
// did not write (fuzz_ask_parse holds every name a Query reads to the question's words).
void FamilyPhrases(std::vector<Token>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    for (size_t n = std::min<size_t>(3, tokens.size() - i); n >= 2; --n) {
      std::string phrase;
      for (size_t k = i; k < i + n; ++k) phrase += (k == i ? "" : " ") + tokens[k].lower;
      const bool plain = std::none_of(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                      tokens.begin() + static_cast<std::ptrdiff_t>(i + n),
                                      [](const Token& k) { return k.quoted || k.separator; });
      const std::string_view word = plain ? lexicon::FamilyPhraseWord(phrase) : std::string_view();
      if (word.empty()) continue;
      tokens[i].text = tokens[i].lower = std::string(word);
      tokens[i].family = true;
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i + 1),
                   tokens.begin() + static_cast<std::ptrdiff_t>(i + n));
      break;
    }
  }
}

// "what share of the kernel time does it represent?", "what percentage of the API time do they constitute": a verb
// that says what events stand for takes a share when a share was asked before it in the sentence and the verb ends
// its clause (before a separator, "and", or the end), as "take" does; otherwise it says what they stand for ("the
// ranges that represent layers") and stays unread.
void TakesAtTheEnd(std::vector<Token>& tokens) {
  static constexpr std::pair<std::string_view, std::string_view> kVerbs[] = {
      {"represent", "take"}, {"represents", "takes"}, {"constitute", "take"}, {"constitutes", "takes"}};
  bool share = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].separator && tokens[i].text != ",") share = false;  // a sentence of its own
    for (std::string_view w : {"share", "percentage", "percent", "%", "pct", "fraction", "proportion"}) {
      if (tokens[i].lower == w) share = true;
    }
    const bool ends = share && (i + 1 == tokens.size() || tokens[i + 1].separator || tokens[i + 1].lower == "and" ||
                                tokens[i + 1].lower == "together" || tokens[i + 1].lower == "overall");
    for (const auto& [verb, take] : kVerbs) {
      if (ends && !tokens[i].quoted && tokens[i].lower == verb) tokens[i].text = tokens[i].lower = std::string(take);
    }
  }
}

// "how many streams did the app create", "how many streams were created with cudaStreamCreateWithFlags": objects a
// program creates through CUDA calls are counted by those calls (NVIDIA names each call after what it creates: the
// part below). The noun and the verb after it become "<part> calls" ("StreamCreate calls", every call whose name holds
// it); when the sentence names such a call itself, its words say it again and go, with a "with" or "via" after them.
// Only objects that no other call creates: a CUDA graph also comes of a stream capture (cudaStreamEndCapture), a
// runtime program's context of cudaSetDevice, so counting their Create calls would undercount them.
void CreatedByTheirCalls(std::vector<Token>& t) {
  static constexpr std::pair<std::string_view, std::string_view> kCreated[] = {{"streams", "StreamCreate"}};
  const auto verb = [](const Token& k) {
    return k.lower == "create" || k.lower == "created" || k.lower == "creates" || k.lower == "creating";
  };
  for (size_t i = 0; i < t.size(); ++i) {
    for (const auto& [noun, part] : kCreated) {
      if (t[i].quoted || t[i].lower != noun) continue;
      size_t j = i + 1;
      while (j < t.size() && j <= i + 5 && !t[j].separator && !verb(t[j])) ++j;
      if (j >= t.size() || j > i + 5 || !verb(t[j])) continue;
      size_t end = j + 1;
      while (end < t.size() && (t[end].lower == "with" || t[end].lower == "via" || t[end].lower == "using" ||
                                t[end].lower == "by" || t[end].lower == "through"))
        ++end;
      const std::string lower_part = Lower(std::string(part));
      const bool named = std::any_of(t.begin(), t.end(), [&](const Token& k) {
        return !k.separator && k.lower.find(lower_part) != std::string::npos;
      });
      t.erase(t.begin() + static_cast<std::ptrdiff_t>(i), t.begin() + static_cast<std::ptrdiff_t>(end));
      if (!named) {
        t.insert(t.begin() + static_cast<std::ptrdiff_t>(i),
                 {Token{std::string(part), lower_part}, Token{"calls", "calls"}});
      }
      break;
    }
  }
}

// Long: one pass over the characters with the quote, separator and word cases side by side.
std::vector<Token> Tokenize(const std::string& question, std::vector<std::string>* said_of_names = nullptr) {
  std::vector<Token> out;
  std::string word;
  int depth = 0;  // parentheses opened before a word and not closed yet
  size_t at = 0;  // where the character that ends the word is
  const auto flush = [&] {
    const size_t next = question.find_first_not_of(" \t\r\n", at);
    const bool sentence_end =
        EndsSentence(word, next != std::string::npos && std::isupper(static_cast<unsigned char>(question[next])));
    const bool colon = !word.empty() && word.back() == ':';
    while (!word.empty() && std::string_view(".:)(\"'").find(word.back()) != std::string_view::npos) word.pop_back();
    while (!word.empty() && std::string_view("(\"'").find(word.front()) != std::string_view::npos) word.erase(0, 1);
    // "[CUDA memcpy HtoD]", "[CUDA memset]": nsys's label of a kind of memory operation is its words.
    if (!word.empty() && word.front() == '[') word.erase(0, 1);
    if (!word.empty() && word.back() == ']' && word.find('[') == std::string::npos) word.pop_back();
    // "kernel(s)": a noun with its plural said both ways is the plural.
    // (Its closing parenthesis is gone with the other closing marks above.)
    if (word.size() > 3 && word.compare(word.size() - 2, 2, "(s") == 0) word.replace(word.size() - 2, 2, "s");
    // A possessive is its noun: "GPU 1's kernel time", "cuFFT's kernels".
    for (std::string_view s : {"'s", "\u2019s"}) {
      if (word.size() > s.size() && word.compare(word.size() - s.size(), s.size(), s) == 0)
        word.erase(word.size() - s.size());
    }
    if (word == "-" || word == "--" || word == "\u2014" || word == "\u2013") {
      // "ampere_sgemm - how many times ...", "Teardown seems slow - how many ...": a dash between parts, which
      // opens what follows as a colon does.
      out.push_back({",", ",", false, true});
      out.back().colon = true;
    } else if (!word.empty()) {
      const size_t first = out.size();
      PushWord(out, word);
      for (size_t k = first; k < out.size(); ++k) out[k].paren = depth > 0;
    }
    if (sentence_end) out.push_back({".", ".", false, true});
    if (colon) {
      out.push_back({",", ",", false, true});  // "For process 12 only: how much ..."
      out.back().colon = true;
    }
    word.clear();
  };
  for (size_t i = 0; i < question.size(); ++i) {
    const char c = question[i];
    at = i;
    if ((c == '`' || c == '"' || (c == '\'' && (i == 0 || question[i - 1] == ' '))) && word.empty()) {
      const size_t close = question.find(c, i + 1);
      if (close != std::string::npos && close > i + 1) {
        const std::string inner = question.substr(i + 1, close - i - 1);
        out.push_back({inner, Lower(inner), true});
        out.back().paren = depth > 0;  // "(anything with 'fft' in the name)": a quoted name inside parentheses
        i = close;
        continue;
      }
    }
    if (c == '(' && word.empty()) {  // "foo(int)" stays one word; "(total bytes / time)" opens a parenthesis
      ++depth;
    } else if (c == ')' && depth > 0) {
      flush();
      --depth;
    } else if (c == ',' && !word.empty() && IsDigits(word) && i + 3 < question.size() &&
               std::isdigit(static_cast<unsigned char>(question[i + 1])) &&
               std::isdigit(static_cast<unsigned char>(question[i + 2])) &&
               std::isdigit(static_cast<unsigned char>(question[i + 3])) &&
               (i + 4 == question.size() || !std::isdigit(static_cast<unsigned char>(question[i + 4])))) {
      continue;  // "60,200,000,000 ns", "1,000 calls": a comma between thousands is no separator
    } else if (c == ',' || c == ';' || c == '?' || c == '!') {
      flush();
      out.push_back({std::string(1, c), std::string(1, c), false, true});
      out.back().paren = depth > 0 && (c == ',' || c == ';');  // "(GB/s, total bytes / time)" is one parenthesis
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else {
      word += c;
    }
  }
  at = question.size();
  flush();
  CopyKindsByNumber(out);
  SuffixesOfNames(out, said_of_names);
  MarksOfTheTimeline(out);
  NounsOneByOne(out);
  MostOfAnAdjective(out);
  FamilyPhrases(out);
  TakesAtTheEnd(out);
  CreatedByTheirCalls(out);
  return out;
}

enum class NameClass : uint8_t { kKernel, kApi, kNvtx };

// What starts at one position of the question.
struct Item {
  enum Kind : uint8_t { kLex, kName, kNumber, kSeparator, kUnknown } kind = kUnknown;
  std::vector<lexicon::Entry> entries;  // kLex: every entry of the phrase
  std::string name;                     // kName: the name as written
  std::vector<NameClass> classes;       // kName: the vocabularies it is in, the exact ones first
  double number = 0;
  std::string word;           // the words covered, as written
  bool exact = false;         // kName: the whole of a profile name, not a part of one
  bool paren = false;         // every word of it inside parentheses
  bool colon = false;         // kSeparator: written as a colon (read as a comma)
  bool describing = false;    // words before a name in parentheses that say what it is (NamedInParentheses)
  bool after_comma = false;   // a comma, dropped with the clause's separators (SplitClauses), stood right before it
  bool non = false;           // kName: said with "non-" before it ("the non-NCCL kernels"): every event but those
  bool defines_gaps = false;  // "between one kernel ending and the next starting": the gaps (GapsBetweenOneAndNext)
  std::string respelled;      // kLex: the lexicon word a misspelled word was read as (lexicon::SpellingOf)
  // Moments events mark, said as where a window starts or ends ("from the end of the MPI_Init range", "until the last
  // sample kernel ends"): ReadAnchors' items.
  std::optional<Anchor> origin_at, until_at;
  bool elapsed = false;  // the two moments are those of a time between them (Measure::kElapsed), not a window
  double profile_s = 0;  // kLex "last": the profile's length in seconds, for a window from its end (0: not known)
  bool Has(Slot s) const {
    return kind == kLex && std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.slot == s; });
  }
  uint8_t Value(Slot s) const {
    for (const auto& e : entries) {
      if (e.slot == s) return e.value;
    }
    return 0;
  }
  // Whether it says the measure `m` ("percentage": kShare).
  bool Says(Measure m) const { return Has(Slot::kMeasure) && Value(Slot::kMeasure) == static_cast<uint8_t>(m); }
};

// A place in time ("first" 1, "second" 2, "last" -1, "the later of the two" -1) at k, and the items it covers.
std::pair<int32_t, size_t> PlaceInTime(const std::vector<Item>& s, size_t k);

// An item read as the lexicon's `phrase`, standing for the words `word` of the question ("no" read as "idle").
Item LexItem(std::string_view phrase, std::string word) {
  return Item{Item::kLex, lexicon::EntriesOf(phrase), {}, {}, 0, std::move(word)};
}

// The words of items [from, to), as written, one space between.
std::string WordsOf(const std::vector<Item>& items, size_t from, size_t to) {
  std::string words;
  for (size_t k = from; k < to; ++k) {
    const bool comma = items[k].kind == Item::kSeparator && items[k].word == ",";  // "a, b", not "a , b"
    words += (words.empty() || comma ? "" : " ") + items[k].word;
  }
  return words;
}

// The items [from, end) of `s` become the one item `it`, returned where it stands.
Item& ReplaceItems(std::vector<Item>& s, size_t from, size_t end, Item it) {
  s.erase(s.begin() + static_cast<std::ptrdiff_t>(from), s.begin() + static_cast<std::ptrdiff_t>(end));
  return *s.insert(s.begin() + static_cast<std::ptrdiff_t>(from), std::move(it));
}

bool NamesAClass(const Item& it, NameClass c);  // a name of that class of events
bool JoinsASpan(const Item& it);                // "to", "until": between the two ends of a span or window

// Whether an item is one of `words` (lower case).
bool IsWordIn(const Item& it, std::initializer_list<std::string_view> words) {
  const std::string lower = Lower(it.word);
  return std::find(words.begin(), words.end(), lower) != words.end();
}

// "the", "this", "that", "our", "my": a word that points at one thing the question means ("the before profile", "this
// 2080 Ti").
bool IsDeterminer(const Item& it) {
  return IsWordIn(it, {"the", "this", "that", "our", "my"});
}

// The vocabularies (API calls, kernels, NVTX ranges, in that order) with at least `members` names that `is` holds.
template <typename Is>
std::vector<NameClass> ClassesWhere(const QueryVocabulary& v, size_t members, Is is) {
  std::vector<NameClass> out;
  const std::pair<const std::vector<std::string>*, NameClass> lists[] = {
      {&v.api, NameClass::kApi}, {&v.kernels, NameClass::kKernel}, {&v.nvtx, NameClass::kNvtx}};
  for (const auto& [names, cls] : lists) {
    size_t found = 0;
    for (auto n = names->begin(); n != names->end() && found < members; ++n) found += is(*n) ? 1 : 0;
    if (found >= members) out.push_back(cls);
  }
  return out;
}

// Whether `lower` occurs in `name` where a part of the name starts: at its start, after a character that is no letter
// or digit, or at a capital after a small letter ("cudaMemset": "cuda", "memset", not "set").
bool ContainsAtPartStart(std::string_view name, std::string_view lower) {
  const auto alnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  for (size_t at = 0; at + lower.size() <= name.size(); ++at) {
    const bool starts =
        at == 0 || !alnum(name[at - 1]) ||
        (std::isupper(static_cast<unsigned char>(name[at])) && std::islower(static_cast<unsigned char>(name[at - 1])));
    if (starts && std::equal(lower.begin(), lower.end(), name.begin() + static_cast<std::ptrdiff_t>(at),
                             [](char l, char n) { return l == std::tolower(static_cast<unsigned char>(n)); }))
      return true;
  }
  return false;
}

// The vocabularies a word is the whole name of (exact) or a fragment of. A fragment of three letters must start a
// part of the name: "set" is no fragment of cudaMemset, nor "sim" of a name that merely has those letters.
std::vector<NameClass> ClassesOf(const std::string& lower, const QueryVocabulary& v, bool exact) {
  return ClassesWhere(v, 1, [&](const std::string& n) {
    if (exact) return n.size() == lower.size() && ContainsNoCase(n, lower);
    return lower.size() <= 3 ? ContainsAtPartStart(n, lower) : ContainsNoCase(n, lower);
  });
}

// A family said with a placeholder: "layer_N_computation", "ensure_layer_*_weights", "block_<i>" become the name
// pattern "layer_*_computation" (a '*' for each placeholder part between '_', '-' or '.'); nullopt when the word has
// no placeholder or nothing else.
std::optional<std::string> PlaceholderPattern(std::string_view word) {
  // A word that holds '|' (a pattern's mark between alternatives) is no placeholder: read as written.
  if (word.find('|') != std::string_view::npos) return std::nullopt;
  std::string out;
  bool placeholder = false, named = false;
  size_t start = 0;
  for (size_t i = 0; i <= word.size(); ++i) {
    if (i < word.size() && std::string_view("_-.").find(word[i]) == std::string_view::npos) continue;
    const std::string part = Lower(word.substr(start, i - start));
    const bool hole = part == "n" || part == "i" || part == "k" || part == "x" || part == "#" || part == "*" ||
                      part == "<n>" || part == "{n}" || part == "<i>" || part == "{i}";
    out += hole ? "*" : std::string(word.substr(start, i - start));
    placeholder = placeholder || hole;
    named = named || (!hole && !part.empty());
    if (i < word.size()) out += word[i];
    start = i + 1;
  }
  if (!placeholder || !named) return std::nullopt;
  return out;
}

// The vocabularies in which a name pattern names a family: two names or more.
std::vector<NameClass> ClassesOfPattern(const std::string& pattern, const QueryVocabulary& v) {
  return ClassesWhere(v, 2, [&](const std::string& n) { return NamePatternMatches(n, pattern); });
}

// The words from `from` as the lexicon holds them (`canonical`: each token's lexicon::Canonical, found once).
std::string JoinCanonical(const std::vector<std::string>& canonical, size_t from, size_t n) {
  std::string out;
  for (size_t k = from; k < from + n; ++k) out += (k > from ? " " : "") + canonical[k];
  return out;
}

// The same words with each noun of a GPU ("gpus", "card", "devices") said as "gpu": a phrase of the lexicon said of
// the GPU ("waiting for the gpu") is the same phrase of the cards or devices.
std::vector<std::string> WithGpuNouns(std::vector<std::string> canonical) {
  for (std::string& w : canonical) {
    const auto entries = lexicon::EntriesOf(w);
    if (std::any_of(entries.begin(), entries.end(),
                    [](const lexicon::Entry& e) { return e.slot == Slot::kDeviceNoun; }))
      w = "gpu";
  }
  return canonical;
}

std::string Join(const std::vector<Token>& t, size_t from, size_t n, bool lower) {
  std::string out;
  for (size_t k = from; k < from + n; ++k) out += (k > from ? " " : "") + (lower ? t[k].lower : t[k].text);
  return out;
}

bool IsWordLike(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// "by base name", "the short names", "their mangled name": a word before "name" says which of an event's names is
// meant, and is no fragment of one.
bool NamesAKindOfName(const std::vector<Token>& t, size_t i) {
  const auto name = [&](size_t k) { return k < t.size() && (t[k].lower == "name" || t[k].lower == "names"); };
  // "by full demangled name": two such words before it.
  const auto kind = [&](size_t k) {
    return k < t.size() && (t[k].lower == "demangled" || t[k].lower == "mangled" || t[k].lower == "short" ||
                            t[k].lower == "base" || t[k].lower == "full" || t[k].lower == "complete");
  };
  return name(i + 1) || (kind(i + 1) && name(i + 2));
}

// A word that may change what a question asks ("wait", "layer", "step") is a part of a name only before a noun for
// events ("the step ranges", "the wait calls"): "the host waits in cudaEventSynchronize", "the TensorRT layer
// /maxpool/MaxPool" use it as a word.
bool MeaningWordUsedAsAWord(const std::vector<Token>& t, size_t i) {
  if (!lexicon::IsMeaningWord(t[i].lower)) return false;
  if (i + 1 >= t.size()) return true;
  const auto next = lexicon::EntriesOf(t[i + 1].lower);
  return std::none_of(next.begin(), next.end(), [](const lexicon::Entry& e) { return e.slot == Slot::kEvents; });
}

// "total bytes / total copy time": a slash between a size and a time (or a time and a count) divides; it joins
// nothing ("avg / min / max" is a list). Read as a plain word, which the definitions in parentheses take.
void DivisionsAreNoLists(std::vector<Item>& items) {
  const auto measures = [](const Item& it, bool size) {
    return std::any_of(it.entries.begin(), it.entries.end(), [&](const lexicon::Entry& e) {
      if (size) return e.slot == Slot::kMeasure && e.value == static_cast<uint8_t>(Measure::kBytes);
      return (e.slot == Slot::kWeakTotal && e.value == 1) ||
             (e.slot == Slot::kMeasure &&
              (e.value == static_cast<uint8_t>(Measure::kTotal) || e.value == static_cast<uint8_t>(Measure::kCount)));
    });
  };
  // "count / total bytes / total time": two slashes or more between figures make a list, whatever stands beside each.
  if (std::count_if(items.begin(), items.end(), [](const Item& it) { return it.word == "/"; }) >= 2) return;
  for (size_t i = 1; i + 1 < items.size(); ++i) {
    if (items[i].word != "/") continue;
    bool size_before = false, time_before = false, time_after = false, count_after = false;
    for (size_t k = i >= 3 ? i - 3 : 0; k < i; ++k) {
      size_before = size_before || measures(items[k], true);
      time_before = time_before || measures(items[k], false);
    }
    for (size_t k = i + 1; k < items.size() && k <= i + 3; ++k) {
      time_after = time_after || measures(items[k], false);
      count_after = count_after || Lower(items[k].word) == "count" || Lower(items[k].word) == "calls";
    }
    if ((size_before && time_after) || (time_before && count_after)) {
      items[i].kind = Item::kUnknown;
      items[i].entries.clear();
    }
  }
}

// A part of a name said in another form of the word:
//  - a plural: "GEMMs" names the kernels whose names contain "gemm";
//  - what does a thing, named by its verb before a noun for kernels: "the solver kernel" is the one whose name holds
//    "solve", "the reducer kernels" "reduce" ("longer kernels" is no name: a word of meaning never is).
// Not a verb's -ing or -ed form: "generated" says who made kernels ("the kernels nvFuser generated") more often than
// it names them, and an -ing form cost a never-read batch a right answer (2026-11-29).
std::optional<Item> NameByItsForm(const std::vector<Token>& t, size_t i, const QueryVocabulary& v) {
  const std::string& w = t[i].lower;
  const size_t n = w.size();
  std::vector<std::string> stems;
  if (w.back() == 's' && n >= 4) stems.push_back(w.substr(0, n - 1));
  const bool kernel_next = i + 1 < t.size() && (t[i + 1].lower == "kernel" || t[i + 1].lower == "kernels");
  if (n >= 6 && w.compare(n - 2, 2, "er") == 0 && kernel_next && !lexicon::IsMeaningWord(w))
    stems.insert(stems.end(), {w.substr(0, n - 1), w.substr(0, n - 2)});
  for (const std::string& stem : stems) {
    if (auto classes = ClassesOf(stem, v, false); !classes.empty())
      return Item{Item::kName, {}, t[i].text.substr(0, stem.size()), std::move(classes), 0, {}};
  }
  return std::nullopt;
}

// "cudaDeviceSyncronize": a word written as a name (an underscore, "::" or a capital after a small letter), of eight
// letters or more, that no name holds but one name of the profile is one letter away from (its version suffix
// aside), is that name misspelled. Two as near: no guess.
std::optional<Item> NameMisspelled(const Token& t, const QueryVocabulary& v) {
  const bool name_like =
      t.text.find('_') != std::string::npos || t.text.find("::") != std::string::npos ||
      std::adjacent_find(t.text.begin(), t.text.end(), [](char a, char b) {
        return std::islower(static_cast<unsigned char>(a)) && std::isupper(static_cast<unsigned char>(b));
      }) != t.text.end();
  if (!name_like || t.lower.size() < 8) return std::nullopt;
  std::optional<Item> found;
  const auto look = [&](const std::vector<std::string>& names, NameClass c) {
    for (const std::string& name : names) {
      const std::string lower = Lower(name);
      const std::string stem = lower.substr(0, std::min(lower.find("_v"), lower.size()));  // cudaMalloc_v3020
      const bool whole = lexicon::OneEditApart(t.lower, lower);
      if (!whole && !lexicon::OneEditApart(t.lower, stem)) continue;
      const std::string said = whole ? name : name.substr(0, stem.size());
      if (found && found->name != said) return false;  // two as near
      found = Item{Item::kName, {}, said, {c}, 0, {}, true};
      found->respelled = said;
    }
    return true;
  };
  if (!look(v.kernels, NameClass::kKernel) || !look(v.api, NameClass::kApi) || !look(v.nvtx, NameClass::kNvtx))
    return std::nullopt;
  return found;
}

// "duraton", "tiem": a word one edit from one lexicon word, and no name's, is that word misspelled.
std::optional<Item> LexiconWordMisspelled(const std::string& lower) {
  const std::string spelled = lexicon::SpellingOf(lower);
  if (spelled.empty()) return std::nullopt;
  auto entries = lexicon::EntriesOf(spelled);
  if (entries.empty()) entries = lexicon::EntriesOf(lexicon::Canonical(spelled));
  if (entries.empty()) return std::nullopt;
  Item item{Item::kLex, std::move(entries), {}, {}, 0, {}};
  item.respelled = spelled;
  return item;
}

// How many tokens from `i` say "rank N" or "MPI rank N" of an export of one CUDA process (0: none).
size_t OneRankOfOne(const std::vector<Token>& t, size_t i, const QueryVocabulary& v) {
  const size_t at = i + 1 < t.size() && t[i].lower == "mpi" ? i + 1 : i;
  if (v.traced_processes != 1 || t[at].lower != "rank" || at + 1 >= t.size() || !IsDigits(t[at + 1].lower)) return 0;
  return at + 2 - i;
}

// Whether quoted words name no name of the profile and only a kind of events or copies of the lexicon.
bool QuotedKindOfEvents(const std::string& lower, const QueryVocabulary& v) {
  const auto entries = lexicon::EntriesOf(lower);
  return !entries.empty() && ClassesOf(lower, v, false).empty() &&
         std::all_of(entries.begin(), entries.end(),
                     [](const lexicon::Entry& e) { return e.slot == Slot::kEvents || e.slot == Slot::kCopyKind; });
}

// The spellings a word of a CUDA call's name may take in speech: itself, its plural's singular ("stream
// synchronizes"), and the short and noun forms of the words NVIDIA's names use ("sync" and "synchronization" for
// Synchronize, "context" for Ctx).
std::vector<std::string> CallWordForms(const std::string& word) {
  static constexpr std::pair<std::string_view, std::string_view> kSpoken[] = {
      {"sync", "synchronize"}, {"synchronization", "synchronize"}, {"context", "ctx"}};
  std::vector<std::string> forms{word};
  if (word.size() > 3 && word.back() == 's' && word[word.size() - 2] != 's')
    forms.push_back(word.substr(0, word.size() - 1));
  for (size_t f = 0, n = forms.size(); f < n; ++f) {
    for (const auto& [spoken, named] : kSpoken) {
      if (forms[f] == spoken) forms.emplace_back(named);
    }
  }
  return forms;
}

// The verbs CUDA's runtime and driver call names end in ("cudaStreamSynchronize", "cudaEventRecord", "cuMemAlloc"):
// the last word of a call said in words.
bool EndsACallName(const std::string& form) {
  static constexpr std::string_view kVerbs[] = {"synchronize", "record", "query",  "create", "destroy", "malloc",
                                                "alloc",       "free",   "memcpy", "memset", "launch",  "wait"};
  return std::find(std::begin(kVerbs), std::end(kVerbs), form) != std::end(kVerbs);
}

// Every spelling of the tokens [i, i + n) joined, each word in one of its spoken forms (CallWordForms); none when one
// of them is no plain word (letters only; with `hyphens`, hyphens too, which the spelling drops). `last`, if given,
// keeps only the forms of the last word it accepts.
std::vector<std::string> SpokenSpellings(const std::vector<Token>& t, size_t i, size_t n, bool hyphens,
                                         bool (*last)(const std::string&)) {
  std::vector<std::string> joined{""};
  for (size_t k = i; k < i + n; ++k) {
    const bool letters = !t[k].lower.empty() && std::all_of(t[k].lower.begin(), t[k].lower.end(), [&](char c) {
      return std::isalpha(static_cast<unsigned char>(c)) || (hyphens && c == '-');
    });
    if (t[k].separator || t[k].quoted || !letters) return {};
    std::string plain = t[k].lower;
    std::erase(plain, '-');
    std::vector<std::string> longer;
    for (const std::string& so_far : joined) {
      for (const std::string& form : CallWordForms(plain)) {
        if (k + 1 < i + n || !last || last(form)) longer.push_back(so_far + form);
      }
    }
    joined = std::move(longer);
  }
  return joined;
}

// Every spelling "cuda" + two or three words ending in a call's verb could give ("stream syncs":
// "cudastreamsynchronize"): the names NameCandidates asks the profile for.
std::vector<std::string> CallsInWords(const std::vector<Token>& t) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.size(); ++i) {
    for (size_t n = 2; n <= 3 && i + n <= t.size(); ++n) {
      for (const std::string& spelling : SpokenSpellings(t, i, n, false, EndsACallName))
        out.push_back("cuda" + spelling);
    }
  }
  return out;
}

// A CUDA call said in words, as its name reads ("the stream-synchronize waits", "device synchronize calls", "memcpy
// async", "stream syncs"): two or three words from `i`, or one word of hyphenated parts, each in one of its spoken
// forms (CallWordForms), that NVIDIA's prefixes "cuda" or "cu" before them make the whole name of a call the profile
// traced. The item, and how many tokens it covers.
std::optional<std::pair<Item, size_t>> CudaCallInWords(const std::vector<Token>& t, size_t i,
                                                       const QueryVocabulary& v) {
  const auto traced = [&](const std::string& joined) -> const std::string* {
    for (std::string_view prefix : {"cuda", "cu"}) {
      const std::string name = std::string(prefix) + joined;
      // The whole name, NVIDIA's version suffix aside ("cudaStreamSynchronize_v3020").
      const auto api = std::find_if(v.api.begin(), v.api.end(), [&](const std::string& a) {
        const size_t suffix = a.find("_v");
        const size_t size = suffix != std::string::npos && suffix + 2 < a.size() &&
                                    std::all_of(a.begin() + static_cast<std::ptrdiff_t>(suffix) + 2, a.end(),
                                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })
                                ? suffix
                                : a.size();
        return size == name.size() && ContainsNoCase(a.substr(0, size), name);
      });
      if (api != v.api.end()) return &*api;
    }
    return nullptr;
  };
  for (size_t n = std::min<size_t>(3, t.size() - i); n >= 1; --n) {
    if (n < 2 && t[i].lower.find('-') == std::string::npos) continue;  // one word: of hyphenated parts
    for (const std::string& spelling : SpokenSpellings(t, i, n, true, nullptr)) {
      if (spelling.size() < 6) continue;
      if (const std::string* api = traced(spelling))
        return std::pair{Item{Item::kName, {}, *api, {NameClass::kApi}, 0, {}, true}, n};
    }
  }
  return std::nullopt;
}

// "longer than a millisecond", "over a second", "more than a megabyte": the article between a comparator and a unit
// is the number one. ("half a second" is kHalf's; "a second kernel" has no comparator before it.)
void ArticleBeforeAUnitIsOne(std::vector<Item>& items) {
  for (size_t i = 1; i + 1 < items.size(); ++i) {
    if (!IsWordIn(items[i], {"a", "an"}) || !items[i + 1].Has(Slot::kUnit)) continue;
    if (!items[i - 1].Has(Slot::kComparator) && !IsWordIn(items[i - 1], {"than", "within"})) continue;
    items[i].kind = Item::kNumber;
    items[i].entries.clear();
    items[i].number = 1;
  }
}

// "the second GPU", "the first device", "the last card": one of the GPUs the export lists, by its place among their
// ids (of devices 0 and 1, the second is device 1). Not a plural ("the first GPUs") and not before a kind of events
// or a noun ("the first GPU kernel" is a kernel, "the first GPU op" an op). The device's id, or nullopt.
std::optional<int32_t> DeviceByPlace(const std::vector<Token>& t, size_t i, const QueryVocabulary& v) {
  static constexpr std::string_view kPlaces[] = {"first", "second", "third",   "fourth",
                                                 "fifth", "sixth",  "seventh", "eighth"};
  if (i + 1 >= t.size() || v.device_ids.empty() || t[i + 1].separator) return std::nullopt;
  const auto has = [](const std::string& word, Slot slot) {
    const auto entries = lexicon::EntriesOf(word);
    return std::any_of(entries.begin(), entries.end(), [&](const lexicon::Entry& e) { return e.slot == slot; });
  };
  const std::string& noun = t[i + 1].lower;
  if (!has(noun, Slot::kDeviceNoun) || noun.back() == 's') return std::nullopt;
  // What follows is the question going on ("the second GPU (device 1)", "... on the second GPU?"), never a word the
  // noun makes a phrase with or an unknown word that a noun may be ("the first GPU op", "the first GPU function").
  if (i + 2 < t.size() && !t[i + 2].separator) {
    const std::string& next = t[i + 2].lower;
    if (lexicon::EntriesOf(next).empty() || has(next, Slot::kEvents) || !lexicon::EntriesOf(noun + " " + next).empty())
      return std::nullopt;
  }
  // "a second", "per second", "the first second", "2 seconds": a unit of time, not a place.
  static constexpr std::string_view kUnitBefore[] = {"a", "per", "one", "half", "first", "last", "every", "each"};
  if (i > 0 && (IsNumber(t[i - 1].lower) ||
                std::find(std::begin(kUnitBefore), std::end(kUnitBefore), t[i - 1].lower) != std::end(kUnitBefore)))
    return std::nullopt;
  const auto* place = std::find(std::begin(kPlaces), std::end(kPlaces), t[i].lower);
  const size_t index =
      t[i].lower == "last" ? v.device_ids.size() - 1 : static_cast<size_t>(place - std::begin(kPlaces));
  if (place == std::end(kPlaces) && t[i].lower != "last") return std::nullopt;
  if (index >= v.device_ids.size()) return std::nullopt;
  return v.device_ids[index];
}

// The kinds of work said before "calls" and the part of CUDA call names that holds them (CallsOfAKind).
constexpr std::pair<std::string_view, std::string_view> kCallKinds[] = {{"memcpy", "Memcpy"}, {"memcpys", "Memcpy"},
                                                                        {"memset", "Memset"}, {"memsets", "Memset"},
                                                                        {"malloc", "Malloc"}, {"mallocs", "Malloc"}};

// "memcpy calls", "the memset calls", "malloc calls": a kind of work said before "calls" is the CUDA calls whose name
// holds it (cudaMemcpyAsync, cuMemsetD32, cudaMalloc), when the profile traced such calls: the item of that part of
// their names, or nullopt.
std::optional<Item> CallsOfAKind(const std::vector<Token>& t, size_t i, const QueryVocabulary& v) {
  if (i + 1 >= t.size() || t[i].quoted || !(t[i + 1].lower == "call" || t[i + 1].lower == "calls")) return std::nullopt;
  for (const auto& [word, part] : kCallKinds) {
    if (t[i].lower != word) continue;
    const std::string lower = Lower(std::string(part));
    const bool traced = std::any_of(v.api.begin(), v.api.end(),
                                    [&](const std::string& a) { return Lower(a).find(lower) != std::string::npos; });
    if (!traced) return std::nullopt;
    return Item{Item::kName, {}, std::string(part), {NameClass::kApi}, 0, {}};
  }
  return std::nullopt;
}

// Long: the four readings of a position (whole name, phrase, fragment, number) in their order of precedence.
std::vector<Item> Classify(const std::vector<Token>& t, const QueryVocabulary& v) {
  std::vector<Item> items;
  std::vector<std::string> canonical;
  for (const Token& token : t) canonical.push_back(lexicon::Canonical(token.lower));
  const std::vector<std::string> as_gpu = WithGpuNouns(canonical);
  for (size_t i = 0; i < t.size();) {
    Item item;
    size_t used = 1;
    if (t[i].separator) {
      item.kind = Item::kSeparator;
    } else if (const size_t rank = OneRankOfOne(t, i, v)) {
      // "rank 0", "MPI rank 0" of a one-process export: the recording itself, as "this run" is.
      item = LexItem("here", "");
      used = rank;
    } else if (const auto device = DeviceByPlace(t, i, v)) {
      // "the second GPU": the device noun, then its id as if written ("GPU 1").
      Item noun = LexItem(t[i + 1].lower, t[i + 1].text);
      noun.paren = t[i + 1].paren;
      items.push_back(std::move(noun));
      item.kind = Item::kNumber;
      item.number = *device;
      used = 2;
    } else if (t[i].quoted && QuotedKindOfEvents(t[i].lower, v)) {
      // "one 'memory fill' operation", "the 'unified memory' thing": words in quotes that name nothing of the profile
      // but a kind of events of the lexicon are that kind, quoted as a newcomer quotes a term ("'idle'" stays a word
      // defined, not read).
      item = Item{Item::kLex, lexicon::EntriesOf(t[i].lower), {}, {}, 0, {}};
    } else if (t[i].quoted) {
      item.kind = Item::kName;
      item.name = t[i].text;
      item.classes = ClassesOf(t[i].lower, v, true);
      item.exact = !item.classes.empty();
      if (!item.exact) item.classes = ClassesOf(t[i].lower, v, false);
    } else if (t[i].family) {
      // Stays a plain word: ReadFamilyWord reads it as the decoder's family (FamilyPhrases).
    } else if (auto call = CudaCallInWords(t, i, v)) {
      item = std::move(call->first);
      used = call->second;
    } else if (auto calls = CallsOfAKind(t, i, v)) {
      item = std::move(*calls);
    } else {
      // A whole profile name of up to four words, unless it is one lexicon word.
      for (size_t n = std::min<size_t>(4, t.size() - i); n >= 1 && item.kind == Item::kUnknown; --n) {
        const std::string lower = Join(t, i, n, true);
        if (n == 1 && (!lexicon::EntriesOf(lower).empty() || lower.size() < 3)) continue;
        if (auto classes = ClassesOf(lower, v, true); !classes.empty() && IsWordLike(lower)) {
          item = Item{Item::kName, {}, Join(t, i, n, false), std::move(classes), 0, {}, true};
          used = n;
        }
      }
      // A phrase as written, else as its words' synonyms and base forms say it (lexicon::Canonical): "the longest
      // idle stretch" is "the longest idle gap", "summing" is "sum".
      for (size_t n = std::min(kMaxPhraseWords, t.size() - i); n >= 1 && item.kind == Item::kUnknown; --n) {
        auto entries = lexicon::EntriesOf(Join(t, i, n, true));
        if (entries.empty()) entries = lexicon::EntriesOf(JoinCanonical(canonical, i, n));
        const auto at = static_cast<std::ptrdiff_t>(i);
        if (entries.empty() && n >= 3 &&
            !std::equal(as_gpu.begin() + at, as_gpu.begin() + at + static_cast<std::ptrdiff_t>(n),
                        canonical.begin() + at))
          entries = lexicon::EntriesOf(JoinCanonical(as_gpu, i, n));
        if (!entries.empty()) {
          item = Item{Item::kLex, std::move(entries), {}, {}, 0, {}};
          used = n;
        }
      }
      if (const auto power = item.kind == Item::kUnknown ? PowerOfTen(t[i].lower) : std::nullopt) {
        item.kind = Item::kNumber;  // "10^9 bytes"
        item.number = *power;
      } else if (item.kind == Item::kUnknown && IsNumber(t[i].lower)) {
        item.kind = Item::kNumber;
        item.number = std::strtod(t[i].lower.c_str(), nullptr);  // never throws; 1e400 digits read as inf
      } else if (const auto pattern = item.kind == Item::kUnknown ? PlaceholderPattern(t[i].text) : std::nullopt) {
        if (auto classes = ClassesOfPattern(*pattern, v); !classes.empty())
          item = Item{Item::kName, {}, *pattern, std::move(classes), 0, {}};
      } else if (item.kind == Item::kUnknown && t[i].lower.size() >= 3 && IsWordLike(t[i].lower) &&
                 !NamesAKindOfName(t, i) && !MeaningWordUsedAsAWord(t, i)) {
        if (auto classes = ClassesOf(t[i].lower, v, false); !classes.empty()) {
          item = Item{Item::kName, {}, t[i].text, std::move(classes), 0, {}};
        } else if (auto formed = NameByItsForm(t, i, v)) {
          item = std::move(*formed);
        } else if (auto misspelled = NameMisspelled(t[i], v)) {
          item = std::move(*misspelled);
        }
      }
    }
    if (item.kind == Item::kUnknown) {
      if (auto spelled = LexiconWordMisspelled(t[i].lower)) item = std::move(*spelled);
    }
    // "the non-NCCL kernels", "non-gemm time": a name of the profile after "non-" names the events left out.
    if (item.kind == Item::kUnknown && t[i].lower.rfind("non-", 0) == 0 && t[i].lower.size() > 6 && !t[i].quoted) {
      if (auto classes = ClassesOf(t[i].lower.substr(4), v, false); !classes.empty()) {
        item = Item{Item::kName, {}, t[i].text.substr(4), std::move(classes), 0, {}};
        item.non = true;
      }
    }
    item.word = Join(t, i, used, false);
    if (item.Has(Slot::kLast)) item.profile_s = v.length_s;
    item.colon = t[i].separator && t[i].colon;
    item.paren = std::all_of(t.begin() + static_cast<std::ptrdiff_t>(i),
                             t.begin() + static_cast<std::ptrdiff_t>(i + used), [](const Token& k) { return k.paren; });
    items.push_back(std::move(item));
    i += used;
  }
  DivisionsAreNoLists(items);
  ArticleBeforeAUnitIsOne(items);
  return items;
}

// Starts a new question: a measure, "which", "how", "what", an auxiliary opening a yes/no question, or "are there",
// "any" opening one ("On GPU 0, are there any kernels?", "Quick one: any copies over 1 MB?"; "some" opens statements
// as often: "Some frames are slow.").
bool StartsQuestion(const Item& it) {
  if (it.kind != Item::kLex) return false;
  return it.Has(Slot::kMeasure) || it.Has(Slot::kWeakTotal) || it.Has(Slot::kWhich) || it.Has(Slot::kAuxiliary) ||
         (it.Has(Slot::kAny) && Lower(it.word) != "some") || Lower(it.word) == "how" || Lower(it.word) == "what" ||
         Lower(it.word) == "whats";
}

// Clauses: split at a separator or "and"/"also" when a new question starts after it (skipping stop words).
std::vector<std::vector<Item>> SplitClauses(std::vector<Item> items) {
  // starts[i]: a new question starts at i or after the stop words from i on (one backward pass, so linear).
  std::vector<bool> starts(items.size() + 1, false);
  for (size_t i = items.size(); i-- > 0;) {
    starts[i] = StartsQuestion(items[i]) || (items[i].Has(Slot::kStop) && starts[i + 1]);
  }
  std::vector<std::vector<Item>> out(1);
  // "On average, how long does ...": a lead-in of a statistic alone is said of the question after its comma.
  // "kernel count and total kernel time per stream": a noun phrase of statistics (events nouns may name what they
  // are of) joins the list too.
  // Not a question of its own ("how many kernels ran in total, which one was the longest?").
  const auto measures_only = [&] {
    const std::vector<Item>& c = out.back();
    const bool asks = std::any_of(c.begin(), c.end(), [](const Item& it) {
      const std::string w = Lower(it.word);
      return it.Has(Slot::kWhich) || w.rfind("how", 0) == 0 || w.rfind("what", 0) == 0;
    });
    return !asks && std::any_of(c.begin(), c.end(), [](const Item& it) { return it.Has(Slot::kMeasure); }) &&
           std::all_of(c.begin(), c.end(), [](const Item& it) {
             return it.Has(Slot::kMeasure) || it.Has(Slot::kStop) || it.Has(Slot::kEvents);
           });
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const bool sep = items[i].kind == Item::kSeparator || items[i].Has(Slot::kSplit);
    const bool next_starts = starts[i + 1];
    // Not before a yes/no question, which its opening word makes one ("On average, is X slower than Y?").
    const bool yes_no_next = i + 1 < items.size() && items[i + 1].Has(Slot::kAuxiliary);
    // "count and total bytes for X vs Y": a list of statistics alone, joined by "and", is said of what follows.
    const bool comma = items[i].kind == Item::kSeparator && items[i].word == ",";
    // Not before a question of its own ("how many threads per block, and how long did it run"): only a statistic
    // said bare ("count and total bytes") joins the list.
    const bool bare_next = i + 1 < items.size() && Lower(items[i + 1].word).rfind("how", 0) != 0 &&
                           Lower(items[i + 1].word).rfind("what", 0) != 0 &&
                           (items[i + 1].Has(Slot::kMeasure) || items[i + 1].Has(Slot::kWeakTotal));
    const bool joins = (comma && out.size() == 1) || (!comma && Lower(items[i].word) == "and" && bare_next);
    if (joins && measures_only() && !yes_no_next) continue;
    // "(both GPUs, summed durations)": a comma inside parentheses joins their words, never two questions.
    if (sep && !items[i].paren && (next_starts || (items[i].kind == Item::kSeparator && items[i].word != ","))) {
      if (!out.back().empty()) out.emplace_back();
      continue;
    }
    if (items[i].kind == Item::kSeparator) {
      if (i + 1 < items.size() && items[i].word == ",") items[i + 1].after_comma = true;
      continue;
    }
    out.back().push_back(std::move(items[i]));
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

// The slots one clause fills, before defaults and inheritance.
struct Clause {
  std::vector<Measure> measures;
  // No later clause named the events ("what is the mean launch delay?"): a measure of kernel launches is of kernels.
  bool last_chance = false;
  bool weak_total = false, weak_time = false;
  std::optional<EventKind> events, versus_events;
  bool range_noun = false;
  std::string copy_kind, versus_copy_kind;
  std::vector<std::pair<std::string, std::vector<NameClass>>> names, versus_names;
  std::string inside;
  std::vector<int32_t> devices, versus_devices;
  std::vector<uint32_t> pids, versus_pids;
  int32_t stream = -1, versus_stream = -1;
  // The launch relation (Scope::launched_by, launches): "kernels launched through cuLaunchKernelEx" (and the other
  // side's call, "vs cudaLaunchKernel"), "the cudaLaunchKernel calls that launched trsm_right_kernel".
  std::string launched_by, versus_launched_by, launches;
  std::string versus_memory;      // "pinned vs pageable": the other side's host memory kind
  std::string cause;              // "migrations caused by page faults": why unified memory migrated
  std::string versus_cause;       // "page faults versus speculative prefetch": the other side's cause
  bool each_side = false;         // "on each", "for both": the sides of a comparison said before
  bool each_of_them = false;      // "each of them": groups or sides said before, which the Query must hold
  bool launches_pointed = false;  // "the calls that launched them": the kernels the Query before named
  bool inside_pointed = false;    // "inside it", "inside them": inside the ranges the Query before named
  bool margin = false;            // "by how much", "how much more": the margin of two
  std::optional<GroupBy> group;
  Rank rank = Rank::kNone;
  int32_t limit = 0;
  bool which = false, versus = false, less = false, yes_no = false;
  bool gpu_time = false;               // "GPU time": a share is of every kernel, copy and memset
  bool plural = false;                 // "which kernels": a list, not one
  bool rank_by_count = false;          // "most kernels": ranked by how many
  bool rank_by_measure = false;        // "the slowest kernel": ranked by that statistic
  std::optional<Measure> superlative;  // kMax or kMin said as "longest", "slowest", "shortest", "fastest"
  bool rank_by_weight = false;         // "the top kernel", "the heaviest": ranked by the time taken unless "by" says
  bool by_measure = false;             // a measure said after "by" ("top 3 kernels by grid size")
  bool by_total = false;               // "by total time", "by time": the total ranks, whatever else is asked
  bool listing = false;                // "list the kernels that ...": a list is asked, never a yes or no
  std::optional<Measure> by_which;     // the measure said after "by" ("busiest by kernel count"): it ranks
  bool count_share = false;  // "what percentage of all kernel launches": a share of how many, not of their time
  bool byte_share = false;   // "what percentage of all bytes copied": a share of the bytes, not of the time
  bool gpu_span = false;  // "the GPU span", "the GPU's span": of every GPU op (kernels, copies, memsets), unless named
  uint8_t span_base = 0;  // the span a share is of: 1 "what percentage of the GPU span", 2 "how much of the span"
  int idle_said = 0;      // how many times a word for idle time is said ("idle time and idle pct of the span": twice)
  bool superlative_one = false;         // "the shortest one": of the events, or the names ranked, said before
  bool after_a_sentence = false;        // the Query before it was built in a sentence before this clause's
  bool single_event = false;            // "the longest single execution": names ranked by their one extreme event
  bool widens = false;                  // "overall", "all", "whole": no scope kept from the clause before
  std::optional<GroupBy> count_groups;  // "how many GPUs": the number of groups
  std::optional<double> from_s, to_s;
  std::string api_class;           // "syncs", "allocations": a kind of CUDA call
  std::vector<std::string> exact;  // names said whole (a kernel's, a call's, a range's name, not a part of one)
  bool compare = false;            // "compare A and B"
  std::optional<size_t> number_before_noun;  // "the 3 kernels": a limit, when the clause ranks
  int64_t longer_than_ns = -1, shorter_than_ns = -1, larger_than_bytes = -1, smaller_than_bytes = -1;
  std::string memory;                   // "pageable copies": the kind of host memory
  bool any = false;                     // "are there any ...": whether the count is above 0
  bool rank_by_size = false;            // "the largest copy": copies ranked by their size
  bool limit_listed = false;            // the limit was said before a ranked noun ("the 5 longest copies")
  uint8_t gpu_kinds = 0;                // bits of the GPU kinds named (kernels 1, copies 2, memsets 4)
  std::optional<double> threshold;      // "is X more than half of ...": the first measure against a value
  std::optional<Measure> threshold_of;  // the measure the threshold is of (share, total, count)
  bool threshold_below = false;         // "less than", "under": yes when below
  std::vector<size_t> names_at;         // the item index of each of `names`
  bool wall = false;                    // "wall time": the time of what encloses, on the host's clock
  bool which_one = false;               // "which one", "which of them": the group is a noun said before
  bool which_events = false;            // "which kernel", "which call", "which range": "which" ranks events by name
  std::optional<GroupBy> noun;          // the first noun of a GPU, process, stream or range the clause says
  bool noun_plural = false;             // that noun is plural: "the two processes", "across GPUs"
  bool points_back = false;             // "its launches", "their time", "those kernels": the events said before
  bool it = false;                      // "does it account for": "it", the one subject said before
  bool running = false;        // "running", "executing": with a share of the span, the busy share (utilization)
  bool gap_phrase = false;     // the gaps said as "from one kernel ending to the next starting" (GapsBetweenOneAndNext)
  bool launch_noun = false;    // "launches": kernels, or the calls that launched them said before
  bool time_noun = false;      // "duration", "run time": a time said as a noun
  bool share_of_sum = false;   // "+" or "plus" between two nouns for events ("kernel + memcpy")
  bool inside_those = false;   // "kernels launched inside those ranges": inside the ranges the Query before named
  bool share_of_that = false;  // "what percentage is that of the time in X": a share of a base the question names
  size_t share_of_at = 0;      // with it: the item index of that "of"; what follows it is the base
  size_t inside_at = 0;        // the item index of `inside`
  size_t range_noun_at = 0;    // the item index of the first noun of ranges
  bool own_range_noun = false;        // a noun of ranges said in this clause, not lent
  bool nested = false;                // "nested": inside a range, which must be said
  bool inside_lent = false;           // `inside` is a clause's before ("Inside X, how many ranges ...")
  bool share_form = false;            // the base names events of its own: the first side as a percentage of it (kShare)
  std::optional<GroupBy> that_group;  // "on that card": the GPU, process or stream a ranking before found
  std::optional<Measure> versus_measure, versus_partner;  // "fewer blocks than SMs": SMs, against blocks
  bool from_first_kernel = false;                         // "after the first kernel starts": the window's origin
  bool capture_clock = false;           // "into the capture": the window's seconds are on the capture clock (Scope)
  bool window_from_end = false;         // "the last 200 ms": a window counted back from the profile's end
  std::optional<Anchor> origin, until;  // "from the end of the MPI_Init range", "until the last copy ends"
  int32_t nth = 0;                      // "the second Model range": one event by start (Subject::nth)
  int32_t versus_nth = 0;               // "the first and the last memcpy": the other side's one event
  int32_t skip = 0;                     // "ignoring the first (warm-up) one": those left out (Subject::skip)
  bool position_by_measure = false;     // "the third kernel by total time": the place is in a ranking by it
  bool belief = false;                  // a scene that says what someone believes ("I think pid 1679 did more")
  bool elapsed = false;                 // "how long after X ends does Y start": the time between two moments
  bool window_after_origin = false;     // "in the next 100 ms": the window needs an origin (from_first_kernel)
  bool faster = false, slower = false;  // words of speed: of a rate (bandwidth), faster is the larger
  bool every = false;               // "all", "every", "total", "overall": the whole kind, not the events said before
  bool bare_calls = false;          // the events said only as "calls": a named kernel's or range's, after one
  bool than = false;                // "than" said (not "vs" or "or", which may set two measures side by side)
  bool per_unit = false;            // "size per migration", "time per copy": the events named after "per" only
  int32_t position = 0;             // "the second one", "the third largest": a place in a ranking, from 2
  bool kinds_side_by_side = false;  // "HtoD and DtoH": two copy kinds, the second the other side
  bool sum_names = false;           // "X + Y", "X and Y together": one subject, any of the names
  bool listed_names = false;        // "which of X, Y and Z": one subject, any of the names, each its own row
  // Names left out ("excluding NCCL", "other than cudaLaunchKernel") and ranges the events are outside ("outside the
  // warmup range"): ReadExclusions.
  struct Excluded {
    std::string name;
    std::vector<NameClass> classes;
    bool outside = false;  // said as a place ("outside", "not inside"), not as names left out
  };
  std::vector<Excluded> excluded;
  bool base_names = false;             // "by base name", "(short name)": kernels by their base name
  bool sides_lent = false;             // a clause before lent it two copy kinds side by side
  std::vector<std::string> not_held;   // words for what no Query measures (Reading::not_held)
  std::vector<std::string> described;  // plain words taken as describing the named events (Reading::described)
  std::vector<std::string> whose;      // a library's name beside a name ("NCCL SendRecv"): described, in any clause
  std::vector<std::string> of_ranges;  // "layer" beside a range noun or name (LayerOfARange): described, in any clause
  std::string family;                  // kernels of a family the decoder knows ("the FlashAttention forward kernel")
  std::string versus_family;           // the other side's family ("the attention kernels vs the GEMMs")
  std::optional<double> factor;        // "more than double", "more than 20 times": the second side times this
  std::vector<std::string> unread;
};

// Takes the clause's name `n` out of its names, with its position.
void DropName(Clause& c, size_t n) {
  c.names.erase(c.names.begin() + static_cast<std::ptrdiff_t>(n));
  c.names_at.erase(c.names_at.begin() + static_cast<std::ptrdiff_t>(n));
}

// What one of a kUnit's values is in ns (1 s, 2 ms, 3 us, 4 ns, 5 min) or bytes (11 B, 12 KB, 13 MB, 14 GB; 15 KiB,
// 16 MiB, 17 GiB).
double UnitFactor(uint8_t unit) {
  switch (unit) {
    case 15:
      return 1024.0;
    case 16:
      return 1024.0 * 1024.0;
    case 17:
      return 1024.0 * 1024.0 * 1024.0;
    case 5:
      return 60e9;
    case 1:
    case 14:
      return 1e9;
    case 2:
    case 13:
      return 1e6;
    case 3:
    case 12:
      return 1e3;
    default:
      return 1;
  }
}

// A unit of time (kUnit's values 1 to 5: s, ms, us, ns, min).
bool IsTimeUnit(const Item& it) {
  return it.Has(Slot::kUnit) && it.Value(Slot::kUnit) >= 1 && it.Value(Slot::kUnit) <= 5;
}

// A bound on each event: [comparator] [than] NUMBER UNIT ("longer than 100 us", "over 5 ms", "larger than 1 MB").
// Marks the words it reads; they take no other slot.
// "copies of 100 MB or more", "kernels of 1 ms or longer", "10 us or less": a bound said after its quantity at u (the
// unit), inclusive: the exclusive bound one unit of the clock or of bytes below (above) it. Marks the words it reads.
bool ReadBoundSaidAfter(const std::vector<Item>& items, size_t u, Clause& c, std::vector<bool>& read) {
  if (u + 2 >= items.size() || !IsWordIn(items[u + 1], {"or", "and"})) return false;
  const bool up = IsWordIn(items[u + 2], {"more", "larger", "bigger", "longer", "above", "greater", "up", "over"});
  const bool down = IsWordIn(items[u + 2], {"less", "smaller", "shorter", "below", "fewer", "under"});
  if (!up && !down) return false;
  const bool bytes = IsWordIn(items[u], {"bytes", "byte"});
  const uint8_t unit = bytes ? 11 : items[u].Value(Slot::kUnit);
  const double v = items[u - 1].number * UnitFactor(unit);
  if (!std::isfinite(v) || v < 1 || v > 1e18) return false;
  int64_t& bound =
      unit < 10 ? (up ? c.longer_than_ns : c.shorter_than_ns) : (up ? c.larger_than_bytes : c.smaller_than_bytes);
  bound = static_cast<int64_t>(v) + (up ? -1 : 1);
  read[u - 1] = read[u] = read[u + 1] = read[u + 2] = true;
  return true;
}

void ReadBounds(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  for (size_t u = 1; u < items.size(); ++u) {
    // "more than 10^6 bytes": the noun after a number is its unit, as "B" is.
    const bool bytes = IsWordIn(items[u], {"bytes", "byte"});
    if (read[u] || !(items[u].Has(Slot::kUnit) || bytes) || items[u - 1].kind != Item::kNumber) continue;
    size_t k = u - 1;
    size_t than = items.size();
    if (k >= 1 && Lower(items[k - 1].word) == "than") than = --k;
    if (ReadBoundSaidAfter(items, u, c, read)) continue;
    // "within 50 ms of the first kernel": "within" bounds from above, before an origin.
    const bool within = k >= 1 && IsWordIn(items[k - 1], {"within"}) && u + 1 < items.size() &&
                        items[u + 1].Has(Slot::kFromFirstKernel);
    if (k < 1 || !(items[k - 1].Has(Slot::kComparator) || within)) continue;
    const size_t comparator = k - 1;
    const uint8_t unit = bytes ? 11 : items[u].Value(Slot::kUnit);
    const double v = items[u - 1].number * UnitFactor(unit);
    if (!std::isfinite(v) || v < 0 || v > 1e18) continue;
    const bool up = !within && items[comparator].Value(Slot::kComparator) == 1;
    // "started more than 1 s after the first kernel", "within 50 ms of the first kernel": a bound on when each starts,
    // counted from the origin after it: the window from that time on, or up to it.
    if (unit < 10 && u + 1 < items.size() && items[u + 1].Has(Slot::kFromFirstKernel)) {
      c.from_s = up ? v / 1e9 : 0.0;
      if (!up) c.to_s = v / 1e9;
      read[u] = read[u - 1] = read[comparator] = true;
      if (than < items.size()) read[than] = true;
      continue;
    }
    int64_t& bound =
        unit < 10 ? (up ? c.longer_than_ns : c.shorter_than_ns) : (up ? c.larger_than_bytes : c.smaller_than_bytes);
    bound = static_cast<int64_t>(v);
    read[u] = read[u - 1] = read[comparator] = true;
    if (than < items.size()) read[than] = true;
    // "lasted more than 10 ms", "took longer than 1 ms": the verb of time is the bound's, not a total asked for.
    if (comparator > 0 && items[comparator - 1].Has(Slot::kWeakTotal) &&
        items[comparator - 1].Value(Slot::kWeakTotal) == 1)
      read[comparator - 1] = true;
  }
}

void AddMeasure(Clause& c, Measure m) {
  if (std::find(c.measures.begin(), c.measures.end(), m) == c.measures.end()) c.measures.push_back(m);
}

// The quantity after a comparator: a fraction in words ("half"), a percentage, a time or a plain number. The measure
// it is of, its value in that measure's unit, and how many items it takes; nullopt when none follows.
struct Quantity {
  Measure of;
  double value;
  size_t items;
};
std::optional<Quantity> QuantityAt(const std::vector<Item>& items, size_t j) {
  if (j >= items.size()) return std::nullopt;
  const auto unit_at = [&](size_t k) { return k < items.size() && items[k].Has(Slot::kUnit); };
  if (items[j].Has(Slot::kHalf)) {
    // "half a second" is a time; "half of the kernel time" a share.
    if (Lower(items[j].word) == "half" && j + 2 < items.size() && Lower(items[j + 1].word) == "a" && unit_at(j + 2)) {
      const uint8_t unit = items[j + 2].Value(Slot::kUnit);
      if (unit < 10) return Quantity{Measure::kTotal, 0.5 * UnitFactor(unit), 3};
    }
    return Quantity{Measure::kShare, static_cast<double>(items[j].Value(Slot::kHalf)), 1};
  }
  if (Lower(items[j].word) == "one") return Quantity{Measure::kCount, 1, 1};  // "more than one thread block"
  if (items[j].kind != Item::kNumber || !std::isfinite(items[j].number) || items[j].number < 0) return std::nullopt;
  const double v = items[j].number;
  if (j + 1 < items.size() && (items[j + 1].word == "%" || Lower(items[j + 1].word) == "percent"))
    return Quantity{Measure::kShare, v, 2};
  // "above 20 GB/s": a rate, in GB/s (the unit of a Query's bandwidth).
  if (j + 1 < items.size() && IsWordIn(items[j + 1], {"gb/s", "gbps", "gb/sec"}))
    return Quantity{Measure::kBandwidth, v, 2};
  if (unit_at(j + 1)) {
    const uint8_t unit = items[j + 1].Value(Slot::kUnit);
    if (unit >= 10) return std::nullopt;  // sizes: a bound on each copy (ReadBounds)
    return Quantity{Measure::kTotal, v * UnitFactor(unit), 2};
  }
  return Quantity{Measure::kCount, v, 1};
}

// Where a yes/no question opens in a clause: after "and", "but", "so" and a heading before a colon ("Slowest
// cudaMemsetAsync on the host: is it over 5 ms?").
size_t QuestionOpensAt(const std::vector<Item>& items) {
  size_t at = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].kind == Item::kSeparator && items[k].colon) at = k + 1;
  }
  while (at < items.size() && IsWordIn(items[at], {"and", "but", "so", "also"})) ++at;
  return at;
}

// "is it", "are they", "was that": an auxiliary and a word pointing back, one phrase of the lexicon or two words.
bool AsksOfWhatWasSaid(const std::vector<Item>& items, size_t k) {
  if (k < items.size() && IsWordIn(items[k], {"is it", "are they", "was it", "were they", "is that", "does it",
                                              "do they", "did it", "did they", "is this"}))
    return true;
  return k + 1 < items.size() && items[k].Has(Slot::kAuxiliary) &&
         IsWordIn(items[k + 1], {"it", "that", "this", "they", "those", "these"});
}

// Whether the question, from where it opens, points back at what was said ("is it", "are they").
bool PointsBackAsking(const std::vector<Item>& items) {
  for (size_t k = QuestionOpensAt(items); k < items.size(); ++k) {
    if (AsksOfWhatWasSaid(items, k)) return true;
  }
  return false;
}

// "is it over 5 ms?", "are they averaging under 15 us each?", "is the slowest one past 4 s?": a yes/no question whose
// subject is a word pointing back ("it", "that", "they": `points`) or that names a statistic of the events (an
// average, a median, the longest): a bound there is on that figure.
bool OfAFigure(const std::vector<Item>& items, bool points) {
  const bool statistic = std::any_of(items.begin(), items.end(), [](const Item& it) {
    return it.Says(Measure::kAverage) || it.Says(Measure::kMedian) || it.Says(Measure::kMax) ||
           it.Says(Measure::kMin) || it.Says(Measure::kP90) || it.Says(Measure::kP95) || it.Says(Measure::kP99);
  });
  return points || statistic;
}

// A threshold on the whole: "is X more than half of the kernel time", "is more than 100 ms going into MPI_Recv",
// "more than 1,000 times". A share is always of the whole; a time or a count only in a yes/no question that counts
// nothing ("how many kernels took more than 1 ms" bounds each kernel: ReadBounds). Marks the words it reads.
void ReadThreshold(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  const size_t opens = QuestionOpensAt(items);
  const bool points = PointsBackAsking(items);
  const bool yes_no =
      points || (opens < items.size() && (items[opens].Has(Slot::kAuxiliary) || items[opens].Has(Slot::kAny)));
  const bool of_a_figure = OfAFigure(items, points);
  const bool counts = std::any_of(items.begin(), items.end(), [](const Item& it) {
    return it.Has(Slot::kAny) || (it.Says(Measure::kCount) && Lower(it.word) != "often");
  });
  // "more than half of the copied bytes", "most of the copy volume", "of the copy time": the base of the share, the
  // bytes' (not the time's) where it says bytes; its measure word is the base, no figure asked of its own.
  const auto read_the_base = [&](size_t from) {
    for (size_t k = from; k < items.size() && k < from + 5; ++k) {
      const bool time = items[k].Has(Slot::kWeakTotal) || items[k].Says(Measure::kTotal);
      if (!items[k].Says(Measure::kBytes) && !time) continue;
      c.byte_share = c.byte_share || items[k].Says(Measure::kBytes);
      read[k] = true;
      return;
    }
  };
  for (size_t i = 0; i + 1 < items.size(); ++i) {
    // As the lexicon holds it: "beat", "surpass" are "exceed".
    const std::string w = lexicon::Canonical(Lower(items[i].word));
    // "Is most of the copy volume going host-to-device?": in a yes/no question, more than half of it.
    if (yes_no && (w == "most of" || (w == "most" && IsWordIn(items[i + 1], {"of"})))) {
      c.threshold = 50;
      c.threshold_of = Measure::kShare;
      read[i] = true;
      read_the_base(i + 1);
      return;
    }
    // "did MPI_Init take longer than half a second": in a yes/no question that counts nothing, a duration compared
    // is the whole's.
    const bool above = w == "more" || w == "over" || w == "above" || w == "at least" || w == "exceed" ||
                       w == "exceeds" || w == "longer" || w == "past" || w == "north of";
    const bool below = w == "less" || w == "under" || w == "below" || w == "at most" || w == "fewer" ||
                       w == "shorter" || w == "south of";
    if (!above && !below) continue;
    const size_t j = i + 1 < items.size() && Lower(items[i + 1].word) == "than" ? i + 2 : i + 1;
    if (j < items.size() && read[j]) continue;  // "more than 20 times the kernel time": a factor (ReadFactor)
    const std::optional<Quantity> q = QuantityAt(items, j);
    if (!q) continue;
    // "over 5 ms", "under 1 ms", "exceeds 2 ms" bound each event; "more than 100 ms in total" the whole, and so
    // does any of them said of a figure: "Slowest cudaMemsetAsync: is it over 5 ms?", "are they averaging under 15
    // us?" (a yes/no question that points back with "it", "that" or "they", or names a statistic).
    const bool each = (w == "over" || w == "under" || w == "above" || w == "below" || w == "exceed" || w == "exceeds" ||
                       w == "past") &&
                      !of_a_figure;
    // A share or a rate is of the whole (no Query bounds each copy's rate).
    if (q->of != Measure::kShare && q->of != Measure::kBandwidth && (!yes_no || counts || each)) continue;
    c.threshold = q->value;
    c.threshold_of = q->of;
    c.threshold_below = below;
    for (size_t k = i; k < j + q->items; ++k) read[k] = true;
    if (q->of == Measure::kShare) read_the_base(j + q->items);
    return;
  }
}

// A number right after position i (skipping '#', "number", "no."), or nullopt; marks it read.
std::optional<double> NumberAfter(const std::vector<Item>& items, size_t i, std::vector<bool>& read) {
  for (size_t j = i + 1; j < items.size() && j <= i + 2; ++j) {
    if (items[j].kind == Item::kNumber) {
      read[j] = true;
      return items[j].number;
    }
    if (!(items[j].kind == Item::kUnknown && (items[j].word == "#" || Lower(items[j].word) == "no."))) break;
  }
  return std::nullopt;
}

// The first item after i that is not a stop word or "distinct"; items.size() when none.
size_t NextSignificant(const std::vector<Item>& items, size_t i, bool* distinct = nullptr) {
  size_t j = i + 1;
  while (j < items.size() && (items[j].Has(Slot::kStop) || items[j].Has(Slot::kDistinct))) {
    if (distinct && items[j].Has(Slot::kDistinct)) *distinct = true;
    ++j;
  }
  return j;
}

bool IsSuperlative(const Item& it) {
  static constexpr std::string_view kWords[] = {"shortest", "fastest", "quickest", "longest", "slowest"};
  const std::string w = Lower(it.word);
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

GroupBy GroupOfNoun(const Item& it) {
  if (it.Has(Slot::kDeviceNoun)) return GroupBy::kDevice;
  if (it.Has(Slot::kProcessNoun)) return GroupBy::kPid;
  if (it.Has(Slot::kStreamNoun)) return GroupBy::kStream;
  if (it.Has(Slot::kRangeNoun)) return GroupBy::kRange;
  return GroupBy::kName;
}

bool IsGroupNoun(const Item& it) {
  return it.Has(Slot::kDeviceNoun) || it.Has(Slot::kProcessNoun) || it.Has(Slot::kStreamNoun) ||
         it.Has(Slot::kRangeNoun) || it.Has(Slot::kEvents);
}

// A word that ends in s, as an English plural does ("streams", "GPUs"): the test the readings of counts use.
bool EndsInS(const Item& it) {
  const std::string w = Lower(it.word);
  // "process", "class", "pass": a word that ends in a double s is singular ("which process" is one).
  return !w.empty() && w.back() == 's' && !(w.size() >= 2 && w[w.size() - 2] == 's');
}

// The group noun within two items after "which"/"per" (adjectives and measures may come between).
std::optional<GroupBy> GroupAfter(const std::vector<Item>& items, size_t i) {
  // Stop words, and a number before a plural noun, do not count towards the three: "each of the two processes".
  size_t said = 0;
  for (size_t j = i + 1; j < items.size() && said < 3; ++j) {
    // "the highest total time across both GPUs": what the sum is taken over, not what is ranked. "which took longer on
    // the GPU": past the verb, a noun says where, not what is ranked.
    // "by summed kernel length", "by average copy size": a statistic of the events that ranks, not a grouping.
    if (Lower(items[j].word) == "across" || items[j].Has(Slot::kWeakTotal) || items[j].Has(Slot::kInside) ||
        items[j].Has(Slot::kTop) || items[j].Has(Slot::kBottom) ||
        (items[j].Has(Slot::kMeasure) && IsWordIn(items[i], {"by"})))
      return std::nullopt;
    if (items[j].Has(Slot::kStop) ||
        (items[j].kind == Item::kNumber && j + 1 < items.size() && IsGroupNoun(items[j + 1]) && EndsInS(items[j + 1])))
      continue;
    ++said;
    // "by pid 12" names a process: a scope, not a grouping.
    if (IsGroupNoun(items[j]) && j + 1 < items.size() && items[j + 1].kind == Item::kNumber) return std::nullopt;
    // "which GPU stream", "each GPU process", "which GPU kernel": a GPU noun before a stream or process noun, or right
    // after "which" before an events noun, says whose or which kind; the stream, process or events are the group
    // ("that GPU's first kernel" stays of the GPU; "per GPU, ... first kernel" is per GPU).
    if (items[j].Has(Slot::kDeviceNoun) && j + 1 < items.size() &&
        (items[j + 1].Has(Slot::kStreamNoun) || items[j + 1].Has(Slot::kProcessNoun) ||
         (j == i + 1 && IsWordIn(items[i], {"which", "what"}) && items[j + 1].Has(Slot::kEvents) &&
          IsGroupNoun(items[j + 1]))))
      continue;
    if (IsGroupNoun(items[j])) return GroupOfNoun(items[j]);
    if (items[j].kind == Item::kName) continue;
  }
  return std::nullopt;
}

// "which kernels": the noun after "which" is plural (an English plural: it ends in s).
bool PluralAfter(const std::vector<Item>& items, size_t i) {
  for (size_t j = i + 1; j < items.size() && j <= i + 3; ++j) {
    if (IsGroupNoun(items[j])) return items[j].word.size() > 3 && EndsInS(items[j]);
  }
  return false;
}

// A number that is an id or a count: finite, whole, 0 to INT32_MAX; anything else is no id (never a cast out of range).
std::optional<int32_t> IdOf(double v) {
  if (!std::isfinite(v) || v < 0 || v > 2147483647.0 || v != std::floor(v)) return std::nullopt;
  return static_cast<int32_t>(v);
}

// "the 3 kernels", "the five most expensive kernels", "the 10 slowest calls": a number before an events noun, with
// at most two words that rank or describe between them.
std::optional<size_t> NumberBeforeNoun(const std::vector<Item>& items, size_t i, const std::vector<bool>& read) {
  for (size_t k = i, between = 0; k-- > 0 && between <= 2; ++between) {
    if (items[k].kind == Item::kNumber) return read[k] ? std::nullopt : std::optional<size_t>(k);
    const bool ranks = items[k].Has(Slot::kTop) || items[k].Has(Slot::kBottom) || items[k].Has(Slot::kMeasure);
    const bool describes = (items[k].kind == Item::kUnknown && lexicon::IsDescriptiveWord(items[k].word)) ||
                           items[k].Has(Slot::kStop);  // "the 3 CUDA streams"
    if (!ranks && !describes && !(items[k].kind == Item::kUnknown && lexicon::IsMeaningWord(Lower(items[k].word))))
      return std::nullopt;
  }
  return std::nullopt;
}

// Numbers after a device, process or stream noun ("gpu 0", "gpus 0 and 1"), into the side before or after "than".
void ReadIds(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  // "which two streams": a count before a plural GPU, process or stream noun is a limit when the clause ranks.
  if (EndsInS(items[i])) {
    if (auto n = NumberBeforeNoun(items, i, read)) c.number_before_noun = *n;  // "which 3 CUDA streams"
  }
  std::vector<double> ids;
  for (size_t j = i + 1; j < items.size(); ++j) {
    if (items[j].kind == Item::kNumber) {
      ids.push_back(items[j].number);
      read[j] = true;
    } else if (!(items[j].Has(Slot::kSplit) && j + 1 < items.size() && items[j + 1].kind == Item::kNumber) &&
               items[j].word != "#") {
      break;
    } else {
      read[j] = true;
    }
  }
  // An MPI rank's number is no process id: "rank 0" is read as nothing rather than as pid 0.
  const bool rank_noun = Lower(items[i].word).rfind("rank", 0) == 0;
  for (double number : ids) {
    const std::optional<int32_t> id = IdOf(number);
    if (!id || rank_noun) {
      c.unread.push_back(std::to_string(number));  // "gpu 1.5" names no GPU: the reading is not complete
      continue;
    }
    // The same GPU or process said twice in a clause ("kernels on GPU 0 ... the first kernel on GPU 0") is one.
    const auto add = [](auto& ids, auto id) {
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    };
    if (items[i].Has(Slot::kDeviceNoun)) add(c.versus ? c.versus_devices : c.devices, *id);
    if (items[i].Has(Slot::kProcessNoun)) add(c.versus ? c.versus_pids : c.pids, static_cast<uint32_t>(*id));
    if (items[i].Has(Slot::kStreamNoun)) {
      // "stream 14 vs stream 16": the second stream is the other side; two streams neither compared nor held
      // together by a Query ("streams 14 and 16") leave the reading incomplete rather than keep one of them.
      if (c.stream < 0 || c.stream == *id) {
        c.stream = *id;
      } else if (c.versus || c.compare) {
        c.versus_stream = *id;
      } else {
        c.unread.push_back(items[i].word + " " + std::to_string(*id));
      }
    }
  }
}

// Whether a clause asks a margin ("by how much", "the difference").
bool SaysAMargin(const std::vector<Item>& items) {
  return std::any_of(items.begin(), items.end(), [](const Item& it) { return it.Has(Slot::kMargin); });
}

// "The first 3 rows", "the first 5 kernels by total time": a count, not a length of time, is the head of a ranking when
// it ranks rows (a table's go by total time) or says by what; else an order in time no Query holds ("the first 3
// kernels" to start): unread, never dropped.
void FirstNOfARanking(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  const bool rows = i + 2 < items.size() && IsWordIn(items[i + 2], {"row", "rows", "entries", "lines"});
  const bool by = std::any_of(items.begin() + static_cast<std::ptrdiff_t>(i), items.end(),
                              [](const Item& it) { return IsWordIn(it, {"by"}); });
  if (!rows && !by) {
    c.unread.push_back(items[i].word + " " + items[i + 1].word);
    read[i] = read[i + 1] = true;
    return;
  }
  read[i] = read[i + 1] = true;
  c.rank = Rank::kTop;
  c.limit = std::min(IdOf(items[i + 1].number).value_or(101), 101);  // CheckQuery: <= 100
}

// "between 5 s and 10 s later", the window read from `between` at i: counted from an origin, said in this clause or
// lent by one before; without one the clause is not answered (window_after_origin).
void ReadLaterAfterAWindow(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  for (size_t j = i + 4; j < items.size() && j <= i + 6; ++j) {
    if (!IsWordIn(items[j], {"later", "afterwards", "afterward"})) continue;
    read[j] = true;
    c.window_after_origin = true;
  }
}

// "the last 200 ms": the window that ends where the profile ends, counted back from it (never on the capture clock).
void WindowFromTheEnd(double profile_s, double length, Clause& c) {
  c.from_s = profile_s - length;
  c.to_s = profile_s;
  c.window_from_end = true;
}

// A unit of time after position j (s, ms, us, ns in any spelling the lexicon holds): what one of it is in seconds,
// marked read; 0 when none follows.
double UnitAfter(const std::vector<Item>& items, size_t j, std::vector<bool>& read) {
  if (j + 1 >= items.size() || !IsTimeUnit(items[j + 1])) return 0;
  read[j + 1] = true;
  return UnitFactor(items[j + 1].Value(Slot::kUnit)) / 1e9;
}

// "between 2 and 3 s", "between 0.25 s and 0.55 s", "between the 12 s and 13 s marks": a window's two ends, from
// position i ("between"); marks what it reads.
void ReadBetweenTimes(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  const auto unit_after = [&](size_t j) { return UnitAfter(items, j, read); };
  if (i + 3 < items.size() && items[i + 1].kind == Item::kNumber && items[i + 2].Has(Slot::kSplit) &&
      items[i + 3].kind == Item::kNumber) {
    double scale = unit_after(i + 3);
    if (scale == 0) scale = unit_after(i + 1);
    if (scale > 0) {
      read[i] = read[i + 1] = read[i + 2] = read[i + 3] = true;
      c.from_s = items[i + 1].number * scale;
      c.to_s = items[i + 3].number * scale;
    }
  }
  // "between 0.25 s and 0.55 s": a unit after each bound.
  // "between the 12 s and 13 s marks": the same, the times said as marks.
  const size_t the = i + 1 < items.size() && IsWordIn(items[i + 1], {"the"}) ? 1 : 0;
  if (i + the + 5 < items.size() && items[i + the + 1].kind == Item::kNumber && IsTimeUnit(items[i + the + 2]) &&
      items[i + the + 3].Has(Slot::kSplit) && items[i + the + 4].kind == Item::kNumber) {
    const size_t a = i + the + 1, b = i + the + 4;
    const bool marks = b + 2 < items.size() && IsWordIn(items[b + 2], {"marks", "points"});
    const double from_scale = the == 0 || marks ? unit_after(a) : 0, to_scale = from_scale > 0 ? unit_after(b) : 0;
    if (from_scale > 0 && to_scale > 0) {
      read[i] = read[a] = read[a + 2] = read[b] = true;
      if (the) read[i + 1] = read[b + 2] = true;
      c.from_s = items[a].number * from_scale;
      c.to_s = items[b].number * to_scale;
    }
  }
}

// A window: "first N s|ms", "between A and B s|ms", "the last N ms" (the window that ends where the profile ends,
// when its length is known; else unread); marks what it reads.
void ReadWindow(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  const auto unit_after = [&](size_t j) { return UnitAfter(items, j, read); };
  if (items[i].Has(Slot::kLast) && i + 1 < items.size() && items[i + 1].kind == Item::kNumber) {
    const double length = items[i + 1].number * (items[i].profile_s > 0 ? unit_after(i + 1) : 0);
    read[i + 1] = true;
    if (length <= 0 || length >= items[i].profile_s) {
      c.unread.push_back("last " + items[i + 1].word);
      return;
    }
    read[i] = true;
    WindowFromTheEnd(items[i].profile_s, length, c);
    return;
  }
  if (items[i].Has(Slot::kFirst) && i + 1 < items.size() && items[i + 1].kind == Item::kNumber) {
    if (const double scale = unit_after(i + 1); scale > 0) {
      read[i] = read[i + 1] = true;
      c.from_s = 0;
      c.to_s = items[i + 1].number * scale;
      c.window_after_origin = items[i].Value(Slot::kFirst) == 1;
    } else {
      FirstNOfARanking(items, i, c, read);
    }
  }
  // "Which kernel ran first?", "the first kernel to execute": an order in time, which no Query holds (a window needs
  // a length: "the first 100 ms"): unread, never dropped.
  // "from the first ... to the last", "between its first and last kernel": a span, read elsewhere; "(larger one
  // first)": the order of the answer's lines.
  const bool span = std::any_of(items.begin(), items.end(), [](const Item& it) {
    return it.Has(Slot::kLast) || IsWordIn(it, {"last", "final"});
  });
  const bool ordered = items[i].Has(Slot::kFirst) && items[i].entries.size() == 1 &&
                       items[i].Value(Slot::kFirst) == 0 &&
                       (i + 1 >= items.size() || items[i + 1].kind != Item::kNumber) && !span && !items[i].paren;
  // "in the first second", "within the next millisecond": one of the unit, said without a number.
  const bool one = i + 1 < items.size() && !EndsInS(items[i + 1]) && !IsWordIn(items[i + 1], {"ms", "us", "ns"});
  if (items[i].Has(Slot::kFirst) && one) {
    if (const double scale = unit_after(i); scale > 0) {
      read[i] = true;
      c.from_s = 0;
      c.to_s = scale;
      c.window_after_origin = items[i].Value(Slot::kFirst) == 1;
      return;
    }
  }
  // "by how much the first exceeds the second": the first of the two a margin is taken between, not a time.
  if (ordered && SaysAMargin(items) && i > 0 && IsWordIn(items[i - 1], {"the"})) {
    read[i] = true;
  } else if (ordered) {
    c.unread.push_back(items[i].word);
  }
  if (items[i].Has(Slot::kBetween)) ReadBetweenTimes(items, i, c, read);
  if (items[i].Has(Slot::kBetween) && read[i]) ReadLaterAfterAWindow(items, i, c, read);
}

// A noun for an amount of work ("GPU work", "the computation", "number crunching"), whose measure is time: "the most
// GPU work" and "a share of the work" are of its time, not of how many events it is.
bool AmountOfWork(const Item& it) {
  const std::string w = Lower(it.word);
  for (std::string_view noun : {"work", "activity", "computation", "computing", "crunching"}) {
    if (w.find(noun) != std::string::npos) return true;
  }
  return false;
}

// A word of quantity ("most", "fewer", value 1) before an events noun: the events are counted.
void ReadQuantity(const std::vector<Item>& items, size_t i, uint8_t quantity, Clause& c) {
  if (quantity != 1) return;
  // "more host-to-device copies than ...", "more cudaMalloc calls": past the words that say which ones. "more
  // device-to-host migrations than host-to-device ones": the kind's noun itself, right before "than".
  const size_t first = NextSignificant(items, i);
  size_t j = first;
  while (j < items.size() && j <= i + 4 &&
         (items[j].Has(Slot::kCopyKind) || items[j].Has(Slot::kMemory) || items[j].Has(Slot::kApiClass) ||
          items[j].kind == Item::kName))
    ++j;
  const bool than = j > first && j < items.size() && items[j].Has(Slot::kVersus) && IsWordIn(items[j], {"than"});
  // "the most GPU work": a noun of an amount of work is ranked by its time, not counted.
  if (j < items.size() && items[j].Has(Slot::kEvents) && AmountOfWork(items[j])) return;
  if (j < items.size() && (items[j].Has(Slot::kEvents) || than)) c.rank_by_count = true;
}

// What a share word, or a span, says of the share's base: "what percentage of all kernel launches" (of how many there
// are, when no word of time follows the events), "percentage of the (GPU's) span", "how much of that span"; and how
// many times idle time is said.
void ReadWhatAShareIsOf(const std::vector<Item>& items, size_t i, Measure m, Clause& c) {
  // "what percentage of all kernel launches", "what share of the calls": of how many there are, when no word of time
  // follows the events.
  if (m == Measure::kShare && i + 1 < items.size() && IsWordIn(items[i + 1], {"of"})) {
    size_t k = i + 2;
    while (k < items.size() && IsWordIn(items[k], {"all", "the", "every", "their", "its"})) ++k;
    size_t last = k;
    while (last + 1 < items.size() && items[last + 1].Has(Slot::kEvents)) ++last;  // "kernel launches"
    const auto time_word = [&](size_t at) {
      return at < items.size() &&
             (items[at].Has(Slot::kWeakTotal) || items[at].Has(Slot::kMeasure) || items[at].kind == Item::kName);
    };
    // "what share of the GPU work", "of the computation": a noun of an amount of work, which is time, not of events.
    const bool amount =
        std::any_of(items.begin() + static_cast<std::ptrdiff_t>(std::min(k, items.size())),
                    items.begin() + static_cast<std::ptrdiff_t>(std::min(last + 1, items.size())), AmountOfWork);
    if (k < items.size() && items[k].Has(Slot::kEvents) && !time_word(last + 1) && !amount) c.count_share = true;
    // "what percentage of all bytes copied", "what share of the data", "of the copied bytes": of the bytes, which is
    // no time.
    size_t b = k;
    if (b + 1 < items.size() && (items[b].Has(Slot::kEvents) || items[b].Has(Slot::kCopyKind))) ++b;
    if (b < items.size() && items[b].Has(Slot::kMeasure) &&
        static_cast<Measure>(items[b].Value(Slot::kMeasure)) == Measure::kBytes)
      c.byte_share = true;
  }
  if (m == Measure::kIdle) ++c.idle_said;
  // "percentage of the (GPU's) span", "how much of that span": the span a share is of.
  if (m == Measure::kSpan) {
    c.gpu_span = c.gpu_span || (i > 0 && IsWordIn(items[i - 1], {"gpu", "gpus"}));
    size_t k = i;
    while (k > 0 && (items[k - 1].Has(Slot::kDeviceNoun) ||
                     IsWordIn(items[k - 1], {"the", "its", "their", "that", "this", "whole", "entire"})))
      --k;
    if (k >= 2 && IsWordIn(items[k - 1], {"of"}) && items[k - 2].Says(Measure::kShare)) c.span_base = 1;
    if (k >= 2 && IsWordIn(items[k - 1], {"of"}) && IsWordIn(items[k - 2], {"how much", "much"})) c.span_base = 2;
  }
}

// "by grid size", "by kernel count" (an events noun between): the measure said after "by" ranks (Clause::by_which).
void MeasureAfterBy(const std::vector<Item>& items, size_t i, Measure m, Clause& c) {
  for (size_t k = i;
       k-- > 0 && (items[k].Has(Slot::kStop) || items[k].Has(Slot::kEvents) || IsWordIn(items[k], {"by"}));) {
    if (!IsWordIn(items[k], {"by"})) continue;
    c.by_measure = true;
    c.by_which = m;
    break;
  }
}

// A measure, and what its neighbour makes of it: "how many GPUs" counts groups, "how many distinct kernels" counts
// names, "the slowest kernel" ranks kernels by it.
void ReadMeasure(const std::vector<Item>& items, size_t i, Measure m, Clause& c) {
  c.gap_phrase = c.gap_phrase || items[i].defines_gaps;  // the gaps a phrase said (StatisticsOfTheGaps)
  MeasureAfterBy(items, i, m, c);
  ReadWhatAShareIsOf(items, i, m, c);
  bool distinct = false;
  const size_t j = NextSignificant(items, i, &distinct);
  const bool noun = j < items.size();
  // "how many GPUs" counts GPUs; "how many kernels" and "how many NVTX ranges" count events, unless "distinct".
  const bool events_noun = noun && (items[j].Has(Slot::kEvents) || items[j].Has(Slot::kRangeNoun));
  // "how many GPU kernels": a GPU, process or stream noun right before an events noun says which events; it is not
  // what is counted.
  const bool adjective = noun && !events_noun && j + 1 < items.size() &&
                         (items[j + 1].Has(Slot::kEvents) || items[j + 1].Has(Slot::kRangeNoun));
  // "how many threads did it launch": what is counted is a word of no slot that still means something (its last word
  // a meaning word: "threads", "host threads"), not the events or measures after it
  // ("how many threads did it launch (all blocks)"): unread.
  if (m == Measure::kCount && i + 1 < items.size() && items[i + 1].kind == Item::kLex &&
      items[i + 1].Has(Slot::kStop) && items[i + 1].entries.size() == 1) {
    const std::string w = Lower(items[i + 1].word);
    if (lexicon::IsMeaningWord(w.substr(w.find_last_of(' ') + 1))) c.unread.push_back(items[i + 1].word);
  }
  // "how many of the GPU's SMs": the measure after a GPU said as its owner is what is counted, as "how many SMs".
  if (m == Measure::kCount && noun && IsGroupNoun(items[j]) && j + 1 < items.size() && items[j + 1].Has(Slot::kMeasure))
    return;
  // "kernel count on GPU 1", "count per stream": a GPU, process or stream with its id, or after a preposition, is
  // where the events are counted, not what is.
  const bool place = noun && ((j + 1 < items.size() && items[j + 1].kind == Item::kNumber) ||
                              std::any_of(items.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                          items.begin() + static_cast<std::ptrdiff_t>(j), [](const Item& it) {
                                            return IsWordIn(it, {"on", "in", "per", "for", "across", "by", "of each"});
                                          }));
  if (m == Measure::kCount && noun && IsGroupNoun(items[j]) && !adjective && !place && (!events_noun || distinct)) {
    c.count_groups = GroupOfNoun(items[j]);
    return;
  }
  // "how many bytes": the measure after a word of counting is what is counted; "count and bytes" lists two (the noun
  // "count" is a measure of its own; the "and" between is gone by now).
  // "How many times was data copied": not after "how many times", whose noun is the times something happened.
  if (m == Measure::kCount && noun && items[j].Has(Slot::kMeasure) && !IsWordIn(items[i], {"count", "counts"}) &&
      !IsWordIn(items[i], {"how many times", "how often"}))
    return;
  // "how many milliseconds", "how many MB": a unit is no thing that ran; it says the measure is a time or a size.
  // "by how many nanoseconds" after a comparison is its margin, in that unit.
  if (m == Measure::kCount && i + 1 < items.size() && items[i + 1].Has(Slot::kUnit)) {
    const uint8_t unit = items[i + 1].Value(Slot::kUnit);
    if (unit >= 11)
      AddMeasure(c, Measure::kBytes);
    else
      c.weak_time = true;
    c.margin = c.margin || (i > 0 && Lower(items[i - 1].word) == "by");
    return;
  }
  if ((m == Measure::kMin || m == Measure::kMax) && IsSuperlative(items[i])) c.superlative = m;
  if ((m == Measure::kMin || m == Measure::kMax) && IsSuperlative(items[i]) && noun &&
      (items[j].Has(Slot::kEvents) || items[j].Has(Slot::kRangeNoun)))
    c.rank_by_measure = true;
  // "the longest single kernel", "the single longest kernel": by its one longest execution, not its typical one.
  const auto single = [&](size_t k) {
    const std::string w = k < items.size() ? Lower(items[k].word) : std::string();
    return w == "single" || w == "individual";
  };
  // "the longest NVTX range", "the shortest kernel": a length is each event's own, so the longest is the one longest
  // event, with its name; "slowest" and "fastest" say how fast a kind of events runs, and rank names by their mean.
  if ((m == Measure::kMin || m == Measure::kMax) && IsSuperlative(items[i]) &&
      (single(i + 1) || (i > 0 && single(i - 1)) || IsWordIn(items[i], {"longest", "shortest"})))
    c.single_event = true;
  // "the shortest one": "one" stands for what was said before (ToQuery).
  if ((m == Measure::kMin || m == Measure::kMax) && IsSuperlative(items[i]) && i + 1 < items.size() &&
      (Lower(items[i + 1].word) == "one" || Lower(items[i + 1].word) == "ones"))
    c.superlative_one = true;
  // "fewer blocks than the GPU has SMs", "mean vs median": a measure after the word that compares, against the one
  // said before it.
  if (c.versus && !c.measures.empty() && !c.versus_measure && c.versus_names.empty() && !c.versus_events &&
      std::find(c.measures.begin(), c.measures.end(), m) == c.measures.end()) {
    c.versus_measure = m;
    c.versus_partner = c.measures.back();
  }
  AddMeasure(c, m);
}

// A name in a clause: the range the events are inside (after "inside", or an NVTX name beside another subject), or a
// subject on its side of "than".
// "MPI_Send and MPI_Recv ranges", "X, Y": the name at `at` joined to the name before it by "and", "or" or a comma
// alone, both NVTX ranges only: two ranges side by side, not one inside the other.
bool JoinedRanges(const std::vector<Item>& items, size_t before, size_t at) {
  const auto& classes = items[before].classes;
  if (classes.size() != 1 || classes.front() != NameClass::kNvtx) return false;
  bool joined = at > before && items[at].after_comma;  // "X, Y": the comma is gone from the clause's items
  for (size_t k = before + 1; k < at; ++k) {
    const std::string w = Lower(items[k].word);
    joined = joined || items[k].after_comma;
    const bool joins = items[k].kind == Item::kSeparator || w == "and" || w == "or";
    // "the 3D_backbone NVTX range and of the find_centers range": the noun of the first and "of" join no less.
    const bool noun = items[k].Has(Slot::kRangeNoun) || w == "nvtx" || w == "of";
    if (!joins && !noun && w != "the") return false;
    joined = joined || joins;
  }
  return joined;
}
bool BesideAnotherRange(const std::vector<Item>& items, size_t at, const Clause& c) {
  return !c.names_at.empty() && JoinedRanges(items, c.names_at.back(), at);
}

void ReadName(const std::vector<Item>& items, size_t at, bool inside_next, Clause& c) {
  const Item& it = items[at];
  if (it.exact) c.exact.push_back(it.name);
  if (c.versus) {  // "is 3D_backbone slower than find_centers": the other side, whatever it names
    c.versus_names.emplace_back(it.name, it.classes);
    return;
  }
  const bool nvtx = std::find(it.classes.begin(), it.classes.end(), NameClass::kNvtx) != it.classes.end();
  const bool nvtx_only = nvtx && it.classes.size() == 1;
  if (!c.names.empty() && c.names_at.back() + 1 == at && lexicon::IsLibraryName(Lower(c.names.back().first))) {
    // "NCCL SendRecv", "cuFFT radix", "TensorRT's myelinGraphExecute": a library's name right before a name says whose
    // it is; the name says which (not a range the library's name is inside).
    c.whose.push_back(c.names.back().first);
    c.names.back() = {it.name, it.classes};
    c.names_at.back() = at;
  } else if (!c.inside.empty() && nvtx && (!c.events || *c.events == EventKind::kNvtx) &&
             JoinedRanges(items, c.inside_at, at)) {
    // "time in MPI_Send and MPI_Recv": the range after "in" was the first of two side by side, not a place.
    c.names.emplace_back(c.inside, items[c.inside_at].classes);
    c.names_at.push_back(c.inside_at);
    c.inside.clear();
    c.names.emplace_back(it.name, it.classes);
    c.names_at.push_back(at);
  } else if (!c.inside.empty() && nvtx && JoinedRanges(items, c.inside_at, at)) {
    // "kernels in MPI_Send and MPI_Recv": events in either of two ranges, a place no Query holds.
    c.unread.push_back("(inside either of two ranges)");
  } else if ((inside_next || nvtx_only) && c.inside.empty() && nvtx &&
             !(!inside_next && BesideAnotherRange(items, at, c)) &&
             (inside_next || c.events.has_value() || !c.names.empty())) {
    c.inside = it.name;
    c.inside_at = at;
  } else if (!c.names.empty() && c.names_at.back() + 1 == at && lexicon::IsLibraryName(Lower(it.name))) {
    c.whose.push_back(it.name);
  } else {
    c.names.emplace_back(it.name, it.classes);
    c.names_at.push_back(at);
  }
}

// "the nchwToNhwcKernel layout transposes": a whole name, then a plain word that is only a part of some names, with
// nothing that joins them: the word describes the named events (as "kernels" would), it is no second subject.
void DescribingFragment(const std::vector<Item>& items, Clause& c) {
  if (c.names.size() < 2 || c.versus || c.compare) return;
  const auto exact = [&](size_t n) {
    return std::find(c.exact.begin(), c.exact.end(), c.names[n].first) != c.exact.end();
  };
  const auto plain = [&](size_t n) {
    const std::string& w = items[c.names_at[n]].word;
    return lexicon::IsDescriptiveWord(w) &&
           std::none_of(w.begin(), w.end(), [](char ch) { return std::isupper(static_cast<unsigned char>(ch)) != 0; });
  };
  // Two names side by side with nothing that joins them ("the layout transposes nchwToNhwcKernel and ...").
  const auto adjacent = [&](size_t n) {
    for (size_t k = c.names_at[n] + 1; k < c.names_at[n + 1]; ++k) {
      const std::string w = Lower(items[k].word);
      if (items[k].kind == Item::kSeparator || items[k].Has(Slot::kSplit) || items[k].Has(Slot::kVersus) ||
          w == "and" || w == "or" || w == "+" || w == "plus")
        return false;
    }
    return true;
  };
  for (size_t n = 0; n + 1 < c.names.size();) {
    bool dropped = false;
    for (size_t weak = n; weak < n + 2 && adjacent(n); ++weak) {
      const size_t strong = weak == n ? n + 1 : n;
      if (!exact(strong) || exact(weak) || !plain(weak)) continue;
      c.described.push_back(items[c.names_at[weak]].word);
      DropName(c, weak);
      dropped = true;
      break;
    }
    if (!dropped) ++n;
  }
}

// Whether every name of the clause is first of one vocabulary (kernels, calls or ranges).
bool NamesOfOneKind(const Clause& c) {
  const auto& first = c.names.empty() ? std::vector<NameClass>{} : c.names.front().second;
  return std::all_of(c.names.begin(), c.names.end(), [&](const auto& n) {
    return !n.second.empty() && !first.empty() && n.second.front() == first.front();
  });
}

// "Which of ncclSend, ncclRecv and ncclGroupEnd takes the most time?", "the total time of X, Y and Z": three names or
// more of one kind, listed, are one subject, any of them, each its own row (grouped by name; "which" ranks them).
// Listed names of several kinds are no Query's subject: every name after the first two is unread, never dropped.
void ListedNames(Clause& c, bool only_joined) {
  if (c.names.size() < 3) return;
  if (!only_joined || !NamesOfOneKind(c)) {
    for (size_t n = 2; n < c.names.size(); ++n) c.unread.push_back(c.names[n].first);
    return;
  }
  c.listed_names = true;
  if (!c.group) c.group = GroupBy::kName;
}

// Two names side by side ("X and Y", "X, Y or Z") are two subjects to set side by side; two names with words between
// them ("the cudaLaunchKernel calls that launched trsm_kernel") are a relation a Query does not hold: unread. Names
// summed ("X + Y", "X plus Y", "X and Y together") are one subject, any of them (Subject::name "X|Y"); copy kinds
// summed are no Query's subject: unread.
void ReadTwoNames(const std::vector<Item>& items, Clause& c) {
  if ((c.names_at.size() < 2 && !c.kinds_side_by_side) || c.versus) return;
  const auto sum_word = [](const Item& it) {
    const std::string w = Lower(it.word);
    return w == "together" || w == "combined" || w == "altogether" || w == "summed";
  };
  const auto plus = [](const Item& it) { return it.word == "+" || Lower(it.word) == "plus"; };
  // A sum word before the names says their statistic ("the summed durations of the X ranges and of the Y ranges"),
  // after them their sum ("X and Y together").
  const size_t first_name = c.names_at.empty() ? 0 : c.names_at.front();
  bool summed = std::any_of(items.begin() + static_cast<std::ptrdiff_t>(std::min(first_name, items.size())),
                            items.end(), sum_word);
  std::vector<std::string> relation;  // words between the names that join nothing
  const size_t from = c.names_at.size() < 2 ? 0 : c.names_at.front() + 1;
  const size_t to = c.names_at.size() < 2 ? 0 : c.names_at.back();  // two copy kinds and no names: nothing between
  for (size_t k = from; k < to; ++k) {
    if (std::find(c.names_at.begin(), c.names_at.end(), k) != c.names_at.end()) continue;
    const Item& it = items[k];
    if (plus(it)) {
      summed = true;
      continue;
    }
    // "the average of the X range and of the Y range": "of" after the word that joins them says it again.
    const bool of_again = Lower(it.word) == "of" && k > 0 &&
                          (items[k - 1].kind == Item::kSeparator || items[k - 1].Has(Slot::kSplit) ||
                           IsWordIn(items[k - 1], {"and", "or"}));
    const bool joins = it.kind == Item::kSeparator || it.Has(Slot::kSplit) || it.Has(Slot::kVersus) ||
                       it.Has(Slot::kEvents) || it.Has(Slot::kRangeNoun) || Lower(it.word) == "the" || of_again;
    if (!joins) relation.push_back(it.word);
  }
  c.unread.insert(c.unread.end(), relation.begin(), relation.end());
  if (!summed) {
    ListedNames(c, relation.empty());
    return;
  }
  // One kind of events, named whole or in part: their sum. Anything else summed stays unread.
  const bool one_kind = c.names.size() >= 2 && NamesOfOneKind(c);
  if (one_kind && relation.empty() && !c.kinds_side_by_side) {
    c.sum_names = true;
    return;
  }
  for (const Item& it : items) {
    if (sum_word(it) || plus(it)) c.unread.push_back(it.word);
  }
}

// The launch relation said in words, before the names are set side by side (ReadTwoNames):
//  - "kernels launched through cuLaunchKernelEx vs cudaLaunchKernel", "copies launched with cudaMemcpyAsync": a CUDA
//    call's name after a word of launching and a preposition is the call that launched the work (the other side's,
//    after "vs"), not a subject;
//  - "the cudaLaunchKernel calls that launched trsm_right_kernel": a kernel's name after a word of launching, with a
//    CUDA call's name before it, selects the calls by what they launched.
// The name that says the relation leaves the clause's names; the words of the relation are read.
void ReadLaunchRelation(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  const auto classes_at = [&](size_t k) -> const std::vector<NameClass>* {
    for (size_t n = 0; n < c.names.size(); ++n) {
      if (c.names_at[n] == k) return &c.names[n].second;
    }
    return nullptr;
  };
  const auto has = [](const std::vector<NameClass>* cl, NameClass k) {
    return cl && std::find(cl->begin(), cl->end(), k) != cl->end();
  };
  const auto erase_name_at = [&](size_t k) {
    const auto at = std::find(c.names_at.begin(), c.names_at.end(), k);
    if (at != c.names_at.end()) DropName(c, static_cast<size_t>(at - c.names_at.begin()));
  };
  for (size_t v = 0; v < items.size(); ++v) {
    const std::string verb = Lower(items[v].word);
    if (verb != "launched" && verb != "launching" && verb != "launch" && verb != "launched with") continue;
    size_t a = v + 1;
    bool by = verb == "launched with";
    for (; a < items.size() && IsWordIn(items[a], {"through", "by", "via", "with", "using", "from", "the", "a"}); ++a)
      by = by || !IsWordIn(items[a], {"the", "a"});
    if (by && a < items.size() && has(classes_at(a), NameClass::kApi)) {
      c.launched_by = items[a].name;
      for (size_t k = v + 1; k < a; ++k) read[k] = true;
      erase_name_at(a);
      if (!c.versus_names.empty() && has(&c.versus_names.front().second, NameClass::kApi)) {
        c.versus_launched_by = c.versus_names.front().first;
        c.versus_names.erase(c.versus_names.begin());
      }
      return;
    }
    // "the launch calls for trsm_right_kernel", "the launch calls of X": CUDA calls named by their role, then the
    // kernel they launched.
    const auto api_noun = [&](size_t k) {
      return k < items.size() && items[k].Has(Slot::kEvents) &&
             static_cast<EventKind>(items[k].Value(Slot::kEvents)) == EventKind::kApi;
    };
    if (verb == "launch" && api_noun(v + 1) && v + 3 < items.size() && IsWordIn(items[v + 2], {"for", "of"}) &&
        has(classes_at(v + 3), NameClass::kKernel)) {
      c.launches = items[v + 3].name;
      c.events = EventKind::kApi;
      read[v + 2] = true;
      erase_name_at(v + 3);
      return;
    }
    // "the X calls that launched Y": a call's name before the verb, only nouns and "that" between.
    size_t call = v;
    while (call > 0 && (items[call - 1].Has(Slot::kEvents) || IsWordIn(items[call - 1], {"that", "which", "the"})))
      --call;
    // "the runtime calls that launched them": CUDA calls, then the kernels the Query before asked about (ToQuery).
    const bool calls_before = std::any_of(items.begin() + static_cast<std::ptrdiff_t>(call),
                                          items.begin() + static_cast<std::ptrdiff_t>(v), [&](const Item& it) {
                                            return it.Has(Slot::kEvents) &&
                                                   static_cast<EventKind>(it.Value(Slot::kEvents)) == EventKind::kApi;
                                          });
    // ("the cuLaunchKernel call that launched it": calls named, of their own.)
    const bool named = call > 0 && items[call - 1].kind == Item::kName;
    if (verb == "launched" && calls_before && !named && v + 1 < items.size() &&
        IsWordIn(items[v + 1], {"them", "those", "these", "it"})) {
      c.launches_pointed = true;
      read[v + 1] = true;
      for (size_t k = call; k < v; ++k) read[k] = read[k] || IsWordIn(items[k], {"that", "which"});
      return;
    }
    const size_t kernel = v + 1 < items.size() && IsWordIn(items[v + 1], {"the"}) ? v + 2 : v + 1;
    // "the cudaLaunchKernel calls that launched X", and calls said by their noun alone ("the CUDA API calls that
    // launched trsm_right_kernel"): those calls.
    const bool by_name = call > 0 && has(classes_at(call - 1), NameClass::kApi);
    const bool by_noun = verb == "launched" && calls_before && !named;
    if ((by_name || by_noun) && kernel < items.size() && has(classes_at(kernel), NameClass::kKernel)) {
      c.launches = items[kernel].name;
      if (!by_name) c.events = EventKind::kApi;
      for (size_t k = call; k < v; ++k) read[k] = read[k] || IsWordIn(items[k], {"that"});
      erase_name_at(kernel);
      return;
    }
  }
}

// The ordinal words, in order from "second": a place in a ranking is its index + 2.
constexpr std::string_view kOrdinals[] = {"second", "third", "fourth", "fifth"};

// "the second one", "a third": an ordinal word; "a second", "per second" and "2 seconds" are units.
bool IsOrdinal(const std::vector<Item>& items, size_t i) {
  const std::string w = Lower(items[i].word);
  if (std::find(std::begin(kOrdinals), std::end(kOrdinals), w) == std::end(kOrdinals)) return false;
  if (i == 0) return true;
  const std::string before = Lower(items[i - 1].word);
  return items[i - 1].kind != Item::kNumber && before != "a" && before != "per" && before != "one" && before != "half";
}

// "by total time", "in total GPU time", "by average duration": at j, the word that says by which measure events rank,
// and the measure (one or two items on).
bool RankedBy(const std::vector<Item>& items, size_t j) {
  if (j + 1 >= items.size() || !IsWordIn(items[j], {"by", "in", "in total"})) return false;
  for (size_t k = j + 1; k < items.size() && k <= j + 2; ++k) {
    if (items[k].Has(Slot::kMeasure) || items[k].Has(Slot::kWeakTotal)) return true;
  }
  return false;
}

// An ordinal before "one" or a word that ranks ("the second one", "the third largest", "the second slowest"): the
// position in a ranking, from 2. Before anything else ("the second kernel") it is an instance in time or order, which
// a Query does not pick: nullopt. Reads "one" after it.
std::optional<int32_t> RankPosition(const std::vector<Item>& items, size_t i, std::vector<bool>& read) {
  const auto* at = std::find(std::begin(kOrdinals), std::end(kOrdinals), Lower(items[i].word));
  if (at == std::end(kOrdinals)) return std::nullopt;
  const int32_t place = static_cast<int32_t>(at - std::begin(kOrdinals)) + 2;
  // "which kernel comes third in total GPU time", "ranks third by total time", "the third kernel by total time": a
  // place said with the measure that ranks, after it or after the events it ranks.
  for (size_t j = i + 1; j < items.size() && j <= i + 3; ++j) {
    if (RankedBy(items, j)) return place;
    if (!(items[j].Has(Slot::kEvents) || items[j].kind == Item::kName || IsWordIn(items[j], {"place"}))) break;
  }
  if (i + 1 >= items.size()) return std::nullopt;
  const Item& next = items[i + 1];
  const std::string w = Lower(next.word);
  const bool ranks = next.Has(Slot::kTop) || next.Has(Slot::kBottom) ||
                     std::any_of(next.entries.begin(), next.entries.end(), [](const lexicon::Entry& e) {
                       return e.slot == Slot::kMeasure && (e.value == static_cast<uint8_t>(Measure::kMax) ||
                                                           e.value == static_cast<uint8_t>(Measure::kMin));
                     });
  if (w == "one" || w == "ones") {
    read[i + 1] = true;
  } else if (!ranks) {
    return std::nullopt;
  }
  return place;
}

// Clause::gpu_kinds' bit of a kind of events: kernels 1, copies 2, memsets 4, others none.
uint8_t GpuKindBit(EventKind e) {
  return e == EventKind::kKernels ? 1 : e == EventKind::kMemcpy ? 2 : e == EventKind::kMemset ? 4 : 0;
}

// A copy kind; "unified memory" and a direction, in either order, are one kind ("Unified HtoD").
void ReadCopyKind(uint8_t value, const std::string& word, Clause& c) {
  // "unified memory" and a direction, in either order, are one kind: "Unified HtoD". Beside "vs" or "compare", a
  // second kind is the other side.
  const std::string kind(lexicon::CopyKinds()[value]);
  // "kernels or device-to-device copies": the first side's events are no copies, so the kind is the other side's.
  const bool other_side_copies = c.events && *c.events != EventKind::kMemcpy && c.copy_kind.empty();
  std::string& side =
      (c.versus || c.compare) && ((!c.copy_kind.empty() && c.copy_kind != "Unified") || other_side_copies)
          ? c.versus_copy_kind
          : c.copy_kind;
  if (side == "Unified" && kind != "Unified") {
    side = "Unified " + kind;
  } else if (kind == "Unified" && !side.empty() && side.rfind("Unified", 0) != 0) {
    side = "Unified " + side;
  } else if (kind == "Unified" || side.empty() || side == kind || side == "Unified " + kind) {
    // "migrations host-to-device versus device-to-host": the other side is a migration too.
    const bool unified_other = &side == &c.versus_copy_kind && c.copy_kind.rfind("Unified ", 0) == 0;
    if (side.empty()) side = unified_other && kind != "Unified" ? "Unified " + kind : kind;
  } else if (!c.versus && !c.compare && c.versus_copy_kind.empty()) {
    // "HtoD and DtoH transfers": two kinds in one clause are set side by side, as two names are (ReadTwoNames); of
    // unified memory both ("migrated host-to-device and device-to-host").
    c.versus_copy_kind = side.rfind("Unified ", 0) == 0 && kind != "Unified" ? "Unified " + kind : kind;
    c.kinds_side_by_side = true;
  } else {
    c.unread.push_back(word);  // a third kind, or a second beside a comparison's sides
  }
  c.gpu_kinds |= 2;
}

// "which", "per", "each": the group noun after it; "which one" leaves the noun to what the question said before.
void ReadWhichOrPer(const std::vector<Item>& items, size_t i, const lexicon::Entry& e, Clause& c) {
  c.which_one = c.which_one || (e.slot == Slot::kWhich && e.value == 1);
  if (e.slot == Slot::kWhich && e.value == 1) {
    c.which = true;  // "which one": the noun is the one the question said before (FillQueries)
    return;
  }
  // "which two": how many of them.
  const bool counted = e.slot == Slot::kWhich && i + 1 < items.size() && items[i + 1].kind == Item::kNumber;
  if (counted) {
    const double n = items[i + 1].number;
    if (n >= 1 && n <= 100 && n == std::floor(n)) c.limit = static_cast<int32_t>(n);
  }
  // "covered by kernels", "taken by copies": "by" after a verb in the passive says who did it, not a grouping.
  if (e.slot == Slot::kPer && i > 0 && IsWordIn(items[i], {"by"}) &&
      IsWordIn(items[i - 1], {"covered", "occupied", "taken", "consumed", "used", "spent", "filled", "eaten"}))
    return;
  // "how many times was data copied back, and how big was each copy on average": "each" before one copy, call or
  // memset is any one of those said before, not a grouping by name (such events have no names to group by).
  if (e.slot == Slot::kPer && IsWordIn(items[i], {"each", "every"}) && i + 1 < items.size() &&
      IsWordIn(items[i + 1],
               {"copy", "call", "transfer", "memset", "memcpy", "api call", "cuda call", "memory fill"})) {
    c.points_back = true;
    return;
  }
  // A grouping said first stays: in "the bottom 3 streams by kernel time", "by" says what ranks them.
  const auto g = GroupAfter(items, i);
  if (g && !c.group) c.group = *g;
  // "Across the streams, which two carry the most ...": "which two" with no noun of its own, as "which one", is of the
  // noun said before.
  if (counted && !g) c.which_one = true;
  // "for each" with no noun after it: each of what was said before (the sides of a comparison, the groups ranked).
  if (!g && e.slot == Slot::kPer && Lower(items[i].word).find("each") != std::string::npos) c.each_side = true;
  c.each_of_them =
      c.each_of_them || (!g && e.slot == Slot::kPer && i + 2 < items.size() && IsWordIn(items[i + 1], {"of"}) &&
                         IsWordIn(items[i + 2], {"them", "those", "these"}));
  c.which = c.which || e.slot == Slot::kWhich;
  if (e.slot == Slot::kWhich && i + 1 < items.size()) {
    const Item& next = items[i + 1];
    c.which_events =
        c.which_events || next.Has(Slot::kEvents) || next.Has(Slot::kRangeNoun) || next.kind == Item::kName;
  }
  c.plural = c.plural || (e.slot == Slot::kWhich && PluralAfter(items, i));
}

// "How many times was data copied back?": after "how many times" or "how often", data are what was copied, not how
// much of it: the copies, when the clause names no events.
bool DataOfWhatHappened(const std::vector<Item>& items, size_t i, Clause& c) {
  const auto times = [](const Item& it) { return IsWordIn(it, {"how many times", "how often"}); };
  if (!IsWordIn(items[i], {"data"}) ||
      std::none_of(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(i), times))
    return false;
  if (!c.events) c.events = EventKind::kMemcpy;
  return true;
}

// A value said of a clause's events (a kind of host memory, a migration's cause): the first side's, a second one the
// other side's, a third unread.
void OneSideOrTheOther(const std::string& value, const std::string& word, std::string& first, std::string& second,
                       std::vector<std::string>& unread) {
  if (first.empty() || first == value)
    first = value;
  else if (second.empty() || second == value)
    second = value;
  else
    unread.push_back(word);
}

// The slots that only set a field of the clause, whatever stands around them; false for the others.
bool ReadFlag(const std::vector<Item>& items, size_t i, const lexicon::Entry& e, Clause& c) {
  switch (e.slot) {
    case Slot::kFromFirstKernel:
      c.from_first_kernel = true;
      return true;
    case Slot::kCaptureClock:
      c.capture_clock = true;
      return true;
    case Slot::kCompare:
      c.compare = true;
      return true;
    case Slot::kRangeNoun:
      if (!c.range_noun) c.range_noun_at = i;
      c.range_noun = c.own_range_noun = true;
      return true;
    case Slot::kMemory:
      // "pinned vs pageable", "is the host side pageable or pinned": a second kind of host memory sets the copies of
      // the one against those of the other; a third is unread.
      OneSideOrTheOther(std::string(MemoryKindNames()[e.value]), items[i].word, c.memory, c.versus_memory, c.unread);
      return true;
    case Slot::kCause:
      // "page faults versus speculative prefetch": a second cause is the other side's; a third is unread.
      OneSideOrTheOther(std::string(MigrationCauseNames()[e.value]), items[i].word, c.cause, c.versus_cause, c.unread);
      return true;
    case Slot::kUnsupported:
      c.unread.push_back(items[i].word);
      if (e.value == 1) c.not_held.push_back(items[i].word);  // a hardware counter
      return true;
    case Slot::kAny:
      c.any = true;
      c.yes_no = c.yes_no || i == 0;  // "is there a kernel ...", "any copies over 1 MB?"
      return true;
    case Slot::kMargin:
      c.margin = true;
      c.limit = std::max(c.limit, 2);
      return true;
    case Slot::kVersus:
      c.versus = true;
      return true;
    case Slot::kAuxiliary:
      c.yes_no = c.yes_no || i == 0;
      return true;
    default:
      return false;
  }
}

std::optional<EventKind> EventsOfName(const std::vector<NameClass>& classes, std::optional<EventKind> said,
                                      bool range_noun);

// After "compare", events of another kind than the clause's first side are the other side ("compare the
// cudaLaunchKernel calls with the kernels"); the same kind is the first side said again ("compare the NCCL kernel
// time on GPU 0 and GPU 1").
bool OtherKind(const Clause& c, EventKind kind) {
  if (c.events && *c.events == kind) return false;
  if (!c.copy_kind.empty() && kind == EventKind::kMemcpy) return false;
  return std::none_of(c.names.begin(), c.names.end(), [&](const auto& name) {
    return EventsOfName(name.second, kind, false) == EventsOfName(name.second, std::nullopt, false);
  });
}

// A second kind of events in a clause that neither compares it nor holds it with the first (kinds of GPU work
// together are the GPU's work), unless a name of the clause makes both words the same events ("calls of the X kernel":
// a kernel's calls are its runs): unread, never dropped ("the cudaLaunchKernel calls ... the kernels they launched").
bool SecondKindUnread(const Clause& c, EventKind kind) {
  if (!c.events || *c.events == kind || (GpuKindBit(*c.events) && GpuKindBit(kind))) return false;
  return std::none_of(c.names.begin(), c.names.end(), [&](const auto& name) {
    return EventsOfName(name.second, kind, false) == EventsOfName(name.second, c.events, false);
  });
}

// "only one GPU operation in this capture, a memset": GPU work said with one kind of it, and no measure of a GPU's
// timeline, is that kind ("idle: no kernel, copy or memset" is ReadGpuWork's).
void OneKindOfGpuWork(Clause& c) {
  const bool timeline = std::any_of(c.measures.begin(), c.measures.end(), IsTimelineMeasure);
  if (c.events != EventKind::kGpu || timeline || c.versus_events) return;
  for (EventKind kind : {EventKind::kKernels, EventKind::kMemcpy, EventKind::kMemset}) {
    if (c.gpu_kinds == GpuKindBit(kind)) c.events = kind;
  }
}

// A word of time or of a total ("total", "time", "how much"): what it adds to the clause, "how much of the memcpy
// time" a share too, "by total time" the total that ranks.
void ReadWeakTotal(const std::vector<Item>& items, size_t i, const lexicon::Entry& e, Clause& c) {
  (e.value ? c.weak_time : c.weak_total) = true;
  // "how much of the memcpy time is HtoD", "how much of the kernel time went to NCCL": a part of a whole of a kind
  // of events: its time and its share of the whole.
  if (IsWordIn(items[i], {"how much"}) && i + 2 < items.size() && IsWordIn(items[i + 1], {"of"})) {
    size_t k = i + 2;
    while (k < items.size() && IsWordIn(items[k], {"the", "all", "this", "that", "their", "its"})) ++k;
    const bool kind = k < items.size() && (items[k].Has(Slot::kEvents) || items[k].Has(Slot::kCopyKind));
    const bool time = k + 1 < items.size() && items[k + 1].Has(Slot::kWeakTotal) && !items[k + 1].Says(Measure::kSpan);
    if (kind && time && std::find(c.measures.begin(), c.measures.end(), Measure::kShare) == c.measures.end()) {
      c.measures.push_back(Measure::kTotal);
      c.measures.push_back(Measure::kShare);
    }
  }
  // "top 3 calls by total time, with their call counts": the total said after "by" ranks.
  for (size_t k = i;
       k-- > 0 && (items[k].Has(Slot::kStop) || items[k].Has(Slot::kWeakTotal) || IsWordIn(items[k], {"by"}));) {
    if (IsWordIn(items[k], {"by"})) c.by_total = true;
  }
  c.gpu_time = c.gpu_time || e.value == 2;
  c.wall = c.wall || e.value == 3;
}

// One lexicon entry at position i, read where it stands: a noun after "which", ids after a noun, a side of "than".
void ReadEntry(const std::vector<Item>& items, size_t i, const lexicon::Entry& e, Clause& c, std::vector<bool>& read) {
  if (ReadFlag(items, i, e, c)) return;
  // "size per migration", "time per copy": events named after "per" before any other, a unit of the figure.
  const bool events_word = e.slot == Slot::kEvents || e.slot == Slot::kCopyKind;
  if (events_word && i > 0 && Lower(items[i - 1].word) == "per" && !c.events && c.copy_kind.empty()) c.per_unit = true;
  switch (e.slot) {
    case Slot::kMeasure:
      if (DataOfWhatHappened(items, i, c)) break;
      ReadMeasure(items, i, static_cast<Measure>(e.value), c);
      break;
    case Slot::kWeakTotal:
      ReadWeakTotal(items, i, e, c);
      break;
    case Slot::kEvents:
      if (auto n = NumberBeforeNoun(items, i, read)) c.number_before_noun = *n;
      c.gpu_kinds |= GpuKindBit(static_cast<EventKind>(e.value));
      if ((c.versus || (c.compare && OtherKind(c, static_cast<EventKind>(e.value)))) &&
          (c.events || !c.names.empty() || !c.copy_kind.empty())) {
        c.versus_events = static_cast<EventKind>(e.value);
      } else if (!c.events) {
        c.events = static_cast<EventKind>(e.value);
        const std::string w = Lower(items[i].word);
        c.bare_calls = e.value == static_cast<uint8_t>(EventKind::kApi) && (w == "calls" || w == "call");
      } else if (SecondKindUnread(c, static_cast<EventKind>(e.value))) {
        c.unread.push_back(items[i].word);
      }
      break;
    case Slot::kApiClass:
      c.api_class = lexicon::ApiClasses()[e.value];
      if (!c.events) c.events = EventKind::kApi;
      break;
    case Slot::kCopyKind:
      ReadCopyKind(e.value, items[i].word, c);
      break;
    case Slot::kMore:
      ReadQuantity(items, i, e.value, c);
      break;
    case Slot::kDeviceNoun:
    case Slot::kProcessNoun:
    case Slot::kStreamNoun:
      ReadIds(items, i, c, read);
      break;
    case Slot::kTop:
    case Slot::kBottom:
      c.rank = e.slot == Slot::kTop ? Rank::kTop : Rank::kBottom;
      c.rank_by_size = c.rank_by_size || e.value == 2;
      c.rank_by_weight = c.rank_by_weight || IsWordIn(items[i], {"top", "heaviest", "most expensive", "dominant",
                                                                 "dominates", "bottom", "cheapest"});
      if (auto n = NumberAfter(items, i, read)) c.limit = std::min(IdOf(*n).value_or(101), 101);  // CheckQuery: <= 100
      ReadQuantity(items, i, e.value, c);
      // "the bottom 3 streams by kernel time": a GPU, process, stream or range noun ranked is the grouping ("the
      // biggest copy" ranks no names).
      if (auto g = GroupAfter(items, i); g && *g != GroupBy::kName && !c.group) c.group = *g;
      // "the heaviest one": "one" stands for what was said before, as after "the shortest" (ReadMeasureEntry).
      if (i + 1 < items.size() && IsWordIn(items[i + 1], {"one", "ones"})) c.superlative_one = true;
      break;
    case Slot::kWhich:
    case Slot::kPer:
      ReadWhichOrPer(items, i, e, c);
      break;
    case Slot::kLess:
      c.less = !c.versus;
      ReadQuantity(items, i, e.value, c);
      break;
    case Slot::kFirst:
    case Slot::kBetween:
    case Slot::kLast:
      ReadWindow(items, i, c, read);
      break;
    default:
      break;
  }
}

// "in the TensorRT trace", "nvFuser H200 trace:", "TensorRT fp16 run: ...": a name said, with other names or words of
// context after it, before a noun for the recording itself says which recording is meant, not which events are asked
// about. "run" is such a noun only where the clause opens with the name ("how long did X run" asks about X).
bool DescribesTheRecording(const std::vector<Item>& items, size_t i) {
  static constexpr std::string_view kRecording[] = {
      "trace",  "traces", "profile",  "profiles", "capture",     "export",  "recording", "report",     "session",
      "engine", "job",    "workload", "app",      "application", "program", "benchmark", "simulation", "script"};
  // The clause opens with the name: before it only stop words, names and words of context ("TensorRT fp16 run:").
  bool opens = true;
  // "how many kernels did TensorRT run": a framework's name before "run" is the program that ran, whatever the profile
  // also calls by that name.
  const bool framework = lexicon::IsContextWord(Lower(items[i].word));
  for (size_t k = 0; k < i; ++k) {
    opens = opens && (items[k].Has(Slot::kStop) || items[k].kind == Item::kName ||
                      (items[k].kind == Item::kUnknown && lexicon::IsContextWord(Lower(items[k].word))));
  }
  for (size_t k = i + 1; k < items.size(); ++k) {
    const std::string w = Lower(items[k].word);
    if (std::find(std::begin(kRecording), std::end(kRecording), w) != std::end(kRecording)) return true;
    if ((w == "run" || w == "runs" || w == "ran") && (opens || framework)) return true;
    const bool describes =
        items[k].kind == Item::kName || (items[k].kind == Item::kUnknown && lexicon::IsContextWord(w));
    if (!describes) return false;
  }
  return false;
}

// "its", "their", "those", "these", "them", "they": the clause means the events the question named before.
bool PointsBackWord(const std::string& lower) {
  return lower == "its" || lower == "their" || lower == "those" || lower == "these" || lower == "them" ||
         lower == "they" || lower == "such";
}

// "the longest time between one kernel ending and the next starting", "on average, how much empty time is there from
// one sample kernel ending to the next one starting": the statistic asked of the gaps the phrase defined. The
// longest is the longest gap, the average their mean, how many their count; a time word beside one of those is the
// word that asked it, and alone it is their sum, the idle time.
void StatisticsOfTheGaps(Clause& c) {
  if (!c.gap_phrase) return;
  std::vector<Measure> out;
  for (Measure m : c.measures) {
    const Measure g = m == Measure::kMax       ? Measure::kMaxGap
                      : m == Measure::kAverage ? Measure::kAvgGap
                      : m == Measure::kCount   ? Measure::kGaps
                      : m == Measure::kTotal   ? Measure::kIdle
                                               : m;
    if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  }
  if (out.size() > 1) out.erase(std::remove(out.begin(), out.end(), Measure::kIdle), out.end());
  c.measures = out;
}

// Whether every measure is of the idle gaps counted (how many, the longest, their mean): those a gap bound bounds.
bool GapsOnly(const std::vector<Measure>& measures) {
  return !measures.empty() && std::all_of(measures.begin(), measures.end(), IsGapMeasure);
}

// Whether a clause asks something: a measure, "which", a ranking, a comparison, a yes or no, a place in a ranking.
bool Asks(const Clause& c) {
  return c.elapsed || !c.measures.empty() || c.weak_total || c.weak_time || c.which || c.count_groups ||
         c.rank != Rank::kNone || c.versus || c.compare || c.yes_no || c.position > 0 || c.threshold.has_value();
}

// What a clause compares that a Query cannot: "than" with nothing on its other side, a launch figure against the SMs.
void UnreadComparisons(Clause& c) {
  // "how much idle time is in gaps longer than 1 ms": a bound on each gap said with a measure other than how many gaps
  // there are and the longest, which a Query's gap bounds do not bound.
  const bool gaps = std::any_of(c.measures.begin(), c.measures.end(), [](Measure m) {
    return m == Measure::kGaps || m == Measure::kMaxGap || m == Measure::kAvgGap || m == Measure::kIdle ||
           m == Measure::kIdleShare;
  });
  if (gaps && !GapsOnly(c.measures) && (c.longer_than_ns >= 0 || c.shorter_than_ns >= 0))
    c.unread.push_back("(a bound on each idle gap)");
  // "the kernel's share of (kernel + memcpy) time": a share of a sum of kinds of events, which no Query holds.
  if (c.share_of_sum && std::find(c.measures.begin(), c.measures.end(), Measure::kShare) != c.measures.end())
    c.unread.push_back("(a share of a sum of events)");
  // "are the DtoH copies pageable or pinned?": which kind they are, which no measure of the two sides says.
  if (!c.versus_memory.empty() && c.yes_no && c.measures.empty() && !c.weak_total && !c.weak_time)
    c.unread.push_back(c.versus_memory);
  // "fewer thread blocks than that": a "than" with nothing on its other side compares with what a Query cannot hold.
  const bool other_side = !c.versus_names.empty() || c.versus_events || !c.versus_copy_kind.empty() ||
                          !c.versus_family.empty() || c.versus_nth != 0 || !c.versus_devices.empty() ||
                          !c.versus_pids.empty() || c.versus_stream >= 0 || c.devices.size() == 2 ||
                          c.pids.size() == 2 || c.names.size() >= 2;
  if (c.versus && c.than && !other_side && !c.versus_measure) c.unread.push_back("than ...");
  // "more than 1 s after the first kernel": an origin for a window the clause does not give (a bound is no window).
  // A clause that asks nothing lends it to the clause after it ("Counting from the first kernel, how many ... in the
  // first 100 ms?").
  if (c.from_first_kernel && !c.from_s && !c.origin && Asks(c)) c.unread.push_back("after the first kernel");
  // "fewer blocks than the GPU has SMs": one measure against another of the same launch, which a Query does not
  // compare (it compares one measure of two subjects or places).
  const auto asks = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m) != c.measures.end(); };
  const bool sms_compared = c.versus_measure == Measure::kSmCount && c.versus_partner &&
                            IsLaunchConfiguration(*c.versus_partner) && !other_side;
  if ((c.versus || c.threshold || c.any) && asks(Measure::kSmCount) && !sms_compared &&
      (asks(Measure::kGrid) || asks(Measure::kBlock) || asks(Measure::kThreads)))
    c.unread.push_back("than ... SMs");
}

void NamesOfTheRun(Clause& c) {
  // "LLaMA inference sim: how many memset operations ...", "bytes moved by memcpys in this cuFCM run": copies and
  // memsets have no names of their own, and a kernel's or a range's name is none of theirs: it says which run is
  // meant. A CUDA call's whole name ("the cudaMemcpyAsync copies") says which copies, and is read as before.
  if ((c.events == EventKind::kMemcpy || c.events == EventKind::kMemset) && !c.versus) {
    for (size_t n = c.names.size(); n-- > 0;) {
      const auto& classes = c.names[n].second;
      const bool whole = std::find(c.exact.begin(), c.exact.end(), c.names[n].first) != c.exact.end();
      if (whole && std::find(classes.begin(), classes.end(), NameClass::kApi) != classes.end()) continue;
      // "compare HtoD copies, DtoH copies and the solver kernel": a kernel set beside copy kinds is a third side,
      // which no Query holds: unread, never taken as describing the copies.
      (c.compare || !c.versus_copy_kind.empty() ? c.unread : c.described).push_back(c.names[n].first);
      DropName(c, n);
    }
  }
}

// The flags single words set, wherever they stand: pointing back, "than", a word for all of a kind, "it", "each".
void ReadWordFlags(const std::string& lower, Clause& c) {
  c.points_back = c.points_back || PointsBackWord(lower);
  c.nested = c.nested || lower.rfind("nested", 0) == 0;
  c.than = c.than || lower == "than";
  c.every = c.every || lower == "all" || lower == "every" || lower == "total" || lower == "overall" ||
            lower == "whole" || lower == "entire" || lower == "in total";
  // Not "total": "Kernel count and total kernel time" keeps the place the clause before said.
  c.widens = c.widens || lower == "all" || lower == "overall" || lower == "whole" || lower == "entire" ||
             lower == "altogether";
  c.it = c.it || lower == "it" || lower == "does it" || lower == "did it" || lower == "is it";
  c.running = c.running || lower == "running" || lower == "executing" || lower == "computing" || lower == "working" ||
              lower == "covered" || lower == "occupied" || lower == "taken" || lower == "on it" || lower == "on them" ||
              lower == "doing something" || lower == "doing anything";
  c.launch_noun = c.launch_noun || lower == "launches";
  const auto ends = [&](std::string_view w) {
    return lower.size() >= w.size() && lower.compare(lower.size() - w.size(), w.size(), w) == 0;
  };
  c.time_noun = c.time_noun || ends("duration") || ends("durations") || ends("runtime") || ends("run time");
  c.each_side = c.each_side || lower == "each" || lower == "both" || lower == "separately";
  c.faster = c.faster || lower == "faster" || lower == "quicker";
  c.base_names = c.base_names || lower == "base name" || lower == "base names" || lower == "short name" ||
                 lower == "short names" || lower == "short base name" || lower == "short base names";
  c.slower = c.slower || lower == "slower";
}

// An ordinal word: a place in a ranking ("the second one"), else unread ("the second kernel").
void ReadOrdinal(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  read[i] = true;
  if (auto n = RankPosition(items, i, read)) {
    c.position = *n;
    for (size_t j = i + 1; j < items.size() && j <= i + 4; ++j) c.position_by_measure |= RankedBy(items, j);
  } else {
    c.unread.push_back(items[i].word);
  }
}

// "How many GPUs does the profile list?", "... installed in the box": the GPUs of the machine, idle ones too, which no
// Query counts (a count of GPUs is of those its events ran on): unread, never answered with the GPUs that ran work.
// "List the GPUs ..." at the clause's start is a request, not this.
void GpusTheMachineHas(const std::vector<Item>& items, Clause& c) {
  if (c.count_groups != GroupBy::kDevice) return;
  static constexpr std::string_view kMachine[] = {"lists",   "listed",  "installed", "visible", "available",
                                                  "present", "machine", "box",       "node",    "system"};
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string w = Lower(items[i].word);
    const bool machine = std::find(std::begin(kMachine), std::end(kMachine), w) != std::end(kMachine);
    if (!machine && !(w == "list" && i > 0)) continue;
    std::erase(c.unread, items[i].word);  // the GPUs the export lists, counted: the word says whose GPUs
    c.events = EventKind::kDevices;
  }
  if (c.events != EventKind::kDevices) return;
  c.count_groups.reset();
  if (std::find(c.measures.begin(), c.measures.end(), Measure::kCount) == c.measures.end())
    c.measures.insert(c.measures.begin(), Measure::kCount);
}

// "What GPU is this?", "which card was this profiled on?": which GPU, asking no figure of any events, is which GPUs
// the export lists.
void WhichGpuThisIs(Clause& c) {
  if (!c.which || c.group != GroupBy::kDevice || !c.measures.empty() || c.weak_total || c.weak_time || c.events ||
      !c.names.empty() || !c.devices.empty() || c.rank != Rank::kNone || c.rank_by_measure || c.count_groups)
    return;
  c.events = EventKind::kDevices;
  c.group.reset();
  c.which = false;
  c.measures = {Measure::kCount};
}

// One pass over a clause's items: names, then each lexicon entry; what nothing read is returned as unread.
// "what kernel ran", "what stream carries the most": "what" before a noun is "which". Not before a noun with its id:
// "what's GPU 1's kernel time" names a GPU.
void ReadWhatBeforeANoun(const std::vector<Item>& items, size_t i, Clause& c) {
  const std::string w = Lower(items[i].word);
  if ((w != "what" && w != "whats") || i + 1 >= items.size() || !IsGroupNoun(items[i + 1])) return;
  if (auto g = GroupAfter(items, i)) {
    c.which = true;
    c.group = *g;
    c.plural = c.plural || PluralAfter(items, i);
  }
}

// Whether a clause asks of communication against compute ("how much of the NCCL time is exposed").
bool AsksOfCommunication(const std::vector<Item>& items) {
  return std::any_of(items.begin(), items.end(), [](const Item& it) {
    return std::any_of(it.entries.begin(), it.entries.end(), [](const lexicon::Entry& e) {
      return e.slot == Slot::kMeasure && IsCommMeasure(static_cast<Measure>(e.value));
    });
  });
}

// "how much comm time is exposed": in such a clause, a word for communication, a part of names too ("comm" of an NVTX
// range "comm_step"), means the communication kernels, which the measure is of.
bool IsCommunicationWord(const Item& it) {
  return (it.kind == Item::kUnknown || (it.kind == Item::kName && !it.exact)) && lexicon::IsCommWord(Lower(it.word));
}

// "kernel + memcpy": "+" or "plus" between two nouns for events.
bool PlusBetweenKinds(const std::vector<Item>& items) {
  for (size_t i = 1; i + 1 < items.size(); ++i) {
    const bool plus = items[i].word == "+" || Lower(items[i].word) == "plus";
    if (plus && items[i - 1].Has(Slot::kEvents) && items[i + 1].Has(Slot::kEvents)) return true;
  }
  return false;
}

// "kernels launched inside those ranges", "in them": inside the ranges the question named before; and "what percentage
// is that of the total time in X", "how large is that total as a percentage of X", "A as a share of B": a share of
// what was asked before (or of A) against a base after "of" (ShareOfABase). Marks the words it reads.
void ReadPointingPlaces(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  for (size_t i = 0; i + 1 < items.size(); ++i) {
    const std::string next = Lower(items[i + 1].word);
    if (items[i].Has(Slot::kInside) && PointsBackWord(next)) {
      c.inside_those = true;
      read[i] = read[i + 1] = true;
      if (i + 2 < items.size() && items[i + 2].Has(Slot::kRangeNoun)) read[i + 2] = true;
    }
    const bool share = items[i].Says(Measure::kShare);
    if (!share || c.share_of_that) continue;
    for (size_t k = i + 1; k + 1 < items.size() && k <= i + 3; ++k) {
      const std::string w = Lower(items[k].word);
      if ((w == "that" || w == "this" || w == "it") && Lower(items[k + 1].word) == "of") {
        c.share_of_that = true;
        c.share_of_at = k + 1;
        read[k] = read[k + 1] = true;
      }
    }
    // "as a percentage of": the share's base follows; "how large" or "how big" before it asks that share.
    // ("as a percentage" is one phrase of the lexicon; "as a share" is three words.)
    size_t a = i >= 1 && IsWordIn(items[i - 1], {"a", "an"}) ? i - 1 : i;
    if (a >= 1 && IsWordIn(items[a - 1], {"as"})) {
      --a;
    } else if (Lower(items[i].word).rfind("as ", 0) != 0) {
      continue;
    }
    if (next == "of") {
      c.share_of_that = true;
      c.share_of_at = i + 1;
      for (size_t k = a; k <= i + 1; ++k) read[k] = read[k] || k != i;
      for (size_t k = 1; k < a; ++k) {
        if (IsWordIn(items[k], {"large", "big"}) && IsWordIn(items[k - 1], {"how"})) read[k] = true;
      }
    }
  }
}

// "What percentage of the find_centers time is spent inside myelinGraphExecute?", "what share of train_step was
// the allreduce range": a share said of one range's time, then a verb and a second range: the second's time as a
// percentage of the first's (Form::kShare). Whether the question says "inside" or not, the part is the second range's
// own time, not the first range's time inside it (nor the first inside the second).
void ShareOfOneRangeInAnother(const std::vector<Item>& items, Clause& c) {
  if (c.share_of_that || c.versus || !c.versus_names.empty()) return;
  const auto range = [](const Item& it) {
    return it.kind == Item::kName &&
           std::find(it.classes.begin(), it.classes.end(), NameClass::kNvtx) != it.classes.end();
  };
  for (size_t i = 0; i + 2 < items.size(); ++i) {
    if (!items[i].Says(Measure::kShare) || !IsWordIn(items[i + 1], {"of"})) continue;
    size_t base = i + 2;
    while (base < items.size() && IsWordIn(items[base], {"the", "all", "its", "their"})) ++base;
    if (base >= items.size() || !range(items[base])) return;
    size_t verb = base + 1;
    while (verb < items.size() && verb <= base + 3 && !items[verb].Has(Slot::kAuxiliary) &&
           !IsWordIn(items[verb], {"is", "was", "are", "were"}))
      ++verb;
    if (verb >= items.size() || verb > base + 3) return;
    size_t part = verb + 1;
    while (part < items.size() && items[part].kind != Item::kName && items[part].kind != Item::kSeparator &&
           !items[part].Has(Slot::kEvents))
      ++part;
    if (part >= items.size() || !range(items[part])) return;
    c.names = {{items[part].name, items[part].classes}};
    c.names_at = {part};
    c.versus_names = {{items[base].name, items[base].classes}};
    c.inside.clear();
    c.events = EventKind::kNvtx;
    c.share_of_that = c.share_form = true;  // the measure the share is of: ShareOfTheBase
    c.share_of_at = i + 1;
    return;
  }
}

// The base of a share said after "of" (ReadPointingPlaces): its names and its events noun are the other side, not the
// clause's subject. A base with a name of its own makes the share a comparison (the first side as a percentage of
// the second, Form::kShare); a base that only says a kind ("of all the time spent in CUDA API calls") is the whole of
// that kind, a share's own base, when it is the subject's kind (ToQuery).
void ShareOfABase(const std::vector<Item>& items, Clause& c) {
  if (!c.share_of_that) return ShareOfOneRangeInAnother(items, c);  // a base said before what it is the base of
  const size_t at = c.share_of_at;
  for (size_t n = c.names.size(); n-- > 0;) {
    // "as % of the NCCL time": a library's name is the kind of its events (the communication kernels a measure
    // of communication is of), no base of its own.
    if (c.names_at[n] <= at || lexicon::IsLibraryName(Lower(c.names[n].first))) continue;
    c.versus_names.insert(c.versus_names.begin(), c.names[n]);
    DropName(c, n);
  }
  bool kind_before = false;
  for (size_t k = 0; k < items.size(); ++k) {
    const bool ranges = items[k].Has(Slot::kRangeNoun);
    if (!items[k].Has(Slot::kEvents) && !ranges) continue;
    if (k < at) {
      kind_before = true;
    } else {
      c.versus_events = ranges ? EventKind::kNvtx : static_cast<EventKind>(items[k].Value(Slot::kEvents));
    }
  }
  if (c.versus_events && !kind_before) {
    c.events.reset();
    c.range_noun = false;
  }
  // "of the total time in ExecutionContext::execute ranges": the range's own time is the base. Other events inside
  // it ("of the kernel time in X") would be a base in a place, which a versus side does not hold with a name.
  if (!c.inside.empty() && c.inside_at > at) {
    if (c.versus_events && *c.versus_events != EventKind::kNvtx) {
      c.unread.push_back("(a share of another base)");
      return;
    }
    c.versus_names.emplace_back(c.inside, items[c.inside_at].classes);
    c.versus_events = EventKind::kNvtx;
    c.inside.clear();
  }
  c.share_form = !c.versus_names.empty();
}

// "from the first kernel start to 100 ms later", "after the first kernel, until 2 s after": the window's end, a length
// of time counted from the origin said before it.
// A length of time said as a number and its unit, in seconds: nullopt past 1e18 ns, or not finite, or below 0.
std::optional<double> LengthInSeconds(const Item& number, const Item& unit) {
  const double v = number.number * UnitFactor(unit.Value(Slot::kUnit));
  if (!std::isfinite(v) || v < 0 || v > 1e18) return std::nullopt;
  return v / 1e9;
}

void ReadLengthAfterOrigin(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  // The window from the origin, as long as the length at k said (a number, then its unit at k + 1).
  const auto from_origin = [&](size_t k, bool above_zero) {
    const auto length = LengthInSeconds(items[k], items[k + 1]);
    if (!length || (above_zero && *length == 0)) return false;
    c.from_s = 0.0;
    c.to_s = *length;
    return true;
  };
  bool origin = false;
  for (size_t i = 0; i + 3 < items.size(); ++i) {
    origin = origin || items[i].Has(Slot::kFromFirstKernel);
    if (!origin || read[i] || !IsWordIn(items[i], {"to", "until", "till", "through"}) ||
        items[i + 1].kind != Item::kNumber || !IsTimeUnit(items[i + 2]) ||
        !IsWordIn(items[i + 3], {"later", "after", "on"}) || !from_origin(i + 1, false))
      continue;
    read[i] = read[i + 1] = read[i + 2] = read[i + 3] = true;
  }
  // "Measured from the end of the first X range, how many kernels started within 3 ms?": within a length, in a
  // clause whose window has an origin, is the window from it.
  const bool has_origin = std::any_of(items.begin(), items.end(), [](const Item& it) {
    return it.origin_at.has_value() || it.Has(Slot::kFromFirstKernel);
  });
  for (size_t i = 0; has_origin && i + 2 < items.size(); ++i) {
    if (read[i] || c.from_s || !IsWordIn(items[i], {"within"}) || items[i + 1].kind != Item::kNumber ||
        !IsTimeUnit(items[i + 2]) || !from_origin(i + 1, true))
      continue;
    read[i] = read[i + 1] = read[i + 2] = true;
  }
  // "in the 3 ms after the end of the first X range", "during the 100 ms following the first kernel": a length said
  // right before its origin is the window from it.
  for (size_t i = 1; i + 2 < items.size(); ++i) {
    const Item& at = items[i + 2];
    if (read[i] || items[i].kind != Item::kNumber || !IsTimeUnit(items[i + 1]) ||
        !(at.origin_at || at.Has(Slot::kFromFirstKernel)) ||
        !IsWordIn(items[i - 1], {"the", "in", "during", "within", "over", "for"}) || !from_origin(i, true))
      continue;
    read[i] = read[i + 1] = true;
  }
}

// "more than double device 1's", "more than 20 times the total kernel time", "at least 3x the copies": how many
// times the second side the first is set against, said after a word of comparing.
void ReadFactor(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  for (size_t i = 0; i < items.size(); ++i) {
    double f = 0;
    size_t n = 1;
    if (IsWordIn(items[i], {"double", "twice"})) f = 2;
    if (IsWordIn(items[i], {"triple", "thrice"})) f = 3;
    if (items[i].kind == Item::kNumber && i + 1 < items.size() && IsWordIn(items[i + 1], {"times", "x", "\u00d7"})) {
      f = items[i].number;
      n = 2;
    }
    if (!(f > 0) || !std::isfinite(f)) continue;
    // A second side follows ("20 times the kernel time", "double device 1's"); "more than 1,000 times?" counts.
    const size_t next = i + n;
    const bool side = next < items.size() &&
                      (items[next].kind == Item::kName || items[next].Has(Slot::kEvents) || IsGroupNoun(items[next]) ||
                       items[next].Has(Slot::kMeasure) || items[next].Has(Slot::kWeakTotal) ||
                       IsWordIn(items[next], {"the", "that", "its", "their", "as", "what", "of"}));
    if (!side) continue;
    bool compared = false;
    for (size_t k = i; k-- > 0 && k + 3 >= i;) {
      compared = compared || items[k].Has(Slot::kMore) || items[k].Has(Slot::kComparator) ||
                 IsWordIn(items[k], {"than", "more", "less", "least", "larger", "longer", "bigger", "greater"});
    }
    if (!compared) continue;
    c.factor = f;
    for (size_t k = i; k < i + n; ++k) read[k] = true;
  }
}

// A word that names a span or a window ("span", "first-to-last-kernel span", "active window").
bool SaysASpan(const Item& it) {
  const std::string w = Lower(it.word);
  return w.find("span") != std::string::npos || w.find("window") != std::string::npos;
}

// "the first and the last memcpy", "the first vs the second Model range", "first or last kernel": two places in time
// of one kind of events, set side by side: the one event against the other (Clause::versus_nth). Not a span ("between
// the first and the last kernel", "from the first ... to the last"): a word of a window before them leaves it to
// ReadInstance's span.
bool TwoInstances(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  const auto joiner = [&](size_t at) {
    return items[at].Has(Slot::kVersus) || IsWordIn(items[at], {"and", "or", "vs", "versus", "against", "than"});
  };
  // "the first-to-last-kernel span", "its active window (first GPU op to last)": places that bound a span.
  if (std::any_of(items.begin(), items.end(), SaysASpan)) return false;
  // The events noun after a place (a name, a copy kind, "nvtx" or "cuda" may stand between), or items.size().
  const auto noun_after = [&](size_t at) {
    size_t j = at + 1;
    while (j < items.size() && j <= at + 3 &&
           (items[j].kind == Item::kName || items[j].Has(Slot::kCopyKind) || IsWordIn(items[j], {"nvtx", "cuda"})))
      ++j;
    const bool noun = j < items.size() && (items[j].Has(Slot::kEvents) || items[j].Has(Slot::kRangeNoun));
    return noun ? j : items.size();
  };
  for (size_t k = 0; k + 2 < items.size(); ++k) {
    const auto [first, n1] = PlaceInTime(items, k);
    if (first == 0 || n1 != 1) continue;
    for (size_t w = k >= 2 ? k - 2 : 0; w < k; ++w) {
      if (items[w].Has(Slot::kBetween) || IsWordIn(items[w], {"between", "from", "since"})) return false;
    }
    // "the first and the last memcpy" (the noun after the second place), or "the first kernel ... than the second
    // (kernel, one)" (a noun after each, or "one" after the second).
    const size_t first_noun = noun_after(k);
    const size_t from = first_noun < items.size() ? first_noun + 1 : k + 1;
    // "first to last", "from the first until the last": a span; after "compare", "to" and "with" join two sides.
    const bool compare = std::any_of(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(k), [](const Item& it) {
      return IsWordIn(it, {"compare", "comparing"});
    });
    for (size_t m = from; m < items.size() && m <= from + 4; ++m) {
      const auto [second, n2] = PlaceInTime(items, m);
      if (second == 0 || n2 != 1 || second == first) continue;
      bool joined = false, bounds = false;
      for (size_t at = k + 1; at < m; ++at) {
        const bool to = IsWordIn(items[at], {"to", "with"});
        joined = joined || joiner(at) || (compare && to);
        bounds = bounds || (!compare && (to || IsWordIn(items[at], {"till", "until", "through", "thru"})));
      }
      if (bounds) return false;
      const size_t second_noun = noun_after(m);
      const bool one = m + 1 < items.size() && IsWordIn(items[m + 1], {"one"});
      const bool end = m + 1 == items.size() || items[m + 1].kind == Item::kSeparator;
      if (!joined || !(second_noun < items.size() || ((one || end) && first_noun < items.size()))) break;
      c.nth = first;
      c.versus_nth = second;
      read[k] = read[m] = true;
      if (one) read[m + 1] = true;
      // "first vs last cudaLaunchKernel call": a word that only joins the two places is theirs, so that the name after
      // it stays both sides' (a "than" stays the comparison's).
      for (size_t at = from; at < m; ++at) {
        if (IsWordIn(items[at], {"and", "or", "vs", "versus", "against", "the"})) read[at] = true;
      }
      return true;
    }
  }
  return false;
}

// "the second Model range", "the later of the two runFusionWithInputs ranges", "the last cudaMemcpy call": one event
// by its place in time, said with a determiner before the place and the events' noun after it (a name or a copy kind
// may stand between). "The first 5 kernels", "the first kernels" and "the first and last" are no one event; "the
// second one" and "the second largest" are places in a ranking (RankPosition).
void ReadInstance(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  // "between the first and the last kernel", "from its first piece of GPU work to its last": a span, no one event.
  // (A word of a phrase counts: "the first GPU activity" is one item.)
  const auto said = [&](std::initializer_list<std::string_view> words) {
    return std::any_of(items.begin(), items.end(), [&](const Item& it) {
      const std::string lower = Lower(it.word);
      const auto of_it = WordsOfPhrase(lower);
      return std::find_first_of(of_it.begin(), of_it.end(), words.begin(), words.end()) != of_it.end();
    });
  };
  if (TwoInstances(items, c, read)) return;
  if (said({"first", "earliest", "initial"}) && said({"last", "latest", "final"})) return;
  // A span read from the sentence ("from the first GPU activity to the last one"): what is left of it is no event.
  if (std::any_of(items.begin(), items.end(),
                  [](const Item& it) { return Lower(it.word).find("span") != std::string::npos; }))
    return;
  const bool events_said = std::any_of(
      items.begin(), items.end(), [](const Item& it) { return it.Has(Slot::kEvents) || it.Has(Slot::kRangeNoun); });
  for (size_t k = 1; k < items.size(); ++k) {
    // "the very first kernel": "very" only stresses the place.
    const size_t det = IsWordIn(items[k - 1], {"very"}) && k >= 2 ? k - 2 : k - 1;
    if (!IsWordIn(items[det], {"the", "that", "its", "their"})) continue;
    // "under the second forward range": the range a scope is inside, not the events asked of.
    if (det >= 1 && items[det - 1].Has(Slot::kInside)) continue;
    if (read[k]) continue;  // "ignoring the first one": those left out (ReadLeftOut)
    const auto [place, n] = PlaceInTime(items, k);
    if (place == 0) continue;
    const bool of_two = n > 1;  // "the later of the two": a plural noun follows
    // "the 50th launch of X", "the second occurrence of the Model range": a word of one occurrence, "of", and what
    // occurs.
    size_t occurrence = 0;
    if (k + n + 2 < items.size() &&
        IsWordIn(items[k + n], {"launch", "instance", "occurrence", "invocation", "execution", "run", "call"}) &&
        IsWordIn(items[k + n + 1], {"of"}))
      occurrence = IsWordIn(items[k + n + 2], {"the", "a", "an"}) ? 3 : 2;
    size_t j = k + n + occurrence;
    while (j < items.size() && j <= k + n + occurrence + 2 &&
           (items[j].kind == Item::kName || items[j].Has(Slot::kCopyKind) || IsWordIn(items[j], {"nvtx", "cuda"})))
      ++j;
    // "which kernel was the very last one to start": "one" of the events the clause names.
    const bool one = j < items.size() && IsWordIn(items[j], {"one"}) && events_said && !of_two;
    const bool noun = j < items.size() && (items[j].Has(Slot::kEvents) || items[j].Has(Slot::kRangeNoun) || one);
    // "the 100th myelinGraphExecute", "the third cudaMemcpy": a name alone says its events (ClassesOf), as a noun
    // after it would.
    const bool named_alone = !noun && !of_two && j > k + n + occurrence && items[j - 1].kind == Item::kName;
    if (!noun && !named_alone) continue;
    if (noun && !one && EndsInS(items[j]) != of_two && !(of_two && items[j].kind == Item::kName)) continue;
    const size_t last = named_alone ? j - 1 : j;  // the last word of the event said
    if (RankedBy(items, last + 1)) continue;  // "the third kernel by total time": a place in a ranking (RankPosition)
    // "the first kernel 5 ms": a length after it is a window's, not one event.
    if (last + 1 < items.size() && (items[last + 1].kind == Item::kNumber || IsWordIn(items[last + 1], {"and", "or"})))
      continue;
    // "... to start", "... to run", "... to execute": the place is by start, as nth is.
    const bool to_start = last + 2 < items.size() && IsWordIn(items[last + 1], {"to"}) &&
                          IsWordIn(items[last + 2], {"start", "begin", "run", "execute", "launch", "be launched"});
    c.nth = place;
    for (size_t r = k; r < k + n + occurrence; ++r) read[r] = true;
    if (IsWordIn(items[k - 1], {"very"})) read[k - 1] = true;
    if (one) read[j] = true;
    if (to_start) read[last + 1] = read[last + 2] = true;
    return;
  }
}

// "how many NVTX ranges sit inside it", "kernels launched inside those": inside what the Query before named (ToQuery).
void ReadInsidePointed(const std::vector<Item>& items, Clause& c) {
  // Events of the clause's own before the word of place ("how many NVTX ranges sit inside it"); "time spent in them"
  // is the time of what was said before, not a place.
  bool events = false;
  for (size_t k = 0; k + 1 < items.size(); ++k) {
    events = events || items[k].Has(Slot::kEvents) || items[k].Has(Slot::kRangeNoun);
    if (!events || !IsWordIn(items[k], {"inside", "within", "nested in", "nested inside", "nested within"}) ||
        !IsWordIn(items[k + 1], {"it", "them", "those", "these"}))
      continue;
    // "inside those ranges": a noun after the pronoun is the scene's or the clause's own (TakeTheScene).
    if (k + 2 < items.size() && (items[k + 2].Has(Slot::kRangeNoun) || items[k + 2].Has(Slot::kEvents))) continue;
    c.inside_pointed = true;
  }
}

// The phrases read before the words one by one: a threshold, bounds on each event, places said by pointing back.
// The words at `i` that leave out what follows ("ignoring", "leaving out", "not counting"): how many, 0 for none.
size_t LeavesOut(const std::vector<Item>& items, size_t i) {
  if (IsWordIn(items[i], {"excluding", "exclude", "except", "ignoring", "ignore", "skipping", "skip", "dropping",
                          "drop", "discarding", "discard", "omitting", "omit", "without", "minus"}))
    return 1;
  static constexpr std::pair<std::string_view, std::string_view> kTwo[] = {
      {"leaving", "out"}, {"leave", "out"}, {"not", "counting"}, {"not", "including"}, {"except", "for"}};
  if (i + 1 >= items.size()) return 0;
  const std::string w = Lower(items[i].word), next = Lower(items[i + 1].word);
  return std::any_of(std::begin(kTwo), std::end(kTwo), [&](const auto& p) { return p.first == w && p.second == next; })
             ? 2
             : 0;
}

// "ignoring the first (warm-up) occurrence", "leaving out the very first token", "excluding the first 3 iterations",
// "skip the last two calls": words that leave out, then the first or last of the events by start, one or a number
// of them (Subject::skip). What they are is said by a noun of one occurrence ("one", "iteration", "run"), which is
// read here, or by the events' noun or name, left to be read as the clause's subject. Marks the words it reads.
void ReadLeftOut(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  for (size_t i = 0; i < items.size(); ++i) {
    const size_t said = LeavesOut(items, i);
    if (said == 0) continue;
    size_t k = i + said;
    while (k < items.size() && IsWordIn(items[k], {"the", "very"})) ++k;
    const auto [place, n] = PlaceInTime(items, k);
    if (place != 1 && place != -1) continue;
    size_t j = k + n;
    int32_t count = 1;
    if (j < items.size() && items[j].kind == Item::kNumber) {
      const auto id = IdOf(items[j].number);
      if (!id || *id < 1 || *id > 1000000) continue;
      count = *id;
      ++j;
    }
    // "(warm-up)", "warmup": what the ones left out were.
    while (j < items.size() && IsWordIn(items[j], {"warm-up", "warmup", "warm", "up", "cold", "(", ")"})) ++j;
    if (j >= items.size()) continue;
    const bool occurrence = IsWordIn(
        items[j], {"one", "ones", "occurrence", "occurrences", "instance", "instances", "iteration", "iterations",
                   "run", "runs", "step", "steps", "pass", "passes", "repetition", "repetitions"});
    const bool events = items[j].Has(Slot::kEvents) || items[j].Has(Slot::kRangeNoun) || items[j].kind == Item::kName;
    if (!occurrence && !events) continue;
    c.skip = place * count;
    for (size_t r = i; r < j + (occurrence ? 1 : 0); ++r) read[r] = true;
    return;
  }
}

// "after 3.2 s", "from the 8.0 s mark on", "from 3.2 s into the capture onward", "before 2 s", "up to 500 ms": a window
// open at one end (Scope::from_s or to_s alone), a time said with its unit, optionally as a mark ("the 8 s mark").
// Not when the clause has a window already ("from 2 s to 3 s" is WindowFromTo's). Marks what it reads.
void ReadOpenWindow(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  for (size_t i = 0; i + 2 < items.size(); ++i) {
    if (read[i] || c.from_s || c.to_s) return;
    const bool from = IsWordIn(items[i], {"after", "from", "since", "past", "beyond"});
    const size_t up_to = IsWordIn(items[i], {"up"}) && IsWordIn(items[i + 1], {"to"}) ? 1 : 0;
    const bool to = up_to || IsWordIn(items[i], {"before", "until", "till"});
    if (!from && !to) continue;
    size_t k = i + 1 + up_to;
    if (k < items.size() && IsWordIn(items[k], {"the"})) ++k;
    if (k + 1 >= items.size() || items[k].kind != Item::kNumber || read[k] || !IsTimeUnit(items[k + 1]) ||
        !std::isfinite(items[k].number) || items[k].number < 0)
      continue;
    size_t end = k + 2;
    if (end < items.size() && IsWordIn(items[end], {"mark", "marks", "point"})) ++end;
    // "from 2 s to 3 s", "after 2 s and before 3 s": a window with both ends, read elsewhere or not at all.
    if (end < items.size() && (JoinsASpan(items[end]) || items[end].Has(Slot::kSplit))) continue;
    const double seconds = items[k].number * UnitAfter(items, k, read);
    c.from_s = from ? seconds : 0;  // "before 2 s": from the clock's zero
    if (!from) c.to_s = seconds;
    for (size_t r = i; r < end; ++r) read[r] = true;
    // "... into the capture onward", "from the 8 s mark on": the open end said.
    for (size_t r = end; r < items.size() && r <= end + 3; ++r) {
      if (IsWordIn(items[r], {"onward", "onwards", "forward", "on"}) && from) read[r] = true;
      if (!items[r].Has(Slot::kCaptureClock) && !read[r]) break;
    }
    return;
  }
}

void ReadPhrasesOfAClause(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  ReadInsidePointed(items, c);
  ReadLeftOut(items, c, read);
  ReadInstance(items, c, read);
  ReadFactor(items, c, read);
  ReadThreshold(items, c, read);
  ReadBounds(items, c, read);
  ReadLengthAfterOrigin(items, c, read);
  ReadPointingPlaces(items, c, read);
  ReadOpenWindow(items, c, read);
}

// "How many launches is that": "that" after "is" at a clause's end is what was just said, as "it" is; so is "that"
// after an auxiliary before a verb ("what share of the span does that take"), not before a noun it points at ("does
// that kernel take"). "on that card", "in that process" (no id after it): the group a ranking before found (ToQuery).
void ReadPointingWords(const std::vector<Item>& items, Clause& c) {
  if (items.size() >= 2 && IsWordIn(items.back(), {"that", "those", "these"}) &&
      items[items.size() - 2].Has(Slot::kAuxiliary))
    c.it = true;
  for (size_t i = 1; i + 1 < items.size(); ++i) {
    const Item& next = items[i + 1];
    const bool noun = next.Has(Slot::kEvents) || next.kind == Item::kName || IsGroupNoun(next) ||
                      next.Has(Slot::kMeasure) || next.Has(Slot::kCopyKind);
    if (IsWordIn(items[i], {"that", "this"}) && items[i - 1].Has(Slot::kAuxiliary) && !noun) c.it = true;
  }
  for (size_t i = 0; i + 1 < items.size(); ++i) {
    if (IsWordIn(items[i], {"that", "this"}) && IsGroupNoun(items[i + 1]) &&
        (i + 2 >= items.size() || items[i + 2].kind != Item::kNumber))
      c.that_group = GroupOfNoun(items[i + 1]);
  }
}

// "Which kernel has the highest variance?": the variance ranks and compares as the standard deviation does; "what is
// the variance of X?" asks its figure, the deviation's square, which no skill's row holds: unread.
void UnreadVariance(const std::vector<Item>& items, Clause& c) {
  const bool ranks = c.which || c.rank != Rank::kNone || c.versus || c.compare;
  for (const Item& it : items) {
    if (!ranks && IsWordIn(it, {"variance", "variances"})) c.unread.push_back(it.word);
  }
}

// "how many SMs get no block": "no" before a measure negates it (a count of what lacks it), which no Query holds.
// ("no kernel running" is the idle time, read before: ReadNoWork.)
void UnreadNegatedMeasures(const std::vector<Item>& items, Clause& c) {
  for (size_t i = 0; i + 1 < items.size(); ++i) {
    if (IsWordIn(items[i], {"no", "zero"}) && items[i + 1].Has(Slot::kMeasure))
      c.unread.push_back(items[i].word + " " + items[i + 1].word);
  }
}

// A word of no slot that still says nothing more: "the JAX run" (a word of context); "how many kernels start in that
// window" (events starting, as a window counts them); "the two processes", "both of the 2 GPUs" (a number that
// describes a plural noun, when it is no limit; a number said in words, "the two averages", is no bound or id
// either); "the rank running as pid 1680", "listed as GPU 1" ("as" before what an id names).
bool SaysNoMore(const std::vector<Item>& items, size_t i) {
  if ((items[i].kind == Item::kUnknown && lexicon::IsContextWord(Lower(items[i].word))) ||
      (i > 0 && items[i - 1].Has(Slot::kEvents) && IsStartWord(Lower(items[i].word))))
    return true;
  const bool spelled = items[i].kind == Item::kNumber && SpelledNumber(Lower(items[i].word)).has_value();
  if (spelled || (items[i].kind == Item::kNumber && i + 1 < items.size() && IsGroupNoun(items[i + 1]) &&
                  IdOf(items[i].number).value_or(99) <= 16 && EndsInS(items[i + 1])))
    return true;
  return Lower(items[i].word) == "as" && i + 1 < items.size() && IsGroupNoun(items[i + 1]);
}

// The operation a word says of a family ("forward": fwd), when it says only that; "" otherwise.
std::string_view OperationOnly(const std::string& word) {
  const std::string lower = Lower(word);
  return lexicon::KernelFamilyWord(lower).empty() ? lexicon::KernelFamilyWord(lower, true) : std::string_view();
}
// Adds a word of the decoder's to the clause's family, once.
void AddToFamily(std::string& family, std::string_view word) {
  if (family.find(word) == std::string::npos) family += (family.empty() ? "" : " ") + std::string(word);
}

// "the FlashAttention kernels", "cuBLAS GEMMs", "the convolutions": a word for a family of kernels the decoder knows,
// which no kernel name of the profile holds (a part of a name is read as a name first), adds to the family.
// Beside a name of the profile (not one that only says an operation, "forward"), the word is read as before: a
// library's describes the name, another is unread ("the FlashAttention nvfuser kernels").
bool ReadFamilyWord(const Item& it, Clause& c) {
  if (it.kind != Item::kUnknown) return false;
  const bool named =
      std::any_of(c.names.begin(), c.names.end(), [](const auto& n) { return OperationOnly(n.first).empty(); });
  if (named) return false;
  const std::string_view family = lexicon::KernelFamilyWord(Lower(it.word));
  if (family.empty()) return false;
  AddToFamily(c.family, family);
  return true;
}

// "the FlashAttention forward kernel": with a family said, "forward" and "backward" are its operation, taken from
// the words left unread or described.
void OperationOfTheFamily(Clause& c) {
  if (c.family.empty()) return;
  // "the FlashAttention forward kernel" with a range named "forward": read as the place the kernels ran in.
  if (const std::string_view op = OperationOnly(c.inside); !op.empty()) {
    AddToFamily(c.family, op);
    c.inside.clear();
  }
  // "the FlashAttention forward kernel" where some range is named "forward": beside a family, the word is its
  // operation, not a name.
  for (size_t n = c.names.size(); n-- > 0;) {
    const std::string_view op = OperationOnly(c.names[n].first);
    if (op.empty()) continue;
    AddToFamily(c.family, op);
    DropName(c, n);
  }
  for (auto* words : {&c.unread, &c.described}) {
    for (size_t k = words->size(); k-- > 0;) {
      const std::string_view op = OperationOnly((*words)[k]);  // a second family stays unread (SecondFamily)
      if (op.empty()) continue;
      AddToFamily(c.family, op);
      words->erase(words->begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
}

// "which layer range", "the TensorRT layer NVTX ranges": "layer" before a range noun says what the ranges stand for
// (TensorRT names one NVTX range per layer): it describes them. Beside a name it is left unread: a fragment of range
// names ("weight") or a library's domain ("TensorRT") may stand there.
bool LayerOfARange(const std::vector<Item>& items, size_t i) {
  if (!IsWordIn(items[i], {"layer", "layers"})) return false;
  const size_t next = i + 1 < items.size() && IsWordIn(items[i + 1], {"nvtx"}) ? i + 2 : i + 1;
  return next < items.size() && items[next].Has(Slot::kRangeNoun);
}

// "the attention kernels vs the GEMMs", "attention and matrix multiplies": a word for a family after another with a
// word that joins or sets apart between them names a second set of kernels, the other side of a comparison
// (Clause::versus_family), never folded into the first ("cuBLAS GEMMs", side by side, is one family).
bool SecondFamily(const std::vector<Item>& items, size_t family_at, size_t i, const Clause& c) {
  if (c.family.empty() || family_at >= i || items[i].kind != Item::kUnknown ||
      lexicon::KernelFamilyWord(Lower(items[i].word)).empty())
    return false;
  for (size_t k = family_at + 1; k < i; ++k) {
    const std::string w = Lower(items[k].word);
    if (items[k].kind == Item::kSeparator || items[k].Has(Slot::kSplit) || items[k].Has(Slot::kVersus) || w == "and" ||
        w == "or" || w == "than")
      return true;
  }
  return false;
}

// The words no slot read: a limit before a noun, a family of kernels, words that say no more, "layer" of a range,
// words that describe the events, and the rest, unread.
void ReadWordsLeft(const std::vector<Item>& items, const std::vector<bool>& read, Clause& c) {
  size_t family_at = items.size();  // where the last word of a family was read
  for (size_t i = 0; i < items.size(); ++i) {
    // "the 10 slowest calls", "the three largest copies": a superlative ranks too, though its rank is set later.
    const bool said_rank = c.rank != Rank::kNone || c.which;
    const bool superlative = c.rank_by_measure || c.rank_by_size || c.superlative;
    if (c.number_before_noun == i && (said_rank || superlative)) {
      c.limit = std::min(IdOf(items[i].number).value_or(101), 101);
      c.limit_listed = true;
      continue;
    }
    if (read[i] || !(items[i].kind == Item::kUnknown || items[i].kind == Item::kNumber)) continue;
    if (SecondFamily(items, family_at, i, c)) {
      if (!c.versus_family.empty()) {  // a third set of kernels: no Query holds it
        c.unread.push_back(items[i].word);
        continue;
      }
      AddToFamily(c.versus_family, lexicon::KernelFamilyWord(Lower(items[i].word)));  // the other side's
      family_at = i;
      continue;
    }
    if (const std::string_view word = lexicon::KernelFamilyWord(Lower(items[i].word));
        !c.versus_family.empty() && !word.empty() && items[i].kind == Item::kUnknown) {
      AddToFamily(c.versus_family, word);  // "attention vs cuBLAS GEMMs": beside the other side's family, of that side
      family_at = i;
      continue;
    }
    if (ReadFamilyWord(items[i], c)) {
      family_at = i;
      continue;
    }
    if (SaysNoMore(items, i)) continue;
    if (LayerOfARange(items, i)) {
      c.of_ranges.push_back(items[i].word);
      continue;
    }
    // "the 3D_backbone step", "the reader stage": a unit of the program said after a range's name is that range.
    if (i > 0 && items[i - 1].kind == Item::kName && NamesAClass(items[i - 1], NameClass::kNvtx) &&
        IsWordIn(items[i], {"step", "stage", "phase", "section", "region"})) {
      c.described.push_back(items[i].word);
      continue;
    }
    if (items[i].kind == Item::kUnknown && (items[i].describing || lexicon::IsDescriptiveWord(items[i].word))) {
      c.described.push_back(items[i].word);
      continue;
    }
    c.unread.push_back(items[i].word);
  }
}

// "the start/end ranges (not push/pop)": NVTX's two styles of range, which no Query holds apart. Said of ranges a
// name selects, the style describes them; said alone it would select ranges by it: unread, never dropped.
void UnreadRangeStyles(const std::vector<Item>& items, Clause& c) {
  if (!c.names.empty() || !c.inside.empty()) return;
  for (const Item& it : items) {
    if (IsWordIn(it, {"start/end", "push/pop", "start-end", "push-pop", "startend", "pushpop"}))
      c.unread.push_back(it.word);
  }
}

// "by how much the first exceeds the second", "the former over the latter": the two a margin is taken between, named
// by their places in the ranking (the margin line states both; "the first" is read by ReadWindow).
void SidesOfAMargin(const std::vector<Item>& items, std::vector<bool>& read) {
  if (!SaysAMargin(items)) return;
  for (size_t k = 1; k < items.size(); ++k) {
    if (IsWordIn(items[k - 1], {"the"}) && IsWordIn(items[k], {"second", "former", "latter", "runner-up"}))
      read[k] = true;
  }
}

// "kernel time excluding NCCL", "every call except cudaLaunchKernel and cudaMalloc", "ranges other than forward",
// "GPU time outside the warmup range", "kernels not inside aten::linear": the words that leave events out, then the
// names they leave out (joined by "and", "or" or commas), the words between ("the", "any") and the events noun after.
// A name is left out by name or, said as a place or as a range beside other events, as a range the events are outside
// (FillExclusions decides with the subject). Marks the words it reads.
void ReadExclusions(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  // "not" alone before names ("just the plain ones, not ExC"); before a place word it is kTwo's.
  static constexpr std::string_view kOne[] = {"excluding", "except",  "exclude", "besides",
                                              "ignoring",  "outside", "not"};
  static constexpr std::pair<std::string_view, std::string_view> kTwo[] = {
      {"except", "for"},   {"other", "than"},    {"apart", "from"},  {"aside", "from"},
      {"not", "counting"}, {"not", "including"}, {"leaving", "out"}, {"outside", "of"}};
  for (size_t i = 0; i < items.size(); ++i) {
    if (read[i]) continue;
    if (items[i].kind == Item::kName && items[i].non) {
      c.excluded.push_back({items[i].name, items[i].classes, false});
      read[i] = true;
      continue;
    }
    const std::string w = Lower(items[i].word);
    const std::string next = i + 1 < items.size() ? Lower(items[i + 1].word) : "";
    size_t j = i;
    // "not inside", "not in", "not under", "not within", "not during": "not" before any word of being inside.
    const bool not_inside = w == "not" && i + 1 < items.size() && items[i + 1].Has(Slot::kInside);
    if (not_inside ||
        std::any_of(std::begin(kTwo), std::end(kTwo), [&](const auto& p) { return p.first == w && p.second == next; }))
      j = i + 2;
    else if (std::find(std::begin(kOne), std::end(kOne), w) != std::end(kOne))
      j = i + 1;
    else
      continue;
    const bool place = w == "outside" || not_inside;
    size_t k = j;
    std::vector<size_t> names;
    while (k < items.size()) {
      if (IsWordIn(items[k], {"the", "any", "all", "those", "of"}) ||
          (!names.empty() && IsWordIn(items[k], {"and", "or"}))) {
        ++k;
        continue;
      }
      if (items[k].kind != Item::kName || items[k].classes.empty() || read[k]) break;
      names.push_back(k++);
    }
    if (names.empty()) continue;
    while (k < items.size() && (items[k].Has(Slot::kEvents) || items[k].Has(Slot::kRangeNoun))) ++k;
    for (size_t n : names) c.excluded.push_back({items[n].name, items[n].classes, place});
    for (size_t m = i; m < k; ++m) read[m] = true;
    i = k - 1;
  }
}

// A plain word describes the events only where the clause names them, once ("the nvjet GEMM kernels"), and sets no
// two sides against each other; elsewhere it may be the name of what is asked ("the solver kernel") or relate two
// names ("the llama sim call cudaDeviceSynchronize"): unread. Names summed ("X plus Y") are one subject.
void DescribedWhereNamed(Clause& c) {
  const bool named = (c.sum_names ? 1 : c.names.size()) + (c.inside.empty() ? 0 : 1) == 1;
  // Two places set against each other ("flash_fwd_kernel on device 0 versus device 1") leave one name to describe.
  const bool places = c.versus_names.empty() && !c.versus_events && c.versus_copy_kind.empty() &&
                      (c.devices.size() == 2 || !c.versus_devices.empty() || !c.versus_pids.empty() ||
                       c.versus_stream >= 0 || c.pids.size() == 2);
  if (!named || ((c.versus || c.compare) && !places) || !c.versus_names.empty()) {
    c.unread.insert(c.unread.end(), c.described.begin(), c.described.end());
    c.described.clear();
  }
  c.described.insert(c.described.end(), c.whose.begin(), c.whose.end());
  c.described.insert(c.described.end(), c.of_ranges.begin(), c.of_ranges.end());
}

// "how long does one call of it take", "each launch of them": at i, one occurrence of what is pointed at, which names
// no events of its own (a kernel's "call" is no CUDA API call); "of" follows it.
bool OccurrenceOfWhatIsPointedAt(const std::vector<Item>& items, size_t i) {
  return i + 2 < items.size() &&
         IsWordIn(items[i], {"call", "calls", "launch", "launches", "invocation", "invocations"}) &&
         IsWordIn(items[i + 1], {"of"}) && IsWordIn(items[i + 2], {"it", "them", "that", "this"});
}

Clause ReadClause(const std::vector<Item>& items) {
  Clause c;
  c.listing = std::any_of(items.begin(), items.end(), [](const Item& it) { return IsWordIn(it, {"list"}); });
  std::vector<bool> read(items.size(), false);
  ReadPhrasesOfAClause(items, c, read);
  ReadExclusions(items, c, read);
  SidesOfAMargin(items, read);
  bool inside_next = false;
  const bool comm = AsksOfCommunication(items);
  c.share_of_sum = PlusBetweenKinds(items);
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (read[i]) continue;  // a bound's words
    if (comm && IsCommunicationWord(it)) {
      read[i] = true;
      continue;
    }
    if (it.kind == Item::kName) {
      read[i] = true;
      if (it.classes.empty()) {  // a quoted name no event of the profile has: what it asks about is not here
        c.unread.push_back(it.name);
        continue;
      }
      if (!DescribesTheRecording(items, i)) ReadName(items, i, inside_next, c);
      inside_next = false;
      continue;
    }
    if ((it.kind == Item::kLex || it.kind == Item::kUnknown) && IsOrdinal(items, i)) {
      if (!read[i]) ReadOrdinal(items, i, c, read);  // read already: a side of a margin (SidesOfAMargin)
      continue;
    }
    if (it.kind != Item::kLex) continue;
    read[i] = true;
    if (OccurrenceOfWhatIsPointedAt(items, i)) {
      read[i + 1] = true;
      continue;
    }
    if (it.origin_at) c.origin = it.origin_at;
    if (it.until_at) c.until = it.until_at;
    c.elapsed = c.elapsed || it.elapsed;
    const std::string lower = Lower(it.word);
    ReadWordFlags(lower, c);
    c.yes_no = c.yes_no || (i == 0 && (lower == "did it" || lower == "does it" || lower == "is it"));  // "Did it ..."
    inside_next = it.Has(Slot::kInside) || (inside_next && it.Has(Slot::kStop));
    // A noun with its id ("on stream 7") names one place, which no "which one" after it asks of.
    const bool with_id = i + 1 < items.size() && items[i + 1].kind == Item::kNumber;
    if (!c.noun && IsGroupNoun(it) && !it.Has(Slot::kEvents) && !with_id) {
      c.noun = GroupOfNoun(it);
      c.noun_plural = EndsInS(it);
    }
    ReadWhatBeforeANoun(items, i, c);
    for (const auto& e : it.entries) ReadEntry(items, i, e, c, read);
  }
  ReadLaunchRelation(items, c, read);
  ReadWordsLeft(items, read, c);
  OperationOfTheFamily(c);
  DescribingFragment(items, c);
  ReadTwoNames(items, c);
  UnreadNegatedMeasures(items, c);
  UnreadVariance(items, c);
  ReadPointingWords(items, c);
  ShareOfABase(items, c);
  UnreadComparisons(c);
  UnreadRangeStyles(items, c);
  DescribedWhereNamed(c);
  NamesOfTheRun(c);
  GpusTheMachineHas(items, c);
  WhichGpuThisIs(c);
  OneKindOfGpuWork(c);
  return c;
}

// The events a name belongs to, given what the clause says.
std::optional<EventKind> EventsOfName(const std::vector<NameClass>& classes, std::optional<EventKind> said,
                                      bool range_noun) {
  const auto has = [&](NameClass k) { return std::find(classes.begin(), classes.end(), k) != classes.end(); };
  if (said == EventKind::kKernels && has(NameClass::kKernel)) return EventKind::kKernels;
  if (said == EventKind::kApi && has(NameClass::kApi)) return EventKind::kApi;
  // "calls of the sm80_xmma_gemm... kernel", "one copy_device call": a name of kernels only, said with the word for
  // CUDA calls, is its kernels ("call" also means one run of a kernel).
  if (said == EventKind::kApi && classes.size() == 1 && classes.front() == NameClass::kKernel)
    return EventKind::kKernels;
  // "how many MPI_Send calls": a name of NVTX ranges only, said with the word for calls, is its ranges (nsys records
  // MPI, NCCL and OS runtime calls it traces as NVTX ranges of their own domains).
  if (said == EventKind::kApi && classes.size() == 1 && classes.front() == NameClass::kNvtx) return EventKind::kNvtx;
  if (range_noun && has(NameClass::kNvtx)) return EventKind::kNvtx;
  if (said) return said;
  if (classes.empty()) return std::nullopt;
  switch (classes.front()) {
    case NameClass::kApi:
      return EventKind::kApi;
    case NameClass::kKernel:
      return EventKind::kKernels;
    case NameClass::kNvtx:
      return EventKind::kNvtx;
  }
  return std::nullopt;
}

// The launch latency and delay, means and longest: figures of each launch's start against its call.
bool IsLaunchFigure(Measure m) {
  return m == Measure::kLatency || m == Measure::kLaunchDelay || m == Measure::kMaxLatency || m == Measure::kMaxDelay;
}

bool IsDurationStatistic(Measure m) {
  return m == Measure::kAverage || m == Measure::kMedian || m == Measure::kP90 || m == Measure::kP95 ||
         m == Measure::kP99 || m == Measure::kMin || m == Measure::kMax || m == Measure::kStddev;
}

// "what percentage of the (GPU) span do the solver kernels take", "what share of the GPU span is that": a share whose
// base is the span, of some of a kind's events (named, of a family, or those said before), not idle or
// busy said: those events' busy time over the span of every GPU op on their GPUs (Measure::kSpanShare). Of a whole
// kind ("what percentage of the span do kernels take") it stays their utilization.
// `pointing`: also a share said of the events a Query before asked of ("is that"; ShareOfTheSpanSaidBefore).
bool SpanIsTheBase(const Clause& c, bool pointing = false) {
  const auto has = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m) != c.measures.end(); };
  // (A copy kind's share of the GPU span is the time budget's slice: ToQuery.)
  const bool some = !c.names.empty() || !c.family.empty() || (pointing && (c.it || c.points_back));
  return has(Measure::kSpanShare) || (some && c.span_base == 1 && has(Measure::kShare) && has(Measure::kSpan) &&
                                      !has(Measure::kIdle) && !has(Measure::kBusy) && !c.running);
}

// The measures a share, a span and a ranking make together: "what percentage of the span is idle" (the idle share;
// both when idle is said twice: "idle time and idle pct"), "busy share" (the utilization), a share of how many there
// are, "threads per block of the top kernel" (ranked by the time taken, then its launch).
void SharesAndRankings(Clause& c) {
  // "what percentage of the span is idle": the idle share; "busy share": the utilization.
  const auto has = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m) != c.measures.end(); };
  if (has(Measure::kShare) && has(Measure::kIdle)) {
    c.measures.erase(std::find(c.measures.begin(), c.measures.end(), Measure::kShare));
    if (c.idle_said >= 2)  // "idle time and idle pct": both
      c.measures.insert(std::find(c.measures.begin(), c.measures.end(), Measure::kIdle) + 1, Measure::kIdleShare);
    else
      std::replace(c.measures.begin(), c.measures.end(), Measure::kIdle, Measure::kIdleShare);
  }
  // "how much of the NCCL time is overlapped by compute (as a %)": the overlap is that share, and the exposed time is
  // stated with its share of the communication time.
  if (std::any_of(c.measures.begin(), c.measures.end(), IsCommMeasure))
    std::erase_if(c.measures, [](Measure m) { return m == Measure::kShare || m == Measure::kGpuShare; });
  // "what percentage of that span was it running kernels": the share of the span the events ran, the utilization.
  if (c.running && has(Measure::kShare) && has(Measure::kSpan) && !has(Measure::kIdle) && !has(Measure::kBusy))
    std::replace(c.measures.begin(), c.measures.end(), Measure::kSpan, Measure::kBusy);
  if (has(Measure::kShare) && has(Measure::kBusy)) {
    c.measures.erase(std::find(c.measures.begin(), c.measures.end(), Measure::kShare));
    std::replace(c.measures.begin(), c.measures.end(), Measure::kBusy, Measure::kUtilization);
  }
  if (c.count_share) std::replace(c.measures.begin(), c.measures.end(), Measure::kShare, Measure::kCountShare);
  // "what percentage of all bytes copied went HtoD": the bytes are the share's base, not a figure of their own.
  if (c.byte_share && has(Measure::kShare)) {
    std::replace(c.measures.begin(), c.measures.end(), Measure::kShare, Measure::kByteShare);
    const auto bytes = std::find(c.measures.begin(), c.measures.end(), Measure::kBytes);
    if (bytes != c.measures.end() && std::count(c.measures.begin(), c.measures.end(), Measure::kBytes) == 1)
      c.measures.erase(bytes);
  }
  // "threads per block of the top kernel", "grid of the heaviest one": ranked by the time taken, then its launch.
  if (c.rank_by_weight && !c.by_measure && !c.measures.empty() &&
      std::all_of(c.measures.begin(), c.measures.end(), IsLaunchConfiguration))
    c.measures.insert(c.measures.begin(), Measure::kTotal);
  // "how much of the span is idle": the idle time and its share, the span their base.
  if (c.span_base == 2 && has(Measure::kIdle) && !has(Measure::kIdleShare)) c.measures.push_back(Measure::kIdleShare);
  // "how much of the span is taken by copies": their busy time and its share, the utilization.
  if (c.span_base == 2 && c.running && !has(Measure::kIdle) && !has(Measure::kBusy) && !has(Measure::kIdleShare)) {
    std::replace(c.measures.begin(), c.measures.end(), Measure::kSpan, Measure::kBusy);
    c.measures.push_back(Measure::kUtilization);
  }
  if (c.span_base && (has(Measure::kIdleShare) || has(Measure::kUtilization))) std::erase(c.measures, Measure::kSpan);
  // "what percentage of the span do the solver kernels account for", "what share of the GPU span is that": the
  // events' busy time over the span of every GPU op on their GPUs, the span said as the share's base.
  if (SpanIsTheBase(c)) {
    std::erase(c.measures, Measure::kSpan);
    std::replace(c.measures.begin(), c.measures.end(), Measure::kShare, Measure::kSpanShare);
  }
}

// "which kernel is slowest on average", "the kernel with the longest average duration", "fastest median": a
// superlative beside a statistic of durations ranks by that statistic; the superlative only says which end.
void SuperlativeOfAStatistic(Clause& c) {
  if (!c.superlative || !(c.which || c.rank_by_measure) || !c.names.empty() || c.rank != Rank::kNone) return;
  const auto statistic = std::find_if(c.measures.begin(), c.measures.end(), [](Measure m) {
    return m == Measure::kAverage || m == Measure::kMedian || m == Measure::kP90 || m == Measure::kP95 ||
           m == Measure::kP99;
  });
  const auto extreme = std::find(c.measures.begin(), c.measures.end(), *c.superlative);
  if (statistic == c.measures.end() || extreme == c.measures.end()) return;
  const Measure key = *statistic;
  c.measures.erase(extreme);
  c.measures.erase(std::find(c.measures.begin(), c.measures.end(), key));
  c.measures.insert(c.measures.begin(), key);
  c.rank = c.superlative == Measure::kMin ? Rank::kBottom : Rank::kTop;
  c.rank_by_measure = false;
  if (!c.group && c.events != EventKind::kMemcpy && c.events != EventKind::kMemset) c.group = GroupBy::kName;
}

// The measures a clause asks for, with the defaults: a time word alone is total time; "which" alone ranks by it.
void DefaultMeasures(Clause& c) {
  // "how long did the host block in sync calls": of calls, copies, memsets or ranges, which have no launch
  // configuration, "block" is the verb (to wait), not the kernels' threads per block.
  const bool kernel_named = std::any_of(c.names.begin(), c.names.end(), [](const auto& n) {
    return std::find(n.second.begin(), n.second.end(), NameClass::kKernel) != n.second.end();
  });
  const bool launches =
      c.events ? *c.events == EventKind::kKernels || *c.events == EventKind::kGpu : c.names.empty() || kernel_named;
  if (!launches) std::erase(c.measures, Measure::kBlock);
  if (c.measures.empty() && c.threshold_of && !c.weak_total && !c.weak_time) c.measures.push_back(*c.threshold_of);
  if (c.measures.empty() && c.any && c.yes_no && !c.weak_total && !c.weak_time && !c.versus)
    c.measures.push_back(Measure::kCount);  // "are there any ... longer than 5 ms?"

  // "thread blocks, threads per block, and kernel duration": a time noun beside a launch's figures is its own
  // statistic, the events' time.
  const bool only_counts = std::all_of(c.measures.begin(), c.measures.end(), [&](Measure m) {
    return m == Measure::kCount || m == Measure::kBytes || (c.time_noun && IsLaunchConfiguration(m));
  });
  if (((c.weak_total && c.measures.empty()) || (c.weak_time && only_counts)) && !c.count_groups) {
    c.measures.insert(c.measures.begin() + (c.measures.empty() ? 0 : static_cast<std::ptrdiff_t>(c.measures.size())),
                      Measure::kTotal);
  }
  // "top 3 calls by total time, with their call counts": ranked by the total, stated first.
  if (c.by_total && !c.count_groups && (c.rank != Rank::kNone || c.which || c.group)) {
    std::erase(c.measures, Measure::kTotal);
    c.measures.insert(c.measures.begin(), Measure::kTotal);
  }
  // "which stream is busiest by kernel count": the measure after "by" ranks, before the superlative's own.
  if (c.by_which && !c.by_total && !c.count_groups && (c.rank != Rank::kNone || c.which) &&
      std::find(c.measures.begin(), c.measures.end(), *c.by_which) != c.measures.end()) {
    std::erase(c.measures, *c.by_which);
    c.measures.insert(c.measures.begin(), *c.by_which);
  }
  if (c.count_groups) {
    c.measures.insert(c.measures.begin(), Measure::kGroups);
    c.group = c.count_groups;
  }
  if (c.measures.empty() && c.rank_by_count && !c.weak_time) c.measures.push_back(Measure::kCount);
  if (c.measures.empty() && (c.which || c.rank != Rank::kNone || c.versus || c.compare))
    c.measures.push_back(Measure::kTotal);
  SharesAndRankings(c);
  SuperlativeOfAStatistic(c);
  // "the fastest kernel": named events ranked by their typical (mean) duration. Copies and memsets have no names:
  // "the longest copy" is the one longest copy.
  const bool named = !(c.events == EventKind::kMemcpy || c.events == EventKind::kMemset);
  // "the longest of those calls" points back at named events: the longest one of them, not a ranking of names.
  // "the longest kernel on each GPU": the superlative is each place's own, not a ranking of the places.
  const bool each_place = c.group && IsPlace(*c.group) && !c.which;
  if (c.rank_by_measure && c.rank == Rank::kNone && c.names.empty() && named && !c.points_back && !each_place) {
    c.rank = c.measures.front() == Measure::kMin ? Rank::kBottom : Rank::kTop;
    if (!c.single_event) c.measures.front() = Measure::kAverage;
    if (!c.group) c.group = GroupBy::kName;
  }
  if (c.gpu_time) std::replace(c.measures.begin(), c.measures.end(), Measure::kShare, Measure::kGpuShare);
  // "the average size of a copy": the mean of the sizes, not of the durations.
  const auto at = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m); };
  if (at(Measure::kAverage) != c.measures.end() && at(Measure::kBytes) != c.measures.end() && !c.weak_time) {
    c.measures.erase(at(Measure::kAverage));
    *at(Measure::kBytes) = Measure::kAvgBytes;
  }
  // "the median copy size", "how big was a typical transfer", "p90 of the sizes": a statistic of the sizes other than
  // their mean, least or largest, which no Query measures. Said as not measured, never answered as a duration beside
  // the summed bytes.
  for (Measure m : {Measure::kMedian, Measure::kP90, Measure::kP95, Measure::kP99, Measure::kStddev}) {
    if (at(m) == c.measures.end() || at(Measure::kBytes) == c.measures.end() || c.weak_time) continue;
    c.measures.erase(at(m));
    c.not_held.push_back(m == Measure::kStddev ? "the spread of the sizes" : "a median or percentile of the sizes");
    c.unread.push_back(c.not_held.back());
  }
  // "the average launch delay", "the average bandwidth": measures that are means themselves (of the delays; bytes over
  // the summed time), not also the mean duration.
  const bool mean_itself = std::any_of(c.measures.begin(), c.measures.end(), [](Measure m) {
    return m == Measure::kLatency || m == Measure::kLaunchDelay || m == Measure::kBandwidth;
  });
  if (at(Measure::kAverage) != c.measures.end() && mean_itself && !c.weak_time) c.measures.erase(at(Measure::kAverage));
  // "which kernel is the slowest": rank by the statistic asked for.
  // "which kernel is faster on average": the least of it ("faster", "fewer", "less busy" read as less).
  if (c.which && c.rank == Rank::kNone && !c.measures.empty()) c.rank = c.less ? Rank::kBottom : Rank::kTop;
  if (c.which && !c.measures.empty() && c.measures.front() == Measure::kMin) c.rank = Rank::kBottom;
}

// A GPU's idle and busy time, utilization and idle gaps (guides/analysis.md): a GPU's measures, asked per GPU, of
// kernels when the clause names no events.
bool IsPerGpuMeasure(Measure m) {
  return m == Measure::kIdle || m == Measure::kBusy || m == Measure::kUtilization || m == Measure::kGaps ||
         m == Measure::kMaxGap || m == Measure::kAvgGap;
}
// A measure of a GPU's timeline: those above and the idle share (IsTimelineMeasure but the span).
bool IsGpuMeasure(Measure m) {
  return IsTimelineMeasure(m) && m != Measure::kSpan;
}

// "How long does the add kernel run, and how long is the GPU idle?", "... and how much of the span is idle?": a GPU's
// idle time, idle share or utilization asked with no events of the clause's own after named events is the GPU's (every
// GPU operation), not the named events' (whose own idle is the holes between them: none for one kernel). Words that
// point back ("their idle time", "it") keep the events named.
void GpuIdleOfTheGpu(const Clause& c, const Query* previous, bool own_subject, Query& q) {
  const Measure m = q.measures.empty() ? Measure::kTotal : q.measures.front();
  const bool gpu_own = m == Measure::kIdle || m == Measure::kIdleShare || m == Measure::kUtilization;
  if (own_subject || !previous || c.points_back || c.it || !gpu_own || previous->subject.name.empty()) return;
  q.subject = Subject{EventKind::kGpu};
}

// Names listed or summed together ("A + B", "A, B and C") as one name of alternatives, "A|B|C"; a name said twice is
// listed once.
std::string NamesListed(const std::vector<std::pair<std::string, std::vector<NameClass>>>& names) {
  std::string out;
  for (size_t n = 0; n < names.size(); ++n) {
    const bool again = std::any_of(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(n),
                                   [&](const auto& before) { return before.first == names[n].first; });
    if (!again) out += (n == 0 ? "" : "|") + names[n].first;
  }
  return out;
}

// The subject a clause names, or, for a clause that names none, what it keeps: false when it has none at all.
bool FillSubject(Clause& c, const Query* previous, bool own_subject, Query& q) {
  if (own_subject) {
    q.subject = Subject{};
    const std::vector<NameClass> none;
    const auto& first_classes = c.names.empty() ? none : c.names.front().second;
    const bool range_is_group = c.group == GroupBy::kRange && (c.events || !c.names.empty());
    auto events = EventsOfName(first_classes, c.events, c.range_noun && !range_is_group);
    if (!events && c.range_noun) events = EventKind::kNvtx;
    if (!events && (!c.copy_kind.empty() || !c.memory.empty() || !c.cause.empty())) events = EventKind::kMemcpy;
    if (!events && !c.family.empty()) events = EventKind::kKernels;
    if (!events) return false;
    // A family is of kernels ("cuBLAS calls" are no family the decoder gives): no Query.
    if (!c.family.empty() && *events != EventKind::kKernels && *events != EventKind::kGpu) return false;
    if (!c.family.empty()) q.subject.family = c.family;
    q.subject.events = *events;
    if (!c.names.empty()) q.subject.name = c.names.front().first;
    q.subject.whole_name =
        !c.names.empty() && std::find(c.exact.begin(), c.exact.end(), q.subject.name) != c.exact.end();
    if (c.sum_names || c.listed_names) {  // "nchwToNhwcKernel + nhwcToNchwKernel": either name, summed
      q.subject.name = NamesListed(c.names);
      q.subject.whole_name = false;
    }
    q.subject.copy_kind = c.copy_kind;
    // A call's class follows from its name: said beside a whole call name ("the blocking cudaMemcpy calls") it
    // describes the call, and as a filter it would only leave out every call ("no cudaMemcpy calls").
    if (q.subject.events == EventKind::kApi && !(q.subject.whole_name && !q.subject.name.empty()))
      q.subject.api_class = c.api_class;
    if (q.subject.events == EventKind::kMemcpy || q.subject.events == EventKind::kMemset) q.subject.memory = c.memory;
    // A cause is of migrations: said of copies of no kind, it is of every unified-memory migration.
    if (q.subject.events == EventKind::kMemcpy && !c.cause.empty()) {
      q.subject.cause = c.cause;
      if (q.subject.copy_kind.empty()) q.subject.copy_kind = "Unified";
    }
    if (c.names.size() > 1 && !c.versus && !c.sum_names && !c.listed_names) {
      // Two names of no kind in common, side by side with no word that compares ("how much time does weight loading
      // take": an NVTX range's part, then a word a CUDA call's name holds) are no two sides: the second is unread.
      const auto& a = c.names[0].second;
      const auto& b = c.names[1].second;
      const bool common =
          std::any_of(a.begin(), a.end(), [&](NameClass k) { return std::find(b.begin(), b.end(), k) != b.end(); });
      if (common || (c.which && !c.group) || c.compare || c.yes_no || c.less || c.margin)
        c.versus_names.push_back(c.names[1]);
      else
        c.unread.push_back(c.names[1].first);
    }
    // "the second Model range": one event by start; not of a launch configuration (by name) or communication.
    if (c.nth != 0 && std::any_of(c.measures.begin(), c.measures.end(),
                                  [](Measure m) { return IsLaunchConfiguration(m) || IsCommMeasure(m); }))
      return false;
    q.subject.nth = c.nth;
    return true;
  }
  // "how much memory does the GPU have": a figure only the GPUs the export lists have.
  if (std::any_of(c.measures.begin(), c.measures.end(),
                  [](Measure m) { return m == Measure::kMemory || m == Measure::kMemoryBandwidth; })) {
    q.subject = Subject{EventKind::kDevices};
    return true;
  }
  if (previous) return true;
  // "how much comm time is left exposed": communication against compute is of kernels, as a GPU's time is.
  const bool gpu_measure =
      !c.measures.empty() && (IsGpuMeasure(c.measures.front()) || IsCommMeasure(c.measures.front()));
  // "what is the mean launch delay?", "how many registers per thread?": a measure of kernel launches (HTA's launch
  // statistics are of kernels) with no events said is of the kernels.
  const bool launch_measure = c.last_chance && !c.measures.empty() &&
                              (IsLaunchConfiguration(c.measures.front()) || IsLaunchFigure(c.measures.front()));
  // "total GPU time per process", "how much GPU time did each stream use": GPU time said with no events is a GPU's
  // time, as on a GPU said by its id.
  const bool gpu_time = c.gpu_time && !c.measures.empty() && c.measures.front() == Measure::kTotal;
  // "how many streams were used?", "how many processes used the GPU?": the streams, processes that carried GPU
  // work, of any kind (kernels, copies, memsets).
  if ((c.count_groups == GroupBy::kStream || c.count_groups == GroupBy::kPid) && c.measures.size() == 1) {
    q.subject.events = EventKind::kGpu;
    return true;
  }
  if (c.devices.empty() && c.group != GroupBy::kDevice && !gpu_measure && !launch_measure && !gpu_time) return false;
  q.subject.events = EventKind::kKernels;  // a GPU's time is its kernels' (guides/analysis.md)
  return true;
}

// A clause with its own subject is a question of its own: its scope is what it says. One without a subject ("and on
// GPU 1?") keeps the previous scope and changes what it names.
// "How much GPU work was launched inside layer_0? Kernel count and total kernel time.": one kind of a GPU's work named
// after the work itself is the same events said more precisely, where the work was.
// So are the same events said again with another measure ("Kernel count and total kernel time"), unless the clause
// widens ("... and the total kernel time overall").
bool KeepsTheScope(const Clause& c, const Query* previous, const Query& q) {
  if (!previous) return false;
  // "How many kernels ran for less than 10 us, and what percentage of all kernel launches is that?": "all" names the
  // share's base; "that" is the events before, where they were.
  const bool share = std::any_of(q.measures.begin(), q.measures.end(), [](Measure m) {
    return m == Measure::kShare || m == Measure::kCountShare || m == Measure::kGpuShare;
  });
  if (share && (c.points_back || c.it) && previous->subject.events == q.subject.events && !previous->versus_subject &&
      !previous->versus_scope)
    return true;
  if (c.widens) return false;
  const EventKind e = q.subject.events;
  const bool narrows = previous->subject.events == EventKind::kGpu && previous->subject.name.empty() &&
                       q.subject.name.empty() &&
                       (e == EventKind::kKernels || e == EventKind::kMemcpy || e == EventKind::kMemset);
  // "Which kernels get launched inside the FlashAttnFunc ranges? How many launches is that and what's their total
  // GPU time?": words that point back at the events of a ranking keep where they were.
  const bool pointed = (c.points_back || c.it) && previous->subject.events == e && previous->rank != Rank::kNone &&
                       !previous->versus_subject && !previous->versus_scope;
  return narrows || pointed ||
         (previous->subject == q.subject && previous->group_by == GroupBy::kNone && previous->rank == Rank::kNone &&
          !previous->versus_subject && !previous->versus_scope);
}

void FillScope(const Clause& c, const Query* previous, bool own_subject, Query& q) {
  if ((own_subject && !KeepsTheScope(c, previous, q)) || !previous) q.scope = Scope{};
  if (!c.devices.empty()) q.scope.devices = c.devices;
  if (!c.pids.empty()) q.scope.pids = c.pids;
  if (!c.inside.empty()) q.scope.inside = c.inside;
  if (c.stream >= 0) q.scope.stream = c.stream;
  if (c.from_s) {
    q.scope.from_s = c.from_s;
    q.scope.to_s = c.to_s;
    q.scope.from_first_kernel = c.from_first_kernel && !c.origin;
    // "between 6.5 s and 7.0 s into the capture": seconds on the capture clock, when they count from no moment.
    q.scope.capture_clock = c.capture_clock && !c.window_from_end && !c.from_first_kernel && !c.window_after_origin &&
                            !c.origin && !c.until;
  }
  // A window from a moment an event marks, to a length after it, to another moment or to the profile's end; a window
  // said from the profile start is of no moment kept from the clause before.
  if (c.from_s || c.origin || c.until) {
    q.scope.origin = c.origin;
    q.scope.until = c.until;
    if (c.origin) q.scope.from_first_kernel = false;
    if (c.origin || c.until) q.scope.capture_clock = false;  // a moment's window is on no clock of its own
  }
  // "how many idle gaps last longer than 1 ms": a bound said with the gap measures alone is on each gap they count.
  const bool gap_measures = GapsOnly(q.measures);
  const bool of_gaps = gap_measures && (c.longer_than_ns >= 0 || c.shorter_than_ns >= 0);
  if (of_gaps) {
    q.scope.gap_longer_than_ns = c.longer_than_ns;
    q.scope.gap_shorter_than_ns = c.shorter_than_ns;
  } else if (!gap_measures) {
    q.scope.gap_longer_than_ns = q.scope.gap_shorter_than_ns = -1;
  }
  if (c.longer_than_ns >= 0 && !of_gaps) q.scope.longer_than_ns = c.longer_than_ns;
  if (c.shorter_than_ns >= 0 && !of_gaps) q.scope.shorter_than_ns = c.shorter_than_ns;
  if (c.larger_than_bytes >= 0) q.scope.larger_than_bytes = c.larger_than_bytes;
  if (c.smaller_than_bytes >= 0) q.scope.smaller_than_bytes = c.smaller_than_bytes;
  if (c.inside_those && previous && previous->subject.events == EventKind::kNvtx && !previous->subject.name.empty())
    q.scope.inside = previous->subject.name;
  if (!c.launched_by.empty()) q.scope.launched_by = c.launched_by;
  if (!c.launches.empty()) q.scope.launches = c.launches;
  // "Did any run past 5 ms? If not, what was the longest one?": a bound kept from the question before on the side an
  // extreme is taken from changes nothing when some event passes it and leaves nothing when none does: not kept.
  const auto asks = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m) != c.measures.end(); };
  if (c.longer_than_ns < 0 && asks(Measure::kMax)) q.scope.longer_than_ns = -1;
  if (c.shorter_than_ns < 0 && asks(Measure::kMin)) q.scope.shorter_than_ns = -1;
  if (c.larger_than_bytes < 0 && asks(Measure::kMaxBytes)) q.scope.larger_than_bytes = -1;
  if (c.smaller_than_bytes < 0 && asks(Measure::kMinBytes)) q.scope.smaller_than_bytes = -1;
}

void FillGrouping(const Clause& c, bool own_subject, Query& q) {
  if (own_subject) {
    q.group_by = GroupBy::kNone;
    q.rank = Rank::kNone;
    q.limit = 0;
  }
  if (c.group) q.group_by = *c.group;
  if (q.group_by == GroupBy::kRange && q.subject.events == EventKind::kNvtx) q.group_by = GroupBy::kName;
  // "the top kernels (by base name)", "kernel time by short name": the base name groups them, as nsys stats' :base.
  const bool kernels = q.subject.events == EventKind::kKernels || q.subject.events == EventKind::kGpu;
  if (c.base_names && kernels && (q.group_by == GroupBy::kName || (q.group_by == GroupBy::kNone && !c.group)))
    q.group_by = GroupBy::kBaseName;
  // A GPU's idle, busy time and utilization are per GPU (guides/analysis.md): over several GPUs they are asked per GPU.
  const Measure first = q.measures.front();
  const bool gpu_measure = IsGpuMeasure(first);
  if (gpu_measure && q.scope.devices.size() != 1 && q.group_by == GroupBy::kNone && !c.versus)
    q.group_by = GroupBy::kDevice;
  // "total time on device 0 and on device 1": GPUs named one by one are stated one by one, with their total.
  if (q.scope.devices.size() >= 2 && q.group_by == GroupBy::kNone && !c.versus && !c.compare && c.rank == Rank::kNone)
    q.group_by = GroupBy::kDevice;
  // "How does kernel time compare between the two processes?", "compare copy time across streams": a comparison with
  // no two sides of its own, said over plural GPUs, processes or streams, is of each of them.
  if (c.compare && !c.versus && c.noun && IsPlace(*c.noun) && c.noun_plural && q.group_by == GroupBy::kNone &&
      c.rank == Rank::kNone && q.scope.devices.size() < 2 && q.scope.pids.size() < 2)
    q.group_by = *c.noun;
  if (c.rank != Rank::kNone || c.group) q.rank = c.rank;
  // "Two ranks (pids 148 and 149): which one spent more time in cudaStreamSynchronize?", "which of GPUs 0 and 1 ...":
  // a ranking of no events noun over places named one by one ranks the places.
  const bool which_place = c.which && !c.which_events && q.rank != Rank::kNone && q.group_by == GroupBy::kNone;
  if (which_place && q.scope.pids.size() >= 2) q.group_by = GroupBy::kPid;
  if (which_place && q.scope.devices.size() >= 2) q.group_by = GroupBy::kDevice;
  if (c.limit > 0) q.limit = c.limit;
  if (c.plural && c.limit == 0 && q.rank != Rank::kNone) q.limit = 5;  // "which kernels": the first five
  if (q.rank != Rank::kNone && q.group_by == GroupBy::kNone) q.group_by = GroupBy::kName;
  // "time in memory copies", "blocking syncs": a family of kinds is stated kind by kind, with its total.
  const bool family =
      q.subject.name.empty() && ((q.subject.events == EventKind::kMemcpy && q.subject.copy_kind.empty()) ||
                                 (q.subject.events == EventKind::kApi && !q.subject.api_class.empty()));
  // "what fraction of memcpy time is on GPU 0": a share of every copy in one place is that place's share of the
  // profile's copies (ShareOfProfile), one figure, not each kind's share within the place.
  const bool place_share =
      std::any_of(q.measures.begin(), q.measures.end(), IsShareOfTheKind) && q.subject.events == EventKind::kMemcpy &&
      (!q.scope.devices.empty() || !q.scope.pids.empty() || q.scope.stream >= 0 || q.scope.from_s || q.scope.to_s);
  if (family && q.group_by == GroupBy::kNone && !c.versus && !c.compare && !place_share) q.group_by = GroupBy::kName;
}

// "For GPU 1: kernel count ..., and how does it compare with GPU 0?": a comparison with one side of its own, of the
// events the Query before asked of, which "it" points at: that Query's place is the first side, the place said here
// the other (answered as "total time on device 0" alone, it would answer another question).
void ComparedWithTheOneBefore(const Clause& c, const Query* previous, Query& q) {
  const bool sides = q.versus_subject || q.versus_scope || q.versus_measure;
  if (c.compare && !sides && q.group_by == GroupBy::kNone && previous && (c.it || c.points_back) &&
      !(previous->scope == q.scope) && !previous->versus_scope && q.subject == previous->subject) {
    q.versus_scope = q.scope;
    q.scope = previous->scope;
    q.rank = Rank::kNone;
  }
}

// The other side of a comparison: another name, kind or copy kind, or another device or process. False when the other
// side said is the first side again, with nothing else to tell them apart ("does launching the kernel cost more time
// than the kernel itself runs?" read as kernels against kernels): a comparison no Query holds, never dropped.
bool FillVersus(const Clause& c, Query& q) {
  const bool other_place =
      !c.versus_devices.empty() || !c.versus_pids.empty() || c.versus_stream >= 0 || !c.versus_launched_by.empty();
  const bool placed = other_place || c.versus_nth != 0 || !c.versus_family.empty();
  if (!c.versus_names.empty()) {
    Subject v = q.subject;
    v.name = c.versus_names.front().first;
    v.whole_name = std::find(c.exact.begin(), c.exact.end(), v.name) != c.exact.end();
    // The other side is what its own name is ("the cuLaunchKernel call slower than the add_arrays_ kernel").
    if (auto e = EventsOfName(c.versus_names.front().second, c.versus_events, false)) v.events = *e;
    if (v.events != EventKind::kMemcpy) v.copy_kind.clear();
    q.versus_subject = v;
  } else if (c.versus_events || !c.versus_copy_kind.empty() || !c.versus_memory.empty() || !c.versus_cause.empty()) {
    Subject v = q.subject;
    if (c.versus_events) v = Subject{*c.versus_events, {}, {}, {}, false};
    if (!c.versus_copy_kind.empty()) v.copy_kind = c.versus_copy_kind;
    if (!c.versus_memory.empty()) v.memory = c.versus_memory;
    if (!c.versus_cause.empty()) v.cause = c.versus_cause;
    if (v == q.subject && !placed) return false;
    if (!(v == q.subject)) q.versus_subject = v;
  }
  // "the kernels on GPU 0 ... than the kernels on GPU 1": the same events said again on the other side, told apart by
  // their place.
  if (!q.versus_subject && (other_place || (c.devices.size() == 2 && (c.versus || c.compare)))) {
    Scope v = q.scope;
    if (!c.versus_launched_by.empty()) v.launched_by = c.versus_launched_by;
    if (c.devices.size() == 2 && c.versus_devices.empty()) {
      v.devices = {c.devices[1]};
      q.scope.devices = {c.devices[0]};
    }
    if (!c.versus_devices.empty()) v.devices = c.versus_devices;
    if (!c.versus_pids.empty()) v.pids = c.versus_pids;
    if (c.versus_stream >= 0) v.stream = c.versus_stream;
    q.versus_scope = v;
  }
  // "the first and the last memcpy": one event against another; "attention kernels vs GEMMs": another family.
  if ((c.versus_nth != 0 || !c.versus_family.empty()) && !q.versus_scope) {
    Subject v = q.versus_subject.value_or(q.subject);
    if (c.versus_nth != 0) v.nth = c.versus_nth;
    if (!c.versus_family.empty()) v.family = c.versus_family;
    if (!(v == q.subject)) q.versus_subject = v;
  }
  if (q.versus_subject || q.versus_scope) {
    q.group_by = GroupBy::kNone;
    q.rank = Rank::kNone;
    if (c.share_form) q.form = Form::kShare;
    if (c.yes_no) {
      q.form = Form::kYesNo;
      q.yes_if_less = c.less;
    }
  }
  return true;
}

// "between the first kernel start and the last kernel end", "from the first kernel starting to the last one
// finishing": the span as the guide defines it (first start to last end), said in words. The words become one span
// measure, and the events they name stay; "first" and "last" are then no window. Runs over the words as written,
// whatever a profile name made of them.
bool IsStartWord(const std::string& w) {
  return w == "start" || w == "starts" || w == "starting" || w == "started" || w == "begin" || w == "begins" ||
         w == "beginning" || w == "began" || w == "launch" || w == "launched";
}
bool IsEndWord(const std::string& w) {
  return w == "end" || w == "ends" || w == "ending" || w == "ended" || w == "finish" || w == "finishes" ||
         w == "finishing" || w == "finished" || w == "completion" || w == "completes" || w == "completed" ||
         w == "stop" || w == "stops";
}
// The word between a span's first and last events ("from the first kernel until the last one"), and the mark that
// ends its last part.
bool JoinsASpan(const Item& it) {
  return IsWordIn(it, {"and", "to", "until", "till", "through"});
}
bool EndsASpan(const Item& it) {
  return it.kind == Item::kSeparator;
}
// From position i ("first" or "last"), past at most three event nouns, stop words or "one", to the boundary word
// `is_bound` accepts: the position after it, or 0 when there is none. The first events noun goes to `events`.
// With `until` ("and", "to", "until"; a separator or the sentence's end after "last"), a part that ends there with
// no boundary word says the events' own start or end ("from the first GPU work until the last one"): the position
// of that end.
// "on GPU 0", "in process 1679", "for stream 7" at k: a place said by its noun and number, three items.
bool PlaceSaidAt(const std::vector<Item>& s, size_t k) {
  return k + 2 < s.size() && IsWordIn(s[k], {"on", "in", "for"}) &&
         (s[k + 1].Has(Slot::kDeviceNoun) || s[k + 1].Has(Slot::kProcessNoun) || s[k + 1].Has(Slot::kStreamNoun)) &&
         s[k + 2].kind == Item::kNumber;
}

size_t PastBoundary(const std::vector<Item>& s, size_t i, bool (*is_bound)(const std::string&),
                    std::optional<Item>& events, bool (*until)(const Item&) = nullptr) {
  for (size_t k = i + 1; k < s.size() && k <= i + 4; ++k) {
    const std::string w = Lower(s[k].word);
    if (is_bound(w)) return k + 1;
    // "... to the last one on GPU 0": a place after the phrase ends it (ReadSpanPhrase keeps it with the question).
    if (k > i + 1 && PlaceSaidAt(s, k)) return k;
    if (until && k > i + 1 && until(s[k])) return k;
    if (s[k].Has(Slot::kEvents)) {
      if (!events) events = s[k];
    } else if (!(s[k].Has(Slot::kStop) || w == "gpu" || w == "one")) {
      return 0;
    }
  }
  const bool ends = until == EndsASpan && s.size() > i + 1 && s.size() <= i + 5;  // the sentence ends the part
  return ends ? s.size() : 0;
}
// "after the first kernel starts", "counting from the moment the first kernel hits the GPU", "relative to the first
// kernel", "taking the first kernel launch as time zero": the first kernel said as the origin of the question's
// window, in any of these shapes: a word that sets an origin, words that only point ("the", "moment", "when"),
// "first", a kernel noun, then words that say it began. A word that only takes ("taking", "using", "with") sets an
// origin only with the words that make it one after it ("as time zero", "as t0", "as the origin"). The words become
// one item of the lexicon's "after the first kernel" (Scope::from_first_kernel).
bool IsPointingWord(const std::string& w) {
  return w == "the" || w == "its" || w == "their" || w == "moment" || w == "when" || w == "very" || w == "gpu";
}
bool IsArrivalWord(const std::string& w) {
  return IsStartWord(w) || w == "hit" || w == "hits" || w == "ran" || w == "runs" || w == "landed" || w == "lands" ||
         w == "appeared" || w == "appears" || w == "reached" || w == "reaches";
}
// The end of the words after the origin's kernel noun at `k` that say it began: "starts", "hit the GPU", "on" at the
// end of a part ("from the first kernel on,"). A device said there ("starts on GPU 0") is the question's place.
size_t PastArrival(const std::vector<Item>& s, size_t k) {
  size_t end = k;
  while (end < s.size() && end <= k + 2 && IsArrivalWord(Lower(s[end].word))) ++end;
  if (end > k && end + 1 < s.size() && Lower(s[end].word) == "the" &&
      (Lower(s[end + 1].word) == "gpu" || Lower(s[end + 1].word) == "device"))
    end += 2;
  if (end < s.size() && Lower(s[end].word) == "on" && (end + 1 == s.size() || s[end + 1].kind == Item::kSeparator))
    ++end;
  return end;
}
bool IsRecordingWord(const std::string& w) {
  return w == "in" || w == "of" || w == "this" || w == "the" || w == "file" || w == "trace" || w == "profile" ||
         w == "capture" || w == "export" || w == "recording" || w == "report";
}
// The end of "as time zero", "as t0", "as the origin", "as zero", "as time 0" from position k ("as"), or 0.
size_t PastOriginWords(const std::vector<Item>& s, size_t k) {
  if (k >= s.size() || Lower(s[k].word) != "as") return 0;
  for (size_t j = k + 1; j < s.size() && j <= k + 3; ++j) {
    const std::string w = Lower(s[j].word);
    if (w == "zero" || w == "t0" || w == "origin" || (s[j].kind == Item::kNumber && s[j].number == 0)) return j + 1;
    if (w != "time" && w != "the" && w != "t" && w != "our" && w != "=") return 0;
  }
  return 0;
}
// "the GPU started running kernels", "the card began executing kernels": from position k, past a GPU said without
// its id (an id stays the question's place) that began running kernels; 0 when not so.
size_t PastAGpuThatBeganKernels(const std::vector<Item>& s, size_t k) {
  if (k + 2 >= s.size() || !s[k].Has(Slot::kDeviceNoun) || !IsStartWord(Lower(s[k + 1].word))) return 0;
  size_t j = k + 2;
  while (j < s.size() && IsWordIn(s[j], {"running", "executing", "to", "run", "execute", "launching", "any"})) ++j;
  if (j >= s.size() || !s[j].Has(Slot::kEvents) ||
      s[j].Value(Slot::kEvents) != static_cast<uint8_t>(EventKind::kKernels))
    return 0;
  return j + 1;
}

void ReadOrigin(std::vector<Item>& s) {
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i].Has(Slot::kFromFirstKernel)) {  // the lexicon's phrase itself: the words that say the kernel began
      const size_t end = PastArrival(s, i + 1);
      s[i].word = WordsOf(s, i, end);
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(i + 1), s.begin() + static_cast<std::ptrdiff_t>(end));
      continue;
    }
    const std::string marker = Lower(s[i].word);
    const bool takes = marker == "taking" || marker == "take" || marker == "using" || marker == "use" ||
                       marker == "with" || marker == "treating" || marker == "treat";
    // "within 50 ms of the first kernel": "of" after a length of time said after "within".
    const bool of_a_length = marker == "of" && i >= 3 && IsTimeUnit(s[i - 1]) && s[i - 2].kind == Item::kNumber &&
                             Lower(s[i - 3].word) == "within";
    const bool sets = marker == "after" || marker == "since" || marker == "from" || of_a_length ||
                      (marker == "to" && i > 0 && Lower(s[i - 1].word) == "relative");
    // "Set the origin at the start of the first kernel", "put time zero at the first kernel's start".
    size_t placed = 0;
    if (IsWordIn(s[i], {"set", "put", "place", "setting", "putting", "placing"})) {
      size_t j = i + 1;
      while (j < s.size() && j <= i + 4 && !IsWordIn(s[j], {"at", "to"})) {
        const std::string w = Lower(s[j].word);
        if (w != "the" && w != "origin" && w != "time" && w != "zero" && w != "t0" && w != "our" && w != "clock") break;
        ++j;
      }
      if (j > i + 1 && j < s.size() && IsWordIn(s[j], {"at", "to"})) placed = j;
    }
    if (!takes && !sets && !placed) continue;
    size_t k = (placed ? placed : i) + 1;
    // "at the start of the first kernel": the words that point at it, its start said before it.
    while (k < s.size() && k <= i + 8 &&
           (IsPointingWord(Lower(s[k].word)) || s[k].Has(Slot::kStop) ||
            (placed && IsWordIn(s[k], {"start", "beginning", "of"}))))
      ++k;
    // "the earliest kernel start": the first one. "after the GPU started running kernels": its first one's start.
    size_t gpu = (placed ? placed : i) + 1;
    while (gpu < s.size() && IsWordIn(s[gpu], {"the", "its", "their", "very"})) ++gpu;
    const size_t began = takes || placed ? 0 : PastAGpuThatBeganKernels(s, gpu);
    if (!began && (k + 1 >= s.size() || !IsWordIn(s[k], {"first", "earliest"}) || !s[k + 1].Has(Slot::kEvents) ||
                   s[k + 1].Value(Slot::kEvents) != static_cast<uint8_t>(EventKind::kKernels)))
      continue;
    k += 2;
    size_t end = began ? began : PastArrival(s, k);
    if (takes) {
      size_t j = end;
      while (j < s.size() && j <= end + 4 && IsRecordingWord(Lower(s[j].word))) ++j;
      end = PastOriginWords(s, j);
      if (end == 0) continue;
    }
    size_t from = i;
    // "relative to", "counting from", "measured from": the word before the marker belongs to it.
    if (from > 0) {
      const std::string w = Lower(s[from - 1].word);
      if (w == "relative" || w == "counting" || w == "counted" || w == "measured" || w == "measuring") --from;
    }
    ReplaceItems(s, from, end, LexItem("after the first kernel", WordsOf(s, from, end)));
    i = from;
  }
}

// Moments events mark, said as where a window starts or ends: "from the end of the MPI_Init range", "with the start
// of the first memory copy as the origin", "between the start of the first sample kernel and the end of the last
// one", "until the last DtoH copy begins", "while the second Model range was open". A moment is a noun phrase: an
// optional edge ("the start of", "the end of"), an optional place in time ("first", "second", "last", "the later of
// the two"), the events (a name, a copy kind, a noun) and optional words after them that say the edge ("ends",
// "began") or that the event was open (a window over it). The first kernel alone, said as an origin, stays
// ReadOrigin's (a window from the first kernel in the question's own places).
struct AnchorPhrase {
  Anchor anchor;
  size_t end = 0;             // the item after the phrase
  bool edge_said = false;     // "the start of", "ends": the edge is said, not assumed
  bool open = false;          // "was open", "was running": the window is the event itself
  bool first_kernel = false;  // the first kernel, nothing else said of it
  int32_t place = 0;          // the place in time said: 1 first, 2 second, -1 last; 0 none
};

// A place in time: first 1, second 2, ..., last -1; "the later of the two" -1, "the earlier of the two" 1. Returns the
// place and the items it covers, or {0, 0}.
std::pair<int32_t, size_t> PlaceInTime(const std::vector<Item>& s, size_t k) {
  if (k >= s.size()) return {0, 0};
  const std::string w = Lower(s[k].word);
  if (w == "first" || w == "1st" || w == "earliest" || w == "initial" || w == "former") return {1, 1};
  if (w == "last" || w == "latest" || w == "final" || w == "latter") return {-1, 1};
  if (w == "later" || w == "earlier") {  // "the later of the two"
    size_t n = 1;
    if (k + 2 < s.size() && IsWordIn(s[k + 1], {"of"}) && IsWordIn(s[k + 2], {"the"})) n = 3;
    if (k + n < s.size() && IsWordIn(s[k + n], {"two", "both"})) ++n;
    return {w == "later" ? -1 : 1, n};
  }
  constexpr std::string_view kPlaces[] = {"second",  "third",  "fourth", "fifth", "sixth",
                                          "seventh", "eighth", "ninth",  "tenth"};
  for (size_t i = 0; i < std::size(kPlaces); ++i) {
    if (w == kPlaces[i]) return {static_cast<int32_t>(i) + 2, 1};
  }
  // "2nd", "11th", "100th", "21st": digits and an ordinal's suffix.
  const size_t digits = w.find_first_not_of("0123456789");
  if (digits == 0 || digits == std::string::npos || digits > 6 || w.size() != digits + 2) return {0, 0};
  const std::string suffix = w.substr(digits);
  if (suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") return {0, 0};
  const int32_t n = std::stoi(w.substr(0, digits));
  if (n < 1) return {0, 0};
  return {n, 1};
}

// "starts", "began", "hit the GPU": the start; "ends", "finished", "returned": the end; "was open", "was running":
// the event itself. The edge said (0 none, 1 start, 2 end, 3 open) and the items it covers.
std::pair<int, size_t> EdgeAfter(const std::vector<Item>& s, size_t k) {
  if (k >= s.size()) return {0, 0};
  size_t n = 0;
  if (IsWordIn(s[k], {"was", "is", "were", "are"})) n = 1;
  // "had finished", "has started": the participle says the edge.
  const size_t have = n == 0 && IsWordIn(s[k], {"had", "has", "have"}) ? 1 : 0;
  n += have;
  // "the add_arrays_ kernel actually start": a word that only stresses the edge.
  const size_t stress = k + n < s.size() && IsWordIn(s[k + n], {"actually", "really", "finally"}) ? 1 : 0;
  n += stress;
  if (k + n >= s.size()) return {0, 0};
  const std::string w = Lower(s[k + n].word);
  if (w == "open" || w == "opened" || w == "running" || w == "active" || w == "in progress" || w == "executing" ||
      w == "ongoing")
    return {3, n + 1};
  const bool verb = n > stress + have;  // "was done", "is open"
  if (verb && (w == "done" || w == "over" || w == "complete" || w == "finished")) return {2, n + 1};
  if (verb) return {0, 0};
  // "kernels launched inside X": "launched" after events names how they came, not when.
  if (IsArrivalWord(w) && w != "launch" && w != "launched") return {1, n + 1};
  if (IsEndWord(w) || w == "returned" || w == "returns" || w == "closed" || w == "closes" || w == "exited" ||
      w == "exits")
    return {2, n + 1};
  return {0, 0};
}

// The events of a moment's noun phrase from k: up to a name, a copy kind and a noun of events or of ranges, in any
// order ("the first 'sample' kernel", "the MPI_Init range", "the first HtoD copy", "the first cudaMemcpy call").
std::optional<AnchorPhrase> AnchorEvents(const std::vector<Item>& s, size_t k) {
  AnchorPhrase out;
  Subject& e = out.anchor.events;
  std::optional<EventKind> said;
  const Item* name = nullptr;
  bool range_noun = false, copy = false;
  size_t j = k;
  for (; j < s.size() && j < k + 4; ++j) {
    const Item& it = s[j];
    if (it.kind == Item::kName && !name && !it.classes.empty()) {
      name = &it;
    } else if (it.Has(Slot::kEvents) && !said) {
      said = static_cast<EventKind>(it.Value(Slot::kEvents));
    } else if (it.Has(Slot::kCopyKind) && !copy) {
      e.copy_kind = std::string(lexicon::CopyKinds()[it.Value(Slot::kCopyKind)]);
      copy = true;
    } else if (it.Has(Slot::kRangeNoun) && !range_noun) {
      range_noun = true;
    } else if (!IsWordIn(it, {"cuda", "gpu", "nvtx"}) &&
               !(name && IsWordIn(it, {"launch", "launches", "execution", "executions", "instance", "occurrence"}))) {
      break;  // ("the 10th nvkernel_solve launch": one run of the named events)
    }
  }
  if (j == k || (!name && !said && !copy && !range_noun)) return std::nullopt;
  if (said && (*said == EventKind::kGpu || *said == EventKind::kDevices)) return std::nullopt;
  std::optional<EventKind> kind = name ? EventsOfName(name->classes, said, range_noun) : said;
  if (!kind && copy) kind = EventKind::kMemcpy;
  if (!kind && range_noun) kind = EventKind::kNvtx;
  if (!kind || (copy && *kind != EventKind::kMemcpy)) return std::nullopt;
  e.events = *kind;
  if (name) e.name = name->name;
  out.end = j;
  out.first_kernel = !name && !copy && *kind == EventKind::kKernels;
  return out;
}

// The moment at the events' start or end: the first start and the last end of the events are their first's start
// and their last's end (nth 0), any other place is that one event's.
void SetTheEdge(AnchorPhrase& a, bool at_end) {
  a.anchor.at_end = at_end;
  const bool extreme = (a.place == 1 && !at_end) || (a.place == -1 && at_end);
  a.anchor.events.nth = extreme ? 0 : a.place;
}

// A moment's noun phrase from k: [the] [start|end of] [the] [very] [place] events [edge words]. With `pointed`, "one"
// stands for those events ("between the start of the first sample kernel and the end of the last one").
std::optional<AnchorPhrase> ReadAnchorPhrase(const std::vector<Item>& s, size_t k, const Subject* pointed = nullptr) {
  int edge = 0;  // 1 start, 2 end
  const auto skip = [&](size_t& j) {
    while (j < s.size() && IsWordIn(s[j], {"the", "its", "very", "moment", "time", "point", "instant"})) ++j;
  };
  skip(k);
  if (k + 1 < s.size() && IsWordIn(s[k + 1], {"of"})) {
    const std::string w = Lower(s[k].word);
    if (w == "start" || w == "beginning" || w == "begin" || w == "launch" || w == "onset") edge = 1;
    if (w == "end" || w == "finish" || w == "completion" || w == "close" || w == "ending") edge = 2;
    if (edge) k += 2;
    skip(k);
  }
  const auto [place, covered] = PlaceInTime(s, k);
  k += covered;
  skip(k);
  auto out = AnchorEvents(s, k);
  // "... and the end of the last one", "... and the start of the 11th": the events said before, pointed at.
  const bool bare = place != 0 && (k >= s.size() || s[k].kind == Item::kSeparator);
  if (!out && pointed && (bare || (k < s.size() && IsWordIn(s[k], {"one"})))) {
    out = AnchorPhrase{Anchor{*pointed, false}, bare ? k : k + 1};
    out->anchor.events.nth = 0;
  }
  if (!out) return std::nullopt;
  out->place = place;
  out->anchor.events.nth = place;
  // "the very last kernel of the run finished": the recording said after the events.
  if (out->end + 2 < s.size() && IsWordIn(s[out->end], {"of", "in"}) && IsWordIn(s[out->end + 1], {"the", "this"}) &&
      IsWordIn(s[out->end + 2], {"run", "profile", "capture", "trace", "recording", "export"}))
    out->end += 3;
  // "the first kernel's start", "the MPI_Init range's end", "the first kernel start".
  if (!edge && out->end < s.size()) {
    const std::string w = Lower(s[out->end].word);
    if (w == "start" || w == "'s start")
      edge = 1, ++out->end;
    else if (w == "end" || w == "'s end")
      edge = 2, ++out->end;
  }
  int said = 0;
  if (!edge) {
    const auto [after, n] = EdgeAfter(s, out->end);
    said = after;
    out->end += n;
  }
  out->open = said == 3;
  if (said == 1 || said == 2) edge = said;
  out->edge_said = edge != 0;
  SetTheEdge(*out, edge == 2);
  out->first_kernel = out->first_kernel && place == 1 && edge != 2 && !out->open;
  // "anywhere", "on any GPU", "in the whole profile": the moment is of the whole profile, as every moment is.
  while (out->end < s.size() && IsWordIn(s[out->end], {"anywhere", "overall"})) {
    ++out->end;
    out->first_kernel = false;
  }
  return out;
}

// The word that sets a moment as where a window starts, at k ("from", "after", "since", "measuring from", "relative
// to"), or 0 ("with", "using" set one only with "as the origin" after the moment).
enum class MomentRole { kNone, kFrom, kTakes, kUntil, kWhile, kBetween };
MomentRole RoleOf(const std::vector<Item>& s, size_t k) {
  const std::string w = Lower(s[k].word);
  if (w == "from" || w == "after" || w == "since" || w == "following" || w == "once") return MomentRole::kFrom;
  if (w == "to" && k > 0 && IsWordIn(s[k - 1], {"relative"})) return MomentRole::kFrom;
  if (w == "with" || w == "using" || w == "taking" || w == "take" || w == "use" || w == "treating" || w == "treat")
    return MomentRole::kTakes;
  if (w == "until" || w == "till" || w == "before" || w == "to" || w == "through") return MomentRole::kUntil;
  if (w == "while" || w == "during") return MomentRole::kWhile;
  if (w == "between") return MomentRole::kBetween;
  return MomentRole::kNone;
}

// "how long after MPI_Init finishes does ...", "how long was it from the start of the call until ...", "the time from
// X to Y": the time between two moments, which no Query measures (a window is where events are counted), at the
// word that sets a moment at k.
bool AsksTheTimeBetween(const std::vector<Item>& s, size_t k) {
  for (size_t j = k; j-- > 0 && j + 3 >= k;) {
    if (IsWordIn(s[j], {"long", "how long", "soon", "how soon", "it", "elapsed", "gap", "delay", "latency",
                        "how much time", "passed"}))
      return true;
    if (j + 1 == k && IsWordIn(s[j], {"time"})) return true;
  }
  return false;
}

// The words [from, end) of a moment become one item, returned: the lexicon's origin ("after the first kernel": a
// window counts from it) holding the moment, or a word of no slot holding the moment the window ends at.
Item& ReplaceWithMoment(std::vector<Item>& s, size_t from, size_t end, std::optional<Anchor> origin,
                        std::optional<Anchor> until) {
  Item it = LexItem(origin ? "after the first kernel" : "the", WordsOf(s, from, end));
  it.origin_at = std::move(origin);
  it.until_at = std::move(until);
  return ReplaceItems(s, from, end, std::move(it));
}

// "while the second Model range was open": the window is that one event, from its start to its end, replacing the
// words from `from`. One event only: "during the X ranges" is inside them (their launches), not a window.
bool ReadWhileOpen(std::vector<Item>& s, size_t from, const AnchorPhrase& a) {
  if (a.place == 0 || a.edge_said) return false;
  Anchor start = a.anchor, stop = a.anchor;
  start.events.nth = stop.events.nth = a.place;
  start.at_end = false;
  stop.at_end = true;
  ReplaceWithMoment(s, from, a.end, start, stop);
  return true;
}

// "between the start of the first sample kernel and the end of the last one" (the events said before, pointed at):
// two moments, the first said with its edge or its place in time.
bool ReadBetweenMoments(std::vector<Item>& s, size_t from, AnchorPhrase a) {
  if (a.end + 1 >= s.size() || !IsWordIn(s[a.end], {"and"})) return false;
  auto b = ReadAnchorPhrase(s, a.end + 1, &a.anchor.events);
  if (!b || b->open || (!a.edge_said && a.place == 0)) return false;
  if (!a.edge_said) SetTheEdge(a, false);
  if (!b->edge_said) SetTheEdge(*b, true);
  ReplaceWithMoment(s, from, b->end, a.anchor, b->anchor);
  return true;
}

// "how long after MPI_Init finishes does the first saxpy kernel start", "how long was it from the end of the first
// copy until the second one began", "the gap between the end of the first kernel and the start of the second": the
// time between two moments (Measure::kElapsed), from the word that sets the first at i to the second after a word
// that joins them. After an event is after its end; the second is its start unless said. A launch call and the work
// it launched ("how long after its launch call returns does X start") are the launch relation's (latency, delay).
bool ReadElapsed(std::vector<Item>& s, size_t i) {
  // "after the first kernel" is one phrase of the lexicon (an origin): its words, read as a moment's.
  if (s[i].Has(Slot::kFromFirstKernel) && !s[i].origin_at && s[i].word.find(' ') != std::string::npos) {
    std::vector<Item> words(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(i));
    for (std::string_view w : WordsOfPhrase(s[i].word)) words.push_back(LexItem(Lower(std::string(w)), std::string(w)));
    words.insert(words.end(), s.begin() + static_cast<std::ptrdiff_t>(i) + 1, s.end());
    if (!IsWordIn(words[i], {"after", "from", "since"}) || !ReadElapsed(words, i)) return false;
    s = std::move(words);
    return true;
  }
  const bool after = IsWordIn(s[i], {"after", "following"}), between = IsWordIn(s[i], {"between"});
  if (!after && !between && !IsWordIn(s[i], {"from", "since"})) return false;
  auto a = ReadAnchorPhrase(s, i + 1);
  if (!a || a->open || a->end >= s.size()) return false;
  if (!a->edge_said) SetTheEdge(*a, after);
  size_t j = a->end;
  if (!IsWordIn(s[j], {"does", "did", "do", "until", "till", "to", "and", "before", "when", "is", "was"})) return false;
  auto b = ReadAnchorPhrase(s, j + 1, &a->anchor.events);
  if (!b || b->open) return false;
  if (!b->edge_said) SetTheEdge(*b, false);
  const bool launch_relation = a->anchor.events.events == EventKind::kApi && a->place == 0 &&
                               b->anchor.events.events != EventKind::kApi &&
                               b->anchor.events.events != EventKind::kNvtx;
  if (launch_relation) return false;
  // "the gap between", "the time from": the noun of the time is the moment's.
  size_t from = i;
  if (from > 0 && IsWordIn(s[from - 1], {"gap", "time", "delay", "interval", "elapsed", "lag", "distance"})) --from;
  ReplaceWithMoment(s, from, b->end, a->anchor, b->anchor).elapsed = true;
  return true;
}

// Each role a moment takes (from, taken as the origin, until, while, between) reads its phrase and replaces its words.
void ReadAnchors(std::vector<Item>& s) {
  bool origin_said = false, time_between = false;
  for (size_t i = 0; i < s.size(); ++i) {
    // The lexicon's "after the first kernel": an origin (ReadOrigin), or the first of two moments.
    if (s[i].Has(Slot::kFromFirstKernel) && !s[i].origin_at) {
      if (!time_between && AsksTheTimeBetween(s, i)) ReadElapsed(s, i);
      continue;
    }
    const MomentRole role = RoleOf(s, i);
    if (role == MomentRole::kNone) continue;
    // "how long after MPI_Init finishes does the first saxpy kernel start": both moments are the time's.
    const bool asks_time = !time_between && AsksTheTimeBetween(s, i);
    if (asks_time && ReadElapsed(s, i)) continue;
    time_between = time_between || asks_time;
    if (time_between) continue;
    auto a = ReadAnchorPhrase(s, i + 1);
    if (!a) continue;
    size_t from = i, end = a->end;
    if (from > 0 && IsWordIn(s[from - 1], {"relative", "counting", "counted", "measured", "measuring", "starting",
                                           "beginning", "right"}))
      --from;
    switch (role) {
      case MomentRole::kFrom: {
        // The first kernel in the question's places is ReadOrigin's. "from the NCCL kernels" is where time comes
        // from, not a moment: a moment is said with its edge or its place in time ("from the start of", "from the
        // first X"); after an event without its edge is after it ended ("after the MPI_Init range").
        const bool after = IsWordIn(s[i], {"after", "following", "once"});
        if (a->first_kernel || a->open || (!a->edge_said && a->place == 0 && !after)) continue;
        if (!a->edge_said) SetTheEdge(*a, after);
        // "from the end of X to the start of Y": both moments.
        if (end + 1 < s.size() && IsWordIn(s[end], {"to", "until", "till", "through"})) {
          if (auto b = ReadAnchorPhrase(s, end + 1, &a->anchor.events); b && !b->open) {
            if (!b->edge_said) SetTheEdge(*b, true);
            ReplaceWithMoment(s, from, b->end, a->anchor, b->anchor);
            origin_said = true;
            break;
          }
        }
        ReplaceWithMoment(s, from, end, a->anchor, std::nullopt);
        origin_said = true;
        break;
      }
      case MomentRole::kTakes: {
        size_t j = end;
        while (j < s.size() && j <= end + 4 && IsRecordingWord(Lower(s[j].word))) ++j;
        const size_t past = PastOriginWords(s, j);
        if (past == 0 || a->first_kernel || a->open) continue;
        ReplaceWithMoment(s, from, past, a->anchor, std::nullopt);
        origin_said = true;
        break;
      }
      case MomentRole::kUntil: {
        // "to" and "through" end a window only after a moment it starts at; "before" and "until" alone end one, at
        // the events' start ("before the first copy") or their end ("until the MPI_Init range").
        const bool before = IsWordIn(s[i], {"before"});
        if (a->open || (!origin_said && IsWordIn(s[i], {"to", "through"})) || a->first_kernel ||
            (!a->edge_said && a->place == 0 && before))
          continue;
        if (!a->edge_said) SetTheEdge(*a, !before);
        ReplaceWithMoment(s, from, end, std::nullopt, a->anchor);
        break;
      }
      case MomentRole::kWhile:
        origin_said = ReadWhileOpen(s, from, *a) || origin_said;
        break;
      case MomentRole::kBetween:
        origin_said = ReadBetweenMoments(s, from, *a) || origin_said;
        break;
      case MomentRole::kNone:
        break;
    }
  }
}

// "with no kernel running", "the GPU running no kernel at all": a GPU's idle time as the guide defines it (no kernel
// on it), said in words. "no" becomes the idle measure; the events noun stays. Where the sentence says "idle" itself
// ("idle, with no kernel, memcpy or memset running"), the words say what idle means and are read as they are.
void ReadNoWork(std::vector<Item>& s) {
  // "the longest stretch where no kernel is running", "the time when no kernel runs": the word that joins the
  // condition to what it bounds is read as "with".
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    const std::string w = Lower(s[i - 1].word);
    if ((w == "where" || w == "when" || w == "while") && Lower(s[i].word) == "no" && s[i + 1].Has(Slot::kEvents))
      s[i - 1] = LexItem("with", s[i - 1].word);
  }
  const bool idle_said = std::any_of(s.begin(), s.end(),
                                     [](const Item& it) { return it.Says(Measure::kIdle) || it.Says(Measure::kBusy); });
  // "GPU 0 idle time: ..., how long is no kernel running?": a question of its own asks the idle time again.
  const auto asks_how_long = [&](size_t i) {
    return i >= 2 && IsWordIn(s[i - 1], {"is", "was", "are", "were"}) && IsWordIn(s[i - 2], {"how long", "long"});
  };
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (idle_said && !asks_how_long(i)) continue;
    // "not running any kernel", "not executing any kernels": as "no kernel running".
    if (Lower(s[i].word) == "not" && i + 3 < s.size() && Lower(s[i + 2].word) == "any" &&
        (Lower(s[i + 1].word) == "running" || Lower(s[i + 1].word) == "executing") && s[i + 3].Has(Slot::kEvents)) {
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(i + 1), s.begin() + static_cast<std::ptrdiff_t>(i + 3));
      s[i].word = "no";
    }
    if (Lower(s[i].word) != "no" || !s[i + 1].Has(Slot::kEvents)) continue;
    const uint8_t e = s[i + 1].Value(Slot::kEvents);
    if (e != static_cast<uint8_t>(EventKind::kKernels) && e != static_cast<uint8_t>(EventKind::kGpu)) continue;
    s[i] = LexItem("idle", s[i].word);
  }
  // "how much time had at least one kernel running", "the time with at least one kernel executing": the busy time,
  // the idle time's complement, as the guide defines it. "has at least one kernel on it" (a span, a row) says the
  // same of where they ran: "on it" is running there.
  for (size_t i = 0; i + 4 < s.size(); ++i) {
    if (IsWordIn(s[i], {"at least"}) && IsWordIn(s[i + 1], {"one", "1"}) && s[i + 2].Has(Slot::kEvents) &&
        IsWordIn(s[i + 3], {"on"}) && IsWordIn(s[i + 4], {"it", "them"})) {
      s[i + 3] = LexItem("running", s[i + 3].word + " " + s[i + 4].word);
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(i + 4));
    }
  }
  for (size_t i = 0; i + 3 < s.size(); ++i) {
    if (!IsWordIn(s[i], {"at least"}) || !IsWordIn(s[i + 1], {"one", "1"}) || !s[i + 2].Has(Slot::kEvents)) continue;
    const uint8_t e = s[i + 2].Value(Slot::kEvents);
    if (e != static_cast<uint8_t>(EventKind::kKernels) && e != static_cast<uint8_t>(EventKind::kGpu)) continue;
    const auto near_end = s.begin() + static_cast<std::ptrdiff_t>(std::min(s.size(), i + 5));
    if (std::none_of(s.begin() + static_cast<std::ptrdiff_t>(i + 3), near_end, [](const Item& it) {
          return IsWordIn(it, {"running", "executing", "active", "in flight", "on it", "on them"});
        }))
      continue;
    // "what fraction of the span had at least one kernel executing": with a share before it in its clause, the
    // running words already ask the busy share (Clause::running).
    bool share = false;
    for (size_t k = i; k-- > 0 && s[k].kind != Item::kSeparator && !IsWordIn(s[k], {"and"});)
      share = share || s[k].Says(Measure::kShare);
    if (share) continue;
    s[i] = LexItem("busy", s[i].word + " " + s[i + 1].word);
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(i + 1));
  }
}

// "the FlashAttention forward kernel (flash_fwd_kernel)": a whole name in parentheses names what the words before it
// describe. So do parentheses of names alone, joined or summed ("layout transposes (nchwToNhwc + nhwcToNchw
// kernels)"). Those words (parts of other names, plain words) are taken as describing them; event nouns are read.
bool OnlyNames(const std::vector<Item>& s, size_t open) {
  bool name = false;
  for (size_t k = open; k < s.size() && s[k].paren; ++k) {
    name = name || s[k].kind == Item::kName;
    const bool joins = s[k].kind == Item::kSeparator || s[k].Has(Slot::kSplit) || s[k].Has(Slot::kEvents) ||
                       IsWordIn(s[k], {"+", "plus", "and", "or", "the", "both"});
    if (s[k].kind != Item::kName && !joins) return false;
  }
  return name;
}
void NamedInParentheses(std::vector<Item>& s) {
  for (size_t open = 1; open < s.size(); ++open) {
    if (!s[open].paren || s[open - 1].paren) continue;
    // "(the executor_utils::NVRTC ranges)": an article before the name.
    // "(the ones whose names start with nvjet)": the words that say a name is a part of names, before it.
    const auto lead = [](const Item& it) {
      const std::string w = Lower(it.word);
      return IsWordIn(it, {"the", "a", "an", "all", "ones", "those"}) ||
             (it.Has(Slot::kStop) && w.size() > 5 && w.compare(w.size() - 5, 5, " with") == 0);
    };
    size_t k = open;
    while (k + 1 < s.size() && s[k].paren && lead(s[k])) ++k;
    if (s[k].kind != Item::kName || !s[k].paren || !(s[k].exact || OnlyNames(s, k))) continue;
    for (size_t j = open; j-- > 0;) {
      // "NCCL pushes its own NVTX ranges (...)", "the NVRTC compile ranges (executor_utils::NVRTC)"
      if (s[j].Has(Slot::kEvents) || s[j].Has(Slot::kStop) || s[j].Has(Slot::kRangeNoun)) continue;
      const bool part = s[j].kind == Item::kName && !s[j].exact;
      const bool plain = s[j].kind == Item::kUnknown && IsWordLike(Lower(s[j].word));
      if (!part && !plain) break;
      s[j].kind = Item::kUnknown;
      s[j].describing = true;
    }
  }
}

// The launch delay and latency said as a difference of two moments ("the delay between the launch call returning
// and the kernel starting", "from the end of each kernel's launch call to the kernel actually starting", "kernel
// start minus the end of the cudaLaunchKernel call that launched it", "how long after its launch call returns does a
// kernel start"): each moment is a boundary word (start or end) and the events it is of (the last noun of a call or
// a kernel before a relative clause: "the end of the X call that launched it" is the call's). From the call's end to
// the kernel's start is the launch delay as the guide defines it, from the call's start the launch latency. The words
// become that lexicon measure; a kernel's name among them stays, a call's is the launching call's. A definition after
// a colon replaces the measure word before it ("the launch latency: kernel start minus ... end of the call").
bool IsReturnWord(const std::string& w) {
  return w == "returning" || w == "returns" || w == "returned" || w == "return" || w == "ends" || w == "ending" ||
         w == "ended" || w == "end" || w == "finishing" || w == "finishes" || w == "finished" || w == "completes";
}
bool IsBeginWord(const std::string& w) {
  return w == "starting" || w == "starts" || w == "started" || w == "start" || w == "begins" || w == "beginning" ||
         w == "began" || w == "begin";
}
bool NamesAClass(const Item& it, NameClass c) {
  return it.kind == Item::kName && std::find(it.classes.begin(), it.classes.end(), c) != it.classes.end();
}
enum class Of : uint8_t { kNone, kCall, kKernel };
struct Moment {
  Of of = Of::kNone;
  bool end = false;  // the end (a return), else the start
  size_t next = 0;   // the position after its words
  std::optional<Item> kernel;
};
// The moment said from position k to the first joining word, separator, parenthesis or `stop`, at most ten words.
std::optional<Moment> MomentAt(const std::vector<Item>& s, size_t k, size_t stop) {
  Moment m;
  bool bound = false, relative = false;
  size_t j = k;
  for (; j < s.size() && j < stop && j < k + 10 && s[j].kind != Item::kSeparator && s[j].paren == s[k].paren; ++j) {
    const std::string x = Lower(s[j].word);
    if (x == "and" || x == "to" || x == "minus" || x == "until" || x == "till" || x == "does" || x == "do") break;
    if (x == "that" || x == "which") relative = true;
    if (!bound && (IsReturnWord(x) || IsBeginWord(x))) {
      bound = true;
      m.end = IsReturnWord(x);
    }
    if (NamesAClass(s[j], NameClass::kKernel)) m.kernel = s[j];
    if (relative) continue;
    if (x == "call" || x == "calls" || x == "launch" || NamesAClass(s[j], NameClass::kApi)) m.of = Of::kCall;
    if (x == "kernel" || x == "kernels" || x == "it" || NamesAClass(s[j], NameClass::kKernel)) m.of = Of::kKernel;
  }
  if (!bound || m.of == Of::kNone) return std::nullopt;
  m.next = j;
  return m;
}
// ", clipped at zero", "floored at 0", "(negative values counted as 0)": the bound of a launch delay, which is at least
// 0 as the guide defines it, said after its definition: the position past those words, or `k` when there are none.
size_t PastClipping(const std::vector<Item>& s, size_t k) {
  size_t j = k;
  while (j < s.size() && (s[j].kind == Item::kSeparator && s[j].word == ",")) ++j;
  const auto zero = [&](size_t at) {
    return at < s.size() && (IsWordIn(s[at], {"zero", "0"}) || (s[at].kind == Item::kNumber && s[at].number == 0));
  };
  size_t end = j;
  if (end < s.size() && IsWordIn(s[end], {"clipped", "clamped", "floored", "bounded", "capped", "truncated"})) {
    ++end;
    if (end < s.size() && IsWordIn(s[end], {"at", "to", "below", "from"})) ++end;
    return zero(end) ? end + 1 : k;
  }
  // "negative values counted as 0", "negatives treated as zero", "counting negative delays as zero"
  if (end + 1 < s.size() && IsWordIn(s[end], {"counting", "treating", "taking", "setting", "with"}) &&
      IsWordIn(s[end + 1], {"negative", "negatives"}))
    ++end;
  if (end < s.size() && IsWordIn(s[end], {"negative", "negatives"})) {
    ++end;
    if (end < s.size() && IsWordIn(s[end], {"values", "ones", "delays"})) ++end;
    if (end < s.size() && IsWordIn(s[end], {"counted", "treated", "taken", "set", "clipped", "clamped"})) ++end;
    if (end < s.size() && IsWordIn(s[end], {"as", "to", "at"})) ++end;
    return zero(end) ? end + 1 : k;
  }
  return k;
}

// The words that open a definition of what was just said: a comma (a colon is read as one), "i.e.", "that is",
// "namely", "meaning", and the determiners before its words.
bool IsDefinitionMarker(const Item& it) {
  return it.kind == Item::kSeparator ||
         IsWordIn(it, {",", "i.e.", "i.e", "ie", "that", "is", "namely", "meaning", "the", "a", "its", "their"});
}
// The position of a launch latency or delay measure that the definition starting at `first` restates: before it in
// the sentence, past definition markers (one at least besides determiners) and a grouping ("per process"), or none.
std::optional<size_t> MeasureADefinitionRestates(const std::vector<Item>& s, size_t first) {
  bool marker = false;
  for (size_t k = first; k-- > 0 && first - k <= 8;) {
    if (s[k].Says(Measure::kLatency) || s[k].Says(Measure::kLaunchDelay) || IsWordIn(s[k], {"latency", "delay"}))
      return marker ? std::optional<size_t>(k) : std::nullopt;
    if (s[k].word == "." || s[k].word == "?" || s[k].word == "!") return std::nullopt;
    if (IsDefinitionMarker(s[k])) {
      marker = marker || !IsWordIn(s[k], {"the", "a", "its", "their"});
    } else if (!(s[k].Has(Slot::kPer) || IsGroupNoun(s[k]))) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}
std::vector<std::string> ReadDelayInWords(std::vector<Item>& s) {
  std::vector<std::string> read;  // the words of each definition, for the answer to say how they were taken
  for (size_t b = 0; b < s.size(); ++b) {
    const std::string w = Lower(s[b].word);
    // The two moments and which is the later: "between A and B", "from A to B", "after A ... B", "B minus A".
    std::optional<Moment> from, to;
    size_t first = b, last = 0;
    if (w == "between" || w == "from" || w == "after") {
      from = MomentAt(s, b + 1, s.size());
      if (!from || from->next >= s.size()) continue;
      const std::string join = Lower(s[from->next].word);
      if ((w == "between" && join != "and") || (w == "from" && join != "to" && join != "until" && join != "till"))
        continue;
      to = MomentAt(s, from->next + 1, s.size());
      if (to) last = to->next;
    } else if (NamesAClass(s[b], NameClass::kKernel) || IsBeginWord(w) || IsReturnWord(w) ||
               IsWordIn(s[b], {"the", "each", "its", "their", "a", "kernel", "kernels"})) {
      const auto later = MomentAt(s, b, s.size());
      if (!later || later->next >= s.size() || Lower(s[later->next].word) != "minus") continue;
      to = later;
      from = MomentAt(s, later->next + 1, s.size());
      if (from) last = from->next;
    }
    if (!from || !to || from->of != Of::kCall || to->of != Of::kKernel || to->end) continue;
    if (first > 0 && IsWordIn(s[first - 1], {"delay", "gap", "lag", "latency", "time"})) --first;
    const char* phrase = from->end ? "launch delay" : "launch latency";
    last = PastClipping(s, last);
    std::vector<Item> names;
    if (to->kernel) names.push_back(*to->kernel);
    if (!to->kernel && from->kernel) names.push_back(*from->kernel);
    // "the launch latency: kernel start minus ...", "the average launch latency per process, i.e. the time from
    // cudaLaunchKernel returning to the kernel starting": a definition after the measure it restates (after a colon,
    // read as a comma, "i.e.", "that is", "namely") is what that measure means: the measure takes the definition's
    // meaning, and the definition's words and the marker go.
    if (const auto said = MeasureADefinitionRestates(s, first)) {
      size_t cut = first;
      while (cut > *said + 1 && IsDefinitionMarker(s[cut - 1])) --cut;
      s[*said] = LexItem(phrase, s[*said].word);
      read.push_back(WordsOf(s, first, last));
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(cut), s.begin() + static_cast<std::ptrdiff_t>(last));
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(cut), names.begin(), names.end());
      b = cut;
      continue;
    }
    read.push_back(WordsOf(s, first, last));
    std::vector<Item> with = {LexItem(phrase, read.back())};
    with.insert(with.end(), names.begin(), names.end());
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(first), s.begin() + static_cast<std::ptrdiff_t>(last));
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(first), with.begin(), with.end());
    b = first;
  }
  return read;
}

// "the average launch latency", "the launch delay, averaged over its kernels", "..., on average": the launch latency
// and delay are means already; a bare word of averaging in a sentence that asks one says so, and asks no mean
// duration too (read as a word of no slot). A bare word of the worst case ("the average and the worst-case launch
// delays", "max launch latency") asks the longest of that figure. A word of duration after either ("the average
// duration and the launch delay") keeps it.
void MeanOfAMean(std::vector<Item>& s) {
  const bool delay = std::any_of(s.begin(), s.end(), [](const Item& it) { return it.Says(Measure::kLaunchDelay); });
  const bool latency = std::any_of(s.begin(), s.end(), [](const Item& it) { return it.Says(Measure::kLatency); });
  if (!delay && !latency) return;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool mean =
        s[i].Says(Measure::kAverage) && IsWordIn(s[i], {"average", "averaged", "mean", "on average", "avg", "typical"});
    const bool worst = s[i].Says(Measure::kMax) && IsWordIn(s[i], {"worst-case", "worst case", "worst", "max",
                                                                   "maximum", "longest", "peak", "highest"});
    if (!mean && !worst) continue;
    const size_t j = NextSignificant(s, i);
    if (j < s.size() && (s[j].Has(Slot::kWeakTotal) || IsWordIn(s[j], {"duration", "durations", "runtime"}))) continue;
    s[i] = LexItem(mean ? "the" : (delay ? "longest launch delay" : "longest launch latency"), s[i].word);
  }
}

// "HtoD vs DtoH: how many bytes?", "cudaMalloc vs cudaFree: calls and total time?": a heading that sets two sides
// against each other before a colon, and asks nothing itself (no measure, no question or request word), is what the
// question after the colon is asked of: read with it as one clause, not as a question of its own with a measure it
// never said.
void ComparisonHeading(std::vector<Item>& s) {
  const auto colon = std::find_if(s.begin(), s.end(), [](const Item& it) { return it.colon; });
  if (colon == s.begin() || colon == s.end() || colon + 1 == s.end()) return;
  bool versus = false;
  for (auto it = s.begin(); it != colon; ++it) {
    const std::string w = Lower(it->word);
    if (it->Has(Slot::kMeasure) || it->Has(Slot::kWeakTotal) || it->Has(Slot::kWhich) || it->Has(Slot::kTop) ||
        it->Has(Slot::kBottom) || it->Has(Slot::kAuxiliary) || it->Has(Slot::kCompare) || w.rfind("how", 0) == 0 ||
        w.rfind("what", 0) == 0 || it->kind == Item::kSeparator)
      return;
    versus = versus || it->Has(Slot::kVersus);
  }
  if (!versus) return;
  s.erase(colon);
}

// "What launch configuration did nvFuser pick for nvfuser_inner_persistent_f1_c1_r0_g2?": a library's name read as a
// part of names, in a sentence that also says a whole name holding it, says whose that name is: a word that
// describes.
// "How much time does nvFuser spend inside the executor_utils::NVRTC ranges?": a library that spends time, in a
// sentence that names whole NVTX ranges, is the program the ranges are of, not a part of kernel names.
void LibrariesBesideAWholeName(std::vector<Item>& s) {
  for (size_t k = 0; k < s.size(); ++k) {
    Item& it = s[k];
    const std::string lib = Lower(it.word);
    if (it.kind != Item::kName || it.exact || !lexicon::IsLibraryName(lib)) continue;
    // The whole name holds the library's: "nvfuser_inner_persistent_..." is nvFuser's.
    const bool whose = std::any_of(s.begin(), s.end(), [&](const Item& whole) {
      return whole.kind == Item::kName && whole.exact && Lower(whole.name).find(lib) != std::string::npos;
    });
    const bool spends = k + 1 < s.size() && IsWordIn(s[k + 1], {"spend", "spends", "spent", "spending"}) &&
                        std::any_of(s.begin(), s.end(), [](const Item& r) {
                          return r.kind == Item::kName && r.exact &&
                                 std::find(r.classes.begin(), r.classes.end(), NameClass::kNvtx) != r.classes.end();
                        });
    // "the TensorRT layer /maxpool/MaxPool": a library that only NVTX ranges name (their domain: nsys writes
    // "TensorRT:/fc/Gemm"), before a range noun and another range's name, is whose range that is.
    const auto only_ranges = [](const Item& n) {
      return n.kind == Item::kName && !n.classes.empty() &&
             std::all_of(n.classes.begin(), n.classes.end(), [](NameClass c) { return c == NameClass::kNvtx; });
    };
    const bool domain = only_ranges(it) && k + 2 < s.size() && s[k + 1].Has(Slot::kRangeNoun) &&
                        only_ranges(s[k + 2]) && !lexicon::IsLibraryName(Lower(s[k + 2].word));
    if (whose || spends || domain) {
      it.kind = Item::kUnknown;
      it.describing = true;
    }
  }
}

// "Of the summed time of those six labels, what percentage is find_centers?": a share of a sum of events said before,
// which no Query holds (a share is of every event of the kind): unread.
void ShareOfASumSaidBefore(const std::vector<Item>& s, Reading& reading) {
  const auto share = std::find_if(s.begin(), s.end(), [](const Item& it) { return it.Says(Measure::kShare); });
  if (share == s.end()) return;
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    if (IsWordIn(s[k], {"summed", "combined", "sum"}) &&
        std::any_of(s.begin() + static_cast<std::ptrdiff_t>(k), s.end(), [](const Item& it) {
          return IsWordIn(it, {"those", "these"});
        })) {
      reading.unread.push_back("(a share of a sum of events)");
      return;
    }
  }
}

// "that window", "the interval": the span a span phrase said, in its sentence or the ones after it.
void WindowIsTheSpan(std::vector<Item>& s) {
  for (size_t k = 1; k < s.size(); ++k) {
    const std::string w = Lower(s[k].word), before = Lower(s[k - 1].word);
    if ((w == "window" || w == "interval" || w == "period" || w == "stretch") &&
        (before == "that" || before == "this" || before == "the")) {
      s[k] = LexItem("span", "span");
    }
    // "what percentage of the time was a kernel running", "what percentage of the timeline is covered by kernels": the
    // time is that span too, after a share, where the words after it say the events ran or covered it (an idle share
    // is read as one without it).
    const auto ran = [&] {
      return std::any_of(s.begin() + static_cast<std::ptrdiff_t>(k), s.end(), [](const Item& it) {
        return IsWordIn(it, {"running", "executing", "busy", "active", "computing", "covered", "occupied", "filled"});
      });
    };
    if ((w == "time" || w == "timeline") && before == "the" && k >= 3 && Lower(s[k - 2].word) == "of" &&
        s[k - 3].Says(Measure::kShare) && ran())
      s[k] = LexItem("span", "span");
  }
}

// "time between first and last kernel?", "what is the time from the first to the last copy": the lexicon's phrase of
// a span ("first and last", "from the first to the last") with an events noun after it, in a sentence that asks no
// measure of its own and says no span, is the question: the span of those events. (Beside a measure, "idle between
// the first and last kernel", the phrase only says over what the measure is, which idle time is anyway.)
void SpanSaidInOnePhrase(std::vector<Item>& s) {
  const bool measured =
      std::any_of(s.begin(), s.end(), [](const Item& it) { return it.Has(Slot::kMeasure) || SaysASpan(it); });
  if (measured) return;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    const std::string w = Lower(s[i].word);
    if (!s[i].Has(Slot::kStop) || w.find("first") == std::string::npos || w.find("last") == std::string::npos) continue;
    size_t k = i + 1;
    while (k < s.size() && k <= i + 2 && IsWordIn(s[k], {"gpu", "cuda"})) ++k;
    if (k < s.size() && s[k].Has(Slot::kEvents)) s[i] = LexItem("span", s[i].word);
    return;
  }
}

// A span phrase that opens the sentence before a comma ("Between the first kernel starting and the last kernel
// finishing, how long is the GPU idle, and what percentage of that window is it?") says over what the question
// measures: the span, over which idle time and utilization are measured anyway. It is dropped and returned, for the
// answer to say how it was taken, and "that window" or "the interval" after it is that span.
std::vector<std::string> ReadSpanPhrase(std::vector<Item>& s) {
  std::vector<std::string> dropped;
  SpanSaidInOnePhrase(s);
  for (size_t i = 0; i < s.size(); ++i) {
    if (Lower(s[i].word) != "first") continue;
    std::optional<Item> events;
    // "between the first and the last kernel", "from the first to the last copy": opened by "between" or "from", the
    // first part may say no events, which the last part's noun names for both.
    const auto opener = [&](size_t at) { return s[at].Has(Slot::kBetween) || IsWordIn(s[at], {"between", "from"}); };
    const bool opened =
        (i >= 1 && opener(i - 1)) || (i >= 2 && IsWordIn(s[i - 1], {"the", "its", "their"}) && opener(i - 2));
    const size_t mid = opened && i + 1 < s.size() && JoinsASpan(s[i + 1])
                           ? i + 1
                           : PastBoundary(s, i, IsStartWord, events, JoinsASpan);
    if (mid == 0 || mid >= s.size()) continue;
    size_t k = mid;
    const std::string join = Lower(s[k].word);
    if (join != "and" && join != "to" && join != "until" && join != "till" && join != "through") continue;
    for (++k; k < s.size() && (Lower(s[k].word) == "the" || Lower(s[k].word) == "its" || Lower(s[k].word) == "their");
         ++k) {
    }
    if (k >= s.size() || Lower(s[k].word) != "last") continue;
    // Without a start word, none at the end either: "from the first kernel until the last one".
    const bool said = mid > 0 && IsStartWord(Lower(s[mid - 1].word));
    size_t end = PastBoundary(s, k, IsEndWord, events, said ? nullptr : EndsASpan);
    // "From the first kernel to the last, what ...": "last" alone, right before the comma of a phrase that opens the
    // sentence, is of the events the first part said.
    const bool opens_here = opened && i <= 2 + (i >= 3 && s[i - 3].kind == Item::kSeparator ? 1 : 0);
    if (end == 0 && events && opens_here && k + 1 < s.size() && s[k + 1].kind == Item::kSeparator &&
        s[k + 1].word == ",")
      end = k + 1;
    if (end == 0) continue;
    size_t from = i;
    // "the", "its", "that GPU's", "each GPU's" before "first"
    while (from > 0 && (IsWordIn(s[from - 1], {"the", "its", "that", "each", "this"}) ||
                        (s[from - 1].Has(Slot::kDeviceNoun) && from >= 2 &&
                         IsWordIn(s[from - 2], {"that", "each", "this", "the"}))))
      --from;
    if (from > 0 && (s[from - 1].Has(Slot::kBetween) || Lower(s[from - 1].word) == "from")) --from;
    const Item span = LexItem("span", "span");
    // "From the first kernel to the last one on GPU 0, ...": a place said after the span stays, with the question.
    const size_t place_end = PlaceSaidAt(s, end) ? end + 3 : end;
    const bool opens = (from == 0 || s[from - 1].kind == Item::kSeparator) && place_end < s.size() &&
                       s[place_end].kind == Item::kSeparator && s[place_end].word == ",";
    if (opens) {  // its events stay: "from the first GPU work until the last one, ..." is of GPU work
      dropped.push_back(WordsOf(s, from, end));
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(place_end));  // the comma: the place is the question's
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(from), s.begin() + static_cast<std::ptrdiff_t>(end));
      if (events) s.insert(s.begin() + static_cast<std::ptrdiff_t>(from), *events);
      WindowIsTheSpan(s);
      i = from;
      continue;
    }
    std::vector<Item> with = {span};
    if (events) with.push_back(*events);
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(from), s.begin() + static_cast<std::ptrdiff_t>(end));
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(from), with.begin(), with.end());
    i = from;
  }
  return dropped;
}

// "its 95th-percentile duration (so only 5% of runs are slower)", "a typical (middle, i.e. median) run time": a
// parenthesis that opens with words that explain ("so", "i.e.", "meaning") or holds an "i.e.", and names nothing that
// narrows what is asked (a name, a place, a grouping, a kind of events or copies, a bound), says again what stands
// before it. It is dropped whole and returned, to be said as taken; the words after it are read as ever (an "i.e."
// outside parentheses drops the rest of its sentence: DropExplanation).
std::vector<std::string> DropExplainingParentheses(std::vector<Item>& s) {
  std::vector<std::string> said;
  for (size_t open = 0; open < s.size(); ++open) {
    if (!s[open].paren || (open > 0 && s[open - 1].paren)) continue;
    size_t close = open;
    while (close < s.size() && s[close].paren) ++close;
    const auto begin = s.begin() + static_cast<std::ptrdiff_t>(open),
               end = s.begin() + static_cast<std::ptrdiff_t>(close);
    const bool opens = IsWordIn(s[open], {"so", "i.e", "ie", "meaning", "namely", "that is"});
    // "busy time (union of kernels and copies)": the kinds of GPU work a GPU's time is of (DefinesGpuWork).
    // "(match each kernel to its own launch call)": how events are joined, said of the relation the words before it
    // name, is no more to answer.
    const bool defines =
        IsWordIn(s[open], {"union of", "union", "match", "matching", "pair", "pairing", "join", "joining"});
    const bool restates = std::any_of(begin, end, [](const Item& it) {
      return IsWordIn(it, {"i.e", "ie", "that is"});
    });
    const bool narrows = std::any_of(begin, end, [](const Item& it) {
      return it.Has(Slot::kPer) || it.Has(Slot::kDeviceNoun) || it.Has(Slot::kProcessNoun) ||
             it.Has(Slot::kStreamNoun) || it.Has(Slot::kEvents) || it.Has(Slot::kCopyKind) || it.Has(Slot::kMemory) ||
             it.Has(Slot::kComparator) || it.Has(Slot::kApiClass) || it.Has(Slot::kInside) || it.Has(Slot::kRangeNoun);
    });
    const bool names = std::any_of(begin, end, [](const Item& it) { return it.kind == Item::kName; });
    if (open == 0 || names || (narrows && !defines) || !(opens || restates || defines)) {
      open = close - 1;
      continue;
    }
    said.push_back("(" + WordsOf(s, open, close) + ")");
    s.erase(begin, end);
    --open;
  }
  return said;
}

// "the launch latency of X, i.e. from the start of the call to the kernel starting": what follows "i.e." or "that
// is" restates what came before it; it is read as said, not as more to answer. One that names events ("layout
// transposes, i.e. nchwToNhwcKernel plus nhwcToNchwKernel") says which events are meant, which the words before it
// may not: returned, to be said unread, never dropped in silence.
std::optional<std::string> DropExplanation(std::vector<Item>& sentence) {
  for (size_t i = 0; i < sentence.size(); ++i) {
    const std::string w = Lower(sentence[i].word);
    if (w == "i.e" || w == "ie" || w == "that is" || w == "namely" || w == "meaning") {
      const bool ends = !sentence.empty() && sentence.back().kind == Item::kSeparator;
      const size_t stop = sentence.size() - (ends ? 1 : 0);
      // "would you say the SGEMM dominates, i.e. north of 70% of GPU kernel time?": a bound or threshold said after
      // it is what the question tests: read, with the words before it.
      for (size_t k = i + 1; k + 1 < stop; ++k) {
        if (sentence[k].Has(Slot::kComparator) &&
            (sentence[k + 1].kind == Item::kNumber || sentence[k + 1].Has(Slot::kHalf))) {
          sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(i));
          return std::nullopt;
        }
      }
      // Names of the kinds the words before it name, or names where those name none, say which events; names of
      // another kind define a measure ("latency of add_arrays_, i.e. from the start of the cuLaunchKernel call").
      std::vector<NameClass> before;
      for (size_t k = 0; k < i; ++k) {
        if (sentence[k].kind == Item::kName)
          before.insert(before.end(), sentence[k].classes.begin(), sentence[k].classes.end());
      }
      const bool names =
          std::any_of(sentence.begin() + static_cast<std::ptrdiff_t>(i),
                      sentence.begin() + static_cast<std::ptrdiff_t>(stop), [&](const Item& it) {
                        return it.kind == Item::kName &&
                               (before.empty() || std::any_of(it.classes.begin(), it.classes.end(), [&](NameClass k) {
                                  return std::find(before.begin(), before.end(), k) != before.end();
                                }));
                      });
      // "idle time, i.e. the time with no kernel, copy or memset running": kinds of GPU work the words before it do
      // not name say which work counts, which the words before it may not have read.
      uint8_t kinds_before = 0, kinds_after = 0;
      for (size_t k = 0; k < stop; ++k) {
        if (!sentence[k].Has(Slot::kEvents)) continue;
        const auto e = static_cast<EventKind>(sentence[k].Value(Slot::kEvents));
        // "its first piece of GPU work ..., i.e. the gaps where no kernel, copy or memset was running": GPU work is
        // every kind of it.
        (k < i ? kinds_before : kinds_after) |= e == EventKind::kGpu ? uint8_t{7} : GpuKindBit(e);
      }
      const bool other_work = std::popcount(kinds_after) >= 2 && (kinds_after & ~kinds_before) != 0;
      // "what fraction of the kernel time is convolution, meaning the kernels with 'implicit_gemm' in their name": the
      // names say which events the plain words just before the comma meant; they stand in those words' place.
      // (One name: two may relate, "the nvjet matmul kernels", which that reading does not hold.)
      const auto named = std::count_if(sentence.begin() + static_cast<std::ptrdiff_t>(i),
                                       sentence.begin() + static_cast<std::ptrdiff_t>(stop),
                                       [](const Item& it) { return it.kind == Item::kName; });
      if (names && named == 1 && i >= 2 && sentence[i - 1].kind == Item::kSeparator && sentence[i - 1].word == ",") {
        size_t from = i - 1;
        while (from > 0 && from + 5 > i &&
               (sentence[from - 1].kind == Item::kUnknown || IsWordIn(sentence[from - 1], {"the"}) ||
                !lexicon::KernelFamilyWord(Lower(sentence[from - 1].word)).empty()))
          --from;
        const bool plain = from < i - 1 && std::any_of(sentence.begin() + static_cast<std::ptrdiff_t>(from),
                                                       sentence.begin() + static_cast<std::ptrdiff_t>(i - 1),
                                                       [](const Item& it) { return !IsWordIn(it, {"the"}); });
        if (plain) {
          sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(from),
                         sentence.begin() + static_cast<std::ptrdiff_t>(i + 1));
          return std::nullopt;
        }
      }
      std::optional<std::string> said;
      if (names || other_work) said = WordsOf(sentence, i, stop);
      Item end = ends ? sentence.back() : Item{};
      sentence.resize(i);
      if (ends) sentence.push_back(std::move(end));
      return said;
    }
  }
  return std::nullopt;
}

// "..., and what's the effective bandwidth if you divide those bytes by the total time the copies took?": a condition
// that divides, multiplies or subtracts ("if you divide", "if we subtract"), naming nothing of the profile, defines
// the measure asked before it. Dropped to the end of its clause and returned, as DropDefinitions does.
// "compute it per direction as total bytes over summed copy time", "calculated as bytes / time": a verb of computing,
// then "as" within a few words, then words that divide, multiply or subtract, is such a definition too.
bool ComputedAs(const std::vector<Item>& s, size_t i) {
  // "taking total bytes divided by the summed duration": a verb of taking, then words that divide.
  if (IsWordIn(s[i], {"taking", "using", "take", "use"})) {
    for (size_t k = i + 1; k < s.size() && k <= i + 8 && s[k].kind != Item::kSeparator; ++k) {
      if (s[k].kind == Item::kName || s[k].kind == Item::kNumber) return false;
      if (IsWordIn(s[k], {"divided", "/", "over", "minus", "times"})) return true;
    }
    return false;
  }
  // ("taken as ...", "each as total bytes over total copy time")
  if (!IsWordIn(s[i], {"compute", "computed", "computing", "calculate", "calculated", "calculating", "define",
                       "defined", "derive", "derived", "measure", "measured", "taken", "expressed", "each"}))
    return false;
  size_t k = i + 1;
  while (k < s.size() && k <= i + 4 && !IsWordIn(s[k], {"as"}) && s[k].kind != Item::kSeparator) ++k;
  if (k >= s.size() || !IsWordIn(s[k], {"as"})) return false;
  for (++k; k < s.size() && s[k].kind != Item::kSeparator; ++k) {
    if (IsWordIn(s[k], {"over", "/", "divided", "minus", "times", "x", "\u00d7"})) return true;
  }
  return false;
}

std::vector<std::string> DropSpokenDefinitions(std::vector<Item>& sentence, bool measured_in_a_sentence_before) {
  std::vector<std::string> dropped;
  for (size_t i = 0; i + 2 < sentence.size(); ++i) {
    const std::string who = Lower(sentence[i + 1].word), verb = Lower(sentence[i + 2].word);
    const bool spoken = Lower(sentence[i].word) == "if" &&
                        (who == "you" || who == "we" || who == "i" || who == "one") &&
                        (verb == "divide" || verb == "multiply" || verb == "subtract" || verb == "take");
    if (!spoken && !ComputedAs(sentence, i)) continue;
    size_t end = i;
    bool names = false;
    for (; end < sentence.size() && sentence[end].kind != Item::kSeparator; ++end)
      names = names || sentence[end].kind == Item::kName || sentence[end].kind == Item::kNumber;
    bool measured_before = measured_in_a_sentence_before;
    for (size_t k = 0; k < i; ++k) measured_before = measured_before || sentence[k].Has(Slot::kMeasure);
    if (names || !measured_before) continue;
    dropped.push_back(WordsOf(sentence, i, end));
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(i),
                   sentence.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return dropped;
}

// Whether an item measures nothing but the parts a ratio is made of (bytes, time, counts, spans), or, with `dims`,
// the dimensions a launch's threads are the product of (blocks per grid, threads per block).
bool OnlyRatioParts(const Item& it, bool dims = false) {
  for (const auto& e : it.entries) {
    if (e.slot != Slot::kMeasure) continue;
    const auto m = static_cast<Measure>(e.value);
    if (dims && (m == Measure::kGrid || m == Measure::kBlock)) continue;
    if (m != Measure::kBytes && m != Measure::kTotal && m != Measure::kCount && m != Measure::kAverage &&
        m != Measure::kSpan && m != Measure::kBusy && m != Measure::kIdle)
      return false;
  }
  return true;
}

// "bytes divided by the copy time", "(total bytes divide by total time)", "dividing those bytes by the HtoD total
// time": a quotient of the parts a measure is made of (OnlyRatioParts: bytes, time, counts), said beside a measure
// asked in the sentence or one before, defines that measure (bandwidth, an average). It is dropped and returned; the
// kinds of events and copies in it stay, to be read with the clause. A name or a number in it keeps it whole.
std::vector<std::string> DropRatioDefinitions(std::vector<Item>& s, bool measured_before) {
  std::vector<std::string> out;
  for (size_t d = 0; d < s.size(); ++d) {
    if (!IsWordIn(s[d], {"divide", "divided", "dividing", "divides"})) continue;
    // The words a quotient is said with: its parts, the kinds they are of, words of no slot, "by".
    const auto inside = [&](size_t k) {
      const Item& it = s[k];
      if (it.paren != s[d].paren || it.kind == Item::kSeparator || it.kind == Item::kName || it.kind == Item::kNumber)
        return false;
      if (it.kind != Item::kLex || IsWordIn(it, {"by", "divide", "divided", "dividing", "divides"})) return true;
      return std::all_of(it.entries.begin(), it.entries.end(), [&](const lexicon::Entry& e) {
        return e.slot == Slot::kStop || e.slot == Slot::kWeakTotal || e.slot == Slot::kEvents ||
               e.slot == Slot::kCopyKind || (e.slot == Slot::kMeasure && OnlyRatioParts(it));
      });
    };
    const auto part = [&](const Item& it) {
      return it.Has(Slot::kWeakTotal) || (it.Has(Slot::kMeasure) && OnlyRatioParts(it));
    };
    size_t from = d, to = d + 1;
    while (from > 0 && inside(from - 1)) --from;
    while (to < s.size() && inside(to)) ++to;
    const auto begin = s.begin(), at_d = begin + static_cast<std::ptrdiff_t>(d);
    const auto by = std::find_if(at_d, begin + static_cast<std::ptrdiff_t>(to),
                                 [](const Item& it) { return IsWordIn(it, {"by"}); });
    const bool dividend = std::any_of(begin + static_cast<std::ptrdiff_t>(from), by, part);
    const bool divisor =
        by != begin + static_cast<std::ptrdiff_t>(to) && std::any_of(by, begin + static_cast<std::ptrdiff_t>(to), part);
    const bool measured = measured_before || std::any_of(begin, begin + static_cast<std::ptrdiff_t>(from),
                                                         [](const Item& it) { return it.Has(Slot::kMeasure); });
    const bool whole = to == s.size() || s[to].kind == Item::kSeparator || s[to].paren != s[d].paren;
    if (!dividend || !divisor || !measured || !whole) continue;
    out.push_back(WordsOf(s, from, to));
    // A sentence of the definition alone is of the events said before it.
    const bool alone = from == 0 && (to == s.size() || (to + 1 == s.size() && s[to].kind == Item::kSeparator));
    std::vector<Item> kept;
    for (size_t k = from; k < to && !alone; ++k) {
      if (s[k].Has(Slot::kEvents) || s[k].Has(Slot::kCopyKind)) kept.push_back(s[k]);
    }
    s.erase(begin + static_cast<std::ptrdiff_t>(from), begin + static_cast<std::ptrdiff_t>(to));
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(from), kept.begin(), kept.end());
    d = from + kept.size();
  }
  return out;
}

// Whether items [from, to) say that overlapping time counts once: an overlap word and "once" or "one time".
bool SaysCountedOnce(const std::vector<Item>& s, size_t from, size_t to) {
  bool overlap = false, once = false;
  for (size_t k = from; k < to; ++k) {
    overlap = overlap || IsWordIn(s[k], {"overlap", "overlaps", "overlapping", "overlapped"});
    once = once || IsWordIn(s[k], {"once"}) ||
           (IsWordIn(s[k], {"one", "a single"}) && k + 1 < to && IsWordIn(s[k + 1], {"time"}));
  }
  return overlap && once;
}

// "when they overlap, count only one time", "overlap only count once", "overlaps counted once": a part that says
// overlapping time counts once, beside a measure asked, says how busy time is taken (a union, as every GPU time of a
// Query is). It is dropped and returned.
std::vector<std::string> DropUnionSaidInWords(std::vector<Item>& s, bool measured_before) {
  std::vector<std::string> out;
  for (size_t from = 0; from < s.size();) {
    size_t to = from;
    // Names, numbers, events or a question word make it a question of its own ("how many kernels overlap a copy at
    // least once?"); events said with a verb of counting are what is counted once ("overlapping kernels counted
    // once", "counting overlapping streams once").
    bool names = false, events = false, counted = false;
    for (; to < s.size() && s[to].kind != Item::kSeparator; ++to) {
      names = names || s[to].kind == Item::kName || s[to].kind == Item::kNumber ||
              IsWordIn(s[to], {"how", "how many", "how much", "what", "which", "whether"});
      events = events || s[to].Has(Slot::kEvents);
      counted = counted || IsWordIn(s[to], {"counted", "counting", "count", "counts"});
    }
    names = names || (events && !counted);
    const bool measured = measured_before || std::any_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(from),
                                                         [](const Item& it) { return it.Has(Slot::kMeasure); });
    if (!SaysCountedOnce(s, from, to) || names || !measured) {
      from = to + 1;
      continue;
    }
    out.push_back(WordsOf(s, from, to));
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(from), s.begin() + static_cast<std::ptrdiff_t>(to));
    ++from;
  }
  // "kernels, copies and memsets all count, but when they overlap count only one time": what is left only lists the
  // kinds of GPU work the union is of (DefinesGpuWork), no question.
  const bool lists = !out.empty() && std::all_of(s.begin(), s.end(), [](const Item& it) {
    return it.kind == Item::kSeparator || it.Has(Slot::kEvents) || it.Has(Slot::kStop) || it.Has(Slot::kSplit);
  });
  if (lists && std::any_of(s.begin(), s.end(), [](const Item& it) { return it.Has(Slot::kEvents); })) {
    out.insert(out.begin(), WordsOf(s, 0, s.size()));
    s.clear();
  }
  return out;
}

// Each run of words inside parentheses that `drop(from, to)` says goes is dropped from the sentence; its words are
// returned, for the answer to say how they were taken.
template <typename Drop>
std::vector<std::string> DropParenthesesWhere(std::vector<Item>& sentence, Drop&& drop) {
  std::vector<std::string> dropped;
  for (size_t i = 0; i < sentence.size();) {
    if (!sentence[i].paren) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < sentence.size() && sentence[end].paren) ++end;
    if (!drop(i, end)) {
      i = end;
      continue;
    }
    dropped.push_back(WordsOf(sentence, i, end));
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(i),
                   sentence.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return dropped;
}

// "(overlapping kernels on different streams counted once)", "(overlaps counted once)": a parenthesis that only says
// overlapping time counts once, naming nothing of the profile and asking nothing, beside a measure of busy or idle
// time, says how that time is taken (a union, as every GPU time of a Query is). Dropped and returned.
std::vector<std::string> DropUnionInParentheses(std::vector<Item>& sentence) {
  const bool busy_asked = std::any_of(sentence.begin(), sentence.end(), [](const Item& it) {
    return it.Says(Measure::kBusy) || it.Says(Measure::kIdle) || it.Says(Measure::kUtilization) ||
           it.Says(Measure::kIdleShare) || IsWordIn(it, {"at least one", "running", "executing", "idle", "busy"});
  });
  if (!busy_asked) return {};
  return DropParenthesesWhere(sentence, [&](size_t from, size_t to) {
    if (!SaysCountedOnce(sentence, from, to)) return false;
    return std::none_of(sentence.begin() + static_cast<std::ptrdiff_t>(from),
                        sentence.begin() + static_cast<std::ptrdiff_t>(to), [](const Item& it) {
                          return it.kind == Item::kName || it.kind == Item::kNumber ||
                                 IsWordIn(it, {"how", "how many", "how much", "what", "which", "whether"});
                        });
  });
}

// "the effective bandwidth (total bytes / total copy time)": words in parentheses that divide, multiply or subtract
// ("per" and "over" group and scope), made only of the parts of a ratio, and naming nothing of the profile, define a
// measure the sentence asks for outside them; they are dropped and returned, for the answer to say how they were
// taken. "threads (grid x block)" asks the launch dimensions themselves: kept.
std::vector<std::string> DropDefinitions(std::vector<Item>& sentence, bool measured_before) {
  // "clipped at 0", "floored at zero": the bound a definition puts on what it subtracts.
  // "(negative values counted as 0)": the same bound said of what is left out.
  constexpr std::string_view kOperators[] = {"/",       "divided", "x",       "\u00d7",   "times",    "minus",
                                             "clipped", "clamped", "floored", "negative", "negatives"};
  // "What average bandwidth do the copies achieve? (total bytes / total copy time)": a sentence of parentheses alone
  // defines what the sentences before it measured.
  bool measured_outside = measured_before && std::all_of(sentence.begin(), sentence.end(), [](const Item& it) {
                            return it.paren || it.kind == Item::kSeparator;
                          });
  bool threads_outside = false;  // "the total threads (grid x block)": its product
  for (const Item& it : sentence) {
    measured_outside = measured_outside || (!it.paren && it.Has(Slot::kMeasure));
    threads_outside = threads_outside || (!it.paren && it.Says(Measure::kThreads));
  }
  if (!measured_outside) return {};
  return DropParenthesesWhere(sentence, [&](size_t from, size_t to) {
    bool arithmetic = false, kept = false;  // kept: a name, or a measure no ratio is made of
    for (size_t k = from; k < to; ++k) {
      const std::string w = Lower(sentence[k].word);
      // "(gridX*gridY*gridZ)", "(bytes/ns)": an expression written as one word, of no profile name.
      const size_t op = w.find_first_of("*/");
      if (op != std::string::npos && op > 0 && op + 1 < w.size() && sentence[k].classes.empty()) {
        arithmetic = true;
        continue;
      }
      kept = kept || sentence[k].kind == Item::kName || !OnlyRatioParts(sentence[k], threads_outside);
      arithmetic = arithmetic || std::find(std::begin(kOperators), std::end(kOperators), w) != std::end(kOperators);
      // "total bytes over summed copy time": "over" between two measures divides (elsewhere it scopes).
      arithmetic = arithmetic || (w == "over" && k > from && k + 1 < to && sentence[k - 1].Has(Slot::kMeasure) &&
                                  NextSignificant(sentence, k) < to &&
                                  (sentence[NextSignificant(sentence, k)].Has(Slot::kMeasure) ||
                                   sentence[NextSignificant(sentence, k)].Has(Slot::kWeakTotal)));
    }
    return arithmetic && !kept;
  });
}

// "busy = union of kernels, copies and memsets on gpu0", "avg launch delay in us = kernel start - end of the call":
// what follows "=" up to the next separator defines what stands before it, which is read. A part that only names
// what it defines ("busy = ...", "span = ...") defines a measure the sentence asks elsewhere: dropped whole. Both are
// returned, for the answer to say how they were taken.
std::vector<std::string> DropEquations(std::vector<Item>& sentence, bool measured_before) {
  std::vector<std::string> out;
  for (size_t eq = 0; eq < sentence.size(); ++eq) {
    if (sentence[eq].word != "=") continue;
    size_t from = eq, to = eq + 1;
    // In parentheses: the whole parenthesis defines ("(busy = union of ..., span = first start to last end)").
    const bool paren = sentence[eq].paren;
    while (from > 0 && (paren ? sentence[from - 1].paren : sentence[from - 1].kind != Item::kSeparator)) --from;
    while (to < sentence.size() && (paren ? sentence[to].paren : sentence[to].kind != Item::kSeparator)) ++to;
    if (paren) {
      out.push_back(WordsOf(sentence, from, to));
      sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(from),
                     sentence.begin() + static_cast<std::ptrdiff_t>(to));
      eq = from;
      continue;
    }
    // The left side only names a measure: the part is a definition whole, unless the sentence asks nothing else.
    const bool named_only = eq > from && eq - from <= 3 &&
                            std::all_of(sentence.begin() + static_cast<std::ptrdiff_t>(from),
                                        sentence.begin() + static_cast<std::ptrdiff_t>(eq),
                                        [](const Item& it) { return it.Has(Slot::kMeasure) || it.Has(Slot::kStop); });
    const bool asked_elsewhere = std::any_of(sentence.begin(), sentence.end(), [&](const Item& it) {
      const auto k = static_cast<size_t>(&it - sentence.data());
      return (k < from || k >= to) && it.Has(Slot::kMeasure);
    });
    const size_t cut = named_only && (asked_elsewhere || measured_before) ? from : eq;
    out.push_back(WordsOf(sentence, cut, to));
    // The separator after a part dropped whole goes with it.
    const size_t end = cut == from && to < sentence.size() ? to + 1 : to;
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(cut),
                   sentence.begin() + static_cast<std::ptrdiff_t>(end));
    eq = cut;
  }
  return out;
}

// "the FFT kernels (anything with 'fft' in the name)", "the nvjet kernels (names containing nvjet)": parentheses that
// only say again which events a name said before them means: every name in them is one said before (any case), and
// every other word one that only says "with this in the name". They are dropped and returned, for the answer to say
// how they were taken. A word that changes the set ("excluding", "not", "or") keeps them, to be read.
bool OnlyRestatesAName(const std::string& w) {
  static constexpr std::string_view kWords[] = {
      "anything", "everything", "any",      "all",    "with",  "in",   "the",    "its",       "their",  "name",
      "names",    "containing", "contains", "that",   "which", "has",  "have",   "is",        "are",    "one",
      "ones",     "whose",      "matching", "match",  "i.e.",  "e.g.", "like",   "named",     "kernel", "kernels",
      "call",     "calls",      "range",    "ranges", "a",     "an",   "string", "substring", "word"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}
std::vector<std::string> DropNamesSaidAgain(std::vector<Item>& sentence) {
  return DropParenthesesWhere(sentence, [&](size_t from, size_t to) {
    bool names = false;
    for (size_t k = from; k < to; ++k) {
      const Item& it = sentence[k];
      if (it.kind != Item::kName) {
        if (it.kind != Item::kSeparator && !OnlyRestatesAName(Lower(it.word))) return false;
        continue;
      }
      names = true;
      // "nvjet_*" after "nvjet": the name's pattern says the same name again.
      const auto stem = [](std::string w) {
        w = Lower(w);
        while (!w.empty() && (w.back() == '*' || w.back() == '_' || w.back() == '-' || w.back() == '.')) w.pop_back();
        return w;
      };
      const bool said =
          std::any_of(sentence.begin(), sentence.begin() + static_cast<std::ptrdiff_t>(from), [&](const Item& before) {
            return before.kind == Item::kName && !before.paren && stem(before.word) == stem(it.word);
          });
      if (!said) return false;
    }
    return names;
  });
}

std::optional<NameClass> NameClassOf(std::optional<EventKind> e);

// The kinds of events GPU work is made of.
bool IsGpuWorkPart(EventKind e) {
  return e == EventKind::kKernels || e == EventKind::kMemcpy || e == EventKind::kMemset;
}

// "MPI_Send vs MPI_Recv (traced as NVTX ranges)", "the gemm kernels (CUDA kernels)": parentheses that only say again
// the one kind of events the words before them named (an events noun of that kind, or one of a name said before),
// with plain words that describe and no word of meaning, number, measure or place. Their other words are dropped and
// returned, for the answer to say how they were taken; the events noun stays ("MPI_Send and MPI_Recv (NVTX ranges)"
// are two ranges side by side). A kind the words before did not name ("cudaMalloc (the
// kernels)"), or two kinds ("(kernel + memcpy)": a sum), keeps them all, unless the words before said GPU work, of
// which they are the parts.
std::vector<std::string> DropKindsSaidAgain(std::vector<Item>& sentence) {
  // The kind the parenthesis [from, to) says again, with the item that says it (none for "runtime", "driver").
  struct Kind {
    EventKind events;
    std::optional<Item> noun;
  };
  const auto kind_of = [&](size_t from, size_t to) -> std::optional<Kind> {
    // Whether an item outside parentheses before them says `pred`.
    const auto said_before = [&](auto&& pred) {
      return std::any_of(sentence.begin(), sentence.begin() + static_cast<std::ptrdiff_t>(from),
                         [&](const Item& b) { return !b.paren && pred(b); });
    };
    std::optional<Kind> kind;
    for (size_t k = from; k < to; ++k) {
      const Item& it = sentence[k];
      const bool stops =
          it.kind == Item::kLex && std::all_of(it.entries.begin(), it.entries.end(),
                                               [](const auto& e) {
                                                 return e.slot == Slot::kStop || e.slot == Slot::kSplit;  // "and"
                                               }) ||
          IsWordIn(it, {"or"});
      if (it.kind == Item::kSeparator || stops || (it.kind == Item::kUnknown && lexicon::IsDescriptiveWord(it.word)))
        continue;
      // "(source or destination pageable)" after "pageable host memory": a kind of host memory said before, of copies.
      if (it.kind == Item::kLex && it.entries.size() == 1 && it.Has(Slot::kMemory)) {
        const bool said = said_before(
            [&](const Item& b) { return b.Has(Slot::kMemory) && b.Value(Slot::kMemory) == it.Value(Slot::kMemory); });
        if (!said || (kind && kind->events != EventKind::kMemcpy)) return std::nullopt;
        if (!kind) kind = Kind{EventKind::kMemcpy, std::nullopt};
        continue;
      }
      // "GPU op (kernels, copies, memsets)", "GPU activity (kernel plus migrations)": GPU work said before, spelled
      // out as its parts (guides/analysis.md: kernels, copies of any kind and memsets).
      const bool part = (it.Has(Slot::kEvents) && IsGpuWorkPart(static_cast<EventKind>(it.Value(Slot::kEvents)))) ||
                        (it.Has(Slot::kCopyKind) && it.entries.size() == 1);
      if (part && said_before([](const Item& b) {
            return b.Has(Slot::kEvents) && static_cast<EventKind>(b.Value(Slot::kEvents)) == EventKind::kGpu;
          })) {
        if (kind && kind->events != EventKind::kGpu) return std::nullopt;
        kind = Kind{EventKind::kGpu, std::nullopt};
        continue;
      }
      // "NVTX ranges" is a range noun (a grouping target too), the kind of NVTX events; "runtime" and "driver" are
      // the two layers of CUDA's API ("CUDA API calls (runtime and driver)").
      const bool ranges = it.Has(Slot::kRangeNoun), layer = IsWordIn(it, {"runtime", "driver"});
      if (!layer && (it.kind != Item::kLex || it.entries.size() != 1 || !(it.Has(Slot::kEvents) || ranges)))
        return std::nullopt;
      const auto events = ranges  ? EventKind::kNvtx
                          : layer ? EventKind::kApi
                                  : static_cast<EventKind>(it.Value(Slot::kEvents));
      const std::optional<NameClass> cls = NameClassOf(events);
      const bool said = said_before([&](const Item& b) {
        return (b.Has(Slot::kEvents) && static_cast<EventKind>(b.Value(Slot::kEvents)) == events) ||
               (ranges && b.Has(Slot::kRangeNoun)) || (cls && b.kind == Item::kName && NamesAClass(b, *cls));
      });
      if (!said || (kind && kind->events != events)) return std::nullopt;
      if (!kind) kind = Kind{events, std::nullopt};
      if (!kind->noun && !layer) kind->noun = it;
    }
    return kind;
  };
  std::vector<std::string> dropped;
  for (size_t i = 0; i < sentence.size();) {
    size_t end = i;
    while (end < sentence.size() && sentence[end].paren) ++end;
    const std::optional<Kind> kind = end > i ? kind_of(i, end) : std::nullopt;
    if (!kind) {
      i = std::max(end, i + 1);
      continue;
    }
    dropped.push_back(WordsOf(sentence, i, end));
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(i),
                   sentence.begin() + static_cast<std::ptrdiff_t>(end));
    if (kind->noun) {
      sentence.insert(sentence.begin() + static_cast<std::ptrdiff_t>(i), *kind->noun);
      ++i;
    }
  }
  return dropped;
}

// "larger than 8 MiB (8,388,608 bytes)", "over 1 GB (10^9 bytes)": a parenthesis of a number and a unit right after a
// number and a unit says the same quantity again. "(launching runtime call within the range, same thread)" after an
// NVTX range says how work is taken to be inside it: through its launching call, on the range's thread, as every
// Query's `inside` is. Both are dropped and returned.
std::vector<std::string> DropQuantitiesAndRulesSaidAgain(std::vector<Item>& sentence) {
  const auto unit = [](const Item& it) { return it.Has(Slot::kUnit) || IsWordIn(it, {"bytes", "byte"}); };
  return DropParenthesesWhere(sentence, [&](size_t from, size_t to) {
    const bool quantity = to == from + 2 && from >= 2 && sentence[from].kind == Item::kNumber &&
                          unit(sentence[from + 1]) && sentence[from - 2].kind == Item::kNumber &&
                          unit(sentence[from - 1]);
    if (quantity) return true;
    const bool ranged = std::any_of(sentence.begin(), sentence.begin() + static_cast<std::ptrdiff_t>(from),
                                    [](const Item& it) { return it.Has(Slot::kRangeNoun) || it.Has(Slot::kInside); });
    // The rule names the launching call and where it is ("within the range"); the thread is said beside it. A
    // parenthesis of the thread alone ("nested on the same thread") says something else.
    // "(a kernel counts if the runtime call that launched it falls within a FlashAttnFunc range on the same thread)":
    // the rule said of one event, with the range's name said before it again.
    const auto said_before = [&](const Item& it) {
      return it.kind == Item::kName &&
             std::any_of(sentence.begin(), sentence.begin() + static_cast<std::ptrdiff_t>(from),
                         [&](const Item& b) { return b.kind == Item::kName && Lower(b.name) == Lower(it.name); });
    };
    bool call = false, within = false;
    for (size_t k = from; k < to; ++k) {
      const Item& it = sentence[k];
      if (IsWordIn(it, {"call", "calls", "launching", "launch call", "runtime call", "launched", "launch"})) {
        call = true;
      } else if (it.Has(Slot::kInside) || IsWordIn(it, {"within", "inside"})) {
        within = true;
      } else if (!(it.Has(Slot::kStop) || it.Has(Slot::kRangeNoun) || it.Has(Slot::kSplit) ||
                   it.kind == Item::kSeparator || it.Has(Slot::kEvents) || said_before(it) ||
                   IsWordIn(it, {"same", "thread", "same thread", "runtime", "cuda",   "range",   "ranges",
                                 "lies", "sits",   "api",         "its",     "counts", "counted", "if",
                                 "when", "that",   "it",          "them",    "falls",  "fall",    "lie"}))) {
        return false;
      }
    }
    return ranged && call && within;
  });
}

// "kernels whose launching runtime call sits inside a X range", "a kernel when the CUDA runtime call that launched it
// lies inside an NVTX range": how GPU work is inside a range (through the call that launched it), said in words
// before the range, as every Query's `inside` takes it. The words from the one that joins them ("whose", "when") to
// the word of place are dropped and returned; the place and the range stay ("kernels inside a X range").
std::vector<std::string> DropLaunchingCallsInside(std::vector<Item>& sentence) {
  std::vector<std::string> dropped;
  const auto call_word = [](const Item& it) {
    return IsWordIn(it, {"launching", "launch", "runtime", "cuda", "api", "call", "calls", "launch call",
                         "runtime call", "launch calls", "runtime calls"});
  };
  for (size_t i = 0; i < sentence.size(); ++i) {
    if (!IsWordIn(sentence[i], {"whose", "when", "where", "if", "with"})) continue;
    size_t k = i + 1;
    if (k < sentence.size() && IsWordIn(sentence[k], {"the", "its", "their"})) ++k;
    const size_t words = k;
    bool call = false, launching = false;
    for (; k < sentence.size() && call_word(sentence[k]); ++k) {
      call = call ||
             IsWordIn(sentence[k], {"call", "calls", "launch call", "runtime call", "launch calls", "runtime calls"});
      launching = launching || IsWordIn(sentence[k], {"launching", "launch", "launch call", "launch calls"});
    }
    // "the CUDA runtime call that launched it"
    if (call && !launching && k + 2 < sentence.size() && IsWordIn(sentence[k], {"that", "which"}) &&
        IsWordIn(sentence[k + 1], {"launched"}) && IsWordIn(sentence[k + 2], {"it", "them", "each"})) {
      launching = true;
      k += 3;
    }
    if (!call || !launching || k == words) continue;
    if (k < sentence.size() && IsWordIn(sentence[k], {"sits", "sit", "lies", "lie", "is", "was", "are", "were", "falls",
                                                      "fall", "happens", "happened", "occurs"}))
      ++k;
    if (k >= sentence.size() || !(sentence[k].Has(Slot::kInside) || IsWordIn(sentence[k], {"within", "inside"})))
      continue;
    dropped.push_back(WordsOf(sentence, i, k));
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(i),
                   sentence.begin() + static_cast<std::ptrdiff_t>(k));
  }
  return dropped;
}

// "the kernel named exactly 'fusion' (not fusion_2 etc.)": parentheses that only exclude names which a whole name
// before them already leaves out (each holds that name and is not it) say again what the whole name says. They are
// dropped and returned, for the answer to say how they were taken.
std::vector<std::string> DropExclusionsSaidAgain(std::vector<Item>& sentence) {
  return DropParenthesesWhere(sentence, [&](size_t from, size_t to) {
    const auto whole = std::find_if(sentence.begin(), sentence.begin() + static_cast<std::ptrdiff_t>(from),
                                    [](const Item& it) { return it.kind == Item::kName && it.exact && !it.paren; });
    if (whole == sentence.begin() + static_cast<std::ptrdiff_t>(from) ||
        !IsWordIn(sentence[from], {"not", "excluding"}))
      return false;
    const std::string name = Lower(whole->name);
    bool excluded = false;
    for (size_t k = from + 1; k < to; ++k) {
      const std::string w = Lower(sentence[k].word);
      // "(not fusion_2, fusion_3 etc.)", "(not fusion_2 and so on)", "(not the fusion_N others)"
      if (sentence[k].kind == Item::kSeparator ||
          IsWordIn(sentence[k],
                   {"etc", "etc.", "or", "and", "so", "on", "so on", "and so on", "others", "the", "similar"}))
        continue;
      // A name that holds the whole name and is longer: one the whole name does not match anyway.
      if (w.size() <= name.size() || w.find(name) == std::string::npos) return false;
      excluded = true;
    }
    return excluded;
  });
}

bool HasSubject(const Clause& c) {
  return c.events || !c.names.empty() || !c.copy_kind.empty() || c.range_noun || !c.api_class.empty() ||
         !c.memory.empty() || !c.cause.empty() || !c.family.empty();
}

// "idle: no kernel, copy or memset running": two kinds of GPU work or more named with a GPU's idle or busy time are
// the GPU's work together, not a comparison of them.
void ReadGpuWork(Clause& c) {
  const int kinds = (c.gpu_kinds & 1) + ((c.gpu_kinds >> 1) & 1) + ((c.gpu_kinds >> 2) & 1);
  const bool gpu_measure = std::any_of(c.measures.begin(), c.measures.end(), IsGpuMeasure);
  if (!(gpu_measure && (kinds >= 2 || c.events == EventKind::kGpu)) || !c.names.empty()) return;
  c.events = EventKind::kGpu;
  c.versus = false;
  c.versus_events.reset();
  c.copy_kind.clear();
  c.versus_copy_kind.clear();
}

// "How many kernels did each copy run?", "kernels per copy": a second kind of GPU work that neither made the events
// the GPU's work (ReadGpuWork) nor is a side of a comparison was said for something no Query holds: unread, never
// dropped from the reading.
void SecondGpuKindUnread(Clause& c) {
  if (!c.events || !c.names.empty() || c.versus_events || c.versus || c.compare || c.kinds_side_by_side) return;
  const uint8_t others = c.gpu_kinds & static_cast<uint8_t>(~GpuKindBit(*c.events));
  if (GpuKindBit(*c.events) == 0 || others == 0) return;
  for (auto [bit, noun] : {std::pair<uint8_t, const char*>{1, "kernels"}, {2, "copies"}, {4, "memsets"}}) {
    if (others & bit) c.unread.push_back(noun);
  }
}

// The shapes of an answer a clause asks for beside its figures: yes or no against a threshold ("is X more than half
// of ...", "are there any ... longer than 5 ms"), and the largest or smallest copy's size ("how big was the largest").
// False when the clause asks what a Query cannot hold: the largest copy's own duration ("the biggest copy: how long
// did it take?"), a figure of one event among others.
bool FillForm(const Clause& c, Query& q) {
  if (q.versus_subject || q.versus_scope || q.versus_measure) return true;
  const auto first = [&](Measure m) {
    q.measures.erase(std::remove(q.measures.begin(), q.measures.end(), m), q.measures.end());
    q.measures.insert(q.measures.begin(), m);
  };
  // "list the kernels that take more than 5% of the kernel time": a bound on each group's figure, asked as a list,
  // is no yes or no (a Query bounds events, not groups): not held.
  if (c.threshold && c.threshold_of && !c.yes_no && !c.any && (c.plural || c.which || c.listing)) return false;
  if (c.threshold && c.threshold_of) {
    Measure m = *c.threshold_of;
    if (m == Measure::kShare && c.gpu_time) m = Measure::kGpuShare;
    if (m == Measure::kShare && c.byte_share) {  // "more than half of the copied bytes": the bytes' share
      m = Measure::kByteShare;
      std::erase(q.measures, Measure::kBytes);
    }
    // "more than one thread block": a plain number is of the counted measure the clause asks for.
    const Measure asked = q.measures.empty() ? m : q.measures.front();
    if (m == Measure::kCount && IsLaunchConfiguration(asked)) m = asked;
    // "Slowest cudaMemsetAsync: is it over 5 ms?": a time is of the time figure asked (the longest), not the total.
    if (m == Measure::kTotal && asked != m && DimensionOf(asked) == Dimension::kTime) m = asked;
    // "is the GPU idle for more than half of the time": a share said of idle (busy) time is the idle share (the
    // utilization).
    const auto asks = [&](Measure had) {
      return std::find(q.measures.begin(), q.measures.end(), had) != q.measures.end();
    };
    if (m == Measure::kShare && (asks(Measure::kIdle) || asks(Measure::kIdleShare))) m = Measure::kIdleShare;
    if (m == Measure::kShare && (asks(Measure::kBusy) || asks(Measure::kUtilization))) m = Measure::kUtilization;
    if (m == Measure::kShare)
      q.measures.erase(std::remove(q.measures.begin(), q.measures.end(), Measure::kGpuShare), q.measures.end());
    first(m);
    q.form = Form::kYesNo;
    q.threshold = *c.threshold;
    q.yes_if_less = c.threshold_below;
  } else if (c.any && c.yes_no) {
    first(Measure::kCount);
    q.form = Form::kYesNo;
    q.threshold = 0;
    // "Is there any copy bigger than 8 bytes?": one count of them all, not one per kind of copy (a kind stated kind
    // by kind is no grouping the question asked, and a count of none has no row to cite).
    if (!c.group && q.rank == Rank::kNone) q.group_by = GroupBy::kNone;
  }
  // "the largest copy": the one largest by its size. "How long is the biggest cudaStreamSynchronize call?": events
  // with no size are big by their length.
  const bool sized = q.subject.events == EventKind::kMemcpy || q.subject.events == EventKind::kMemset;
  if (c.rank_by_size && !c.group && q.subject.events != EventKind::kGpu && (!sized || q.subject.name.empty())) {
    const std::vector<Measure> said = sized ? std::vector<Measure>{Measure::kBytes, Measure::kTotal, Measure::kCount}
                                            : std::vector<Measure>{Measure::kTotal, Measure::kMax};
    for (Measure m : said) q.measures.erase(std::remove(q.measures.begin(), q.measures.end(), m), q.measures.end());
    if (!q.measures.empty()) return false;
    const bool bottom = c.rank == Rank::kBottom;
    first(sized ? (bottom ? Measure::kMinBytes : Measure::kMaxBytes) : (bottom ? Measure::kMin : Measure::kMax));
    q.rank = Rank::kNone;
    q.group_by = GroupBy::kNone;
    q.limit = 0;
  }
  return true;
}

// Whether the events a Query names have what it measures and groups by: sizes and bandwidths are of copies and
// memsets ("DRAM throughput" of a kernel is not held); CUDA API calls run on the host, on no stream or GPU.
bool Held(const Query& q) {
  const bool sized_events = q.subject.events == EventKind::kMemcpy || q.subject.events == EventKind::kMemset ||
                            q.subject.events == EventKind::kGpu;
  const bool sizes = std::any_of(q.measures.begin(), q.measures.end(), [](Measure m) {
    return m == Measure::kBytes || m == Measure::kAvgBytes || m == Measure::kBandwidth || m == Measure::kMinBytes ||
           m == Measure::kMaxBytes || m == Measure::kByteShare;
  });
  if (sizes && !sized_events) return false;
  // Copies and memsets have no names: a part of some other event's name lent to them from another clause ("LLaMA
  // inference sim: how many memsets ...") is none of theirs. A CUDA call's whole name is (ReadClause).
  if ((q.subject.events == EventKind::kMemcpy || q.subject.events == EventKind::kMemset) && !q.subject.name.empty() &&
      !q.subject.whole_name)
    return false;
  return !(q.subject.events == EventKind::kApi && (q.group_by == GroupBy::kStream || q.group_by == GroupBy::kDevice));
}

// "HtoD vs DtoH bandwidth: is host-to-device faster?": a yes/no question with only a word of speed, about one side of
// the comparison just made, asks that comparison with that side first. The measure is the comparison's ("faster"
// brought only a mean duration); of a rate, faster is the larger.
bool AskWhichSide(const Clause& c, const Query* previous, Query& q) {
  if (!c.yes_no || !(c.faster || c.slower) || !previous || !previous->versus_subject || q.versus_subject ||
      q.versus_scope || c.group ||
      !(c.measures.empty() || c.measures == std::vector<Measure>{Measure::kAverage} ||
        c.measures == std::vector<Measure>{Measure::kBandwidth}))
    return false;
  const Subject& a = previous->subject;
  const Subject& b = *previous->versus_subject;
  if (!(q.subject == a || q.subject == b) || !(q.scope == Scope{} || q.scope == previous->scope)) return false;
  const Measure m = previous->measures.front();
  q.measures = previous->measures;
  q.scope = previous->scope;
  q.versus_subject = q.subject == a ? b : a;
  q.group_by = GroupBy::kNone;
  q.rank = Rank::kNone;
  q.form = Form::kYesNo;
  q.yes_if_less = m == Measure::kBandwidth ? c.slower : c.faster;
  return true;
}

// "Stream 14 vs stream 16: kernel count, and total kernel time on each. How much more does stream 14 have?": "each",
// "both" or a margin, with no grouping and no place but the first side's, keeps the comparison the question set up.
// "Which two streams carry the most kernel time? Give kernel counts and total time for each, and their share": "each"
// and "their" after a ranking, of the same events and no grouping or place of their own, are the groups it ranked.
void KeepRanking(const Clause& c, const Query* previous, Query& q) {
  // "Which one ran longer, and how long did each take?": after a ranking of one, "each" is each of the events.
  if (!previous || previous->rank == Rank::kNone || previous->group_by == GroupBy::kNone || previous->limit < 2) return;
  if (!(c.each_side || c.points_back) || c.group || c.rank != Rank::kNone || q.versus_subject || q.versus_scope) return;
  if (q.subject != previous->subject || !(q.scope == Scope{} || q.scope == previous->scope)) return;
  q.scope = previous->scope;
  q.group_by = previous->group_by;
  q.rank = previous->rank;
  q.limit = previous->limit;
  q.offset = previous->offset;
}

void KeepComparison(const Clause& c, const Query* previous, Query& q) {
  if (AskWhichSide(c, previous, q)) return;
  // "Count the DtoH and HtoD copies and their total bytes": "their", with no events of its own, is both sides too.
  // So are a clause's events when two copy kinds were lent to it ("For HtoD and DtoH separately: total bytes and
  // average bandwidth").
  // "HtoD vs DtoH: total bytes each way and average bandwidth?": a clause of measures alone, after a comparison, asks
  // them of the same two sides.
  const bool bare = !HasSubject(c) && c.devices.empty() && c.pids.empty() && c.stream < 0 && !c.group &&
                    c.inside.empty() && !c.from_s && !c.which && c.rank == Rank::kNone;
  const bool both = c.each_side || c.margin || ((c.points_back || c.sides_lent || bare) && !HasSubject(c));
  // "and what bandwidth did each direction get": copies grouped by their kind, after two kinds side by side, are
  // those two sides.
  const bool by_kind = c.group == GroupBy::kName && q.subject.events == EventKind::kMemcpy;
  if (!(both || by_kind) || (c.group && !by_kind) || !previous || q.versus_subject || q.versus_scope) return;
  if (!(previous->versus_subject || previous->versus_scope)) return;
  if (!(q.scope == Scope{} || q.scope == previous->scope)) return;
  // "Compare SendRecv on GPU 0 versus GPU 1: how many launches on each?": the events said again by their kind alone
  // are the named ones of the sides.
  const bool kind_again = both && q.subject.name.empty() && !c.names.size();
  if (q.subject.events != previous->subject.events || (q.subject.name != previous->subject.name && !kind_again)) return;
  q.subject = previous->subject;
  q.scope = previous->scope;
  q.versus_subject = previous->versus_subject;
  q.versus_scope = previous->versus_scope;
  q.group_by = GroupBy::kNone;
  q.rank = Rank::kNone;
}

// A Clause made a Query, slot by slot, with what the previous Query of the question gives when it is silent.
// The measures of a clause, with what the Query before it says of them: a bare "how many" after a launch figure, a
// share of the span after an idle or busy time.
void MeasuresSaidBefore(Clause& c, const Query* previous) {
  // "Is the HtoD direction slower than DtoH?": a copy's speed is its bandwidth; slower is the smaller.
  const bool copies = c.events == EventKind::kMemcpy || !c.copy_kind.empty();
  if ((c.faster || c.slower) && copies && c.measures == std::vector<Measure>{Measure::kAverage})
    c.measures = {Measure::kBandwidth};
  // "HtoD vs DtoH bandwidth: is host-to-device faster?": of a rate, faster is the larger, not the shorter.
  if ((c.faster || c.slower) &&
      std::find(c.measures.begin(), c.measures.end(), Measure::kBandwidth) != c.measures.end())
    c.less = c.slower;
  // "Which kernel uses the most registers per thread, and how many?": a bare "how many" after a launch figure asks
  // that figure, which the answer to the first part states.
  const bool bare = c.measures.size() == 1 && c.measures.front() == Measure::kCount && !HasSubject(c) &&
                    c.devices.empty() && c.pids.empty() && c.stream < 0 && !c.group && !c.count_groups;
  if (bare && previous && IsLaunchConfiguration(previous->measures.front())) c.measures = {previous->measures.front()};
  // "How many idle gaps are there, and what is the longest?": the longest after the gaps is the longest gap.
  const bool gaps_before = previous && std::find(previous->measures.begin(), previous->measures.end(),
                                                 Measure::kGaps) != previous->measures.end();
  if (gaps_before && c.measures == std::vector<Measure>{Measure::kMax} && !HasSubject(c))
    c.measures = {Measure::kMaxGap};
  if (gaps_before && c.measures == std::vector<Measure>{Measure::kAverage} && !HasSubject(c))
    c.measures = {Measure::kAvgGap};  // "... and how long is one on average?"
  StatisticsOfTheGaps(c);
  // "How long is no kernel running? Give it in time and as a percentage of the span.": "it in time" is the figure
  // just asked, in its unit, not the events' total time.
  if (c.it && c.measures.empty() && c.weak_time && !c.weak_total && !HasSubject(c) && previous &&
      !previous->measures.empty() && DimensionOf(previous->measures.front()) == Dimension::kTime)
    c.measures = {previous->measures.front()};
  DefaultMeasures(c);
  ReadGpuWork(c);
  SecondGpuKindUnread(c);
  // "How long is the GPU idle, and what percentage of the span is it?", "... Give the idle time and the percentage":
  // a share of the span, or a share alone naming no events, after the idle or busy time is that time's share of the
  // span. (A share beside the idle time in one clause is DefaultMeasures'.)
  const auto only = [&](std::initializer_list<Measure> ms) {
    return !c.measures.empty() && std::all_of(c.measures.begin(), c.measures.end(), [&](Measure m) {
      return std::find(ms.begin(), ms.end(), m) != ms.end();
    });
  };
  const auto before = [&](Measure m) {
    return previous && std::find(previous->measures.begin(), previous->measures.end(), m) != previous->measures.end();
  };
  // "How much NCCL time is exposed? As time and as % of the NCCL time.": a share after the exposed time is its share
  // of the communication time, which the exposed time states.
  const bool comm_before = previous && std::any_of(previous->measures.begin(), previous->measures.end(), IsCommMeasure);
  if (comm_before && only({Measure::kShare, Measure::kTotal})) c.measures = previous->measures;
  if (only({Measure::kShare, Measure::kSpan}) && (c.measures.size() == 2 || !HasSubject(c)) &&
      std::find(c.measures.begin(), c.measures.end(), Measure::kShare) != c.measures.end() &&
      (before(Measure::kIdle) || before(Measure::kBusy)))
    c.measures = {before(Measure::kIdle) ? Measure::kIdleShare : Measure::kUtilization};
}

// The events a clause means, where it names them again only to point back at those of the Query before it.
void EventsSaidBefore(Clause& c, const Query* previous) {
  // "what share of total kernel time does it account for", "how many launches did they make": a word that points
  // back at the named events before, with a noun of their kind and no name of its own, means those events.
  // "total time of cuModuleUnload + number of calls?": so does the bare noun of their kind, with no word for all of it.
  // "nchwToNhwcKernel: the total time, the number of calls": the calls of a named kernel are its executions.
  if (c.bare_calls && c.events == EventKind::kApi && c.names.empty() && previous && !previous->subject.name.empty() &&
      previous->subject.events != EventKind::kApi)
    c.events = previous->subject.events;
  // "the cudaLaunchKernel calls that launched X ... how many such launches", "how many launches was that": the
  // launches are those calls.
  if (c.launch_noun && (c.points_back || c.it) && c.events == EventKind::kKernels && c.names.empty() && previous &&
      previous->subject.events == EventKind::kApi && !previous->scope.launches.empty())
    c.events = EventKind::kApi;
  // "the share of all kernel time": "all" says what a share is of, not which events it is of.
  const bool share_base = c.every && !c.measures.empty() &&
                          std::all_of(c.measures.begin(), c.measures.end(),
                                      [](Measure m) { return m == Measure::kShare || m == Measure::kGpuShare; });
  if ((c.points_back || c.it || ((!c.every || share_base) && !c.group && !c.which)) && c.names.empty() && previous &&
      !previous->subject.name.empty() && c.events == previous->subject.events && c.copy_kind.empty() && !c.range_noun &&
      c.inside.empty())
    c.events.reset();
  // "unified HtoD migrations: how many, how many bytes? Same for device-to-host.": a direction alone, in a clause that
  // asks again what was asked of unified-memory migrations, is of those migrations.
  if (previous && c.measures.empty() && (c.copy_kind == "HtoD" || c.copy_kind == "DtoH") &&
      previous->subject.copy_kind.rfind("Unified ", 0) == 0)
    c.copy_kind = "Unified " + c.copy_kind;
  // "HtoD migrations: total bytes, and the average size per migration": events named only as the unit of a per-unit
  // figure, of the kind said before (the same events, or a copy kind the one before narrows), are those events.
  const bool narrowed = previous && (c.copy_kind.empty() || previous->subject.copy_kind.rfind(c.copy_kind, 0) == 0);
  // "migrations back to the host: total bytes, how many migrations": unified-memory migrations said again after a
  // direction of them are those of that direction.
  const bool unified_again = narrowed && c.copy_kind == "Unified" && previous->subject.copy_kind != c.copy_kind;
  if ((c.per_unit || unified_again) && c.names.empty() && narrowed && c.inside.empty() && !c.range_noun &&
      (!c.events || c.events == previous->subject.events) && previous->subject.events != EventKind::kGpu) {
    c.events.reset();
    c.copy_kind.clear();
    // "the average size per copy": a mean per event, not one figure per name of the events.
    const bool means = std::all_of(c.measures.begin(), c.measures.end(), [](Measure m) {
      return m == Measure::kAverage || m == Measure::kAvgBytes || m == Measure::kMedian;
    });
    if (c.per_unit && means && c.group == GroupBy::kName) c.group.reset();
  }
}

// One measure against another of the same events, from the clause's versus measure: false when the clause compares
// with a measure in a way no Query holds.
// Two measures set against each other are of one kind (DimensionOf): "fewer blocks than SMs" compares two numbers;
// "how many kernels are longer than the average kernel" would set a count against a time, which no Query compares.
bool FillVersusMeasure(const Clause& c, Query& q) {
  if (c.versus_measure && c.versus_partner && !q.versus_subject && !q.versus_scope &&
      DimensionOf(*c.versus_measure) != DimensionOf(*c.versus_partner))
    return false;
  // "How many launches used fewer blocks than the GPU has SMs?": a bound on each launch, its grid against its GPU's
  // SMs (Scope::grid_below_sms), when the question asks something else of the launches. Any other bound of each
  // event against a measure is not held.
  const bool partner_first = !q.measures.empty() && c.versus_partner == q.measures.front();
  const bool grid_below_sms = c.versus_measure == Measure::kSmCount && c.versus_partner == Measure::kGrid && c.less;
  if (c.versus_measure && c.than && !q.versus_subject && !q.versus_scope && !partner_first && grid_below_sms &&
      q.subject.events == EventKind::kKernels) {
    std::erase_if(q.measures, [](Measure m) { return m == Measure::kGrid || m == Measure::kSmCount; });
    if (q.measures.empty()) q.measures.push_back(Measure::kCount);
    q.scope.grid_below_sms = true;
    return true;
  }
  if (c.versus_measure && c.than && !q.versus_subject && !q.versus_scope && !partner_first) return false;
  // "Does it launch fewer blocks than the GPU has SMs?": a measure against the one said before it, the Query's first.
  if (c.versus_measure && !q.versus_subject && !q.versus_scope && !q.measures.empty() &&
      c.versus_partner == q.measures.front() &&
      IsLaunchConfiguration(*c.versus_measure) == IsLaunchConfiguration(q.measures.front()) &&
      std::find(q.measures.begin(), q.measures.end(), *c.versus_measure) != q.measures.end()) {
    q.versus_measure = c.versus_measure;
    if (c.yes_no) {
      q.form = Form::kYesNo;
      q.yes_if_less = c.less;
    }
  }
  return true;
}

// "From the MPI NVTX ranges: how long was MPI_Init?": ranges "inside" a name their own name holds are of that family,
// not nested in it.
void NotNestedInTheirFamily(Query& q) {
  if (q.subject.events == EventKind::kNvtx && !q.scope.inside.empty() &&
      NamePatternMatches(q.subject.name, q.scope.inside))
    q.scope.inside.clear();
}

// "Which kernel eats the most GPU time, and what percentage of all kernel time is it?": "it" after a ranking of one is
// the one ranked first; its share of all the kind's time is that ranking's, with the share asked.
void ShareOfTheOneRanked(const Clause& c, const Query* previous, Query& q) {
  const bool share =
      q.measures == std::vector<Measure>{Measure::kShare} || q.measures == std::vector<Measure>{Measure::kGpuShare};
  if (!c.it || !share || !previous || previous->rank == Rank::kNone || previous->limit > 1 || !c.names.empty() ||
      c.group || q.subject.events != previous->subject.events)
    return;
  q.subject = previous->subject;
  q.scope = previous->scope;
  q.group_by = previous->group_by;
  q.rank = previous->rank;
  q.limit = previous->limit;
  q.offset = previous->offset;
}

// What a clause points back at ("its", "their", "those", "it"): the events, the groups or the one ranked before.
void FillPointedBack(const Clause& c, const Query* previous, bool own_subject, Query& q) {
  // "the average of redzone_checker and the std dev across its launches": events of the same kind said again, with
  // no name of their own and a word that points back, are the events the question named before, in its scope.
  // So are copies said again after copies of one kind ("how big was each copy", "those copies").
  const bool narrowed = !previous || !previous->subject.name.empty() || !previous->subject.copy_kind.empty();
  if (c.points_back && own_subject && previous && c.names.empty() && q.subject.name.empty() && narrowed &&
      q.subject.copy_kind.empty() && q.subject.events == previous->subject.events && c.copy_kind.empty()) {
    q.subject = previous->subject;
    if (q.scope == Scope{}) q.scope = previous->scope;
  }
  FillGrouping(c, own_subject, q);
  ShareOfTheOneRanked(c, previous, q);
  // "Which two streams carry the most kernel time, and what share do those two have together?": the groups said
  // before, when the clause points back at them and groups nothing of its own.
  if (c.points_back && previous && previous->group_by != GroupBy::kNone && !c.group && !c.which &&
      c.rank == Rank::kNone && q.subject == previous->subject) {
    q.group_by = previous->group_by;
    q.rank = previous->rank;
    q.limit = previous->limit;
  }
}

// "what about the second one?", "the third largest": one place of the ranking the clause or the question before it
// made (false: nothing is ranked). A question of its own starts its ranking from the first.
bool TakePosition(const Clause& c, Query& q) {
  if (c.position > 0) {
    // "What is the third kernel by total time?": a place by a measure ranks the events by name.
    if (q.rank == Rank::kNone && c.position_by_measure && q.group_by == GroupBy::kNone && q.subject.nth == 0 &&
        q.subject.events != EventKind::kDevices) {
      q.group_by = GroupBy::kName;
      q.rank = Rank::kTop;
    }
    if (q.rank == Rank::kNone) return false;
    q.offset = c.position - 1;
    q.limit = 1;
  } else if (c.rank != Rank::kNone || c.group || !c.measures.empty() || c.which) {
    q.offset = 0;
  }
  return true;
}

// An NVTX range named with other events is where they are, or, with nothing else named, what is asked about.
bool RangeAsPlaceOrSubject(Clause& c, const Query* previous) {
  // "do the ensure_layer_* ranges put any work on the GPU": GPU work and one range's name: the work inside the range.
  const bool gpu_events = c.events == EventKind::kKernels || c.events == EventKind::kMemcpy ||
                          c.events == EventKind::kMemset || c.events == EventKind::kGpu;
  if (gpu_events && c.range_noun && c.inside.empty() && c.names.size() == 1 &&
      c.names.front().second == std::vector<NameClass>{NameClass::kNvtx}) {
    c.inside = c.names.front().first;
    c.names.clear();
    c.range_noun = false;
  }
  // "... and how much wall time do they add up to": wall time is the enclosing ranges' own, not the work inside them.
  if (c.wall && !HasSubject(c) && previous && !previous->scope.inside.empty()) {
    c.names.emplace_back(previous->scope.inside, std::vector<NameClass>{NameClass::kNvtx});
    c.range_noun = true;
  }
  // "How many NVTX ranges are nested inside token_32_processing?", "Inside X, how many ranges are there?": ranges said
  // before the range they are inside, or nested in it, are the ranges inside it (on its thread, at any depth;
  // event_stats leaves the enclosing range out), not the range itself.
  const bool ranked = c.which || c.rank != Rank::kNone;
  if (!c.inside.empty() && !c.events && c.names.empty() && c.range_noun &&
      (c.range_noun_at < c.inside_at || c.nested || (c.inside_lent && c.own_range_noun && !ranked))) {
    c.events = EventKind::kNvtx;
    return true;
  }
  // "Inside forward, which layer range took the longest?": which ranges inside it the words before the noun mean
  // ("layer") is not said: no Query (false).
  if (!c.inside.empty() && !c.events && c.names.empty() && c.range_noun && ranked) return false;
  // "How many ranges are nested?": nested in no range said.
  if (c.nested && c.inside.empty()) return false;
  // "time inside the forward range" with nothing else named: the range itself is the subject.
  if (!c.inside.empty() && !c.events && c.names.empty()) {
    c.names.emplace_back(c.inside, std::vector<NameClass>{NameClass::kNvtx});
    c.inside.clear();
    c.range_noun = true;
  }
  return true;
}

// "how long is no kernel running, and what % of that span is it?": "it", the idle or busy time the Query before
// measured, as a share of the span it is measured over: the idle share or the utilization.
void ShareOfTheSpanSaidBefore(Clause& c, const Query* previous) {
  const auto has = [](const std::vector<Measure>& ms, Measure m) {
    return std::find(ms.begin(), ms.end(), m) != ms.end();
  };
  // "..., and as a percentage of the span": a clause naming no events of its own is of the figure before too.
  if (!previous || !(c.it || c.points_back || !HasSubject(c)) || !has(c.measures, Measure::kShare) ||
      !has(c.measures, Measure::kSpan))
    return;
  const bool idle = has(previous->measures, Measure::kIdle), busy = has(previous->measures, Measure::kBusy);
  if (!(c.it || c.points_back) && idle == busy) return;  // no figure before that a share of its span is
  // "How long does the add kernel run, and what share of the GPU span is that?": the time of events, as a share of
  // the span of every GPU op on their GPUs.
  if (!idle && !busy && c.span_base == 1 && has(previous->measures, Measure::kTotal)) {
    std::erase(c.measures, Measure::kShare);
    std::erase(c.measures, Measure::kSpan);
    c.measures.push_back(Measure::kSpanShare);
    return;
  }
  if (idle == busy) return;
  std::erase(c.measures, Measure::kShare);
  std::erase(c.measures, Measure::kSpan);
  c.measures.push_back(idle ? Measure::kIdleShare : Measure::kUtilization);
}

// A share against a base said after "of" (ShareOfABase): with a named base, the measure the share is of (one said
// beside it, else the first of the Query before that adds up, else the total time), compared as a percentage
// (FillVersus); with a base of a kind alone, the share of all time when it is the subject's kind, else unread.
bool ShareOfTheBase(Clause& c, const Query* previous, Query& q) {
  if (!c.share_of_that) return true;
  if (!c.share_form) {
    if (c.versus_events && *c.versus_events != q.subject.events) return false;
    c.versus_events.reset();
    return true;
  }
  std::vector<Measure> of;
  for (Measure m : q.measures) {
    if (AddsUp(m)) of.push_back(m);
  }
  if (of.empty() && previous) {
    for (Measure m : previous->measures) {
      if (AddsUp(m)) {
        of.push_back(m);
        break;
      }
    }
  }
  if (of.empty()) of.push_back(Measure::kTotal);
  q.measures = of;
  q.group_by = GroupBy::kNone;
  q.rank = Rank::kNone;
  return true;
}

// "Percent of kernel time in NCCL kernels, per GPU": a share of some of the events (a name, a family), asked per
// GPU, process or stream, is of each one's own time. Not a share of everything said as such ("what share of all
// kernel time ... on each stream", "of the total"), nor the events unnamed (their share per place is how they spread).
void ShareWithinEachPlace(const Clause& c, Query& q) {
  const bool some = !q.subject.name.empty() || !q.subject.family.empty();
  q.share_within_group = IsPlace(q.group_by) && some && !c.every && !q.versus_subject && !q.versus_scope &&
                         std::find(q.measures.begin(), q.measures.end(), Measure::kShare) != q.measures.end();
}

// "How long after MPI_Init finishes does the first saxpy kernel start?": the time between the clause's two moments,
// when the clause asks nothing else (a time said, no other measure, no grouping, ranking or other side).
std::optional<Query> ElapsedQuery(const Clause& c) {
  const bool only_time = std::all_of(c.measures.begin(), c.measures.end(), [](Measure m) {
    return m == Measure::kTotal || m == Measure::kIdle || m == Measure::kMaxGap;
  });
  if (!c.origin || !c.until || !only_time || c.group || c.rank != Rank::kNone || c.versus || c.compare ||
      !c.versus_names.empty() || c.versus_events || !c.devices.empty() || !c.pids.empty() || c.stream >= 0)
    return std::nullopt;
  Query q;
  q.measures = {Measure::kElapsed};
  q.subject = c.origin->events;
  q.scope.origin = c.origin;
  q.scope.until = c.until;
  return q;
}

// An origin lent with no window to count from it ("Counting from the first kernel, how many calls?"), unless the
// clause before counted a window from it, which this one keeps ("..., and how much time do they add up to?"); "in the
// next 100 ms" with no origin said (the start of the profile is not what "next" counts from); "1 s after ... until the
// last copy": a length after no moment said.
bool WindowWithoutItsOrigin(const Clause& c, const Query* previous) {
  const bool window_before =
      previous && ((previous->scope.from_first_kernel && previous->scope.from_s) || previous->scope.origin);
  return (c.from_first_kernel && !c.from_s && !window_before && !c.origin) ||
         (c.window_after_origin && !c.from_first_kernel) || (c.until && c.from_s && !c.origin && !c.from_first_kernel);
}

// What the clause points at in the Query before: "... and how much CPU time did the runtime calls that launched them
// take?" (the calls that launched the kernels it named), "... how many NVTX ranges sit inside it?" (inside all the
// ranges it named). False when no Query holds it (no kernels named; inside one range of them, nth).
bool TakeWhatIsPointedAt(Clause& c, const Query* previous) {
  // "... and how much CPU time did the runtime calls that launched them take?": the calls that launched the kernels
  // the Query before named; of no named kernels, no Query holds it.
  if (c.launches_pointed) {
    if (!previous || previous->subject.events != EventKind::kKernels || previous->subject.name.empty()) return false;
    c.launches = previous->subject.name;
    c.launches_pointed = false;
  }
  // "Take the 10th find_centers range. How long did it last, and how many NVTX ranges sit inside it?": inside the
  // ranges the Query before named, all of them; inside one of them (nth) no Query holds.
  const bool lent_ranges = std::any_of(c.names.begin(), c.names.end(), [](const auto& n) {
    return std::find(n.second.begin(), n.second.end(), NameClass::kNvtx) != n.second.end();
  });
  if (c.inside_pointed && c.inside.empty() && !lent_ranges && previous &&
      previous->subject.events == EventKind::kNvtx && !previous->subject.name.empty()) {
    if (previous->subject.nth != 0) return false;
    c.inside = previous->subject.name;
    c.inside_lent = true;
  }
  return true;
}

// The names a clause leaves out (ReadExclusions), placed once the subject is known: a name of the subject's own kind is
// left out by name (Subject::except; kernels, calls and ranges); a range said as a place, or a range beside other
// events, is one the events are outside (Scope::outside). Anything else is no Query's: false.
bool FillExclusions(const Clause& c, bool own_subject, Query& q) {
  if (own_subject) q.subject.except.clear();
  const auto of = [](const Clause::Excluded& x, NameClass k) {
    return std::find(x.classes.begin(), x.classes.end(), k) != x.classes.end();
  };
  const auto add = [](std::string& to, const std::string& name) { to += (to.empty() ? "" : "|") + name; };
  const EventKind e = q.subject.events;
  const std::optional<NameClass> own = NameClassOf(e);
  for (const Clause::Excluded& x : c.excluded) {
    const bool same_kind = own && of(x, *own);
    // "Leaving out the ExecutionContext::execute range, which layer range holds the most kernel time": a range left
    // out of ranges ranked is a group left out, which no Query holds (its events are not outside it).
    if (of(x, NameClass::kNvtx) && !x.outside && (q.group_by == GroupBy::kRange || c.group == GroupBy::kRange))
      return false;
    if (of(x, NameClass::kNvtx) && (x.outside || (!same_kind && e != EventKind::kNvtx))) {
      add(q.scope.outside, x.name);
    } else if (same_kind && !x.outside) {
      add(q.subject.except, x.name);
    } else {
      return false;
    }
  }
  return true;
}

// Long: the named steps that build one Query, in order; the checks between them say which clauses no Query holds.
std::optional<Query> ToQuery(Clause& c, const Query* previous) {
  if (c.elapsed) return ElapsedQuery(c);
  if (!TakeWhatIsPointedAt(c, previous) || WindowWithoutItsOrigin(c, previous)) return std::nullopt;
  // "How many cudaMalloc calls, and how long did the slowest call take?": the one extreme event of the kind just
  // named is one of those events, as "the slowest of those calls" is; "which call is the slowest" still ranks names.
  // "What's the longest kernel and the shortest one?": after a ranking of names, the other end of that ranking; after
  // named events ("how long was the longest one"), the one extreme event of them (below).
  if (c.superlative_one && previous && previous->rank != Rank::kNone && previous->group_by == GroupBy::kName &&
      !HasSubject(c)) {
    c.rank_by_measure = true;
    const Measure ranked = previous->measures.front();
    c.single_event = c.single_event || ranked == Measure::kMax || ranked == Measure::kMin;
  }
  // "Did any kernel last over 100 us? What's the longest one?": in a sentence after a question of events with no
  // ranking, "one" is one of those events: ranked by the extreme, as "the longest kernel" is. (In a list of figures
  // of the same sentence, "count / bytes / longest one", "the idle gaps and the longest one", it is that figure.)
  if (c.superlative_one && c.after_a_sentence && previous && previous->rank == Rank::kNone && c.names.empty() &&
      !c.group && !HasSubject(c) && previous->subject.name.empty() && previous->group_by == GroupBy::kNone) {
    c.rank_by_measure = true;
    c.single_event = c.single_event || c.superlative == Measure::kMax || c.superlative == Measure::kMin;
  }
  if (c.rank_by_measure && c.names.empty() && !c.which && !c.group && previous && c.copy_kind.empty() &&
      !previous->subject.name.empty() && c.events == previous->subject.events)
    c.points_back = true;
  MeasuresSaidBefore(c, previous);
  Query q;
  if (previous) {
    q = *previous;
    q.versus_subject.reset();
    q.versus_scope.reset();
    q.versus_measure.reset();
    q.form = Form::kNumber;
    q.yes_if_less = false;
  }
  if (!RangeAsPlaceOrSubject(c, previous)) return std::nullopt;
  EventsSaidBefore(c, previous);
  const bool own_subject = c.events || !c.names.empty() || c.range_noun || !c.copy_kind.empty() || !c.memory.empty() ||
                           !c.cause.empty() || !c.family.empty();
  // "the biggest copy ... how long did it run?": "it" is one event, whose own figures a Query does not hold.
  const auto one_event = [](const Query& p) {
    return std::any_of(p.measures.begin(), p.measures.end(),
                       [](Measure m) { return m == Measure::kMaxBytes || m == Measure::kMinBytes; });
  };
  if (!own_subject && previous && one_event(*previous) && !c.measures.empty()) return std::nullopt;
  // "what fraction of the GPU span is copying": a share of a span other than the events' own is not held.
  const auto has = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m) != c.measures.end(); };
  ShareOfTheSpanSaidBefore(c, previous);
  if ((has(Measure::kShare) || has(Measure::kGpuShare)) && has(Measure::kSpan)) return std::nullopt;
  // "how many gaps exceed 1 ms, and how much idle time is there": a bound said of the gaps beside other measures, which
  // it would not bound.
  if ((has(Measure::kGaps) || has(Measure::kMaxGap) || has(Measure::kAvgGap)) &&
      (c.longer_than_ns >= 0 || c.shorter_than_ns >= 0) && !GapsOnly(c.measures))
    return std::nullopt;
  // "which card spent more ..., and what was the average duration on that card?": the group the ranking before found,
  // which a Query cannot name before it is answered: unread, not every group.
  if (c.that_group && previous && previous->rank != Rank::kNone && previous->group_by == *c.that_group &&
      c.devices.empty() && c.pids.empty() && c.stream < 0)
    return std::nullopt;
  if (!FillSubject(c, previous, own_subject, q)) return std::nullopt;
  // "Ignoring the first (warm-up) one, what is the mean?": of its own events or of those asked before.
  if (c.skip != 0 && q.subject.nth == 0 && q.subject.events != EventKind::kDevices) q.subject.skip = c.skip;
  if (!c.measures.empty()) q.measures = c.measures;
  GpuIdleOfTheGpu(c, previous, own_subject, q);
  if (!ShareOfTheBase(c, previous, q)) return std::nullopt;
  if (q.measures.empty()) return std::nullopt;
  FillScope(c, previous, own_subject, q);
  if (!FillExclusions(c, own_subject, q)) return std::nullopt;
  NotNestedInTheirFamily(q);
  FillPointedBack(c, previous, own_subject, q);
  if (!TakePosition(c, q)) return std::nullopt;
  if (!Held(q)) return std::nullopt;
  if (!FillVersus(c, q)) return std::nullopt;
  // One event by its place in time is not set against other events ("that second range ... the real forward pass"),
  // only against another one event of the same events ("the first and the last memcpy").
  const bool two_instances = q.versus_subject && q.versus_subject->nth != 0 && c.versus_nth != 0;
  if (q.subject.nth != 0 && (q.versus_subject || q.versus_scope) && !two_instances) return std::nullopt;
  // "leaving out the very first token, which one was slowest": of names ranked, the first may be an event or a name
  // (a group): no Query says which. Nor is a comparison's one side less its first ones.
  if (q.subject.skip != 0 && (q.group_by != GroupBy::kNone || q.versus_subject || q.versus_scope)) return std::nullopt;
  if (!FillVersusMeasure(c, q)) return std::nullopt;
  KeepComparison(c, previous, q);
  KeepRanking(c, previous, q);
  ComparedWithTheOneBefore(c, previous, q);
  // "How many kernels ran, and what is the difference?": a margin needs two sides or groups; so does "each of them"
  // ("Two programs shared the card. How many kernels did each of them start?": groups never named).
  if ((c.margin || c.each_of_them) && !q.versus_subject && !q.versus_scope && q.group_by == GroupBy::kNone)
    return std::nullopt;
  if (!FillForm(c, q)) return std::nullopt;
  ShareWithinEachPlace(c, q);
  // A factor is of a yes/no comparison of two sides; said of anything else, no Query holds it.
  if (c.factor) {
    if (q.form != Form::kYesNo || (!q.versus_subject && !q.versus_scope)) return std::nullopt;
    q.factor = c.factor;
  }
  // A Query the executor's check refuses ("the memory the gemm kernels allocated": memory is the GPUs' own) was not
  // built: the clause is declined, never answered with the check's error.
  if (!CheckQuery(q)) return std::nullopt;
  // "the five longest copies", "the 2 biggest copies": a number of events to list where the Query ranks nothing (one
  // largest copy, each kind's longest) is unread, never dropped.
  if (c.limit_listed && c.limit > 1 && q.rank == Rank::kNone) c.unread.push_back(std::to_string(c.limit));
  return q;
}

// The fields of a split (a kind of copies, of host memory, a place) that `to` leaves unsaid, taken from `from`.
void FillUnsaid(Subject& to, const Subject& from) {
  if (to.copy_kind.empty()) to.copy_kind = from.copy_kind;
  if (to.memory.empty()) to.memory = from.memory;
}
void FillUnsaid(Scope& to, const Scope& from) {
  if (to.devices.empty()) to.devices = from.devices;
  if (to.pids.empty()) to.pids = from.pids;
  if (to.stream < 0) to.stream = from.stream;
}

// "how many HtoD copies and how many bytes from pinned vs pageable memory?", "how many kernels and how much time, GPU
// 0 vs GPU 1?": two sides said once, after measures of the same events that set no sides of their own, split those
// measures too; what either clause alone says of the events (HtoD) is said of both. The one Query both make, or none.
std::optional<Query> SplitSaidAfter(const Query& before, const Query& q) {
  // Copies and memsets counted with nothing said are listed by kind (per name); a split replaces that listing.
  const bool default_group =
      before.group_by == GroupBy::kName && before.subject.name.empty() &&
      (before.subject.events == EventKind::kMemcpy || before.subject.events == EventKind::kMemset);
  if (before.versus_subject || before.versus_scope || before.versus_measure || q.versus_measure ||
      !(q.versus_subject || q.versus_scope) || (before.group_by != GroupBy::kNone && !default_group) ||
      before.rank != Rank::kNone || before.form != q.form)
    return std::nullopt;
  Query merged = q;
  FillUnsaid(merged.subject, before.subject);
  if (merged.versus_subject) FillUnsaid(*merged.versus_subject, before.subject);
  FillUnsaid(merged.scope, before.scope);
  if (merged.versus_scope) FillUnsaid(*merged.versus_scope, before.scope);
  Query probe = before;
  FillUnsaid(probe.subject, merged.subject);
  FillUnsaid(probe.scope, merged.scope);
  probe.measures = merged.measures;
  probe.versus_subject = merged.versus_subject;
  probe.versus_scope = merged.versus_scope;
  if (default_group) probe.group_by = merged.group_by;
  if (!(probe == merged)) return std::nullopt;
  std::vector<Measure> measures = before.measures;
  for (Measure m : q.measures) {
    if (std::find(measures.begin(), measures.end(), m) == measures.end()) measures.push_back(m);
  }
  merged.measures = std::move(measures);
  return merged;
}

// Queries that differ only in their measures become one, and a split said after measures of the same events takes
// them in (SplitSaidAfter).
std::vector<Query> Merge(std::vector<Query> queries) {
  std::vector<Query> out;
  for (Query& q : queries) {
    if (auto merged = out.empty() ? std::nullopt : SplitSaidAfter(out.back(), q)) {
      out.back() = std::move(*merged);
      continue;
    }
    if (!out.empty()) {
      Query probe = q;
      probe.measures = out.back().measures;
      if (probe == out.back()) {
        for (Measure m : q.measures) {
          if (std::find(out.back().measures.begin(), out.back().measures.end(), m) == out.back().measures.end())
            out.back().measures.push_back(m);
        }
        continue;
      }
    }
    out.push_back(std::move(q));
  }
  return out;
}

// "How many HtoD copies and how many bytes? Same for DtoH.": what was asked before a place asked again is every
// measure of it, the Queries before merged as the answer merges them, not only the last clause's.
Query AskedBefore(const std::vector<Query>& queries) {
  return Merge(queries).back();
}

// A clause that asks nothing and only says what, where or by what ("on stream 16, how many ...", "cudaMalloc - how many
// calls ...", "for each process, ...") lends it to the clause after it.
bool OnlyScope(const Clause& c) {
  const bool asks = Asks(c);
  const bool says = !c.devices.empty() || !c.pids.empty() || c.stream >= 0 || !c.inside.empty() || c.from_s ||
                    c.from_first_kernel || c.origin || c.until || !c.names.empty() || c.events ||
                    !c.copy_kind.empty() || !c.api_class.empty() || c.group || c.range_noun || !c.family.empty() ||
                    !c.excluded.empty() || c.skip != 0;
  return !asks && says;
}

bool AsksNothing(const Clause& c);

// A clause that says only which names are left out ("not ExC", "excluding the NCCL ones").
bool OnlyExclusions(const Clause& c) {
  Clause without = c;
  without.excluded.clear();
  without.skip = 0;
  return (!c.excluded.empty() || c.skip != 0) && AsksNothing(without);
}

// The class of names a kind of events has; copies and memsets have none.
std::optional<NameClass> NameClassOf(std::optional<EventKind> e) {
  if (e == EventKind::kApi) return NameClass::kApi;
  if (e == EventKind::kKernels) return NameClass::kKernel;
  if (e == EventKind::kNvtx) return NameClass::kNvtx;
  return std::nullopt;
}

// Whether a name of these classes can be of the events a clause names: the events the name then means
// (EventsOfName: "MPI_Send calls" are NVTX ranges where nsys records MPI calls as ranges, "calls of a kernel" its
// runs) are a kind the name is in.
bool NameIsOf(const std::vector<NameClass>& classes, std::optional<EventKind> events) {
  const auto cls = NameClassOf(EventsOfName(classes, events, false));
  return cls && std::find(classes.begin(), classes.end(), *cls) != classes.end();
}

// Whether names lent to clause `to` can be of the events it names itself: "For cudaMalloc: how many calls" lends a
// call's name to calls; "For the LLaMA sim: how many kernels ran inside layer_3" cannot lend a range's name to kernels.
// "For the layer_3 ranges: how many kernels ran inside them": ranges said as ranges are where the events are.
bool NamesFit(const Clause& from, const Clause& to) {
  const auto& names = from.names;
  // "MPI calls as NVTX ranges. How much time in MPI_Send versus MPI_Recv?": a clause that sets two named sides
  // against each other has no place for a name lent to it.
  if (!to.versus_names.empty()) return false;
  if (!to.events || !to.copy_kind.empty() || to.range_noun || from.range_noun) return true;
  return std::all_of(names.begin(), names.end(), [&](const auto& n) { return NameIsOf(n.second, to.events); });
}

// Whether each name lent is a part of a name the clause says, or holds one ("the SendRecv kernels on device 1: the
// longest ncclDevKernel_SendRecv there"): the same events, said again.
bool SameNames(const Clause& from, const Clause& to) {
  return std::all_of(from.names.begin(), from.names.end(), [&](const auto& lent) {
    const std::string a = Lower(lent.first);
    return std::any_of(to.names.begin(), to.names.end(), [&](const auto& own) {
      const std::string b = Lower(own.first);
      return a.find(b) != std::string::npos || b.find(a) != std::string::npos;
    });
  });
}

// "DtoD copies larger than 8 MB: how many bytes do they move?": the bounds on each event go with its events, to a
// clause of those events or of none named, where it has none of its own.
void LendBoundsWithTheirEvents(const Clause& from, Clause& to) {
  if (to.events && to.events != from.events) return;
  for (auto [t, f] : {std::pair{&to.longer_than_ns, from.longer_than_ns},
                      {&to.shorter_than_ns, from.shorter_than_ns},
                      {&to.larger_than_bytes, from.larger_than_bytes},
                      {&to.smaller_than_bytes, from.smaller_than_bytes}}) {
    if (*t < 0) *t = f;
  }
}

// The window a clause says, whole, to one that says none ("Zoom into 6.0 s to 6.1 s. How many kernels ...").
void LendWindow(const Clause& from, Clause& to) {
  to.from_s = from.from_s;
  to.to_s = from.to_s;
  to.from_first_kernel = from.from_first_kernel;
  to.capture_clock = from.capture_clock;
  to.window_from_end = from.window_from_end;
  to.window_after_origin = from.window_after_origin;
  to.origin = from.origin;
  to.until = from.until;
}

// `subject` false: only the place. "This is a unified-memory run. How many HtoD migrations, and how many bytes did
// they move?": a clause naming nothing after a Query built since asks about that Query's events (the migrations),
// which the first Query took from the scene and narrowed, not about every unified-memory copy the scene names.
// Returns false when the names lent do not fit the events `to` names (NamesFit), and were not lent.
bool LendScope(const Clause& from, Clause& to, bool subject) {
  // A clause with names of its own takes none lent ("cudaMalloc: total time of forward vs backward?" cannot hold
  // cudaMalloc): unfit, unless the lent names are ranges it points back at ("layer_3 ranges: the nvfuser kernels
  // inside them").
  const bool fit = !subject || from.names.empty() ||
                   (to.names.empty() ? NamesFit(from, to) : from.range_noun || to.points_back || SameNames(from, to));
  if (subject) {
    if (to.names.empty() && fit) {
      to.names = from.names;
      // "ncclSend, ncclRecv, ncclGroupEnd: which one takes the most time?": names listed or summed stay so.
      to.listed_names = from.listed_names;
      to.sum_names = from.sum_names;
    }
    if (!to.group) to.group = from.group;  // "For each process (PID), how many kernels ...": per process
    to.exact.insert(to.exact.end(), from.exact.begin(), from.exact.end());
    if (!to.events) {
      to.events = from.events;
      to.gpu_kinds |= from.gpu_kinds;  // "Looking at kernels and memcpys together, what's the longest idle gap?"
    }
    // A kind said again less precisely is the same copies ("For the unified-memory migrations host->device: how many
    // migration records": the Unified HtoD ones).
    const bool said_again = !to.copy_kind.empty() && to.versus_copy_kind.empty() && from.versus_copy_kind.empty() &&
                            from.copy_kind.size() > to.copy_kind.size() && from.copy_kind.rfind(to.copy_kind, 0) == 0;
    if ((to.copy_kind.empty() && to.versus_copy_kind.empty()) || said_again) {
      to.copy_kind = from.copy_kind;
      to.versus_copy_kind = from.versus_copy_kind;  // "For HtoD and DtoH separately: total bytes ..."
    } else if (from.copy_kind == "Unified" && from.versus_copy_kind.empty()) {
      // "the unified memory migrations by direction: bytes host to device vs device to host": migrations each way.
      for (std::string* side : {&to.copy_kind, &to.versus_copy_kind}) {
        if (!side->empty() && side->rfind("Unified", 0) != 0) *side = "Unified " + *side;
      }
    }
    if (to.api_class.empty()) to.api_class = from.api_class;
    if (to.memory.empty()) to.memory = from.memory;
    if (to.family.empty() && to.names.empty()) {
      to.family = from.family;                // "For the FlashAttention kernels: ..."
      to.versus_family = from.versus_family;  // "the attention kernels and the GEMMs: which took more time?"
    }
    to.range_noun = to.range_noun || from.range_noun;
    // "What was the very first kernel to execute, and how long did it take?": the one event goes with its events.
    if (to.nth == 0 && to.events == from.events && to.names == from.names) {
      to.nth = from.nth;
      to.versus_nth = from.versus_nth;  // "the first and the last memcpy: which took longer?"
    }
    if (to.skip == 0 && to.nth == 0) to.skip = from.skip;  // "Ignoring the first (warm-up) occurrence, what ..."
    LendBoundsWithTheirEvents(from, to);
  }
  // "Leaving out forward, which range ...": what a place says is left out goes with it.
  if (to.excluded.empty()) to.excluded = from.excluded;
  to.sides_lent = to.sides_lent || !from.versus_copy_kind.empty();
  if (to.devices.empty()) to.devices = from.devices;
  if (to.pids.empty()) to.pids = from.pids;
  if (to.stream < 0) to.stream = from.stream;
  if (to.inside.empty() && !from.inside.empty()) {
    to.inside = from.inside;
    to.inside_lent = true;
  }
  if (!to.from_s && !to.origin && !to.until) {
    LendWindow(from, to);
  } else if (!from.from_s && from.from_first_kernel) {
    to.from_first_kernel = true;  // "Counting from the first kernel, how many ... in the first 100 ms?"
    if (!to.origin) to.origin = from.origin;
  }
  return fit;
}

// Whether a sentence says how things look or what someone believes ("cudaFree looks expensive", "I think pid 1679 did
// more GPU work", "My hunch is ..."): a phrase's last word decides ("I think" is one phrase of the lexicon).
bool SaysABelief(const Item& it) {
  static constexpr std::string_view kBeliefs[] = {
      "seems",   "seem", "looks", "appears", "feels", "suspect", "believe",    "guess",  "think",  "thought", "assume",
      "assumed", "bet",  "hunch", "feeling", "sure",  "suppose", "hypothesis", "theory", "wonder", "doubt",   "expect"};
  const std::string w = Lower(it.word);
  const std::string last = w.substr(w.find_last_of(' ') + 1);  // npos + 1 is 0: the whole word
  return std::find(std::begin(kBeliefs), std::end(kBeliefs), last) != std::end(kBeliefs);
}
bool SaysABelief(const std::vector<Item>& s) {
  return std::any_of(s.begin(), s.end(), [](const Item& it) { return SaysABelief(it); });
}

// Whether a sentence only asks to confirm what was said before it: "True?", "Is that right?", "Correct?", "Am I
// right?".
bool AsksToConfirm(const std::vector<Item>& s) {
  bool confirm = false;
  for (const Item& it : s) {
    if (it.kind == Item::kSeparator) continue;
    if (IsWordIn(it, {"right", "true", "correct", "accurate", "the case", "confirm"})) {
      confirm = true;
    } else if (!IsWordIn(it, {"is", "am", "are", "was", "that", "it", "this", "i", "so", "really", "or", "not",
                              "please", "can you", "you"})) {
      return false;
    }
  }
  return confirm;
}

// "My hunch is the host waits longer in cudaDeviceSynchronize than the GPU runs the GEMMs. True?": a belief that the
// next sentence only asks to confirm is the question, yes or no: its opening words ("my hunch is", "I think") go, an
// auxiliary opens it, and the confirming sentence is spent.
void ConfirmedBeliefsAreQuestions(std::vector<std::vector<Item>>& sentences) {
  for (size_t at = 0; at + 1 < sentences.size(); ++at) {
    std::vector<Item>& s = sentences[at];
    if (!SaysABelief(s) || !AsksToConfirm(sentences[at + 1])) continue;
    size_t opening = 0;
    while (opening < s.size() && opening < 4 && !SaysABelief(s[opening])) ++opening;
    if (opening == s.size() || opening == 4) continue;
    ++opening;
    while (opening < s.size() && IsWordIn(s[opening], {"is", "that"})) ++opening;
    s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(opening));
    s.insert(s.begin(), LexItem("is", ""));
    if (!s.empty() && s.back().kind == Item::kSeparator) s.back().word = "?";
    sentences.erase(sentences.begin() + static_cast<std::ptrdiff_t>(at + 1));
  }
}

// Sentences: the items up to each full stop, question or exclamation mark, the mark kept at the sentence's end; a
// belief said before a colon ("cudaFree looks expensive in this run: how many calls ...?") is a sentence of its own,
// which sets the scene.
std::vector<std::vector<Item>> Sentences(std::vector<Item> items) {
  std::vector<std::vector<Item>> out(1);
  for (Item& it : items) {
    const bool end = it.kind == Item::kSeparator && (it.word == "." || it.word == "?" || it.word == "!");
    const bool belief = it.kind == Item::kSeparator && it.colon && SaysABelief(out.back());
    out.back().push_back(std::move(it));
    if (end || belief) out.emplace_back();
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

// A sentence that sets the scene rather than asks ("The two ranks share one A100.", "I suspect we sync too often."):
// it ends with a full stop, and opens with no question word, auxiliary, measure or request ("give", "show", ...).
// Only a question with a question mark has such sentences: without one, every sentence may be a request.
bool IsContextSentence(const std::vector<Item>& s) {
  if (s.empty() || s.back().kind != Item::kSeparator || (s.back().word != "." && !s.back().colon)) return false;
  // "cudaFree looks expensive in this run:": a belief said before a colon (Sentences).
  if (s.back().colon) return SaysABelief(s);
  static constexpr std::string_view kRequests[] = {
      "give", "show",  "tell", "list", "compare",  "include", "report", "break",   "also",      "plus",  "use",
      "set",  "count", "sum",  "rank", "describe", "explain", "find",   "compute", "calculate", "print", "and"};
  // "I'd like the GPU utilisation of device 1 only.", "I need the top kernels.": a request said as a wish.
  if (!s.empty() && IsWordIn(s[0], {"i'd like", "i would like", "we'd like", "i want", "i need", "we need"}))
    return false;
  // "The host side seems to spend a lot of time at teardown.": how things look, said as a statement, sets the scene
  // whatever figures it names and whatever verb follows ("to spend").
  // A belief said before the question that tests it ("I think pid 1679 did more GPU work.", "My hunch is ...").
  if (SaysABelief(s)) return true;
  // "Same for device-to-host.": what was asked, asked again of what follows: a request.
  if (IsWordIn(s[0], {"same for", "the same for", "likewise for", "ditto for", "and the same for", "same"}))
    return false;
  // What the asker is doing or wants to learn ("I'm comparing the two GPUs.", "I want to know if the second GPU was
  // kept working."): the scene of the question after it.
  if (IsWordIn(s[0], {"i'm", "im", "i am", "we're", "we are"}) ||
      (s.size() > 3 && IsWordIn(s[0], {"i want", "we want"}) && IsWordIn(s[1], {"to"}) &&
       IsWordIn(s[2], {"know", "see", "check", "understand"}) && IsWordIn(s[3], {"if", "whether"})))
    return true;
  size_t from = 0;
  // "There are two ...", "This is the training step before ...": a statement, not a question.
  if (s.size() > 2 && IsWordIn(s[0], {"there", "this", "that", "it"}) && s[1].Has(Slot::kAuxiliary)) from = 2;
  // "For each GPU, give the utilization.", "For each GPU, from its first to its last operation, give ...": a part
  // after a comma that opens with a request or a question asks, whatever was said before it.
  static constexpr std::string_view kOpeners[] = {"give", "show", "tell", "list", "report", "compute", "calculate"};
  for (size_t k = 1; k + 1 < s.size(); ++k) {
    if (s[k - 1].kind != Item::kSeparator || s[k - 1].word != ",") continue;
    size_t w = k;
    while (w < s.size() && s[w].Has(Slot::kStop) && !StartsQuestion(s[w])) ++w;
    if (w < s.size() && (StartsQuestion(s[w]) ||
                         std::find(std::begin(kOpeners), std::end(kOpeners), Lower(s[w].word)) != std::end(kOpeners)))
      return false;
  }
  for (size_t k = from; k < s.size(); ++k) {
    const Item& it = s[k];
    const std::string w = Lower(it.word);
    if (w == "i mean" || w == "that is") return false;  // a correction of the question: read it
    const bool request = std::find(std::begin(kRequests), std::end(kRequests), w) != std::end(kRequests);
    if (StartsQuestion(it) || request) return false;
    if (!it.Has(Slot::kStop)) break;  // the first word that says something decides
  }
  // A comparison or a "which" anywhere asks ("For the solver, compare HtoD vs DtoH throughput.").
  // So does a list of measures ("For HtoD and DtoH separately: total bytes and average bandwidth."); one measure word
  // may only set the scene ("Take the biggest copy.", "I suspect we sync too often.").
  // "Kernel count and total kernel time.": "total" (and "sum") is a measure word too, a time word is not.
  const auto measures = std::count_if(s.begin(), s.end(), [](const Item& it) {
    return it.Has(Slot::kMeasure) || std::any_of(it.entries.begin(), it.entries.end(), [](const lexicon::Entry& e) {
             return e.slot == Slot::kWeakTotal && e.value == 0;
           });
  });
  // "..., and tell me how long no kernel ran": a request anywhere ("tell me", "give us") asks.
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    if (IsWordIn(s[k], {"tell", "give", "show", "list"}) && IsWordIn(s[k + 1], {"me", "us"})) return false;
  }
  return measures < 2 && std::none_of(s.begin(), s.end(), [](const Item& it) {
           return it.Has(Slot::kCompare) || it.Has(Slot::kWhich) || Lower(it.word) == "how" ||
                  (it.Has(Slot::kVersus) && Lower(it.word) != "or");
         });
}

// Whether a sentence reads nothing concrete: no measure, "which", "any", copy kind, name (or part of one) of the
// profile, number or word of a diagnosis.
// A heading said by a person (`heading`) may name a part of names and an intent ("Before we optimise the FFTs:").
bool ReadsNothingConcrete(const std::vector<Item>& s, bool heading = false) {
  return std::none_of(s.begin(), s.end(), [&](const Item& it) {
    if (heading && it.kind == Item::kName && !it.exact) return false;
    return it.Has(Slot::kMeasure) || it.Has(Slot::kWeakTotal) || it.Has(Slot::kWhich) || it.Has(Slot::kTop) ||
           it.Has(Slot::kBottom) || it.Has(Slot::kAny) || it.Has(Slot::kCopyKind) || it.kind == Item::kName ||
           (it.Has(Slot::kUnsupported) && it.Value(Slot::kUnsupported) == 1) ||  // "power-throttling": no counter read
           (it.kind == Item::kNumber && !SpelledNumber(Lower(it.word))) ||
           (!heading && lexicon::IsDiagnosisWord(Lower(it.word)));
  });
}

// "Is attention balanced across the two ranks? Compare the total time of flash_fwd_kernel on device 0 versus device
// 1.", "How concentrated is the GPU work? What share of kernel time do the top five kernels take?": a question that
// reads nothing concrete, before a sentence that asks a measure of its own, says why that one is asked. It is read as
// the scene, and said.
bool TakeMotivation(const std::vector<std::vector<Item>>& sentences, size_t at, Reading& reading) {
  const std::vector<Item>& s = sentences[at];
  if (s.empty() || s.back().word != "?" || !ReadsNothingConcrete(s)) return false;
  if (std::none_of(sentences.begin() + static_cast<std::ptrdiff_t>(at) + 1, sentences.end(),
                   [](const std::vector<Item>& later) { return !ReadsNothingConcrete(later); }))
    return false;
  reading.context.push_back(WordsOf(s, 0, s.size() - 1) + "?");
  return true;
}

// "Before we retune the GEMM tiles: what is the median ...", "The cuFCM run does lots of cudaMemset: how many ...":
// words before a colon, said by a person ("we", "I", "our"), as how things look ("looks", "seems", "does") or as a
// state ("Before the fix:"), and reading nothing concrete, say why the question after it is asked. Dropped and
// returned.
std::optional<std::string> DropMotivationHeading(std::vector<Item>& s) {
  const auto colon = std::find_if(s.begin(), s.end(), [](const Item& it) { return it.colon; });
  if (colon == s.begin() || colon == s.end()) return std::nullopt;
  const std::vector<Item> heading(s.begin(), colon);
  // Said by a person, said as a statement of how things look ("JAX startup looks heavy on stream creation:"), or of
  // the state the recording is in ("Before the fix:").
  const bool person = std::any_of(heading.begin(), heading.end(), [](const Item& it) {
    return IsWordIn(it, {"we", "i", "our", "us", "my", "we're", "i'm", "we've", "i've", "looks", "seems", "appears",
                         "does", "feels"});
  });
  const bool state = IsWordIn(heading.front(), {"before", "after"});
  // A label the question is filed under ("Launch overhead check:", "Quick question:").
  const bool label = IsWordIn(heading.back(), {"check", "question", "request", "task", "sanity-check"});
  if (!(person || state || label) || !ReadsNothingConcrete(heading, true)) return std::nullopt;
  const std::string words = WordsOf(heading, 0, heading.size());
  s.erase(s.begin(), colon + 1);
  return words;
}

// The clauses of a sentence, read, and what one says for another. "A vs B: how many launches and how much time on
// each?": "on each" said last is said of every clause after the comparison.
std::vector<Clause> ReadClauses(const std::vector<std::vector<Item>>& parts) {
  std::vector<Clause> clauses;
  for (const auto& items : parts) clauses.push_back(ReadClause(items));
  for (size_t k = clauses.size(); k-- > 1;) {
    if (!clauses[k].each_side) continue;
    for (size_t j = k; j-- > 0 && !clauses[j].versus && !clauses[j].compare;) clauses[j].each_side = true;
  }
  // "Compare the two GPUs: which one spent more time ...": "which one" of the noun a clause before said. "Of the
  // streams, which is the heaviest", "the heaviest one": a "which" or a superlative "one" with no noun of its own,
  // after a clause that names many places.
  std::optional<GroupBy> noun_before;
  bool many_before = false;
  for (Clause& c : clauses) {
    const bool which_alone = ((c.which && !c.which_events) || c.superlative_one) && many_before;
    if ((c.which_one || which_alone) && !c.group && noun_before) c.group = noun_before;
    // "Of the streams, the heaviest one": within one clause, "one" of the places it named.
    if (c.superlative_one && !c.group && c.noun && c.noun_plural && IsPlace(*c.noun)) c.group = c.noun;
    if (c.noun) {
      noun_before = c.noun;
      many_before = c.noun_plural;
    }
  }
  return clauses;
}

// A clause opening with "what about" or "how about" (after "and"): the question before, asked again.
bool AsksAgain(const std::vector<Item>& items) {
  size_t i = 0;
  while (i < items.size() && Lower(items[i].word) == "and") ++i;
  if (i + 1 >= items.size()) return false;
  const std::string a = Lower(items[i].word), b = Lower(items[i + 1].word);
  return (a == "what" || a == "how") && b == "about";
}

// "that call", "those transfers", "these kernels", "their total time", "its median": the question points back at what
// the scene named.
bool PointsBack(const std::vector<Item>& items) {
  return std::any_of(items.begin(), items.end(), [](const Item& it) {
    const std::string w = Lower(it.word);
    return w == "that" || PointsBackWord(w);
  });
}

// The subject a scene-setting sentence names, for the question after it that names none ("Both processes call
// cudaStreamSynchronize. ... is more than half a second spent in that call?"). Its scope is not lent: a sentence
// that sets the scene says where the story is, not where the question looks.
void LendSubject(const Clause& from, Clause& to) {
  to.names = from.names;
  to.exact = from.exact;
  to.events = from.events;
  to.copy_kind = from.copy_kind;
  to.api_class = from.api_class;
  to.memory = from.memory;
  to.range_noun = from.range_noun;
  to.family = from.family;
  to.versus_family = from.versus_family;
}

// What a sentence that set the scene lends the first clause of the question after it.
void LendScene(const Clause& scene, const std::vector<Item>& items, Clause& c) {
  // "Both processes call cudaStreamSynchronize. ... in that call?": the scene's names serve a question of none.
  // "The host seems to sit in cudaDeviceSynchronize a lot. How many calls ...": the scene's one name, of the kind
  // of events the question counts, is what it asks about.
  const auto name_class = NameClassOf(c.events);
  // (The scene may name the kind too: "The ranks do a lot of blocking cudaMemcpy.")
  const bool of_its_kind = scene.names.size() == 1 && (!scene.events || scene.events == c.events) && name_class &&
                           NameIsOf(scene.names.front().second, c.events) && c.copy_kind.empty() && !c.range_noun;
  // "There are start/end ranges for X. How many are there?": a question that names no events at all asks of the
  // scene's.
  // Not to a question that names ranges of its own ("The MPI calls are NVTX ranges. Time spent in MPI_Send versus
  // MPI_Recv?": the time in each, not the scene's inside the first).
  const bool names_its_own = !c.inside.empty() || !c.versus_names.empty();
  // "I keep seeing nvjet_tst_... in the list. What's a typical run time for one call of it?": a call of the scene's one
  // kernel is one execution of it.
  const auto& classes = scene.names.empty() ? std::vector<NameClass>{} : scene.names.front().second;
  const bool a_kernels_call = scene.names.size() == 1 && c.names.empty() && c.bare_calls &&
                              (c.it || PointsBack(items)) &&
                              std::find(classes.begin(), classes.end(), NameClass::kKernel) != classes.end() &&
                              std::find(classes.begin(), classes.end(), NameClass::kApi) == classes.end();
  if (c.names.empty() && !names_its_own && !scene.names.empty() &&
      (PointsBack(items) || of_its_kind || !HasSubject(c) || a_kernels_call))
    LendSubject(scene, c);
  if (a_kernels_call) c.events = EventKind::kKernels;
  // "Julia on a V100, just one kernel. How many thread blocks did its grid have?", "There are some device-to-device
  // copies. How many, and how many bytes?": the scene's events, unnamed, to a question that names no events of its own.
  if (scene.names.empty() && (scene.events || !scene.copy_kind.empty()) && !HasSubject(c)) LendSubject(scene, c);
}

// The scene a question's first clause is set in (LendScene), and "which one", "which two" with no noun of their own:
// of those the scene names ("Ten streams are in use."; "Only two kernels here. Which took longer?": the kernels, by
// name).
void TakeTheScene(const Clause& scene, const std::vector<Item>& items, Clause& c) {
  LendScene(scene, items, c);
  // "With the first copy's start as the origin, take the DtoH copies that began between 5 s and 10 s later. What
  // bandwidth ...?": where the scene is, the question is, unless it says where of its own; a belief's places are what
  // it compares ("I think pid 1679 did more GPU work than pid 1680."), not where the question looks.
  const bool has_place =
      !scene.devices.empty() || !scene.pids.empty() || scene.stream >= 0 || scene.from_s || scene.origin || scene.until;
  if (!scene.belief && has_place && c.devices.empty() && c.pids.empty() && c.stream < 0 && !c.from_s && !c.origin &&
      !c.until) {
    LendScope(scene, c, false);
  } else if (!scene.belief && (scene.from_s || scene.origin || scene.until) && !c.from_s && !c.origin && !c.until) {
    // "Zoom into 6.0 s to 6.1 s. How many kernels did process 1679 run in that window?": a window is lent on its own
    // to a question that says a place but no time.
    LendWindow(scene, c);
  }
  // "look only at the big host-to-device transfers, the ones of 100 MB or more each.": the scene's bounds too.
  if (!scene.belief) LendBoundsWithTheirEvents(scene, c);
  // "Group kernels with the short name, not the long one. The top 3 by total time?": kernels by their base name.
  c.base_names = c.base_names || scene.base_names;
  // "... under my layer_0_computation markers. How many kernels were launched from inside those ranges?": the
  // scene's one range is the range pointed at.
  bool pointed = false;
  for (size_t k = 0; k + 2 < items.size(); ++k) {
    pointed = pointed || (items[k].Has(Slot::kInside) && IsWordIn(items[k + 1], {"those", "these", "that", "this"}) &&
                          items[k + 2].Has(Slot::kRangeNoun));
  }
  const auto& classes = scene.names.empty() ? std::vector<NameClass>{} : scene.names.front().second;
  if (pointed && c.inside.empty() && !scene.inside.empty()) {
    c.inside = scene.inside;  // "under my X markers"
  } else if (pointed && c.inside.empty() && scene.names.size() == 1 &&
             std::find(classes.begin(), classes.end(), NameClass::kNvtx) != classes.end()) {
    c.inside = scene.names.front().first;
  }
  // "MPI_Send shows up as NVTX ranges. How many sends ...?": a part of the scene's one name is that name, said short.
  if (scene.names.size() == 1 && c.names.size() == 1 &&
      Lower(scene.names.front().first).find(Lower(c.names.front().first)) != std::string::npos) {
    c.names = scene.names;
    c.exact.insert(c.exact.end(), scene.exact.begin(), scene.exact.end());
  }
  // "I see two python programs in here. For each one, how many ...": "each" with no noun of its own is each of the
  // scene's places.
  if ((c.each_side || c.each_of_them) && !c.group && scene.noun && IsPlace(*scene.noun) && !c.versus) {
    c.group = scene.noun;
    c.each_side = c.each_of_them = false;
  }
  if (!(c.which_one || c.which) || c.group) return;
  c.group = scene.noun;
  if (!c.group && scene.events && !HasSubject(c)) {
    LendSubject(scene, c);
    c.group = GroupBy::kName;
  }
}

std::string WordsOf(const std::vector<Item>& items) {
  return WordsOf(items, 0, items.size());
}

// The scene is set in the first clause of a sentence that asks or names events: "NCCL drops annotations. Across both
// processes, how many ...": a part that asks nothing and names no events passes it on to the next.
void SetTheScene(const std::optional<Clause>& context, const std::vector<Item>& items, Clause& c, bool& first_clause) {
  // "For each one," takes it ("Across both processes," does not: each of both is no place of its own).
  const bool each = (c.each_side || c.each_of_them) && std::any_of(items.begin(), items.end(), [](const Item& it) {
                      return Lower(it.word).find("each") != std::string::npos;
                    });
  if (!Asks(c) && !HasSubject(c) && !each) return;
  if (first_clause && context) TakeTheScene(*context, items, c);
  first_clause = false;
}

// "how much of the GPU span is spent in HtoD copies, as a pct?": parts that merged into a share of a span other than
// the events' own, which no Query holds (ToQuery declines it within one clause).
void UnreadSharesOfASpan(Reading& reading) {
  for (size_t i = reading.queries.size(); i-- > 0;) {
    const auto& ms = reading.queries[i].measures;
    const auto has = [&](Measure m) { return std::find(ms.begin(), ms.end(), m) != ms.end(); };
    if ((has(Measure::kShare) || has(Measure::kGpuShare)) && has(Measure::kSpan)) {
      reading.unread.push_back("(a share of " + DescribeQuery(reading.queries[i]) + ")");  // names escaped there
      reading.unbuilt = true;
      reading.queries.erase(reading.queries.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

// A share of every event of a kind among all of them, everywhere ("share of all time of kernels"), is 100% whatever
// the profile holds: no question asks it. After a Query of some of those events ("How many nvFuser kernels ran, their
// time, and what share of kernel time is that?", "the top stream's kernel count and its share") it is their share:
// its measures join that Query. Otherwise the reading took the words that said what the share is of, or of what, for
// something else ("what percentage of the whole window from the GPU's first activity to its last does that take"):
// unread, never answered "100.0%".
void SharesOfTheWhole(Reading& reading) {
  // A share of GPU time (kGpuShare) is of every GPU op, not of the kind: no 100 % of itself.
  const auto is_share = [](Measure m) { return IsShareOfTheKind(m) && m != Measure::kGpuShare; };
  for (size_t i = reading.queries.size(); i-- > 0;) {
    const Query& q = reading.queries[i];
    const Subject& s = q.subject;
    if (std::none_of(q.measures.begin(), q.measures.end(), is_share) || !SelectsEveryOne(s) || !(q.scope == Scope{}) ||
        q.group_by != GroupBy::kNone || q.versus_subject || q.versus_scope || q.versus_measure)
      continue;
    Query* before = i > 0 ? &reading.queries[i - 1] : nullptr;
    // Some of them: named, placed, or each group of a grouping ("the top stream: its kernel count and its share").
    const bool some =
        before && (!(before->subject == s) || !(before->scope == Scope{}) || before->group_by != GroupBy::kNone);
    if (some && before->subject.events == s.events && !before->versus_subject && !before->versus_scope &&
        before->measures.size() + q.measures.size() <= 8) {
      for (Measure m : q.measures) {
        if (std::find(before->measures.begin(), before->measures.end(), m) == before->measures.end())
          before->measures.push_back(m);
      }
    } else {
      reading.unread.push_back("(a share of " + DescribeQuery(q) + ", which is all of them)");  // names escaped there
      reading.unbuilt = true;
    }
    reading.queries.erase(reading.queries.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace query_fill

// A question of more words than this is not read (the phrase parser answers it, or nothing): it bounds the filler's
// work, each word looked up in the profile's names, on any input the faces let through (8 KiB).
constexpr size_t kMaxQueryTokens = 200;

// The clauses in order; a clause with measures but no subject waits for the next one that names it ("what grid and
// block size did add_arrays_ use": the grid's clause takes add_arrays_ from the block's).
std::vector<std::string> NameCandidates(const std::string& question) {
  using namespace query_fill;  // this file's own helpers
  std::vector<std::string> out;
  const std::vector<Token> tokens = Tokenize(question);
  if (tokens.size() > kMaxQueryTokens) return out;
  // A word inside a phrase of the lexicon ("many" of "how many") is no name: looking it up would load every list of
  // names (on a 2 GB export, the CUDA calls and NVTX ranges: seconds and a gigabyte).
  std::vector<bool> in_phrase(tokens.size(), false);
  for (size_t i = 0; i < tokens.size(); ++i) {
    for (size_t n = std::min(kMaxPhraseWords, tokens.size() - i); n >= 2; --n) {
      if (lexicon::EntriesOf(Join(tokens, i, n, true)).empty()) continue;
      for (size_t k = i; k < i + n; ++k) in_phrase[k] = true;
      break;
    }
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.separator || IsNumber(t.lower) || in_phrase[i]) continue;
    if (const auto pattern = PlaceholderPattern(t.text)) {
      out.push_back(Lower(*pattern));
      continue;
    }
    if (t.quoted || (t.lower.size() >= 3 && IsWordLike(t.lower) && lexicon::EntriesOf(t.lower).empty()))
      out.push_back(t.lower);
  }
  // A CUDA call said in words ("stream syncs", "device synchronize calls"): the words before a verb NVIDIA's call
  // names end in, joined behind "cuda", so that the profile's calls are looked up for CudaCallInWords.
  for (const std::string& spelling : CallsInWords(tokens)) out.push_back(spelling);
  // "memcpy calls": the calls whose name holds the kind of work (CallsOfAKind).
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i + 1].lower != "call" && tokens[i + 1].lower != "calls") continue;
    for (const auto& [word, part] : kCallKinds) {
      if (tokens[i].lower == word) out.push_back(Lower(std::string(part)));
    }
  }
  return out;
}

namespace query_fill {

// Whether a clause said no place and nothing that keeps a place said later from it: a whole ("in total",
// "overall"), a comparison, a grouping, or a part of what was asked before ("how much of that is on GPU 1").
bool SaysNoPlace(const std::vector<Item>& items, const Clause& c) {
  const bool whole = std::any_of(items.begin(), items.end(), [](const Item& it) {
    return IsWordIn(it, {"in total", "altogether", "in all", "overall", "entire", "whole", "everything"});
  });
  return c.devices.empty() && c.pids.empty() && c.stream < 0 && !c.widens && !whole && !c.versus && !c.compare &&
         !c.group && c.versus_devices.empty() && !c.points_back;
}

// "how many kernels and how many memcpys ran on GPU 1?": one place said at the end of a sentence, by its last
// Query only, is of every Query of the sentence before it that said no place and widened nothing ("overall", "in
// total", "per GPU", a comparison keep their own). `placeless` holds, per Query of the sentence from `from`, whether
// its clause said none.
void SharedTrailingPlace(std::vector<Query>& queries, size_t from, const std::vector<bool>& placeless) {
  if (queries.size() < from + 2 || placeless.size() != queries.size() - from) return;
  const Scope& last = queries.back().scope;
  const bool one_place = (last.devices.size() == 1) + (last.pids.size() == 1) + (last.stream >= 0) == 1 &&
                         last.devices.size() <= 1 && last.pids.size() <= 1;
  if (!one_place || queries.back().versus_scope || IsPlace(queries.back().group_by)) return;
  for (size_t q = from; q + 1 < queries.size(); ++q) {
    Query& earlier = queries[q];
    if (!placeless[q - from] || earlier.versus_scope || earlier.versus_subject || IsPlace(earlier.group_by))
      return;  // any earlier Query that is no plain figure: the place is the last one's alone
  }
  for (size_t q = from; q + 1 < queries.size(); ++q) {
    queries[q].scope.devices = last.devices;
    queries[q].scope.pids = last.pids;
    queries[q].scope.stream = last.stream;
  }
}

// A clause that only says where or which events ("For process 12:", "on GPU 0"), lent to the clauses after it.
struct Lent {
  std::optional<Clause> clause;
  bool used = false;  // a later clause took it
  size_t at = 0;      // the Queries built before it
};

// "# of cudaLaunchKernel calls? just the plain ones, not ExC", "How many kernels? Excluding the NCCL ones.": a clause
// or sentence after a question that only leaves names out narrows that question; names its Query cannot leave out
// are unread, never dropped. Whether `c` was such a clause.
bool NarrowsTheQuestionBefore(const Clause& c, std::vector<Query>& queries, std::vector<std::string>& unread) {
  if (!OnlyExclusions(c) || queries.empty()) return false;
  Query narrowed = queries.back();
  // "What is the mean step time? Ignore the first (warm-up) step.": the events asked of, less their first ones.
  if (c.skip != 0 && narrowed.subject.nth == 0 && narrowed.subject.events != EventKind::kDevices)
    narrowed.subject.skip = c.skip;
  else if (c.skip != 0)
    unread.push_back("(the first or last ones left out)");
  if (c.excluded.empty() || FillExclusions(c, false, narrowed)) {
    queries.back() = std::move(narrowed);
  } else {
    for (const auto& x : c.excluded) unread.push_back(x.name);
  }
  return true;
}

// Whether clause `c` was taken as a scope, or as leaving names out of the question before (NarrowsTheQuestionBefore):
// asked again at once after "what about" ("What bandwidth do the HtoD copies reach, what about DtoH, and which is
// faster?": no scope for the clauses after it), or kept in `lent`. Otherwise the scope lent before is lent to `c`.
bool TakeScope(Clause& c, const std::vector<Item>& items, std::vector<Query>& queries, Lent& lent,
               std::vector<std::string>& unread) {
  if (NarrowsTheQuestionBefore(c, queries, unread)) return true;
  if (OnlyScope(c) && !queries.empty() && AsksAgain(items)) {
    const Query asked = AskedBefore(queries);
    if (auto again = ToQuery(c, &asked)) {
      queries.push_back(std::move(*again));
      return true;
    }
  }
  if (OnlyScope(c)) {
    // "From the first kernel on, on GPU 0, ...": places said one after another are one place.
    if (lent.clause && !lent.used && lent.at == queries.size()) LendScope(*lent.clause, c, true);
    lent = Lent{c, false, queries.size()};
    return true;
  }
  // "Inside X, which kernel took the most time, and how long did it run?": a clause that points back at a Query built
  // since the place was lent means that Query's events, which hold the place already.
  const bool points_back = (c.it || c.points_back) && !HasSubject(c) && queries.size() > lent.at;
  if (lent.clause && !points_back) {
    // A name that fits none of the events the clause names is no filter the Query can hold: unread, not dropped.
    if (!LendScope(*lent.clause, c, HasSubject(c) || queries.size() == lent.at)) {
      for (const auto& n : lent.clause->names) unread.push_back(n.first);
    }
    lent.used = true;
  }
  return false;
}

// "What percentage of the time was GPU 1 idle? Count idle as nothing running at all (no kernel, memcpy or memset)":
// a clause that opens with a verb of counting or defining, then a measure the Query before asked, then "as", says
// which events that measure is of. The Query before takes its events (a kind only, when it names none) and the
// clause is returned as a definition; nothing else is read from it.
std::optional<std::string> DefinesTheEventsBefore(const std::vector<Item>& items, const Clause& c,
                                                  std::vector<Query>& queries) {
  size_t i = 0;
  while (i < items.size() && IsWordIn(items[i], {"and", "but", "please"})) ++i;
  if (queries.empty() || !c.events || !c.names.empty() || i + 2 >= items.size() ||
      !IsWordIn(items[i], {"count", "counting", "treat", "treating", "define", "defining", "consider", "considering"}))
    return std::nullopt;
  Query& q = queries.back();
  const auto asked = [&](const Item& it) {
    return std::any_of(it.entries.begin(), it.entries.end(), [&](const lexicon::Entry& e) {
      if (e.slot != Slot::kMeasure) return false;
      const auto m = static_cast<Measure>(e.value);
      // "idle" defines the idle share too, "busy" the utilization.
      return std::any_of(q.measures.begin(), q.measures.end(), [&](Measure had) {
        return had == m || (m == Measure::kIdle && had == Measure::kIdleShare) ||
               (m == Measure::kBusy && had == Measure::kUtilization);
      });
    });
  };
  if (!asked(items[i + 1]) || !IsWordIn(items[i + 2], {"as"}) || !q.subject.name.empty()) return std::nullopt;
  q.subject.events = *c.events;
  return WordsOf(items);
}

// "By 'busy' I mean the union of the time covered by kernels, memcpys and memsets", "I understand 'idle' as the time
// ... (first kernel/copy start to last kernel/copy end) when nothing is executing": a sentence with a word of meaning
// or defining that names two kinds of GPU work or more (or GPU work itself) defines a GPU's busy and idle time as of
// its work together, for every clause of the question that names no events of its own (ApplyGpuWorkDefined).
bool DefinesGpuWork(const std::vector<Item>& s) {
  const bool defines = std::any_of(s.begin(), s.end(), [](const Item& it) {
    return IsWordIn(it, {"mean", "means", "meant", "i mean", "understand", "define", "defined", "defines", "definition",
                         "=", "union", "union of", "minus", "merged"});
  });
  if (!defines && !SaysCountedOnce(s, 0, s.size())) return false;
  uint8_t kinds = 0;
  bool gpu = false;
  for (const Item& it : s) {
    if (!it.Has(Slot::kEvents)) continue;
    const auto e = static_cast<EventKind>(it.Value(Slot::kEvents));
    gpu = gpu || e == EventKind::kGpu;
    kinds |= GpuKindBit(e);
  }
  return gpu || (kinds & (kinds - 1)) != 0;  // two bits or more
}

// A clause of a GPU's time (idle, busy, utilization, their share, the span) that names no events, in a question that
// defined GPU work (DefinesGpuWork), is of the GPU's work.
void ApplyGpuWorkDefined(Clause& c) {
  const bool gpu_measure = std::any_of(c.measures.begin(), c.measures.end(), IsTimelineMeasure);
  if (gpu_measure && !HasSubject(c)) c.events = EventKind::kGpu;
}

// "how many kernels start within the next 10 ms", "copies that start in that window", "did each of them start on it",
// "kernels whose start is within the first 500 ms": events starting where the question looks is what being in a window
// or a place means (an event is in a window when it starts in it), said as "started" is. Only where a verb stands:
// after the events, a word that points at them or "to", and before a word of place or time or the sentence's end;
// "at the start of the profile" is no verb and stays as it is.
void StartAsAVerb(std::vector<Item>& s) {
  for (size_t k = 1; k < s.size(); ++k) {
    // "whose start is within": the clause says where they start.
    if (k + 2 < s.size() && IsWordIn(s[k - 1], {"whose"}) && IsWordIn(s[k], {"start"}) &&
        IsWordIn(s[k + 1], {"is", "falls", "lies", "was"}) &&
        (s[k + 2].Has(Slot::kInside) || s[k + 2].Has(Slot::kFirst) || s[k + 2].Has(Slot::kBetween) ||
         IsWordIn(s[k + 2], {"before", "after", "within", "inside"}))) {
      s[k - 1] = LexItem("started", WordsOf(s, k - 1, k + 2));
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(k), s.begin() + static_cast<std::ptrdiff_t>(k + 2));
      continue;
    }
    if (!IsWordIn(s[k], {"start", "starts", "starting", "begin", "begins"})) continue;
    const Item& before = s[k - 1];
    const bool subject = before.Has(Slot::kEvents) || before.kind == Item::kName ||
                         IsWordIn(before, {"that", "which", "they", "them", "it", "to", "who", "ones", "one"});
    const bool place = k + 1 == s.size() || s[k + 1].kind == Item::kSeparator || s[k + 1].Has(Slot::kInside) ||
                       s[k + 1].Has(Slot::kFirst) || s[k + 1].Has(Slot::kBetween) ||
                       IsWordIn(s[k + 1], {"before", "after", "within", "inside", "on", "during"});
    if (subject && place) s[k] = LexItem("started", s[k].word);
  }
}

void ProfileStartSaid(std::vector<Item>& s);
void WindowFromTo(std::vector<Item>& s);
void ClockStartSaid(std::vector<Item>& s);

// The windows and moments a sentence says, a scene's ("With the start of the first copy as the origin, take ...") as
// a question's: the profile's own start, a window from one time to another, a clock started, moments events mark
// and the first kernel as an origin.
void ReadWindowsAndMoments(std::vector<Item>& sentence) {
  ProfileStartSaid(sentence);
  WindowFromTo(sentence);    // "Zoom into 6.0 s to 6.1 s."
  ClockStartSaid(sentence);  // "Start the clock at the end of the first X range."
  ReadAnchors(sentence);
  ReadOrigin(sentence);
}

// "There are two kernels. How long between the end of the first one and the start of the second?": a moment of "the
// Nth one", or of "the Nth" with no noun after "the start of", is of the events the question counted before it
// ("two kernels", "two 'Model' NVTX ranges", "both copies"): their words (a name and a noun) stand in for "one", or
// follow the place in time, so the moment reads as "the end of the first kernel". Only in a moment (an edge before,
// "the end of the first one", or after, "the first one ending"); "the second one" of a ranking keeps its meaning
// (Query::offset).
void OnesOfAMoment(std::vector<std::vector<Item>>& sentences) {
  std::vector<Item> counted;  // the words after the last count of events: "'Model' NVTX ranges"
  for (auto& s : sentences) {
    for (size_t k = 0; k < s.size(); ++k) {
      const bool count = s[k].kind == Item::kNumber || IsWordIn(s[k], {"two", "three", "both"});
      if (count) {
        for (size_t j = k + 1; j < s.size() && j <= k + 3; ++j) {
          if (!s[j].Has(Slot::kEvents) || s[j].kind != Item::kLex) continue;
          counted.assign(s.begin() + static_cast<std::ptrdiff_t>(k + 1),
                         s.begin() + static_cast<std::ptrdiff_t>(j + 1));
          break;
        }
        continue;
      }
      const auto [place, n] = PlaceInTime(s, k);
      if (place == 0 || counted.empty()) continue;
      const size_t after = k + n;
      const bool one = after < s.size() && IsWordIn(s[after], {"one"});
      const bool edge_before = k >= 3 && IsWordIn(s[k - 1], {"the"}) && IsWordIn(s[k - 2], {"of"}) &&
                               (IsStartWord(Lower(s[k - 3].word)) || IsEndWord(Lower(s[k - 3].word)));
      const size_t next = one ? after + 1 : after;
      const bool edge_after = next < s.size() && EdgeAfter(s, next).first != 0;
      const bool bare = !one && (after >= s.size() || s[after].kind == Item::kSeparator || IsWordIn(s[after], {"and"}));
      if (!(edge_before || edge_after) || !(one || bare)) continue;
      if (one) s.erase(s.begin() + static_cast<std::ptrdiff_t>(after));
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(after), counted.begin(), counted.end());
      k = after + counted.size() - 1;
    }
  }
}

// What one sentence says of another, read before the sentences are counted and read one by one: a belief confirmed
// by the question after it, "the first one" of events counted before.
void ReadAcrossSentences(std::vector<std::vector<Item>>& sentences) {
  ConfirmedBeliefsAreQuestions(sentences);
  OnesOfAMoment(sentences);
}

// "TensorRT's myelin layer records myelinGraphExecute ranges.": in a scene, a name that another of its names holds
// (read as a second name, or as the range the first is inside) is that one said short: the whole name is the scene's.
void NameSaidShortThenWhole(const std::vector<Item>& words, Clause& scene) {
  const auto holds = [](const std::string& whole, const std::string& part) {
    return whole.size() > part.size() && Lower(whole).find(Lower(part)) != std::string::npos;
  };
  if (scene.names.size() == 1 && !scene.inside.empty() && holds(scene.inside, scene.names[0].first)) {
    scene.names[0] = {scene.inside, words[scene.inside_at].classes};
    scene.names_at[0] = scene.inside_at;
    scene.inside.clear();
  }
  for (size_t n = scene.names.size(); n-- > 0;) {
    const std::string part = scene.names[n].first;
    if (std::any_of(scene.names.begin(), scene.names.end(), [&](const auto& o) { return holds(o.first, part); }))
      DropName(scene, n);
  }
}

// A sentence that sets the scene, read as a clause: what it does not say is no question. A definition of GPU work is
// said as such; other scenes are read silently.
Clause ReadScene(std::vector<Item> sentence, Reading& reading) {
  const bool belief = SaysABelief(sentence);
  ReadWindowsAndMoments(sentence);
  std::vector<Item> words;
  for (Item& it : sentence) {
    if (it.kind != Item::kSeparator) words.push_back(std::move(it));
  }
  if (DefinesGpuWork(words)) reading.defined.push_back(WordsOf(words));
  Clause scene = ReadClause(words);
  scene.belief = belief;
  NameSaidShortThenWhole(words, scene);
  // A time or a size the scene says and reads as no window or bound ("Zoom into 6.0 s to 6.1 s after the session
  // start.") may say where the question looks: unread, never dropped with the scene's other words. (A belief's
  // figures are what it believes: "each sample kernel takes around 10 microseconds".)
  const bool placed = belief || scene.from_s || scene.origin || scene.until || scene.longer_than_ns >= 0 ||
                      scene.shorter_than_ns >= 0 || scene.larger_than_bytes >= 0 || scene.smaller_than_bytes >= 0;
  // Said as a place in time or size ("into 6.0 s", "from 2 s", "after 100 ms", "the first 2 s", "over 1 MB"), not as
  // how long something takes ("the run takes about 5 s").
  for (size_t k = 1; k + 1 < words.size() && !placed; ++k) {
    if (words[k].kind == Item::kNumber && (words[k + 1].Has(Slot::kUnit) || IsWordIn(words[k + 1], {"bytes"})) &&
        IsWordIn(words[k - 1], {"from", "between", "into", "after", "at", "until", "to", "before", "first", "last",
                                "over", "under", "above", "below", "within"}))
      reading.unread.push_back(WordsOf(words, k - 1, k + 2));
  }
  return scene;
}

// ToQuery, with what it found no Query holds ("the median copy size", DefaultMeasures; "the 5 longest copies") unread
// as the words were, once: every clause is built through it, also a clause that waited or is read again.
std::optional<Query> ToQueryNoting(Clause& c, const Query* previous, Reading& reading) {
  const size_t unread_before = c.unread.size(), not_held_before = c.not_held.size();
  auto q = ToQuery(c, previous);
  const auto note = [](std::vector<std::string>& to, const std::vector<std::string>& from, size_t at) {
    for (size_t k = at; k < from.size(); ++k) {
      if (std::find(to.begin(), to.end(), from[k]) == to.end()) to.push_back(from[k]);
    }
  };
  note(reading.unread, c.unread, unread_before);
  note(reading.not_held, c.not_held, not_held_before);
  return q;
}

// The clauses that waited for the Query `q` after them ("what grid and block size did add_arrays_ use"), built with
// its slots, in order, or said unread; emptied.
void BuildWaiting(std::vector<std::pair<Clause, std::string>>& waiting, const Query& q, std::vector<Query>& queries,
                  Reading& reading) {
  for (auto& [w, words] : waiting) {
    // "Are those transfers pinned? How many are pageable?": a yes/no question that measures nothing asks about all of
    // its events, which no measure of the next question answers.
    const bool asks_nothing = w.yes_no && w.measures.empty() && !w.weak_total && !w.weak_time && !w.any;
    if (auto earlier = asks_nothing ? std::nullopt : ToQueryNoting(w, &q, reading)) {
      queries.push_back(std::move(*earlier));
    } else {
      reading.unread.push_back(words);
      reading.unbuilt = true;
    }
  }
  waiting.clear();
}

// "Which queue carried the most, and what share of the GPU work was it?": when clauses waited for `q`, a clause
// (`kept`, as it was before ToQuery) whose "it" points back is read again after them, with their Query before it.
void BuildWaiting(std::vector<std::pair<Clause, std::string>>& waiting, const Clause& kept, Query& q,
                  std::vector<Query>& queries, Reading& reading) {
  const size_t built = queries.size();
  BuildWaiting(waiting, q, queries, reading);
  if (queries.size() == built || !(kept.it || kept.points_back)) return;
  Clause again = kept;
  if (auto read = ToQueryNoting(again, &queries.back(), reading)) q = std::move(*read);
}

// A clause that asks nothing and names nothing. One that only ranks ("and what's the smallest one?") asks something:
// never skipped in silence.
bool AsksNothing(const Clause& c) {
  return !c.elapsed && c.measures.empty() && !c.weak_total && !c.weak_time && !c.events && c.names.empty() &&
         c.devices.empty() && c.pids.empty() && !c.which && !c.range_noun && !c.count_groups && c.inside.empty() &&
         c.stream < 0 && c.rank == Rank::kNone && !c.rank_by_size && !c.rank_by_measure && !c.threshold &&
         c.copy_kind.empty() && c.memory.empty() && c.cause.empty() && c.api_class.empty() && c.position == 0 &&
         !c.from_first_kernel && !c.origin && !c.until && !c.from_s && c.excluded.empty() &&
         !(c.any && c.yes_no);  // "and did any go past 4 ms?": whether one of them did
}

// "What bandwidth do the HtoD copies reach, and on GPU 1?": a last clause that only names a place or events asks the
// question before it again of them; "and on device 1?" alone asks the conversation's last question again (`before`).
// Never dropped in silence.
void AskLentAgain(const Lent& lent, const Query* before, std::vector<Query>& queries, Reading& reading) {
  if (!lent.clause) return;
  const std::optional<Query> asked = queries.empty() ? std::nullopt : std::optional<Query>(AskedBefore(queries));
  const Query* again_of = asked ? &*asked : before;
  if (!lent.used && again_of) {
    Clause c = *lent.clause;
    if (auto again = ToQuery(c, again_of)) {
      queries.push_back(std::move(*again));
      return;
    }
    reading.unbuilt = true;
  }
  // "Kernel launches by process?", "kernels per GPU?": events broken down by a grouping, with no question before them
  // to ask again, ask for the breakdown nsys stats gives: how many, and their time, in each group.
  if (!lent.used && !again_of && lent.clause->group && (lent.clause->events || !lent.clause->names.empty())) {
    Clause c = *lent.clause;
    c.measures = {Measure::kCount, Measure::kTotal};
    if (auto breakdown = ToQuery(c, nullptr)) {
      queries.push_back(std::move(*breakdown));
      return;
    }
  }
  if (!lent.used || queries.empty()) reading.unread.push_back("(a place with no question)");
}

// Without a question mark, the sentences before the first that asks or requests set its scene ("Two MPI ranks share
// this A100. For each process, give me ..."); those after it are requests as well. How many set the scene (0: none,
// or every sentence would, and then each is a request).
size_t SceneBeforeTheRequest(const std::vector<std::vector<Item>>& sentences) {
  size_t n = 0;
  while (n < sentences.size() && IsContextSentence(sentences[n])) ++n;
  return n == sentences.size() ? 0 : n;
}

// The words of the GPU names the export lists, each name's in lower case, split at spaces and dashes, with each two
// neighbours joined too ("NVIDIA GeForce RTX 4060 Ti": "rtx", "4060", "ti", "4060ti", ...).
std::vector<std::vector<std::string>> GpuNameWords(const QueryVocabulary& v) {
  std::vector<std::vector<std::string>> out;
  for (const std::string& name : v.gpus) {
    std::vector<std::string> words;
    std::string word;
    for (char c : name + " ") {
      if (c == ' ' || c == '-') {
        if (!word.empty()) words.push_back(Lower(word));
        word.clear();
      } else {
        word += c;
      }
    }
    for (size_t k = 0, n = words.size(); k + 1 < n; ++k) words.push_back(words[k] + words[k + 1]);
    out.push_back(std::move(words));
  }
  return out;
}

// A word of every GPU's name the export lists ("3090", "Ti", "A100"), when it lists at least one: said, it names the
// machine. Lexicon words ("GPU") and names of the profile's events are not.
bool NamesEveryGpu(const Item& it, const std::vector<std::vector<std::string>>& gpus) {
  if (gpus.empty() || !(it.kind == Item::kUnknown || it.kind == Item::kNumber)) return false;
  const std::string lower = Lower(it.word);
  return std::all_of(gpus.begin(), gpus.end(), [&](const std::vector<std::string>& words) {
    return std::find(words.begin(), words.end(), lower) != words.end();
  });
}

// A word that may stand in a phrase for the recording: one the lexicon does not hold (a framework, a model, a
// workload: "keras", "darknet", "co-located", "serving"), a name, a number with its unit ("this 1 s window"), or
// "before"/"after"/"new"/"old" said of a recording ("the before profile"). Other words of meaning ("the slow run",
// "the first trace") may say which events: they are read, or said unread.
bool MayDescribeTheRecording(const Item& it) {
  const std::string lower = Lower(it.word);
  switch (it.kind) {
    case Item::kUnknown:
      // ("my small JAX run": a size said of the run, not of its events)
      return IsWordLike(lower) &&
             (!lexicon::IsMeaningWord(lower) || lower == "before" || lower == "after" || lower == "new" ||
              lower == "old" || lower == "small" || lower == "big" || lower == "large" || lower == "tiny");
    case Item::kName:
    case Item::kNumber:
      return true;
    case Item::kLex:
      return it.Has(Slot::kUnit);
    default:
      return false;
  }
}

// The end of a GPU said by its model from `k` ("a GTX 1650", "this 2080 Ti GPU"): an article, words of every GPU's
// name, a noun for a GPU; `k` when none is said there.
size_t PastTheGpuModel(const std::vector<Item>& s, size_t k, const std::vector<std::vector<std::string>>& gpus) {
  size_t j = k < s.size() && IsWordIn(s[k], {"a", "an", "the", "this", "that", "one", "our", "my"}) ? k + 1 : k;
  const size_t model = j;
  while (j < s.size() && NamesEveryGpu(s[j], gpus)) ++j;
  if (j == model) return k;
  if (j < s.size() && (s[j].Has(Slot::kDeviceNoun) || IsWordIn(s[j], {"card", "box", "machine", "node"}))) ++j;
  return j;
}

// A word of the export's file name, or a hyphenated word of such words and recording nouns with one of them at
// least ("before-run" of mfu_2gpu_before.sqlite).
bool IsFileWord(const Item& it, const QueryVocabulary& v) {
  const std::string w = Lower(it.word);
  const auto of_file = [&](std::string_view part) {
    return std::find(v.file_words.begin(), v.file_words.end(), part) != v.file_words.end();
  };
  if (of_file(w)) return true;
  if (w.find('-') == std::string::npos || w.find(' ') != std::string::npos) return false;
  bool file = false, all = true;
  for (size_t from = 0; from <= w.size();) {
    const size_t to = std::min(w.find('-', from), w.size());
    const std::string_view part = std::string_view(w).substr(from, to - from);
    file = file || of_file(part);
    all = all && (of_file(part) || lexicon::IsRecordingNoun(std::string(part)));
    from = to + 1;
  }
  return file && all;
}

// A recording noun that never means one execution of events ("trace", "profile"; not "run", "sim", "window").
bool IsWholeRecordingNoun(const std::string& head) {
  return head != "run" && head != "runs" && head != "sim" && head != "simulation" && head != "window" &&
         head != "job" && head != "benchmark" && head != "workload";
}

// The end of a phrase for the recording from `k` (a determiner): words that may describe it, then a recording noun
// ("the keras darknet run", "this co-located PyTorch serving profile"); `k` when there is none. "run", "runs" and
// "window" are that noun only after a preposition or before a separator ("for the offload run:", "in this 1 s
// window", not "how long did the solver run?"); "window" only after "this".
size_t PastRecordingPhrase(const std::vector<Item>& s, size_t k, bool after_preposition, const QueryVocabulary& v) {
  if (k >= s.size() || !IsDeterminer(s[k])) return k;
  size_t j = k + 1;
  bool name = false, file_words = true;
  // "for the saxpy rank": after words of the export's file name only, "rank" is an MPI rank's own export.
  const auto rank_of_the_file = [&] { return j > k + 1 && file_words && IsWordIn(s[j], {"rank"}); };
  while (j < s.size() && MayDescribeTheRecording(s[j]) && !rank_of_the_file() &&
         ((s[j].kind == Item::kName && s[j].exact) || !lexicon::IsRecordingNoun(Lower(s[j].word)))) {
    // "in the cuFCM run": a part of names that is a word of the export's file name names the recording.
    name = name || (s[j].kind == Item::kName && !IsFileWord(s[j], v));
    file_words = file_words && IsFileWord(s[j], v);
    ++j;
  }
  if (j == k + 1 || j >= s.size()) return k;
  if (rank_of_the_file()) return j + 1;
  const std::string head = Lower(s[j].word);
  // "the custom 'sample' kernel"; a recording noun that is only a part of some names ("in the llama inference sim",
  // "sim" of layer_processing_simulation) is still the recording.
  if (!lexicon::IsRecordingNoun(head) || (s[j].kind == Item::kName && s[j].exact)) return k;
  // "the nvfuser_pointwise run", "the forward sim": a name of the profile's events before a noun that may be one
  // execution of them names those events, not the recording.
  if (name && !IsWholeRecordingNoun(head)) return k;
  const bool ends = j + 1 == s.size() || s[j + 1].kind == Item::kSeparator;
  if ((head == "run" || head == "runs") && !after_preposition && !ends) return k;
  if (head == "window" && !(after_preposition && Lower(s[k].word) == "this")) return k;
  return j + 1;
}

// The end of a heading before the first separator that says which recording the question is about ("keras darknet
// run:", "LLaMA inference sim on a 4060 Ti:", "mfu before:"), or 0 when the sentence opens with none. Words of the
// export's file name say the recording too: one the lexicon does not hold, or two of them, whatever names of the
// profile stand beside them.
size_t RecordingHeading(const std::vector<Item>& s, const QueryVocabulary& v,
                        const std::vector<std::vector<std::string>>& gpus) {
  size_t heading = 0, file_words = 0;
  bool recording = false;
  while (heading < s.size() && s[heading].kind != Item::kSeparator) {
    if (IsFileWord(s[heading], v)) {
      ++file_words;
      recording = recording || s[heading].kind != Item::kLex || file_words >= 2;
      ++heading;
    } else if (const size_t gpu =
                   IsWordIn(s[heading], {"on", "with"}) ? PastTheGpuModel(s, heading + 1, gpus) : heading + 1;
               gpu > heading + 1) {
      heading = gpu;
      recording = true;
    } else if (lexicon::IsRecordingNoun(Lower(s[heading].word)) && s[heading].kind != Item::kName) {
      recording = true;
      ++heading;
    } else if (MayDescribeTheRecording(s[heading]) || IsWordIn(s[heading], {"this", "the", "our", "my"})) {
      ++heading;
    } else {
      break;
    }
  }
  const bool alone = heading < s.size() && s[heading].kind == Item::kSeparator && heading + 1 < s.size();
  // "forward sim:": a name before a noun that may be one execution of it is read, as DescribesTheRecording reads it.
  const bool named_run = std::any_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(heading),
                                     [&](const Item& it) { return it.kind == Item::kName && !IsFileWord(it, v); }) &&
                         std::none_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(heading), [](const Item& it) {
                           return it.kind != Item::kName && IsWholeRecordingNoun(Lower(it.word)) &&
                                  lexicon::IsRecordingNoun(Lower(it.word));
                         });
  return recording && alone && heading > 0 && (!named_run || file_words >= 2) ? heading : 0;
}

// Drops the words that say which recording a question is about, not which events, and returns them for the answer to
// say how they were taken:
//  - a heading before the first separator made only of such words, with a recording noun or a GPU model ("keras
//    darknet run:", "LLaMA inference sim on a 4060 Ti:", "OpenMP offload solver on a T4 -");
//  - a preposition, a determiner, describing words and a recording noun ("in the before profile", "for the openmp
//    offload run");
//  - a GPU said by its model after "on" ("on a GTX 1650"), when every GPU the export lists has those words in its
//    name (with two models, the words say which GPU, and are read or said unread).
std::vector<std::string> DropRecordingPhrases(std::vector<Item>& s, const QueryVocabulary& v) {
  const auto gpus = GpuNameWords(v);
  std::vector<std::string> dropped;
  std::vector<bool> drop(s.size(), false);
  const auto mark = [&](size_t from, size_t to) {
    dropped.push_back(WordsOf(s, from, to));
    for (size_t k = from; k < to; ++k) drop[k] = true;
  };
  const auto file_word = [&](const Item& it) { return IsFileWord(it, v); };
  // "Between the two H100s, which one ...": GPUs said by their model in the plural, where the program used two or
  // more, are its GPUs (the model as the export names its GPUs, or as the GPU table knows it where it names none).
  for (Item& it : s) {
    Item stem = it;
    if (v.device_ids.size() < 2 || stem.word.size() < 3 || Lower(stem.word).back() != 's') continue;
    stem.word.pop_back();
    const bool model = gpus.empty() ? stem.kind != Item::kName && engine::LookUpGpuModel(stem.word).has_value()
                                    : NamesEveryGpu(stem, gpus);
    if (model) it = LexItem("gpus", it.word);
  }
  const size_t heading = RecordingHeading(s, v, gpus);
  if (heading > 0) mark(0, heading);
  for (size_t k = heading; k < s.size(); ++k) {
    // The export's whole file name, wherever it is said ("h100_2gpu_1s gpu 1: ...").
    if (file_word(s[k]) && Lower(s[k].word).find_first_of("_-.") != std::string::npos) {
      mark(k, k + 1);
      continue;
    }
    const bool preposition = IsWordIn(s[k], {"in", "for", "from", "of", "during", "across", "over", "on"});
    if (preposition || k == 0 || s[k - 1].kind == Item::kSeparator) {
      const size_t det = preposition ? k + 1 : k;
      if (const size_t end = PastRecordingPhrase(s, det, preposition, v); end > det) {
        mark(k, end);
        k = end - 1;
        continue;
      }
    }
    if (IsWordIn(s[k], {"on", "with"})) {
      if (const size_t end = PastTheGpuModel(s, k + 1, gpus); end > k + 1) {
        mark(k, end);
        k = end - 1;
      }
    } else if (IsDeterminer(s[k])) {
      // "how long was the 2080 Ti idle": the GPU said by its model is the GPU.
      if (const size_t end = PastTheGpuModel(s, k, gpus); end > k + 1) {
        const bool noun = s[end - 1].Has(Slot::kDeviceNoun);
        mark(k + 1, noun ? end - 1 : end);
        if (!noun) {
          drop[k + 1] = false;
          s[k + 1] = LexItem("gpu", s[k + 1].word);
        }
        k = end - 1;
      }
    }
  }
  // "(after run)", "(the before profile)": words in parentheses that only say which recording, one of them a word of
  // the export's file name.
  for (size_t k = 0; k < s.size();) {
    size_t end = k;
    bool file = false, only = true;
    while (end < s.size() && s[end].paren && s[end].kind != Item::kSeparator) {
      file = file || file_word(s[end]);
      only = only && (file_word(s[end]) || lexicon::IsRecordingNoun(Lower(s[end].word)) ||
                      IsWordIn(s[end], {"the", "this", "that"}));
      ++end;
    }
    if (end > k && file && only) mark(k, end);
    k = std::max(end, k + 1);
  }
  std::vector<Item> kept;
  for (size_t k = 0; k < s.size(); ++k) {
    if (!drop[k]) kept.push_back(std::move(s[k]));
  }
  s = std::move(kept);
  return dropped;
}

// "from the host to GPU 0": a copy kind read whole that ends with a GPU noun, and the GPU's number after it: the
// number is that GPU's (a GPU noun before it, read as a place).
void NumberedGpuAfterAKind(std::vector<Item>& sentence) {
  for (size_t i = 0; i + 1 < sentence.size(); ++i) {
    const std::string w = Lower(sentence[i].word);
    const std::string last = w.substr(w.find_last_of(' ') + 1);
    if (sentence[i].Has(Slot::kCopyKind) && (last == "gpu" || last == "device" || last == "card") &&
        sentence[i + 1].kind == Item::kNumber)
      sentence.insert(sentence.begin() + static_cast<std::ptrdiff_t>(i + 1), LexItem("gpu", ""));
  }
}

// "sent onto the card", "sending data to the GPU": a verb of moving before the places of a copy (`from`, `to`) says
// no more than they do: taken into them, or dropped over "data", "it" or "them" (which are read as ever).
void TakeTheMovingVerb(std::vector<Item>& sentence, size_t& from, size_t& to) {
  const auto moving = [&](size_t at) {
    return sentence[at].kind == Item::kUnknown &&
           IsWordIn(sentence[at], {"sent", "going", "coming", "brought", "pushed", "pulled", "staged", "shipped",
                                   "uploaded", "downloaded", "sending", "moving"});
  };
  if (from > 0 && moving(from - 1)) {
    --from;
  } else if (from > 1 && moving(from - 2) && IsWordIn(sentence[from - 1], {"data", "it", "them"})) {
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(from - 2));
    --from;
    --to;
  }
}

// Where a copy goes, said with places rather than a kind: "from the computer's main memory onto the graphics cards",
// "copied back from the card to the computer", "coming back off it to the host". A place on the host's side
// (host, CPU, computer, its main or system memory, RAM) or a GPU said without a number, after "from"/"off" and
// "to"/"onto"/"into", is read as the copy kind the two ends make: from the host or to the host says the other end is
// a GPU. A GPU alone as the end ("sent onto the card") is a host-to-device copy only in a sentence about copies.
void ReadCopyPlaces(std::vector<Item>& sentence) {
  NumberedGpuAfterAKind(sentence);
  enum Place : uint8_t { kNowhere, kHost, kGpu };
  struct End {
    size_t from, to;  // items [from, to): the marker and its place
    bool source;      // "from", "off": where the copy starts
    Place place;
  };
  const auto word_at = [&](size_t k) { return k < sentence.size() ? Lower(sentence[k].word) : std::string(); };
  // The place named at k (after "the", "its", ...), and the item after it.
  const auto place_at = [&](size_t k, bool pronoun) -> std::pair<Place, size_t> {
    while (IsWordIn(sentence.size() > k ? sentence[k] : Item{}, {"the", "its", "their", "a", "his", "her", "our"})) ++k;
    if (k >= sentence.size()) return {kNowhere, k};
    const Item& it = sentence[k];
    if (it.Has(Slot::kDeviceNoun) && !(k + 1 < sentence.size() && sentence[k + 1].kind == Item::kNumber))
      return {kGpu, k + 1};
    if (pronoun && IsWordIn(it, {"it", "them"})) return {kGpu, k + 1};  // "back off it": the GPU said before
    if (IsWordIn(it, {"host", "cpu", "computer", "ram", "host memory", "system memory", "main memory", "cpu memory"})) {
      size_t end = k + 1;
      while (end < sentence.size() && IsWordIn(sentence[end], {"main", "system", "memory", "ram"})) ++end;
      return {kHost, end};
    }
    if (IsWordIn(it, {"main", "system"}) && word_at(k + 1) == "memory") return {kHost, k + 2};
    return {kNowhere, k};
  };
  std::vector<End> ends;
  for (size_t i = 0; i < sentence.size(); ++i) {
    const std::string w = word_at(i);
    const bool source = w == "from" || w == "off";
    if (!source && w != "to" && w != "onto" && w != "into") continue;
    const auto [place, after] = place_at(i + 1, w == "off");
    if (place == kNowhere) continue;
    const size_t from = i > 0 && word_at(i - 1) == "back" ? i - 1 : i;  // "back from the card": a way back
    ends.push_back({from, after, source, place});
    i = after - 1;
  }
  if (ends.empty()) return;
  const bool about_copies = std::any_of(sentence.begin(), sentence.end(), [](const Item& it) {
    return (it.Has(Slot::kEvents) && it.Value(Slot::kEvents) == static_cast<uint8_t>(EventKind::kMemcpy)) ||
           IsWordIn(it, {"data", "copied", "copying", "sent", "moved", "transferred", "uploaded", "bytes"});
  });
  // Each end, or a source then the destination right after it ("from X to Y"), names one copy kind.
  struct Kind {
    size_t from, to;
    std::string_view phrase;
  };
  std::vector<Kind> kinds;
  for (size_t k = 0; k < ends.size(); ++k) {
    const End& e = ends[k];
    const bool pair = e.source && k + 1 < ends.size() && !ends[k + 1].source && ends[k + 1].from <= e.to + 1;
    const Place source = e.source ? e.place : kNowhere;
    const Place target = pair ? ends[k + 1].place : e.source ? kNowhere : e.place;
    const size_t to = pair ? ends[k + 1].to : e.to;
    if (pair) ++k;
    std::string_view phrase;
    if (source == kHost && target != kHost) phrase = "host to device";
    if (target == kHost && source != kHost) phrase = "device to host";
    if (source == kGpu && target == kNowhere && IsWordIn(sentence[e.from], {"back", "off"})) phrase = "device to host";
    if (source == kNowhere && target == kGpu && about_copies) phrase = "host to device";
    if (!phrase.empty()) kinds.push_back({e.from, to, phrase});
  }
  for (auto k = kinds.rbegin(); k != kinds.rend(); ++k) {
    TakeTheMovingVerb(sentence, k->from, k->to);
    Item kind = LexItem(k->phrase, WordsOf(sentence, k->from, k->to));
    kind.paren = sentence[k->from].paren;
    sentence.erase(sentence.begin() + static_cast<std::ptrdiff_t>(k->from),
                   sentence.begin() + static_cast<std::ptrdiff_t>(k->to));
    sentence.insert(sentence.begin() + static_cast<std::ptrdiff_t>(k->from), std::move(kind));
  }
}

// Whether a sentence says "first", then "last", in words of its own or of a phrase ("between the first and the last
// thing the card did", "from first to last"): a span, which "that stretch" or "that window" after it is.
bool SaysFirstThenLast(const std::vector<Item>& s) {
  bool first = false;
  for (const Item& it : s) {
    const std::string w = Lower(it.word);
    const size_t at = w.find("first");
    if (at != std::string::npos) first = true;
    const size_t last = w.rfind("last");
    if (last != std::string::npos && (first && (at == std::string::npos || last > at))) return true;
  }
  return false;
}

// "Compare X with Y", "compare copy time on device 0 with device 1": "with" after "compare" and a side said between
// them is "versus".
void ComparedWith(std::vector<Item>& s) {
  bool compare = false, side = false;
  for (Item& it : s) {
    if (it.Has(Slot::kCompare)) {
      compare = true;
      side = false;
    } else if (compare && side && IsWordIn(it, {"with"})) {
      it = LexItem("versus", it.word);
      return;
    } else if (it.kind == Item::kName || it.Has(Slot::kEvents) || it.kind == Item::kNumber || it.Has(Slot::kCopyKind)) {
      side = true;
    }
  }
}

// "GPU is idle which percent of that time", "which bandwidth does it get": "which" before a measure asks its value,
// as "what" does; before a kind of events, a place or a range it asks which one.
void WhichOfAMeasureIsWhat(std::vector<Item>& s) {
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    const Item& next = s[k + 1];
    // A statistic's noun ("percent", "bandwidth"), not a time word, which may be a verb ("which took longer").
    const bool measure = next.kind == Item::kLex && next.Has(Slot::kMeasure) &&
                         std::all_of(next.entries.begin(), next.entries.end(), [](const lexicon::Entry& e) {
                           return e.slot == Slot::kMeasure || e.slot == Slot::kStop;
                         });
    if (measure && IsWordIn(s[k], {"which"})) s[k] = LexItem("what", s[k].word);
  }
}

// "how many times higher is X than Y", "how many times as much X did GPU 1 use as GPU 0": a ratio, which the margin
// line gives beside the difference, not a count. "As much ... as" compares as "more ... than" does.
void HowManyTimesIsARatio(std::vector<Item>& s) {
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    if (!IsWordIn(s[k], {"how many times"})) continue;
    const bool comparative = s[k + 1].Has(Slot::kMore) || s[k + 1].Has(Slot::kLess) ||
                             IsWordIn(s[k + 1], {"higher", "greater", "larger", "bigger", "longer", "lower", "smaller",
                                                 "shorter", "faster", "slower", "more", "less"});
    const bool as_much = k + 2 < s.size() && IsWordIn(s[k + 1], {"as"}) &&
                         IsWordIn(s[k + 2], {"much", "many", "long", "large", "big", "high", "fast", "slow"});
    if (!comparative && !as_much) continue;
    s[k] = LexItem("how many times more", s[k].word);
    if (!as_much) continue;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(k + 1), s.begin() + static_cast<std::ptrdiff_t>(k + 3));
    for (size_t j = k + 1; j < s.size() && s[j].kind != Item::kSeparator; ++j) {
      if (IsWordIn(s[j], {"as"})) {
        s[j] = LexItem("than", s[j].word);
        break;
      }
    }
  }
}

// "the ratio of A's average to that of B", "exceed those of B": after the word that compares ("than", "to" after a
// ratio), "that of" or "those of" stands for the same measure of the other side; it is read as the other side alone.
// "how much more than the other one" after a ranking of two asks the margin between them.
void TheOtherSideSaidShort(std::vector<Item>& s) {
  bool ratio = false;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k].kind == Item::kSeparator) ratio = false;
    if (IsWordIn(s[k], {"ratio", "what is the ratio"})) ratio = true;
    if (ratio && IsWordIn(s[k], {"to"}) && !s[k].Has(Slot::kVersus)) s[k] = LexItem("versus", s[k].word);
    const bool versus = s[k].Has(Slot::kVersus) || s[k].Has(Slot::kComparator);
    if (versus && k + 2 < s.size() && IsWordIn(s[k + 1], {"that", "those"}) &&
        IsWordIn(s[k + 2], {"of", "for", "in", "on"}))
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(k + 1), s.begin() + static_cast<std::ptrdiff_t>(k + 3));
    if (IsWordIn(s[k], {"than"}) && k + 2 < s.size() && IsWordIn(s[k + 1], {"the"}) &&
        IsWordIn(s[k + 2], {"other", "other one"})) {
      size_t end = k + 3;
      if (end < s.size() && (IsWordIn(s[end], {"one"}) || s[end].Has(Slot::kProcessNoun) ||
                             s[end].Has(Slot::kDeviceNoun) || s[end].Has(Slot::kStreamNoun)))
        ++end;
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(k + 1), s.begin() + static_cast<std::ptrdiff_t>(end));
      s[k] = LexItem("by how much", s[k].word + " the other");
    }
  }
}

// "by how much does X's total exceed Y's", "does A outweigh B": a verb of exceeding with no quantity after it, but
// events, a name, a place or "that of", compares as "larger than" does.
void ExceedingComparesTwo(std::vector<Item>& s) {
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    if (!IsWordIn(s[k], {"exceed", "exceeds", "exceeded", "exceeding"})) continue;
    size_t j = k + 1;
    bool that_of = false;
    while (j < s.size() && IsWordIn(s[j], {"the", "that", "those", "of", "its", "their"})) {
      that_of = that_of || IsWordIn(s[j], {"that", "those"});
      ++j;
    }
    // The other side named (not "the lighter one", which a ranking reads), or said as "that of".
    const bool side =
        j < s.size() && (s[j].kind == Item::kName || s[j].Has(Slot::kEvents) || s[j].Has(Slot::kCopyKind) ||
                         s[j].Has(Slot::kDeviceNoun) || s[j].Has(Slot::kProcessNoun) || s[j].Has(Slot::kStreamNoun));
    const bool said_short = that_of && j < s.size() && s[j].kind != Item::kNumber && s[j].kind != Item::kSeparator;
    if (!side && !said_short) continue;
    s[k] = LexItem("larger", s[k].word);
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(k + 1), LexItem("than", ""));
  }
}

// "how many kernels ran longer than 1 ms, and what share do those long ones take": an adjective of size or length
// between "those" and the events, after a bound said before it, is that bound's set again.
void TheBoundSaidAgain(std::vector<Item>& s) {
  bool bound = false;
  for (size_t k = 0; k + 2 < s.size(); ++k) {
    bound = bound || s[k].Has(Slot::kComparator);
    if (bound && IsWordIn(s[k], {"those", "these"}) &&
        IsWordIn(s[k + 1], {"long", "short", "big", "small", "large", "slow", "fast", "heavy", "tiny", "huge"}) &&
        (IsWordIn(s[k + 2], {"ones", "one"}) || s[k + 2].Has(Slot::kEvents)))
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(k + 1));
  }
}

// "Set the origin at the first kernel's start. Between 1 s and 2 s after that, ...": after an origin said in a
// sentence before, "after that", "after it", "from then on" count from it.
void AfterThatIsTheOrigin(std::vector<Item>& s) {
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    if (!IsWordIn(s[k], {"after", "from"}) || !IsWordIn(s[k + 1], {"that", "it", "this", "then", "there"})) continue;
    size_t end = k + 2;
    if (end < s.size() && IsWordIn(s[end], {"on", "point", "moment"})) ++end;
    s[k] = LexItem("after the first kernel", WordsOf(s, k, end));
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(k + 1), s.begin() + static_cast<std::ptrdiff_t>(end));
  }
}

// "after the session start", "since the capture began", "from the start of the run", "into the recording": the
// profile's own start, where every window counts from already. Read as no word.
void ProfileStartSaid(std::vector<Item>& s) {
  const auto noun = [&](size_t k) { return k < s.size() && lexicon::IsRecordingNoun(Lower(s[k].word)); };
  const auto start = [&](size_t k) {
    return k < s.size() && IsWordIn(s[k], {"start", "started", "starts", "began", "begins", "beginning", "begin"});
  };
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    if (!IsWordIn(s[i], {"after", "since", "from", "into", "of"})) continue;
    size_t k = i + 1 + (IsWordIn(s[i + 1], {"the", "this"}) ? 1 : 0);
    size_t end = 0;
    if (noun(k) && start(k + 1)) {
      end = k + 2;  // "after the session start"
    } else if (noun(k) && IsWordIn(s[i], {"into", "of"})) {
      end = k + 1;  // "6 s into the run"
    } else if (start(k) && k + 1 < s.size() && IsWordIn(s[k + 1], {"of"})) {
      const size_t n = k + 2 + (k + 2 < s.size() && IsWordIn(s[k + 2], {"the", "this"}) ? 1 : 0);
      if (noun(n)) end = n + 1;  // "from the start of the run"
    }
    if (end == 0 || i == 0 || !(s[i - 1].kind == Item::kNumber || IsTimeUnit(s[i - 1]))) continue;
    ReplaceItems(s, i, end, LexItem("the whole profile", WordsOf(s, i, end)));
  }
}

// "Starting the clock when the first X range ends", "start the clock at ...", "with t=0 at the end of ...": where a
// window counts from, said as starting a clock; read as "after" says it (ReadAnchors, ReadOrigin).
void ClockStartSaid(std::vector<Item>& s) {
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    size_t end = 0;
    if (IsWordIn(s[i], {"starting", "start", "started", "restarting"}) && IsWordIn(s[i + 1], {"the"}) &&
        i + 3 < s.size() && IsWordIn(s[i + 2], {"clock", "timer", "stopwatch"}) &&
        IsWordIn(s[i + 3], {"when", "at", "from", "as"}))
      end = i + 4;
    const bool zero = IsWordIn(s[i + 1], {"t=0", "t0", "t", "time"});
    if (IsWordIn(s[i], {"with", "taking", "setting", "putting", "take", "set", "put"}) && zero) {
      size_t k = i + 2;
      if (k < s.size() && (IsWordIn(s[k], {"=", "zero"}) || (s[k].kind == Item::kNumber && s[k].number == 0))) ++k;
      if (k < s.size() && IsWordIn(s[k], {"=", "0"})) ++k;
      if (k < s.size() && IsWordIn(s[k], {"at"})) end = k + 1;
    }
    if (end == 0) continue;
    ReplaceItems(s, i, end, LexItem("after", "after"));  // said as the marker it stands for
  }
}

// "from 6.0 s to 6.1 s", "Zoom into 6.0 s to 6.1 s", "6.0 to 6.1 s": a window said from one time to another, read as
// "between ... and ..." is. Not a bound on each event's length ("kernels lasting from 1 ms to 2 ms").
void WindowFromTo(std::vector<Item>& s) {
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    if (s[i].kind != Item::kNumber) continue;
    const size_t to = i + 1 + (IsTimeUnit(s[i + 1]) ? 1 : 0);
    if (to + 2 >= s.size() || !IsWordIn(s[to], {"to", "until", "till", "through"}) || s[to + 1].kind != Item::kNumber ||
        !IsTimeUnit(s[to + 2]))
      continue;
    const bool from = i > 0 && IsWordIn(s[i - 1], {"from"});
    bool length = to + 3 < s.size() && IsWordIn(s[to + 3], {"long"});
    for (size_t k = i >= 3 ? i - 3 : 0; k < i; ++k)
      length = length || IsWordIn(s[k], {"lasting", "lasted", "last", "took", "taking", "duration", "durations"});
    if (length) continue;
    s[to] = LexItem("and", s[to].word);
    if (from) {
      s[i - 1] = LexItem("between", s[i - 1].word);
    } else {
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(i), LexItem("between", "from"));
    }
    i = to + 2;
  }
}

// "between one kernel ending and the next starting", "from one sample kernel finishing to the next one starting": the
// gaps between events said as what they are. The words between "one" and the end word (a name, an events noun) stay;
// the rest becomes one item of the lexicon's "gaps", marked as the gaps the phrase defines (StatisticsOfTheGaps).
void GapsBetweenOneAndNext(std::vector<Item>& s) {
  const auto ends = [](const Item& it) {
    return IsWordIn(it, {"ending", "ends", "end", "finishing", "finishes", "finish", "finished", "completing"});
  };
  const auto starts = [](const Item& it) {
    return IsWordIn(it, {"starting", "starts", "start", "beginning", "begins", "begin", "launching"});
  };
  for (size_t i = 0; i + 6 < s.size(); ++i) {
    if (!IsWordIn(s[i], {"between", "from"}) || !IsWordIn(s[i + 1], {"one", "each"})) continue;
    size_t k = i + 2;
    while (k < s.size() && k <= i + 5 && !ends(s[k]) &&
           (s[k].kind == Item::kName || s[k].Has(Slot::kEvents) || s[k].Has(Slot::kStop)))
      ++k;
    if (k >= s.size() || !ends(s[k]) || k + 3 >= s.size() || !IsWordIn(s[k + 1], {"and", "to", "until", "till"}))
      continue;
    size_t n = k + 2;
    if (IsWordIn(s[n], {"the"})) ++n;
    if (n >= s.size() || !IsWordIn(s[n], {"next"})) continue;
    ++n;
    while (n < s.size() && n <= k + 6 && !starts(s[n]) &&
           (IsWordIn(s[n], {"one"}) || s[n].kind == Item::kName || s[n].Has(Slot::kEvents)))
      ++n;
    if (n >= s.size() || !starts(s[n])) continue;
    std::vector<Item> kept(s.begin() + static_cast<std::ptrdiff_t>(i + 2), s.begin() + static_cast<std::ptrdiff_t>(k));
    kept.erase(std::remove_if(kept.begin(), kept.end(), [](const Item& it) { return it.Has(Slot::kStop); }),
               kept.end());
    Item gaps = LexItem("gaps", WordsOf(s, i, n + 1));
    gaps.defines_gaps = true;
    kept.push_back(std::move(gaps));
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(i), s.begin() + static_cast<std::ptrdiff_t>(n + 1));
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(i), kept.begin(), kept.end());
  }
}

// "Did a kernel run longer than 5 ms?", "Was an NCCL kernel over 1 ms?", "Did a single copy move more than 1 GB?": an
// indefinite article opening the subject of a yes/no question asks whether any one of the events is so, as "any"
// does; "did the NCCL kernels take more than 5 ms" asks of their whole.
void AnArticleAsksOfAny(std::vector<Item>& s) {
  if (s.size() >= 3 && s[0].Has(Slot::kAuxiliary) && IsWordIn(s[1], {"a", "an"})) s[1] = LexItem("any", s[1].word);
}

// "the runtime calls which launched X", "kernels which ran longer than 1 ms": "which" right after the events it
// relates to, before a verb, joins a relative clause as "that" does; it asks nothing ("Of the kernels, which took
// longest?" and "kernels: which one ...?" are questions).
void WhichAfterItsNounRelates(std::vector<Item>& s) {
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (Lower(s[i].word) != "which" || !(s[i - 1].Has(Slot::kEvents) || s[i - 1].kind == Item::kName)) continue;
    const Item& next = s[i + 1];
    if (next.kind != Item::kUnknown && next.kind != Item::kLex) continue;
    if (next.Has(Slot::kEvents) || next.Has(Slot::kMeasure) || next.Has(Slot::kWeakTotal) ||
        IsWordIn(next, {"one", "ones", "of"}))
      continue;
    s[i] = LexItem("that", s[i].word);
  }
}

// "Of all the bytes moved by page migrations, what percentage went back device-to-host?", "Of those kernels, what
// fraction ran on stream 7?": the whole a share is of, said first, is read where it belongs, after the share word
// that opens the clause after it ("what percentage of all the bytes moved by page migrations went back ...").
void WholeSaidBeforeItsShare(std::vector<Item>& s) {
  if (s.size() < 5 || !IsWordIn(s[0], {"of", "out of"})) return;
  const auto comma = std::find_if(s.begin() + 1, s.end(), [](const Item& it) {
    return it.kind == Item::kSeparator || IsWordIn(it, {"what", "which", "how"});
  });
  if (comma == s.end() || comma - s.begin() < 2 || comma->kind != Item::kSeparator || comma->word != ",") return;
  // A whole said by a place or a name ("Of all the kernel time inside X, what percentage ... inside Y") is the base
  // of a share of places, read as it is said (SharesOfTheWhole).
  if (std::any_of(s.begin(), comma, [](const Item& it) { return it.Has(Slot::kInside) || it.kind == Item::kName; }))
    return;
  const size_t at = static_cast<size_t>(comma - s.begin());
  size_t share = at + 1;
  while (share < s.size() && share <= at + 3 && !s[share].Says(Measure::kShare)) ++share;
  if (share > at + 3 || share + 1 >= s.size() || IsWordIn(s[share + 1], {"of"}) ||
      s[share + 1].kind == Item::kSeparator)
    return;
  std::vector<Item> whole(std::make_move_iterator(s.begin()), std::make_move_iterator(comma));
  s.erase(s.begin(), comma + 1);
  share -= at + 1;
  s.insert(s.begin() + static_cast<std::ptrdiff_t>(share + 1), std::make_move_iterator(whole.begin()),
           std::make_move_iterator(whole.end()));
}

// The phrases of a sentence read before its clauses: spans and windows said in words, an origin, idle said as "no
// kernel", names in parentheses, and the explanations and definitions that are dropped (returned in `reading`).
// "(timeline measured from the session start)", "(timestamps from session start)", "(session start = 0)": a
// parenthesis that only says the times are on the capture's clock, from the session start, is that clock, one item of
// it. Any word other than those of a clock, or no session or capture start said, leaves it as written.
void ClockInParentheses(std::vector<Item>& sentence) {
  for (size_t i = 0; i < sentence.size();) {
    size_t end = i;
    while (end < sentence.size() && sentence[end].paren) ++end;
    if (end == i) {
      ++i;
      continue;
    }
    bool clock = false, start = false, only = true;
    for (size_t k = i; k < end && only; ++k) {
      const Item& it = sentence[k];
      clock = clock || it.Has(Slot::kCaptureClock) || IsWordIn(it, {"session", "capture"});
      start = start || it.Has(Slot::kCaptureClock) || IsStartWord(Lower(it.word)) || IsWordIn(it, {"zero", "0"});
      only =
          it.Has(Slot::kCaptureClock) || (it.kind == Item::kNumber && it.number == 0) ||
          IsWordIn(it, {"timeline", "timestamps", "timestamp", "times",    "time",    "measured", "counted", "counting",
                        "taken",    "from",       "since",     "the",      "session", "capture",  "start",   "starts",
                        "begin",    "beginning",  "zero",      "=",        "0",       "t",        "is",      "at",
                        "as",       "clock",      "on",        "relative", "to"});
    }
    if (!(clock && start && only)) {
      i = end;
      continue;
    }
    Item said = LexItem("on the capture clock", WordsOf(sentence, i, end));
    said.paren = false;
    ReplaceItems(sentence, i, end, std::move(said));
    ++i;
  }
}

// "the kernels with 'fft' in their name", "calls with Sync in the name": a part of names said as what the names hold,
// read as the part itself (the reading says "whose name contains").
void NamesWithAPart(std::vector<Item>& s) {
  for (size_t i = 0; i + 4 < s.size(); ++i) {
    // (In parentheses, such words say again which names are meant: DropNamesSaidAgain's.)
    if (s[i].paren || !IsWordIn(s[i], {"with", "having"}) || s[i + 1].kind != Item::kName ||
        !IsWordIn(s[i + 2], {"in"}) || !IsWordIn(s[i + 3], {"their", "the", "its"}) ||
        !IsWordIn(s[i + 4], {"name", "names"}))
      continue;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(i + 2), s.begin() + static_cast<std::ptrdiff_t>(i + 5));
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

// Whether items [from, to) only say again how every window and range of a Query takes events, by their start: "Count
// the copies that started in that window", "(kernels that start inside that window)", "(Kernels that started while
// the range was open.)". Events, a verb of starting, a word of place and the window or range pointed at; nothing
// else but words that join them. A rule that says otherwise ("clip copies at the window edges") is not this.
bool SaysTheWindowRuleAgain(const std::vector<Item>& s, size_t from, size_t to) {
  bool events = false, starts = false, place = false, window = false;
  for (size_t k = from; k < to; ++k) {
    const Item& it = s[k];
    const std::string w = Lower(it.word);
    if (it.Has(Slot::kEvents) || it.Has(Slot::kRangeNoun) || IsWordIn(it, {"ones", "those"})) {
      events = events || !place;  // "the range" after the place is the window's
      window = window || (place && it.Has(Slot::kRangeNoun));
    } else if (IsStartWord(w) || IsWordIn(it, {"began", "begun"})) {
      starts = true;
    } else if (IsWordIn(it, {"in", "inside", "within", "during", "while"}) || it.Has(Slot::kInside)) {
      place = true;
    } else if (IsWordIn(it, {"window", "interval", "second", "range", "span", "period", "stretch", "slice"})) {
      window = window || place;
    } else if (!(it.kind == Item::kSeparator ||
                 IsWordIn(it, {"count", "counting", "only", "include", "including", "consider", "considering",
                               "take",  "taking",   "the",  "a",       "that",      "which",    "this",
                               "its",   "were",     "was",  "is",      "are",       "open",     "opened",
                               "i.e.",  "i.e",      "ie",   "so",      "just",      "kernels",  "there"}))) {
      return false;
    }
  }
  return events && starts && place && window;
}

// The window rule said again (SaysTheWindowRuleAgain), in parentheses or as a sentence of its own, is dropped and
// returned: every Query takes events so.
std::vector<std::string> DropWindowRuleSaidAgain(std::vector<Item>& sentence) {
  if (!sentence.empty() && SaysTheWindowRuleAgain(sentence, 0, sentence.size())) {
    std::vector<std::string> said{WordsOf(sentence, 0, sentence.size())};
    sentence.clear();
    return said;
  }
  return DropParenthesesWhere(sentence,
                              [&](size_t from, size_t to) { return SaysTheWindowRuleAgain(sentence, from, to); });
}

void ReadPhrasesOfASentence(std::vector<Item>& sentence, const QueryVocabulary& vocabulary, bool& span_defined,
                            bool measured_before, Reading& reading) {
  for (std::string& d : DropRecordingPhrases(sentence, vocabulary)) reading.recording.push_back(std::move(d));
  WholeSaidBeforeItsShare(sentence);
  WhichAfterItsNounRelates(sentence);
  for (const Item& it : sentence) {
    if (!it.respelled.empty()) reading.respelled.push_back("'" + it.word + "' as '" + it.respelled + "'");
  }
  // A span defined in a sentence before, or said in this one ("between the first and last thing the card did").
  if (span_defined || SaysFirstThenLast(sentence)) WindowIsTheSpan(sentence);
  for (std::string& d : ReadSpanPhrase(sentence)) {
    reading.defined.push_back(std::move(d));
    span_defined = true;
  }
  GapsBetweenOneAndNext(sentence);
  AnArticleAsksOfAny(sentence);
  NamesWithAPart(sentence);
  ClockInParentheses(sentence);
  for (std::string& d : DropWindowRuleSaidAgain(sentence)) reading.defined.push_back(std::move(d));
  ReadWindowsAndMoments(sentence);
  WhichOfAMeasureIsWhat(sentence);
  HowManyTimesIsARatio(sentence);
  ExceedingComparesTwo(sentence);
  TheOtherSideSaidShort(sentence);
  TheBoundSaidAgain(sentence);
  ReadCopyPlaces(sentence);
  ComparedWith(sentence);
  if (auto why = DropMotivationHeading(sentence)) reading.context.push_back(std::move(*why));
  ShareOfASumSaidBefore(sentence, reading);
  ComparisonHeading(sentence);
  LibrariesBesideAWholeName(sentence);
  for (std::string& d : ReadDelayInWords(sentence)) reading.defined.push_back(std::move(d));
  MeanOfAMean(sentence);
  ReadNoWork(sentence);
  NamedInParentheses(sentence);
  for (std::string& d : DropExplainingParentheses(sentence)) reading.described.push_back(std::move(d));
  if (auto said = DropExplanation(sentence)) reading.unread.push_back(std::move(*said));
  for (std::string& d : DropDefinitions(sentence, measured_before)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropEquations(sentence, measured_before)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropNamesSaidAgain(sentence)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropKindsSaidAgain(sentence)) reading.described.push_back(std::move(d));
  for (std::string& d : DropExclusionsSaidAgain(sentence)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropQuantitiesAndRulesSaidAgain(sentence)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropLaunchingCallsInside(sentence)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropSpokenDefinitions(sentence, measured_before)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropRatioDefinitions(sentence, measured_before)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropUnionSaidInWords(sentence, measured_before)) reading.defined.push_back(std::move(d));
  for (std::string& d : DropUnionInParentheses(sentence)) reading.defined.push_back(std::move(d));
  StartAsAVerb(sentence);  // after the definitions, which read "starting" as they say it
}

// The unread words that are names, or parts of names, of the profile's events, with the kinds that hold them.
void NamesLeftUnread(const QueryVocabulary& v, Reading& reading) {
  for (const std::string& w : reading.unread) {
    if (w.empty() || w.find(' ') != std::string::npos) continue;
    const std::string lower = Lower(w);
    std::string kinds;
    for (const auto& [names, what] :
         {std::pair{&v.kernels, "kernels"}, {&v.api, "CUDA API calls"}, {&v.nvtx, "NVTX ranges"}}) {
      const bool held = std::any_of(names->begin(), names->end(),
                                    [&](const std::string& n) { return Lower(n).find(lower) != std::string::npos; });
      if (held) kinds += (kinds.empty() ? "" : " and ") + std::string(what);
    }
    if (!kinds.empty()) reading.unread_names.emplace_back(w, kinds);
  }
}

// The clauses that waited for a Query after them, built now with what the question said at last; each that still
// builds none is unread.
void LastChances(std::vector<std::pair<Clause, std::string>>& waiting, const Query* before, std::vector<Query>& queries,
                 Reading& reading) {
  for (auto& [w, words] : waiting) {
    w.last_chance = true;
    if (auto q = ToQueryNoting(w, queries.empty() ? before : &queries.back(), reading)) {
      queries.push_back(std::move(*q));
      continue;
    }
    reading.unread.push_back(words);
    reading.unbuilt = true;
  }
}

}  // namespace query_fill

Reading FillQueries(const std::string& question, const QueryVocabulary& vocabulary,
                    const std::vector<Query>& previous) {
  using namespace query_fill;  // this file's own helpers
  Reading reading;
  std::vector<Token> tokens = Tokenize(question, &reading.described);
  if (tokens.size() > kMaxQueryTokens) {
    reading.unread.push_back("(more than 200 words)");
    return reading;
  }
  std::vector<Query> queries;
  const Query* before = previous.empty() ? nullptr : &previous.back();  // a follow-up's silent slots come from it
  std::optional<Clause> context;
  Lent lent;
  std::vector<std::pair<Clause, std::string>> waiting;
  bool span_defined = false;
  const bool asks =
      std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.separator && t.text == "?"; });
  std::vector<std::vector<Item>> sentences = Sentences(Classify(tokens, vocabulary));
  ReadAcrossSentences(sentences);  // before the sentences are counted: it may spend one
  const size_t scene_until = asks ? 0 : SceneBeforeTheRequest(sentences);
  const bool gpu_work_defined = std::any_of(sentences.begin(), sentences.end(), DefinesGpuWork);
  bool origin_said = false;  // a sentence before set the first kernel's start as the origin
  for (size_t at = 0; at < sentences.size(); ++at) {
    std::vector<Item>& sentence = sentences[at];
    // With a question mark, every sentence that sets the scene; without, those SceneBeforeTheRequest counted.
    if (asks ? IsContextSentence(sentence) || TakeMotivation(sentences, at, reading) : at < scene_until) {
      context = ReadScene(std::move(sentence), reading);
      continue;
    }
    if (origin_said) AfterThatIsTheOrigin(sentence);
    ReadPhrasesOfASentence(sentence, vocabulary, span_defined, !queries.empty() || !waiting.empty(), reading);
    origin_said = origin_said || std::any_of(sentence.begin(), sentence.end(),
                                             [](const Item& it) { return it.Has(Slot::kFromFirstKernel); });
    bool first_clause = true;
    const std::vector<std::vector<Item>> parts = SplitClauses(std::move(sentence));
    std::vector<Clause> clauses = ReadClauses(parts);
    const size_t sentence_from = queries.size();
    std::vector<bool> placeless;  // per Query of this sentence: its clause said no place and widened nothing
    for (size_t k = 0; k < parts.size(); ++k) {
      const std::vector<Item>& items = parts[k];
      Clause c = std::move(clauses[k]);
      reading.unread.insert(reading.unread.end(), c.unread.begin(), c.unread.end());
      reading.not_held.insert(reading.not_held.end(), c.not_held.begin(), c.not_held.end());
      reading.described.insert(reading.described.end(), c.described.begin(), c.described.end());
      // Before the scene: a definition's kinds are no scene's events. "The GPU span" is of every GPU op too.
      // "what share of the GPU span is that": the GPU span is the share's base there, not its events.
      const bool span_is_the_base = SpanIsTheBase(c, true);
      if (gpu_work_defined || (c.gpu_span && !span_is_the_base)) ApplyGpuWorkDefined(c);
      SetTheScene(context, items, c, first_clause);
      if (auto defined = DefinesTheEventsBefore(items, c, queries)) {
        reading.defined.push_back(std::move(*defined));
        continue;
      }
      if (TakeScope(c, items, queries, lent, reading.unread) || AsksNothing(c)) continue;
      c.after_a_sentence = !queries.empty() && queries.size() == sentence_from;
      Clause kept = c;
      auto q = ToQueryNoting(c, queries.empty() ? before : &queries.back(), reading);
      if (!q) {
        waiting.emplace_back(std::move(kept), WordsOf(items));
        continue;
      }
      BuildWaiting(waiting, kept, *q, queries, reading);
      placeless.resize(queries.size() - sentence_from, false);
      placeless.push_back(SaysNoPlace(items, kept));
      queries.push_back(std::move(*q));
    }
    SharedTrailingPlace(queries, sentence_from, placeless);
    context.reset();
  }
  // "How many cudaLaunchKernel calls? Excluding ExC.": a sentence after the last question, never dropped as a scene
  // nothing followed.
  if (context) NarrowsTheQuestionBefore(*context, queries, reading.unread);
  LastChances(waiting, before, queries, reading);
  AskLentAgain(lent, before, queries, reading);
  reading.queries = Merge(std::move(queries));
  UnreadSharesOfASpan(reading);
  SharesOfTheWhole(reading);
  NamesLeftUnread(vocabulary, reading);
  return reading;
}

}  // namespace nsys::agent
