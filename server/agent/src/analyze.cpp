#include "nsys/agent/analyze.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <variant>

#include "nsys/support/human_numbers.h"
#include "nsys/support/render_text.h"
#include "text_case.h"

namespace nsys::agent {

namespace {

constexpr size_t kEvidenceRows = 10;

// What every rule may read besides its row. The budget's figures are over every (process, device) span of the
// window, summed (as an expert reads a profile: shares of the summed spans); 0 when no GPU operation ran.
struct Globals {
  double window_ns = 0;
  double device_count = 0;
  double process_count = 0;
  double tensor_core_gpu = -1;
  double kernel_count = 0;  // kernel launches in the profile
  double span_ns = 0;       // the summed (process, device) spans
  double idle_ns = 0;       // their idle slices
  double idle_pct = 0;      // idle_ns / span_ns x 100
  double compute_pct = 0;   // compute kernels (every kernel slice but communication) / span_ns x 100

  // What shares of "the GPU time" are of: the summed (process, device) spans when GPU operations ran, else the window
  // on every recorded device.
  double GpuTime() const { return span_ns > 0 ? span_ns : window_ns * std::max(1.0, device_count); }

  std::optional<ExprValue> Get(const std::string& name) const {
    if (name == "window_ns") return window_ns;
    if (name == "device_count") return device_count;
    if (name == "process_count") return process_count;
    if (name == "tensor_core_gpu") return tensor_core_gpu;
    if (name == "kernel_count") return kernel_count;
    if (name == "span_ns") return span_ns;
    if (name == "idle_ns") return idle_ns;
    if (name == "idle_pct") return idle_pct;
    if (name == "compute_pct") return compute_pct;
    return std::nullopt;
  }
};

// A row's cells by column name, then the globals.
struct RowView {
  const skills::Table& table;
  const std::vector<Value>& row;
  const Globals& globals;
  bool saw_null = false;

  std::optional<ExprValue> Get(const std::string& name) {
    for (size_t i = 0; i < table.columns.size() && i < row.size(); ++i) {
      if (table.columns[i].name != name) continue;
      auto v = ToExprValue(row[i]);
      if (!v) saw_null = true;
      return v;
    }
    return globals.Get(name);
  }
};

struct Match {
  size_t row = 0;
  double at_stake = 0;
  double sort_key = 0;
};

// The outcome of one root cause: a finding, nothing, or why it could not be checked.
struct Outcome {
  std::optional<Finding> finding;
  std::optional<Unchecked> unchecked;
};

// The index of the column named `name`, or nullopt.
std::optional<size_t> ColumnNamed(const skills::Table& t, std::string_view name) {
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].name == name) return c;
  }
  return std::nullopt;
}

bool HasColumn(const skills::Table& t, const std::string& name) {
  return ColumnNamed(t, name).has_value();
}

// A column summed over the matching rows (for titles: "{sum_duration_ns:ms}"); 0 when the table has no such column.
double SumOf(const skills::Table& table, const std::vector<Match>& matches, const std::string& column) {
  const std::optional<size_t> at = ColumnNamed(table, column);
  if (!at) return 0;
  const size_t c = *at;
  double sum = 0;
  for (const auto& m : matches) {
    if (auto v = ToExprValue(table.rows[m.row][c]); v && std::holds_alternative<double>(*v))
      sum += std::get<double>(*v);
  }
  return sum;
}

// The matched rows' GPUs as a title names them: "the GPU" (the profile's only one), "GPU 0", "both GPUs", "all 4
// GPUs", "GPUs 0 and 2", "GPUs 0, 2 and 5", "5 of 8 GPUs". Empty when the skill's rows carry no device_id.
std::string GpusOf(const skills::Table& table, const std::vector<Match>& matches, size_t device_count) {
  const std::optional<size_t> c = ColumnNamed(table, "device_id");
  if (!c) return "";
  std::set<int64_t> ids;
  for (const auto& m : matches) {
    if (auto v = ToExprValue(table.rows[m.row][*c]); v && std::holds_alternative<double>(*v))
      ids.insert(static_cast<int64_t>(std::get<double>(*v)));
  }
  if (ids.empty()) return "";
  const size_t n = ids.size();
  if (n == 1) return device_count == 1 ? "the GPU" : fmt::format("GPU {}", *ids.begin());
  if (n == device_count) return n == 2 ? "both GPUs" : fmt::format("all {} GPUs", n);
  if (n > 3) return fmt::format("{} of {} GPUs", n, device_count);
  std::string out = "GPUs ";
  size_t i = 0;
  for (int64_t id : ids) {
    out += fmt::format("{}{}", i == 0 ? "" : (i + 1 == n ? " and " : ", "), id);
    ++i;
  }
  return out;
}

