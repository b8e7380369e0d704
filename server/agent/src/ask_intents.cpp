// Offline ask: the turn's steps (read the question, lean on the conversation, check the filter, resolve named
// kernels and NVTX ranges) and the table of intents that picks the handler.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ask_context.h"
#include "nsys/agent/query_answer.h"
#include "query_lexicon.h"
#include "text_case.h"

namespace nsys::agent {

using namespace ask_detail;

namespace ask_detail {

SkillCall CallOf(const Ctx& c, const std::string& skill, skills::Args args) {
  return SkillCall{skill, std::move(args), c.filter};
}

Expected<skills::Table> RunSkill(Ctx& c, const std::string& skill, skills::Args args, bool with_filter) {
  const engine::FilterSpec filter = with_filter ? c.filter : engine::FilterSpec{};
  auto table = c.run(skill, args, filter, c.cancel);
  if (with_filter) {
    auto& used = c.turn.skills_used;
    if (std::find(used.begin(), used.end(), skill) == used.end()) used.push_back(skill);
    c.turn.state.calls.push_back(SkillCall{skill, std::move(args), filter});
  }
  if (!table && !c.failure) c.failure = table.error();
  return table;
}

skills::Table KeepRows(const skills::Table& t, const std::function<bool(size_t)>& keep) {
  skills::Table out;
  out.columns = t.columns;
  out.notes = t.notes;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (keep(r)) out.rows.push_back(t.rows[r]);
  }
  return out;
}

double SumColumn(const skills::Table& t, std::string_view column) {
  double sum = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const double v = CellNumber(t, r, column);
    if (!std::isnan(v)) sum += v;
  }
  return sum;
}

std::vector<std::string> Alternatives(const Ctx& c) {
  const auto& caps = c.profile.info().caps;
  std::vector<std::string> out;
  if (caps.kernels) {
    out.push_back("Which kernels take the most GPU time?");
    out.push_back("Why is the GPU idle?");
  }
  if (caps.memcpy) out.push_back("How much time goes to memory copies?");
  if (caps.runtime) out.push_back("Which CUDA API calls take the most CPU time?");
  if (caps.nvtx) out.push_back("Which NVTX ranges take the most time?");
  if (out.empty()) out.push_back("What tables does this export hold? (skill schema_inspect)");
  return out;
}

Answer RefuseDeclined(const Ctx& c, const std::string& skill, const skills::Table& t) {
  Refusal r;
  r.reason = fmt::format("This profile cannot answer that: skill `{}` has no data here.", skill);
  for (const auto& n : t.notes) r.missing.push_back(n);
  if (r.missing.empty()) r.missing.push_back("the tables skill " + skill + " reads");
  r.alternatives = Alternatives(c);
  return Refuse(std::move(r));
}

// Ranges of a named NVTX domain or category are listed as "Domain:name" ("MPI:MPI_Init"): the name alone names them
// too. A C++ scope "a::b" is not such a prefix, and a tail under 3 characters names nothing.
// The prefix ends at the first lone colon: "tensorrt:executioncontext::execute" -> "executioncontext::execute".
std::string RangeNameTail(const std::string& lower) {
  for (size_t i = 1; i + 1 < lower.size(); ++i) {
    if (lower[i] != ':') continue;
    if (lower[i + 1] == ':') {
      ++i;  // a scope "::"
      continue;
    }
    if (lower[i - 1] == ':') continue;
    return lower.size() - i - 1 < 3 ? lower : lower.substr(i + 1);
  }
  return lower;
}

std::vector<std::string> KernelsWithShortName(const skills::Table& all, const std::string& lower_word) {
  std::vector<std::string> hit;
  for (size_t r = 0; r < all.rows.size(); ++r) {
    if (Lower(CellText(all, r, "short_name")) == lower_word) hit.push_back(CellText(all, r, "name"));
  }
  return hit;
}

}  // namespace ask_detail

