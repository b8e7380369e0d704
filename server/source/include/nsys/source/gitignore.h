#pragma once
// The common subset of .gitignore: blank and comment lines, `!` negation, a leading `/` (or any inner `/`) anchors
// to the file's directory, a trailing `/` matches directories only, `*`, `?`, `[...]`, `**` (leading, inner,
// trailing), backslash escapes, and one file per directory with deeper files overriding shallower ones.
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nsys::source {

// A glob compiled once (`*` and `?` stop at '/', `**` crosses it, `**/` is zero or more directories, `[...]` with
// `!`/`^` and ranges never matches '/', a backslash escapes). The patterns come from the repository's .gitignore
// files: Match reads the text once, keeping every place in the pattern it may be at, so it takes at most
// O(|text| x |pattern|) steps whatever the pattern (the recursive matcher tried every split at every `*`: each star
// multiplied the time, and `*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b` hung the index). Compile is linear in the pattern.
// Before that walk, three exact necessary conditions turn most texts away in O(1)-ish: the text is at least as long
// as the bytes the pattern must read, and starts and ends with the pattern's literal head and tail (`*.pyc` is then
// a suffix compare). Real .gitignore lines mostly end in a literal, so a path is compared against each in a few bytes.
class Glob {
 public:
  static Glob Compile(std::string_view pattern);
  bool Match(std::string_view text) const;

 private:
  enum class Op : uint8_t { kByte, kAnyButSlash, kClass, kStar, kAnyRun, kDirsEntry, kDirsBody };
  struct Token {
    Op op;
    uint8_t byte;  // kByte
    uint32_t cls;  // kClass: index in classes_
  };
  void FindLiterals();  // min_length_, head_, tail_ from tokens_
  std::vector<Token> tokens_;
  std::vector<std::bitset<256>> classes_;
  size_t min_length_ = 0;  // the bytes every match reads (kByte, kAnyButSlash, kClass tokens)
  std::string head_;       // the literal bytes before the first other token
  std::string tail_;       // the literal bytes after the last other token (the whole pattern when it is literal)
};

// Whether `text` matches the glob `pattern` (Glob::Compile(pattern).Match(text)).
bool GlobMatch(std::string_view pattern, std::string_view text);

class IgnoreFile {
 public:
  // `base` is the directory of the .gitignore relative to the walk's root ("" for the root, "a/b" otherwise).
  static IgnoreFile Parse(std::string_view text, std::string base);

  // For a path relative to the walk's root: +1 ignored, -1 re-included by a `!` pattern, 0 no pattern matches.
  int Match(std::string_view path, bool is_dir) const;

 private:
  struct Pattern {
    Glob glob;
    bool negate = false;
    bool dir_only = false;
    bool anchored = false;  // matched against the path below `base`, not the last component
  };
  std::string base_;
  std::vector<Pattern> patterns_;
};

// The .gitignore files from the root down to the directory being walked.
class IgnoreStack {
 public:
  void Push(IgnoreFile file) { files_.push_back(std::move(file)); }
  void Pop() { files_.pop_back(); }
  size_t size() const { return files_.size(); }
  void Truncate(size_t n) { files_.resize(n); }
  bool Ignored(std::string_view path, bool is_dir) const;

 private:
  std::vector<IgnoreFile> files_;
};

}  // namespace nsys::source
