// NVTX_EVENTS: push/pop (59) and start/end (60) ranges, marks (34). Domain creates (75) and other event
// types are skipped. Ranges whose end is NULL (cut by the capture window) get end = start, as model.h says:
// a zero-length range keeps its name and position without claiming time the capture did not see.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loaders.h"
#include "step_timer.h"
#include "table_ops.h"

namespace nsys::engine {

namespace {
constexpr std::string_view kOpIdInfix = ", op_id = ";

// Interns names through a per-part cache, so the shared pool's lock is taken once per distinct name.
class NameCache {
 public:
  explicit NameCache(StringPool& pool, const StringIdMap& ids) : pool_(pool), ids_(ids) {}

  std::pair<StrId, int64_t> FromText(std::string_view text) {
    auto [name, op_id] = SplitOpId(text);
    return {Intern(name), op_id};
  }
  std::pair<StrId, int64_t> FromTextId(int64_t text_id) {
    auto it = by_text_id_.find(text_id);
    if (it != by_text_id_.end()) return it->second;
    const StrId whole = ids_.Lookup(text_id);
    auto [name, op_id] = SplitOpId(pool_.view(whole));
    auto result = std::make_pair(op_id < 0 ? whole : Intern(name), op_id);
    by_text_id_.emplace(text_id, result);
    return result;
  }

 private:
  // A part reads 262,144 rows with a few hundred distinct names, so nearly every row finds its name in a small
  // direct-mapped cache, by a hash of the length and the first and last 8 bytes and one compare, before std::hash
  // over the whole name and a bucket chain (those were 11% of the 2 GB export's load CPU).
  StrId Intern(std::string_view name) {
    Slot& slot = slots_[QuickHash(name) % kSlots];
    if (slot.used && slot.name == name) return slot.id;
    StrId id;
    if (auto it = by_name_.find(name); it != by_name_.end()) {
      id = it->second;
    } else {
      id = pool_.intern(name);
      by_name_.emplace(pool_.view(id), id);  // the key views the pooled copy, which never moves
    }
    slot = Slot{pool_.view(id), id, true};
    return id;
  }

  static uint64_t QuickHash(std::string_view s) {
    uint64_t head = 0, tail = 0;
    if (!s.empty()) std::memcpy(&head, s.data(), std::min<size_t>(s.size(), 8));
    if (s.size() > 8) std::memcpy(&tail, s.data() + s.size() - 8, 8);
    return ((head ^ (tail * 0x9E3779B97F4A7C15ULL) ^ s.size()) * 0xFF51AFD7ED558CCDULL) >> 32;
  }

  struct Slot {
    std::string_view name;  // views the pooled copy
    StrId id = 0;
    bool used = false;
  };
  static constexpr size_t kSlots = 1024;

  StringPool& pool_;
  const StringIdMap& ids_;
  std::array<Slot, kSlots> slots_{};
  std::unordered_map<std::string_view, StrId> by_name_;
  std::unordered_map<int64_t, std::pair<StrId, int64_t>> by_text_id_;
};

// Push/pop nesting per thread: rows arrive sorted by (start, end desc), so a row's parent is the innermost
// range on its thread's stack that contains it. Ranges that ended before the row starts are popped for good.
void ResolveNesting(NvtxTable& t) {
  const size_t n = t.size();
  t.parent.resize(n);  // each row written once below: no separate fill pass
  std::unordered_map<uint64_t, std::vector<int32_t>> stacks;
  uint64_t last_key = ~uint64_t{0};
  std::vector<int32_t>* stack = nullptr;
  for (size_t r = 0; r < n; ++r) {
    t.parent[r] = kNone;
    if (t.style[r] != NvtxStyle::kPushPop) continue;
    const uint64_t key = (uint64_t{t.pid[r]} << 32) | t.tid[r];
    if (key != last_key) {
      stack = &stacks[key];
      last_key = key;
    }
    while (!stack->empty() && t.end[stack->back()] < t.start[r]) stack->pop_back();
    for (auto it = stack->rbegin(); it != stack->rend(); ++it) {
      if (t.end[*it] >= t.end[r]) {
        t.parent[r] = *it;
        break;
      }
    }
    stack->push_back(static_cast<int32_t>(r));
  }
}
}  // namespace

std::pair<std::string_view, int64_t> SplitOpId(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && digits < 11 && text[text.size() - 1 - digits] >= '0' &&
         text[text.size() - 1 - digits] <= '9')
    ++digits;
  if (digits == 0 || digits == text.size()) return {text, -1};
  const size_t number_at = text.size() - digits;
  if (number_at < kOpIdInfix.size() || text.substr(number_at - kOpIdInfix.size(), kOpIdInfix.size()) != kOpIdInfix)
    return {text, -1};
  if (digits > 1 && text[number_at] == '0') return {text, -1};  // "007" would not print back the same
  int64_t op_id = 0;
  std::from_chars(text.data() + number_at, text.data() + text.size(), op_id);
  if (op_id > INT32_MAX) return {text, -1};  // the model's op_id is 32 bits: the number stays in the name
  return {text.substr(0, number_at - kOpIdInfix.size()), op_id};
}