// A filled title is a sentence: its first word, when a plain lower-case word, gets a capital ("both GPUs are ..." ->
// "Both GPUs are ..."). A name it starts with keeps its spelling ("cuMemRelease", "ncclAllReduce", "sgemm_nn").
std::string Sentence(std::string text) {
  size_t end = 0;
  while (end < text.size() && ((text[end] >= 'a' && text[end] <= 'z') || text[end] == '-')) ++end;
  const bool plain_word = end > 0 && (end == text.size() || text[end] == ' ' || text[end] == ',' || text[end] == ':');
  if (plain_word) text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

Severity SeverityOf(double share) {
  if (share >= 0.10) return Severity::kHigh;
  if (share >= 0.03) return Severity::kMedium;
  return Severity::kLow;
}

Confidence ConfidenceOf(const std::string& name) {
  if (name == "high") return Confidence::kHigh;
  if (name == "low") return Confidence::kLow;
  return Confidence::kMedium;
}

// The most the whole run could gain if a finding's time went to zero: T / (T - R), with T the GPU time the shares are
// of and R the time at stake (issue 39's gain ceiling); said only when it is a real bound.
std::string GainCeiling(double share) {
  if (!(share > 0) || share >= 0.995) return "";
  return fmt::format("; without it the GPU work would be at most {:.2f}× faster", 1.0 / (1.0 - share));
}

// The rows the rule selects, with what each puts at stake. A row with a null cell the rule reads is skipped; a
// name that is neither a column nor a global is the rule's error.
Expected<std::vector<Match>> MatchRows(const RootCause& rc, const skills::Table& table, const Globals& globals) {
  std::vector<Match> matches;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    RowView view{table, table.rows[r], globals};
    auto lookup = [&view](const std::string& name) { return view.Get(name); };
    auto when = rc.when.EvaluateNumber(lookup);
    if (!when) {
      if (view.saw_null) continue;
      return when.error();
    }
    if (*when == 0) continue;
    auto stake = rc.at_stake.EvaluateNumber(lookup);
    if (!stake) {
      if (view.saw_null) continue;
      return stake.error();
    }
    Match m{r, std::max(0.0, *stake), std::max(0.0, *stake)};
    if (!rc.sort_by.empty()) {
      if (auto key = view.Get(rc.sort_by); key && std::holds_alternative<double>(*key))
        m.sort_key = std::get<double>(*key);
    }
    matches.push_back(m);
  }
  std::stable_sort(matches.begin(), matches.end(),
                   [](const Match& a, const Match& b) { return a.sort_key > b.sort_key; });
  return matches;
}

std::string CoverageOf(const skills::Table& table, const std::string& skill, const std::string& window,
                       size_t devices) {
  return fmt::format("{}; {} GPU{}; {} row{} of {} checked", window, devices, devices == 1 ? "" : "s",
                     table.rows.size(), table.rows.size() == 1 ? "" : "s", skill);
}

