#include "common_cuda_api.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "common_gpu_ops.h"
#include "common_rows.h"
#include "nsys/skills/stats.h"

namespace nsys::skills::builtin {

std::string MemKindName(int kind) {
  switch (kind) {
    case 0:
      return "Pageable";
    case 1:
      return "Pinned";
    case 2:
      return "Device";
    case 3:
      return "Array";
    case 4:
      return "Managed";
    case 5:
      return "Device Static";
    case 6:
      return "Managed Static";
    case 7:
      return "Unknown";
    default:
      return "";
  }
}

std::string CopyKindName(int copy_kind) {
  static const char* const kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                       "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  static const char* const kUnified[] = {"Unified HtoD", "Unified DtoH", "Unified DtoD"};  // 11, 12, 13
  if (copy_kind >= 0 && copy_kind <= 10) return kNames[copy_kind];
  if (copy_kind >= 11 && copy_kind <= 13) return kUnified[copy_kind - 11];
  return fmt::format("kind {}", copy_kind);
}

int32_t ApiNameGroups::IdOf(engine::StrId name) {
  if (name >= group_of_name_.size()) group_of_name_.resize(static_cast<size_t>(name) + 1, -1);
  int32_t& group = group_of_name_[name];
  if (group < 0) {
    const std::string_view text = StripApiVersionSuffix(strings_.view(name));
    auto [it, inserted] = group_of_text_.try_emplace(text, static_cast<int32_t>(text_.size()));
    if (inserted) text_.push_back(text);
    group = it->second;
  }
  return group;
}

std::string MemcpyOperationName(int copy_kind) {
  static const char* const kUnified[] = {"HtoD", "DtoH", "DtoD"};  // copy kinds 11, 12, 13
  if (copy_kind >= 11 && copy_kind <= 13)
    return fmt::format("[CUDA Unified Memory memcpy {}]", kUnified[copy_kind - 11]);
  return fmt::format("[CUDA memcpy {}]", copy_kind >= 0 && copy_kind <= 10 ? CopyKindName(copy_kind) : "Unknown");
}

bool LikePrefix(std::string_view s, std::string_view prefix) {
  return StartsWithNoCase(s, prefix);
}
bool LikeContains(std::string_view s, std::string_view needle) {
  return ContainsNoCase(s, needle);
}

void ApplyLimit(Table& table, int64_t limit, const std::string& order_description) {
  if (limit > 0 && table.rows.size() > static_cast<size_t>(limit)) {
    table.notes.push_back(fmt::format("Showing the first {} of {} rows ({}); pass limit=0 for all.", limit,
                                      table.rows.size(), order_description));
    table.rows.resize(static_cast<size_t>(limit));
  }
}

namespace {

// The memcpys the rule keeps, in table order, with the counts its coverage notes need.
struct MemcpyHits {
  std::vector<size_t> rows;
  int64_t considered = 0, without_launch = 0;
};

// False when cancelled.
bool FindMemcpyHits(const Context& ctx, const MemcpyRule& rule, MemcpyHits& out) {
  const engine::MemcpyTable& m = ctx.profile.memcpys();
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  NameClassCache api(ctx.profile.strings(), [&](std::string_view n) -> uint8_t { return rule.api_matches(n); });
  auto [first, last] = RowRange(m, ctx.filter);
  for (size_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return false;
    if (!ctx.filter.AcceptsDevice(m.device[i]) || !ctx.filter.AcceptsProcess(m.pid[i])) {
      continue;
    }
    ++out.considered;
    const int32_t launch = m.launch[i];
    if (launch < 0) {
      ++out.without_launch;
      continue;
    }
    if (api(rt.name[static_cast<size_t>(launch)]) && rule.row_matches(m, i)) out.rows.push_back(i);
  }
  return true;
}

Table MemcpyRuleTable() {
  Table t;
  t.columns = {IntCol("duration_ns", "Duration of the copy on the GPU"),
               IntCol("start_ns", "GPU start on the capture clock"),
               StringCol("src_kind", "Source memory kind (Pageable, Pinned, Device, ...)"),
               StringCol("dst_kind", "Destination memory kind"),
               IntCol("bytes", "Bytes copied"),
               IntCol("pid", "Process id"),
               IntCol("device_id", "GPU device id"),
               IntCol("stream_id", "CUDA stream id"),
               StringCol("copy_kind", "Direction (HtoD, DtoH, DtoD, PtoP, ...)"),
               StringCol("api_name", "The runtime call that issued the copy")};
  return t;
}

}  // namespace

Expected<Table> RunMemcpyRule(const Context& ctx, const MemcpyRule& rule) {
  const engine::ProfileInfo& info = ctx.profile.info();
  if (!info.caps.memcpy) {
    return Declined("This profile has no CUDA memcpy activity (no CUPTI_ACTIVITY_KIND_MEMCPY rows), so there is no " +
                    rule.what + " to find.");
  }
  if (!info.caps.runtime) {
    return Declined(
        "This profile has no CUDA runtime API trace (CUPTI_ACTIVITY_KIND_RUNTIME), so memcpys cannot be "
        "matched to the API call that issued them.");
  }
  const engine::MemcpyTable& m = ctx.profile.memcpys();
  const engine::RuntimeTable& rt = ctx.profile.runtime();
  MemcpyHits hits;
  if (!FindMemcpyHits(ctx, rule, hits)) return CancelledError();
  SortLongestFirst(hits.rows, m);

  Table t = MemcpyRuleTable();
  Ns total_ns = 0;
  int64_t total_bytes = 0;
  std::map<std::string, std::pair<int64_t, Ns>> by_api;
  for (size_t i : hits.rows) {
    const std::string api_name(ctx.profile.strings().view(rt.name[static_cast<size_t>(m.launch[i])]));
    const Ns dur = m.end[i] - m.start[i];
    total_ns += dur;
    total_bytes += m.bytes[i];
    auto& agg = by_api[api_name];
    ++agg.first;
    agg.second += dur;
    t.rows.push_back({I(dur), I(m.start[i]), S(MemKindName(m.src_kind[i])), S(MemKindName(m.dst_kind[i])),
                      I(m.bytes[i]), I(m.pid[i]), I(m.device[i]), I(m.stream[i]), S(CopyKindName(m.copy_kind[i])),
                      S(api_name)});
  }
  t.notes.push_back(rule.criteria_note);
  if (hits.rows.empty()) {
    t.notes.push_back(fmt::format("No {} found among {} memcpys.", rule.what, hits.considered));
  } else {
    std::string per_api;
    for (const auto& [name, agg] : by_api) {
      per_api += fmt::format("{}{} x{} ({})", per_api.empty() ? "" : ", ", name, agg.first, FormatDuration(agg.second));
    }
    t.notes.push_back(fmt::format("{} {} of {} memcpys: {} on the GPU, {} bytes. By API: {}.", hits.rows.size(),
                                  rule.what, hits.considered, FormatDuration(total_ns), total_bytes, per_api));
  }
  if (hits.without_launch > 0) {
    t.notes.push_back(fmt::format(
        "Coverage: {} of {} memcpys have no launching runtime call in this export (cut at a window edge or not "
        "traced), so their API is unknown and they were not checked.",
        hits.without_launch, hits.considered));
  }
  t.notes.push_back(
      "Memcpys are matched to their API call on (pid, correlationId); NVIDIA's rule joins on correlationId alone, "
      "which pairs copies with calls of other processes when several are traced. The context id column of "
      "NVIDIA's output is not reproduced.");
  t.notes.push_back(WindowNote(ctx.filter));
  ApplyLimit(t, ArgInt(ctx, "limit"), "longest first");
  return t;
}

}  // namespace nsys::skills::builtin