std::string FormatNvtxName(std::string_view name, int64_t op_id) {
  if (op_id < 0) return std::string(name);
  return fmt::format("{}{}{}", name, kOpIdInfix, op_id);
}

// One row handler (the hot loop) serves both read paths: the page walk and the SQLite fallback.
// Long: as one lambda in one function, the handler is inlined into both scans.
Status LoadNvtxPart(PartContext& ctx, RowidRange range, NvtxStaging& stg) {
  const Schema& s = *ctx.env->schema;
  std::string select;
  std::vector<int> positions;
  for (std::string_view c :
       {"start", "end", "eventType", "globalTid", "endGlobalTid", "text", "textId", "domainId", "category", "color"}) {
    if (!select.empty()) select += ", ";
    select += c == "start" || c == "end" ? TimeColumnSql(s.Col(kNvtxTable, c)) : s.Col(kNvtxTable, c);
    positions.push_back(s.Position(kNvtxTable, c));
  }
  NameCache names(*ctx.env->pool, *ctx.env->ids);
  DictionaryCache<NvtxAttributes> attributes(stg.attributes);
  NvtxMarkTable marks;
  NvtxTable& t = stg.table;
  if (!stg.dense) stg.Reset(range.first, range.last);  // a resumed append-mode part starts over
  int64_t pending = 0;
  auto handle = [&](const auto& st) {
    if (++pending == kProgressRows) {
      ctx.rows_done->fetch_add(pending, std::memory_order_relaxed);
      pending = 0;
    }
    const int64_t type = st.Int(3);
    const bool wanted = type == kNvtxPushPop || type == kNvtxStartEnd || type == kNvtxMark;
    if (!wanted && !stg.dense) return;  // append mode: only stored rows take a slot
    const size_t slot = stg.Slot(st.Int(0));
    if (slot >= stg.filled.size()) return;
    if (!wanted) {
      stg.filled[slot] = kSlotOther;
      return;
    }
    // Marks have no end; a range whose end is NULL was cut by the capture window and gets end = start.
    const SlotState state = CheckRowTimes(st, 1, 2, /*end_optional=*/true);
    if (state != kSlotKept || type == kNvtxMark) stg.filled[slot] = state == kSlotKept ? kSlotOther : state;
    if (state != kSlotKept) return;
    const int64_t gtid = st.Int(4);
    if (type == kNvtxMark) {  // marks keep their whole text: they have no FullName() to rebuild it
      marks.time.push_back(st.Int(1));
      marks.pid.push_back(PidOf(gtid));
      marks.tid.push_back(TidOf(gtid));
      marks.name.push_back(!st.IsNull(6)   ? ctx.env->pool->intern(st.Text(6))
                           : !st.IsNull(7) ? ctx.env->ids->Lookup(st.Int(7))
                                           : 0);
      return;
    }
    std::pair<StrId, int64_t> name{0, -1};
    if (!st.IsNull(6)) {
      name = names.FromText(st.Text(6));
    } else if (!st.IsNull(7)) {
      name = names.FromTextId(st.Int(7));
    }
    t.start[slot] = st.Int(1);
    t.end[slot] = st.IsNull(2) ? t.start[slot] : st.Int(2);
    t.pid[slot] = PidOf(gtid);
    t.tid[slot] = TidOf(gtid);
    t.name[slot] = name.first;
    t.op_id[slot] = static_cast<int32_t>(name.second);  // SplitOpId gives -1 or at most INT32_MAX
    t.style[slot] = type == kNvtxPushPop ? NvtxStyle::kPushPop : NvtxStyle::kStartEnd;
    NvtxAttributes a;
    a.domain = static_cast<int32_t>(st.Int(8));
    a.category = static_cast<int32_t>(st.Int(9));
    a.color = static_cast<uint32_t>(st.Int(10));
    a.end_tid = st.IsNull(5) ? TidOf(gtid) : TidOf(st.Int(5));
    t.attrs[slot] = attributes.Intern(a);
    stg.filled[slot] = kSlotKept;
  };
  bool done = false;
  const TableExtent extent = s.Extent(kNvtxTable);
  if (ctx.file && extent.direct && stg.dense) {
    const auto result = ctx.file->Scan(extent.root_page, range.first, range.last, positions, ctx.abort,
                                       [&](const RecordRow& row) { handle(row); });
    if (result == ExportFile::ScanResult::kCancelled) return MakeError(ErrorKind::kCancelled, "Loading was cancelled.");
    // A rowid of the part left unread means a damaged page the walk passed over: SQLite reads the part.
    done = result == ExportFile::ScanResult::kOk && stg.Complete(range.first, range.last);
    if (!done) {  // SQLite reads the part again, alone
      marks = NvtxMarkTable{};
      stg.Reset(range.first, range.last);
    }
  }
  if (!done) {
    const std::string sql = fmt::format("SELECT rowid, {} FROM {} WHERE rowid BETWEEN ?1 AND ?2", select, kNvtxTable);
    auto stmt = ctx.db->Prepare(sql);
    if (!stmt) return stmt.error();
    stmt->Bind(1, range.first);
    stmt->Bind(2, range.last);
    int rc;
    while ((rc = stmt->Step()) == SQLITE_ROW) handle(*stmt);
    if (rc != SQLITE_DONE)
      return sql::SqliteError(rc, fmt::format("reading {}: {}", kNvtxTable, ctx.db->ErrorMessage()), ctx.env->path);
  }
  ctx.rows_done->fetch_add(pending, std::memory_order_relaxed);
  SortPart(stg, range, /*end_descending=*/true);
  if (marks.size() > 0) {
    std::lock_guard<std::mutex> lock(stg.marks_mu);
    stg.mark_parts.emplace_back(range.first, std::move(marks));
  }
  return {};
}

