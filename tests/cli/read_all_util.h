#pragma once
// A file's bytes, for the CLI tests that compare what the binary wrote. Shared rather than copied per file so that
// the unity build, which compiles several test files as one translation unit, sees one definition.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace nsys::testing {

// The whole file (empty when it cannot be read).
inline std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace nsys::testing
