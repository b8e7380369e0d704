#include "nsys/mcp/mcp_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/core/version.h"
#include "nsys/support/log.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

core::WorkspaceConfig TestConfig() {
  core::WorkspaceConfig config;
  config.open.use_cache = false;  // tests never write to the user's cache
  return config;
}

class McpServerTest : public ::testing::Test {
 protected:
  // Sends one line and returns the parsed reply (null Json when there was none).
  Json Send(const std::string& line) {
    const std::optional<std::string> reply = server_.HandleLine(line);
    if (!reply) return nullptr;
    EXPECT_EQ(reply->find('\n'), std::string::npos) << "a reply must be one line";
    return Json::parse(*reply);
  }

  Json Initialize() {
    return Send(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05",)"
                R"("capabilities":{},"clientInfo":{"name":"test","version":"1"}}})");
  }

  // A tools/call result: {content:[{type,text}], isError}.
  Json Call(const std::string& tool, const Json& arguments, int id = 5) {
    Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", {{"name", tool}}}};
    if (!arguments.is_null()) request["params"]["arguments"] = arguments;
    Json reply = Send(request.dump());
    EXPECT_TRUE(reply.contains("result")) << reply.dump();
    return reply.value("result", Json());
  }

  static std::string TextOf(const Json& result) { return result.at("content").at(0).at("text").get<std::string>(); }

  core::Workspace workspace_{TestConfig()};
  McpServer server_{workspace_};
};

TEST_F(McpServerTest, InitializeEchoesASupportedVersion) {
  const Json reply = Initialize();
  EXPECT_EQ(reply.dump(), Json::parse(R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05",)"
                                      R"("capabilities":{"tools":{"listChanged":false}},)"
                                      R"("serverInfo":{"name":"nsys-ai","version":")" +
                                      std::string(core::Version()) + R"("},"instructions":)" +
                                      reply["result"]["instructions"].dump() + "}}")
                              .dump());
  EXPECT_NE(reply["result"]["instructions"].get<std::string>().find("open_profile"), std::string::npos);
  EXPECT_TRUE(server_.initialized());
}

TEST_F(McpServerTest, InitializeWithAnUnknownVersionAnswersTheLatest) {
  const Json reply = Send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01",)"
                          R"("capabilities":{},"clientInfo":{"name":"x"}}})");
  EXPECT_EQ(reply["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(SupportedProtocolVersions(), (std::vector<std::string>{"2024-11-05", "2025-03-26", "2025-06-18"}));
}

TEST_F(McpServerTest, InitializeErrors) {
  EXPECT_EQ(
      Send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})").dump(),
      R"({"error":{"code":-32602,"message":"params.protocolVersion: missing required field"},"id":1,"jsonrpc":"2.0"})");
  EXPECT_EQ(
      Send(R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":7}})").dump(),
      R"({"error":{"code":-32602,"message":"params.protocolVersion: expected a string, got a number"},"id":2,"jsonrpc":"2.0"})");
  EXPECT_FALSE(server_.initialized());
  Initialize();
  EXPECT_EQ(Initialize().dump(),
            R"({"error":{"code":-32600,"message":"initialize may only be sent once"},"id":0,"jsonrpc":"2.0"})");
}

TEST_F(McpServerTest, OnlyPingAndInitializeBeforeInitialize) {
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":"a","method":"ping"})").dump(), R"({"id":"a","jsonrpc":"2.0","result":{}})");
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})").dump(),
            R"({"error":{"code":-32002,"message":"server not initialized: send initialize before tools/list"},)"
            R"("id":2,"jsonrpc":"2.0"})");
}

TEST_F(McpServerTest, NotificationsResponsesAndBlankLinesGetNoReply) {
  Initialize();
  EXPECT_FALSE(server_.HandleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_FALSE(server_.HandleLine(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})"));
  EXPECT_FALSE(server_.HandleLine(R"({"jsonrpc":"2.0","id":9,"result":{}})"));
  EXPECT_FALSE(server_.HandleLine(""));
  EXPECT_FALSE(server_.HandleLine("  \t\r"));
}

TEST_F(McpServerTest, MalformedLinesGetJsonRpcErrors) {
  EXPECT_EQ(Send("{not json")["error"]["code"], -32700);
  EXPECT_EQ(Send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\xC0\"}").dump(),
            R"({"error":{"code":-32700,"message":"invalid UTF-8 in message body at byte offset 38"},"id":null,)"
            R"("jsonrpc":"2.0"})");
  EXPECT_EQ(Send(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])").dump(),
            R"({"error":{"code":-32600,"message":"a batch is refused before initialize: send one message per line"},)"
            R"("id":null,"jsonrpc":"2.0"})");
  // A CRLF line is the same message.
  EXPECT_EQ(Send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\r").dump(),
            R"({"id":3,"jsonrpc":"2.0","result":{}})");
}