Finding MakeFinding(const RootCause& rc, const skills::Table& table, const std::vector<Match>& matches, double at_stake,
                    const Globals& g, const SkillCall& call, const std::string& profile_path,
                    const std::string& window) {
  const double denominator = std::max(1.0, g.GpuTime());
  const double share = at_stake / denominator;
  RowView top{table, table.rows[matches.front().row], g};
  const std::string gpus = GpusOf(table, matches, static_cast<size_t>(g.device_count));
  const bool one_gpu = gpus == "the GPU" || gpus.rfind("GPU ", 0) == 0;
  auto lookup = [&](const std::string& name) -> std::optional<ExprValue> {
    if (name == "matched") return static_cast<double>(matches.size());
    if ((name == "gpus" || name == "gpus_are") && !gpus.empty())
      return name == "gpus" ? gpus : gpus + (one_gpu ? " is" : " are");
    if (name.rfind("sum_", 0) == 0 && HasColumn(table, name.substr(4))) return SumOf(table, matches, name.substr(4));
    if (name == "at_stake") return at_stake;
    if (name == "share" && !HasColumn(table, "share")) return share;  // a row's own share column wins
    return top.Get(name);
  };
  Finding f;
  f.root_cause = rc.id;
  f.title = Sentence(FillTemplate(rc.title, lookup));
  f.severity = SeverityOf(share);
  f.at_stake_ns = static_cast<int64_t>(at_stake);
  f.skill = rc.skill;
  f.coverage = CoverageOf(table, rc.skill, window, static_cast<size_t>(g.device_count));
  Answer& a = f.answer;
  const std::string detail = rc.detail.empty() ? "" : Sentence(FillTemplate(rc.detail, lookup)) + ". ";
  a.summary = fmt::format("{}: {}. {}About {} is at stake ({:.1f}% of the GPU time{}). {}", rc.name,
                          support::MarkdownText(f.title), support::MarkdownText(detail),
                          support::HumanDuration(at_stake), share * 100, GainCeiling(share), rc.why);
  skills::Table matched;
  matched.columns = table.columns;
  for (size_t i = 0; i < matches.size() && i < kEvidenceRows; ++i) matched.rows.push_back(table.rows[matches[i].row]);
  std::string caption =
      fmt::format("{} matching row{} of {}", matches.size(), matches.size() == 1 ? "" : "s", rc.skill);
  if (matches.size() > kEvidenceRows) caption += fmt::format(" (the {} with the most at stake)", kEvidenceRows);
  a.evidence.push_back(EvidenceFrom(call, matched, rc.evidence_columns, 0, std::move(caption)));
  a.confidence = ConfidenceOf(rc.confidence);
  a.confidence_reason = rc.confidence_reason;
  a.hypotheses = rc.hypotheses;
  for (const auto& todo : rc.what_to_do) a.recommendations.push_back(FillTemplate(todo, lookup, support::MarkdownText));
  a.verify = VerifyCommand(call, profile_path);
  return f;
}

// The globals that no skill a rule reads also has as a column (span_ns and window_ns are columns of some): a part of a
// condition that reads only these means the same on every row (Book.EveryRuleReadsColumnsItsSkillReturns checks it).
bool ProfileWide(const std::string& name) {
  return name == "idle_pct" || name == "idle_ns" || name == "compute_pct" || name == "kernel_count" ||
         name == "device_count" || name == "process_count" || name == "tensor_core_gpu";
}

// A rule whose condition has a part that reads only profile-wide globals ("idle_pct >= 30") cannot fire while that
// part is false, whatever its skill's rows say: the skill is not run (on the copy-bound 2 GB export the MPI and
// start-up rules' NVTX and CUDA API summaries were 2.6 s of analyze).
bool CannotFire(const RootCause& rc, const Globals& g) {
  for (const Expr& part : rc.when.Conjuncts()) {
    const std::vector<std::string> names = part.Names();
    if (names.empty() || !std::all_of(names.begin(), names.end(), ProfileWide)) continue;
    auto holds = part.EvaluateNumber([&g](const std::string& n) { return g.Get(n); });
    if (holds && *holds == 0) return true;
  }
  return false;
}

// One root cause against its skill's result (run through the memo, so rules sharing a call cost one run).
Expected<Outcome> Check(const RootCause& rc, const engine::Profile& profile, const SkillRunner& run,
                        const AnalyzeOptions& options, const Globals& g, const std::string& window,
                        const CancelToken& cancel) {
  Outcome out;
  if (rc.applies_if) {
    auto applies = rc.applies_if->EvaluateNumber([&g](const std::string& n) { return g.Get(n); });
    if (!applies) return applies.error();
    if (*applies < 0) {
      out.unchecked = Unchecked{rc.id, rc.applies_unknown.empty() ? "what it needs is unknown" : rc.applies_unknown};
    }
    if (*applies <= 0) return out;
  }
  if (CannotFire(rc, g)) return out;
  SkillCall call{rc.skill, rc.args, {}};
  call.filter.window = options.window;
  auto table = run(rc.skill, rc.args, call.filter, cancel);
  if (!table) {
    if (table.error().kind == ErrorKind::kCancelled) return table.error();
    const std::string why =
        table.error().kind == ErrorKind::kNotFound ? "it is not available in this build" : table.error().message;
    out.unchecked = Unchecked{rc.id, fmt::format("skill {} could not run here: {}", rc.skill, why)};
    return out;
  }
  if (table->declined) {
    std::string why = table->notes.empty() ? "its data is absent" : table->notes.front();
    out.unchecked = Unchecked{rc.id, fmt::format("skill {} declined: {}", rc.skill, why)};
    return out;
  }
  for (const auto& column : rc.requires_columns) {
    if (!HasColumn(*table, column)) {
      out.unchecked =
          Unchecked{rc.id, rc.applies_unknown.empty()
                               ? fmt::format("skill {} does not report {} for this profile", rc.skill, column)
                               : rc.applies_unknown};
      return out;
    }
  }
  auto matches = MatchRows(rc, *table, g);
  if (!matches) return Error{ErrorKind::kInternal, "root cause " + rc.id + ": " + matches.error().message};
  if (matches->empty()) return out;
  double at_stake = 0;
  for (const auto& m : *matches) at_stake = rc.at_stake_once ? std::max(at_stake, m.at_stake) : at_stake + m.at_stake;
  if (at_stake < rc.min_share * g.GpuTime()) return out;
  out.finding = MakeFinding(rc, *table, *matches, at_stake, g, call, profile.info().source_path, window);
  return out;
}

