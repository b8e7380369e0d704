// api_in_gaps: what the host was doing in the CUDA API while a device sat idle. For every idle gap (as
// gpu_idle_gaps finds them) the CUDA API calls of the gap's process that overlap it, grouped by API: allocator
// calls (cudaMalloc/cudaFree), synchronization, or, when no call covers the gap, time outside CUDA (GC, Python,
// data loading).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common_api_class.h"
#include "common_cuda_api.h"
#include "common_gpu_ops.h"
#include "common_intervals.h"
#include "common_rows.h"

namespace nsys::skills::builtin {
namespace {

constexpr const char* kNoCall = "(no CUDA call)";
constexpr int32_t kNoCallApi = -1;

// The idle gaps of each (pid, device) at least `min_gap` long, parallel to the scanned groups.
Expected<std::vector<std::vector<Interval>>> FindGaps(const Context& ctx, const GpuOpGroups& scanned, Ns min_gap) {
  const std::vector<GpuOpGroup>& groups = scanned.groups();
  // IdleSweeper keeps gaps strictly longer than its bound: one ns less keeps those exactly min_gap long.
  std::vector<IdleSweeper> sweepers(groups.size(), IdleSweeper(min_gap - 1));
  if (!scanned.Stream(ctx.profile, ctx.filter, ctx.cancel,
                      [&](size_t g, const Interval& op) { sweepers[g].Add(op); })) {
    return CancelledError();
  }
  std::vector<std::vector<Interval>> gaps;
  for (IdleSweeper& s : sweepers) gaps.push_back(s.Finish().gaps);
  return gaps;
}

// One call's overlap with one gap.
struct Hit {
  size_t gap;
  int32_t api;
  Interval part;  // the call clipped to the gap
  size_t row;     // runtime row
};
// The API groups are numbered in the order their calls are first met group by group (a group's overlaps in call
// order), as the totals' ties are listed in that order.

// Per API (and kNoCallApi) of one (pid, device): the row's numbers.
struct ApiTotals {
  int64_t gaps = 0, calls = 0;
  Ns overlap = 0;
};

// The runtime rows that may overlap a gap, as merged row ranges: a call starting before a gap's start minus the longest
// call, or at or after its end, cannot overlap it. Rows are start-sorted, so each gap's candidates are one range.
std::vector<std::pair<size_t, size_t>> CandidateRows(const engine::RuntimeTable& rt,
                                                     const std::vector<std::vector<Interval>>& gaps) {
  std::vector<std::pair<size_t, size_t>> ranges;
  for (const std::vector<Interval>& group_gaps : gaps) {
    for (const Interval& gap : group_gaps) {
      const auto first = std::lower_bound(rt.start.begin(), rt.start.end(), gap.start - rt.max_duration);
      const auto last = std::lower_bound(first, rt.start.end(), gap.end);
      if (first != last) ranges.emplace_back(first - rt.start.begin(), last - rt.start.begin());
    }
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<size_t, size_t>> merged;
  for (const auto& range : ranges) {
    if (!merged.empty() && range.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, range.second);
    } else {
      merged.push_back(range);
    }
  }
  return merged;
}

// Runtime row r's overlaps with the gaps of its process's groups; each group's cursor is its first gap that ends
// after the calls seen so far start (gaps are sorted and disjoint, and rows come in start order).
void AddOverlaps(const engine::RuntimeTable& rt, size_t r, const std::vector<const std::vector<size_t>*>& dense,
                 const std::map<uint32_t, std::vector<size_t>>& groups_of_pid,
                 const std::vector<std::vector<Interval>>& gaps, std::vector<size_t>& cursor,
                 std::vector<std::vector<Hit>>& hits) {
  const uint32_t pid = rt.pid[r];
  const std::vector<size_t>* list = nullptr;
  if (!dense.empty()) {
    list = pid < dense.size() ? dense[pid] : nullptr;
  } else if (auto it = groups_of_pid.find(pid); it != groups_of_pid.end()) {
    list = &it->second;
  }
  if (list == nullptr) return;
  const Interval call{rt.start[r], rt.end[r]};
  for (size_t g : *list) {
    const std::vector<Interval>& gs = gaps[g];
    size_t& c = cursor[g];
    while (c < gs.size() && gs[c].end <= call.start) ++c;
    for (size_t k = c; k < gs.size() && gs[k].start < call.end; ++k) {
      const Interval part{std::max(call.start, gs[k].start), std::min(call.end, gs[k].end)};
      if (part.length() > 0) hits[g].push_back({k, 0, part, r});
    }
  }
}

// Every (gap, call) overlap of each group's process's calls with the group's gaps, sorted by (gap, api, start), for
// every group at once: one pass over the runtime rows that may overlap a gap (CandidateRows) in start order, each group
// keeping a cursor on the first gap that ends after the current call's start (gaps are sorted and disjoint, so it only
// moves forward). Linear in candidate calls + gaps; no per-call search and no per-process row lists (5.8M runtime rows
// on a 2 GB export). False when cancelled.
bool OverlapsByGroup(const Context& ctx, const std::vector<GpuOpGroup>& groups,
                     const std::vector<std::vector<Interval>>& gaps, ApiNameGroups& apis,
                     std::vector<std::vector<Hit>>& hits) {
  hits.assign(groups.size(), {});
  std::map<uint32_t, std::vector<size_t>> groups_of_pid;  // only groups with gaps
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!gaps[g].empty()) groups_of_pid[groups[g].pid].push_back(g);
  }
  if (groups_of_pid.empty()) return true;
  // A pid's groups by a dense lookup when pids are small (they are process ids), else through the map.
  const uint32_t max_pid = groups_of_pid.rbegin()->first;
  std::vector<const std::vector<size_t>*> dense(max_pid < (1u << 22) ? max_pid + 1 : 0, nullptr);
  for (const auto& [pid, list] : groups_of_pid) {
    if (pid < dense.size()) dense[pid] = &list;
  }
  std::vector<size_t> cursor(groups.size(), 0);
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  for (const auto& [first, last] : CandidateRows(rt, gaps)) {
    for (size_t r = first; r < last; ++r) {
      if ((r & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
      AddOverlaps(rt, r, dense, groups_of_pid, gaps, cursor, hits);
    }
  }
  for (std::vector<Hit>& h : hits) {
    for (Hit& hit : h) hit.api = apis.IdOf(rt.name[hit.row]);
    std::sort(h.begin(), h.end(), [](const Hit& a, const Hit& b) {
      return std::tie(a.gap, a.api, a.part.start) < std::tie(b.gap, b.api, b.part.start);
    });
  }
  return true;
}

// Folds the overlaps into per-API totals: each API's union within each gap, and the gap time no call covers.
std::map<int32_t, ApiTotals> TotalsByApi(const std::vector<Hit>& hits, const std::vector<Interval>& gaps) {
  std::map<int32_t, ApiTotals> totals;
  std::set<std::pair<int32_t, size_t>> counted_calls;  // a call spanning several gaps counts once
  size_t h = 0;
  for (size_t g = 0; g < gaps.size(); ++g) {
    std::vector<Interval> all;
    for (; h < hits.size() && hits[h].gap == g;) {
      const int32_t api = hits[h].api;
      std::vector<Interval> parts;
      for (; h < hits.size() && hits[h].gap == g && hits[h].api == api; ++h) {
        parts.push_back(hits[h].part);
        all.push_back(hits[h].part);
        if (counted_calls.insert({api, hits[h].row}).second) ++totals[api].calls;
      }
      ApiTotals& t = totals[api];
      ++t.gaps;
      t.overlap += TotalLength(UnionOfSorted(parts));
    }
    const Ns uncovered = gaps[g].length() - TotalLength(UnionOf(std::move(all)));
    if (uncovered > 0) {
      ApiTotals& t = totals[kNoCallApi];
      ++t.gaps;
      t.overlap += uncovered;
    }
  }
  return totals;
}

Table EmptyGapsTable() {
  Table t;
  t.columns = {IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               StringCol("api_name", "CUDA API overlapping the device's idle gaps, or \"(no CUDA call)\""),
               IntCol("gaps", "Idle gaps this API overlaps (for \"(no CUDA call)\": gaps with uncovered time)"),
               IntCol("overlap_ns",
                      "Σ over the gaps of |gap ∩ ∪ this API's calls| (uncovered gap time for the "
                      "\"(no CUDA call)\" row)"),
               IntCol("calls", "Calls overlapping a gap (a call spanning several gaps counts once)"),
               DoubleCol("gap_share", "overlap_ns / Σ idle gap time of the (pid, device) (0..1)"),
               StringCol("api_class",
                         "What the call does (sync, alloc, free, module, setup, launch, memcpy, memset; empty for "
                         "others), by NVIDIA's API reference")};
  return t;
}

void AddRows(uint32_t pid, int32_t device, const std::map<int32_t, ApiTotals>& totals, Ns gap_ns,
             const ApiNameGroups& apis, Table& t) {
  std::vector<std::pair<int32_t, ApiTotals>> rows(totals.begin(), totals.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.overlap > b.second.overlap; });
  for (const auto& [api, s] : rows) {
    t.rows.push_back(
        {I(pid), I(device), S(api == kNoCallApi ? kNoCall : std::string(apis.Text(api))), I(s.gaps), I(s.overlap),
         I(s.calls), gap_ns > 0 ? D(static_cast<double>(s.overlap) / static_cast<double>(gap_ns)) : Null(),
         S(api == kNoCallApi ? std::string() : std::string(ApiClassName(ApiClassOfName(apis.Text(api)))))});
  }
}

class ApiInGapsSkill final : public Skill {
 public:
  std::string name() const override { return "api_in_gaps"; }
  std::string description() const override {
    return "For each GPU idle gap per device, the CUDA API calls of its process that overlap it, grouped by API "
           "(allocator, synchronization, ...), plus the gap time no CUDA call covers.";
  }
  std::vector<ArgSpec> args() const override {
    return {{"min_gap_us",
             ValueType::kDouble,
             "Consider idle gaps at least this many microseconds long.",
             Value(50.0),
             false,
             {},
             /*min=*/0.0}};
  }
  engine::Need needs() const override {
    return engine::Need::kKernels | engine::Need::kMemcpy | engine::Need::kMemset | engine::Need::kOverhead |
           engine::Need::kRuntime;
  }

