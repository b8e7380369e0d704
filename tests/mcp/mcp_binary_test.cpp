// Against the real binary: `nsys-ai mcp` serves requests concurrently, honours notifications/cancelled and shuts
// down cleanly on SIGTERM; `nsys-ai serve --stdio` survives a body with a number past a double's range.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.h"
#include "mcp/child_process.h"
#include "mcp/read_file_util.h"
#include "mcp/transcript_match.h"
#include "nsys/support/sha256.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kReplyTimeout = 60s;  // opening the sample profile on a busy 2-core machine, in a Debug build

// A user skill whose SQL never ends on its own: a recursive CTE counting to 10^15. `n` only makes each call
// distinct, so no result memo can answer one call from another.
constexpr const char* kEndlessSkill = R"({
  "name": "endless_count",
  "description": "Counts forever (a test of cancellation).",
  "args": [{"name": "n", "type": "int", "description": "Distinguishes calls.", "default": 0}],
  "sql": "WITH RECURSIVE c(i) AS (SELECT :n UNION ALL SELECT i + 1 FROM c WHERE i < 1000000000000000) SELECT max(i) AS top FROM c"
})";

class McpBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(NSYS_AI_BINARY)) << "the nsys-ai binary is not built: " << NSYS_AI_BINARY;
    scratch_ = fs::temp_directory_path() / ("nsys-ai-mcp-binary-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_ / "skills");
    std::ofstream(scratch_ / "skills" / "endless_count.skill.json") << kEndlessSkill;
    stderr_path_ = (scratch_ / "stderr.log").string();
  }
  void TearDown() override {
    child_.reset();
    fs::remove_all(scratch_);
  }

  void Start(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {NSYS_AI_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string error;
    child_ = ChildProcess::Start(
        argv, {"XDG_CACHE_HOME=" + (scratch_ / "cache").string(), "XDG_CONFIG_HOME=" + (scratch_ / "config").string()},
        stderr_path_, &error);
    ASSERT_TRUE(child_) << error;
  }

  void StartMcp() {
    Start({"mcp", "--no-cache", "--log-level", "info", "--skill-dir", (scratch_ / "skills").string()});
    Send({{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()}}}});
    ASSERT_EQ(Receive(kReplyTimeout)["id"], 1);
    Send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }

  void OpenSample() {
    Send(ToolCall(2, "open_profile", {{"path", std::string(NSYS_AI_SOURCE_DIR) + "/examples/h100_2gpu_1s.sqlite"}}));
    const Json reply = Receive(kReplyTimeout);
    ASSERT_EQ(reply["id"], 2);
    ASSERT_EQ(reply["result"]["isError"], false) << reply.dump();
  }

  static Json ToolCall(int id, const std::string& tool, const Json& arguments) {
    return {{"jsonrpc", "2.0"},
            {"id", id},
            {"method", "tools/call"},
            {"params", {{"name", tool}, {"arguments", arguments}}}};
  }
  static Json Endless(int id) {
    return ToolCall(id, "run_skill", {{"profile_id", "p1"}, {"skill", "endless_count"}, {"args", {{"n", id}}}});
  }

  void Send(const Json& message) { ASSERT_TRUE(child_->WriteLine(message.dump())) << Log(); }

  // The next reply line as JSON; null on timeout or EOF (with a failure naming which).
  Json Receive(std::chrono::milliseconds timeout) {
    bool timed_out = false;
    const std::optional<std::string> line = child_->ReadLine(timeout, &timed_out);
    if (!line) {
      ADD_FAILURE() << (timed_out ? "no reply within the timeout" : "nsys-ai closed its output") << Log();
      return nullptr;
    }
    Json reply = Json::parse(*line, nullptr, false);
    EXPECT_FALSE(reply.is_discarded()) << *line;
    return reply;
  }

  // Waits until the server's log contains `text`.
  bool LogContains(const std::string& text, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (ReadFile(stderr_path_).find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

  std::string Log() { return "\n--- nsys-ai stderr ---\n" + ReadFile(stderr_path_); }

  fs::path scratch_;
  std::string stderr_path_;
  std::unique_ptr<ChildProcess> child_;
};

TEST_F(McpBinaryTest, AnswersOtherRequestsWhileOneRunsAndHonoursCancellation) {
  StartMcp();
  OpenSample();
  Send(Endless(10));
  // Cheap requests (answered by the reader) and a real analysis on the pool both come back while 10 runs.
  Send({{"jsonrpc", "2.0"}, {"id", 11}, {"method", "ping"}});
  EXPECT_EQ(Receive(10s), Json::parse(R"({"jsonrpc":"2.0","id":11,"result":{}})"));
  Send(ToolCall(12, "run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", 1}}}}));
  const Json top = Receive(kReplyTimeout);
  EXPECT_EQ(top["id"], 12);
  EXPECT_EQ(top["result"]["isError"], false) << top.dump();
  // An id already in progress is refused at once, and 10 keeps running.
  Send(Endless(10));
  EXPECT_EQ(Receive(10s), Json::parse(R"({"jsonrpc":"2.0","id":10,"error":{"code":-32600,)"
                                      R"("message":"request id 10 is already used by a request in progress"}})"));
  ASSERT_EQ(ReadFile(stderr_path_).find("request 10 was cancelled"), std::string::npos);

  // Cancelled: its SQL stops (the log says so) and no reply is ever sent for it.
  Send(
      {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 10}, {"reason", "test"}}}});
  EXPECT_TRUE(LogContains("mcp: request 10 was cancelled; stopped after", 20s)) << Log();
  Send({{"jsonrpc", "2.0"}, {"id", 13}, {"method", "ping"}});
  EXPECT_EQ(Receive(10s), Json::parse(R"({"jsonrpc":"2.0","id":13,"result":{}})"));
  // A cancellation for an unknown or finished request is ignored, as the spec allows.
  Send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 12}}}});
  Send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "nope"}}}});
  Send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", {1}}}}});

  child_->CloseStdin();
  bool timed_out = false;
  const std::optional<std::string> extra = child_->ReadLine(20s, &timed_out);
  EXPECT_FALSE(extra) << "a reply after the cancellation: " << *extra;
  EXPECT_FALSE(timed_out) << Log();
  EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << Log();
}

