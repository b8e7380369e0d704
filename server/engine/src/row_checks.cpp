// RowDamage's wording and the thread-safe RowChecks report (model.h).
#include <fmt/format.h>

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "nsys/engine/model.h"

namespace nsys::engine {

std::string RowDamage::Describe() const {
  std::string reasons;
  auto add = [&reasons](int64_t n, std::string_view what) {
    if (n > 0) reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", n, what);
  };
  add(bad_time, "with a NULL or non-integer start or end");
  add(bad_span, "with an end before the start or a time beyond +-2^62 ns");
  add(unreadable, "lost to damaged pages (rowids missing or repeated)");
  std::string out;
  if (skipped() > 0) out = fmt::format("{} row{} skipped ({})", skipped(), skipped() == 1 ? "" : "s", reasons);
  if (unnamed > 0)
    out += fmt::format("{}{} row{} without a name (NULL or unknown string id)", out.empty() ? "" : "; ", unnamed,
                       unnamed == 1 ? "" : "s");
  return out;
}

void RowChecks::Expect(size_t tables) {
  std::lock_guard<std::mutex> lock(mu_);
  expected_ = tables;
}

void RowChecks::Record(RowDamage damage) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = damage.table;
  by_table_[key] = std::move(damage);
}

void RowChecks::MarkComplete() {
  std::lock_guard<std::mutex> lock(mu_);
  complete_ = true;
}

RowChecks::Report RowChecks::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  Report r;
  for (const auto& [name, d] : by_table_)
    if (d.any()) r.tables.push_back(d);
  r.complete = complete_ || (expected_ > 0 && by_table_.size() >= expected_);
  return r;
}

std::optional<RowDamage> RowChecks::Of(std::string_view table) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_table_.find(table);
  if (it == by_table_.end()) return std::nullopt;
  return it->second;
}

}  // namespace nsys::engine
