// Families of NVTX ranges a question names with a placeholder: "which of the layer_N_computation ranges takes the
// most time?", "do the ensure_layer_*_weights ranges put work on the GPU?". The said name becomes an RE2 pattern (a
// placeholder segment N, n, i, k, X, #, <n> or {i} matches digits, a * matches anything) that must match two or more
// of the profile's ranges; the answer ranks them and sums them.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ask_context.h"
#include "text_case.h"

namespace nsys::agent::ask_detail {

namespace {

bool IsPlaceholder(std::string_view segment) {
  static const std::set<std::string_view> kWords = {"n",   "N",   "i",   "k",   "K",   "x",    "X",    "#",
                                                    "<n>", "<N>", "{n}", "{N}", "<i>", "{i}",  "<k>",  "{k}",
                                                    "nn",  "NN",  "<#>", "{#}", "id",  "<id>", "{id}", "<num>"};
  return kWords.count(segment) > 0;
}

// The RE2 pattern of a said family name, or "" when it has no placeholder or no literal part of two letters or more.
std::string FamilyPattern(const std::string& said) {
  std::string pattern;
  bool placeholder = false, literal = false;
  size_t at = 0;
  while (at <= said.size()) {
    const size_t end = std::min(said.find('_', at), said.size());
    const std::string segment = said.substr(at, end - at);
    if (!pattern.empty()) pattern += "_";
    if (IsPlaceholder(segment)) {
      pattern += "[0-9]+";
      placeholder = true;
    } else if (segment.find('*') != std::string::npos) {
      size_t from = 0;
      for (size_t star = segment.find('*'); star != std::string::npos; star = segment.find('*', from)) {
        pattern += RE2::QuoteMeta(segment.substr(from, star - from)) + ".*";
        from = star + 1;
      }
      pattern += RE2::QuoteMeta(segment.substr(from));
      placeholder = true;
    } else {
      pattern += RE2::QuoteMeta(segment);
      literal = literal || segment.size() >= 2;
    }
    at = end + 1;
  }
  return placeholder && literal ? pattern : "";
}

// The words of the question that may name a family: runs of name characters with an underscore or a star.
std::vector<std::string> FamilyWords(const std::string& text) {
  std::vector<std::string> out;
  auto name_char = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || std::string_view("_*<>{}#:.-").find(ch) != std::string::npos;
  };
  for (size_t i = 0; i < text.size();) {
    if (!name_char(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && name_char(text[j])) ++j;
    std::string w = text.substr(i, j - i);
    while (!w.empty() && std::string_view(".:-").find(w.back()) != std::string::npos) w.pop_back();
    if (w.find('_') != std::string::npos || w.find('*') != std::string::npos) out.push_back(w);
    i = j;
  }
  return out;
}

// The measure a family is ranked by: a column of nvtx_summary and its words.
struct FamilyRanking {
  std::string_view column = "total_time_ns", noun = "total time";
  bool count = false, ascending = false;
};

FamilyRanking FamilyRankingOf(const std::string& q) {
  FamilyRanking r;
  if (HasAny(q, {"average", "avg", "mean", "per instance", "per call", "typical"})) {
    r.column = "avg_ns", r.noun = "average time";
  } else if (HasAny(q, {"longest single", "single longest", "longest instance", "longest one"})) {
    r.column = "max_ns", r.noun = "longest instance";
  } else if (HasAny(q, {"how many times", "most instances", "most often", "called the most", "most calls"})) {
    r.column = "instances", r.noun = "instances", r.count = true;
  }
  r.ascending = HasAny(q, {"least", "fewest", "smallest", "shortest", "quickest", "fastest", "lowest", "cheapest"});
  return r;
}

// "Do the ensure_layer_*_weights ranges put any work on the GPU?": the kernels launched inside the family's ranges
// (nsys's rule: on the range's own thread), with Yes or No when asked so.
std::string FamilyGpuWork(Ctx& c, const std::set<std::string>& names) {
  auto t = Usable(c, "nvtx_range_kernels");
  if (!t) return "";
  const auto mine = KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "name")) > 0; });
  const double kernels = SumColumn(mine, "kernels"), gpu_ns = SumColumn(mine, "gpu_ns");
  CiteRows(c, "nvtx_range_kernels", mine, {"name", "instances", "wall_ns", "kernels", "gpu_ns"},
           "The kernels launched inside each of the ranges" + c.scope);
  const std::string yes = AsksYesNo(c.p.lower) ? (kernels > 0 ? "Yes: " : "No: ") : "";
  return kernels > 0 ? fmt::format("{}{} kernels were launched inside them, {} of GPU time. ", yes,
                                   FormatCount(kernels), FormatNs(gpu_ns))
                     : fmt::format("{}no kernel was launched inside them (on their own threads, nsys's rule). ", yes);
}

}  // namespace

