// The offline filler: a question read into Queries with the lexicon (query_lexicon.cpp) and the profile's names.
//
// Steps: Tokenize (quoted names kept whole, "gpu0" and "100ms" split); Classify each position as the longest profile
// name, lexicon phrase, name fragment or number that starts there; SplitClauses where a new question starts ("and how
// many ...", ", the slowest ..."); ReadClause fills one Query's slots from the items of a clause; Inherit gives a
// clause without a subject or measures its predecessor's; Merge joins Queries that differ only in their measures. Words
// that no step accounts for are returned as unread: the caller answers only a complete reading.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nsys/agent/query.h"
#include "nsys/agent/query_answer.h"
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
};

bool IsDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
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

// "gpu0", "gpu:1", "cuda:0", "device#2", "top5", "100ms", "0.5s": a word and a number, split in two tokens.
void PushSplit(std::vector<Token>& out, const std::string& word) {
  const std::string lower = Lower(word);
  for (std::string_view head : {"gpu", "device", "cuda", "stream", "pid", "top", "rank"}) {
    if (lower.size() > head.size() && lower.compare(0, head.size(), head) == 0) {
      std::string rest = lower.substr(head.size());
      if (!rest.empty() && (rest[0] == ':' || rest[0] == '#' || rest[0] == '-')) rest.erase(0, 1);
      if (IsDigits(rest)) {
        out.push_back({std::string(head), std::string(head)});
        out.push_back({rest, rest});
        return;
      }
    }
  }
  for (std::string_view unit : {"ms", "us", "µs", "ns", "s"}) {
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

// Long-ish: one pass over the characters with the quote, separator and word cases side by side.
std::vector<Token> Tokenize(const std::string& question) {
  std::vector<Token> out;
  std::string word;
  const auto flush = [&] {
    while (!word.empty() && std::string_view(".:)(\"'").find(word.back()) != std::string_view::npos) word.pop_back();
    while (!word.empty() && std::string_view("(\"'").find(word.front()) != std::string_view::npos) word.erase(0, 1);
    if (word == "-" || word == "--" || word == "\u2014") {
      out.push_back({",", ",", false, true});  // "ampere_sgemm - how many times ...": a dash between parts
    } else if (!word.empty()) {
      PushSplit(out, word);
    }
    word.clear();
  };
  for (size_t i = 0; i < question.size(); ++i) {
    const char c = question[i];
    if ((c == '`' || c == '"' || (c == '\'' && (i == 0 || question[i - 1] == ' '))) && word.empty()) {
      const size_t close = question.find(c, i + 1);
      if (close != std::string::npos && close > i + 1) {
        const std::string inner = question.substr(i + 1, close - i - 1);
        out.push_back({inner, Lower(inner), true});
        i = close;
        continue;
      }
    }
    if (c == ',' || c == ';' || c == '?' || c == '!') {
      flush();
      out.push_back({std::string(1, c), std::string(1, c), false, true});
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
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
  std::string word;    // the words covered, as written
  bool exact = false;  // kName: the whole of a profile name, not a part of one
  bool Has(Slot s) const {
    return kind == kLex && std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.slot == s; });
  }
  uint8_t Value(Slot s) const {
    for (const auto& e : entries) {
      if (e.slot == s) return e.value;
    }
    return 0;
  }
};

// The vocabularies a word is the whole name of (exact) or a fragment of.
std::vector<NameClass> ClassesOf(const std::string& lower, const QueryVocabulary& v, bool exact) {
  std::vector<NameClass> out;
  const std::pair<const std::vector<std::string>*, NameClass> lists[] = {
      {&v.api, NameClass::kApi}, {&v.kernels, NameClass::kKernel}, {&v.nvtx, NameClass::kNvtx}};
  for (const auto& [names, cls] : lists) {
    const bool hit = std::any_of(names->begin(), names->end(), [&](const std::string& n) {
      return exact ? n.size() == lower.size() && ContainsNoCase(n, lower) : ContainsNoCase(n, lower);
    });
    if (hit) out.push_back(cls);
  }
  return out;
}

std::string Join(const std::vector<Token>& t, size_t from, size_t n, bool lower) {
  std::string out;
  for (size_t k = from; k < from + n; ++k) out += (k > from ? " " : "") + (lower ? t[k].lower : t[k].text);
  return out;
}

bool IsWordLike(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// The lexicon entries of a phrase, all of them (a phrase may fill two slots), from an index built once.
std::vector<lexicon::Entry> EntriesOf(std::string_view phrase) {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, std::vector<lexicon::Entry>>;
    for (const auto& e : lexicon::Entries()) (*m)[e.phrase].push_back(e);
    return m;
  }();
  const auto it = index->find(phrase);
  return it == index->end() ? std::vector<lexicon::Entry>{} : it->second;
}

// Long-ish: the four readings of a position (whole name, phrase, fragment, number) in their order of precedence.
std::vector<Item> Classify(const std::vector<Token>& t, const QueryVocabulary& v) {
  std::vector<Item> items;
  for (size_t i = 0; i < t.size();) {
    Item item;
    size_t used = 1;
    if (t[i].separator) {
      item.kind = Item::kSeparator;
    } else if (t[i].quoted) {
      item.kind = Item::kName;
      item.name = t[i].text;
      item.classes = ClassesOf(t[i].lower, v, true);
      item.exact = !item.classes.empty();
      if (!item.exact) item.classes = ClassesOf(t[i].lower, v, false);
    } else {
      // A whole profile name of up to four words, unless it is one lexicon word.
      for (size_t n = std::min<size_t>(4, t.size() - i); n >= 1 && item.kind == Item::kUnknown; --n) {
        const std::string lower = Join(t, i, n, true);
        if (n == 1 && (!EntriesOf(lower).empty() || lower.size() < 3)) continue;
        if (auto classes = ClassesOf(lower, v, true); !classes.empty() && IsWordLike(lower)) {
          item = Item{Item::kName, {}, Join(t, i, n, false), std::move(classes), 0, {}, true};
          used = n;
        }
      }
      for (size_t n = std::min<size_t>(4, t.size() - i); n >= 1 && item.kind == Item::kUnknown; --n) {
        if (auto entries = EntriesOf(Join(t, i, n, true)); !entries.empty()) {
          item = Item{Item::kLex, std::move(entries), {}, {}, 0, {}};
          used = n;
        }
      }
      if (item.kind == Item::kUnknown && IsNumber(t[i].lower)) {
        item.kind = Item::kNumber;
        item.number = std::strtod(t[i].lower.c_str(), nullptr);  // never throws; 1e400 digits read as inf
      } else if (item.kind == Item::kUnknown && t[i].lower.size() >= 3 && IsWordLike(t[i].lower)) {
        if (auto classes = ClassesOf(t[i].lower, v, false); !classes.empty()) {
          item = Item{Item::kName, {}, t[i].text, std::move(classes), 0, {}};
        }
      }
    }
    item.word = Join(t, i, used, false);
    items.push_back(std::move(item));
    i += used;
  }
  return items;
}

// Starts a new question: a measure, "which", "how", "what", or an auxiliary opening a yes/no question.
bool StartsQuestion(const Item& it) {
  if (it.kind != Item::kLex) return false;
  return it.Has(Slot::kMeasure) || it.Has(Slot::kWeakTotal) || it.Has(Slot::kWhich) || it.Has(Slot::kAuxiliary) ||
         Lower(it.word) == "how" || Lower(it.word) == "what" || Lower(it.word) == "whats";
}

// Clauses: split at a separator or "and"/"also" when a new question starts after it (skipping stop words).
std::vector<std::vector<Item>> SplitClauses(std::vector<Item> items) {
  // starts[i]: a new question starts at i or after the stop words from i on (one backward pass, so linear).
  std::vector<bool> starts(items.size() + 1, false);
  for (size_t i = items.size(); i-- > 0;) {
    starts[i] = StartsQuestion(items[i]) || (items[i].Has(Slot::kStop) && starts[i + 1]);
  }
  std::vector<std::vector<Item>> out(1);
  for (size_t i = 0; i < items.size(); ++i) {
    const bool sep = items[i].kind == Item::kSeparator || items[i].Has(Slot::kSplit);
    const bool next_starts = starts[i + 1];
    if (sep && (next_starts || (items[i].kind == Item::kSeparator && items[i].word != ","))) {
      if (!out.back().empty()) out.emplace_back();
      continue;
    }
    if (items[i].kind == Item::kSeparator) continue;
    out.back().push_back(std::move(items[i]));
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

// The slots one clause fills, before defaults and inheritance.
struct Clause {
  std::vector<Measure> measures;
  bool weak_total = false, weak_time = false;
  std::optional<EventKind> events, versus_events;
  bool range_noun = false;
  std::string copy_kind, versus_copy_kind;
  std::vector<std::pair<std::string, std::vector<NameClass>>> names, versus_names;
  std::string inside;
  std::vector<int32_t> devices, versus_devices;
  std::vector<uint32_t> pids, versus_pids;
  int32_t stream = -1;
  std::optional<GroupBy> group;
  Rank rank = Rank::kNone;
  int32_t limit = 0;
  bool which = false, versus = false, less = false, yes_no = false;
  bool gpu_time = false;                // "GPU time": a share is of every kernel, copy and memset
  bool plural = false;                  // "which kernels": a list, not one
  bool rank_by_count = false;           // "most kernels": ranked by how many
  bool rank_by_measure = false;         // "the slowest kernel": ranked by that statistic
  std::optional<GroupBy> count_groups;  // "how many GPUs": the number of groups
  std::optional<double> from_s, to_s;
  std::string api_class;           // "syncs", "allocations": a kind of CUDA call
  std::vector<std::string> exact;  // names said whole (a kernel's, a call's, a range's name, not a part of one)
  bool compare = false;            // "compare A and B"
  std::optional<size_t> number_before_noun;  // "the 3 kernels": a limit, when the clause ranks
  int64_t longer_than_ns = -1, shorter_than_ns = -1, larger_than_bytes = -1, smaller_than_bytes = -1;
  std::vector<std::string> unread;
};

// A bound on each event: [comparator] [than] NUMBER UNIT ("longer than 100 us", "over 5 ms", "larger than 1 MB").
// Marks the words it reads; they take no other slot.
void ReadBounds(const std::vector<Item>& items, Clause& c, std::vector<bool>& read) {
  for (size_t u = 1; u < items.size(); ++u) {
    if (!items[u].Has(Slot::kUnit) || items[u - 1].kind != Item::kNumber) continue;
    size_t k = u - 1;
    size_t than = items.size();
    if (k >= 1 && Lower(items[k - 1].word) == "than") than = --k;
    if (k < 1 || !items[k - 1].Has(Slot::kComparator)) continue;
    const size_t comparator = k - 1;
    const uint8_t unit = items[u].Value(Slot::kUnit);
    const double factor = unit == 1    ? 1e9
                          : unit == 2  ? 1e6
                          : unit == 3  ? 1e3
                          : unit == 4  ? 1
                          : unit == 11 ? 1
                          : unit == 12 ? 1e3
                          : unit == 13 ? 1e6
                                       : 1e9;
    const double v = items[u - 1].number * factor;
    if (!std::isfinite(v) || v < 0 || v > 1e18) continue;
    const bool up = items[comparator].Value(Slot::kComparator) == 1;
    int64_t& bound =
        unit < 10 ? (up ? c.longer_than_ns : c.shorter_than_ns) : (up ? c.larger_than_bytes : c.smaller_than_bytes);
    bound = static_cast<int64_t>(v);
    read[u] = read[u - 1] = read[comparator] = true;
    if (than < items.size()) read[than] = true;
  }
}

void AddMeasure(Clause& c, Measure m) {
  if (std::find(c.measures.begin(), c.measures.end(), m) == c.measures.end()) c.measures.push_back(m);
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

// The group noun within two items after "which"/"per" (adjectives and measures may come between).
std::optional<GroupBy> GroupAfter(const std::vector<Item>& items, size_t i) {
  for (size_t j = i + 1; j < items.size() && j <= i + 3; ++j) {
    // "by pid 12" names a process: a scope, not a grouping.
    if (IsGroupNoun(items[j]) && j + 1 < items.size() && items[j + 1].kind == Item::kNumber) return std::nullopt;
    if (IsGroupNoun(items[j])) return GroupOfNoun(items[j]);
    if (items[j].kind == Item::kName) continue;
  }
  return std::nullopt;
}

// "which kernels": the noun after "which" is plural (an English plural: it ends in s).
bool PluralAfter(const std::vector<Item>& items, size_t i) {
  for (size_t j = i + 1; j < items.size() && j <= i + 3; ++j) {
    if (IsGroupNoun(items[j])) {
      const std::string w = Lower(items[j].word);
      return !w.empty() && w.back() == 's' && w.size() > 3;
    }
  }
  return false;
}

// A number that is an id or a count: finite, whole, 0 to INT32_MAX; anything else is no id (never a cast out of range).
std::optional<int32_t> IdOf(double v) {
  if (!std::isfinite(v) || v < 0 || v > 2147483647.0 || v != std::floor(v)) return std::nullopt;
  return static_cast<int32_t>(v);
}

// Numbers after a device, process or stream noun ("gpu 0", "gpus 0 and 1"), into the side before or after "than".
void ReadIds(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
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
  for (double number : ids) {
    const std::optional<int32_t> id = IdOf(number);
    if (!id) {
      c.unread.push_back(std::to_string(number));  // "gpu 1.5" names no GPU: the reading is not complete
      continue;
    }
    if (items[i].Has(Slot::kDeviceNoun)) (c.versus ? c.versus_devices : c.devices).push_back(*id);
    if (items[i].Has(Slot::kProcessNoun)) (c.versus ? c.versus_pids : c.pids).push_back(static_cast<uint32_t>(*id));
    if (items[i].Has(Slot::kStreamNoun)) c.stream = *id;
  }
}

// A window: "first N s|ms", "between A and B s|ms"; marks what it reads.
void ReadWindow(const std::vector<Item>& items, size_t i, Clause& c, std::vector<bool>& read) {
  const auto unit_after = [&](size_t j) -> double {
    if (j + 1 < items.size() && items[j + 1].Has(Slot::kSeconds)) {
      read[j + 1] = true;
      return items[j + 1].Value(Slot::kSeconds) == 2 ? 1e-3 : 1.0;
    }
    return 0;
  };
  if (items[i].Has(Slot::kFirst) && i + 1 < items.size() && items[i + 1].kind == Item::kNumber) {
    if (const double scale = unit_after(i + 1); scale > 0) {
      read[i] = read[i + 1] = true;
      c.from_s = 0;
      c.to_s = items[i + 1].number * scale;
    }
  }
  if (items[i].Has(Slot::kBetween) && i + 3 < items.size() && items[i + 1].kind == Item::kNumber &&
      items[i + 2].Has(Slot::kSplit) && items[i + 3].kind == Item::kNumber) {
    double scale = unit_after(i + 3);
    if (scale == 0) scale = unit_after(i + 1);
    if (scale > 0) {
      read[i] = read[i + 1] = read[i + 2] = read[i + 3] = true;
      c.from_s = items[i + 1].number * scale;
      c.to_s = items[i + 3].number * scale;
    }
  }
}

// A word of quantity ("most", "fewer", value 1) before an events noun: the events are counted.
void ReadQuantity(const std::vector<Item>& items, size_t i, uint8_t quantity, Clause& c) {
  if (quantity != 1) return;
  if (const size_t j = NextSignificant(items, i); j < items.size() && items[j].Has(Slot::kEvents))
    c.rank_by_count = true;
}

// A measure, and what its neighbour makes of it: "how many GPUs" counts groups, "how many distinct kernels" counts
// names, "the slowest kernel" ranks kernels by it.
void ReadMeasure(const std::vector<Item>& items, size_t i, Measure m, Clause& c) {
  bool distinct = false;
  const size_t j = NextSignificant(items, i, &distinct);
  const bool noun = j < items.size();
  if (m == Measure::kCount && noun && IsGroupNoun(items[j]) && (!items[j].Has(Slot::kEvents) || distinct)) {
    c.count_groups = GroupOfNoun(items[j]);
    return;
  }
  if (m == Measure::kCount && noun && items[j].Has(Slot::kMeasure)) return;  // "how many bytes"
  if ((m == Measure::kMin || m == Measure::kMax) && IsSuperlative(items[i]) && noun &&
      (items[j].Has(Slot::kEvents) || items[j].Has(Slot::kRangeNoun)))
    c.rank_by_measure = true;
  AddMeasure(c, m);
}

// A name in a clause: the range the events are inside (after "inside", or an NVTX name beside another subject), or a
// subject on its side of "than".
void ReadName(const Item& it, bool inside_next, Clause& c) {
  if (it.exact) c.exact.push_back(it.name);
  if (c.versus) {  // "is 3D_backbone slower than find_centers": the other side, whatever it names
    c.versus_names.emplace_back(it.name, it.classes);
    return;
  }
  const bool nvtx = std::find(it.classes.begin(), it.classes.end(), NameClass::kNvtx) != it.classes.end();
  const bool nvtx_only = nvtx && it.classes.size() == 1;
  if ((inside_next || nvtx_only) && c.inside.empty() && nvtx &&
      (inside_next || c.events.has_value() || !c.names.empty())) {
    c.inside = it.name;
  } else {
    (c.versus ? c.versus_names : c.names).emplace_back(it.name, it.classes);
  }
}

// One lexicon entry at position i, read where it stands: a noun after "which", ids after a noun, a side of "than".
void ReadEntry(const std::vector<Item>& items, size_t i, const lexicon::Entry& e, Clause& c, std::vector<bool>& read) {
  switch (e.slot) {
    case Slot::kMeasure:
      ReadMeasure(items, i, static_cast<Measure>(e.value), c);
      break;
    case Slot::kWeakTotal:
      (e.value ? c.weak_time : c.weak_total) = true;
      c.gpu_time = c.gpu_time || e.value == 2;
      break;
    case Slot::kEvents:
      if (i > 0 && items[i - 1].kind == Item::kNumber && !read[i - 1]) c.number_before_noun = i - 1;
      if (c.versus && (c.events || !c.names.empty() || !c.copy_kind.empty())) {
        c.versus_events = static_cast<EventKind>(e.value);
      } else if (!c.events) {
        c.events = static_cast<EventKind>(e.value);
      }
      break;
    case Slot::kApiClass:
      c.api_class = lexicon::ApiClasses()[e.value];
      if (!c.events) c.events = EventKind::kApi;
      break;
    case Slot::kCompare:
      c.compare = true;
      break;
    case Slot::kRangeNoun:
      c.range_noun = true;
      break;
    case Slot::kCopyKind:
      (c.versus && !c.copy_kind.empty() ? c.versus_copy_kind : c.copy_kind) = lexicon::CopyKinds()[e.value];
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
      if (auto n = NumberAfter(items, i, read)) c.limit = std::min(IdOf(*n).value_or(101), 101);  // CheckQuery: <= 100
      ReadQuantity(items, i, e.value, c);
      break;
    case Slot::kWhich:
    case Slot::kPer:
      if (auto g = GroupAfter(items, i)) c.group = *g;
      c.which = c.which || e.slot == Slot::kWhich;
      c.plural = c.plural || (e.slot == Slot::kWhich && PluralAfter(items, i));
      break;
    case Slot::kVersus:
      c.versus = true;
      break;
    case Slot::kLess:
      c.less = !c.versus;
      ReadQuantity(items, i, e.value, c);
      break;
    case Slot::kAuxiliary:
      c.yes_no = c.yes_no || i == 0;
      break;
    case Slot::kFirst:
    case Slot::kBetween:
      ReadWindow(items, i, c, read);
      break;
    default:
      break;
  }
}

// One pass over a clause's items: names, then each lexicon entry; what nothing read is returned as unread.
Clause ReadClause(const std::vector<Item>& items) {
  Clause c;
  std::vector<bool> read(items.size(), false);
  ReadBounds(items, c, read);
  bool inside_next = false;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (read[i]) continue;  // a bound's words
    if (it.kind == Item::kName) {
      read[i] = true;
      ReadName(it, inside_next, c);
      inside_next = false;
      continue;
    }
    if (it.kind != Item::kLex) continue;
    read[i] = true;
    inside_next = it.Has(Slot::kInside) || (inside_next && it.Has(Slot::kStop));
    for (const auto& e : it.entries) ReadEntry(items, i, e, c, read);
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (c.number_before_noun == i && (c.rank != Rank::kNone || c.which)) {
      c.limit = std::min(IdOf(items[i].number).value_or(101), 101);
      continue;
    }
    if (!read[i] && (items[i].kind == Item::kUnknown || items[i].kind == Item::kNumber))
      c.unread.push_back(items[i].word);
  }
  return c;
}

// The events a name belongs to, given what the clause says.
std::optional<EventKind> EventsOfName(const std::vector<NameClass>& classes, std::optional<EventKind> said,
                                      bool range_noun) {
  const auto has = [&](NameClass k) { return std::find(classes.begin(), classes.end(), k) != classes.end(); };
  if (said == EventKind::kKernels && has(NameClass::kKernel)) return EventKind::kKernels;
  if (said == EventKind::kApi && has(NameClass::kApi)) return EventKind::kApi;
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

bool IsDurationStatistic(Measure m) {
  return m == Measure::kAverage || m == Measure::kMedian || m == Measure::kP90 || m == Measure::kP95 ||
         m == Measure::kP99 || m == Measure::kMin || m == Measure::kMax || m == Measure::kStddev;
}

// The measures a clause asks for, with the defaults: a time word alone is total time; "which" alone ranks by it.
void DefaultMeasures(Clause& c) {
  const bool only_counts = std::all_of(c.measures.begin(), c.measures.end(),
                                       [](Measure m) { return m == Measure::kCount || m == Measure::kBytes; });
  if (((c.weak_total && c.measures.empty()) || (c.weak_time && only_counts)) && !c.count_groups) {
    c.measures.insert(c.measures.begin() + (c.measures.empty() ? 0 : static_cast<std::ptrdiff_t>(c.measures.size())),
                      Measure::kTotal);
  }
  if (c.count_groups) {
    c.measures.insert(c.measures.begin(), Measure::kGroups);
    c.group = c.count_groups;
  }
  if (c.measures.empty() && c.rank_by_count && !c.weak_time) c.measures.push_back(Measure::kCount);
  if (c.measures.empty() && (c.which || c.rank != Rank::kNone || c.versus || c.compare))
    c.measures.push_back(Measure::kTotal);
  // "what percentage of the span is idle": the idle share; "busy share": the utilization.
  const auto has = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m) != c.measures.end(); };
  if (has(Measure::kShare) && has(Measure::kIdle)) {
    c.measures.erase(std::find(c.measures.begin(), c.measures.end(), Measure::kShare));
    std::replace(c.measures.begin(), c.measures.end(), Measure::kIdle, Measure::kIdleShare);
  }
  if (has(Measure::kShare) && has(Measure::kBusy)) {
    c.measures.erase(std::find(c.measures.begin(), c.measures.end(), Measure::kShare));
    std::replace(c.measures.begin(), c.measures.end(), Measure::kBusy, Measure::kUtilization);
  }
  // "the fastest kernel": named events ranked by their typical (mean) duration. Copies and memsets have no names:
  // "the longest copy" is the one longest copy.
  const bool named = !(c.events == EventKind::kMemcpy || c.events == EventKind::kMemset);
  if (c.rank_by_measure && c.rank == Rank::kNone && c.names.empty() && named) {
    c.rank = c.measures.front() == Measure::kMin ? Rank::kBottom : Rank::kTop;
    c.measures.front() = Measure::kAverage;
    if (!c.group) c.group = GroupBy::kName;
  }
  if (c.gpu_time) std::replace(c.measures.begin(), c.measures.end(), Measure::kShare, Measure::kGpuShare);
  // "the average size of a copy": the mean of the sizes, not of the durations.
  const auto at = [&](Measure m) { return std::find(c.measures.begin(), c.measures.end(), m); };
  if (at(Measure::kAverage) != c.measures.end() && at(Measure::kBytes) != c.measures.end() && !c.weak_time) {
    c.measures.erase(at(Measure::kAverage));
    *at(Measure::kBytes) = Measure::kAvgBytes;
  }
  // "which kernel is the slowest": rank by the statistic asked for.
  if (c.which && c.rank == Rank::kNone && !c.measures.empty()) c.rank = Rank::kTop;
  if (c.which && !c.measures.empty() && c.measures.front() == Measure::kMin) c.rank = Rank::kBottom;
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
    if (!events && !c.copy_kind.empty()) events = EventKind::kMemcpy;
    if (!events) return false;
    q.subject.events = *events;
    if (!c.names.empty()) q.subject.name = c.names.front().first;
    q.subject.whole_name =
        !c.names.empty() && std::find(c.exact.begin(), c.exact.end(), q.subject.name) != c.exact.end();
    q.subject.copy_kind = c.copy_kind;
    if (q.subject.events == EventKind::kApi) q.subject.api_class = c.api_class;
    if (c.names.size() > 1 && !c.versus) c.versus_names.push_back(c.names[1]);
    return true;
  }
  if (previous) return true;
  const bool gpu_measure =
      !c.measures.empty() && (c.measures.front() == Measure::kIdle || c.measures.front() == Measure::kBusy ||
                              c.measures.front() == Measure::kUtilization);
  if (c.devices.empty() && c.group != GroupBy::kDevice && !gpu_measure) return false;
  q.subject.events = EventKind::kKernels;  // a GPU's time is its kernels' (guides/analysis.md)
  return true;
}

// A clause with its own subject is a question of its own: its scope is what it says. One without a subject ("and on
// GPU 1?") keeps the previous scope and changes what it names.
void FillScope(const Clause& c, const Query* previous, bool own_subject, Query& q) {
  if (own_subject || !previous) q.scope = Scope{};
  if (!c.devices.empty()) q.scope.devices = c.devices;
  if (!c.pids.empty()) q.scope.pids = c.pids;
  if (!c.inside.empty()) q.scope.inside = c.inside;
  if (c.stream >= 0) q.scope.stream = c.stream;
  if (c.from_s) {
    q.scope.from_s = c.from_s;
    q.scope.to_s = c.to_s;
  }
  if (c.longer_than_ns >= 0) q.scope.longer_than_ns = c.longer_than_ns;
  if (c.shorter_than_ns >= 0) q.scope.shorter_than_ns = c.shorter_than_ns;
  if (c.larger_than_bytes >= 0) q.scope.larger_than_bytes = c.larger_than_bytes;
  if (c.smaller_than_bytes >= 0) q.scope.smaller_than_bytes = c.smaller_than_bytes;
}

void FillGrouping(const Clause& c, bool own_subject, Query& q) {
  if (own_subject) {
    q.group_by = GroupBy::kNone;
    q.rank = Rank::kNone;
    q.limit = 0;
  }
  if (c.group) q.group_by = *c.group;
  if (q.group_by == GroupBy::kRange && q.subject.events == EventKind::kNvtx) q.group_by = GroupBy::kName;
  // A GPU's idle, busy time and utilization are per GPU (guides/analysis.md): over several GPUs they are asked per GPU.
  const Measure first = q.measures.front();
  const bool gpu_measure = first == Measure::kIdle || first == Measure::kBusy || first == Measure::kUtilization;
  if (gpu_measure && q.scope.devices.size() != 1 && q.group_by == GroupBy::kNone && !c.versus)
    q.group_by = GroupBy::kDevice;
  if (c.rank != Rank::kNone || c.group) q.rank = c.rank;
  if (c.limit > 0) q.limit = c.limit;
  if (c.plural && c.limit == 0 && q.rank != Rank::kNone) q.limit = 5;  // "which kernels": the first five
  if (q.rank != Rank::kNone && q.group_by == GroupBy::kNone) q.group_by = GroupBy::kName;
  // "time in memory copies", "blocking syncs": a family of kinds is stated kind by kind, with its total.
  const bool family =
      q.subject.name.empty() && ((q.subject.events == EventKind::kMemcpy && q.subject.copy_kind.empty()) ||
                                 (q.subject.events == EventKind::kApi && !q.subject.api_class.empty()));
  if (family && q.group_by == GroupBy::kNone && !c.versus && !c.compare) q.group_by = GroupBy::kName;
}

// The other side of a comparison: another name, kind or copy kind, or another device or process.
void FillVersus(const Clause& c, Query& q) {
  if (!c.versus_names.empty()) {
    Subject v = q.subject;
    v.name = c.versus_names.front().first;
    v.whole_name = std::find(c.exact.begin(), c.exact.end(), v.name) != c.exact.end();
    // The other side is what its own name is ("the cuLaunchKernel call slower than the add_arrays_ kernel").
    if (auto e = EventsOfName(c.versus_names.front().second, c.versus_events, false)) v.events = *e;
    if (v.events != EventKind::kMemcpy) v.copy_kind.clear();
    q.versus_subject = v;
  } else if (c.versus_events || !c.versus_copy_kind.empty()) {
    Subject v = q.subject;
    if (c.versus_events) v = Subject{*c.versus_events, {}, {}, {}, false};
    if (!c.versus_copy_kind.empty()) v.copy_kind = c.versus_copy_kind;
    if (!(v == q.subject)) q.versus_subject = v;
  } else if (!c.versus_devices.empty() || !c.versus_pids.empty() ||
             (c.devices.size() == 2 && (c.versus || c.compare))) {
    Scope v = q.scope;
    if (c.devices.size() == 2 && c.versus_devices.empty()) {
      v.devices = {c.devices[1]};
      q.scope.devices = {c.devices[0]};
    }
    if (!c.versus_devices.empty()) v.devices = c.versus_devices;
    if (!c.versus_pids.empty()) v.pids = c.versus_pids;
    q.versus_scope = v;
  }
  if (q.versus_subject || q.versus_scope) {
    q.group_by = GroupBy::kNone;
    q.rank = Rank::kNone;
    if (c.yes_no) {
      q.form = Form::kYesNo;
      q.yes_if_less = c.less;
    }
  }
}

// A Clause made a Query, slot by slot, with what the previous Query of the question gives when it is silent.
std::optional<Query> ToQuery(Clause& c, const Query* previous) {
  DefaultMeasures(c);
  Query q;
  if (previous) {
    q = *previous;
    q.versus_subject.reset();
    q.versus_scope.reset();
    q.form = Form::kNumber;
    q.yes_if_less = false;
  }
  // "time inside the forward range" with nothing else named: the range itself is the subject.
  if (!c.inside.empty() && !c.events && c.names.empty()) {
    c.names.emplace_back(c.inside, std::vector<NameClass>{NameClass::kNvtx});
    c.inside.clear();
    c.range_noun = true;
  }
  const bool own_subject = c.events || !c.names.empty() || c.range_noun || !c.copy_kind.empty();
  if (!FillSubject(c, previous, own_subject, q)) return std::nullopt;
  if (!c.measures.empty()) q.measures = c.measures;
  if (q.measures.empty()) return std::nullopt;
  FillScope(c, previous, own_subject, q);
  FillGrouping(c, own_subject, q);
  FillVersus(c, q);
  return q;
}

// Queries that differ only in their measures become one.
std::vector<Query> Merge(std::vector<Query> queries) {
  std::vector<Query> out;
  for (Query& q : queries) {
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

// A clause that asks nothing and only says what or where ("on stream 16, how many ...", "cudaMalloc - how many calls
// ...") lends it to the clause after it.
bool OnlyScope(const Clause& c) {
  const bool asks = !c.measures.empty() || c.weak_total || c.weak_time || c.which || c.count_groups ||
                    c.rank != Rank::kNone || c.versus || c.compare;
  const bool says = !c.devices.empty() || !c.pids.empty() || c.stream >= 0 || !c.inside.empty() || c.from_s ||
                    !c.names.empty() || c.events || !c.copy_kind.empty() || !c.api_class.empty();
  return !asks && says;
}

void LendScope(const Clause& from, Clause& to) {
  if (to.names.empty()) to.names = from.names;
  to.exact.insert(to.exact.end(), from.exact.begin(), from.exact.end());
  if (!to.events) to.events = from.events;
  if (to.copy_kind.empty()) to.copy_kind = from.copy_kind;
  if (to.api_class.empty()) to.api_class = from.api_class;
  to.range_noun = to.range_noun || from.range_noun;
  if (to.devices.empty()) to.devices = from.devices;
  if (to.pids.empty()) to.pids = from.pids;
  if (to.stream < 0) to.stream = from.stream;
  if (to.inside.empty()) to.inside = from.inside;
  if (!to.from_s) {
    to.from_s = from.from_s;
    to.to_s = from.to_s;
  }
}

std::string WordsOf(const std::vector<Item>& items) {
  std::string words;
  for (const Item& it : items) words += (words.empty() ? "" : " ") + it.word;
  return words;
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
  for (const Token& t : tokens) {
    if (t.separator || IsNumber(t.lower)) continue;
    if (t.quoted || (t.lower.size() >= 3 && IsWordLike(t.lower) && EntriesOf(t.lower).empty())) out.push_back(t.lower);
  }
  return out;
}

Reading FillQueries(const std::string& question, const QueryVocabulary& vocabulary,
                    const std::vector<Query>& previous) {
  using namespace query_fill;  // this file's own helpers
  Reading reading;
  std::vector<Token> tokens = Tokenize(question);
  if (tokens.size() > kMaxQueryTokens) {
    reading.unread.push_back("(more than 200 words)");
    return reading;
  }
  std::vector<Query> queries;
  const Query* before = previous.empty() ? nullptr : &previous.back();  // a follow-up's silent slots come from it
  std::optional<Clause> lent;
  std::vector<std::pair<Clause, std::string>> waiting;
  for (const auto& items : SplitClauses(Classify(tokens, vocabulary))) {
    Clause c = ReadClause(items);
    reading.unread.insert(reading.unread.end(), c.unread.begin(), c.unread.end());
    if (OnlyScope(c)) {
      lent = c;
      continue;
    }
    if (lent) LendScope(*lent, c);
    const bool empty = c.measures.empty() && !c.weak_total && !c.weak_time && !c.events && c.names.empty() &&
                       c.devices.empty() && c.pids.empty() && !c.which && !c.range_noun && !c.count_groups &&
                       c.inside.empty() && c.stream < 0;
    if (empty) continue;
    Clause kept = c;
    auto q = ToQuery(c, queries.empty() ? before : &queries.back());
    if (!q) {
      waiting.emplace_back(std::move(kept), WordsOf(items));
      continue;
    }
    for (auto& [w, words] : waiting) {
      if (auto earlier = ToQuery(w, &*q))
        queries.push_back(std::move(*earlier));
      else
        reading.unread.push_back(words);
    }
    waiting.clear();
    queries.push_back(std::move(*q));
  }
  for (const auto& [w, words] : waiting) reading.unread.push_back(words);
  if (lent && queries.empty()) reading.unread.push_back("(a place with no question)");
  reading.queries = Merge(std::move(queries));
  return reading;
}

}  // namespace nsys::agent
