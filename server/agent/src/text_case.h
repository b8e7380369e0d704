#pragma once
// Internal to nsys_agent: ASCII lower case, for matching a question's words against kernel, range and API names
// (analyze, ask, explain), and an upper-case first letter for a sentence.
#include <algorithm>
#include <string>
#include <string_view>

namespace nsys::agent {

inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The text with its first character in ASCII upper case, as a sentence starts ("blocks per grid ..." -> "Blocks ...").
inline void UpperFirst(std::string& s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
}

// Whether a word is written as a name is ("runFusion", "FlashAttention", "cuBLASLt"): an ASCII capital right after a
// small letter.
inline bool CapitalAfterSmall(std::string_view w) {
  return std::adjacent_find(w.begin(), w.end(),
                            [](char a, char b) { return a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z'; }) != w.end();
}

// Whether `needle` is part of `text`, ASCII case aside (an empty needle is part of any text).
inline bool ContainsNoCase(std::string_view text, std::string_view needle) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                     [&](char a, char b) { return lower(a) == lower(b); }) != text.end();
}

}  // namespace nsys::agent