TEST_F(McpServerTest, BatchesOnlyWithProtocol20250326) {
  const std::string batch =
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},)"
      R"({"jsonrpc":"2.0","id":2,"method":"nope"},[1]])";
  Initialize();  // 2024-11-05: no batches
  EXPECT_EQ(Send(batch)["error"]["message"],
            "batches are not part of MCP protocol 2024-11-05 (only 2025-03-26 has JSON-RPC batches): send one message "
            "per line");
  EXPECT_EQ(Send("[{]")["error"]["code"], -32700);  // not JSON: a parse error first, as any other line
  {  // 2025-06-18 removed them (its changelog: "Remove support for JSON-RPC batching")
    core::Workspace workspace(TestConfig());
    McpServer server(workspace);
    server.HandleLine(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})");
    EXPECT_EQ(Json::parse(*server.HandleLine(batch))["error"]["message"],
              "batches are not part of MCP protocol 2025-06-18 (only 2025-03-26 has JSON-RPC batches): send one "
              "message per line");
  }

  core::Workspace workspace(TestConfig());
  McpServer server(workspace);
  server.HandleLine(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}})");
  EXPECT_EQ(server.protocol_version(), "2025-03-26");
  EXPECT_EQ(*server.HandleLine(batch),
            R"([{"id":1,"jsonrpc":"2.0","result":{}},)"
            R"({"error":{"code":-32601,"message":"method not found: nope"},"id":2,"jsonrpc":"2.0"},)"
            R"({"error":{"code":-32600,"message":"nested batches are not allowed"},"id":null,"jsonrpc":"2.0"}])");
  EXPECT_FALSE(server.HandleLine(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])"));
  EXPECT_EQ(*server.HandleLine("[]"), R"({"error":{"code":-32600,"message":"empty batch"},"id":null,"jsonrpc":"2.0"})");
  EXPECT_EQ(Json::parse(*server.HandleLine("[{]"))["error"]["code"], -32700);
  // The batch's own text is checked first: a huge number or a repeated name anywhere refuses the whole line.
  EXPECT_EQ(*server.HandleLine(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2e400}])"),
            R"({"error":{"code":-32700,"message":"invalid JSON: number overflow parsing '2e400'"},"id":null,)"
            R"("jsonrpc":"2.0"})");
  EXPECT_EQ(*server.HandleLine(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":2,"id":3}])"),
            R"({"error":{"code":-32600,"message":"duplicate member '[1].id'"},"id":null,"jsonrpc":"2.0"})");
}

TEST_F(McpServerTest, HugeNumbersAndRepeatedNamesAreJsonRpcErrors) {
  // Before initialize, in the id: -32700 (it used to be -32603 from an escaped exception).
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":1e400,"method":"initialize"})").dump(),
            R"({"error":{"code":-32700,"message":"invalid JSON: number overflow parsing '1e400'"},"id":null,)"
            R"("jsonrpc":"2.0"})");
  Initialize();
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_skill","arguments":)"
                 R"({"profile_id":"p1","skill":"top_kernels","args":{"limit":-1e400}}}})")["error"]["code"],
            -32700);
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","method":"tools/call"})").dump(),
            R"({"error":{"code":-32600,"message":"duplicate member 'method'"},"id":3,"jsonrpc":"2.0"})");
  EXPECT_EQ(
      Send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"requestId":2}})").dump(),
      R"({"error":{"code":-32600,"message":"duplicate member 'params.requestId'"},"id":null,"jsonrpc":"2.0"})");
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":4,"method":"ping"})").dump(), R"({"id":4,"jsonrpc":"2.0","result":{}})");
}

TEST_F(McpServerTest, UnknownMethodIsMethodNotFound) {
  Initialize();
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":4,"method":"resources/list"})").dump(),
            R"({"error":{"code":-32601,"message":"method not found: resources/list"},"id":4,"jsonrpc":"2.0"})");
}

