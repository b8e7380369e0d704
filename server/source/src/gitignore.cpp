// The .gitignore subset (see gitignore.h).
#include "nsys/source/gitignore.h"

#include <algorithm>
#include <cstdint>

namespace nsys::source {
namespace {

// The end of the class `[...]` at p[0] (the index of its ']'), or 0 when it has none and '[' is a literal. A ']'
// right after '[' (or after "[!"/"[^") is a member; `close_after[i]` is the first ']' at or after i.
size_t ClassEnd(std::string_view p, size_t at, const std::vector<size_t>& close_after) {
  size_t start = at + 1;
  if (start < p.size() && (p[start] == '!' || p[start] == '^')) ++start;
  if (start >= p.size()) return 0;
  const size_t end = close_after[p[start] == ']' ? start + 1 : start];
  return end == std::string_view::npos ? 0 : end;
}

}  // namespace

Glob Glob::Compile(std::string_view p) {
  Glob g;
  // close_after[i]: the first ']' at index >= i (npos when none), so finding a class's end is O(1).
  std::vector<size_t> close_after(p.size() + 2, std::string_view::npos);
  for (size_t i = p.size(); i-- > 0;) close_after[i] = p[i] == ']' ? i : close_after[i + 1];
  size_t i = 0;
  while (i < p.size()) {
    if (p.substr(i, 2) == "**") {
      if (i + 2 < p.size() && p[i + 2] == '/') {  // `**/`: zero or more directories
        g.tokens_.push_back({Op::kDirsEntry, 0, 0});
        g.tokens_.push_back({Op::kDirsBody, 0, 0});
        i += 3;
      } else {  // any run of characters, '/' too
        g.tokens_.push_back({Op::kAnyRun, 0, 0});
        i += 2;
      }
    } else if (p[i] == '*') {
      g.tokens_.push_back({Op::kStar, 0, 0});
      ++i;
    } else if (p[i] == '?') {
      g.tokens_.push_back({Op::kAnyButSlash, 0, 0});
      ++i;
    } else if (p[i] == '[' && ClassEnd(p, i, close_after) != 0) {
      const size_t end = ClassEnd(p, i, close_after);
      size_t k = i + 1;
      const bool negate = p[k] == '!' || p[k] == '^';
      if (negate) ++k;
      std::bitset<256> in;
      for (; k < end; ++k) {
        if (k + 2 < p.size() && p[k + 1] == '-' && p[k + 2] != ']') {  // a range, compared as char as it always was
          for (int b = 0; b < 256; ++b) {
            const char c = static_cast<char>(b);
            if (c >= p[k] && c <= p[k + 2]) in.set(static_cast<size_t>(b));
          }
          k += 2;
        } else {
          in.set(static_cast<unsigned char>(p[k]));
        }
      }
      if (negate) in.flip();
      in.reset('/');  // a class never matches '/'
      g.tokens_.push_back({Op::kClass, 0, static_cast<uint32_t>(g.classes_.size())});
      g.classes_.push_back(in);
      i = end + 1;
    } else {  // a literal byte ('[' without a closing ']' too); a backslash escapes the next character
      if (p[i] == '\\' && i + 1 < p.size()) ++i;
      g.tokens_.push_back({Op::kByte, static_cast<uint8_t>(p[i]), 0});
      ++i;
    }
  }
  g.FindLiterals();
  return g;
}

void Glob::FindLiterals() {
  const auto is_byte = [](const Token& t) { return t.op == Op::kByte; };
  for (const Token& t : tokens_) {
    if (t.op == Op::kByte || t.op == Op::kAnyButSlash || t.op == Op::kClass) ++min_length_;
  }
  const auto first_other = std::find_if_not(tokens_.begin(), tokens_.end(), is_byte);
  for (auto it = tokens_.begin(); it != first_other; ++it) head_.push_back(static_cast<char>(it->byte));
  const auto last_other = std::find_if_not(tokens_.rbegin(), tokens_.rend(), is_byte);
  for (auto it = last_other.base(); it != tokens_.end(); ++it) tail_.push_back(static_cast<char>(it->byte));
}

// The set of token positions the text read so far can be at (an NFA run over the tokens): each character moves
// every position at once, so no choice is ever retried. Position tokens_.size() is the end of the pattern.
bool Glob::Match(std::string_view text) const {
  if (text.size() < min_length_ || text.substr(0, head_.size()) != head_) return false;
  if (text.size() < tail_.size() || text.substr(text.size() - tail_.size()) != tail_) return false;
  const size_t n = tokens_.size();
  // The thread's scratch: the two position lists, and per position the step it was last added at. Steps count on
  // across calls (a 64-bit stamp), so nothing is cleared or allocated per call once the buffers have grown.
  thread_local std::vector<uint32_t> cur, next;
  thread_local std::vector<uint64_t> seen;
  thread_local uint64_t stamp = 0;
  if (seen.size() < n + 1) seen.resize(n + 1, 0);
  // Adds a position and what it reaches without reading (a star may match nothing; `**/` may be skipped).
  const auto add = [&](std::vector<uint32_t>& set, size_t pos) {
    if (seen[pos] == stamp) return;
    seen[pos] = stamp;
    const size_t first = set.size();
    set.push_back(static_cast<uint32_t>(pos));
    for (size_t k = first; k < set.size(); ++k) {  // the list itself is the work list: no recursion
      const size_t at = set[k];
      if (at == n) continue;
      const Op op = tokens_[at].op;
      if (op == Op::kStar || op == Op::kAnyRun || op == Op::kDirsEntry) {
        for (const size_t to : {at + 1, op == Op::kDirsEntry ? at + 2 : at + 1}) {
          if (seen[to] != stamp) {
            seen[to] = stamp;
            set.push_back(static_cast<uint32_t>(to));
          }
        }
      }
    }
  };
  cur.clear();
  ++stamp;
  add(cur, 0);
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    next.clear();
    ++stamp;
    for (const uint32_t at : cur) {
      if (at == n) continue;
      const Token& t = tokens_[at];
      switch (t.op) {
        case Op::kByte:
          if (c == t.byte) add(next, at + 1);
          break;
        case Op::kAnyButSlash:
          if (c != '/') add(next, at + 1);
          break;
        case Op::kClass:
          if (classes_[t.cls][c]) add(next, at + 1);
          break;
        case Op::kStar:
          if (c != '/') add(next, at);
          break;
        case Op::kAnyRun:
          add(next, at);
          break;
        case Op::kDirsEntry:  // only moves without reading
          break;
        case Op::kDirsBody:  // inside `**/`: anything, leaving after a '/'
          add(next, at);
          if (c == '/') add(next, at + 1);
          break;
      }
    }
    if (next.empty()) return false;
    cur.swap(next);
  }
  return seen[n] == stamp;
}

bool GlobMatch(std::string_view pattern, std::string_view text) {
  return Glob::Compile(pattern).Match(text);
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
    p.glob = Glob::Compile(line);
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
    if (it->glob.Match(it->anchored ? path : name)) return it->negate ? -1 : 1;
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
