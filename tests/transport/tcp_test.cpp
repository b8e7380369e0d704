// Several TCP clients of one `nsys-ai serve --listen` process: separate sessions over one workspace, and a client
// that misbehaves and vanishes mid-request without disturbing the others.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "rpc_client.h"

namespace nsys::testing {
namespace {

using namespace std::chrono_literals;

Json Request(FramedConnection& c, const Json& id, const std::string& method, Json params = Json::object()) {
  c.Send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return c.AwaitReply(id);
}

void Initialize(FramedConnection& c, const std::string& token) {
  const Json reply = InitializeWithToken(c, token);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
}

// A bigger export made from a fixture by ../shared/tools/scale_profile.py, so skills take a while to load.
class ScaledProfile {
 public:
  static const std::string& Path() {
    static const std::string path = [] {
      const auto dir = std::filesystem::temp_directory_path() / ("nsys_ai_tcp_test_" + std::to_string(::getpid()));
      std::filesystem::create_directories(dir);
      const std::string out = (dir / "scaled.sqlite").string();
      const std::string script = std::string(NSYS_AI_SOURCE_DIR) + "/../shared/tools/scale_profile.py";
      const std::string command =
          "python3 '" + script + "' '" + Fixture("h100_2gpu_1s.sqlite") + "' '" + out + "' --factor 60 > /dev/null";
      if (std::system(command.c_str()) != 0) return std::string();
      std::atexit([] {
        std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                                    ("nsys_ai_tcp_test_" + std::to_string(::getpid())));
      });
      return out;
    }();
    return path;
  }
};

TEST(TcpServer, EachClientHasItsOwnSessionOverOneWorkspace) {
  NSYS_REQUIRE_FIXTURES();
  auto server = StartTcpServer({"--no-cache"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  auto a = Connect(server.port);
  auto b = Connect(server.port);
  Initialize(*a, server.token);
  // b has not initialized with the token: its own session refuses it and closes, a's goes on.
  EXPECT_EQ(Request(*b, 1, "nsys/listSkills")["error"]["code"], -32000);
  EXPECT_TRUE(b->WaitForEof(30s));
  b = Connect(server.port);
  Initialize(*b, server.token);
  const Json opened = Request(*a, 2, "nsys/openProfile", {{"path", Fixture("mock.sqlite")}});
  ASSERT_EQ(opened["result"]["profileId"], "p1") << opened.dump();
  // The workspace is shared: b sees a's profile.
  EXPECT_EQ(Request(*b, 2, "nsys/profileInfo", {{"profileId", "p1"}})["result"]["profileId"], "p1");
  // a's shutdown and exit end a's connection only.
  EXPECT_TRUE(Request(*a, 3, "shutdown").contains("result"));
  a->Send({{"jsonrpc", "2.0"}, {"method", "exit"}});
  EXPECT_TRUE(a->WaitForEof(30s));
  EXPECT_TRUE(Request(*b, 3, "nsys/listSkills").contains("result"));
  EXPECT_TRUE(Request(*b, 4, "nsys/runSkill", {{"profileId", "p1"}, {"skill", "top_kernels"}}).contains("result"));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0) << server.process->Stderr();
}

TEST(TcpServer, AClientThatSendsGarbageAndVanishesMidRequestDoesNotDisturbTheOthers) {
  NSYS_REQUIRE_FIXTURES();
  const std::string scaled = ScaledProfile::Path();
  ASSERT_FALSE(scaled.empty()) << "could not scale a fixture with ../shared/tools/scale_profile.py";
  auto server = StartTcpServer({"--no-cache", "--log-level", "info"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();

  auto good = Connect(server.port);
  Initialize(*good, server.token);
  const Json mock = Request(*good, "open", "nsys/openProfile", {{"path", Fixture("mock.sqlite")}});
  ASSERT_TRUE(mock.contains("result")) << mock.dump();
  const std::string mock_id = mock["result"]["profileId"];

  // The good client keeps asking all along, on its own thread.
  std::atomic<bool> stop{false};
  std::atomic<int> answered{0}, failed{0};
  std::thread asker([&] {
    for (int i = 0; !stop.load(); ++i) {
      const Json reply = Request(*good, i, i % 2 ? "nsys/listSkills" : "nsys/runSkill",
                                 i % 2 ? Json::object() : Json{{"profileId", mock_id}, {"skill", "top_kernels"}});
      (reply.contains("result") ? answered : failed)++;
    }
  });

  auto bad = Connect(server.port);
  Initialize(*bad, server.token);
  const Json big = Request(*bad, 1, "nsys/openProfile", {{"path", scaled}});
  ASSERT_TRUE(big.contains("result")) << big.dump();
  const std::string big_id = big["result"]["profileId"];
  // Heavy skills that load the event tables; wait until one of them is certainly running.
  int id = 10;
  for (const char* skill : {"nvtx_summary", "nvtx_gpu_projection", "cuda_api_summary", "top_kernels"}) {
    bad->Send({{"jsonrpc", "2.0"},
               {"id", id++},
               {"method", "nsys/runSkill"},
               {"params", {{"profileId", big_id}, {"skill", skill}, {"workDoneToken", skill}}}});
  }
  ASSERT_TRUE(bad->Take([](const Json& m) { return m.value("method", "") == "$/progress"; }, 60s));
  // Garbage, then half a message, then gone.
  bad->SendRaw("\x01\x02 not a header\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":99,");
  bad->Abort();
  EXPECT_TRUE(server.process->WaitForStderr("running request(s)", 60s))
      << "the server did not cancel the vanished client's work; stderr:\n"
      << server.process->Stderr();

  std::this_thread::sleep_for(200ms);
  stop = true;
  asker.join();
  EXPECT_GT(answered.load(), 0);
  EXPECT_EQ(failed.load(), 0);
  // Still serving, old clients and new ones.
  EXPECT_TRUE(Request(*good, "after", "nsys/listSkills").contains("result"));
  auto fresh = Connect(server.port);
  Initialize(*fresh, server.token);
  EXPECT_TRUE(Request(*fresh, 1, "nsys/profileInfo", {{"profileId", mock_id}}).contains("result"));
  EXPECT_TRUE(good->FramingErrors().empty());
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(60s), 0) << server.process->Stderr();
}

TEST(TcpServer, ManyClientsConnectAndLeaveAtOnce) {
  auto server = StartTcpServer({"--no-cache"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  std::vector<std::unique_ptr<FramedConnection>> clients;
  for (int i = 0; i < 16; ++i) clients.push_back(Connect(server.port));
  for (size_t i = 0; i < clients.size(); ++i) {
    if (i % 3 == 0) {
      clients[i]->SendRaw("garbage without end");
    } else {
      clients[i]->Send(
          {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", InitializeParams(server.token)}});
    }
  }
  for (size_t i = 0; i < clients.size(); ++i) {
    if (i % 3 != 0) {
      EXPECT_TRUE(clients[i]->AwaitReply(1).contains("result")) << i;
    }
  }
  clients.clear();  // all vanish
  auto last = Connect(server.port);
  Initialize(*last, server.token);
  EXPECT_TRUE(Request(*last, 2, "nsys/listSkills").contains("result"));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
}

}  // namespace
}  // namespace nsys::testing