TEST_F(McpServerTest, ToolsListHasSixteenToolsWithSchemas) {
  Initialize();
  const Json tools = Send(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})")["result"]["tools"];
  ASSERT_EQ(tools.size(), 16u);
  const std::vector<std::string> expected = {"open_profile",     "profile_info", "close_profile", "list_skills",
                                             "run_skill",        "ask",          "query",         "export_trace",
                                             "open_in_perfetto", "analyze",      "diff",          "explain_kernel",
                                             "open_job",         "job_report",   "analyze_job",   "close_job"};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(tools[i]["name"], expected[i]) << i;
  EXPECT_EQ(tools[6]["inputSchema"]["required"], Json::array({"profile_id", "queries"}));
  EXPECT_EQ(tools[7]["inputSchema"]["required"], Json::array({"profile_id"}));
  EXPECT_EQ(tools[8]["inputSchema"]["properties"].size(), 4u);  // profile_id, window; job_id, ranks_per_node
  EXPECT_FALSE(tools[8]["inputSchema"].contains("required"));   // a profile's or a job's
  EXPECT_EQ(tools[9]["inputSchema"]["required"], Json::array({"profile_id"}));
  EXPECT_FALSE(tools[12]["inputSchema"].contains("required"));  // open_job: a directory or paths
  EXPECT_EQ(tools[14]["inputSchema"]["required"], Json::array({"job_id"}));
  EXPECT_EQ(tools[14]["inputSchema"]["properties"]["ranks_per_node"]["type"], "integer");
  EXPECT_EQ(tools[0]["inputSchema"]["required"], Json::array({"path"}));
  EXPECT_EQ(tools[0]["inputSchema"]["properties"]["no_cache"]["type"], "boolean");
  EXPECT_EQ(tools[1]["inputSchema"]["required"], Json::array({"profile_id"}));
  EXPECT_EQ(tools[2]["inputSchema"]["required"], Json::array({"profile_id"}));
  EXPECT_EQ(tools[3]["inputSchema"].dump(), R"({"additionalProperties":false,"properties":{},"type":"object"})");
  const Json& run = tools[4]["inputSchema"];
  EXPECT_EQ(run["required"], Json::array({"profile_id", "skill"}));
  EXPECT_EQ(run["properties"]["args"]["type"], "object");
  // anyOf, not a "type" array, which strict schema consumers (MCP inspector --strict) warn about.
  EXPECT_EQ(run["properties"]["args"]["additionalProperties"].dump(),
            R"({"anyOf":[{"type":"integer"},{"type":"number"},{"type":"string"},{"type":"boolean"},{"type":"null"}]})");
  // The skill enum is exactly the workspace's skills, in its order.
  Json names = Json::array();
  for (const auto& skill : workspace_.Skills()) names.push_back(skill->name());
  EXPECT_GE(names.size(), 10u);
  EXPECT_EQ(run["properties"]["skill"]["enum"], names);
  for (const auto& tool : tools) {
    EXPECT_EQ(tool["inputSchema"]["type"], "object");
    EXPECT_FALSE(tool["description"].get<std::string>().empty());
  }
}

TEST_F(McpServerTest, UnknownToolIsInvalidParams) {
  Initialize();
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"delete_everything"}})").dump(),
            R"({"error":{"code":-32602,"message":"unknown tool: delete_everything (tools: open_profile, profile_info, )"
            R"x(close_profile, list_skills, run_skill, ask, query, export_trace, open_in_perfetto, analyze, diff, )x"
            R"x(explain_kernel, open_job, job_report, analyze_job, close_job)"},)x"
            R"("id":6,"jsonrpc":"2.0"})");
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}})").dump(),
            R"({"error":{"code":-32602,"message":"params.name: missing required field"},"id":7,"jsonrpc":"2.0"})");
}

TEST_F(McpServerTest, BadToolArgumentsAreToolErrorsTheModelCanRead) {
  Initialize();
  Json r = Call("open_profile", {{"path", 5}});
  EXPECT_EQ(r.dump(), R"({"content":[{"text":"Invalid arguments for open_profile: arguments.path: expected a string, )"
                      R"(got a number","type":"text"}],"isError":true})");
  r = Call("open_profile", Json::object());
  EXPECT_EQ(TextOf(r), "Invalid arguments for open_profile: arguments.path: missing required argument");
  r = Call("open_profile", {{"path", "/x"}, {"nocache", true}});
  EXPECT_EQ(TextOf(r),
            "Invalid arguments for open_profile: unknown argument 'nocache' for tool open_profile "
            "(valid: path, no_cache)");
  r = Call("list_skills", {{"verbose", true}});
  EXPECT_EQ(TextOf(r),
            "Invalid arguments for list_skills: unknown argument 'verbose' for tool list_skills (valid: none)");
  r = Call("run_skill", Json::array({1}));
  EXPECT_EQ(TextOf(r), "Invalid arguments for run_skill: arguments: expected an object, got an array");
  r = Call("run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", {1, 2}}}}});
  EXPECT_EQ(TextOf(r),
            "Invalid arguments for run_skill: arguments.args.limit: expected a number, string, boolean or "
            "null, got an array");
  EXPECT_TRUE(r["isError"]);
}