TEST_F(McpBinaryTest, EndOfInputAnswersTheRequestsInProgressFirst) {
  StartMcp();
  OpenSample();
  // Sent and followed at once by the end of input: the reply still comes, then the server exits 0.
  Send(ToolCall(20, "run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", 2}}}}));
  child_->CloseStdin();
  const Json reply = Receive(kReplyTimeout);
  EXPECT_EQ(reply["id"], 20);
  EXPECT_EQ(reply["result"]["isError"], false) << reply.dump();
  EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << Log();
}

TEST_F(McpBinaryTest, SigtermCancelsRunningRequestsAndExitsZero) {
  StartMcp();
  OpenSample();
  Send(Endless(30));
  Send(Endless(31));
  Send({{"jsonrpc", "2.0"}, {"id", 32}, {"method", "ping"}});
  EXPECT_EQ(Receive(10s)["id"], 32);
  ASSERT_TRUE(child_->Signal(SIGTERM));
  bool timed_out = false;
  const std::optional<std::string> extra = child_->ReadLine(20s, &timed_out);
  EXPECT_FALSE(extra) << "no reply is owed to cancelled requests: " << *extra;
  EXPECT_FALSE(timed_out) << Log();
  EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << Log();
  EXPECT_NE(ReadFile(stderr_path_).find("mcp: SIGTERM received"), std::string::npos) << Log();
}

TEST_F(McpBinaryTest, AtMost64RequestsInProgress) {
  StartMcp();
  OpenSample();
  for (int id = 100; id < 164; ++id) Send(Endless(id));  // 64: a few run, the rest wait for a worker
  Send(Endless(164));
  EXPECT_EQ(Receive(10s),
            Json::parse(R"({"jsonrpc":"2.0","id":164,"error":{"code":-32803,"message":)"
                        R"("too many requests in progress (the limit is 64); wait for replies or cancel some"}})"));
  // A cancelled request keeps its place until a worker drops it; 100 runs first, so cancelling it makes room for one.
  Send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 100}}}});
  ASSERT_TRUE(LogContains("mcp: request 100 was cancelled", 20s)) << Log();
  Send(Endless(166));
  Send(Endless(167));
  EXPECT_EQ(Receive(10s)["id"], 167);
  Send(ToolCall(168, "list_skills", Json::object()));  // cheap: answered by the reader, never refused for the limit
  EXPECT_EQ(Receive(10s)["id"], 168);
  ASSERT_TRUE(child_->Signal(SIGTERM));
  bool timed_out = false;
  const std::optional<std::string> extra = child_->ReadLine(20s, &timed_out);
  EXPECT_FALSE(extra) << *extra;
  EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << Log();
}

