// The name pattern's matcher: a glob over ASCII letters compared without case, anchored nowhere.
#include "nsys/support/name_pattern.h"

#include <cctype>
#include <cstddef>
#include <string_view>

namespace nsys {
namespace {

bool SameNoCase(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

}  // namespace

// The pattern is read as if a '*' stood before and after it (anywhere in the name). On a mismatch the matcher goes
// back only to the last '*' seen (at first the one before the pattern), one character of the name further: each
// (name, pattern) position pair is visited at most once per star, so the cost is bounded by name x pattern.
bool NamePatternMatches(std::string_view name, std::string_view pattern) {
  size_t n = 0, p = 0;
  size_t after_star = 0, resume = 0;  // the pattern just after the last '*', and where the name resumes from it
  while (p < pattern.size()) {
    if (pattern[p] == '*') {
      after_star = ++p;
      resume = n;
    } else if (n < name.size() && SameNoCase(pattern[p], name[n])) {
      ++p;
      ++n;
    } else if (resume < name.size()) {
      p = after_star;
      n = ++resume;
    } else {
      return false;
    }
  }
  return true;  // the rest of the name is the '*' after the pattern
}

}  // namespace nsys
