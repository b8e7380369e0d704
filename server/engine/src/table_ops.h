#pragma once
// Column-generic operations on the model's tables: every table lists its columns once (ForEachColumn), and
// resizing, compaction, sorting and the snapshot are written once over that list. Private to the engine.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "nsys/engine/model.h"
#include "step_timer.h"

namespace nsys::engine {

// Each overload calls f(column) for every column vector, in a fixed order (the snapshot relies on it).
template <typename F>
void ForEachColumn(KernelTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.device);
  f(t.stream);
  f(t.pid);
  f(t.correlation_id);
  f(t.name);
  f(t.short_name);
  f(t.config);
  f(t.launch);
}
template <typename F>
void ForEachColumn(MemcpyTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.device);
  f(t.stream);
  f(t.pid);
  f(t.correlation_id);
  f(t.bytes);
  f(t.copy_kind);
  f(t.src_kind);
  f(t.dst_kind);
  f(t.src_device);
  f(t.dst_device);
  f(t.migration_cause);
  f(t.launch);
}
template <typename F>
void ForEachColumn(MemsetTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.device);
  f(t.stream);
  f(t.pid);
  f(t.correlation_id);
  f(t.bytes);
  f(t.value);
  f(t.mem_kind);
  f(t.launch);
}
template <typename F>
void ForEachColumn(GraphTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.device);
  f(t.stream);
  f(t.pid);
  f(t.correlation_id);
  f(t.graph_id);
  f(t.graph_exec_id);
  f(t.launch);
}
template <typename F>
void ForEachColumn(SyncTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.device);
  f(t.stream);
  f(t.pid);
  f(t.correlation_id);
  f(t.sync_type);
  f(t.event_id);
  f(t.event_sync_id);
  f(t.launch);
}
template <typename F>
void ForEachColumn(RuntimeTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.pid);
  f(t.tid);
  f(t.name);
  f(t.correlation_id);
  f(t.return_value);
  f(t.nvtx);
}
template <typename F>
void ForEachColumn(NvtxTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.pid);
  f(t.tid);
  f(t.name);
  f(t.op_id);
  f(t.style);
  f(t.parent);
  f(t.attrs);
}
template <typename F>
void ForEachColumn(NvtxMarkTable& t, F&& f) {
  f(t.time);
  f(t.pid);
  f(t.tid);
  f(t.name);
}
template <typename F>
void ForEachColumn(OverheadTable& t, F&& f) {
  f(t.start);
  f(t.end);
  f(t.pid);
  f(t.tid);
  f(t.name);
}

// Each overload calls f(values) for every dictionary of the table (model.h): not row-aligned, so resizing,
// compaction and sorting leave them alone; the snapshot saves them after the columns.
template <typename F>
void ForEachDictionary(KernelTable& t, F&& f) {
  f(t.configs);
}
template <typename F>
void ForEachDictionary(NvtxTable& t, F&& f) {
  f(t.attributes);
}
template <typename Table, typename F>
void ForEachDictionary(Table&, F&&) {}

// Whether every row's dictionary index is in range (a snapshot's tables, before use).
inline bool DictionaryIndexesValid(const KernelTable& t) {
  const size_t n = t.configs.size();
  return std::all_of(t.config.begin(), t.config.end(), [n](uint32_t i) { return i < n; });
}
inline bool DictionaryIndexesValid(const NvtxTable& t) {
  const size_t n = t.attributes.size();
  return std::all_of(t.attrs.begin(), t.attrs.end(), [n](uint32_t i) { return i < n; });
}
template <typename Table>
bool DictionaryIndexesValid(const Table&) {
  return true;
}

template <typename Table>
void ResizeTable(Table& t, size_t n) {
  ForEachColumn(t, [n](auto& col) { col.resize(n); });
}

// Keeps the rows whose `keep` byte is set, in order.
template <typename Table>
void CompactTable(Table& t, const std::vector<uint8_t>& keep) {
  ForEachColumn(t, [&keep](auto& col) {
    size_t out = 0;
    for (size_t i = 0; i < col.size(); ++i)
      if (keep[i]) col[out++] = col[i];
    col.resize(out);
    col.shrink_to_fit();
  });
}