bool ResolveNvtxFamily(Ctx& c) {
  if (!c.profile.info().caps.nvtx || !c.nvtx_range.empty()) return false;
  std::vector<std::pair<std::string, std::string>> said;  // (as said, pattern)
  for (const std::string& w : FamilyWords(c.p.text)) {
    if (std::string pattern = FamilyPattern(w); !pattern.empty()) said.emplace_back(w, std::move(pattern));
  }
  if (said.empty()) return false;
  auto all = RunSkill(c, "nvtx_summary", {}, false);
  if (!all || all->declined) return false;
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  for (const auto& [word, pattern] : said) {
    const RE2 re(pattern, options);
    if (!re.ok()) continue;
    std::vector<std::string> ranges;
    for (size_t r = 0; r < all->rows.size(); ++r) {
      const std::string range = CellText(*all, r, "range");
      const bool match = RE2::FullMatch(range, re) || RE2::FullMatch(RangeNameTail(Lower(range)), re);
      if (match && std::find(ranges.begin(), ranges.end(), range) == ranges.end()) ranges.push_back(range);
    }
    if (ranges.size() >= 2) {
      c.nvtx_family = word;
      c.nvtx_family_ranges = std::move(ranges);
      return true;
    }
  }
  return false;
}

// The family's ranges from nvtx_summary, ranked by the measure asked, with their sums; the kernels inside them when
// the question asks about GPU work.
bool AnswerNvtxFamily(Ctx& c) {
  auto t = Usable(c, "nvtx_summary");
  if (!t) return false;
  const std::set<std::string> names(c.nvtx_family_ranges.begin(), c.nvtx_family_ranges.end());
  skills::Table mine = KeepRows(*t, [&](size_t r) { return names.count(CellText(*t, r, "range")) > 0; });
  if (mine.rows.empty()) return false;
  const FamilyRanking by = FamilyRankingOf(c.p.lower);
  if (!ColumnIndex(mine, by.column)) return false;
  std::vector<size_t> order(mine.rows.size());
  for (size_t r = 0; r < order.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double x = CellNumber(mine, a, by.column), y = CellNumber(mine, b, by.column);
    return by.ascending ? x < y : x > y;
  });
  auto rows = std::move(mine.rows);
  mine.rows.clear();
  for (size_t r : order) mine.rows.push_back(std::move(rows[r]));
  std::string s;
  if (c.profile.info().caps.kernels && HasAny(c.p.lower, {"kernel", "gpu", "on the device", "device work"}))
    s = FamilyGpuWork(c, names);
  const double instances = SumColumn(mine, "instances"), total_ns = SumColumn(mine, "total_time_ns");
  s += fmt::format("{} NVTX ranges match {}{}: {} instances, {} of wall time in all ({} per instance).",
                   mine.rows.size(), Ticked(c.nvtx_family), WhereOf(c), FormatCount(instances), FormatNs(total_ns),
                   FormatNs(instances > 0 ? total_ns / instances : 0));
  auto figure = [&](size_t r) {
    const double v = CellNumber(mine, r, by.column);
    return by.count ? FormatCount(v) : FormatNs(v);
  };
  s += fmt::format(" The {} {} is {}'s: {} over {} instances", by.ascending ? "smallest" : "largest", by.noun,
                   Ticked(CellText(mine, 0, "range")), figure(0), FormatCount(CellNumber(mine, 0, "instances")));
  for (size_t r = 1; r < mine.rows.size() && r < 4; ++r)
    s += fmt::format("{}{} {}", r == 1 ? "; then " : ", ", Ticked(CellText(mine, r, "range")), figure(r));
  s += ".";
  for (size_t r = 0; r < mine.rows.size(); ++r) c.turn.state.listed.push_back(CellText(mine, r, "range"));
  Say(c, std::move(s), "the NVTX table's rows of every range the name matches (range time is CPU wall time)");
  CiteRows(c, "nvtx_summary", KeepRows(mine, [](size_t r) { return r < 10; }),
           {"range", "instances", "total_time_ns", "avg_ns", "max_ns"}, "The ranges named " + c.nvtx_family + c.scope);
  return true;
}

}  // namespace nsys::agent::ask_detail