namespace {

// A follow-up keeps what it does not restate: the topic, the kernel, the range and the filter parts it leaves out.
void LeanOnPrior(Ctx& c) {
  const ConversationState* prior = c.prior;
  if (!prior || prior->intent.empty()) return;
  const bool says_what = !c.p.topic.empty() || !c.p.skill.empty() || !c.p.idents.empty() || !c.p.quoted.empty();
  if (says_what && !c.p.follow_up) return;
  if (c.p.topic.empty()) c.p.topic = prior->topic;
  if (c.p.devices.empty()) c.filter.devices = prior->filter.devices;
  if (c.p.processes.empty()) c.filter.processes = prior->filter.processes;
  if (!c.p.window) c.filter.window = prior->filter.window;
  if (c.p.ordinal && *c.p.ordinal < prior->listed.size()) {
    const std::string& name = prior->listed[*c.p.ordinal];
    if (prior->topic == "nvtx")
      c.nvtx_range = name;
    else
      c.kernels = {name};
    c.kernel_query = name;
  } else if (c.kernels.empty() && !prior->kernel.empty()) {
    c.kernels = {prior->kernel};
    c.kernel_query = prior->kernel;
  }
  if (c.nvtx_range.empty()) c.nvtx_range = prior->nvtx_range;
  if (c.p.type == QType::kDescribe && !HasWord(c.p.lower, "why")) {
    c.turn.state.intent = prior->intent;
  }
}

std::string DeviceList(const engine::ProfileInfo& info) {
  std::string out;
  for (const auto& d : info.devices) out += (out.empty() ? "" : ", ") + std::to_string(d.id);
  return out.empty() ? "none" : out;
}

std::string ProcessList(const engine::ProfileInfo& info) {
  std::string out;
  for (const auto& p : info.processes) {
    out += (out.empty() ? "" : ", ") + std::to_string(p.pid) + (p.name.empty() ? "" : " (" + p.name + ")");
  }
  return out.empty() ? "none" : out;
}

// The question's devices, processes and window, checked against the profile. A refusal when one does not exist.
std::optional<Answer> BuildFilter(Ctx& c) {
  const auto& info = c.profile.info();
  if (!c.p.devices.empty()) c.filter.devices = c.p.devices;
  if (!c.p.processes.empty()) c.filter.processes = c.p.processes;
  for (int32_t d : c.filter.devices) {
    const bool known = std::any_of(info.devices.begin(), info.devices.end(), [&](const auto& x) { return x.id == d; });
    if (!known) {
      return Refuse({fmt::format("This profile has no device {}.", d),
                     {fmt::format("device {} (the profile's devices: {})", d, DeviceList(info))},
                     {fmt::format("Ask about one of the devices: {}.", DeviceList(info))}});
    }
  }
  for (uint32_t pid : c.filter.processes) {
    const bool known =
        std::any_of(info.processes.begin(), info.processes.end(), [&](const auto& x) { return x.pid == pid; });
    if (!known) {
      return Refuse({fmt::format("This profile has no process {}.", pid),
                     {fmt::format("process {} (the profile's processes: {})", pid, ProcessList(info))},
                     {"Ask about one of the processes: " + ProcessList(info) + "."}});
    }
  }
  if (c.p.window) {
    const double span_s = static_cast<double>(info.end_ns - info.start_ns) / 1e9;
    AskWindow w = *c.p.window;
    // Counted from the first kernel's start (of the kernel the word names whole, else of any): the window moves by
    // that start's offset into the profile, a cell of event_stats' row (first_start_ns).
    if (c.p.from_first_kernel && info.caps.kernels) {
      const auto first_start = [&](const std::string& name) -> std::optional<engine::Ns> {
        skills::Args args{{"events", Value(std::string("kernels"))}, {"detail", Value(false)}};
        if (!name.empty()) {
          args["name"] = Value(name);
          args["whole_name"] = Value(true);
        }
        auto t = RunSkill(c, "event_stats", args, false);
        if (!t || t->declined || t->rows.empty()) return std::nullopt;
        const double start = CellNumber(*t, 0, "first_start_ns");  // NaN when no kernel matched
        if (std::isnan(start)) return std::nullopt;
        return static_cast<engine::Ns>(start);
      };
      auto first = c.p.first_kernel_word.empty() ? std::nullopt : first_start(c.p.first_kernel_word);
      if (!first) first = first_start({});  // a word that names no kernel: the first of all
      if (first) {
        const double offset = static_cast<double>(*first - info.start_ns) / 1e9;
        w.start_s += offset;
        w.end_s = std::min(span_s, w.end_s + offset);
      }
    }
    if (w.end_s <= w.start_s || w.start_s >= span_s) {
      return Refuse(
          {fmt::format("The window \"{}\" lies outside this profile, which spans 0 to {:.3f} s.", w.text, span_s),
           {fmt::format("events between {:.3f} s and {:.3f} s from the profile start", w.start_s, w.end_s)},
           {fmt::format("Ask about a window inside 0 to {:.3f} s, e.g. \"in the first {:.3f} s\".", span_s,
                        span_s / 2)}});
    }
    c.filter.window.clock = WindowClock::kRelativeSeconds;
    // Whole ns: the window is shown (and typed back in verify commands) without binary fractions.
    c.filter.window.start = std::round(w.start_s * 1e9) / 1e9;
    c.filter.window.end = std::round(std::min(w.end_s, span_s) * 1e9) / 1e9;
  }
  return std::nullopt;
}

std::string ScopeText(const Ctx& c) {
  std::string s;
  const auto& f = c.filter;
  if (!f.devices.empty()) {
    s += " on device";
    for (size_t i = 0; i < f.devices.size(); ++i) s += (i ? ", " : " ") + std::to_string(f.devices[i]);
  }
  if (!f.processes.empty()) {
    s += " in process";
    for (size_t i = 0; i < f.processes.size(); ++i) s += (i ? ", " : " ") + std::to_string(f.processes[i]);
  }
  if (f.window.start || f.window.end) {
    s += fmt::format(" between {:.3f} s and {:.3f} s", f.window.start.value_or(0.0), f.window.end.value_or(0.0));
  }
  return s;
}

// Candidate words for a kernel name: quoted text, identifier-like words, then plain words that are not common.
std::vector<std::pair<std::string, bool>> KernelCandidates(const Parsed& p) {
  std::vector<std::pair<std::string, bool>> out;  // (lower-case text, strong: quoted or identifier-like)
  for (const auto& q : p.quoted) out.emplace_back(Lower(q), true);
  for (const auto& i : p.idents) out.emplace_back(Lower(i), true);
  for (const auto& w : p.words) {
    if (w.size() < 4 || IsCommonWord(w) || std::all_of(w.begin(), w.end(), ::isdigit)) continue;
    out.emplace_back(w, false);
    // A plural ("gemms", "convolutions") may name kernels by its singular.
    if (w.size() >= 5 && w.back() == 's' && w[w.size() - 2] != 's') out.emplace_back(w.substr(0, w.size() - 1), false);
  }
  // Context comes first and the question last ("This is nvFuser on an H200. What share goes to nvjet kernels?"): the
  // names the asking sentence says are tried first.
  const size_t end = p.lower.find_last_not_of(" ?!.");
  const size_t cut = end == std::string::npos ? std::string::npos : p.lower.find_last_of(".?!", end);
  if (cut != std::string::npos) {
    const std::string asking = p.lower.substr(cut + 1);
    std::stable_partition(out.begin(), out.end(),
                          [&](const auto& cand) { return asking.find(cand.first) != std::string::npos; });
  }
  // An identifier or a quoted name anywhere outranks a plain word ("What launch config did nvfuser_inner_... use?
  // Grid and block dims please.").
  std::stable_partition(out.begin(), out.end(), [](const auto& cand) { return cand.second; });
  // A library or framework name is context ("This is nvFuser on an H200"): tried last.
  std::stable_partition(out.begin(), out.end(), [](const auto& cand) { return !lexicon::IsLibraryName(cand.first); });
  return out;
}

bool IsSkillName(const Ctx& c, const std::string& lower) {
  return std::any_of(c.skills.begin(), c.skills.end(), [&](const SkillInfo& s) { return s.name == lower; });
}

bool IsProcessName(const Ctx& c, const std::string& lower) {
  const auto& ps = c.profile.info().processes;
  return std::any_of(ps.begin(), ps.end(), [&](const engine::Process& p) { return Lower(p.name) == lower; });
}

// Whether a plain word of the question starts a token of a kernel name: after a non-alphanumeric character or at a
// CamelCase step ("gemm" in "sm80_xmma_gemm", "cgemm" in "fermiCgemm"), so that "here" does not name "where_kernel".
bool StartsAToken(const std::string& name, const std::string& lname, const std::string& lower_word) {
  if (lower_word.empty()) return false;
  for (size_t at = lname.find(lower_word); at != std::string::npos; at = lname.find(lower_word, at + 1)) {
    if (at == 0) return true;
    const auto prev = static_cast<unsigned char>(name[at - 1]), here = static_cast<unsigned char>(name[at]);
    if (!std::isalnum(prev) || (std::isupper(here) && std::islower(prev)) || (std::isalpha(here) && std::isdigit(prev)))
      return true;
  }
  return false;
}

// The closest kernel names to what the question said: by substring first, then by edit distance of short names.
std::vector<std::string> ClosestKernels(const skills::Table& all, const std::string& query) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (size_t r = 0; r < all.rows.size(); ++r) {
    const std::string shortn = Lower(CellText(all, r, "short_name"));
    const std::string name = CellText(all, r, "name");
    size_t d = EditDistance(shortn.substr(0, 64), query.substr(0, 64));
    if (shortn.find(query.substr(0, std::min<size_t>(query.size(), 6))) != std::string::npos) d /= 2;
    scored.emplace_back(d, name);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [d, name] : scored) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    if (out.size() == 3) break;
  }
  return out;
}

