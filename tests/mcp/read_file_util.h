#pragma once
// A file's bytes, for the MCP tests that read the binary's logs and outputs. Shared rather than copied per file so
// that the unity build, which compiles several test files as one translation unit, sees one definition.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace nsys::testing {

// The whole file (empty when it cannot be read).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace nsys::testing
