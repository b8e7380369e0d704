#include "nsys/support/human_numbers.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace nsys::support {
namespace {

std::string OneDecimal(double v, const char* unit) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.1f %s", v, unit);
  return text;
}

}  // namespace

std::string Thousands(int64_t v) {
  // The magnitude as unsigned: -(v + 1) + 1 is INT64_MIN's too.
  const std::string digits = std::to_string(v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string HumanDuration(double ns) {
  const double a = std::fabs(ns);
  if (ns != 0 && a < 1e5) return OneDecimal(ns / 1e3, "µs");
  if (a < 1e11) return OneDecimal(ns / 1e6, "ms");
  return Thousands(std::llround(ns / 1e9)) + " s";
}

std::string HumanGigabytes(double bytes) {
  const double gb = bytes / 1e9;
  if (std::fabs(gb) < 1000) return OneDecimal(gb, "GB");
  return Thousands(std::llround(gb)) + " GB";
}

}  // namespace nsys::support
