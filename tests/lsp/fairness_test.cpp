// Fair queueing and the cheap lane: one client's backlog or slow requests never hold up another client's cheap request.
// Also the session's token gate at the unit level; the real binary is tested in tests/transport/hardening_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gate_util.h"
#include "in_memory_client.h"
#include "nsys/lsp/method_table.h"
#include "nsys/lsp/session.h"
#include "nsys/support/executor.h"

namespace nsys::testing {
namespace {

using namespace std::chrono_literals;

TEST(ThreadPool, QueuesTakeTurnsSoABacklogDelaysAnotherQueueByOneTask) {
  Gate gate;  // declared before the pool: what the tasks touch outlives it
  std::mutex mu;
  std::vector<int> order;
  support::ThreadPool pool(1);
  pool.Post([&gate] { gate.Wait(); });  // parks the only worker until everything is queued
  const uint64_t flood = support::NewTaskQueue();
  const uint64_t other = support::NewTaskQueue();
  for (int i = 0; i < 1000; ++i) {
    pool.Post(
        [&mu, &order, i] {
          std::lock_guard lock(mu);
          order.push_back(i);
        },
        {flood, false});
  }
  pool.Post(
      [&mu, &order] {
        std::lock_guard lock(mu);
        order.push_back(-1);
      },
      {other, false});
  gate.Open();
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    std::lock_guard lock(mu);
    if (order.size() == 1001) break;
  }
  std::lock_guard lock(mu);
  ASSERT_EQ(order.size(), 1001u);
  // The other queue's task ran second, right after the flood's first one, not after its 1000.
  EXPECT_EQ(order[0], 0);
  EXPECT_EQ(order[1], -1);
  // Within a queue, tasks keep their order.
  for (size_t i = 2; i < order.size(); ++i) EXPECT_EQ(order[i], static_cast<int>(i) - 1);
}

TEST(ThreadPool, CheapTasksRunWhileEveryWorkerIsBusy) {
  // Everything the tasks touch is declared before the pool, so it outlives the pool's destructor, which runs the
  // ordinary task still queued (clang's ASan reports the store otherwise: stack-use-after-scope).
  Gate gate;
  std::atomic<int> parked{0};
  std::atomic<bool> ordinary_ran{false}, cheap_ran{false};
  support::ThreadPool pool(2);
  for (int i = 0; i < 2; ++i) {
    pool.Post([&] {
      ++parked;
      gate.Wait();
    });
  }
  while (parked.load() < 2) std::this_thread::sleep_for(1ms);
  pool.Post([&] { ordinary_ran = true; }, {support::NewTaskQueue(), false});
  pool.Post([&] { cheap_ran = true; }, {support::NewTaskQueue(), true});
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!cheap_ran.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(cheap_ran.load());
  EXPECT_FALSE(ordinary_ran.load());  // it waits for a worker, as it should
  gate.Open();
}

TEST(BindTable, CheapMethodsAreExactlyTheOnesThatNeverWaitForProfiles) {
  std::set<std::string> cheap;
  for (const auto& name : lsp::ProductMethods().Names()) {
    const auto* entry = lsp::ProductMethods().Find(name);
    if (entry->is_request() && entry->options.cheap) cheap.insert(name);
  }
  EXPECT_EQ(cheap, (std::set<std::string>{"initialize", "shutdown", "nsys/listSkills", "nsys/profileInfo"}));
}

TEST(Dispatcher, TwoSlowRequestsOnTwoWorkersDoNotDelayListSkills) {
  lsp::MethodTable table;
  lsp::BindMethods(table);  // listSkills keeps its cheap mark
  table.AddRequest("test/slow", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    while (!ctx.cancel().cancelled()) std::this_thread::sleep_for(1ms);
    return MakeError(ErrorKind::kCancelled, "cancelled");
  });
  InMemoryClient::Options options;
  options.workers = 2;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  const auto slow1 = client.Request("test/slow");
  const auto slow2 = client.Request("test/slow");
  std::this_thread::sleep_for(50ms);  // both workers are now inside test/slow
  const auto start = std::chrono::steady_clock::now();
  const auto fast = client.Request("nsys/listSkills");
  EXPECT_TRUE(client.AwaitReply(fast, 5s).contains("result"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  client.Notify("$/cancelRequest", {{"id", slow1}});
  client.Notify("$/cancelRequest", {{"id", slow2}});
  EXPECT_EQ(client.AwaitReply(slow1)["error"]["code"], -32800);
  EXPECT_EQ(client.AwaitReply(slow2)["error"]["code"], -32800);
}

TEST(Dispatcher, CountsTheBytesOfRequestsInFlight) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/untilCancelled", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    while (!ctx.cancel().cancelled()) std::this_thread::sleep_for(1ms);
    return MakeError(ErrorKind::kCancelled, "cancelled");
  });
  InMemoryClient::Options options;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  std::atomic<int> done{0};
  client.session().dispatcher().SetRequestDoneHandler([&done] { ++done; });
  const Json message = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "test/untilCancelled"}, {"params", {{"pad", "x"}}}};
  client.Send(message);
  EXPECT_EQ(client.session().dispatcher().running_request_bytes(), message.dump().size());
  client.Notify("$/cancelRequest", {{"id", 7}});
  client.AwaitReply(7);
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (done.load() == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(done.load(), 1);
  EXPECT_EQ(client.session().dispatcher().running_request_bytes(), 0u);
}

