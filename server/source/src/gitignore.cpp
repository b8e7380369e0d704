// The .gitignore subset (see gitignore.h).
#include "nsys/source/gitignore.h"

namespace nsys::source {
namespace {

// `[...]` at pattern[0]: whether c is in the class; `used` gets the class's length (0 when it is not a class).
bool ClassMatch(std::string_view pattern, char c, size_t& used) {
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
    used = 0;  // no closing bracket: a literal '['
    return c == '[';
  }
  used = i + 1;
  return in != negate && c != '/';
}

}  // namespace

bool GlobMatch(std::string_view p, std::string_view s) {
  while (!p.empty()) {
    if (p.substr(0, 2) == "**") {
      std::string_view rest = p.substr(2);
      if (!rest.empty() && rest[0] == '/') {  // `**/`: zero or more directories
        rest.remove_prefix(1);
        for (size_t i = 0; i <= s.size(); ++i) {
          if ((i == 0 || s[i - 1] == '/') && GlobMatch(rest, s.substr(i))) return true;
        }
        return false;
      }
      for (size_t i = 0; i <= s.size(); ++i) {
        if (GlobMatch(rest, s.substr(i))) return true;
      }
      return false;
    }
    if (p[0] == '*') {
      const std::string_view rest = p.substr(1);
      for (size_t i = 0; i <= s.size(); ++i) {
        if (GlobMatch(rest, s.substr(i))) return true;
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
      if (!ClassMatch(p, s[0], used)) return false;
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

IgnoreFile IgnoreFile::Parse(std::string_view text, std::string base) {
  IgnoreFile f;
  f.base_ = std::move(base);
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (!line.empty() && line.back() == ' ' && !(line.size() >= 2 && line[line.size() - 2] == '\\')) {
      line.remove_suffix(1);  // trailing spaces, unless escaped
    }
    if (line.empty() || line[0] == '#') continue;
    Pattern p;
    if (line[0] == '!') {
      p.negate = true;
      line.remove_prefix(1);
    } else if (line[0] == '\\') {
      line.remove_prefix(1);  // "\#" and "\!" begin literally
    }
    if (!line.empty() && line.back() == '/') {
      p.dir_only = true;
      line.remove_suffix(1);
    }
    if (!line.empty() && line[0] == '/') {
      p.anchored = true;
      line.remove_prefix(1);
    }
    if (line.find('/') != std::string_view::npos) p.anchored = true;
    if (line.empty()) continue;
    p.glob = std::string(line);
    f.patterns_.push_back(std::move(p));
  }
  return f;
}

int IgnoreFile::Match(std::string_view path, bool is_dir) const {
  if (!base_.empty()) {
    if (path.size() <= base_.size() || path.substr(0, base_.size()) != base_ || path[base_.size()] != '/') return 0;
    path.remove_prefix(base_.size() + 1);
  }
  const size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->dir_only && !is_dir) continue;
    if (GlobMatch(it->glob, it->anchored ? path : name)) return it->negate ? -1 : 1;
  }
  return 0;
}

bool IgnoreStack::Ignored(std::string_view path, bool is_dir) const {
  for (auto it = files_.rbegin(); it != files_.rend(); ++it) {
    const int m = it->Match(path, is_dir);
    if (m != 0) return m > 0;
  }
  return false;
}

}  // namespace nsys::source
