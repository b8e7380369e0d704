// The invariants of docs/architecture.md that a test can check by reading the sources.
//  - Every JSON text is parsed once, by support::ParseJsonText (UTF-8 checked, nesting bounded, a member given twice
//    reported, never a throw): no other source calls nlohmann's parse or sax_parse.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "read_text.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// The product's C++ sources (the tests may parse what they check).
std::vector<fs::path> ProductSources() {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  std::vector<fs::path> out;
  for (const char* top : {"server", "skills", "protocol"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".cpp" || ext == ".h")) out.push_back(entry.path());
    }
  }
  return out;
}

TEST(Invariants, EveryJsonTextIsParsedByParseJsonText) {
  const std::regex parse_call(R"((json|Json|ordered_json|nlohmann::json)\s*::\s*(sax_)?parse\s*\()");
  const fs::path the_one = fs::path(NSYS_AI_SOURCE_DIR) / "server/support/src/json_parse.cpp";
  std::vector<std::string> bypasses;
  size_t scanned = 0;
  for (const fs::path& file : ProductSources()) {
    ++scanned;
    if (fs::equivalent(file, the_one)) continue;
    const std::string text = ReadText(file);
    for (std::sregex_iterator it(text.begin(), text.end(), parse_call), end; it != end; ++it) {
      const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + it->position(), '\n'));
      bypasses.push_back(fs::relative(file, NSYS_AI_SOURCE_DIR).generic_string() + ":" + std::to_string(line));
    }
  }
  EXPECT_GT(scanned, 300u);
  EXPECT_TRUE(bypasses.empty()) << "JSON parsed outside support::ParseJsonText at "
                                << ::testing::PrintToString(bypasses);
  // The check itself: the one parse is found where it is.
  EXPECT_TRUE(std::regex_search(ReadText(the_one), parse_call));
}

}  // namespace
}  // namespace nsys::testing