TEST_F(McpBinaryTest, SigtermAndSigintWhenIdleExitZero) {
  for (int signal : {SIGTERM, SIGINT}) {
    StartMcp();
    ASSERT_TRUE(child_->Signal(signal));
    EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << "signal " << signal << Log();
  }
}

// stdin as the binary reads it (poll + read, not std::cin): a line past the limit is refused and dropped, lines
// split across reads and a last line without its newline are served.
TEST_F(McpBinaryTest, StdinLinesAreSplitAndBoundedAsSent) {
  StartMcp();
  ASSERT_TRUE(child_->Write(std::string(64u * 1024u * 1024u + 100u, ' ') + "x\n"));
  EXPECT_EQ(Receive(20s), Json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,)"
                                      R"("message":"message line longer than 67108864 bytes"}})"));
  const std::string ping = R"({"jsonrpc":"2.0","id":40,"method":"ping"})";
  ASSERT_TRUE(child_->Write(ping.substr(0, 10)));
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(child_->Write(ping.substr(10) + "\r\n" + R"({"jsonrpc":"2.0","id":41,"method":"ping"})"));
  EXPECT_EQ(Receive(10s)["id"], 40);
  child_->CloseStdin();
  EXPECT_EQ(Receive(10s)["id"], 41);
  EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << Log();
}