// Reorders every column so that new row i is old row order[i]. Exports are nearly sorted, so most rows
// usually stay put: then only the permutation's cycles are walked, in place. Otherwise each column is
// gathered into one scratch buffer (allocated once, so the table's memory is not faulted in a second time)
// and copied back.
template <typename Table>
void PermuteTable(Table& t, const std::vector<uint32_t>& order) {
  const size_t n = order.size();
  size_t moved = 0;
  for (uint32_t i = 0; i < n; ++i) moved += order[i] != i;
  if (moved == 0) return;
  if (moved * 8 < n) {
    std::vector<uint32_t> cycle_starts;
    std::vector<bool> seen(n, false);
    for (uint32_t i = 0; i < n; ++i) {
      if (order[i] == i || seen[i]) continue;
      cycle_starts.push_back(i);
      for (uint32_t j = i; !seen[j]; j = order[j]) seen[j] = true;
    }
    ForEachColumn(t, [&](auto& col) {
      for (uint32_t s : cycle_starts) {
        auto first = col[s];
        uint32_t j = s;
        for (; order[j] != s; j = order[j]) col[j] = col[order[j]];
        col[j] = first;
      }
    });
    return;
  }
  Column<uint64_t> scratch(n);  // 8 bytes a row: room for any column type (spilled with the table's columns)
  ForEachColumn(t, [&](auto& col) {
    using T = std::remove_reference_t<decltype(col[0])>;
    static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>);
    T* tmp = reinterpret_cast<T*>(scratch.data());
    for (size_t i = 0; i < n; ++i) tmp[i] = col[order[i]];
    std::copy(tmp, tmp + n, col.begin());
  });
}

// Sorts a sequence made of sorted runs, as exports are: each table is written in time order per process or
// stream, so it is a few interleaved runs per flush. Each run is merged only with the tail of what precedes it
// that it overlaps, which is linear when runs are local; a budget falls back to std::stable_sort otherwise.
// Returns false when the input was already sorted (nothing moved).
template <typename It, typename Less>
bool SortRuns(It first, It last, Less less) {
  const auto n = static_cast<size_t>(last - first);
  if (n < 2) return false;  // before any `first + 1`: an empty vector's iterator may be null
  It run = first;
  while (run + 1 < last && !less(*(run + 1), *run)) ++run;
  if (run + 1 >= last) return false;
  const size_t budget = 4 * n + (size_t{1} << 20);
  size_t work = 0;
  for (It begin = run + 1; begin < last;) {  // [first, begin) is sorted
    It end = begin + 1;
    while (end < last && !less(*end, *(end - 1))) ++end;
    if (less(*begin, *(begin - 1))) {
      It lo = std::upper_bound(first, begin, *begin, less);
      work += static_cast<size_t>(end - lo);
      if (work > budget) {
        std::stable_sort(first, last, less);
        return true;
      }
      std::inplace_merge(lo, begin, end, less);
    }
    begin = end;
  }
  return true;
}

// A stable sort order of rows by `less(i, j)`; empty when the rows are already in order.
template <typename Less>
std::vector<uint32_t> NearlySortedOrder(size_t n, Less less) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto stable_less = [&less](uint32_t a, uint32_t b) { return less(a, b) || (!less(b, a) && a < b); };
  if (!SortRuns(order.begin(), order.end(), stable_less)) return {};
  return order;
}

// Whether row a sorts before row b by (start, end), or by (start, end descending) for NVTX so that parents come
// before children. Not stable by itself: callers break ties by position.
template <typename Table>
bool TimeLess(const Table& t, bool end_descending, size_t a, size_t b) {
  const Ns sa = t.start[a], sb = t.start[b];
  if (sa != sb) return sa < sb;
  return end_descending ? t.end[a] > t.end[b] : t.end[a] < t.end[b];
}

// Rows [lo, hi) of every column (and of `slots`, when given) become rows order[0..] (absolute row indices).
template <typename Table>
void PermuteRange(Table& t, std::vector<uint8_t>* slots, size_t lo, const std::vector<uint32_t>& order) {
  std::vector<uint64_t> scratch(order.size());
  auto gather = [&](auto* col) {
    using T = std::remove_reference_t<decltype(col[0])>;
    static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>);
    T* tmp = reinterpret_cast<T*>(scratch.data());
    for (size_t i = 0; i < order.size(); ++i) tmp[i] = col[order[i]];
    std::copy(tmp, tmp + order.size(), col + lo);
  };
  ForEachColumn(t, [&](auto& col) { gather(col.data()); });
  if (slots) gather(slots->data());
}

