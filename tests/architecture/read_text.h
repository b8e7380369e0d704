#pragma once
// A source or doc file's text, for the architecture tests that read the tree.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace nsys::testing {

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace nsys::testing