// NVTX ranges the question names: quoted text or identifiers equal to a range, or a range's name in the text.
void ResolveNvtx(Ctx& c) {
  if (!c.profile.info().caps.nvtx || !c.nvtx_range.empty()) return;
  const bool worth = c.p.topic == "nvtx" || !c.p.quoted.empty() || !c.p.idents.empty();
  if (!worth) return;
  auto all = RunSkill(c, "nvtx_summary", {}, false);
  if (!all || all->declined) return;
  size_t best_len = 0;
  for (size_t r = 0; r < all->rows.size(); ++r) {
    const std::string range = CellText(*all, r, "range");
    const std::string lower = Lower(range);
    if (lower.size() < 3 || lower.size() <= best_len) continue;
    const std::string tail = RangeNameTail(lower);
    auto is_name = [&](const std::string& said) {
      const std::string l = Lower(said);
      return l == lower || l == tail;
    };
    const bool named = std::any_of(c.p.quoted.begin(), c.p.quoted.end(), is_name) ||
                       std::any_of(c.p.idents.begin(), c.p.idents.end(), is_name) ||
                       (c.p.topic == "nvtx" && (HasWord(c.p.lower, lower) || HasWord(c.p.lower, tail)));
    if (named) {
      c.nvtx_range = range;
      best_len = lower.size();
    }
  }
}

