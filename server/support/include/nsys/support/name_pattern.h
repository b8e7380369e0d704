#pragma once
// A name pattern: a part of a name, any case, where '*' stands for any run of characters ("layer_*_computation" is
// a part of "layer_3_computation" and of "ensure_layer_12_computation_v2"). The pattern a user writes for a family of
// kernels, calls or ranges; without '*' it is a plain case-insensitive substring.
//
// Untrusted text meets it (a question, a client's Query): the matcher never backtracks past the last '*', so it costs
// at most O(name x pattern) on any input.
#include <string_view>

namespace nsys {

// Whether `pattern` occurs in `name`, any case, '*' matching any run of characters (none included).
bool NamePatternMatches(std::string_view name, std::string_view pattern);

// Whether `pattern` has a '*'.
inline bool IsNamePattern(std::string_view pattern) {
  return pattern.find('*') != std::string_view::npos;
}

}  // namespace nsys