  Expected<Table> run(const Context& ctx) const override {
    const auto& caps = ctx.profile.info().caps;
    if (!caps.kernels && !caps.memcpy && !caps.memset) {
      return Declined(
          "This profile has no GPU operations (no kernel, memcpy or memset activity was traced), so there are no "
          "GPU idle gaps to explain.");
    }
    if (!caps.runtime) {
      return Declined(
          "This profile has no CUDA API data (no CUPTI_ACTIVITY_KIND_RUNTIME table), so the host's calls during "
          "GPU idle gaps cannot be seen.");
    }
    const double min_gap_us = ArgDouble(ctx, "min_gap_us");
    const Ns min_gap = std::max<Ns>(1, std::llround(min_gap_us * 1e3));
    auto scanned = GpuOpGroups::Scan(ctx.profile, ctx.filter, GpuOpsOptions{}, ctx.cancel);
    if (!scanned) return scanned.error();
    auto gaps = FindGaps(ctx, *scanned, min_gap);
    if (!gaps) return gaps.error();
    ApiNameGroups apis(ctx.profile.strings());
    std::vector<std::vector<Hit>> hits;
    if (!OverlapsByGroup(ctx, scanned->groups(), *gaps, apis, hits)) return CancelledError();

    Table t = EmptyGapsTable();
    int64_t gap_count = 0;
    Ns gap_total = 0;
    for (size_t gi = 0; gi < scanned->groups().size(); ++gi) {
      const GpuOpGroup& g = scanned->groups()[gi];
      const std::vector<Interval>& group_gaps = (*gaps)[gi];
      if (group_gaps.empty()) continue;
      Ns gap_ns = 0;
      for (const Interval& gap : group_gaps) gap_ns += gap.length();
      AddRows(g.pid, g.device, TotalsByApi(hits[gi], group_gaps), gap_ns, apis, t);
      gap_count += static_cast<int64_t>(group_gaps.size());
      gap_total += gap_ns;
    }
    t.notes.push_back(fmt::format(
        "Idle gaps at least {} long between the first and last GPU op of each (process, device), found as "
        "gpu_idle_gaps finds them (kernels, memcpys, memsets and NVIDIA's counted profiler overhead): {} gaps, {} in "
        "all. Each gap is matched with the CUDA API calls of its process, on any thread, that overlap it; "
        "overlap_ns is per API the union of its calls within each gap, so APIs called concurrently may add up to "
        "more than the gap time. \"{}\" is the gap time no call covers: the host was outside CUDA (Python, garbage "
        "collection, data loading) or waiting elsewhere.",
        FormatDuration(min_gap), gap_count, FormatDuration(gap_total), kNoCall));
    if (gap_count == 0) t.notes.push_back("No idle gap is that long in the selection.");
    t.notes.push_back(WindowNote(ctx.filter));
    return t;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakeApiInGaps() {
  return std::make_shared<ApiInGapsSkill>();
}

}  // namespace nsys::skills::builtin