// Whether the words before `said`, back to the start of its clause, exclude it ("(not fusion_2)", "except A",
// "leaving out B").
bool ExcludedByClause(const std::string& lower, const std::string& said) {
  const size_t at = lower.find(said);
  if (at == std::string::npos) return false;
  const size_t clause = lower.find_last_of("(,.;?!", at);
  const std::string before =
      lower.substr(clause == std::string::npos ? 0 : clause + 1, at - (clause == std::string::npos ? 0 : clause + 1));
  for (std::string_view w : {"not", "except", "excluding", "exclude", "without", "ignoring", "besides"}) {
    if (HasWord(before, w)) return true;
  }
  return HasAny(before, {"other than", "leaving out", "leave out", "apart from", "aside from"});
}

// "nchwToNhwcKernel + nhwcToNchwKernel together", "the time of A and B": the other kernels the question names
// exactly by a strong candidate (quoted or identifier-like), added to the first (a comparison of two keeps its pair).
void AddOtherNamedKernels(Ctx& c, const skills::Table& all, const std::string& first) {
  if (c.p.type == QType::kMoreThan || c.p.type == QType::kCompare || HasWord(c.p.lower, "exactly")) return;
  std::vector<std::string> more;
  std::vector<std::string> queries = {first};
  for (const auto& [cand, strong] : KernelCandidates(c.p)) {
    if (!strong || cand == first || ExcludedByClause(c.p.lower, cand)) continue;
    bool named = false;
    for (size_t r = 0; r < all.rows.size(); ++r) {
      const std::string name = CellText(all, r, "name");
      if (Lower(name) != cand && Lower(CellText(all, r, "short_name")) != cand) continue;
      named = true;
      if (std::find(c.kernels.begin(), c.kernels.end(), name) == c.kernels.end() &&
          std::find(more.begin(), more.end(), name) == more.end())
        more.push_back(name);
    }
    if (named && std::find(queries.begin(), queries.end(), cand) == queries.end()) queries.push_back(cand);
  }
  if (more.empty()) return;
  c.kernels.insert(c.kernels.end(), more.begin(), more.end());
  c.kernel_query.clear();
  for (const auto& q : queries) c.kernel_query += (c.kernel_query.empty() ? "" : "' or '") + q;
}

