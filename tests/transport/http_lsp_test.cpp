// nsys/exportTrace and nsys/openInPerfetto against the real `nsys-ai serve --stdio`: streamed base64 chunks that
// reassemble into the validated trace, a trace file written where asked, and a published link that serves the same
// bytes and is announced to the client with window/showDocument.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/support/sha256.h"
#include "nsys/trace/protobuf.h"
#include "nsys/trace/validator.h"
#include "rpc_client.h"
#include "transport/http_test_util.h"

namespace nsys::testing {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

std::string DecodeBase64(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int v = value(c);
    if (v < 0) continue;  // '=' padding
    bits = (bits << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      out += static_cast<char>(bits >> 16), out += static_cast<char>(bits >> 8), out += static_cast<char>(bits);
      bits = 0, count = 0;
    }
  }
  if (count == 3) out += static_cast<char>(bits >> 10), out += static_cast<char>(bits >> 2);
  if (count == 2) out += static_cast<char>(bits >> 4);
  return out;
}

class PerfettoOverLsp : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nsys-ai-lsp-perfetto-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    ::setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);  // the server's trace files go under here
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Start(std::vector<std::string> serve_flags = {}, Json initialization_options = nullptr) {
    std::vector<std::string> argv = {NsysAiBinary(), "serve", "--stdio", "--no-cache"};
    argv.insert(argv.end(), serve_flags.begin(), serve_flags.end());
    server_ = std::make_unique<Subprocess>(argv);
    rpc_ = std::make_unique<FramedConnection>(server_->stdout_fd(), server_->stdin_fd(), false);
    rpc_->AnswerServerRequests(false);  // the test answers window/showDocument itself
    const Json capabilities = {{"window", {{"showDocument", {{"support", true}}}, {"workDoneProgress", true}}}};
    Json params = {{"processId", nullptr}, {"capabilities", capabilities}};
    if (!initialization_options.is_null()) params["initializationOptions"] = std::move(initialization_options);
    const Json init = Call("initialize", std::move(params));
    ASSERT_TRUE(init.contains("result")) << init.dump();
    rpc_->Send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", Json::object()}});
    const Json opened = Call("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}});
    ASSERT_EQ(opened["result"]["profileId"], "p1") << opened.dump();
  }

  Json Call(const std::string& method, Json params) {
    const int id = ++next_id_;
    rpc_->Send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    return rpc_->AwaitReply(id, 120s);
  }

  fs::path dir_;
  std::unique_ptr<Subprocess> server_;
  std::unique_ptr<FramedConnection> rpc_;
  int next_id_ = 0;
};

