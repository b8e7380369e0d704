// The capability catalogue (protocol/capabilities.h): one row per name on each face, and docs/protocol.md's table
// rendered from it. The faces' own checks (every row bound, nothing bound without a row) are in
// tests/lsp/protocol_doc_test.cpp, tests/mcp/mcp_doc_test.cpp and tests/cli/cli_test.cpp.
#include "nsys/protocol/capabilities.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

namespace nsys::protocol {
namespace {

constexpr std::string_view kBegin = "<!-- capabilities: generated from protocol/src/capabilities.cpp -->\n";
constexpr std::string_view kEnd = "<!-- end of capabilities -->\n";

std::string DocPath() {
  return std::string(NSYS_AI_SOURCE_DIR) + "/docs/protocol.md";
}

std::string ReadDoc() {
  std::ifstream in(DocPath());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Capabilities, EachNameNamesOneRow) {
  std::set<std::string_view> methods, tools;
  for (const auto& c : Capabilities()) {
    EXPECT_TRUE(methods.insert(c.method).second) << c.method;
    if (!c.tool.empty()) EXPECT_TRUE(tools.insert(c.tool).second) << c.tool;
    EXPECT_EQ(CapabilityOfMethod(c.method), &c);
    if (!c.tool.empty()) EXPECT_EQ(CapabilityOfTool(c.tool), &c);
    EXPECT_GE(c.summary.size(), 40u) << c.method << ": a summary says what the capability does";
    EXPECT_EQ(c.summary.back(), '.') << c.method;
  }
  EXPECT_EQ(CapabilityOfMethod("initialize"), nullptr) << "protocol plumbing is not a capability";
  EXPECT_EQ(CapabilityOfTool(""), nullptr);
  EXPECT_EQ(CapabilityOfTool("open_profile")->method, "nsys/openProfile");
}

TEST(Capabilities, TheTableRendersEveryRow) {
  const std::string table = CapabilityTableMarkdown();
  EXPECT_EQ(table.rfind("| Editor method | MCP tool | CLI | What it does |\n|---|---|---|---|\n", 0), 0u);
  size_t lines = 0;
  for (char ch : table) lines += ch == '\n';
  EXPECT_EQ(lines, Capabilities().size() + 2);
  EXPECT_NE(table.find("| [`nsys/query`](#nsysquery) | `query` | `ask FILE --query JSON` | Ask typed questions: a "
                       "list of Query objects"),
            std::string::npos)
      << table;
  // The first sentence only: the rest of a tool's description is for agents choosing it.
  EXPECT_EQ(table.find("Pass the id to profile_info"), std::string::npos);
}

// docs/protocol.md holds the rendered table between its markers. NSYS_AI_WRITE_DOCS=1 rewrites it in place.
TEST(Capabilities, ProtocolDocHoldsTheGeneratedTable) {
  std::string doc = ReadDoc();
  ASSERT_FALSE(doc.empty()) << DocPath();
  const size_t begin = doc.find(kBegin);
  const size_t end = doc.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << "docs/protocol.md has no '" << kBegin << "' marker";
  ASSERT_NE(end, std::string::npos) << "docs/protocol.md has no '" << kEnd << "' marker";
  ASSERT_LT(begin, end);
  const size_t body = begin + kBegin.size();
  const std::string expected = CapabilityTableMarkdown();
  const std::string held = doc.substr(body, end - body);
  if (std::getenv("NSYS_AI_WRITE_DOCS") && held != expected) {
    doc.replace(body, end - body, expected);
    std::ofstream(DocPath(), std::ios::trunc) << doc;
    return;
  }
  EXPECT_EQ(held, expected) << "docs/protocol.md's capability table differs from the catalogue: run "
                               "NSYS_AI_WRITE_DOCS=1 protocol_tests --gtest_filter=Capabilities.*";
}

}  // namespace
}  // namespace nsys::protocol
