// The diff's measurements: each part reads one skill on both profiles and pairs the rows. The verdict, the
// answer and the Markdown are in diff_render.cpp.
#include "nsys/agent/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "diff_internal.h"
#include "diff_tables.h"
#include "nsys/agent/rank_test.h"
#include "nsys/skills/nvtx_labels.h"

namespace nsys::agent {

std::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kImproved:
      return "improved";
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kNeutral:
      return "neutral";
  }
  return "neutral";
}

std::string_view PresenceName(Presence p) {
  switch (p) {
    case Presence::kBoth:
      return "both";
    case Presence::kAppeared:
      return "appeared";
    case Presence::kDisappeared:
      return "disappeared";
  }
  return "both";
}

Status CheckDiffMetric(const std::string& metric) {
  if (metric.empty() || metric == "step" || metric == "gpu") return {};
  if (metric.rfind("kernel:", 0) == 0 && metric.size() > 7) return {};
  return MakeError(ErrorKind::kInvalidArgument,
                   "the metric must be step (the median iteration time), gpu (the GPU work per step) or kernel:NAME "
                   "(one kernel's time per call)");
}

namespace diff_detail {
namespace {

// One kernel or range as one profile shows it.
struct ItemStats {
  std::string name, short_name;
  int64_t calls = 0, total = 0;
  double avg = kNaN, sd = kNaN;
};
using Items = std::map<std::string, ItemStats>;

// Folds `s` into `into`: counts and totals add; the spread is the pooled one (within and between the groups).
void Merge(ItemStats& into, const ItemStats& s) {
  const double n1 = static_cast<double>(into.calls), n2 = static_cast<double>(s.calls);
  if (n1 + n2 <= 0) return;
  auto second_moment = [](double n, double avg, double sd) {
    return n * ((std::isfinite(sd) ? sd * sd : 0) + avg * avg);
  };
  const double m2 = second_moment(n1, into.avg, into.sd) + second_moment(n2, s.avg, s.sd);
  into.calls += s.calls;
  into.total += s.total;
  into.avg = static_cast<double>(into.total) / (n1 + n2);
  into.sd = std::sqrt(std::max(0.0, m2 / (n1 + n2) - into.avg * into.avg));
}

Items ReadItems(const TableView& t, std::string_view name_col, std::string_view short_col, std::string_view calls_col,
                bool strip_seq = false) {
  Items out;
  for (size_t r = 0; r < t.size(); ++r) {
    ItemStats s;
    s.name = strip_seq ? std::string(skills::WithoutSeqSuffix(t.Str(r, name_col))) : t.Str(r, name_col);
    s.short_name = t.Str(r, short_col);
    s.calls = t.Int(r, calls_col);
    s.total = t.Int(r, "total_time_ns");
    // The exact mean: the skills print avg_ns rounded to 0.1 ns.
    s.avg = s.calls > 0 ? static_cast<double>(s.total) / static_cast<double>(s.calls) : t.Num(r, "avg_ns");
    s.sd = t.Num(r, "stddev_ns");
    const std::string key = s.short_name + '\x1f' + s.name;
    if (auto it = out.find(key); it != out.end()) {
      Merge(it->second, s);
    } else {
      out[key] = std::move(s);
    }
  }
  return out;
}

// Every kernel's per-call durations, keyed as ReadItems keys top_kernels' rows (short name, unit separator,
// demangled name). Read from the loaded kernel table: top_kernels returns only each kernel's moments.
using Samples = std::map<std::string, std::vector<double>>;
Samples KernelSamples(const engine::Profile& profile) {
  Samples out;
  if (!profile.info().caps.kernels) return out;
  const engine::KernelTable& k = profile.kernels();
  const auto& strings = profile.strings();
  std::map<std::pair<engine::StrId, engine::StrId>, std::vector<double>> by_id;
  for (size_t i = 0; i < k.size(); ++i) {
    by_id[{k.short_name[i], k.name[i]}].push_back(static_cast<double>(k.end[i] - k.start[i]));
  }
  for (auto& [ids, durations] : by_id) {
    std::string key = std::string(strings.view(ids.first)) + '\x1f' + std::string(strings.view(ids.second));
    auto& into = out[key];
    into.insert(into.end(), durations.begin(), durations.end());
  }
  return out;
}

// The rank test of one kernel's per-call durations; NaN when a side has none.
double KernelRankP(const Samples& base, const Samples& after, const std::string& key) {
  auto b = base.find(key), a = after.find(key);
  if (b == base.end() || a == after.end()) return kNaN;
  return MannWhitney(b->second, a->second).p;
}

double PerIteration(double total, int64_t iterations) {
  return iterations > 0 ? total / static_cast<double>(iterations) : kNaN;
}

// How shared kernels are judged beyond noise: by the rank test of their per-call durations.
struct RankJudge {
  const Samples* base = nullptr;
  const Samples* after = nullptr;
  double alpha = 0.001;
  double min_change_pct = 1.0;
};

ItemDelta Pair(const ItemStats* b, const ItemStats* a, int64_t base_iters, int64_t new_iters,
               const std::string& key = {}, const RankJudge* judge = nullptr) {
  ItemDelta d;
  const ItemStats& any = b != nullptr ? *b : *a;
  d.name = any.name;
  d.short_name = any.short_name;
  d.presence = b == nullptr ? Presence::kAppeared : a == nullptr ? Presence::kDisappeared : Presence::kBoth;
  if (b != nullptr)
    d.base_calls = b->calls, d.base_total_ns = b->total, d.base_avg_ns = b->avg;
  else
    d.base_avg_ns = kNaN;
  if (a != nullptr)
    d.new_calls = a->calls, d.new_total_ns = a->total, d.new_avg_ns = a->avg;
  else
    d.new_avg_ns = kNaN;
  d.base_per_iteration_ns = PerIteration(static_cast<double>(d.base_total_ns), base_iters);
  d.new_per_iteration_ns = PerIteration(static_cast<double>(d.new_total_ns), new_iters);
  d.base_calls_per_iteration = PerIteration(static_cast<double>(d.base_calls), base_iters);
  d.new_calls_per_iteration = PerIteration(static_cast<double>(d.new_calls), new_iters);
  d.per_call_pct = kNaN;
  d.noise_pct = kNaN;
  d.rank_p = kNaN;
  if (d.presence == Presence::kAppeared) d.impact_ns = static_cast<double>(d.new_total_ns);
  if (d.presence == Presence::kDisappeared) d.impact_ns = -static_cast<double>(d.base_total_ns);
  if (d.presence != Presence::kBoth) return d;
  d.per_call_pct = ChangePct(b->avg, a->avg);
  d.impact_ns = (a->avg - b->avg) * static_cast<double>(b->calls);
  const double se = std::sqrt(std::pow(std::isfinite(b->sd) ? b->sd : 0, 2) / std::max<int64_t>(b->calls, 1) +
                              std::pow(std::isfinite(a->sd) ? a->sd : 0, 2) / std::max<int64_t>(a->calls, 1));
  d.noise_pct = b->avg > 0 ? 2 * se / b->avg * 100.0 : kNaN;
  if (judge != nullptr) {
    d.rank_p = KernelRankP(*judge->base, *judge->after, key);
    d.beyond_noise = std::isfinite(d.per_call_pct) && std::isfinite(d.rank_p) && d.rank_p < judge->alpha &&
                     std::fabs(d.per_call_pct) >= judge->min_change_pct;
  } else {
    d.beyond_noise =
        std::isfinite(d.per_call_pct) && std::isfinite(d.noise_pct) && std::fabs(d.per_call_pct) > d.noise_pct;
  }
  return d;
}

// Shared rows by |impact|, then appeared (by new total), then disappeared (by base total), each capped.
std::vector<ItemDelta> PairAll(const Items& base, const Items& after, int64_t base_iters, int64_t new_iters,
                               size_t max_rows, PresenceCounts& counts, const RankJudge* judge = nullptr) {
  std::vector<ItemDelta> both, appeared, gone;
  for (const auto& [key, b] : base) {
    auto it = after.find(key);
    (it == after.end() ? gone : both)
        .push_back(Pair(&b, it == after.end() ? nullptr : &it->second, base_iters, new_iters, key, judge));
  }
  for (const auto& [key, a] : after) {
    if (!base.count(key)) appeared.push_back(Pair(nullptr, &a, base_iters, new_iters));
  }
  counts = {static_cast<int64_t>(both.size()), static_cast<int64_t>(appeared.size()),
            static_cast<int64_t>(gone.size())};
  auto by_impact = [](const ItemDelta& x, const ItemDelta& y) {
    if (std::fabs(x.impact_ns) != std::fabs(y.impact_ns)) return std::fabs(x.impact_ns) > std::fabs(y.impact_ns);
    return x.name < y.name;
  };
  std::vector<ItemDelta> out;
  for (auto* list : {&both, &appeared, &gone}) {
    std::sort(list->begin(), list->end(), by_impact);
    if (max_rows > 0 && list->size() > max_rows) list->resize(max_rows);
    out.insert(out.end(), list->begin(), list->end());
  }
  return out;
}

IterationStats ReadIterations(const TableView& t) {
  IterationStats s;
  s.median_ns = s.robust_sd_ns = s.median_kernels = s.median_gpu_busy_ns = kNaN;
  if (!t.ok()) return s;
  s.median_kernel_ns = s.robust_sd_kernel_ns = kNaN;
  std::vector<double> kernels, busy;
  for (size_t r = 0; r < t.size(); ++r) {
    s.durations.push_back(t.Num(r, "duration_ns"));
    kernels.push_back(t.Num(r, "kernels"));
    busy.push_back(t.Num(r, "gpu_busy_ns"));
    s.kernel_ns.push_back(t.Num(r, "kernel_ns"));
  }
  s.count = static_cast<int64_t>(s.durations.size());
  if (s.count == 0) return s;
  s.median_ns = Median(s.durations);
  s.robust_sd_ns = RobustSd(s.durations);
  s.median_kernels = Median(kernels);
  s.median_gpu_busy_ns = Median(busy);
  s.median_kernel_ns = Median(s.kernel_ns);
  s.robust_sd_kernel_ns = RobustSd(s.kernel_ns);
  for (const auto& note : t.table()->notes) {
    const auto at = note.find("(method: ");
    if (at == std::string::npos) continue;
    const auto end = note.find(')', at);
    s.method = note.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
  }
  return s;
}

int64_t SumTotals(const Items& items) {
  int64_t sum = 0;
  for (const auto& [key, s] : items) sum += s.total;
  return sum;
}

int64_t SharedTotal(const Items& mine, const Items& other) {
  int64_t sum = 0;
  for (const auto& [key, s] : mine) {
    if (other.count(key)) sum += s.total;
  }
  return sum;
}

std::string DeviceList(const engine::ProfileInfo& info) {
  std::string out;
  for (const auto& d : info.devices) {
    out += (out.empty() ? "" : ", ") + std::to_string(d.id);
    if (!d.name.empty()) out += " (" + d.name + ")";
  }
  return out.empty() ? "none" : out;
}

// Same device ids, and the same models when both exports name them: 1; same count of devices with other ids or
// models: 0.5; else the ratio of the counts, halved.
double DeviceFactor(const engine::ProfileInfo& b, const engine::ProfileInfo& a, std::string& reason) {
  std::vector<std::pair<int32_t, std::string>> bd, ad;
  bool named = true;
  for (const auto& d : b.devices) bd.emplace_back(d.id, d.name), named = named && !d.name.empty();
  for (const auto& d : a.devices) ad.emplace_back(d.id, d.name), named = named && !d.name.empty();
  auto ids = [](const auto& list) {
    std::vector<int32_t> out;
    for (const auto& [id, name] : list) out.push_back(id);
    return out;
  };
  const bool same_ids = ids(bd) == ids(ad);
  const bool same = same_ids && (!named || bd == ad);
  if (same) {
    reason = fmt::format("Same devices: {}{}.", DeviceList(b),
                         named ? "" : " (the GPU models are not named in both exports, so only ids are compared)");
    return 1.0;
  }
  reason = fmt::format("Different devices: base {}, new {}.", DeviceList(b), DeviceList(a));
  if (bd.size() == ad.size()) return 0.5;
  const double n = static_cast<double>(std::min(bd.size(), ad.size()));
  const double m = static_cast<double>(std::max<size_t>(std::max(bd.size(), ad.size()), 1));
  return 0.5 * n / m;
}

Comparability Compare(const engine::ProfileInfo& base_info, const engine::ProfileInfo& new_info,
                      const Items& base_kernels, const Items& new_kernels, const Items& base_ranges,
                      const Items& new_ranges, const DiffOptions& options) {
  Comparability c;
  const int64_t bt = SumTotals(base_kernels), at = SumTotals(new_kernels);
  if (bt > 0 && at > 0) {
    const double bs = static_cast<double>(SharedTotal(base_kernels, new_kernels)) / static_cast<double>(bt);
    const double as = static_cast<double>(SharedTotal(new_kernels, base_kernels)) / static_cast<double>(at);
    c.shared_kernel_time = (bs + as) / 2;
    c.reasons.push_back(fmt::format(
        "Kernels both profiles run (same demangled name) take {:.1f}% of the base's kernel time and {:.1f}% of the "
        "new one's.",
        bs * 100, as * 100));
  } else if (bt == 0 && at == 0) {
    const int64_t br = SumTotals(base_ranges), ar = SumTotals(new_ranges);
    if (br > 0 && ar > 0) {
      const double bs = static_cast<double>(SharedTotal(base_ranges, new_ranges)) / static_cast<double>(br);
      const double as = static_cast<double>(SharedTotal(new_ranges, base_ranges)) / static_cast<double>(ar);
      c.shared_kernel_time = (bs + as) / 2;
      c.reasons.push_back(
          fmt::format("Neither profile has kernels; NVTX ranges both have take {:.1f}% and {:.1f}% of the range time.",
                      bs * 100, as * 100));
    } else {
      c.reasons.push_back("Neither profile has kernels or NVTX ranges to match.");
    }
  } else {
    c.reasons.push_back(fmt::format("Only the {} profile has CUDA kernels.", bt > 0 ? "base" : "new"));
  }
  std::string device_reason;
  const double device_factor = DeviceFactor(base_info, new_info, device_reason);
  c.same_devices = device_factor == 1.0;
  c.reasons.push_back(device_reason);
  const double bw = static_cast<double>(base_info.end_ns - base_info.start_ns);
  const double aw = static_cast<double>(new_info.end_ns - new_info.start_ns);
  c.window_ratio = bw > 0 && aw > 0 ? std::min(bw, aw) / std::max(bw, aw) : 0;
  c.reasons.push_back(
      fmt::format("Profile durations {:.3f} ms and {:.3f} ms (ratio {:.2f}).", bw / 1e6, aw / 1e6, c.window_ratio));
  // Shared work is what makes a diff meaningful; devices and window length only temper it.
  c.score = c.shared_kernel_time * (0.5 + 0.5 * (device_factor + c.window_ratio) / 2);
  c.label = c.score >= options.comparable_score     ? "comparable"
            : c.score >= options.incomparable_score ? "partly comparable"
                                                    : "not comparable";
  return c;
}

// The skill calls of the diff, run on both profiles. A declined table or an unknown skill leaves that part out
// with a note; cancellation and bad arguments end the diff.
class BothSides {
 public:
  BothSides(const SkillRunner& base, const SkillRunner& after, const CancelToken& cancel,
            std::vector<std::string>& notes)
      : base_(base), after_(after), cancel_(cancel), notes_(notes) {}

