// libFuzzer target: arbitrary bytes as a .gitignore file and paths → source::IgnoreFile::Parse / Match and
// source::GlobMatch. The input is the file's text, a NUL byte, then paths one per line. Checks that nothing crashes,
// that matching stays fast (-timeout: it is O(path x pattern)), and that GlobMatch gives the answer of the
// recursive definition below (the matcher GlobMatch replaced, exponential in the stars) wherever that one is cheap:
// at most 3 stars, patterns and paths of at most 32 bytes.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_glob
//   mkdir -p /tmp/fuzz_glob && ./build-asan/tests/fuzz/fuzz_glob -runs=500000 -max_len=8192 /tmp/fuzz_glob \
//       tests/fuzz/corpus_glob
// New inputs go to the first folder; the seeds stay as they are.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/source/gitignore.h"

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_glob: %s\n", what.c_str());
  std::abort();
}

// The recursive matcher as it was: the reference for the semantics.
bool ReferenceClass(std::string_view pattern, char c, size_t& used) {
  size_t i = 1;
  const bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool in = false;
  const size_t start = i;
  for (; i < pattern.size() && (pattern[i] != ']' || i == start); ++i) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      in |= c >= pattern[i] && c <= pattern[i + 2];
      i += 2;
    } else {
      in |= c == pattern[i];
    }
  }
  if (i >= pattern.size()) {
    used = 0;
    return c == '[';
  }
  used = i + 1;
  return in != negate && c != '/';
}

bool ReferenceGlob(std::string_view p, std::string_view s) {
  while (!p.empty()) {
    if (p.substr(0, 2) == "**") {
      std::string_view rest = p.substr(2);
      if (!rest.empty() && rest[0] == '/') {
        rest.remove_prefix(1);
        for (size_t i = 0; i <= s.size(); ++i) {
          if ((i == 0 || s[i - 1] == '/') && ReferenceGlob(rest, s.substr(i))) return true;
        }
        return false;
      }
      for (size_t i = 0; i <= s.size(); ++i) {
        if (ReferenceGlob(rest, s.substr(i))) return true;
      }
      return false;
    }
    if (p[0] == '*') {
      const std::string_view rest = p.substr(1);
      for (size_t i = 0; i <= s.size(); ++i) {
        if (ReferenceGlob(rest, s.substr(i))) return true;
        if (i < s.size() && s[i] == '/') break;
      }
      return false;
    }
    if (s.empty()) return false;
    if (p[0] == '?') {
      if (s[0] == '/') return false;
      p.remove_prefix(1);
    } else if (p[0] == '[') {
      size_t used = 0;
      if (!ReferenceClass(p, s[0], used)) return false;
      p.remove_prefix(used == 0 ? 1 : used);
    } else {
      if (p[0] == '\\' && p.size() > 1) p.remove_prefix(1);
      if (p[0] != s[0]) return false;
      p.remove_prefix(1);
    }
    s.remove_prefix(1);
  }
  return s.empty();
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    out.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string_view file = input.substr(0, nul);
  const std::string_view paths = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  const auto ignore = nsys::source::IgnoreFile::Parse(file, "");
  const auto nested = nsys::source::IgnoreFile::Parse(file, "sub");
  const auto patterns = Lines(file);
  const auto all_paths = Lines(paths);
  // The first 256 paths through both files; the first 64 patterns x 64 paths also against the reference.
  for (size_t i = 0; i < all_paths.size() && i < 256; ++i) {
    const std::string_view path = all_paths[i];
    for (const bool is_dir : {false, true}) {
      const int m = ignore.Match(path, is_dir);
      if (m < -1 || m > 1) Fail("Match out of range");
      if (nested.Match(std::string("sub/") + std::string(path), is_dir) != m) Fail("a nested file differs");
    }
    for (size_t j = 0; i < 64 && j < patterns.size() && j < 64; ++j) {
      const std::string_view pattern = patterns[j];
      const bool got = nsys::source::GlobMatch(pattern, path);
      if (pattern.size() > 32 || path.size() > 32 || std::count(pattern.begin(), pattern.end(), '*') > 3) continue;
      if (got != ReferenceGlob(pattern, path)) {
        Fail("GlobMatch('" + std::string(pattern) + "', '" + std::string(path) + "') = " + (got ? "true" : "false") +
             ", the reference says otherwise");
      }
    }
  }
  return 0;
}