// "the sample kernel", "`sample` kernels": a word right before "kernel" that is a kernel's whole short name names
// that kernel whatever the topic; the question is then about it (c.p.topic "kernels").
void KernelSaidAsAKernel(Ctx& c) {
  std::vector<std::string> words;
  const std::string& q = c.p.lower;
  for (size_t at = q.find("kernel"); at != std::string::npos; at = q.find("kernel", at + 1)) {
    size_t end = at;
    while (end > 0 && (q[end - 1] == ' ' || q[end - 1] == '`' || q[end - 1] == '\'' || q[end - 1] == '"')) --end;
    if (end == at || (at > 0 && q[at - 1] != ' ')) continue;  // "kernel" must be a word after a space
    size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(q[begin - 1])) || q[begin - 1] == '_')) --begin;
    const std::string w = q.substr(begin, end - begin);
    if (w.size() >= 3 && !IsCommonWord(w)) words.push_back(w);
  }
  if (words.empty()) return;
  auto all = RunSkill(c, "top_kernels", {}, false);
  if (!all || all->declined) return;
  for (const std::string& w : words) {
    std::vector<std::string> hit = KernelsWithShortName(*all, w);
    if (hit.empty()) continue;
    c.kernels = hit;
    c.kernel_query = w;
    c.p.topic = "kernels";
    return;
  }
}

// Kernels the question names (exact demangled or short name first, else a substring of the names). A strong
// candidate (quoted, identifier-like) that names no kernel, range or skill is an unknown kernel: a refusal with
// the closest names.
std::optional<Answer> ResolveKernels(Ctx& c) {
  if (!c.kernels.empty() || !c.profile.info().caps.kernels) return std::nullopt;
  // A communication question may name one NCCL kernel by an identifier ("the SendRecv kernel",
  // "ncclDevKernel_AllReduce_Sum_f32"): only such strong candidates are looked up, and an unknown one is no refusal.
  const bool nccl = c.p.topic == "nccl";
  if (c.p.topic != "" && c.p.topic != "kernels" && c.p.topic != "launch" && !nccl && c.p.type != QType::kMoreThan &&
      c.p.type != QType::kCompare && c.p.type != QType::kWhy) {
    // "our custom sample kernel fires once per step": the kernel, not the steps (a range's kernels stay the range's).
    if (c.p.topic != "nvtx") KernelSaidAsAKernel(c);
    return std::nullopt;
  }
  auto all = RunSkill(c, "top_kernels", {}, false);
  if (!all || all->declined) return std::nullopt;
  for (const auto& [cand, strong] : KernelCandidates(c.p)) {
    if (nccl && !strong) continue;
    const std::string range = Lower(c.nvtx_range);
    if (IsSkillName(c, cand) || range == cand || RangeNameTail(range) == cand || IsProcessName(c, cand)) continue;
    std::vector<std::string> exact, partial;
    for (size_t r = 0; r < all->rows.size(); ++r) {
      const std::string name = CellText(*all, r, "name");
      const std::string lname = Lower(name);
      if (lname == cand || Lower(CellText(*all, r, "short_name")) == cand)
        exact.push_back(name);
      else if (strong ? lname.find(cand) != std::string::npos : StartsAToken(name, lname, cand))
        partial.push_back(name);
    }
    auto& found = exact.empty() ? partial : exact;
    if (!found.empty()) {
      c.kernels = found;
      c.kernel_query = cand;
      AddOtherNamedKernels(c, *all, cand);
      return std::nullopt;
    }
    const bool says_kernel = HasWord(c.p.lower, "kernel") || c.p.topic.empty() || c.p.topic == "kernels";
    if (strong && says_kernel && !nccl && cand.find("cuda") != 0 && !lexicon::IsLibraryName(cand)) {
      std::string closest;
      for (const auto& n : ClosestKernels(*all, cand)) closest += (closest.empty() ? "" : ", ") + n;
      return Refuse({fmt::format("No kernel named '{}' in this profile; closest: {}.", cand, closest),
                     {fmt::format("a kernel whose name matches '{}'", cand)},
                     {"Which kernels take the most GPU time?", "Ask about one of: " + closest}});
    }
  }
  return std::nullopt;
}