// What the time budget says across the profile: the GPUs and processes with GPU activity, and the summed spans by
// slice (as an expert reads a profile: shares of the summed spans).
struct BudgetView {
  std::set<int64_t> devices, pids;
  int64_t spans_ns = 0;
  std::map<std::string, int64_t> by_slice;
  std::map<std::string, std::string> description;
  std::map<std::string, std::string> kind;
};

BudgetView ReadBudget(const skills::Table& t) {
  BudgetView v;
  auto col = [&](const char* name) {
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (t.columns[c].name == name) return c;
    }
    return t.columns.size();
  };
  const size_t pid = col("pid"), device = col("device_id"), slice = col("slice"), time = col("time_ns"),
               span = col("span_ns"), kind = col("kind"), description = col("description");
  if (t.declined || span == t.columns.size() || description == t.columns.size()) return v;
  std::set<std::pair<int64_t, int64_t>> counted;
  for (const auto& row : t.rows) {
    const int64_t p = std::get<int64_t>(row[pid]), d = std::get<int64_t>(row[device]);
    v.pids.insert(p);
    v.devices.insert(d);
    if (counted.insert({p, d}).second) v.spans_ns += std::get<int64_t>(row[span]);
    const std::string& name = std::get<std::string>(row[slice]);
    v.by_slice[name] += std::get<int64_t>(row[time]);
    v.description[name] = std::get<std::string>(row[description]);
    v.kind[name] = std::get<std::string>(row[kind]);
  }
  return v;
}

// The budget's slices gathered as an expert names them: compute kernels (every kernel slice but communication),
// communication, each kind of copy, memsets, and GPU idle (its largest host state said beside it).
struct BudgetGroup {
  std::string name;
  int64_t ns = 0;
  std::string detail;  // idle: "mostly while ...: 71.8%"
};

std::vector<BudgetGroup> GroupBudget(const BudgetView& v) {
  static const std::map<std::string, std::string> kGroupOf = {{"tensor_core_math", "compute kernels"},
                                                              {"cuda_core_math", "compute kernels"},
                                                              {"memory_bound", "compute kernels"},
                                                              {"other_kernels", "compute kernels"},
                                                              {"cuda_graphs", "CUDA graph executions"},
                                                              {"communication", "communication kernels"},
                                                              {"copy_htod", "HtoD copies"},
                                                              {"copy_dtoh", "DtoH copies"},
                                                              {"copy_dtod", "DtoD copies"},
                                                              {"copy_ptop", "peer-to-peer copies"},
                                                              {"copy_uvm_htod", "unified-memory HtoD migrations"},
                                                              {"copy_uvm_dtoh", "unified-memory DtoH migrations"},
                                                              {"copy_other", "other copies"},
                                                              {"memset", "memsets"}};
  static const std::map<std::string, std::string> kIdleState = {{"idle_sync", "in a synchronizing call"},
                                                                {"idle_alloc_free", "allocating or freeing"},
                                                                {"idle_launch", "launching"},
                                                                {"idle_other_cuda", "in another CUDA call"},
                                                                {"idle_no_cuda", "in no CUDA call"}};
  std::map<std::string, BudgetGroup> groups;
  std::pair<std::string, int64_t> top_idle{"", 0};
  for (const auto& [slice, ns] : v.by_slice) {
    const auto g = kGroupOf.find(slice);
    const std::string name = g != kGroupOf.end() ? g->second : "GPU idle";
    groups[name].name = name;
    groups[name].ns += ns;
    if (g == kGroupOf.end() && ns > top_idle.second) top_idle = {slice, ns};
  }
  std::vector<BudgetGroup> out;
  for (auto& [name, group] : groups) {
    if (name == "GPU idle" && !top_idle.first.empty() && v.spans_ns > 0) {
      const auto state = kIdleState.find(top_idle.first);
      group.detail = fmt::format("mostly while the host was {}: {:.1f}%",
                                 state != kIdleState.end() ? state->second : top_idle.first,
                                 100.0 * static_cast<double>(top_idle.second) / static_cast<double>(v.spans_ns));
    }
    out.push_back(group);
  }
  std::stable_sort(out.begin(), out.end(), [](const BudgetGroup& a, const BudgetGroup& b) { return a.ns > b.ns; });
  return out;
}

