#pragma once
// A name pattern: a part of a name, any case, where '*' stands for any run of characters ("layer_*_computation" is
// a part of "layer_3_computation" and of "ensure_layer_12_computation_v2"), and '|' separates alternatives, any of
// which may match ("nchwToNhwc|nhwcToNchw": the two layout transposes together). The pattern a user writes for a
// family of kernels, calls or ranges, or for several summed; without '*' or '|' it is a plain case-insensitive
// substring.
//
// Untrusted text meets it (a question, a client's Query): the matcher never backtracks past the last '*', so it costs
// at most O(name x pattern) on any input.
#include <string_view>

namespace nsys {

// Whether `pattern`, or one of its '|'-separated alternatives, occurs in `name`, any case, '*' matching any run of
// characters (none included). An empty alternative matches nothing.
bool NamePatternMatches(std::string_view name, std::string_view pattern);

// Whether `pattern` has a '*' or a '|'.
inline bool IsNamePattern(std::string_view pattern) {
  return pattern.find_first_of("*|") != std::string_view::npos;
}

}  // namespace nsys
