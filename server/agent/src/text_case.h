#pragma once
// Internal to nsys_agent: ASCII lower case, for matching a question's words against kernel, range and API names
// (analyze, ask, explain).
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

}  // namespace nsys::agent
