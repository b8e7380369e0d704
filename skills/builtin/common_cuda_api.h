#pragma once
// Shared by the skills that mirror NVIDIA's CUDA API rules (cuda-sync-memcpy, cuda-async-memcpy,
// cuda-sync-memset): memory-kind names, API-name matching with SQL LIKE semantics, and the common
// memcpy-rule table.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/skills/skill.h"

namespace nsys::skills::builtin {

// API name ids grouped by their text without nsys's "_vNNNN" version suffix (cuda_api_summary's grouping), so
// several ids of one API count as one; each id is mapped once.
class ApiNameGroups {
 public:
  explicit ApiNameGroups(const engine::StringPool& strings) : strings_(strings) {}
  int32_t IdOf(engine::StrId name);
  std::string_view Text(int32_t group) const { return text_[static_cast<size_t>(group)]; }
  size_t size() const { return text_.size(); }

 private:
  const engine::StringPool& strings_;
  std::vector<int32_t> group_of_name_;
  std::unordered_map<std::string_view, int32_t> group_of_text_;
  std::vector<std::string_view> text_;
};

// nsys's memcpy operation names by copy kind ("[CUDA memcpy HtoD]", "[CUDA Unified Memory memcpy DtoH]"), as
// memory_transfers lists them.
std::string MemcpyOperationName(int copy_kind);

// ENUM_CUDA_MEM_KIND's pageable host memory.
inline constexpr int8_t kPageable = 0;
// ENUM_CUDA_MEM_KIND names as NVIDIA's rules print them; "" for unknown (-1).
std::string MemKindName(int kind);
// "HtoD", "DtoH", ... for a CopyKind value.
std::string CopyKindName(int copy_kind);

// Case-insensitive like SQLite's LIKE for ASCII: LIKE 'prefix%' and LIKE '%needle%'.
bool LikePrefix(std::string_view s, std::string_view prefix);
bool LikeContains(std::string_view s, std::string_view needle);

// The `limit` argument shared by the rule skills: 0 = every row.
inline ArgSpec RuleLimitArg(int64_t default_limit) {
  return LimitArg(default_limit, "Maximum rows to return, longest first; 0 returns every row.");
}

// A memcpy rule: keeps memcpys whose launching runtime call's name passes `api_matches` and whose row
// passes `row_matches` (row index into MemcpyTable). Builds the rows (longest first), summary notes and
// coverage notes. `what` names the finding in notes ("synchronous memcpy").
struct MemcpyRule {
  std::string what;
  std::function<bool(std::string_view api_name)> api_matches;
  std::function<bool(const engine::MemcpyTable& t, size_t row)> row_matches;
  std::string criteria_note;  // one sentence stating the rule
};
Expected<Table> RunMemcpyRule(const Context& ctx, const MemcpyRule& rule);

// Orders rows of `table` (any table with start/end columns) as NVIDIA's rule reports list them: longest first,
// the earlier start first among equal durations.
template <typename EventTable>
void SortLongestFirst(std::vector<size_t>& rows, const EventTable& table) {
  std::sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
    const engine::Ns da = table.end[a] - table.start[a], db = table.end[b] - table.start[b];
    return da != db ? da > db : table.start[a] < table.start[b];
  });
}

// Keeps the first `limit` rows (0 = all) and says so in the notes.
void ApplyLimit(Table& table, int64_t limit, const std::string& order_description);

}  // namespace nsys::skills::builtin