// ---- the token gate ----

constexpr const char* kToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

InMemoryClient::Options WithToken() {
  InMemoryClient::Options options;
  options.server.auth_token = kToken;
  return options;
}

Json InitializeWith(const Json& options) {
  return {{"processId", nullptr}, {"capabilities", Json::object()}, {"initializationOptions", options}};
}

TEST(SessionToken, TheRightTokenInInitializeOpensTheSession) {
  InMemoryClient client(WithToken());
  std::atomic<int> refused{0};
  client.session().SetRefusedHandler([&](const std::string&) { ++refused; });
  EXPECT_FALSE(client.session().authenticated());
  const Json reply = client.Initialize(InitializeWith({{"token", kToken}}));
  EXPECT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_TRUE(client.session().authenticated());
  EXPECT_TRUE(client.AwaitReply(client.Request("nsys/listSkills")).contains("result"));
  EXPECT_EQ(refused.load(), 0);
}

struct RefusalCase {
  const char* name;
  std::string bytes;
  Json expected_id;
};

TEST(SessionToken, AnythingButInitializeWithTheTokenIsRefusedOnceAndNothingElseIsRead) {
  auto frame = [](const Json& m) { return protocol::EncodeFrame(m.dump()); };
  const std::vector<RefusalCase> cases = {
      {"another method", frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "nsys/listSkills"}}), 1},
      {"no token",
       frame({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "initialize"}, {"params", InitializeWith(Json::object())}}), 2},
      {"wrong token",
       frame({{"jsonrpc", "2.0"},
              {"id", "w"},
              {"method", "initialize"},
              {"params", InitializeWith({{"token", std::string(kToken).substr(0, 63) + "0"}})}}),
       "w"},
      {"token not a string",
       frame({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "initialize"}, {"params", InitializeWith({{"token", 5}})}}), 3},
      {"a notification", frame({{"jsonrpc", "2.0"}, {"method", "initialized"}}), nullptr},
      {"a framing error", "hello\r\n\r\n", nullptr},
      {"not JSON", protocol::EncodeFrame("{nope"), nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    InMemoryClient client(WithToken());
    std::string why;
    client.session().SetRefusedHandler([&](const std::string& w) { why = w; });
    // Whatever follows in the same bytes (here a valid initialize) is never read.
    client.SendBytes(c.bytes + frame({{"jsonrpc", "2.0"},
                                      {"id", 99},
                                      {"method", "initialize"},
                                      {"params", InitializeWith({{"token", kToken}})}}));
    auto reply = client.WaitFor([](const Json& m) { return m.contains("error"); }, 5s);
    ASSERT_TRUE(reply.has_value());
    EXPECT_EQ((*reply)["error"]["code"], -32000);
    EXPECT_EQ((*reply)["id"], c.expected_id);
    EXPECT_NE((*reply)["error"]["message"].get<std::string>().find("unauthorized"), std::string::npos);
    EXPECT_FALSE(why.empty());
    EXPECT_TRUE(client.session().refused());
    EXPECT_FALSE(client.session().authenticated());
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(client.Received().size(), 1u);  // one reply, and the initialize after it was not served
  }
}

TEST(SessionToken, WithoutATokenNoneIsAsked) {
  InMemoryClient client;
  EXPECT_TRUE(client.session().authenticated());
  EXPECT_TRUE(client.AwaitReply(client.Request("nsys/listSkills"))["error"]["code"] == -32002);
}

TEST(SessionToken, ConstantTimeEqualsComparesWholeStrings) {
  EXPECT_TRUE(lsp::ConstantTimeEquals(kToken, kToken));
  EXPECT_FALSE(lsp::ConstantTimeEquals(kToken, std::string(kToken) + "0"));
  EXPECT_FALSE(lsp::ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(lsp::ConstantTimeEquals("", "a"));
  EXPECT_TRUE(lsp::ConstantTimeEquals("", ""));
}

}  // namespace
}  // namespace nsys::testing