Answer RefuseNoKernels(const Ctx& c) {
  Refusal r;
  r.reason = "This profile has no CUDA kernel data, so it cannot answer questions about kernels or GPU time.";
  r.missing = {"CUPTI kernel table (CUPTI_ACTIVITY_KIND_KERNEL): kernels were not traced"};
  r.alternatives = Alternatives(c);
  return Refuse(std::move(r));
}

void AnswerHelp(Ctx& c) {
  Answer a;
  std::string names;
  for (const auto& s : c.skills) names += (names.empty() ? "" : ", ") + s.name;
  a.summary =
      "I answer offline from this profile's skills: which kernels, memory copies, syncs, idle gaps, NCCL "
      "collectives, NVTX ranges or iterations take the time, how many and how much, why the GPU waits, "
      "and comparisons of devices or kernels.";
  a.recommendations = Alternatives(c);
  a.recommendations.push_back("Run any skill by name: " + names + ".");
  a.confidence = Confidence::kHigh;
  a.confidence_reason = "a description of what offline ask does, not a claim about the profile";
  c.turn.answer = std::move(a);
}

void RefuseUnrelated(Ctx& c) {
  Refusal r;
  r.alternatives = Alternatives(c);
  std::string closest;
  for (const auto& a : r.alternatives) closest += (closest.empty() ? "" : " ") + a;
  r.reason = "I can't answer that from this profile; the closest questions I can answer are: " + closest +
             " (the question names no kernel, CUDA API call, copy direction, device, process, NVTX range, skill or "
             "measured topic).";
  r.missing = {"a question about what the profile measured"};
  c.turn.answer = Refuse(std::move(r));
}

bool Is(const Ctx& c, std::string_view topic) {
  return c.p.topic == topic;
}

// The intents, in order: the first that applies answers. Each is one line: when, then which handler.
struct Intent {
  std::string_view name;
  bool (*applies)(const Ctx&);
  void (*answer)(Ctx&);
};

// Only what no Query is: a skill run by name, what ask can do, and a cause asked for (the Book's diagnosis). Every
// question for figures is the typed Query's (AskOfflineTurn); one it reads only in part is declined, never answered
// here by matching its phrases.
const Intent kIntents[] = {
    {"skill", [](const Ctx& c) { return !c.p.skill.empty(); }, AnswerSkill},
    {"help", [](const Ctx& c) { return Is(c, "help"); }, AnswerHelp},
    {"why", [](const Ctx& c) { return c.p.type == QType::kWhy; }, AnswerWhy},
    {"unrelated", [](const Ctx&) { return true; }, RefuseUnrelated},
};

const Intent* Pick(const Ctx& c) {
  if (!c.turn.state.intent.empty() && c.p.follow_up && c.p.type == QType::kDescribe) {
    for (const auto& i : kIntents) {
      if (i.name == c.turn.state.intent && i.name != "unrelated") return &i;
    }
  }
  for (const auto& i : kIntents) {
    if (i.applies(c)) return &i;
  }
  return nullptr;
}

