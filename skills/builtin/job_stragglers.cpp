// job_stragglers: at each matched collective instance, the rank the others wait for (the last to start its
// kernel, on the aligned clock) and the time the others lose waiting for it.
#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "job_common.h"

namespace nsys::skills::job {
namespace {

bool Resolved(const ClockAlignment& clocks, size_t first_rank, size_t last_rank, Ns spread) {
  if (clocks.rank_offset_ns.size() <= std::max(first_rank, last_rank)) return false;
  const Ns a = clocks.rank_uncertainty_ns[first_rank], b = clocks.rank_uncertainty_ns[last_rank];
  if (clocks.rank_node[first_rank] == clocks.rank_node[last_rank]) return true;
  return a >= 0 && b >= 0 && spread > a + b;
}

// Step 1: one instance on the job clock.
Straggler Judge(const InstanceKey& key, const std::vector<const CollectiveSample*>& samples,
                const ClockAlignment& clocks, std::vector<Ns>& waited) {
  Straggler s;
  std::tie(s.kind, s.channel, s.ordinal) = key;
  Ns first = 0, last = 0;
  size_t first_rank = 0;
  bool any = false;
  for (size_t r = 0; r < samples.size(); ++r) {
    if (!samples[r]) continue;
    const Ns start = clocks.ToRunClock(r, samples[r]->start);
    if (!any || start > last) {
      last = start;
      s.last_rank = r;
    }
    if (!any || start < first) {
      first = start;
      first_rank = r;
    }
    any = true;
  }
  s.spread_ns = last - first;
  s.resolved = Resolved(clocks, first_rank, s.last_rank, s.spread_ns);
  for (size_t r = 0; r < samples.size(); ++r) {
    if (!samples[r]) continue;
    const Ns wait = last - clocks.ToRunClock(r, samples[r]->start);
    s.lost_ns += wait;
    waited[r] += wait;
  }
  return s;
}

Table RankTable(const std::vector<RankPartial>& ranks, const StragglerStats& f) {
  Table t;
  t.columns = RankColumns();
  t.columns.insert(t.columns.end(),
                   {builtin::IntCol("times_last", "Matched collective instances where this rank started last"),
                    builtin::IntCol("caused_ns", "Σ time the other ranks waited at those instances"),
                    builtin::IntCol("waited_ns", "Σ time this rank waited for the last rank, over every instance")});
  for (size_t r = 0; r < ranks.size(); ++r) {
    std::vector<Value> row = RankCells(ranks, r);
    row.insert(row.end(), {builtin::I(f.times_last[r]), builtin::I(f.caused_ns[r]), builtin::I(f.waited_ns[r])});
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table InstanceTable(const std::vector<RankPartial>& ranks, const StragglerStats& f, int64_t limit) {
  Table t;
  t.columns = {
      builtin::StringCol("collective", "Collective parsed from the kernel name"),
      builtin::IntCol("channel", "The rank's communication stream, numbered by first use"),
      builtin::IntCol("ordinal", "k: the instance's position among its kind on its channel"),
      builtin::IntCol("last_rank", "The rank the others waited for"),
      builtin::StringCol("last_rank_file", "Its export"),
      builtin::IntCol("spread_ns", "Last start - first start, on the aligned clock"),
      builtin::IntCol("lost_ns", "Σ over the other ranks of (last start - their start)"),
      builtin::BoolCol("resolved", "spread_ns exceeds the clock alignment's uncertainty (see job_clock_alignment)")};
  std::vector<const Straggler*> order;
  for (const Straggler& s : f.instances) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->lost_ns > b->lost_ns; });
  if (limit > 0 && order.size() > static_cast<size_t>(limit)) order.resize(static_cast<size_t>(limit));
  for (const Straggler* s : order) {
    t.rows.push_back({builtin::S(CollectiveKindName(s->kind)), builtin::I(s->channel), builtin::I(s->ordinal),
                      builtin::I(static_cast<int64_t>(s->last_rank)), builtin::S(ranks[s->last_rank].label),
                      builtin::I(s->spread_ns), builtin::I(s->lost_ns), Value(s->resolved)});
  }
  return t;
}

}  // namespace

Merged<StragglerStats> MergeStragglers(const std::vector<RankPartial>& ranks, const ClockAlignment& clocks) {
  Merged<StragglerStats> m;
  StragglerStats& f = m.figures;
  f.times_last.assign(ranks.size(), 0);
  f.caused_ns.assign(ranks.size(), 0);
  f.waited_ns.assign(ranks.size(), 0);
  for (const auto& [key, samples] : MatchInstances(ranks, 2, clocks.ordinal_shift)) {
    f.instances.push_back(Judge(key, samples, clocks, f.waited_ns));
    ++f.times_last[f.instances.back().last_rank];
    f.caused_ns[f.instances.back().last_rank] += f.instances.back().lost_ns;
    f.unresolved += f.instances.back().resolved ? 0 : 1;
  }
  m.table = RankTable(ranks, f);
  return m;
}

// The job skill's table: per rank (by=rank) or the instances that cost most (by=instance).
Table StragglerTable(const std::vector<RankPartial>& ranks, const std::vector<int32_t>& node_of_rank, bool by_rank,
                     int64_t limit) {
  const ClockAlignment clocks = AlignClocks(ranks, node_of_rank);
  Merged<StragglerStats> m = MergeStragglers(ranks, clocks);
  Table t = by_rank ? std::move(m.table) : InstanceTable(ranks, m.figures, limit);
  Ns lost = 0;
  for (const Straggler& s : m.figures.instances) lost += s.lost_ns;
  if (m.figures.instances.empty()) {
    t.notes.push_back(
        "No collective instance was found on two or more ranks (no NCCL/RCCL kernels matched by kind, stream order "
        "and position), so there is nothing to wait for.");
    return t;
  }
  const auto worst = std::max_element(m.figures.caused_ns.begin(), m.figures.caused_ns.end());
  const auto worst_rank = static_cast<size_t>(worst - m.figures.caused_ns.begin());
  t.notes.push_back(fmt::format(
      "{} collective instances matched across ranks; ranks lost {} in total waiting for the last rank to start. "
      "Rank {} ({}) made the others wait most: {} over {} instances.",
      m.figures.instances.size(), builtin::FormatDuration(lost), worst_rank, ranks[worst_rank].label,
      builtin::FormatDuration(*worst), m.figures.times_last[worst_rank]));
  if (m.figures.unresolved > 0) {
    t.notes.push_back(fmt::format(
        "At {} of the {} instances the ranks' starts differ by less than the clock alignment's uncertainty across "
        "nodes: which rank was last there is not certain.",
        m.figures.unresolved, m.figures.instances.size()));
  }
  t.notes.push_back(
      "The last rank to start a collective's kernel is the one the others wait for; the time a rank loses is the "
      "last start minus its own start, on the aligned clock (see job_clock_alignment: differences smaller than the "
      "alignment's uncertainty between nodes are not meaningful).");
  return t;
}

}  // namespace nsys::skills::job
