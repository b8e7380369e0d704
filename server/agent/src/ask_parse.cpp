// Reading a question: its type, its topic and what it names. Plain keyword and pattern rules, so the same question
// always maps to the same skills.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <set>

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

QType TypeOf(const std::string& q) {
  if (HasWord(q, "why") || HasAny(q, {"what causes", "root cause", "what is causing", "reason for"}))
    return QType::kWhy;
  static const std::regex more(
      R"(\b(is|are|was|does|do|did)\b.*\b(more|less|bigger|larger|greater|smaller|slower|faster|longer|shorter|higher|lower)\b.*\bthan\b)");
  if (std::regex_search(q, more)) return QType::kMoreThan;
  if (HasAny(q, {"compare", " vs ", " vs. ", "versus", "difference between", "differ"})) return QType::kCompare;
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
      {"sync",
       {"synchroniz", "sync ", "sync?", "syncs", "blocking call", "blocks the host", "cudastreamsync",
        "cudadevicesync"}},
      {"memcpy",
       {"memcpy", "memset", "copy", "copies", "transfer", "bytes", "htod", "dtoh", "host-to-device", "device-to-host",
        "host to device", "device to host", "bandwidth"}},
      {"streams", {"stream", "concurren"}},
      {"idle", {"idle", "gap", "starv", "bubble", "utiliz", "busy", "underused"}},
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
std::optional<AskWindow> WindowOf(const std::string& q, const engine::ProfileInfo& info) {
  static const std::string num = R"(([0-9]+(?:\.[0-9]+)?))";
  static const std::string unit = R"(\s*(ms|us|µs|ns|s|sec|secs|seconds?|milliseconds?|microseconds?)?\b)";
  static const std::regex between("(?:between|from)\\s+" + num + unit + "\\s+(?:and|to)\\s+" + num + unit);
  static const std::regex first("first\\s+" + num + unit);
  static const std::regex last("last\\s+" + num + unit);
  static const std::regex after("(?:after|since)\\s+" + num + unit);
  static const std::regex before("(?:before|until)\\s+" + num + unit);
  const double span_s = static_cast<double>(info.end_ns - info.start_ns) / 1e9;
  std::smatch m;
  if (std::regex_search(q, m, between)) {
    // "between 200 and 400 ms": the unit said once, at the end, applies to both.
    const std::string u2 = m[4].str();
    const std::string u1 = m[2].matched ? m[2].str() : u2;
    return AskWindow{ToSeconds(std::stod(m[1].str()), u1), ToSeconds(std::stod(m[3].str()), u2), m[0].str()};
  }
  if (std::regex_search(q, m, first)) return AskWindow{0, ToSeconds(std::stod(m[1].str()), m[2].str()), m[0].str()};
  if (std::regex_search(q, m, last)) {
    const double len = ToSeconds(std::stod(m[1].str()), m[2].str());
    return AskWindow{std::max(0.0, span_s - len), span_s, m[0].str()};
  }
  if (std::regex_search(q, m, after) && (m[2].matched))
    return AskWindow{ToSeconds(std::stod(m[1].str()), m[2].str()), span_s, m[0].str()};
  if (std::regex_search(q, m, before) && (m[2].matched))
    return AskWindow{0, ToSeconds(std::stod(m[1].str()), m[2].str()), m[0].str()};
  return std::nullopt;
}

void DevicesAndProcesses(const std::string& q, const engine::ProfileInfo& info, Parsed& p) {
  static const std::regex device(R"(\b(?:gpu|device|dev|cuda:|rank)\s*#?\s*([0-9]+)\b)");
  static const std::regex pid(R"(\b(?:pid|process)\s*#?\s*([0-9]+)\b)");
  for (auto it = std::sregex_iterator(q.begin(), q.end(), device); it != std::sregex_iterator(); ++it) {
    const auto d = static_cast<int32_t>(std::stol((*it)[1].str()));
    if (std::find(p.devices.begin(), p.devices.end(), d) == p.devices.end()) p.devices.push_back(d);
  }
  for (auto it = std::sregex_iterator(q.begin(), q.end(), pid); it != std::sregex_iterator(); ++it) {
    const auto v = static_cast<uint32_t>(std::stoul((*it)[1].str()));
    if (std::find(p.processes.begin(), p.processes.end(), v) == p.processes.end()) p.processes.push_back(v);
  }
  for (const auto& proc : info.processes) {
    const std::string name = Lower(proc.name);
    if (name.size() >= 3 && !IsCommonWord(name) && HasWord(q, name) &&
        std::find(p.processes.begin(), p.processes.end(), proc.pid) == p.processes.end()) {
      p.processes.push_back(proc.pid);
    }
  }
}

void QuotedAndIdents(const std::string& text, Parsed& p) {
  static const std::regex quoted(R"(["'`“”‘’]([^"'`“”‘’]{2,})["'`“”‘’])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted); it != std::sregex_iterator(); ++it) {
    p.quoted.push_back((*it)[1].str());
  }
  // Identifier-like: has '_' or "::" or mixes letters and digits, or CamelCase; at least 4 characters.
  static const std::regex ident(R"([A-Za-z_][A-Za-z0-9_:<>]*[A-Za-z0-9_>])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), ident); it != std::sregex_iterator(); ++it) {
    const std::string w = (*it)[0].str();
    if (w.size() < 4) continue;
    const bool has_sep = w.find('_') != std::string::npos || w.find("::") != std::string::npos;
    const bool has_digit = std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(c); });
    const bool camel = std::any_of(w.begin() + 1, w.end(), [](char c) { return std::isupper(c); }) &&
                       std::any_of(w.begin(), w.end(), [](char c) { return std::islower(c); });
    if (has_sep || has_digit || camel) p.idents.push_back(w);
  }
}

std::optional<size_t> OrdinalOf(const std::string& q) {
  static const std::pair<std::string_view, size_t> words[] = {{"first one", 0}, {"second", 1}, {"third", 2},
                                                              {"fourth", 3},    {"fifth", 4},  {"2nd", 1},
                                                              {"3rd", 2},       {"4th", 3},    {"5th", 4}};
  for (const auto& [w, i] : words) {
    if (q.find(w) != std::string::npos) return i;
  }
  static const std::regex number(R"((?:number|#|no\.)\s*([0-9]+))");
  std::smatch m;
  if (std::regex_search(q, m, number)) {
    const size_t n = std::stoul(m[1].str());
    if (n >= 1) return n - 1;
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

Parsed ParseQuestion(const std::string& question, const engine::ProfileInfo& info) {
  Parsed p;
  p.text = Trim(question);
  p.lower = Lower(p.text);
  p.type = TypeOf(p.lower);
  p.topic = TopicOf(p.lower);
  p.window = WindowOf(p.lower, info);
  DevicesAndProcesses(p.lower, info, p);
  QuotedAndIdents(p.text, p);
  p.ordinal = OrdinalOf(p.lower);
  static const std::regex top(R"(\btop\s*([0-9]+)\b)");
  std::smatch m;
  if (std::regex_search(p.lower, m, top)) p.top_n = std::stoul(m[1].str());
  static const std::regex word(R"([a-z0-9_]+)");
  for (auto it = std::sregex_iterator(p.lower.begin(), p.lower.end(), word); it != std::sregex_iterator(); ++it) {
    p.words.push_back((*it)[0].str());
  }
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