  Expected<SkillPair> Run(const std::string& skill, const skills::Args& args) {
    SkillPair out;
    out.call = {skill, args, {}};
    for (int side = 0; side < 2; ++side) {
      if (cancel_.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      auto t = (side == 0 ? base_ : after_)(skill, args, {}, cancel_);
      const char* which = side == 0 ? "base" : "new";
      if (!t) {
        if (t.error().kind == ErrorKind::kCancelled || t.error().kind == ErrorKind::kInvalidArgument) return t.error();
        notes_.push_back(fmt::format("{} on the {} profile failed: {}", skill, which, t.error().message));
        continue;
      }
      if (t->declined) {
        notes_.push_back(fmt::format("{} declined on the {} profile: {}", skill, which,
                                     t->notes.empty() ? std::string("no reason given") : t->notes.front()));
        continue;
      }
      (side == 0 ? out.base : out.after) = std::move(*t);
    }
    return out;
  }

 private:
  const SkillRunner& base_;
  const SkillRunner& after_;
  const CancelToken& cancel_;
  std::vector<std::string>& notes_;
};

const skills::Table* Ptr(const std::optional<skills::Table>& t) {
  return t ? &*t : nullptr;
}

void ReadDevices(DiffReport& r, const SkillPair& levels, const SkillPair& gaps, const SkillPair& nccl) {
  std::map<int32_t, DeviceDelta> by_id;
  for (int side = 0; side < 2; ++side) {
    const bool base = side == 0;
    const TableView lv(Ptr(base ? levels.base : levels.after));
    for (size_t i = 0; i < lv.size(); ++i) {
      auto& d = by_id[static_cast<int32_t>(lv.Int(i, "device_id"))];
      (base ? d.in_base : d.in_new) = true;
      (base ? d.base_span_ns : d.new_span_ns) += lv.Int(i, "time_ns");
      if (lv.Int(i, "streams_busy") == 0) (base ? d.base_idle_ns : d.new_idle_ns) += lv.Int(i, "time_ns");
    }
    const TableView gv(Ptr(base ? gaps.base : gaps.after));
    for (size_t i = 0; i < gv.size(); ++i) {
      auto& d = by_id[static_cast<int32_t>(gv.Int(i, "device_id"))];
      (base ? d.base_long_gaps : d.new_long_gaps) += 1;
      (base ? d.base_long_gap_ns : d.new_long_gap_ns) += gv.Int(i, "duration_ns");
    }
    const TableView nv(Ptr(base ? nccl.base : nccl.after));
    for (size_t i = 0; i < nv.size(); ++i) {
      if (nv.Str(i, "collective") != "all") continue;
      auto& d = by_id[static_cast<int32_t>(nv.Int(i, "device_id"))];
      d.has_comm = true;
      (base ? d.base_comm_ns : d.new_comm_ns) = nv.Int(i, "comm_busy_ns");
      (base ? d.base_overlap_pct : d.new_overlap_pct) = nv.Num(i, "overlap_pct");
      (base ? d.base_exposed_ns : d.new_exposed_ns) = nv.Int(i, "exposed_ns");
    }
  }
  for (auto& [id, d] : by_id) {
    d.device_id = id;
    d.base_idle_pct = d.base_span_ns > 0 ? 100.0 * static_cast<double>(d.base_idle_ns) / d.base_span_ns : kNaN;
    d.new_idle_pct = d.new_span_ns > 0 ? 100.0 * static_cast<double>(d.new_idle_ns) / d.new_span_ns : kNaN;
    r.devices.push_back(d);
  }
}

void ReadMemcpy(DiffReport& r, const SkillPair& mem) {
  std::map<std::string, MemcpyDelta> by_op;
  for (int side = 0; side < 2; ++side) {
    const bool base = side == 0;
    const TableView t(Ptr(base ? mem.base : mem.after));
    for (size_t i = 0; i < t.size(); ++i) {
      auto& m = by_op[t.Str(i, "operation")];
      (base ? m.base_count : m.new_count) = t.Int(i, "count");
      (base ? m.base_bytes : m.new_bytes) = t.Int(i, "total_bytes");
      (base ? m.base_total_ns : m.new_total_ns) = t.Int(i, "total_time_ns");
    }
  }
  for (auto& [op, m] : by_op) {
    m.operation = op;
    m.base_per_iteration_ns = PerIteration(static_cast<double>(m.base_total_ns), r.base_iterations.count);
    m.new_per_iteration_ns = PerIteration(static_cast<double>(m.new_total_ns), r.new_iterations.count);
    r.memcpy.push_back(m);
  }
  std::sort(r.memcpy.begin(), r.memcpy.end(), [](const MemcpyDelta& x, const MemcpyDelta& y) {
    return std::max(x.base_total_ns, x.new_total_ns) > std::max(y.base_total_ns, y.new_total_ns);
  });
}

void ReadPhases(DiffReport& r, const SkillPair& phases) {
  std::map<std::string, PhaseDelta> by_name;
  std::vector<std::string> order;
  for (int side = 0; side < 2; ++side) {
    const bool base = side == 0;
    const TableView t(Ptr(base ? phases.base : phases.after));
    for (size_t i = 0; i < t.size(); ++i) {
      const std::string name = t.Str(i, "phase");
      if (!by_name.count(name)) order.push_back(name);
      auto& p = by_name[name];
      p.phase = name;
      (base ? p.base_ranges : p.new_ranges) = t.Int(i, "ranges");
      (base ? p.base_wall_ns : p.new_wall_ns) = t.Int(i, "wall_ns");
      (base ? p.base_gpu_ns : p.new_gpu_ns) = t.Int(i, "gpu_ns");
      (base ? p.base_coverage : p.new_coverage) = t.Num(i, "coverage");
    }
  }
  for (const auto& name : order) r.phases.push_back(by_name[name]);
}

// The base's kernel calls (those of kernels both profiles run) at the base's and at the new per-call averages. The
// change that counts toward the verdict is the part carried by kernels whose per-call durations differ by a rank
// test on their own: the spread of one kernel's calls (several shapes, several sequence lengths) is no noise floor
// for a shift that hits every call.
std::optional<Headline> PerCallHeadline(const Items& base, const Items& after, const Samples& base_samples,
                                        const Samples& new_samples, const DiffOptions& options) {
  double base_ns = 0, new_ns = 0, significant_ns = 0;
  int64_t kernels = 0, significant = 0;
  std::vector<Stratum> strata;
  for (const auto& [key, b] : base) {
    auto it = after.find(key);
    if (it == after.end() || b.calls <= 0 || it->second.calls <= 0) continue;
    const ItemStats& a = it->second;
    const double n = static_cast<double>(b.calls);
    base_ns += n * b.avg;
    new_ns += n * a.avg;
    ++kernels;
    const double p = KernelRankP(base_samples, new_samples, key);
    if (std::isfinite(p) && p < options.kernel_alpha) {
      significant_ns += n * (a.avg - b.avg);
      ++significant;
    }
    auto sb = base_samples.find(key), sa = new_samples.find(key);
    if (sb != base_samples.end() && sa != new_samples.end()) strata.push_back({&sb->second, &sa->second});
  }
  if (kernels == 0 || base_ns <= 0) return std::nullopt;
  Headline h;
  h.metric = "kernel time per call (the base's mix)";
  h.measure = "gpu";
  h.base_ns = base_ns;
  h.new_ns = new_ns;
  h.change_pct = ChangePct(base_ns, new_ns);
  h.significant_change_pct = significant_ns / base_ns * 100.0;
  const RankTestResult stratified = StratifiedMannWhitney(strata);
  h.rank_p = strata.empty() ? kNaN : stratified.p;
  h.rank_z = stratified.z;
  h.noise_floor_pct = options.min_noise_floor_pct;
  h.noise_floor_reason = fmt::format(
      "the change must pass the minimum of {:.1f}%, and so must the part carried by the {} of the {} shared kernels "
      "whose per-call durations differ by a rank test (Mann-Whitney, p < {:g}; here {:+.2f}%), unless a rank test "
      "stratified by kernel (van Elteren: p = {:.2g}) is below {:g} in the same direction",
      options.min_noise_floor_pct, significant, kernels, options.kernel_alpha, h.significant_change_pct, stratified.p,
      options.measure_alpha);
  return h;
}

// --metric kernel:NAME: the kernels whose short or demangled name is NAME (else contains it), their calls pooled.
Expected<Headline> KernelHeadline(const Items& base, const Items& after, const Samples& base_samples,
                                  const Samples& new_samples, const DiffOptions& options) {
  const std::string name = options.metric.substr(7);
  std::vector<std::string> keys;
  for (bool exact : {true, false}) {
    for (const auto& [key, b] : base) {
      if (!after.count(key)) continue;
      const bool hit = exact ? (b.name == name || b.short_name == name) : b.name.find(name) != std::string::npos;
      if (hit) keys.push_back(key);
    }
    if (!keys.empty()) break;
  }
  if (keys.empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("no kernel both profiles run is named {} or has it in its name", name));
  }
  Headline h;
  h.metric = keys.size() == 1
                 ? fmt::format("time per call of {}", name)
                 : fmt::format("time per call of the {} kernels named *{}* (the base's mix)", keys.size(), name);
  h.measure = options.metric;
  std::vector<double> b_all, a_all;
  double calls = 0;
  for (const auto& key : keys) {
    const ItemStats& b = base.at(key);
    const ItemStats& a = after.at(key);
    h.base_ns += static_cast<double>(b.calls) * b.avg;
    h.new_ns += static_cast<double>(b.calls) * a.avg;
    calls += static_cast<double>(b.calls);
    if (auto it = base_samples.find(key); it != base_samples.end())
      b_all.insert(b_all.end(), it->second.begin(), it->second.end());
    if (auto it = new_samples.find(key); it != new_samples.end())
      a_all.insert(a_all.end(), it->second.begin(), it->second.end());
  }
  h.base_ns /= std::max(calls, 1.0);
  h.new_ns /= std::max(calls, 1.0);
  h.change_pct = ChangePct(h.base_ns, h.new_ns);
  const RankTestResult test = MannWhitney(b_all, a_all);
  h.rank_p = b_all.empty() || a_all.empty() ? kNaN : test.p;
  h.rank_z = test.z;
  h.noise_floor_pct = options.min_noise_floor_pct;
  h.noise_floor_reason = fmt::format(
      "a rank test of the {} and {} per-call durations (Mann-Whitney: a new call outranks a base call with "
      "probability {:.2f}, p = {:.2g}) must reach p < {:g}, and the change pass the minimum of {:.1f}%",
      b_all.size(), a_all.size(), test.prob_new_larger, test.p, options.measure_alpha, options.min_noise_floor_pct);
  return h;
}

}  // namespace
}  // namespace diff_detail