// The headline's lead: "GPU idle 73.1% of the GPU span (mostly while the host was in no CUDA call: 71.8%), then
// compute kernels 21.3%; also unified-memory HtoD migrations 3.3%." The dominant group, the next when it holds at
// least 20%, then up to two more of at least 1%.
std::string BudgetSentence(const BudgetView& v) {
  if (v.spans_ns <= 0 || v.by_slice.empty()) return {};
  const std::vector<BudgetGroup> groups = GroupBudget(v);
  auto pct = [&](const BudgetGroup& g) { return 100.0 * static_cast<double>(g.ns) / static_cast<double>(v.spans_ns); };
  auto said = [&](const BudgetGroup& g, std::string_view of = "") {
    return fmt::format("{} {:.1f}%{}{}", g.name, pct(g), of, g.detail.empty() ? "" : " (" + g.detail + ")");
  };
  std::string out = said(groups.front(), " of the GPU span");
  size_t next = 1;
  if (groups.size() > 1 && pct(groups[1]) >= 20.0) out += ", then " + said(groups[next++]);
  std::string also;
  for (size_t i = next; i < groups.size() && i < next + 2 && pct(groups[i]) >= 1.0; ++i) {
    also += (also.empty() ? "" : ", ") + said(groups[i]);
  }
  return out + (also.empty() ? "" : "; also " + also) + ".";
}

// "949.1 ms", "2.3 µs" under 0.1 ms, "1,842 s" from 100 s up.
std::string SpanText(int64_t ns) {
  return support::HumanDuration(static_cast<double>(ns));
}

// Orientation: where the GPU time goes first (the time budget), then what was profiled (the processes and GPUs that
// show GPU activity, beside what the export records), then the findings' headline.
// What the kernel time is, whatever dominates the span: the top kernels of top_kernels' rows by their share of all
// kernel time ("Most kernel time: flash_fwd_kernel 51.2%, ..."). Empty when the table has no such rows.
std::string KernelTimeSentence(const skills::Table& top) {
  const std::optional<size_t> pct = ColumnNamed(top, "time_pct"), name = ColumnNamed(top, "short_name");
  if (!pct || !name) return "";
  // A long name keeps its head and its tail (cuBLAS names differ at the end: "..._execute_split_k_kernel__5x_cublas");
  // names that would then read alike are given whole.
  const auto cut = [](const std::string& n) {
    return n.size() > 60 ? n.substr(0, 30) + "..." + n.substr(n.size() - 27) : n;
  };
  std::vector<std::pair<std::string, double>> listed;
  for (const auto& row : top.rows) {
    const auto share = ToExprValue(row[*pct]);
    const auto* label = std::get_if<std::string>(&row[*name]);
    if (share && std::holds_alternative<double>(*share) && label != nullptr)
      listed.emplace_back(*label, std::get<double>(*share));
  }
  std::string parts;
  for (const auto& entry : listed) {  // no structured binding: clang 14 cannot capture one in the lambda
    const std::string& label = entry.first;
    const bool alike = std::count_if(listed.begin(), listed.end(),
                                     [&](const auto& other) { return cut(other.first) == cut(label); }) > 1;
    parts += fmt::format("{}{} {:.1f}%", parts.empty() ? "" : ", ", alike ? label : cut(label), entry.second);
  }
  return parts.empty() ? "" : "Most kernel time: " + parts + ".";
}

