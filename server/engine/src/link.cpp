#include "link.h"

#include <algorithm>
#include <limits>

#include "table_ops.h"

namespace nsys::engine {
namespace {

// Rows grouped by thread: rows[offsets[g]..offsets[g+1]) belong to thread keys[g], in table order.
struct ThreadGroups {
  std::unordered_map<uint64_t, uint32_t> group_of_key;
  std::vector<uint32_t> offsets;
  std::vector<int32_t> rows;
};

template <typename Accept>
ThreadGroups GroupByThread(const Column<uint32_t>& pid, const Column<uint32_t>& tid, Accept accept) {
  ThreadGroups g;
  std::vector<uint32_t> group(pid.size(), UINT32_MAX);
  std::vector<uint32_t> counts;
  uint64_t last_key = ~uint64_t{0};
  uint32_t last_group = 0;
  for (size_t i = 0; i < pid.size(); ++i) {
    if (!accept(i)) continue;
    const uint64_t key = (uint64_t{pid[i]} << 32) | tid[i];
    if (key != last_key) {
      auto [it, inserted] = g.group_of_key.emplace(key, static_cast<uint32_t>(counts.size()));
      if (inserted) counts.push_back(0);
      last_key = key;
      last_group = it->second;
    }
    group[i] = last_group;
    ++counts[last_group];
  }
  g.offsets.assign(counts.size() + 1, 0);
  for (size_t k = 0; k < counts.size(); ++k) g.offsets[k + 1] = g.offsets[k] + counts[k];
  g.rows.resize(g.offsets.back());
  std::vector<uint32_t> cursor(g.offsets.begin(), g.offsets.end() - 1);
  for (size_t i = 0; i < pid.size(); ++i)
    if (group[i] != UINT32_MAX) g.rows[cursor[group[i]]++] = static_cast<int32_t>(i);
  return g;
}

}  // namespace

namespace {
// Rows grouped by pid, in row order. The last pid's list is cached: rows of one process come in long runs.
template <typename Map, typename MakeEntry>
void GroupByPid(Map& groups, const Column<uint32_t>& pid, MakeEntry make) {
  uint32_t last = 0;
  typename Map::mapped_type* list = nullptr;
  for (size_t i = 0; i < pid.size(); ++i) {
    if (!list || pid[i] != last) {
      last = pid[i];
      list = &groups[last];
    }
    list->push_back(make(i));
  }
}
}  // namespace

LaunchIndex::LaunchIndex(const RuntimeTable& runtime) {
  GroupByPid(by_pid_, runtime.pid, [&](size_t i) { return Entry{runtime.correlation_id[i], static_cast<int32_t>(i)}; });
  for (auto& [pid, entries] : by_pid_) {
    SortRuns(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return a.correlation < b.correlation || (a.correlation == b.correlation && a.row < b.row);
    });
  }
}

void LaunchIndex::Resolve(const Column<uint32_t>& pid, const Column<uint32_t>& correlation,
                          Column<int32_t>& launch) const {
  launch.assign(pid.size(), kNone);
  std::unordered_map<uint32_t, std::vector<Entry>> ops;  // per pid: (correlation, op row)
  GroupByPid(ops, pid, [&](size_t i) { return Entry{correlation[i], static_cast<int32_t>(i)}; });
  for (auto& [p, list] : ops) {
    auto it = by_pid_.find(p);
    if (it == by_pid_.end()) continue;
    SortRuns(list.begin(), list.end(), [](const Entry& a, const Entry& b) {
      return a.correlation < b.correlation || (a.correlation == b.correlation && a.row < b.row);
    });
    const std::vector<Entry>& calls = it->second;
    size_t c = 0;
    for (const Entry& op : list) {
      while (c < calls.size() && calls[c].correlation < op.correlation) ++c;
      if (c < calls.size() && calls[c].correlation == op.correlation) launch[op.row] = calls[c].row;  // first call
    }
  }
}

void ResolveRuntimeNvtx(RuntimeTable& runtime, const NvtxTable& nvtx) {
  runtime.nvtx.assign(runtime.size(), kNone);
  const ThreadGroups ranges =
      GroupByThread(nvtx.pid, nvtx.tid, [&nvtx](size_t i) { return nvtx.style[i] == NvtxStyle::kPushPop; });
  if (ranges.rows.empty()) return;
  const ThreadGroups calls = GroupByThread(runtime.pid, runtime.tid, [](size_t) { return true; });
  std::vector<int32_t> stack;
  for (const auto& [key, cg] : calls.group_of_key) {
    auto rg_it = ranges.group_of_key.find(key);
    if (rg_it == ranges.group_of_key.end()) continue;
    const uint32_t rg = rg_it->second;
    size_t next = ranges.offsets[rg];
    const size_t ranges_end = ranges.offsets[rg + 1];
    stack.clear();
    for (size_t k = calls.offsets[cg]; k < calls.offsets[cg + 1]; ++k) {
      const int32_t call = calls.rows[k];
      const Ns call_start = runtime.start[call];
      while (next < ranges_end && nvtx.start[ranges.rows[next]] <= call_start) {
        const int32_t r = ranges.rows[next++];
        while (!stack.empty() && nvtx.end[stack.back()] < nvtx.start[r]) stack.pop_back();
        stack.push_back(r);
      }
      while (!stack.empty() && nvtx.end[stack.back()] < call_start) stack.pop_back();
      for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        if (nvtx.end[*it] >= runtime.end[call]) {
          runtime.nvtx[call] = *it;
          break;
        }
      }
    }
  }
}

namespace {

// Each duration is below 2^63 (loaded rows keep |start|, |end| < 2^62), but a few damaged-yet-valid spans can still
// add up past INT64_MAX: the sum then stays at INT64_MAX instead of overflowing (found by UBSan on a crafted export).
void AddSaturating(int64_t& total, int64_t d) {
  if (__builtin_add_overflow(total, d, &total)) total = std::numeric_limits<int64_t>::max();
}

}  // namespace

AttributionCoverage ComputeCoverage(const KernelTable& kernels, const RuntimeTable& runtime) {
  AttributionCoverage c;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const int64_t d = kernels.end[i] - kernels.start[i];
    ++c.kernels;
    AddSaturating(c.kernel_time_ns, d);
    const int32_t call = kernels.launch[i];
    if (call == kNone) continue;
    ++c.with_launch;
    AddSaturating(c.with_launch_time_ns, d);
    if (static_cast<size_t>(call) < runtime.nvtx.size() && runtime.nvtx[call] != kNone) {
      ++c.with_nvtx;
      AddSaturating(c.with_nvtx_time_ns, d);
    }
  }
  return c;
}

}  // namespace nsys::engine
