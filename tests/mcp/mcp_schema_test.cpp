// Every MCP tool's inputSchema is derived from its Args type's Fields() (protocol/mcp.h), and the reader follows
// the same list: an argument the schema calls required is refused when absent, and the schema's required set is
// enough to get past the reader.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "nsys/mcp/mcp_server.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

class McpSchemaTest : public ::testing::Test {
 protected:
  static core::WorkspaceConfig Config() {
    core::WorkspaceConfig config;
    config.open.use_cache = false;  // tests never write to the user's cache
    return config;
  }
  void SetUp() override {
    server_.HandleLine(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})");
    const auto reply = server_.HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    ASSERT_TRUE(reply);
    const Json listed = Json::parse(*reply);
    for (const auto& tool : listed["result"]["tools"]) tools_[tool["name"]] = tool["inputSchema"];
  }
  Json Call(const std::string& tool, const Json& arguments) {
    const Json request = {{"jsonrpc", "2.0"},
                          {"id", 2},
                          {"method", "tools/call"},
                          {"params", {{"name", tool}, {"arguments", arguments}}}};
    return Json::parse(*server_.HandleLine(request.dump()))["result"];
  }
  // A value of the schema's type that the reader accepts.
  static Json Placeholder(const Json& schema) {
    if (schema.contains("enum")) return schema["enum"][0];
    const std::string type = schema.value("type", "string");
    if (type == "integer") return 1;
    if (type == "number") return 1.0;
    if (type == "boolean") return false;
    if (type == "array") return Json::array();
    if (type == "object") return Json::object();
    return "x";
  }

  core::Workspace workspace_{Config()};
  McpServer server_{workspace_};
  std::map<std::string, Json> tools_;
};

TEST_F(McpSchemaTest, SchemasFollowTheArgsTypes) {
  ASSERT_EQ(tools_.size(), 16u);
  EXPECT_EQ(tools_["open_profile"],
            Json::parse(R"({"type":"object","additionalProperties":false,"required":["path"],"properties":{)"
                        R"("path":{"type":"string","description":"Path of the .sqlite export or the .nsys-rep / )"
                        R"(.qdrep report (absolute, or relative to the server's working directory)."},)"
                        R"("no_cache":{"type":"boolean","description":"Neither read nor write the warm-reopen )"
                        R"(cache."}}})"));
  EXPECT_EQ(tools_["list_skills"], Json::parse(R"({"type":"object","additionalProperties":false,"properties":{}})"));
  // A std::map argument may be absent; its values' schema comes from the value type (a Scalar).
  EXPECT_EQ(tools_["run_skill"]["required"], Json::array({"profile_id", "skill"}));
  EXPECT_EQ(tools_["run_skill"]["properties"]["args"]["additionalProperties"]["anyOf"].size(), 5u);
  EXPECT_FALSE(tools_["run_skill"]["properties"]["skill"]["enum"].empty());  // the workspace's skills
  // open_in_perfetto's profile_id is optional by declaration (a job's trace gives job_id instead).
  EXPECT_FALSE(tools_["open_in_perfetto"].contains("required"));
  EXPECT_EQ(tools_["export_trace"]["properties"]["pids"],
            Json::parse(R"({"type":"array","items":{"type":"integer"},)"
                        R"("description":"Only these processes (absent: every process)."})"));
  EXPECT_EQ(tools_["export_trace"]["properties"]["window"]["properties"]["clock"]["enum"],
            Json::array({"relative_s", "capture_ns"}));
  EXPECT_EQ(tools_["diff"]["required"], Json::array({"base_profile_id", "new_profile_id"}));
  EXPECT_EQ(tools_["analyze_job"]["properties"]["ranks_per_node"]["type"], "integer");
}

TEST_F(McpSchemaTest, TheReaderRequiresWhatTheSchemaDoes) {
  for (const auto& [tool, schema] : tools_) {
    Json arguments = Json::object();
    for (const auto& name : schema.value("required", Json::array())) {
      arguments[name.get<std::string>()] = Placeholder(schema["properties"][name.get<std::string>()]);
    }
    // Only the required arguments: the reader lets them through (the core call then fails on the made-up ids).
    // open_in_perfetto requires one of two, which no schema "required" says (its own test below).
    const std::string text = Call(tool, arguments)["content"][0]["text"];
    if (tool != "open_in_perfetto") {
      EXPECT_EQ(text.find("Invalid arguments for " + tool + ": arguments"), std::string::npos) << tool << ": " << text;
    }
    for (const auto& name : schema.value("required", Json::array())) {
      Json without = arguments;
      without.erase(name.get<std::string>());
      EXPECT_EQ(Call(tool, without)["content"][0]["text"], "Invalid arguments for " + tool + ": arguments." +
                                                               name.get<std::string>() + ": missing required argument");
    }
  }
}

TEST_F(McpSchemaTest, OpenInPerfettoChecksItsArgumentsInTheToolsTerms) {
  auto text = [this](const Json& arguments) {
    return Call("open_in_perfetto", arguments)["content"][0]["text"].get<std::string>();
  };
  EXPECT_EQ(text({{"job_id", "j1"}, {"ranks_per_node", -1}}),
            "Invalid arguments for open_in_perfetto: arguments.ranks_per_node: must not be negative");
  EXPECT_EQ(text({{"job_id", "j1"}, {"profile_id", "p1"}}),
            "Invalid arguments for open_in_perfetto: arguments: give profile_id or job_id, not both");
  EXPECT_EQ(text(Json::object()),
            "Invalid arguments for open_in_perfetto: arguments: give profile_id (a profile's trace) or job_id (a "
            "job's)");
  EXPECT_EQ(Call("export_trace", {{"profile_id", "p1"}, {"pids", {5, -2}}})["content"][0]["text"],
            "Invalid arguments for export_trace: arguments.pids[1]: -2 is not a process id (0 to 16777215)");
}

}  // namespace
}  // namespace nsys::mcp
