#include "diff_tables.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <variant>

namespace nsys::agent::diff_detail {

const Value* TableView::CellOf(size_t row, std::string_view column) const {
  if (!ok() || row >= t_->rows.size()) return nullptr;
  for (size_t c = 0; c < t_->columns.size(); ++c) {
    if (t_->columns[c].name == column) return c < t_->rows[row].size() ? &t_->rows[row][c] : nullptr;
  }
  return nullptr;
}

double TableView::Num(size_t row, std::string_view column) const {
  const Value* v = CellOf(row, column);
  if (v == nullptr) return kNaN;
  if (const auto* i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(v)) return *d;
  return kNaN;
}

int64_t TableView::Int(size_t row, std::string_view column) const {
  const Value* v = CellOf(row, column);
  if (v == nullptr) return 0;
  if (const auto* i = std::get_if<int64_t>(v)) return *i;
  if (const auto* d = std::get_if<double>(v)) return std::isfinite(*d) ? static_cast<int64_t>(std::llround(*d)) : 0;
  return 0;
}

std::string TableView::Str(size_t row, std::string_view column) const {
  const Value* v = CellOf(row, column);
  if (v == nullptr) return {};
  if (const auto* s = std::get_if<std::string>(v)) return *s;
  return {};
}

double Median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

double RobustSd(const std::vector<double>& v) {
  const double m = Median(v);
  if (!std::isfinite(m)) return kNaN;
  std::vector<double> dev;
  dev.reserve(v.size());
  for (double x : v) dev.push_back(std::fabs(x - m));
  return 1.4826 * Median(std::move(dev));
}

double ChangePct(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || a == 0) return kNaN;
  return (b - a) / a * 100.0;
}

}  // namespace nsys::agent::diff_detail
