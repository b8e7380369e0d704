// docs/protocol.md's "## MCP tools" section must document every tool of the MCP bind table (bind_tools.cpp) and
// nothing else, and each tool's "Arguments `{...}`" list must name exactly its schema's properties, which come
// from the tool's Args type.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "nsys/mcp/mcp_server.h"
#include "nsys/protocol/capabilities.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

std::string ReadProtocolDoc() {
  std::ifstream in(std::string(NSYS_AI_SOURCE_DIR) + "/docs/protocol.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The body of each "### `tool`" of the "## MCP tools" section, by tool.
std::map<std::string, std::string> DocumentedTools(const std::string& doc) {
  std::map<std::string, std::string> tools;
  const size_t start = doc.find("\n## MCP tools\n");
  if (start == std::string::npos) return tools;
  const size_t end = doc.find("\n## ", start + 1);
  const std::string body = doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
  static const std::regex heading(R"(\n### `([^`]+)`\n)");
  std::vector<std::pair<std::string, size_t>> at;
  for (std::sregex_iterator it(body.begin(), body.end(), heading), last; it != last; ++it) {
    at.emplace_back((*it)[1], it->position() + it->length());
  }
  for (size_t i = 0; i < at.size(); ++i) {
    const size_t stop = i + 1 < at.size() ? body.rfind("\n### ", at[i + 1].second - 1) : body.size();
    tools[at[i].first] = body.substr(at[i].second, stop - at[i].second);
  }
  return tools;
}

// The names of "Arguments `{a, b?: type, c?: {x?, y?}}`": top-level members, without `?` and types.
std::set<std::string> ArgumentNames(const std::string& section) {
  std::set<std::string> names;
  const size_t open = section.find("Arguments `{");
  if (open == std::string::npos) return names;
  std::string name;
  bool in_type = false;
  int depth = 0;
  for (size_t i = open + 12; i < section.size(); ++i) {
    const char c = section[i];
    if (c == '{') ++depth;
    if (c == '}' && depth-- == 0) break;
    if (depth > 0) continue;
    if (c == ',') {
      if (!name.empty()) names.insert(name);
      name.clear();
      in_type = false;
    } else if (c == ':' || c == '?') {
      in_type = true;
    } else if (!in_type && c != ' ' && c != '\n' && c != '}') {
      name += c;
    }
  }
  if (!name.empty()) names.insert(name);
  return names;
}

Json ListedTools() {
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  core::Workspace workspace(config);
  McpServer server(workspace);
  server.HandleLine(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})");
  const auto reply = server.HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  return reply ? Json::parse(*reply)["result"]["tools"] : Json();
}

TEST(McpDoc, EveryToolIsDocumentedWithItsArguments) {
  const auto documented = DocumentedTools(ReadProtocolDoc());
  ASSERT_FALSE(documented.empty()) << "docs/protocol.md has no '## MCP tools' section with '### `tool`' headings";
  const Json tools = ListedTools();
  ASSERT_EQ(tools.size(), 16u) << tools.dump();
  std::set<std::string> listed;
  for (const auto& tool : tools) {
    const std::string name = tool["name"];
    listed.insert(name);
    const auto section = documented.find(name);
    if (section == documented.end()) {
      ADD_FAILURE() << "docs/protocol.md does not document MCP tool '" << name << "' (add a '### `" << name
                    << "`' under '## MCP tools')";
      continue;
    }
    std::set<std::string> properties;
    for (const auto& [property, schema] : tool["inputSchema"]["properties"].items()) properties.insert(property);
    EXPECT_EQ(ArgumentNames(section->second), properties) << "the Arguments of '" << name << "' in docs/protocol.md";
  }
  for (const auto& [name, section] : documented) {
    EXPECT_TRUE(listed.count(name)) << "docs/protocol.md documents MCP tool '" << name << "', which the server lacks";
  }
}

// tools/list is the capability catalogue's tool column: each listed tool is a row's, with the row's description,
// and each row with a tool is listed (protocol/capabilities.h).
TEST(McpDoc, ToolsListIsTheCataloguesToolColumn) {
  const Json tools = ListedTools();
  std::set<std::string> listed;
  for (const auto& tool : tools) {
    const std::string name = tool["name"];
    listed.insert(name);
    const protocol::Capability* row = protocol::CapabilityOfTool(name);
    ASSERT_NE(row, nullptr) << name << " has no row in protocol/src/capabilities.cpp";
    EXPECT_EQ(tool["description"].get<std::string>(), row->summary) << name;
  }
  for (const auto& row : protocol::Capabilities()) {
    if (!row.tool.empty()) EXPECT_TRUE(listed.count(std::string(row.tool))) << row.tool << " is not bound";
  }
  EXPECT_NE(tools.dump().find("Close an open profile: its id stops working"), std::string::npos);
}

// The parts the doc test leans on, on a known text.
TEST(McpDoc, ArgumentListsAreReadByTopLevelName) {
  EXPECT_EQ(ArgumentNames("Arguments `{profile_id, window?: {start?, end?, clock?}, pids?: integer[], output?}`"),
            (std::set<std::string>{"profile_id", "window", "pids", "output"}));
  EXPECT_EQ(ArgumentNames("Arguments `{}`."), std::set<std::string>{});
  EXPECT_EQ(ArgumentNames("Arguments `{directory, memory_budget: integer | string,\nthreads}`"),
            (std::set<std::string>{"directory", "memory_budget", "threads"}));
}

}  // namespace
}  // namespace nsys::mcp