void NameSkill(Ctx& c) {
  for (const auto& s : c.skills) {
    std::string spaced = s.name;
    std::replace(spaced.begin(), spaced.end(), '_', ' ');
    // A one-word skill name ("iterations", "mfu") is also a topic word: it names the skill only with "skill".
    const bool plain_word = s.name.find('_') == std::string::npos;
    if (plain_word && !HasWord(c.p.lower, "skill")) continue;
    if (HasWord(c.p.lower, s.name) || (!plain_word && HasWord(c.p.lower, spaced) && HasWord(c.p.lower, "skill"))) {
      if (s.name.size() > c.p.skill.size()) c.p.skill = s.name;
    }
  }
}

// The answer's last touches: verify from the main evidence, the state to keep.
void Finish(Ctx& c, std::string_view intent) {
  auto& a = c.turn.answer;
  if (!a.refusal && a.verify.empty() && !a.evidence.empty()) {
    a.verify =
        VerifyCommand(a.evidence.front().call,
                      c.profile.info().source_path.empty() ? c.profile.info().path : c.profile.info().source_path);
  }
  auto& s = c.turn.state;
  s.intent = std::string(intent);
  s.topic = c.p.topic.empty() && !c.kernels.empty() ? "kernels" : c.p.topic;
  s.filter = c.filter;
  s.kernel = c.kernels.size() == 1 ? c.kernels.front() : (c.prior ? c.prior->kernel : "");
  s.nvtx_range = c.nvtx_range;
  s.question = c.p.text;
}

bool IsDiagnosisWord(std::string_view word) {
  return lexicon::IsDiagnosisWord(Lower(word));
}

// A question for a cause or a remedy ("why is the GPU idle?", "what is the bottleneck?"): the Book's diagnosis answers
// it (ask_why), not a Query, whatever else of it the filler read.
bool AsksForADiagnosis(const Reading& reading) {
  return std::any_of(reading.unread.begin(), reading.unread.end(),
                     [](const std::string& w) { return IsDiagnosisWord(w); });
}

// The question without its sentences that ask for a diagnosis ("Why is the GPU underused? Give me its idle share.":
// "Give me its idle share."); "" when every sentence asks for one. Sentences end at '?', '!' or ". ".
std::string WithoutDiagnosisSentences(const std::string& question) {
  std::string rest;
  size_t from = 0;
  while (from < question.size()) {
    size_t end = from;
    while (end < question.size() && question[end] != '?' && question[end] != '!' &&
           !(question[end] == '.' && (end + 1 == question.size() || question[end + 1] == ' ')))
      ++end;
    const std::string sentence = question.substr(from, std::min(end + 1, question.size()) - from);
    bool diagnosis = false;
    for (size_t w = 0; w < sentence.size() && !diagnosis;) {
      while (w < sentence.size() && !std::isalpha(static_cast<unsigned char>(sentence[w]))) ++w;
      size_t e = w;
      while (e < sentence.size() && std::isalpha(static_cast<unsigned char>(sentence[e]))) ++e;
      diagnosis = e > w && IsDiagnosisWord(std::string_view(sentence).substr(w, e - w));
      w = e;
    }
    if (!diagnosis) rest += sentence;
    from = end + 1;
  }
  return rest.find_first_not_of(" \t\r\n") == std::string::npos ? std::string() : rest;
}

}  // namespace

namespace {

// The steps of a turn that asks no figure (a skill by name, help, a cause) in order, each a named function; a refusal
// may end the turn at any step.
AskTurn AskWithoutQuery(const std::string& question, const engine::Profile& profile,
                        const std::vector<SkillInfo>& skills, const SkillRunner& run, const ConversationState* prior,
                        const CancelToken& cancel) {
  Ctx c{ParseQuestion(question, profile.info()), profile, skills, run, prior, cancel};
  if (c.p.text.empty()) {
    c.turn.answer = Refuse({"The question is empty.", {"a question"}, Alternatives(c)});
    return c.turn;
  }
  NameSkill(c);
  LeanOnPrior(c);
  if (auto refusal = BuildFilter(c)) {
    c.turn.answer = std::move(*refusal);
    return c.turn;
  }
  c.scope = ScopeText(c);
  ResolveNvtx(c);
  if (auto refusal = ResolveKernels(c)) {
    c.turn.answer = std::move(*refusal);
    return c.turn;
  }
  const Intent* intent = Pick(c);
  c.turn.state.calls.clear();
  c.turn.skills_used.clear();
  intent->answer(c);
  if (c.failure && c.turn.answer.summary.empty()) {
    c.turn.answer = Refuse({"A skill failed: " + c.failure->message, {}, Alternatives(c)});
  }
  Finish(c, intent->name);
  return c.turn;
}

}  // namespace

