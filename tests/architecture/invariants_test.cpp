// The invariants of docs/architecture.md that a test can check by reading the sources.
//  - Every JSON text is parsed once, by support::ParseJsonText (UTF-8 checked, nesting bounded, a member given twice
//    reported, never a throw): no other source calls nlohmann's parse or sax_parse.
//  - The answer code reads no raw table: every figure an answer to a question states is a cell of a cited skill row,
//    so ask's files (query*.cpp, ask_*.cpp, answer.cpp, llm_ask.cpp) call no table accessor of the profile.
//  - Context parameters come last: in core's headers (the API boundary), a function that takes a CancelToken or a
//    ProgressSink takes nothing after the first of them but those and a time limit, the CancelToken first. (A sink of
//    results, a FindingSink or a chunk sink, is an argument, not the call's context.)
//  - Workspace only delegates (issue 40): a method's body is at most three lines, a lookup handed to a feature.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
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

TEST(Invariants, TheAnswerCodeReadsNoRawTable) {
  const fs::path agent = fs::path(NSYS_AI_SOURCE_DIR) / "server/agent/src";
  const std::regex accessor(R"(\.(kernels|runtime|nvtx|memcpys|memsets|graphs|sync|overhead)\(\))");
  const std::regex answer_file(R"((query\w*|ask_\w+|answer|llm_ask)\.cpp)");
  std::vector<std::string> reads;
  size_t scanned = 0;
  for (const auto& entry : fs::directory_iterator(agent)) {
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, answer_file)) continue;
    ++scanned;
    const std::string text = ReadText(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), accessor), end; it != end; ++it) {
      const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + it->position(), '\n'));
      reads.push_back(name + ":" + std::to_string(line));
    }
  }
  EXPECT_GE(scanned, 10u);
  EXPECT_TRUE(reads.empty()) << "raw table reads in the answer code: " << ::testing::PrintToString(reads);
  // The check itself: explain.cpp (no answer file) reads the kernel table and is found by the same pattern.
  EXPECT_TRUE(std::regex_search(ReadText(agent / "explain.cpp"), accessor));
}

// The declarations of a header, comments dropped and whitespace collapsed: each function's name and parameters.
std::vector<std::pair<std::string, std::vector<std::string>>> Declarations(std::string text) {
  text = std::regex_replace(text, std::regex("//[^\n]*"), "");
  text = std::regex_replace(text, std::regex("\\s+"), " ");
  text = std::regex_replace(text, std::regex("\\{\\}"), "");  // default arguments "= {}"
  static const std::regex decl(R"(([A-Z][A-Za-z0-9]*)\(([^();{}]*(?:\([^()]*\)[^();{}]*)*)\)\s*(?:const)?\s*;)");
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it) {
    std::vector<std::string> params;
    int angle = 0;
    std::string current;
    for (char c : (*it)[2].str()) {
      angle += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (c == ',' && angle == 0) {
        params.push_back(current);
        current.clear();
      } else {
        current += c;
      }
    }
    if (current.find_first_not_of(' ') != std::string::npos) params.push_back(current);
    out.emplace_back((*it)[1], std::move(params));
  }
  return out;
}

TEST(Invariants, ContextParametersComeLast) {
  const fs::path core = fs::path(NSYS_AI_SOURCE_DIR) / "server/core/include/nsys/core";
  // The context of a call: its cancellation, its progress, and its time limit (a user skill's timeout).
  const auto kind = [](const std::string& p) {
    return p.find("CancelToken") != std::string::npos    ? 'C'
           : p.find("ProgressSink") != std::string::npos ? 'P'
           : p.find("std::chrono") != std::string::npos  ? 'T'
                                                         : '-';
  };
  std::vector<std::string> misplaced;
  size_t with_context = 0;
  for (const auto& entry : fs::directory_iterator(core)) {
    for (const auto& [name, params] : Declarations(ReadText(entry.path()))) {
      std::string kinds;
      for (const std::string& p : params) kinds += kind(p);
      const size_t first = kinds.find_first_not_of('-');
      if (first == std::string::npos) continue;
      ++with_context;
      const bool tail = kinds.find('-', first) == std::string::npos;
      const bool order = kinds.find('P') == std::string::npos || kinds.find('C') == std::string::npos ||
                         kinds.find('C') < kinds.find('P');
      if (!tail || !order) misplaced.push_back(entry.path().filename().string() + ": " + name + " (" + kinds + ")");
    }
  }
  EXPECT_GT(with_context, 40u);
  EXPECT_TRUE(misplaced.empty()) << "context parameters before others: " << ::testing::PrintToString(misplaced);
  // The check itself.
  const auto planted = Declarations("  Status Run(const CancelToken& cancel = {}, int n);\n");
  ASSERT_EQ(planted.size(), 1u);
  EXPECT_EQ(planted.front().second.size(), 2u);
}

// The bodies of `Workspace::` methods in `text`, by name, as their lines between the braces.
std::vector<std::pair<std::string, size_t>> WorkspaceBodies(const std::string& text) {
  std::vector<std::pair<std::string, size_t>> out;
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  static const std::regex head(R"(^[A-Za-z].*\bWorkspace::(\w+)\()");
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, head) || lines[i].back() == ';') continue;
    size_t open = i;
    while (open < lines.size() && lines[open].find('{') == std::string::npos) ++open;
    int depth = 0;
    size_t close = open;
    for (; close < lines.size(); ++close) {
      depth += static_cast<int>(std::count(lines[close].begin(), lines[close].end(), '{')) -
               static_cast<int>(std::count(lines[close].begin(), lines[close].end(), '}'));
      if (depth == 0) break;
    }
    out.emplace_back(m[1], close > open ? close - open - 1 : 0);
    i = close;
  }
  return out;
}

TEST(Invariants, WorkspaceMethodsDelegate) {
  size_t methods = 0;
  std::vector<std::string> long_bodies;
  for (const auto& entry : fs::directory_iterator(fs::path(NSYS_AI_SOURCE_DIR) / "server/core/src")) {
    if (entry.path().extension() != ".cpp") continue;
    for (const auto& [name, lines] : WorkspaceBodies(ReadText(entry.path()))) {
      ++methods;
      if (lines > 3) long_bodies.push_back(entry.path().filename().string() + ": " + name);
    }
  }
  EXPECT_GT(methods, 70u);
  // 52 at the start of issue 40's delegation; none now.
  EXPECT_TRUE(long_bodies.empty()) << ::testing::PrintToString(long_bodies);
  // The check itself.
  const auto planted = WorkspaceBodies("Status Workspace::Run(int n) {\n  a();\n  b();\n  c();\n  d();\n}\n");
  ASSERT_EQ(planted.size(), 1u);
  EXPECT_EQ(planted.front(), (std::pair<std::string, size_t>{"Run", 4}));
}

}  // namespace
}  // namespace nsys::testing
