// The name pattern's matcher: a glob over ASCII letters compared without case, anchored nowhere.
#include "nsys/support/name_pattern.h"

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

namespace nsys {
namespace {

bool SameNoCase(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// Whether `pattern` matches all of `name` from its start ('*' any run). On a mismatch it goes back only to the last
// '*' seen, one character further: each (name, pattern) position pair is visited at most once per star, so the cost
// is bounded by name x pattern.
bool MatchesWhole(std::string_view name, std::string_view pattern) {
  size_t n = 0, p = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && SameNoCase(pattern[p], name[n])) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace

bool NamePatternMatches(std::string_view name, std::string_view pattern) {
  if (pattern.empty()) return true;
  // Anywhere in the name: the pattern between two stars, which the matcher reads in one pass.
  std::string anywhere;
  anywhere.reserve(pattern.size() + 2);
  anywhere += '*';
  anywhere += pattern;
  anywhere += '*';
  return MatchesWhole(name, anywhere);
}

}  // namespace nsys