// The diff's steps in order: one skill pair each, then the headline, verdict and answer (Conclude).
Expected<DiffReport> Diff(const engine::Profile& base, const SkillRunner& base_run, const engine::Profile& after,
                          const SkillRunner& after_run, const DiffOptions& options, const CancelToken& cancel) {
  using namespace diff_detail;
  if (Status metric = CheckDiffMetric(options.metric); !metric.ok()) return metric.error();
  DiffReport r;
  r.base_path = base.info().source_path.empty() ? base.info().path : base.info().source_path;
  r.new_path = after.info().source_path.empty() ? after.info().path : after.info().source_path;
  Calls calls;
  BothSides both(base_run, after_run, cancel, r.notes);

  auto iterations = both.Run("iterations", {});
  if (!iterations) return iterations.error();
  r.base_iterations = ReadIterations(TableView(Ptr(iterations->base)));
  r.new_iterations = ReadIterations(TableView(Ptr(iterations->after)));
  calls.iterations = std::move(*iterations);

  auto kernels = both.Run("top_kernels", {});
  if (!kernels) return kernels.error();
  const Items base_k = ReadItems(TableView(Ptr(kernels->base)), "name", "short_name", "instances");
  const Items new_k = ReadItems(TableView(Ptr(kernels->after)), "name", "short_name", "instances");
  // top_kernels has loaded both kernel tables (a declined side has none and gives no samples).
  const Samples base_samples = kernels->base ? KernelSamples(base) : Samples{};
  const Samples new_samples = kernels->after ? KernelSamples(after) : Samples{};
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "cancelled");
  const RankJudge judge{&base_samples, &new_samples, options.kernel_alpha, options.min_noise_floor_pct};
  r.kernels = PairAll(base_k, new_k, r.base_iterations.count, r.new_iterations.count, options.max_rows, r.kernel_counts,
                      &judge);
  calls.kernels = std::move(*kernels);

  auto ranges = both.Run("nvtx_summary", {});
  if (!ranges) return ranges.error();
  const Items base_r = ReadItems(TableView(Ptr(ranges->base)), "range", "style", "instances", true);
  const Items new_r = ReadItems(TableView(Ptr(ranges->after)), "range", "style", "instances", true);
  r.ranges = PairAll(base_r, new_r, r.base_iterations.count, r.new_iterations.count, options.max_rows, r.range_counts);
  calls.ranges = std::move(*ranges);

  r.comparability = Compare(base.info(), after.info(), base_k, new_k, base_r, new_r, options);

  auto levels = both.Run("stream_concurrency", {});
  if (!levels) return levels.error();
  auto gaps = both.Run("gpu_idle_gaps", {{"limit", Value{int64_t{0}}}});
  if (!gaps) return gaps.error();
  auto nccl = both.Run("nccl_breakdown", {});
  if (!nccl) return nccl.error();
  ReadDevices(r, *levels, *gaps, *nccl);
  calls.levels = std::move(*levels);
  calls.gaps = std::move(*gaps);
  calls.nccl = std::move(*nccl);

  auto mem = both.Run("memory_transfers", {});
  if (!mem) return mem.error();
  ReadMemcpy(r, *mem);
  calls.memcpy = std::move(*mem);

  if (!options.phase_map.empty()) {
    auto phases = both.Run("phases", {{"phase_map", Value{options.phase_map}}});
    if (!phases) return phases.error();
    ReadPhases(r, *phases);
    calls.phases = std::move(*phases);
  }

  std::optional<Headline> kernel_measure;
  if (options.metric.rfind("kernel:", 0) == 0) {
    auto h = KernelHeadline(base_k, new_k, base_samples, new_samples, options);
    if (!h) return h.error();
    kernel_measure = *h;
  }
  Conclude(r, PerCallHeadline(base_k, new_k, base_samples, new_samples, options), kernel_measure, calls, options);
  return r;
}

}  // namespace nsys::agent
