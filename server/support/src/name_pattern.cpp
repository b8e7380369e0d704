// The name pattern's matcher: a glob over ASCII letters compared without case, anchored nowhere.
#include "nsys/support/name_pattern.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string_view>

namespace nsys {
namespace {

bool SameNoCase(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// The pattern is read as if a '*' stood before and after it (anywhere in the name). On a mismatch the matcher goes
// back only to the last '*' seen (at first the one before the pattern), one character of the name further: each
// (name, pattern) position pair is visited at most once per star, so the cost is bounded by name x pattern.
bool GlobMatches(std::string_view name, std::string_view pattern) {
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

}  // namespace

// Each alternative once: the cost stays bounded by name x pattern. Without '|', the glob itself (an empty pattern is
// a part of every name).
bool NamePatternMatches(std::string_view name, std::string_view pattern) {
  if (pattern.find('|') == std::string_view::npos) return GlobMatches(name, pattern);
  for (size_t from = 0; from <= pattern.size();) {
    const size_t bar = std::min(pattern.find('|', from), pattern.size());
    const std::string_view alternative = pattern.substr(from, bar - from);
    if (!alternative.empty() && GlobMatches(name, alternative)) return true;
    from = bar + 1;
  }
  return false;
}

}  // namespace nsys