std::string Orient(const engine::ProfileInfo& info, const Globals& g, const std::string& window,
                   const std::vector<Finding>& findings, const BudgetView& b, size_t host_pids,
                   const std::optional<std::string>& budget_error, const std::string& kernel_time) {
  std::map<std::string, int> models;
  for (const auto& d : info.devices) {
    if (!b.devices.empty() && !b.devices.count(d.id)) continue;
    models[d.name.empty() ? "unnamed GPU" : d.name] += 1;
  }
  std::string gpus;
  for (const auto& [name, n] : models) gpus += fmt::format("{}{} × {}", gpus.empty() ? "" : ", ", n, name);
  std::string out = BudgetSentence(b);
  if (!out.empty()) out += " ";
  if (b.devices.empty()) {
    // No GPU operation: the processes that made CUDA calls or NVTX ranges did the work, not the export's list.
    const std::string listed =
        host_pids != info.processes.size() ? fmt::format(" (the export lists {})", info.processes.size()) : "";
    out += fmt::format(
        "Analysed {} ({}): {} process{} with CUDA API or NVTX activity{}, on a machine with {} "
        "GPU{}{}.",
        support::HumanDuration(static_cast<double>(g.window_ns)), window, host_pids, host_pids == 1 ? "" : "es", listed,
        info.devices.size(), info.devices.size() == 1 ? "" : "s", gpus.empty() ? "" : " (" + gpus + ")");
  } else {
    const size_t procs = b.pids.size(), used = b.devices.size();
    const std::string machine = info.devices.size() > used
                                    ? fmt::format("{} of the machine's {} GPUs", used, info.devices.size())
                                    : fmt::format("{} GPU{}", used, used == 1 ? "" : "s");
    out += fmt::format("{} process{} on {}{}: {} of GPU span in a {} capture ({}).", procs, procs == 1 ? "" : "es",
                       machine, gpus.empty() ? "" : " (" + gpus + ")", SpanText(b.spans_ns),
                       support::HumanDuration(static_cast<double>(g.window_ns)), window);
  }
  if (budget_error) out += " " + *budget_error;
  if (!info.caps.kernels) out += " It has no CUDA kernel activity, so the GPU-side root causes cannot be checked.";
  if (!kernel_time.empty()) out += " " + kernel_time;
  if (findings.empty()) return out + " No root cause of the Book applies.";
  return out + fmt::format(" {} finding{}; the largest: {} (about {} at stake).", findings.size(),
                           findings.size() == 1 ? "" : "s", findings.front().title,
                           support::HumanDuration(static_cast<double>(findings.front().at_stake_ns)));
}

// The processes with CUDA API calls or NVTX events, for a profile with no GPU operation (0 when neither was traced).
size_t HostActivePids(const engine::Profile& profile, const CancelToken& cancel) {
  std::vector<std::string> parts;
  if (profile.info().caps.runtime) parts.push_back("SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME");
  if (profile.info().caps.nvtx) parts.push_back("SELECT globalTid FROM NVTX_EVENTS");
  if (parts.empty()) return 0;
  std::string sql = "SELECT count(DISTINCT (globalTid >> 24) & 16777215) FROM (";
  for (size_t i = 0; i < parts.size(); ++i) sql += (i ? " UNION ALL " : "") + parts[i];
  auto r = profile.Query(sql + ")", cancel);
  if (!r || r->rows.empty() || !std::holds_alternative<int64_t>(r->rows[0][0])) return 0;
  return static_cast<size_t>(std::get<int64_t>(r->rows[0][0]));
}

// The budget's dominant part as RootCause::addresses names them: compute, communication, copy or idle ("" when
// there is no budget).
std::string DominantPart(const BudgetView& v) {
  std::map<std::string, int64_t> parts;
  for (const auto& [slice, ns] : v.by_slice) {
    const std::string& kind = v.kind.at(slice);
    parts[kind == "kernel" ? (slice == "communication" ? "communication" : "compute") : kind] += ns;
  }
  std::string top;
  int64_t most = 0;
  for (const auto& [part, ns] : parts) {
    if (ns > most) most = ns, top = part;
  }
  return top;
}

