#include "nsys/support/human_duration.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace nsys::support {
namespace {

// A whole number with thousands separators: "1,842".
std::string Grouped(double v) {
  const long long whole = std::llround(v);
  std::string digits = std::to_string(std::llabs(whole));
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
  return (whole < 0 ? "-" : "") + digits;
}

std::string OneDecimal(double v, const char* unit) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.1f %s", v, unit);
  return text;
}

}  // namespace

std::string HumanDuration(double ns) {
  const double a = std::fabs(ns);
  if (ns != 0 && a < 1e5) return OneDecimal(ns / 1e3, "µs");
  if (a < 1e11) return OneDecimal(ns / 1e6, "ms");
  return Grouped(ns / 1e9) + " s";
}

std::string HumanGigabytes(double bytes) {
  const double gb = bytes / 1e9;
  if (std::fabs(gb) < 1000) return OneDecimal(gb, "GB");
  return Grouped(gb) + " GB";
}

}  // namespace nsys::support