// serve --stdio, before `initialize`: a 1e400 id used to abort the process (exit 134).
TEST_F(McpBinaryTest, ServeStdioAnswersAHugeNumberAndServesTheNextRequest) {
  Start({"serve", "--stdio", "--no-cache"});
  const auto frame = [](const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  ASSERT_TRUE(child_->Write(frame(R"({"jsonrpc":"2.0","id":1e400,"method":"initialize","params":{}})")));
  ASSERT_TRUE(child_->Write(frame(R"({"jsonrpc":"2.0","id":2,"method":"x","params":{"a":[-1e400]}})")));
  ASSERT_TRUE(child_->Write(frame(R"({"jsonrpc":"2.0","id":3,"method":"initialize","method":"shutdown"})")));
  ASSERT_TRUE(child_->Write(
      frame(R"({"jsonrpc":"2.0","id":4,"method":"initialize","params":{"processId":null,"capabilities":{}}})")));
  const std::vector<std::string> expected = {
      R"({"error":{"code":-32700,"message":"invalid JSON: number overflow parsing '1e400'"},"id":null,"jsonrpc":"2.0"})",
      R"({"error":{"code":-32700,"message":"invalid JSON: number overflow parsing '-1e400'"},"id":null,"jsonrpc":"2.0"})",
      R"({"error":{"code":-32600,"message":"duplicate member 'method'"},"id":3,"jsonrpc":"2.0"})"};
  for (const auto& want : expected) {
    bool timed_out = false;
    const std::optional<std::string> body = child_->ReadFrame(10s, &timed_out);
    ASSERT_TRUE(body) << (timed_out ? "no reply" : "the server exited") << Log();
    EXPECT_EQ(Json::parse(*body), Json::parse(want));
  }
  bool timed_out = false;
  const std::optional<std::string> init = child_->ReadFrame(kReplyTimeout, &timed_out);
  ASSERT_TRUE(init) << Log();
  EXPECT_EQ(Json::parse(*init)["id"], 4);
  EXPECT_TRUE(Json::parse(*init).contains("result")) << *init;
  ASSERT_TRUE(child_->Write(frame(R"({"jsonrpc":"2.0","id":5,"method":"shutdown"})")));
  ASSERT_TRUE(child_->ReadFrame(10s, &timed_out)) << Log();
  ASSERT_TRUE(child_->Write(frame(R"({"jsonrpc":"2.0","method":"exit"})")));
  EXPECT_EQ(child_->Wait(20s), std::optional<int>(0)) << Log();
}

// The trace tools: the same core calls as nsys/exportTrace and nsys/openInPerfetto, with the editor
// methods' argument names in snake_case.
Json ToolJson(const Json& reply) {
  return Json::parse(reply["result"]["content"][0]["text"].get<std::string>(), nullptr, false);
}

// A plain HTTP/1.1 GET on 127.0.0.1:port; the whole response (head and body).
std::string HttpGet(uint16_t port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buffer[65536];
      ssize_t n;
      while ((n = ::read(fd, buffer, sizeof buffer)) > 0) response.append(buffer, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  return response;
}

TEST_F(McpBinaryTest, ExportTraceWritesTheFileItDescribes) {
  StartMcp();
  OpenSample();
  const std::string out = (scratch_ / "t.pftrace").string();
  Send(ToolCall(
      3, "export_trace",
      {{"profile_id", "p1"}, {"output", out}, {"window", {{"start", 0}, {"end", 0.5}}}, {"min_duration_ns", 5000}}));
  const Json reply = Receive(kReplyTimeout);
  ASSERT_EQ(reply["result"]["isError"], false) << reply.dump();
  const Json result = ToolJson(reply);
  const std::string bytes = ReadFile(out);
  EXPECT_EQ(result["path"], out);
  EXPECT_EQ(result["bytes"], static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(result["sha256"], support::Sha256::Hex(bytes));
  EXPECT_EQ(result["streamed"], false);
  EXPECT_GT(result["slices"]["kernels"].get<int64_t>(), 0) << result.dump();
  EXPECT_GT(result["tracks"].get<int64_t>(), 0);
  EXPECT_GT(result["skipped_short"].get<int64_t>(), 0) << "min_duration_ns was not applied: " << result.dump();
  EXPECT_NE(result["window"].get<std::string>().find("0.500 s"), std::string::npos) << result["window"];

  // Without output: a fresh file in the server's trace cache, under XDG_CACHE_HOME.
  Send(ToolCall(4, "export_trace", {{"profile_id", "p1"}}));
  const Json cached = ToolJson(Receive(kReplyTimeout));
  const std::string cached_path = cached["path"].get<std::string>();
  EXPECT_EQ(cached_path.rfind((scratch_ / "cache" / "nsys-ai" / "exported-traces").string(), 0), 0u) << cached_path;
  EXPECT_EQ(support::Sha256::Hex(ReadFile(cached_path)), cached["sha256"]);
  EXPECT_EQ(cached["window"], "whole profile");
}

TEST_F(McpBinaryTest, TraceToolsRefuseBadArgumentsByTheirNames) {
  StartMcp();
  OpenSample();
  Send(ToolCall(3, "export_trace", {{"profile_id", "p1"}, {"gzip", true}}));
  const Json unknown = Receive(kReplyTimeout);
  EXPECT_EQ(unknown["result"]["isError"], true);
  EXPECT_NE(unknown["result"]["content"][0]["text"].get<std::string>().find("unknown argument 'gzip'"),
            std::string::npos)
      << unknown.dump();
  Send(ToolCall(4, "export_trace", {{"profile_id", "p1"}, {"min_duration_ns", "long"}}));
  const std::string typed = Receive(kReplyTimeout)["result"]["content"][0]["text"];
  EXPECT_NE(typed.find("arguments.min_duration_ns: expected"), std::string::npos) << typed;
  Send(ToolCall(5, "open_in_perfetto", {{"profile_id", "p9"}}));
  const Json missing = Receive(kReplyTimeout);
  EXPECT_EQ(missing["result"]["isError"], true);
  EXPECT_NE(missing["result"]["content"][0]["text"].get<std::string>().find("p9"), std::string::npos);
}

// run_skill takes the protocol's one filter shape as nsys/runSkill does; the common args are its alias and give the
// same table (the sample: device 1 is pid 112's GPU, each with its own 1,721 kernels), and naming one thing both ways
// is refused by name.
TEST_F(McpBinaryTest, RunSkillTakesTheFilterShapeWithTheCommonArgsAsItsAlias) {
  StartMcp();
  OpenSample();
  const auto table = [&](int id, const Json& arguments) {
    Send(ToolCall(id, "run_skill", arguments));
    const Json reply = Receive(kReplyTimeout);
    EXPECT_EQ(reply["result"]["isError"], false) << reply.dump();
    return Json::parse(reply["result"]["content"][0]["text"].get<std::string>());
  };
  const Json filtered = table(3, {{"profile_id", "p1"},
                                  {"skill", "device_imbalance"},
                                  {"filter", {{"devices", {1}}, {"window", {{"start", 0.0}, {"end", 2.0}}}}}});
  const Json flat = table(
      4,
      {{"profile_id", "p1"}, {"skill", "device_imbalance"}, {"args", {{"device", 1}, {"start", 0.0}, {"end", 2.0}}}});
  EXPECT_EQ(filtered["rows"], flat["rows"]);
  ASSERT_EQ(filtered["rows"].size(), 1u) << filtered.dump();
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < filtered["columns"].size(); ++c) col[filtered["columns"][c]["name"]] = c;
  EXPECT_EQ(filtered["rows"][0][col.at("device_id")], 1);
  EXPECT_EQ(filtered["rows"][0][col.at("pid")], 112);
  EXPECT_EQ(filtered["rows"][0][col.at("kernels")], 1721);
  Send(ToolCall(
      5, "run_skill",
      {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"pid", 111}}}, {"filter", {{"processes", {111}}}}}));
  const Json both = Receive(kReplyTimeout);
  EXPECT_EQ(both["result"]["isError"], true) << both.dump();
  EXPECT_NE(both.dump().find("either as an argument or as filter.processes"), std::string::npos) << both.dump();
  Send(ToolCall(6, "run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"filter", {{"devices", "0"}}}}));
  const Json typed = Receive(kReplyTimeout);
  EXPECT_EQ(typed["result"]["isError"], true) << typed.dump();
  EXPECT_NE(typed.dump().find("arguments.filter.devices"), std::string::npos) << typed.dump();
}

TEST_F(McpBinaryTest, OpenInPerfettoServesTheTraceOnLoopback) {
  StartMcp();
  OpenSample();
  Send(ToolCall(3, "open_in_perfetto", {{"profile_id", "p1"}, {"window", {{"start", 0}, {"end", 0.2}}}}));
  const Json reply = Receive(kReplyTimeout);
  ASSERT_EQ(reply["result"]["isError"], false) << reply.dump() << Log();
  const Json result = ToolJson(reply);
  const auto port = result["port"].get<uint16_t>();
  const std::string token = result["token"];
  EXPECT_EQ(result["url"], "http://127.0.0.1:" + std::to_string(port) + "/p/" + token + "/");
  EXPECT_EQ(result["trace_url"], result["url"].get<std::string>() + "trace.pftrace");
  EXPECT_EQ(result["ssh_hint"],
            "ssh -L " + std::to_string(port) + ":127.0.0.1:" + std::to_string(port) + " <this host>");
  EXPECT_FALSE(result.contains("showDocument"));  // MCP has no client to ask
  const std::string response = HttpGet(port, "/p/" + token + "/trace.pftrace");
  ASSERT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response.substr(0, 200);
  const size_t body = response.find("\r\n\r\n");
  ASSERT_NE(body, std::string::npos);
  EXPECT_EQ(support::Sha256::Hex(response.substr(body + 4)), result["sha256"]);
  EXPECT_EQ(static_cast<int64_t>(response.size() - body - 4), result["bytes"].get<int64_t>());
}

// A job's timeline from the agent: open_in_perfetto {job_id, ranks_per_node} serves the very trace the CLI's
// job-trace writes for the same ranks and ranks per node (the bytes' sha256), and refuses a job with a window.
TEST_F(McpBinaryTest, OpenInPerfettoServesAJobsTrace) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path ranks = scratch_ / "ranks";
  const std::string split = "python3 -B '" +
                            (fs::path(testing::FixturesDir()) / ".." / "tools" / "split_ranks.py").string() + "' '" +
                            testing::Fixture("mfu_2gpu_before.sqlite") + "' '" + ranks.string() + "' > /dev/null";
  ASSERT_EQ(std::system(split.c_str()), 0) << split;
  const fs::path reference = scratch_ / "run.pftrace";
  const std::string cli = std::string("'") + NSYS_AI_BINARY + "' job-trace '" + ranks.string() + "' --output '" +
                          reference.string() + "' --ranks-per-node 2 --no-cache > /dev/null";
  ASSERT_EQ(std::system(cli.c_str()), 0) << cli;
  const std::string expected = support::Sha256::Hex(ReadFile(reference));

  StartMcp();
  Send(ToolCall(2, "open_job", {{"directory", ranks.string()}}));
  ASSERT_EQ(Receive(kReplyTimeout)["result"]["isError"], false) << Log();
  Send(ToolCall(3, "open_in_perfetto", {{"job_id", "j1"}, {"ranks_per_node", 2}}));
  const Json reply = Receive(kReplyTimeout);
  ASSERT_EQ(reply["result"]["isError"], false) << reply.dump() << Log();
  const Json result = ToolJson(reply);
  EXPECT_EQ(result["sha256"], expected);
  const auto port = result["port"].get<uint16_t>();
  const std::string response = HttpGet(port, "/p/" + result["token"].get<std::string>() + "/trace.pftrace");
  ASSERT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response.substr(0, 200);
  EXPECT_EQ(support::Sha256::Hex(response.substr(response.find("\r\n\r\n") + 4)), expected);

  Send(ToolCall(4, "open_in_perfetto", {{"job_id", "j1"}, {"window", {{"start", 0}, {"end", 0.1}}}}));
  const Json windowed = Receive(kReplyTimeout);
  EXPECT_EQ(windowed["result"]["isError"], true);
  EXPECT_NE(windowed["result"]["content"][0]["text"].get<std::string>().find("arguments.window: applies to a profile"),
            std::string::npos)
      << windowed.dump();
  Send(ToolCall(5, "open_in_perfetto", {{"job_id", "j1"}, {"ranks_per_node", -1}}));
  const std::string negative = Receive(kReplyTimeout)["result"]["content"][0]["text"];
  EXPECT_NE(negative.find("arguments.ranks_per_node: must not be negative"), std::string::npos) << negative;
  Send(ToolCall(6, "open_in_perfetto", {{"job_id", "j9"}}));
  const std::string unknown = Receive(kReplyTimeout)["result"]["content"][0]["text"];
  EXPECT_NE(unknown.find("j9"), std::string::npos) << unknown;
}

