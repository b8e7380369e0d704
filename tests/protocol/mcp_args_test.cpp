#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include "nsys/protocol/analyze.h"
#include "nsys/protocol/ask.h"
#include "nsys/protocol/diff.h"
#include "nsys/protocol/explain.h"
#include "nsys/protocol/job.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/query.h"

namespace nsys::protocol {
namespace {

template <typename T>
std::string ToolError(const char* json_text, const char* tool) {
  const auto parsed = mcp::ParseToolArgs<T>(Json::parse(json_text), tool);
  EXPECT_FALSE(parsed.ok()) << json_text;
  return parsed.ok() ? "" : parsed.error().message;
}

TEST(McpArgsTest, ToolArgumentsReadWithTheProtocolReader) {
  const auto open =
      mcp::ParseToolArgs<mcp::OpenProfileArgs>(Json::parse(R"({"path":"/a.sqlite","no_cache":true})"), "open_profile");
  ASSERT_TRUE(open.ok());
  EXPECT_EQ(open->path, "/a.sqlite");
  EXPECT_EQ(open->no_cache, true);
  EXPECT_TRUE(mcp::ParseToolArgs<mcp::NoArgs>(nullptr, "list_skills").ok());  // absent arguments read as {}

  const auto run = mcp::ParseToolArgs<mcp::RunSkillArgs>(
      Json::parse(R"({"profile_id":"p1","skill":"top_kernels","args":{"limit":"5","start":0.5,"x":null}})"),
      "run_skill");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(std::get<std::string>(run->args.at("limit")), "5");  // converted to the skill's types by wire
  EXPECT_EQ(std::get<double>(run->args.at("start")), 0.5);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(run->args.at("x")));
}

TEST(McpArgsTest, ToolArgumentErrorsNameTheToolAndTheArgument) {
  EXPECT_EQ(ToolError<mcp::NoArgs>(R"({"x":1})", "list_skills"),
            "unknown argument 'x' for tool list_skills (valid: none)");
  EXPECT_EQ(ToolError<mcp::OpenProfileArgs>(R"({"nocache":true})", "open_profile"),
            "unknown argument 'nocache' for tool open_profile (valid: path, no_cache)");
  EXPECT_EQ(ToolError<mcp::OpenProfileArgs>(R"({})", "open_profile"), "arguments.path: missing required argument");
  EXPECT_EQ(ToolError<mcp::OpenProfileArgs>(R"({"path":null})", "open_profile"),
            "arguments.path: missing required argument");
  EXPECT_EQ(ToolError<mcp::OpenProfileArgs>(R"({"path":5})", "open_profile"),
            "arguments.path: expected a string, got a number");
  EXPECT_EQ(ToolError<mcp::RunSkillArgs>(R"([1])", "run_skill"), "arguments: expected an object, got an array");
  EXPECT_EQ(ToolError<mcp::RunSkillArgs>(R"({"profile_id":"p1","skill":"s","args":{"limit":[1]}})", "run_skill"),
            "arguments.args.limit: expected a number, string, boolean or null, got an array");
}

// camelCase to snake_case at compile time: a derived argument list is a constant.
constexpr std::string_view kFirstExportTraceArg = std::get<0>(mcp::ExportTraceArgs::Fields()).name;
static_assert(kFirstExportTraceArg == "profile_id");
static_assert(mcp::SnakeCaseSize("minDurationNs") == std::string_view("min_duration_ns").size());

std::string Snake(std::string_view camel) {
  std::string snake(mcp::SnakeCaseSize(camel), '?');
  mcp::WriteSnakeCase(camel, snake.data());
  return snake;
}

TEST(McpArgsTest, SnakeCaseSpellsEachWordOnce) {
  EXPECT_EQ(Snake("minDurationNs"), "min_duration_ns");
  EXPECT_EQ(Snake("profileId"), "profile_id");
  EXPECT_EQ(Snake("baseProfileId"), "base_profile_id");
  EXPECT_EQ(Snake("p50Ns"), "p50_ns");
  EXPECT_EQ(Snake("path"), "path");
  EXPECT_EQ(Snake("ID"), "id");  // a capital after a capital starts no word
  EXPECT_EQ(Snake(""), "");
}

// The tools that take an editor method's params name their members in snake_case, in the params' order, less what
// the tool does not take, and followed by the tool's own arguments.
TEST(McpArgsTest, ArgumentsDerivedFromParamsAreTheirMembersInSnakeCase) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(mcp::ArgNames<mcp::OpenProfileArgs>(), (Names{"path", "no_cache"}));
  EXPECT_EQ(mcp::ArgNames<mcp::ProfileIdArgs>(), (Names{"profile_id"}));
  EXPECT_EQ(mcp::ArgNames<mcp::RunSkillArgs>(), (Names{"profile_id", "skill", "args", "filter"}));
  EXPECT_EQ(mcp::ArgNames<mcp::ExportTraceArgs>(),
            (Names{"profile_id", "window", "devices", "pids", "min_duration_ns", "output"}));  // no filter, no gzip
  EXPECT_EQ(mcp::ArgNames<mcp::OpenInPerfettoArgs>(), (Names{"profile_id", "window", "job_id", "ranks_per_node"}));
  EXPECT_EQ(mcp::ArgNames<mcp::AnalyzeArgs>(), (Names{"profile_id", "start", "end", "clock"}));  // window flattened
  EXPECT_EQ(mcp::ArgNames<mcp::DiffArgs>(),
            (Names{"base_profile_id", "new_profile_id", "phase_map", "max_rows", "metric"}));
  EXPECT_EQ(mcp::ArgNames<mcp::ExplainKernelArgs>(), (Names{"profile_id", "kernel"}));
  EXPECT_EQ(mcp::ArgNames<QueryToolArgs>(), (Names{"profile_id", "queries"}));
  QueryToolArgs query;
  query.profile_id = "p1";
  EXPECT_EQ(Json(query).dump(), R"({"profile_id":"p1","queries":[]})");  // its writer uses the tool's names
  EXPECT_EQ(mcp::ArgNames<mcp::OpenJobArgs>(), (Names{"paths", "directory", "memory_budget", "threads"}));
  EXPECT_EQ(mcp::ArgNames<mcp::JobIdArgs>(), (Names{"job_id"}));
  EXPECT_EQ(mcp::ArgNames<mcp::AnalyzeJobArgs>(), (Names{"job_id", "ranks_per_node"}));