// Sorts the loader part's slots [lo, hi) by time while they are in cache (loader threads, in parallel): kept
// rows first, by TimeLess and then by slot; the other slots (damaged rows, marks) after them, in slot order.
// Finalize then merges parts that are each sorted (MergeSortedRuns), instead of sorting the whole table.
template <typename Table>
void SortSlotRange(Table& t, std::vector<uint8_t>& slots, uint8_t kept, size_t lo, size_t hi, bool end_descending) {
  hi = std::min(hi, slots.size());
  if (hi <= lo + 1) return;
  auto less = [&](uint32_t a, uint32_t b) {
    const bool ka = slots[a] == kept, kb = slots[b] == kept;
    if (ka != kb) return ka;
    if (ka && TimeLess(t, end_descending, a, b)) return true;
    if (ka && TimeLess(t, end_descending, b, a)) return false;
    return a < b;
  };
  size_t i = lo + 1;
  while (i < hi && less(static_cast<uint32_t>(i - 1), static_cast<uint32_t>(i))) ++i;
  if (i >= hi) return;  // already in order
  std::vector<uint32_t> order(hi - lo);
  std::iota(order.begin(), order.end(), static_cast<uint32_t>(lo));
  // Adaptive: a part is a few interleaved sorted runs (ranges are written as they end), which SortRuns merges in
  // about linear time where std::sort took 3 times as long. `less` is a total order, so the result is stable.
  SortRuns(order.begin(), order.end(), less);
  PermuteRange(t, &slots, lo, order);
}

// Sorts a table made of sorted runs that overlap a little, as the loaded parts are: each run is merged with the
// tail of what precedes it that it overlaps, and only that window of each column is permuted, so the extra memory
// is a window's, not the table's (a row order and a scratch column of the whole table were 200 MB of the 2 GB
// export's peak). Ties keep their order (stable). Returns false, leaving the rows a permutation of what they were
// and the merges so far stable, once the windows would sum to more than a budget: the caller sorts the rest.
template <typename Table>
bool MergeSortedRuns(Table& t, bool end_descending) {
  const size_t n = t.size();
  const size_t budget = 4 * n + (size_t{1} << 20);
  size_t work = 0;
  auto less = [&](size_t a, size_t b) { return TimeLess(t, end_descending, a, b); };
  size_t begin = 1;
  while (begin < n && !less(begin, begin - 1)) ++begin;  // [0, begin) is sorted
  std::vector<uint32_t> order;
  size_t runs = 0;
  while (begin < n) {
    size_t end = begin + 1;
    while (end < n && !less(end, end - 1)) ++end;  // [begin, end) is a run
    ++runs;
    // Rows of the run that sort after the prefix's last row stay where they are: the window ends before them.
    size_t hi_first = begin + 1, hi_last = end;
    while (hi_first < hi_last) {
      const size_t mid = hi_first + (hi_last - hi_first) / 2;
      if (less(mid, begin - 1))
        hi_first = mid + 1;
      else
        hi_last = mid;
    }
    const size_t hi = hi_first;
    // The first row of the sorted prefix that must follow row `begin` (ties stay before it).
    size_t lo_first = 0, lo_last = begin;
    while (lo_first < lo_last) {
      const size_t mid = lo_first + (lo_last - lo_first) / 2;
      if (less(begin, mid))
        lo_last = mid;
      else
        lo_first = mid + 1;
    }
    const size_t lo = lo_first;
    work += hi - lo;
    if (work > budget) {
      if (StepTimingOn()) fmt::print(stderr, "[engine] merge: {} rows, over budget after {} runs\n", n, runs);
      return false;
    }
    order.resize(hi - lo);
    std::iota(order.begin(), order.end(), static_cast<uint32_t>(lo));
    std::inplace_merge(order.begin(), order.begin() + static_cast<ptrdiff_t>(begin - lo), order.end(),
                       [&](uint32_t a, uint32_t b) { return less(a, b); });
    PermuteRange(t, nullptr, lo, order);
    begin = end;
  }
  if (runs > 0 && StepTimingOn())
    fmt::print(stderr, "[engine] merge: {} rows, {} runs, {} rows moved through windows\n", n, runs, work);
  return true;
}

// Sorts a table by (start, end) (or by (start, end descending) for NVTX, so parents come before children).
template <typename Table>
void SortByTime(Table& t, bool end_descending = false) {
  // Kernel tables usually arrive in order: MergeSortedRuns' first pass over the two columns says so, and returns,
  // before any row order is made (a row order of n entries took 48 ms of the 2 GB export's first kernel summary).
  if (MergeSortedRuns(t, end_descending)) return;
  std::vector<uint32_t> order =
      NearlySortedOrder(t.size(), [&](uint32_t a, uint32_t b) { return TimeLess(t, end_descending, a, b); });
  if (!order.empty()) PermuteTable(t, order);
}

template <typename Table>
Ns MaxDuration(const Table& t) {
  Ns m = 0;
  for (size_t i = 0; i < t.start.size(); ++i) m = std::max(m, t.end[i] - t.start[i]);
  return m;
}

}  // namespace nsys::engine
