#pragma once
// Reading skill tables by column name, and the small statistics the diff needs. Internal to the agent's diff.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/skills/skill.h"

namespace nsys::agent::diff_detail {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A skill table read by column name; a missing column reads as NaN / 0 / "".
class TableView {
 public:
  explicit TableView(const skills::Table* table) : t_(table) {}
  bool ok() const { return t_ != nullptr && !t_->declined; }
  size_t size() const { return ok() ? t_->rows.size() : 0; }
  double Num(size_t row, std::string_view column) const;
  int64_t Int(size_t row, std::string_view column) const;
  std::string Str(size_t row, std::string_view column) const;
  const skills::Table* table() const { return t_; }

 private:
  const Value* CellOf(size_t row, std::string_view column) const;
  const skills::Table* t_;
};

double Median(std::vector<double> v);  // NaN when empty
// 1.4826 x the median absolute deviation: the standard deviation of normal samples, robust to outliers.
double RobustSd(const std::vector<double>& v);
// (b - a) / a * 100, NaN when a is 0 or either is NaN.
double ChangePct(double a, double b);

}  // namespace nsys::agent::diff_detail