  // Each member keeps its kind: a Field required unless a std::optional, an OptionalField optional.
  const auto [profile_id, window, job_id, ranks_per_node] = mcp::OpenInPerfettoArgs::Fields();
  EXPECT_FALSE(mcp::IsRequired(profile_id));  // the params list it as an OptionalField (required only without job_id)
  EXPECT_FALSE(mcp::IsRequired(window));
  EXPECT_TRUE(mcp::IsRequired(std::get<0>(mcp::ExportTraceArgs::Fields())));
  EXPECT_FALSE(mcp::IsRequired(std::get<2>(mcp::RunSkillArgs::Fields())));  // args: an OptionalField map
}

TEST(McpArgsTest, McpRequestParams) {
  const auto init = Parse<mcp::InitializeParams>(
      Json::parse(R"({"protocolVersion":"2025-06-18","clientInfo":{"name":"inspector"}})"));
  ASSERT_TRUE(init.ok());
  EXPECT_EQ(init->protocol_version, "2025-06-18");
  EXPECT_EQ(init->client_name, "inspector");
  EXPECT_EQ(Parse<mcp::InitializeParams>(Json::parse(R"({"capabilities":{}})")).error().message,
            "params.protocolVersion: missing required field");
  const auto call = Parse<mcp::CallToolParams>(Json::parse(R"({"name":"run_skill","arguments":{"a":1}})"));
  ASSERT_TRUE(call.ok());
  EXPECT_EQ(call->arguments, Json::parse(R"({"a":1})"));
}

TEST(McpArgsTest, RequestTokensAreReadOnceAndLeniently) {
  const auto both = ReadRequestTokens(Json::parse(R"({"workDoneToken":"w1","partialResultToken":7,"path":"/x"})"));
  EXPECT_EQ(both.work_done_token, ProgressToken(std::string("w1")));
  EXPECT_EQ(both.partial_result_token, ProgressToken(int64_t{7}));
  const auto bad = ReadRequestTokens(Json::parse(R"({"workDoneToken":{"a":1},"partialResultToken":1.5})"));
  EXPECT_FALSE(bad.work_done_token);
  EXPECT_FALSE(bad.partial_result_token);
  EXPECT_EQ(ReadRequestTokens(Json::array()), RequestTokens{});
}

}  // namespace
}  // namespace nsys::protocol