TEST_F(McpBinaryTest, ToolsListHasTheTraceTools) {
  StartMcp();
  Send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/list"}});
  const Json tools = Receive(kReplyTimeout)["result"]["tools"];
  std::map<std::string, Json> by_name;
  for (const auto& tool : tools) by_name[tool["name"]] = tool;
  ASSERT_TRUE(by_name.count("export_trace")) << tools.dump();
  ASSERT_TRUE(by_name.count("open_in_perfetto")) << tools.dump();
  std::vector<std::string> names;
  for (const auto& [name, property] : by_name["export_trace"]["inputSchema"]["properties"].items())
    names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"devices", "min_duration_ns", "output", "pids", "profile_id", "window"}));
}

// open_profile takes a .qdrep report as it takes a .nsys-rep: converted with the installed nsys (Debian's
// 2022.4.2 here); a report newer than that nsys names its writer, also when only its session record does; a file
// named .qdrep that is not a report is refused in plain words.
TEST_F(McpBinaryTest, OpensQdrepReports) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  if (::access("/usr/lib/nsight-systems/bin/nsys", X_OK) != 0) GTEST_SKIP() << "Debian's nsys 2022.4.2 absent";
  StartMcp();
  const std::string qdrep = Fixture("realworld/rtx3090_pytorch_brainstorm_sample.qdrep");
  Send(ToolCall(2, "open_profile", {{"path", qdrep}}));
  const Json opened = Receive(kReplyTimeout);
  ASSERT_EQ(opened["result"]["isError"], false) << opened.dump();
  const std::string summary = opened["result"]["content"][0]["text"];
  EXPECT_NE(summary.find("NVIDIA GeForce RTX 3090"), std::string::npos) << summary;
  EXPECT_NE(summary.find(qdrep), std::string::npos) << summary;
  Send(ToolCall(3, "run_skill", {{"profile_id", "p1"}, {"skill", "top_kernels"}, {"args", {{"limit", 1}}}}));
  const Json top = Receive(kReplyTimeout);
  EXPECT_EQ(top["result"]["isError"], false) << top.dump();

  Send(ToolCall(4, "open_profile", {{"path", Fixture("realworld/rtx3090_tensorrt_fp16_conv.nsys-rep")}}));
  const Json too_new = Receive(kReplyTimeout);
  EXPECT_EQ(too_new["result"]["isError"], true) << too_new.dump();
  EXPECT_NE(too_new.dump().find("was written by Nsight Systems 2023.1.2.43"), std::string::npos) << too_new.dump();
  EXPECT_EQ(too_new.dump().find("Exception"), std::string::npos) << too_new.dump();

  const fs::path fake = scratch_ / "notes.qdrep";
  std::ofstream(fake) << "meeting notes, not a profile\n";
  Send(ToolCall(5, "open_profile", {{"path", fake.string()}}));
  const Json refused = Receive(kReplyTimeout);
  EXPECT_EQ(refused["result"]["isError"], true) << refused.dump();
  EXPECT_NE(refused.dump().find("is not an Nsight Systems report"), std::string::npos) << refused.dump();
}

}  // namespace
}  // namespace nsys::testing