// Long-ish: the order of a turn's readings (typed, declined, diagnosis, refusal), each a call, with why beside each.
AskTurn AskOfflineTurn(const std::string& question, const engine::Profile& profile,
                       const std::vector<SkillInfo>& skills, const SkillRunner& run, const ConversationState* prior,
                       const CancelToken& cancel) {
  // The typed reading first: when every word of the question is accounted for, the one executor answers it. A
  // follow-up continues the last turn's Queries ("and on device 1?", "what about the second one?").
  const Reading reading = FillQueries(question, VocabularyOf(profile, run, cancel, NameCandidates(question)),
                                      prior ? prior->queries : std::vector<Query>{});
  if (reading.complete()) {
    AskTurn turn = AnswerReading(reading, profile, run, cancel);
    turn.state.question = question;
    return turn;
  }
  const auto declined = [&] {
    AskTurn turn = DeclinePartialReading(reading, profile.info().caps);
    turn.state.question = question;
    return turn;
  };
  // A follow-up of a turn that asked no figure ("why?" after a diagnosis) continues that turn.
  const bool continues_diagnosis =
      prior && prior->queries.empty() && (prior->intent == "why" || prior->intent == "skill");
  // Read in part: declined, saying what was read and what was not; never answered by matching phrases, which on
  // questions nobody tuned to answered a part of the question, or another one, without saying so. A question for a
  // cause goes to the diagnosis; one that asks for what no Query measures (an L2 cache's hit rate, occupancy) is
  // declined, saying so. A question none of whose clauses made a Query, with a word written as a name the profile
  // does not have, goes on, to be told so with the closest names.
  const bool unbuilt = reading.unbuilt && NamesWrittenIn(reading.unread).empty();
  if ((!reading.queries.empty() || !reading.not_held.empty() || unbuilt) && !AsksForADiagnosis(reading) &&
      !continues_diagnosis)
    return declined();
  AskTurn turn = AskWithoutQuery(question, profile, skills, run, prior, cancel);
  // Neither a skill, help nor a cause: the words the reading could not place are said, when it placed any.
  if (turn.state.intent == "unrelated" && !continues_diagnosis && !reading.unread.empty()) return declined();
  // "Why is the GPU underused? Give me its idle share and the number of syncs.": the diagnosis, and then the parts
  // that ask for figures, when they read whole, answered by the executor rather than dropped.
  if (const std::string rest = WithoutDiagnosisSentences(question); !rest.empty() && rest != question) {
    const Reading asked = FillQueries(rest, VocabularyOf(profile, run, cancel, NameCandidates(rest)));
    if (asked.complete() && !turn.answer.refusal) {
      AskTurn typed = AnswerQueries(asked.queries, profile, run, cancel);
      turn.answer.summary += "\n\n" + typed.answer.summary;
      for (Evidence& e : typed.answer.evidence) turn.answer.evidence.push_back(std::move(e));
      for (std::string& s : typed.skills_used) {
        if (std::find(turn.skills_used.begin(), turn.skills_used.end(), s) == turn.skills_used.end())
          turn.skills_used.push_back(std::move(s));
      }
    }
  }
  return turn;
}

Answer AskOffline(const std::string& question, const engine::Profile& profile, const std::vector<SkillInfo>& skills,
                  const SkillRunner& run, const ConversationState* prior, const CancelToken& cancel) {
  return AskOfflineTurn(question, profile, skills, run, prior, cancel).answer;
}

}  // namespace nsys::agent