// By time at stake, except that symptoms come after the causes of at least medium severity (RootCause::symptom),
// and that the largest such cause explaining the budget's dominant part (RootCause::addresses) leads: an expert
// starts from where most of the GPU's time goes.
void RankFindings(std::vector<Finding>& findings, const Book& book, const std::string& dominant) {
  std::set<std::string> symptoms;
  std::map<std::string, std::string> addresses;
  for (const auto& rc : book.root_causes) {
    if (rc.symptom) symptoms.insert(rc.id);
    addresses[rc.id] = rc.addresses;
  }
  auto matters = [&](const Finding& f) { return !symptoms.count(f.root_cause) && f.severity != Severity::kLow; };
  const bool a_cause_matters = std::any_of(findings.begin(), findings.end(), matters);
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    if (a_cause_matters) {
      const bool sa = symptoms.count(a.root_cause) > 0, sb = symptoms.count(b.root_cause) > 0;
      if (sa != sb) return sb;
    }
    return a.at_stake_ns > b.at_stake_ns;
  });
  if (dominant.empty()) return;
  const auto lead = std::find_if(findings.begin(), findings.end(), [&](const Finding& f) {
    const std::string& part = addresses[f.root_cause];
    return matters(f) && (part == dominant || part == "any");
  });
  if (lead != findings.end()) std::rotate(findings.begin(), lead, lead + 1);
}

// The budget's globals for the rules (see Globals).
void SetBudgetGlobals(const BudgetView& v, Globals& g) {
  g.span_ns = static_cast<double>(v.spans_ns);
  for (const auto& [slice, ns] : v.by_slice) {
    const std::string& kind = v.kind.at(slice);
    if (kind == "idle") g.idle_ns += static_cast<double>(ns);
    if (kind == "kernel" && slice != "communication") g.compute_pct += static_cast<double>(ns);
  }
  g.idle_pct = g.span_ns > 0 ? 100.0 * g.idle_ns / g.span_ns : 0;
  g.compute_pct = g.span_ns > 0 ? 100.0 * g.compute_pct / g.span_ns : 0;
}

}  // namespace

int TensorCoreGpuFromKernelNames(const engine::Profile& profile) {
  if (!profile.info().caps.kernels) return -1;
  const engine::KernelTable& k = profile.kernels();
  std::vector<bool> seen;
  for (size_t i = 0; i < k.size(); ++i) {
    const engine::StrId id = k.name[i];
    if (id >= seen.size()) seen.resize(static_cast<size_t>(id) + 1, false);
    if (seen[id]) continue;
    seen[id] = true;
    const std::string name = Lower(std::string(profile.strings().view(id)));
    for (const char* arch : {"volta_", "turing_", "ampere_", "hopper_", "blackwell_"}) {
      if (name.rfind(arch, 0) == 0) return 1;
    }
    // "sm70_", "sm80_xmma", "sm90_": the digits after "sm" at the start of a word.
    for (size_t at = name.find("sm"); at != std::string::npos; at = name.find("sm", at + 2)) {
      if (at > 0 && std::isalnum(static_cast<unsigned char>(name[at - 1]))) continue;
      size_t d = at + 2;
      if (d < name.size() && name[d] == '_') ++d;
      int version = 0, digits = 0;
      while (d < name.size() && std::isdigit(static_cast<unsigned char>(name[d])) && digits < 3) {
        version = version * 10 + (name[d++] - '0');
        ++digits;
      }
      if (digits >= 2 && (d == name.size() || name[d] == '_') && version >= 70 && version < 200) return 1;
    }
  }
  return -1;
}

int TensorCoreGpu(const engine::ProfileInfo& info) {
  if (info.devices.empty()) return -1;
  // Volta (V100, GV100), Turing (T4, RTX 20xx, TITAN RTX, TU1xx), Ampere, Ada, Hopper, Blackwell and later.
  static const char* const kWith[] = {"v100", "gv1", "t4",  "rtx",  "tu1",  "a100", "a10", "a30",
                                      "a40",  "a16", "a2",  "ga1",  "l4",   "l40",  "ad1", "h100",
                                      "h200", "h20", "gh1", "b100", "b200", "gb1",  "gb2", "titan v"};
  static const char* const kWithout[] = {"p100", "gp1", "k80", "gk1", "m40", "m60", "gm2", "gtx", "titan x"};
  int result = 1;
  for (const auto& d : info.devices) {
    const std::string id = Lower(d.name + " " + d.chip);
    if (d.name.empty() && d.chip.empty()) return -1;
    const auto has = [&id](const char* key) { return id.find(key) != std::string::npos; };
    if (std::any_of(std::begin(kWithout), std::end(kWithout), has)) return 0;
    if (!std::any_of(std::begin(kWith), std::end(kWith), has)) result = -1;
  }
  return result;
}