TEST_F(PerfettoOverLsp, ExportTraceStreamsPacketAlignedBase64Chunks) {
  NSYS_REQUIRE_FIXTURES();
  Start();
  const Json reply = Call("nsys/exportTrace", {{"profileId", "p1"}, {"partialResultToken", "trace-1"}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  std::string bytes;
  int chunks = 0;
  for (const Json& message : rpc_->Pending()) {
    if (message.value("method", "") != "$/progress" || message["params"]["token"] != "trace-1") continue;
    const Json& value = message["params"]["value"];
    ASSERT_EQ(value["offset"], static_cast<int64_t>(bytes.size()));  // in order, no gaps
    const std::string chunk = DecodeBase64(value["chunk"]);
    trace::ProtoDecoder d(chunk);  // every chunk is whole packets
    trace::ProtoField f;
    while (d.Next(f)) ASSERT_EQ(f.number, 1u);
    ASSERT_EQ(d.error(), nullptr);
    bytes += chunk;
    ++chunks;
  }
  EXPECT_GT(chunks, 3);
  EXPECT_EQ(result["streamed"], true);
  EXPECT_EQ(result["bytes"], static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(result["sha256"], support::Sha256::Hex(bytes));
  EXPECT_EQ(result["slices"]["kernels"], 3442);
  EXPECT_EQ(result["flows"], 2092);
  EXPECT_FALSE(result.contains("path"));
  const auto report = trace::ValidateTrace(bytes);
  EXPECT_TRUE(report.ok()) << report.Summary();
  EXPECT_EQ(result["packets"], report.packets);

  // To a file, for a window: the result names the file, which holds exactly the announced bytes.
  const std::string out = (dir_ / "window.pftrace").string();
  const Json file =
      Call("nsys/exportTrace", {{"profileId", "p1"}, {"output", out}, {"window", {{"start", 0}, {"end", 0.5}}}});
  ASSERT_TRUE(file.contains("result")) << file.dump();
  EXPECT_EQ(file["result"]["path"], out);
  EXPECT_EQ(file["result"]["streamed"], false);
  EXPECT_EQ(file["result"]["flows"], 330);
  EXPECT_EQ(file["result"]["bytes"], static_cast<int64_t>(fs::file_size(out)));

  // The same window and a device set in the one filter shape: the same trace as the fields, byte for byte.
  const Json fields = Call("nsys/exportTrace", {{"profileId", "p1"},
                                                {"output", (dir_ / "fields.pftrace").string()},
                                                {"window", {{"start", 0}, {"end", 0.5}}},
                                                {"devices", {0}}});
  const Json filtered =
      Call("nsys/exportTrace", {{"profileId", "p1"},
                                {"output", (dir_ / "filtered.pftrace").string()},
                                {"filter", {{"window", {{"start", 0}, {"end", 0.5}}}, {"devices", {0}}}}});
  ASSERT_TRUE(fields.contains("result") && filtered.contains("result")) << fields.dump() << filtered.dump();
  EXPECT_EQ(filtered["result"]["sha256"], fields["result"]["sha256"]);
  EXPECT_NE(filtered["result"]["sha256"], file["result"]["sha256"]);  // device 0 only: a smaller trace
  EXPECT_LT(filtered["result"]["bytes"], file["result"]["bytes"]);
  const Json threads = Call("nsys/exportTrace", {{"profileId", "p1"}, {"filter", {{"threads", {1}}}}});
  EXPECT_EQ(threads["error"]["code"], -32803) << threads.dump();
  const Json twice = Call("nsys/exportTrace", {{"profileId", "p1"}, {"devices", {0}}, {"filter", {{"devices", {1}}}}});
  EXPECT_EQ(twice["error"]["code"], -32602) << twice.dump();
  EXPECT_EQ(twice["error"]["message"], "params.devices and params.filter.devices both given: use one of them");

  // Bad params name the field.
  const Json bad = Call("nsys/exportTrace", {{"profileId", "p1"}, {"pids", {-5}}});
  EXPECT_EQ(bad["error"]["code"], -32602) << bad.dump();
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("pids"), std::string::npos);
  const Json missing = Call("nsys/exportTrace", {{"profileId", "p9"}});
  EXPECT_TRUE(missing.contains("error")) << missing.dump();
  const Json outside = Call("nsys/exportTrace", {{"profileId", "p1"}, {"window", {{"start", 50}, {"end", 60}}}});
  EXPECT_EQ(outside["error"]["code"], -32602) << outside.dump();
}

TEST_F(PerfettoOverLsp, OpenInPerfettoPublishesALinkAndAsksTheClientToOpenIt) {
  NSYS_REQUIRE_FIXTURES();
  Start();
  const Json reply = Call("nsys/openInPerfetto", {{"profileId", "p1"}, {"window", {{"start", 0}, {"end", 0.5}}}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  const std::string url = result["url"];
  const std::string token = result["token"];
  const int port = result["port"];
  EXPECT_EQ(url, "http://127.0.0.1:" + std::to_string(port) + "/p/" + token + "/");
  EXPECT_EQ(result["showDocument"], true);
  EXPECT_NE(result["expiresAt"].get<std::string>().find('T'), std::string::npos);
  EXPECT_EQ(result["sshHint"],
            "ssh -L " + std::to_string(port) + ":127.0.0.1:" + std::to_string(port) + " <this host>");

  // The server asked the client to open the link outside the editor.
  auto show = rpc_->Take([](const Json& m) { return m.value("method", "") == "window/showDocument"; }, 30s);
  ASSERT_TRUE(show.has_value());
  EXPECT_EQ((*show)["params"]["uri"], url);
  EXPECT_EQ((*show)["params"]["external"], true);
  rpc_->Send({{"jsonrpc", "2.0"}, {"id", (*show)["id"]}, {"result", {{"success", true}}}});

  const auto page = transport::testing::Get(static_cast<uint16_t>(port), "/p/" + token + "/");
  EXPECT_EQ(page.status, 200);
  const auto trace = transport::testing::Get(static_cast<uint16_t>(port), "/p/" + token + "/trace.pftrace");
  ASSERT_EQ(trace.status, 200);
  EXPECT_EQ(support::Sha256::Hex(trace.body), result["sha256"]);
  EXPECT_EQ(static_cast<int64_t>(trace.body.size()), result["bytes"]);
  EXPECT_TRUE(trace::ValidateTrace(trace.body).ok());
  // The file lives in the server's cache while the link is live.
  const fs::path traces = dir_ / "cache" / "nsys-ai" / "traces";
  EXPECT_EQ(std::distance(fs::directory_iterator(traces), fs::directory_iterator()), 1);

  EXPECT_TRUE(Call("shutdown", Json::object()).contains("result"));
  rpc_->Send({{"jsonrpc", "2.0"}, {"method", "exit"}});
  EXPECT_EQ(server_->Wait(30s), 0) << server_->Stderr();
  // The server is gone: the link with it, and its trace file.
  EXPECT_EQ(transport::testing::Get(static_cast<uint16_t>(port), "/p/" + token + "/").status, 0);
  EXPECT_EQ(std::distance(fs::directory_iterator(traces), fs::directory_iterator()), 0);
}

TEST_F(PerfettoOverLsp, OpenerPageUsesThePerfettoOriginGivenAtInitialize) {
  NSYS_REQUIRE_FIXTURES();
  // The session's origin wins over the server's --perfetto-origin.
  Start({"--perfetto-origin", "https://perfetto.server-default.example"},
        {{"perfettoOrigin", "http://127.0.0.1:10000"}});
  const Json reply = Call("nsys/openInPerfetto", {{"profileId", "p1"}, {"window", {{"start", 0}, {"end", 0.2}}}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const int port = reply["result"]["port"];
  const std::string token = reply["result"]["token"];
  auto show = rpc_->Take([](const Json& m) { return m.value("method", "") == "window/showDocument"; }, 30s);
  ASSERT_TRUE(show.has_value());
  rpc_->Send({{"jsonrpc", "2.0"}, {"id", (*show)["id"]}, {"result", {{"success", true}}}});

  const auto page = transport::testing::Get(static_cast<uint16_t>(port), "/p/" + token + "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find(R"(var ORIGIN = "http://127.0.0.1:10000";)"), std::string::npos) << page.body;
  EXPECT_NE(page.body.find("The trace goes from this page to http://127.0.0.1:10000 "), std::string::npos);
  EXPECT_EQ(page.body.find("server-default"), std::string::npos);
  EXPECT_EQ(page.body.find("ui.perfetto.dev"), std::string::npos);
}

TEST_F(PerfettoOverLsp, WithoutASessionOriginTheServersOriginIsUsed) {
  NSYS_REQUIRE_FIXTURES();
  Start({"--perfetto-origin", "https://perfetto.server-default.example:8443"});
  const Json reply = Call("nsys/openInPerfetto", {{"profileId", "p1"}, {"window", {{"start", 0}, {"end", 0.2}}}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const auto page = transport::testing::Get(static_cast<uint16_t>(reply["result"]["port"].get<int>()),
                                            "/p/" + reply["result"]["token"].get<std::string>() + "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find(R"(var ORIGIN = "https://perfetto.server-default.example:8443";)"), std::string::npos)
      << page.body;
}

// A job's timeline in the browser with one request. The job is a real split of mfu_2gpu_after.sqlite
// (split_ranks.py at test time: 4 ranks, 2 a node, the second node's clock 2 ms ahead).
TEST_F(PerfettoOverLsp, OpenInPerfettoPublishesAJobsTraceWithATrackGroupPerRank) {
  NSYS_REQUIRE_FIXTURES();
  const std::string cmd = "python3 -B '" + (fs::path(FixturesDir()) / ".." / "tools" / "split_ranks.py").string() +
                          "' '" + Fixture("mfu_2gpu_after.sqlite") + "' '" + (dir_ / "ranks").string() +
                          "' --replicate 2 --ranks-per-node 2 --skew-ns 2000000 > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  Start();
  const Json run = Call("nsys/openJob", {{"directory", (dir_ / "ranks").string()}});
  ASSERT_TRUE(run.contains("result")) << run.dump();
  const std::string job_id = run["result"]["jobId"];

  const Json reply = Call("nsys/openInPerfetto", {{"jobId", job_id}, {"ranksPerNode", 2}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  const int port = result["port"];
  const std::string token = result["token"];
  EXPECT_EQ(result["showDocument"], true);
  auto show = rpc_->Take([](const Json& m) { return m.value("method", "") == "window/showDocument"; }, 30s);
  ASSERT_TRUE(show.has_value());
  EXPECT_EQ((*show)["params"]["uri"], result["url"]);
  rpc_->Send({{"jsonrpc", "2.0"}, {"id", (*show)["id"]}, {"result", {{"success", true}}}});

  const auto trace = transport::testing::Get(static_cast<uint16_t>(port), "/p/" + token + "/trace.pftrace");
  ASSERT_EQ(trace.status, 200);
  EXPECT_EQ(support::Sha256::Hex(trace.body), result["sha256"]);
  EXPECT_EQ(static_cast<int64_t>(trace.body.size()), result["bytes"]);
  const auto report = trace::ValidateTrace(trace.body);
  EXPECT_TRUE(report.ok()) << report.Summary();
  for (const char* rank : {"rank0000", "rank0001", "rank0002", "rank0003"})
    EXPECT_NE(trace.body.find(rank), std::string::npos) << rank << ": each rank is a named track group";
  // The same trace as nsys/exportJobTrace writes to a file for the same job and clocks, byte for byte.
  const Json file = Call("nsys/exportJobTrace",
                         {{"jobId", job_id}, {"ranksPerNode", 2}, {"output", (dir_ / "run.pftrace").string()}});
  ASSERT_TRUE(file.contains("result")) << file.dump();
  EXPECT_EQ(file["result"]["sha256"], result["sha256"]);
  EXPECT_EQ(file["result"]["slices"]["kernels"], 2 * 3587);  // sqlite3: count(*) of the source's kernels, twice

  // A job's trace has no window, names one target, and the job must exist.
  const Json windowed = Call("nsys/openInPerfetto", {{"jobId", job_id}, {"window", {{"start", 0}, {"end", 0.5}}}});
  EXPECT_EQ(windowed["error"]["code"], -32602) << windowed.dump();
  const Json both = Call("nsys/openInPerfetto", {{"jobId", job_id}, {"profileId", "p1"}});
  EXPECT_EQ(both["error"]["code"], -32602) << both.dump();
  const Json unknown = Call("nsys/openInPerfetto", {{"jobId", "j99"}});
  EXPECT_EQ(unknown["error"]["code"], -32602) << unknown.dump();
  const Json neither = Call("nsys/openInPerfetto", Json::object());
  EXPECT_EQ(neither["error"]["code"], -32602) << neither.dump();
}

}  // namespace
}  // namespace nsys::testing
