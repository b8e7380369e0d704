// The nsys-ai command line, run as a user would: exit codes, help, usage errors, and real numbers from fixtures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"
#include "fixtures.h"
#include "nsys/protocol/capabilities.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int64_t SumColumn(const Json& result, const std::string& column) {
  size_t index = 0;
  while (index < result["columns"].size() && result["columns"][index]["name"] != column) ++index;
  int64_t sum = 0;
  for (const auto& row : result["rows"]) sum += row.at(index).get<int64_t>();
  return sum;
}

TEST(Cli, VersionAndHelp) {
  auto version = RunCli({"version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, "nsys-ai 0.1.0\n");
  EXPECT_EQ(RunCli({"--version"}).out, "nsys-ai 0.1.0\n");

  auto help = RunCli({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* command : {"serve", "info", "skill list", "skill run", "mcp", "version", "help"}) {
    EXPECT_TRUE(Contains(help.out, std::string("  ") + command)) << command << "\n" << help.out;
  }
  EXPECT_EQ(RunCli({"help"}).out, help.out);

  auto nothing = RunCli({});
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_TRUE(Contains(nothing.err, "Usage: nsys-ai COMMAND"));
  EXPECT_TRUE(nothing.out.empty());
}

TEST(Cli, HelpForEachCommand) {
  auto run_help = RunCli({"help", "skill", "run"});
  EXPECT_EQ(run_help.exit_code, 0);
  EXPECT_TRUE(Contains(run_help.out, "Usage: nsys-ai skill run NAME FILE"));
  EXPECT_TRUE(Contains(run_help.out, "--trim START END"));
  EXPECT_TRUE(Contains(run_help.out, "--no-cache"));  // global options too
  EXPECT_EQ(RunCli({"skill", "run", "--help"}).out, run_help.out);
  EXPECT_EQ(RunCli({"skill", "run", "-h"}).out, run_help.out);

  auto serve_help = RunCli({"serve", "--help"});
  EXPECT_EQ(serve_help.exit_code, 0);
  EXPECT_TRUE(Contains(serve_help.out, "--listen HOST:PORT"));
  EXPECT_TRUE(Contains(serve_help.out, "--allow-remote"));

  auto group = RunCli({"skill", "--help"});
  EXPECT_EQ(group.exit_code, 0);
  EXPECT_TRUE(Contains(group.out, "list") && Contains(group.out, "run"));
  EXPECT_EQ(RunCli({"help", "skill"}).exit_code, 0);
  EXPECT_EQ(RunCli({"skill"}).exit_code, 2);
  EXPECT_EQ(RunCli({"help", "frobnicate"}).exit_code, 2);
}

// Each capability's CLI command line (protocol/capabilities.h) names a command whose help lists the options the line
// uses: `ask FILE --query JSON` is `nsys-ai help ask` with --query in it.
TEST(Cli, EveryCapabilitysCommandLineIsACommand) {
  size_t verbs = 0;
  for (const auto& row : protocol::Capabilities()) {
    if (row.verb.empty()) continue;
    ++verbs;
    std::vector<std::string> args{"help"};
    std::vector<std::string> options;
    std::istringstream words{std::string(row.verb)};
    for (std::string word; words >> word;) {
      if (word.rfind("--", 0) == 0) {
        options.push_back(word);
      } else if (word.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos) {
        args.push_back(word);  // a command word, not a placeholder such as FILE
      }
    }
    const auto help = RunCli(args);
    EXPECT_EQ(help.exit_code, 0) << row.method << ": " << row.verb << "\n" << help.err;
    for (const auto& option : options) EXPECT_TRUE(Contains(help.out, option)) << row.verb << "\n" << help.out;
  }
  EXPECT_GE(verbs, 15u);
}

// `perfetto` opens a profile in the Perfetto UI (nsys/openProfile is what loads one); `open`, its first name, stays
// an alias: the same help, the same usage errors under the command's name.
TEST(Cli, PerfettoCommandAnswersToOpenToo) {
  auto help = RunCli({"help", "perfetto"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(Contains(help.out, "Usage: nsys-ai perfetto FILE")) << help.out;
  EXPECT_TRUE(Contains(help.out, "Also: nsys-ai open (the same command).")) << help.out;
  EXPECT_EQ(RunCli({"help", "open"}).out, help.out);
  EXPECT_EQ(RunCli({"open", "--help"}).out, help.out);
  auto general = RunCli({"help"});
  EXPECT_TRUE(Contains(general.out, "  perfetto ")) << general.out;
  EXPECT_TRUE(Contains(general.out, "(also: open)")) << general.out;
  auto bad_port = RunCli({"open", "a.sqlite", "--port", "70000"});
  EXPECT_EQ(bad_port.exit_code, 2);
  EXPECT_TRUE(Contains(bad_port.err, "nsys-ai perfetto: --port wants 0 to 65535")) << bad_port.err;
}

// Every windowed command takes one set of window options (args.h WindowOptions): --trim START END, --window S:E
// and --start/--end give the same window to analyze, skill run and export, and two of them at once are refused.
TEST(Cli, WindowOptionsAreTheSameInEveryCommand) {
  NSYS_REQUIRE_FIXTURES();
  const std::string profile = Fixture("h100_2gpu_1s.sqlite");
  const std::vector<std::vector<std::string>> windows = {
      {"--trim", "0.2", "0.4"}, {"--window", "0.2:0.4"}, {"--start", "0.2", "--end", "0.4"}};
  auto with = [](std::vector<std::string> command, const std::vector<std::string>& window) {
    command.insert(command.end(), window.begin(), window.end());
    return RunCli(command);
  };
  const auto whole = RunCli({"--no-cache", "skill", "run", "top_kernels", profile, "--format", "json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::string skill_out, analyze_out;
  for (const auto& window : windows) {
    const auto skill = with({"--no-cache", "skill", "run", "top_kernels", profile, "--format", "json"}, window);
    ASSERT_EQ(skill.exit_code, 0) << skill.err;
    EXPECT_NE(skill.out, whole.out);  // the window narrows the kernels
    if (skill_out.empty()) skill_out = skill.out;
    EXPECT_EQ(skill.out, skill_out) << window[0];
    const auto analyze = with({"--no-cache", "analyze", profile, "--format", "json"}, window);
    ASSERT_EQ(analyze.exit_code, 0) << analyze.err;
    if (analyze_out.empty()) analyze_out = analyze.out;
    EXPECT_EQ(analyze.out, analyze_out) << window[0];
    const std::string trace = ::testing::TempDir() + "/cli_window_" + std::to_string(getpid()) + ".pftrace";
    const auto exported = with({"--no-cache", "export", profile, "-o", trace, "--format", "json"}, window);
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    EXPECT_TRUE(Contains(exported.out, "Window: 0.200 s to 0.400 s from profile start")) << exported.out;
    std::filesystem::remove(trace);
  }
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"analyze", profile}, std::vector<std::string>{"export", profile, "-o", "x.pftrace"}}) {
    const auto both = with(command, {"--trim", "0.2", "0.4", "--window", "0:1"});
    EXPECT_EQ(both.exit_code, 2) << command[0];
    EXPECT_TRUE(Contains(both.err, "--trim, --window and --start/--end exclude each other")) << both.err;
  }
  const auto bad = RunCli({"skill", "run", "top_kernels", profile, "--window", "0.2-0.4"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(Contains(bad.err, "--window wants START:END (e.g. 0.2:0.4), not '0.2-0.4'")) << bad.err;
}

// One --format helper (args.h FormatOption/FormatValue): each command names its values in its help and in the error.
TEST(Cli, FormatValuesAreNamedByTheirCommand) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"ask", "a.sqlite", "why?", "--format", "csv"}, "--format must be markdown or json"},
      {{"export", "a.sqlite", "-o", "x.pftrace", "--format", "csv"}, "--format must be text or json"},
      {{"info", "a.sqlite", "--format", "csv"}, "--format must be table or json"},
      {{"skill", "list", "--format", "xml"}, "--format must be table, json, csv or markdown"},
  };
  for (const auto& [command, message] : cases) {
    const auto result = RunCli(command);
    EXPECT_EQ(result.exit_code, 2) << command[0];
    EXPECT_TRUE(Contains(result.err, message)) << result.err;
  }
  EXPECT_TRUE(Contains(RunCli({"help", "explain"}).out,
                       "--format FORMAT  markdown (default) or json (the nsys/explainKernel result)"));
  EXPECT_TRUE(Contains(RunCli({"help", "info"}).out, "table (default) or json"));
}

TEST(Cli, UsageErrorsExitWithTwo) {
  const std::vector<std::vector<std::string>> bad = {
      {"frobnicate"},
      {"skill", "frobnicate"},
      {"info"},
      {"info", "a.sqlite", "b.sqlite"},
      {"info", "a.sqlite", "--bogus"},
      {"info", "a.sqlite", "--format", "xml"},
      {"skill", "run", "top_kernels"},
      {"skill", "run", "top_kernels", "a.sqlite", "--device"},
      {"skill", "run", "top_kernels", "a.sqlite", "--trim", "0.1"},
      {"skill", "run", "top_kernels", "a.sqlite", "--format", "yaml"},
      {"skill", "run", "no_such_skill", "a.sqlite"},
      {"skill", "run", "top_kernels", "a.sqlite", "--arg", "limit=many"},
      {"skill", "run", "top_kernels", "a.sqlite", "--arg", "nonsense=1"},
      {"skill", "run", "top_kernels", "a.sqlite", "--arg", "noequals"},
      {"skill", "run", "top_kernels", "a.sqlite", "--clock", "lunar"},
      {"skill", "list", "--log-level", "loud"},
      {"version", "--no-cache=yes"},
      {"serve", "--listen", "0.0.0.0:0"},
      {"serve", "--listen", "nonsense"},
      {"serve", "--listen", "127.0.0.1:99999"},
      {"serve", "--stdio", "--listen", "127.0.0.1:0"},
      {"serve", "--workers", "0"},
  };
  for (const auto& args : bad) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    const auto result = RunCli(args);
    EXPECT_EQ(result.exit_code, 2) << joined << "\nstderr: " << result.err;
    EXPECT_FALSE(result.err.empty()) << joined;
    EXPECT_TRUE(result.out.empty()) << joined << "\nstdout: " << result.out;
  }
  EXPECT_TRUE(Contains(RunCli({"info", "a.sqlite", "--bogus"}).err, "unknown option '--bogus'"));
  EXPECT_TRUE(Contains(RunCli({"serve", "--listen", "0.0.0.0:0"}).err, "--allow-remote"));
  const auto unknown_skill = RunCli({"skill", "run", "no_such_skill", "a.sqlite"});
  EXPECT_TRUE(Contains(unknown_skill.err, "unknown skill 'no_such_skill'") &&
              Contains(unknown_skill.err, "top_kernels"))
      << unknown_skill.err;
  EXPECT_TRUE(Contains(RunCli({"skill", "run", "top_kernels", "a.sqlite", "--arg", "limit=many"}).err, "limit"));
}

TEST(Cli, RuntimeErrorsExitWithOne) {
  const auto missing = RunCli({"info", "/no/such/profile.sqlite"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(Contains(missing.err, "/no/such/profile.sqlite")) << missing.err;
  EXPECT_TRUE(missing.out.empty());
  const auto run_missing = RunCli({"skill", "run", "top_kernels", "/no/such/profile.sqlite"});
  EXPECT_EQ(run_missing.exit_code, 1);
}

TEST(Cli, InfoDescribesAFixture) {
  NSYS_REQUIRE_FIXTURES();
  const auto table = RunCli({"info", Fixture("h100_2gpu_1s.sqlite"), "--no-cache"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(Contains(table.out, "2026.2.1.210 (export schema 3.25.0)")) << table.out;
  EXPECT_TRUE(Contains(table.out, "Devices      2")) << table.out;
  EXPECT_TRUE(Contains(table.out, "Processes    159")) << table.out;
  EXPECT_TRUE(Contains(table.out, "CUPTI_ACTIVITY_KIND_KERNEL")) << table.out;
  EXPECT_TRUE(Contains(table.out, "3,442")) << table.out;
  EXPECT_TRUE(Contains(table.out, "16,782")) << table.out;  // NVTX_EVENTS

  const auto json_run = RunCli({"info", Fixture("h100_2gpu_1s.sqlite"), "--no-cache", "--format", "json"});
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const Json json = Json::parse(json_run.out);
  EXPECT_FALSE(json.contains("profileId"));
  EXPECT_EQ(json["info"]["schemaVersion"], "3.25.0");
  EXPECT_EQ(json["info"]["processCount"], 159);
  bool found = false;
  for (const auto& t : json["info"]["tables"]) {
    if (t["name"] == "CUPTI_ACTIVITY_KIND_KERNEL") found = t["rows"] == 3442;
  }
  EXPECT_TRUE(found);

  const auto not_export = RunCli({"info", Fixture("README.md"), "--no-cache"});
  EXPECT_EQ(not_export.exit_code, 1);
  EXPECT_FALSE(not_export.err.empty());
}

// A file name that is not UTF-8 (byte 0xff) is printed by --format json as its file:// URI, losslessly (it
// used to exit 1 with "json type_error.316"), and that URI given back opens the same file.
TEST(Cli, InfoJsonCarriesANameThatIsNotUtf8AsItsUri) {
  NSYS_REQUIRE_FIXTURES();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("nsys_ai_cli_ff_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string copy = (dir / "prof\xFF.sqlite").string();
  std::filesystem::copy_file(Fixture("h100_2gpu_1s.sqlite"), copy);
  const std::string uri = "file://" + dir.string() + "/prof%FF.sqlite";
  for (const std::string& given : {copy, uri}) {
    const auto run = RunCli({"info", given, "--no-cache", "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Json json = Json::parse(run.out);
    EXPECT_EQ(json["path"], uri);
    EXPECT_EQ(json["info"]["sourcePath"], uri);
    EXPECT_EQ(json["info"]["processCount"], 159);
  }
  std::filesystem::remove_all(dir);
}

TEST(Cli, SkillListNamesTheBuiltIns) {
  const auto table = RunCli({"skill", "list"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(Contains(table.out, "top_kernels") && Contains(table.out, "gpukernsum"));
  EXPECT_TRUE(Contains(table.out, "cuda_api_summary") && Contains(table.out, "cudaapisum"));
  const Json json = Json::parse(RunCli({"skill", "list", "--format", "json"}).out);
  EXPECT_GE(json["skills"].size(), 10u);
}

TEST(Cli, SkillRunMatchesTheKernelCount) {
  NSYS_REQUIRE_FIXTURES();
  const std::string file = Fixture("h100_2gpu_1s.sqlite");
  const auto json_run = RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--format", "json"});
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const Json all = Json::parse(json_run.out);
  EXPECT_EQ(SumColumn(all, "instances"), 3442);  // every kernel of the export, as nsys stats gpukernsum counts them
  const size_t distinct = all["rows"].size();

  // Per device, the two halves add up; a window takes a part.
  const Json dev0 =
      Json::parse(RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--format", "json", "--device", "0"}).out);
  const Json dev1 =
      Json::parse(RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--format", "json", "--device", "1"}).out);
  EXPECT_GT(SumColumn(dev0, "instances"), 0);
  EXPECT_EQ(SumColumn(dev0, "instances") + SumColumn(dev1, "instances"), 3442);
  const Json half = Json::parse(
      RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--format", "json", "--trim", "0", "0.5"}).out);
  EXPECT_GT(SumColumn(half, "instances"), 0);
  EXPECT_LT(SumColumn(half, "instances"), 3442);

  // CSV: a header plus one line per row, full names.
  const auto csv = RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("time_pct,total_time_ns,instances,", 0), 0u) << csv.out.substr(0, 200);
  EXPECT_EQ(static_cast<size_t>(std::count(csv.out.begin(), csv.out.end(), '\n')), distinct + 1);
  EXPECT_TRUE(Contains(csv.err, "note: "));  // notes stay out of the CSV

  // The table: aligned, long names cut with an ellipsis unless --full-names.
  const auto table = RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--arg", "limit=5"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(Contains(table.out, "instances"));
  EXPECT_TRUE(Contains(table.out, "…"));
  EXPECT_TRUE(Contains(table.out, "note: Showing the first 5 of"));
  const auto full = RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--arg", "limit=5", "--full-names"});
  EXPECT_FALSE(Contains(full.out, "…"));
  EXPECT_TRUE(Contains(full.out,
                       "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_"
                       "alignc4_execute_kernel__5x_cublas"));

  const auto markdown =
      RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--arg", "limit=2", "--format", "markdown"});
  EXPECT_EQ(markdown.out.rfind("| time_pct | total_time_ns |", 0), 0u) << markdown.out;
  EXPECT_TRUE(Contains(markdown.out, "| ---: |"));
}

TEST(Cli, ADeclinedSkillSaysWhyAndSucceeds) {
  NSYS_REQUIRE_FIXTURES();
  // titanrtx_tensorrt_nvtx has no kernel table at all.
  const auto result = RunCli(
      {"skill", "run", "top_kernels", Fixture("titanrtx_tensorrt_nvtx.sqlite"), "--no-cache", "--format", "json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json json = Json::parse(result.out);
  EXPECT_TRUE(json["declined"]);
  EXPECT_TRUE(json["rows"].empty());
  ASSERT_FALSE(json["notes"].empty());
}

TEST(Cli, RuntimeArgumentErrorsNameTheProblem) {
  NSYS_REQUIRE_FIXTURES();
  const auto result =
      RunCli({"skill", "run", "top_kernels", Fixture("h100_2gpu_1s.sqlite"), "--no-cache", "--device", "7"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "7")) << result.err;
}

TEST(Cli, LogsGoToStderrOrTheLogFileNeverStdout) {
  NSYS_REQUIRE_FIXTURES();
  const auto debug = RunCli({"skill", "run", "top_kernels", Fixture("mock.sqlite"), "--no-cache", "--format", "json",
                             "--log-level", "debug"});
  ASSERT_EQ(debug.exit_code, 0) << debug.err;
  EXPECT_NO_THROW(Json::parse(debug.out));  // stdout is only the JSON
  EXPECT_FALSE(debug.err.empty());

  const auto log = std::filesystem::temp_directory_path() / ("nsys_ai_cli_test_" + std::to_string(::getpid()) + ".log");
  const auto to_file =
      RunCli({"info", Fixture("mock.sqlite"), "--no-cache", "--log-level", "info", "--log-file", log.string()});
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_TRUE(to_file.err.empty()) << to_file.err;
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(Contains(text.str(), " I] ")) << text.str();
  std::filesystem::remove(log);
}

TEST(Cli, ServeOverStdioAnswersAndExitsCleanly) {
  auto frame = [](const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  const std::string input =
      frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}})") +
      frame(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})") + frame(R"({"jsonrpc":"2.0","method":"exit"})");
  const auto result = RunCli({"serve", "--stdio", "--no-cache"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("Content-Length: ", 0), 0u) << result.out;
  EXPECT_TRUE(Contains(result.out, R"("serverInfo":{"name":"nsys-ai")"));
  EXPECT_TRUE(Contains(result.out, R"({"id":2,"jsonrpc":"2.0","result":null})")) << result.out;
  // Without shutdown: 1.
  const auto abrupt = RunCli({"serve", "--no-cache"}, frame(R"({"jsonrpc":"2.0","method":"exit"})"));
  EXPECT_EQ(abrupt.exit_code, 1);
  EXPECT_TRUE(abrupt.out.empty());
}

}  // namespace
}  // namespace nsys::testing