Expected<Analysis> Analyze(const engine::Profile& profile, const SkillRunner& run, const AnalyzeOptions& options,
                           const FindingSink& on_finding, const CancelToken& cancel, const ProgressSink& progress,
                           const Book& book) {
  const auto& info = profile.info();
  auto window = engine::ResolveWindow(info, options.window);
  if (!window) return window.error();
  Globals g;
  g.window_ns = static_cast<double>(window->end - window->begin);
  g.device_count = static_cast<double>(info.devices.size());
  g.process_count = static_cast<double>(info.processes.size());
  g.tensor_core_gpu = TensorCoreGpu(info);
  if (g.tensor_core_gpu < 0) g.tensor_core_gpu = TensorCoreGpuFromKernelNames(profile);
  if (info.caps.kernels) g.kernel_count = static_cast<double>(profile.kernels().size());
  // The time budget first: the headline and the budget globals come from it (the Book's budget causes then read the
  // same call from the memo).
  engine::FilterSpec budget_filter;
  budget_filter.window = options.window;
  auto budget = run("time_budget", {}, budget_filter, cancel);
  if (!budget && budget.error().kind == ErrorKind::kCancelled) return budget.error();
  const BudgetView view = budget ? ReadBudget(*budget) : BudgetView{};
  SetBudgetGlobals(view, g);
  Analysis analysis;
  analysis.window = window->description;
  // A budget that failed (its time limit on a loaded machine, say) is said, not silently left out of the headline.
  if (!budget) analysis.unchecked.push_back({"time_budget", "The time budget failed: " + budget.error().message});
  const size_t n = book.root_causes.size();
  for (size_t i = 0; i < n; ++i) {
    const RootCause& rc = book.root_causes[i];
    if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "analyze was cancelled");
    if (progress) progress(100.0 * static_cast<double>(i) / static_cast<double>(n), "Checking " + rc.name);
    auto outcome = Check(rc, profile, run, options, g, window->description, cancel);
    if (!outcome) return outcome.error();
    ++analysis.root_causes_checked;
    if (outcome->unchecked) analysis.unchecked.push_back(std::move(*outcome->unchecked));
    if (outcome->finding) {
      if (on_finding) on_finding(*outcome->finding);
      analysis.findings.push_back(std::move(*outcome->finding));
    }
  }
  RankFindings(analysis.findings, book, DominantPart(view));
  const size_t host_pids = view.devices.empty() ? HostActivePids(profile, cancel) : 0;
  std::optional<std::string> budget_error;
  if (!budget) {
    budget_error = "The time budget failed: " + budget.error().message;
    if (budget_error->back() != '.') *budget_error += '.';
  }
  // Whatever dominates, the headline says what the kernel time is (the compute-bound rule's call: one run, memoised).
  std::string kernel_time;
  if (info.caps.kernels && !view.devices.empty()) {
    skills::Args top_args;
    top_args["limit"] = Value(int64_t{3});
    if (auto top = run("top_kernels", top_args, budget_filter, cancel)) kernel_time = KernelTimeSentence(*top);
  }
  analysis.summary =
      Orient(info, g, window->description, analysis.findings, view, host_pids, budget_error, kernel_time);
  return analysis;
}

}  // namespace nsys::agent

namespace nsys::agent {

std::string RenderMarkdown(const Analysis& analysis) {
  std::string out = "# nsys-ai analyze\n\n" + support::MarkdownText(analysis.summary) + "\n\n";
  if (!analysis.findings.empty()) {
    out += "| # | severity | finding | at stake |\n| --- | --- | --- | --- |\n";
    for (size_t i = 0; i < analysis.findings.size(); ++i) {
      const auto& f = analysis.findings[i];
      out += fmt::format("| {} | {} | {} | {} |\n", i + 1, SeverityName(f.severity), support::MarkdownText(f.title),
                         support::HumanDuration(static_cast<double>(f.at_stake_ns)));
    }
    out += "\n";
  }
  for (const auto& f : analysis.findings) out += RenderMarkdown(f) + "\n";
  if (!analysis.unchecked.empty()) {
    out += "## Not checked on this profile\n\n";
    for (const auto& u : analysis.unchecked) out += fmt::format("- `{}`: {}\n", u.root_cause, u.missing);
    out += "\n";
  }
  out += fmt::format("{} root causes of the Book checked.\n", analysis.root_causes_checked);
  return out;
}

}  // namespace nsys::agent