TEST_F(McpServerTest, WorkspaceErrorsAreToolErrors) {
  Initialize();
  Json r = Call("profile_info", {{"profile_id", "p9"}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_EQ(TextOf(r), "no open profile has id 'p9' (no profile is open)");
  r = Call("open_profile", {{"path", "/nonexistent/dir/run.sqlite"}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_NE(TextOf(r).find("/nonexistent/dir/run.sqlite"), std::string::npos) << TextOf(r);
  r = Call("run_skill", {{"profile_id", "p9"}, {"skill", "top_kernels"}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_EQ(TextOf(r), "no open profile has id 'p9' (no profile is open)");
}

// An error quotes at most 256 bytes of a path (then "… (N bytes)"), and a tool error at most 4 KiB, whatever
// the input; the server answers the next request.
TEST_F(McpServerTest, ErrorsQuoteABoundedPartOfTheirInput) {
  Initialize();
  const std::string huge = "/nonexistent/" + std::string(20 << 20, 'x');
  Json r = Call("open_profile", {{"path", huge}});
  EXPECT_TRUE(r["isError"]);
  const std::string text = TextOf(r);
  EXPECT_LT(text.size(), 400u) << text.substr(0, 400);
  EXPECT_NE(text.find("/nonexistent/xxxx"), std::string::npos) << text;
  EXPECT_NE(text.find("\u2026 (20971533 bytes)"), std::string::npos) << text;
  // An id is quoted by a message the Workspace makes: bounded at the face, at 4 KiB.
  r = Call("profile_info", {{"profile_id", std::string(1 << 20, 'p')}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_LE(TextOf(r).size(), 4096u + 32);
  EXPECT_EQ(Send(R"({"jsonrpc":"2.0","id":7,"method":"ping"})")["result"], Json::object());
}

// A path that is not UTF-8 comes as its file:// URI (support/path_text.h), and that URI opens the file.
TEST_F(McpServerTest, APathThatIsNotUtf8ComesAsItsUriAndOpensTheSameFile) {
  NSYS_REQUIRE_FIXTURES();
  Initialize();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("nsys_ai_mcp_path_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string copy = (dir / "prof\xFF.sqlite").string();
  std::filesystem::copy_file(testing::Fixture("h100_2gpu_1s.sqlite"), copy);
  const std::string uri = "file://" + dir.string() + "/prof%FF.sqlite";
  Json r = Call("open_profile", {{"path", uri}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  EXPECT_EQ(Json::parse(TextOf(r))["path"], uri);
  EXPECT_EQ(Json::parse(TextOf(r))["info"]["sourcePath"], uri);
  std::filesystem::remove_all(dir);
}

TEST_F(McpServerTest, ListSkillsGivesEveryArgumentCommonOnesFirst) {
  Initialize();
  const Json r = Call("list_skills", nullptr);
  EXPECT_FALSE(r["isError"]);
  const Json skills = Json::parse(TextOf(r))["skills"];
  ASSERT_EQ(skills.size(), workspace_.Skills().size());
  const Json* top = nullptr;
  for (const auto& s : skills) {
    if (s["name"] == "top_kernels") top = &s;
  }
  ASSERT_NE(top, nullptr);
  EXPECT_EQ((*top)["reference"], "gpukernsum");
  std::vector<std::string> arg_names;
  for (const auto& a : (*top)["args"]) arg_names.push_back(a["name"]);
  EXPECT_EQ(arg_names, (std::vector<std::string>{"device", "pid", "start", "end", "clock", "base", "limit",
                                                 "per_device", "by_launch_config"}));
  const Json& clock = (*top)["args"][4];
  EXPECT_EQ(clock["choices"], Json::array({"relative_s", "capture_ns"}));
  EXPECT_EQ(clock["default"], "relative_s");
  EXPECT_EQ((*top)["args"][6]["default"], 0);
  EXPECT_EQ((*top)["args"][6]["type"], "int");
}

// An agent opens a job (a real split of mfu_2gpu_before.sqlite into its two processes, made at test time
// by split_ranks.py) and asks which rank the others wait for. Kernels per rank from sqlite3 on the rank files:
// SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL gives 1993 and 2017.
TEST_F(McpServerTest, JobToolsOpenReportAnalyzeAndCloseAJob) {
  NSYS_REQUIRE_FIXTURES();
  Initialize();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("nsys_ai_mcp_job_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string cmd = "python3 -B '" +
                          (std::filesystem::path(testing::FixturesDir()) / ".." / "tools" / "split_ranks.py").string() +
                          "' '" + testing::Fixture("mfu_2gpu_before.sqlite") + "' '" + dir.string() + "' > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

  Json r = Call("open_job", {{"directory", dir.string()}, {"memory_budget", "1G"}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const Json opened = Json::parse(TextOf(r));
  EXPECT_EQ(opened["job_id"], "j1");
  EXPECT_FALSE(opened.contains("jobId"));
  ASSERT_EQ(opened["ranks"].size(), 2u);
  EXPECT_EQ(opened["memory_budget_bytes"], int64_t{1} << 30);  // the writer spells every result member in snake_case
  for (const auto& [key, value] : opened.items())
    EXPECT_EQ(key.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << key;

  r = Call("job_report", {{"job_id", "j1"}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const Json report = Json::parse(TextOf(r));
  ASSERT_EQ(report["ranks"].size(), 2u);
  EXPECT_EQ(report["ranks"][0]["kernels"], 1993);
  EXPECT_EQ(report["ranks"][1]["kernels"], 2017);
  EXPECT_EQ(report["analyses"].size(), 7u);  // every job skill

  r = Call("analyze_job", {{"job_id", "j1"}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const Json analysis = Json::parse(TextOf(r));
  ASSERT_EQ(analysis["findings"].size(), 1u) << analysis.dump();
  EXPECT_EQ(analysis["findings"][0]["rootCause"], "job_straggler");
  EXPECT_EQ(analysis["findings"][0]["title"].get<std::string>().rfind("rank0001 is the last to start", 0), 0u);
  EXPECT_FALSE(analysis.contains("markdown"));

  // Errors the model can read: a bad argument, an unknown run, a closed one.
  r = Call("analyze_job", {{"job_id", "j1"}, {"ranks_per_node", "two"}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_NE(TextOf(r).find("ranks_per_node"), std::string::npos) << TextOf(r);
  r = Call("open_job", Json::object());
  EXPECT_TRUE(r["isError"]);
  r = Call("close_job", {{"job_id", "j1"}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  r = Call("job_report", {{"job_id", "j1"}});
  EXPECT_TRUE(r["isError"]);

  // The tools' names from before "job" named the multi-rank noun still answer, run_id read as job_id; tools/list
  // names only the new ones.
  r = Call("open_run", {{"directory", dir.string()}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const std::string again = Json::parse(TextOf(r))["job_id"];
  r = Call("run_report", {{"run_id", again}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  EXPECT_EQ(Json::parse(TextOf(r))["ranks"][0]["kernels"], 1993);
  r = Call("analyze_run", {{"run_id", again}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  r = Call("close_run", {{"run_id", again}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const Json listed = Send(R"({"jsonrpc":"2.0","id":9,"method":"tools/list"})");
  ASSERT_TRUE(listed.contains("result")) << listed.dump();
  for (const auto& tool : listed["result"]["tools"])
    EXPECT_EQ(tool["name"].get<std::string>().find("_run"), std::string::npos) << tool["name"];
  std::filesystem::remove_all(dir);
}

// Opens the shared fixture and runs top_kernels: the first row is nsys 2022.4's gpukernsum first row
// (`nsys stats -r gpukernsum` on h100_2gpu_1s.sqlite: 28.8 %, 12902673 ns, 96 instances).
TEST_F(McpServerTest, OpenProfileAndRunSkillOnTheFixture) {
  NSYS_REQUIRE_FIXTURES();
  Initialize();
  const std::string path = testing::Fixture("h100_2gpu_1s.sqlite");
  Json r = Call("open_profile", {{"path", path}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const Json summary = Json::parse(TextOf(r));
  // The id under the name every tool takes it back as (the LSP result's "profileId" is not repeated).
  EXPECT_EQ(summary["profile_id"], "p1");
  EXPECT_FALSE(summary.contains("profileId"));
  EXPECT_TRUE(summary.contains("mapping_coverage"));  // nested members keep the editor protocol's names
  EXPECT_EQ(summary["path"], path);
  EXPECT_EQ(summary["info"]["devices"].size(), 2u);
  EXPECT_EQ(summary["info"]["capabilities"]["kernels"], true);

  r = Call("profile_info", {{"profile_id", "p1"}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  // The same summary, except what the background load may have finished since the open: `rowsChecked` turns true
  // (and `damagedRows` may grow) once every event table has loaded (docs/protocol.md).
  Json again = Json::parse(TextOf(r)), expected = summary;
  for (Json* j : {&again, &expected}) {
    (*j)["info"].erase("rowsChecked");
    (*j)["info"].erase("damagedRows");
  }
  EXPECT_EQ(again, expected);

  r = Call("run_skill",
           {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", 2}, {"by_launch_config", true}}}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  const Json table = Json::parse(TextOf(r));
  EXPECT_FALSE(table["declined"]);
  ASSERT_EQ(table["rows"].size(), 2u);
  std::map<std::string, Json> first;
  for (size_t c = 0; c < table["columns"].size(); ++c) first[table["columns"][c]["name"]] = table["rows"][0][c];
  EXPECT_EQ(first["total_time_ns"], 12902673);
  EXPECT_EQ(first["instances"], 96);
  EXPECT_EQ(first["min_ns"], 131777);
  EXPECT_EQ(first["max_ns"], 136865);
  EXPECT_NEAR(first["time_pct"].get<double>(), 28.8, 0.05);

  // Numbers sent as text are converted to the argument's type ("1" → 1); integral floats to integers.
  r = Call("run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", "1"}}}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  EXPECT_EQ(Json::parse(TextOf(r))["rows"].size(), 1u);
  r = Call("run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", 3.0}}}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  EXPECT_EQ(Json::parse(TextOf(r))["rows"].size(), 3u);
  r = Call("run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", "many"}}}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_EQ(TextOf(r), "Invalid arguments for run_skill: Argument 'limit' must be an int, got \"many\".");

  r = Call("run_skill", {{"profile_id", "p1"}, {"skill", "no_such_skill"}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_EQ(TextOf(r).rfind("unknown skill 'no_such_skill' (known: ", 0), 0u) << TextOf(r);

  // close_profile frees the id: later calls on it are tool errors naming it, and closing it twice is one too.
  r = Call("close_profile", {{"profile_id", "p1"}});
  ASSERT_FALSE(r["isError"]) << TextOf(r);
  EXPECT_EQ(Json::parse(TextOf(r)), (Json{{"profile_id", "p1"}, {"closed", true}}));
  EXPECT_TRUE(workspace_.List().empty());
  r = Call("profile_info", {{"profile_id", "p1"}});
  EXPECT_TRUE(r["isError"]);
  EXPECT_NE(TextOf(r).find("p1"), std::string::npos) << TextOf(r);
  EXPECT_TRUE(Call("close_profile", {{"profile_id", "p1"}})["isError"]);
}

TEST(McpRunTest, RunAnswersLineByLineAndStopsAtEof) {
  core::Workspace workspace(TestConfig());
  McpServer server(workspace);
  std::istringstream in(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n"
      "\n"
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
      "garbage\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");  // the last line has no newline
  std::ostringstream out;
  EXPECT_EQ(server.Run(in, out), 0);
  EXPECT_EQ(out.str(),
            "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n"
            "{\"error\":{\"code\":-32700,\"message\":\"invalid JSON: parse error at line 1, column 1: syntax error "
            "while parsing value - invalid literal; last read: 'g'\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n"
            "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}\n");
}

TEST(McpRunTest, AnOverlongLineIsRefusedAndTheNextOneServed) {
  core::Workspace workspace(TestConfig());
  McpServer server(workspace);
  std::string input(kMaxLineBytes + 10, 'x');
  input += "\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
  std::istringstream in(std::move(input));
  std::ostringstream out;
  EXPECT_EQ(server.Run(in, out), 0);
  EXPECT_EQ(out.str(),
            "{\"error\":{\"code\":-32700,\"message\":\"message line longer than 67108864 bytes\"},\"id\":null,"
            "\"jsonrpc\":\"2.0\"}\n{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n");
}

TEST(McpRunTest, AFailingOutputStopsTheLoop) {
  core::Workspace workspace(TestConfig());
  McpServer server(workspace);
  std::istringstream in("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_EQ(server.Run(in, out), 1);
}

}  // namespace
}  // namespace nsys::mcp