RowDamage Finalize(NvtxStaging& stg, NvtxTable& out, NvtxMarkTable& marks_out) {
  StepTimer timer;
  RowDamage damage;
  CountSlots(stg.filled, stg.dense, damage);
  if (std::find(stg.filled.begin(), stg.filled.end(), 0) != stg.filled.end()) CompactTable(stg.table, stg.filled);
  std::vector<uint8_t>().swap(stg.filled);
  timer.Lap("nvtx finalize: compact");
  SortByTime(stg.table, /*end_descending=*/true);
  timer.Lap("nvtx finalize: sort");
  stg.table.max_duration = MaxDuration(stg.table);
  ResolveNesting(stg.table);
  timer.Lap("nvtx finalize: nesting");
  out = std::move(stg.table);
  stg.table = NvtxTable{};
  out.attributes = stg.attributes.Take();
  CanonicalizeDictionary(out.attrs, out.attributes);
  timer.Lap("nvtx finalize: attributes");

  NvtxMarkTable marks;
  std::sort(stg.mark_parts.begin(), stg.mark_parts.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });  // rowid order, whatever finished first
  for (auto& [first_rowid, part] : stg.mark_parts) {
    marks.time.insert(marks.time.end(), part.time.begin(), part.time.end());
    marks.pid.insert(marks.pid.end(), part.pid.begin(), part.pid.end());
    marks.tid.insert(marks.tid.end(), part.tid.begin(), part.tid.end());
    marks.name.insert(marks.name.end(), part.name.begin(), part.name.end());
  }
  stg.mark_parts.clear();
  const auto& time = marks.time;
  std::vector<uint32_t> order =
      NearlySortedOrder(time.size(), [&](uint32_t a, uint32_t b) { return time[a] < time[b]; });
  if (!order.empty()) PermuteTable(marks, order);
  marks_out = std::move(marks);
  return damage;
}

}  // namespace nsys::engine
