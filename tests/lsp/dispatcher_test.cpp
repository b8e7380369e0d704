// The dispatcher with the product bind table and a real Workspace, over an in-memory connection: lifecycle,
// routing errors, cancellation, replies. Tests that need profiles are in dispatcher_profiles_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gate_util.h"
#include "in_memory_client.h"
#include "nsys/core/version.h"
#include "nsys/lsp/method_table.h"
#include "nsys/support/log.h"

namespace nsys::testing {
namespace {

int ErrorCode(const Json& reply) {
  return reply.contains("error") ? reply["error"]["code"].get<int>() : 0;
}

// A reply reaches the client a moment before the dispatcher stops counting its request: poll.
bool RunningSettlesAt(InMemoryClient& client, size_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (client.session().dispatcher().running_requests() != count) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

std::string ErrorMessage(const Json& reply) {
  return reply.contains("error") ? reply["error"]["message"].get<std::string>() : "";
}

TEST(Dispatcher, RequestsBeforeInitializeGetServerNotInitialized) {
  InMemoryClient client;
  const auto id = client.Request("nsys/listSkills");
  const Json reply = client.AwaitReply(id);
  EXPECT_EQ(ErrorCode(reply), -32002) << reply.dump();
  EXPECT_NE(ErrorMessage(reply).find("nsys/listSkills"), std::string::npos) << reply.dump();
  // Even shutdown and unknown methods: nothing but initialize is bound yet.
  EXPECT_EQ(ErrorCode(client.AwaitReply(client.Request("shutdown"))), -32002);
  EXPECT_EQ(ErrorCode(client.AwaitReply(client.Request("no/such"))), -32002);
  // Notifications before initialize are dropped without a reply.
  client.Notify("initialized", Json::object());
  const Json init = client.Initialize();
  EXPECT_TRUE(init.contains("result")) << init.dump();
  for (const auto& m : client.Received()) EXPECT_TRUE(m.contains("id")) << "unexpected message " << m.dump();
}

TEST(Dispatcher, InitializeAdvertisesEveryNsysMethodAndTheSkills) {
  InMemoryClient client;
  const Json reply = client.Initialize();
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& result = reply["result"];
  EXPECT_EQ(result["serverInfo"]["name"], "nsys-ai");
  EXPECT_EQ(result["serverInfo"]["version"], std::string(core::Version()));

  std::vector<std::string> expected;
  for (const auto& name : lsp::BoundMethodNames()) {
    if (name.rfind("nsys/", 0) == 0) expected.push_back(name);
  }
  std::vector<std::string> advertised = result["capabilities"]["experimental"]["nsysMethods"];
  std::sort(advertised.begin(), advertised.end());
  EXPECT_EQ(advertised, expected);
  for (const char* method : {"nsys/openProfile", "nsys/closeProfile", "nsys/profileInfo", "nsys/listSkills",
                             "nsys/runSkill", "nsys/reloadSkills"}) {
    EXPECT_NE(std::find(advertised.begin(), advertised.end(), method), advertised.end()) << method;
  }

  std::vector<std::string> skills = result["capabilities"]["experimental"]["skills"];
  std::vector<std::string> workspace_skills;
  for (const auto& skill : client.workspace().Skills()) workspace_skills.push_back(skill->name());
  EXPECT_EQ(skills, workspace_skills);
  EXPECT_NE(std::find(skills.begin(), skills.end(), "top_kernels"), skills.end());
}

TEST(Dispatcher, SecondInitializeIsRefused) {
  InMemoryClient client;
  client.Initialize();
  const Json reply =
      client.AwaitReply(client.Request("initialize", {{"processId", nullptr}, {"capabilities", Json::object()}}));
  EXPECT_EQ(ErrorCode(reply), -32600) << reply.dump();
}

TEST(Dispatcher, InitializeWithBadParamsNamesTheFieldAndAllowsARetry) {
  InMemoryClient client;
  const Json bad = client.AwaitReply(client.Request(
      "initialize", {{"capabilities", Json::object()}, {"initializationOptions", {{"noCache", "yes"}}}}));
  EXPECT_EQ(ErrorCode(bad), -32602) << bad.dump();
  EXPECT_NE(ErrorMessage(bad).find("noCache"), std::string::npos) << bad.dump();
  EXPECT_TRUE(client.Initialize().contains("result"));
}

TEST(Dispatcher, InitializeRefusesAPerfettoOriginThatIsNotAWebOrigin) {
  InMemoryClient client;
  const Json bad = client.AwaitReply(client.Request(
      "initialize", {{"capabilities", Json::object()},
                     {"initializationOptions", {{"perfettoOrigin", "https://ui.perfetto.dev/#!/viewer"}}}}));
  EXPECT_EQ(ErrorCode(bad), -32602) << bad.dump();
  EXPECT_NE(ErrorMessage(bad).find("params.initializationOptions.perfettoOrigin: 'https://ui.perfetto.dev/#!/viewer' "
                                   "is not a web origin"),
            std::string::npos)
      << bad.dump();
  // The session stays uninitialized; a good origin is accepted on retry.
  EXPECT_TRUE(client.Initialize({{"initializationOptions", {{"perfettoOrigin", "http://127.0.0.1:10000"}}}})
                  .contains("result"));
}

TEST(Dispatcher, UnknownMethodIsNamed) {
  InMemoryClient client;
  client.Initialize();
  const Json reply = client.AwaitReply(client.Request("nsys/noSuchThing", Json::object()));
  EXPECT_EQ(ErrorCode(reply), -32601);
  EXPECT_NE(ErrorMessage(reply).find("nsys/noSuchThing"), std::string::npos) << reply.dump();
}

TEST(Dispatcher, UnknownNotificationsAreIgnored) {
  InMemoryClient client;
  client.Initialize();
  client.Notify("nsys/unknownNotification", Json::object());
  client.Notify("$/setTrace", {{"value", "off"}});
  client.Notify("$/cancelRequest", {{"id", "never-sent"}});
  const auto id = client.Request("nsys/listSkills");
  EXPECT_TRUE(client.AwaitReply(id).contains("result"));
  // Only the two replies (initialize, listSkills): the notifications produced nothing.
  EXPECT_EQ(client.Received().size(), 2u);
}

TEST(Dispatcher, ANotificationMethodSentWithAnIdIsAnInvalidRequest) {
  InMemoryClient client;
  client.Initialize();
  const Json reply = client.AwaitReply(client.Request("initialized", Json::object()));
  EXPECT_EQ(ErrorCode(reply), -32600) << reply.dump();
  EXPECT_NE(ErrorMessage(reply).find("notification"), std::string::npos);
  // `exit` with an id is not an exit.
  EXPECT_EQ(ErrorCode(client.AwaitReply(client.Request("exit"))), -32600);
  EXPECT_FALSE(client.exit_code().has_value());
}

TEST(Dispatcher, BadParamsNameTheField) {
  InMemoryClient client;
  client.Initialize();
  const Json reply = client.AwaitReply(client.Request("nsys/openProfile", {{"path", 5}}));
  EXPECT_EQ(ErrorCode(reply), -32602);
  EXPECT_NE(ErrorMessage(reply).find("params.path"), std::string::npos) << reply.dump();
  const Json missing = client.AwaitReply(client.Request("nsys/profileInfo"));
  EXPECT_EQ(ErrorCode(missing), -32602);
  EXPECT_NE(ErrorMessage(missing).find("profileId"), std::string::npos) << missing.dump();
}

TEST(Dispatcher, UnknownProfileAndSkillAreInvalidParams) {
  InMemoryClient client;
  client.Initialize();
  const Json info = client.AwaitReply(client.Request("nsys/profileInfo", {{"profileId", "p42"}}));
  EXPECT_EQ(ErrorCode(info), -32602);
  EXPECT_NE(ErrorMessage(info).find("p42"), std::string::npos) << info.dump();
  const Json close = client.AwaitReply(client.Request("nsys/closeProfile", {{"profileId", "p1"}}));
  EXPECT_EQ(ErrorCode(close), -32602);
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", "/no/such/file.sqlite"}}));
  EXPECT_EQ(ErrorCode(open), -32602) << open.dump();
  EXPECT_NE(ErrorMessage(open).find("/no/such/file.sqlite"), std::string::npos) << open.dump();
}

TEST(Dispatcher, ListSkillsDescribesArgumentsAndCommonArgs) {
  InMemoryClient client;
  client.Initialize();
  const Json reply = client.AwaitReply(client.Request("nsys/listSkills"));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  const Json& skills = reply["result"]["skills"];
  EXPECT_EQ(skills.size(), client.workspace().Skills().size());
  auto top = std::find_if(skills.begin(), skills.end(), [](const Json& s) { return s["name"] == "top_kernels"; });
  ASSERT_NE(top, skills.end());
  EXPECT_EQ((*top)["reference"], "gpukernsum");
  auto limit =
      std::find_if((*top)["args"].begin(), (*top)["args"].end(), [](const Json& a) { return a["name"] == "limit"; });
  ASSERT_NE(limit, (*top)["args"].end());
  EXPECT_EQ((*limit)["type"], "int");
  std::vector<std::string> common;
  for (const auto& arg : reply["result"]["commonArgs"]) common.push_back(arg["name"]);
  for (const char* name : {"device", "pid", "start", "end", "clock"}) {
    EXPECT_NE(std::find(common.begin(), common.end(), name), common.end()) << name;
  }
}

TEST(Dispatcher, CancelForUnknownAndFinishedIdsIsIgnored) {
  InMemoryClient client;
  client.Initialize();
  client.Notify("$/cancelRequest", {{"id", 999}});
  const auto id = client.Request("nsys/listSkills");
  const Json reply = client.AwaitReply(id);
  EXPECT_TRUE(reply.contains("result"));
  client.Notify("$/cancelRequest", {{"id", id}});  // finished: nothing happens
  client.Notify("$/cancelRequest", {{"id", "abc"}});
  client.Notify("$/cancelRequest", {{"wrong", 1}});  // malformed: logged and ignored
  const auto next = client.Request("nsys/listSkills");
  EXPECT_TRUE(client.AwaitReply(next).contains("result"));
  EXPECT_EQ(client.ReceivedMatching([&](const Json& m) { return IsReplyTo(m, id); }).size(), 1u);
  EXPECT_EQ(client.Received().size(), 3u);
}

TEST(Dispatcher, ARequestCancelledWhileQueuedRepliesRequestCancelledWithoutRunning) {
  InMemoryClient::Options options;
  options.workers = 1;
  InMemoryClient client(options);
  client.Initialize();
  // Park the only worker, so the next request stays queued until the cancel has been read.
  Gate gate;
  client.pool().Post([&gate] { gate.Wait(); });
  const auto id = client.Request("nsys/openProfile", {{"path", "/no/such/file.sqlite"}});
  client.Notify("$/cancelRequest", {{"id", id}});
  gate.Open();
  const Json reply = client.AwaitReply(id);
  EXPECT_EQ(ErrorCode(reply), -32800) << reply.dump();
  // Had it run, the missing file would have answered -32602.
  EXPECT_EQ(client.ReceivedMatching([&](const Json& m) { return IsReplyTo(m, id); }).size(), 1u);
}

TEST(Dispatcher, ASlowRequestBlocksNeitherFastRequestsNorCancellation) {
  // The slow handler lives in a test table: the product table never sees it.
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/slow", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    while (!ctx.cancel().cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return MakeError(ErrorKind::kCancelled, "cancelled");
  });
  InMemoryClient::Options options;
  options.workers = 2;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  const auto slow = client.Request("test/slow");
  const auto fast = client.Request("nsys/listSkills");
  EXPECT_TRUE(client.AwaitReply(fast).contains("result"));
  EXPECT_TRUE(RunningSettlesAt(client, 1));  // the slow one still runs
  client.Notify("$/cancelRequest", {{"id", slow}});
  EXPECT_EQ(ErrorCode(client.AwaitReply(slow)), -32800);
  EXPECT_TRUE(RunningSettlesAt(client, 0));
}

TEST(Dispatcher, AHandlerThatThrowsStillRepliesExactlyOnce) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/throw", [](const Json&, lsp::RequestContext&) -> Expected<Json> {
    throw std::runtime_error("boom from the handler");
  });
  InMemoryClient::Options options;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  const auto id = client.Request("test/throw");
  const Json reply = client.AwaitReply(id);
  EXPECT_EQ(ErrorCode(reply), -32603) << reply.dump();
  EXPECT_NE(ErrorMessage(reply).find("boom from the handler"), std::string::npos);
  // The session goes on, and the id was freed: reusing it works.
  client.RequestWithId(id, "nsys/listSkills");
  EXPECT_TRUE(client.WaitFor([&](const Json& m) { return IsReplyTo(m, id) && m.contains("result"); }).has_value());
  EXPECT_EQ(client.ReceivedMatching([&](const Json& m) { return IsReplyTo(m, id); }).size(), 2u);
}

TEST(Dispatcher, ADuplicateIdOfARunningRequestIsRefused) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/untilCancelled", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    while (!ctx.cancel().cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return MakeError(ErrorKind::kCancelled, "cancelled");
  });
  InMemoryClient::Options options;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  client.RequestWithId("dup", "test/untilCancelled");
  client.RequestWithId("dup", "nsys/listSkills");
  const Json refused = client.AwaitReply("dup");
  EXPECT_EQ(ErrorCode(refused), -32600) << refused.dump();
  client.Notify("$/cancelRequest", {{"id", "dup"}});
  EXPECT_TRUE(client
                  .WaitFor([](const Json& m) {
                    return IsReplyTo(m, "dup") && m.contains("error") && m["error"]["code"] == -32800;
                  })
                  .has_value());
}

TEST(Dispatcher, DisconnectCancelsRunningRequests) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/untilCancelled", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    while (!ctx.cancel().cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return MakeError(ErrorKind::kCancelled, "cancelled");
  });
  InMemoryClient::Options options;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  client.Request("test/untilCancelled");
  client.Request("test/untilCancelled");
  ASSERT_TRUE(RunningSettlesAt(client, 2));
  client.session().OnDisconnect();
  EXPECT_TRUE(RunningSettlesAt(client, 0));
  EXPECT_EQ(client.Received().size(), 1u);  // only the initialize reply: output after disconnect is dropped
}

TEST(Dispatcher, ShutdownThenExitGivesZero) {
  InMemoryClient client;
  client.Initialize();
  const Json reply = client.AwaitReply(client.Request("shutdown"));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_TRUE(reply["result"].is_null());
  const Json after = client.AwaitReply(client.Request("nsys/listSkills"));
  EXPECT_EQ(ErrorCode(after), -32600);
  EXPECT_EQ(ErrorMessage(after), "server is shutting down");
  client.Notify("exit");
  EXPECT_EQ(client.exit_code(), 0);
}

TEST(Dispatcher, ExitWithoutShutdownGivesOne) {
  InMemoryClient client;
  client.Initialize();
  client.Notify("exit");
  EXPECT_EQ(client.exit_code(), 1);
  // After exit nothing is answered.
  client.Request("nsys/listSkills");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(client.Received().size(), 1u);
}

TEST(Dispatcher, ExitBeforeInitializeGivesOne) {
  InMemoryClient client;
  client.Notify("exit");
  EXPECT_EQ(client.exit_code(), 1);
}

TEST(Dispatcher, FramingAndParseErrorsAreAnsweredWithIdNullAndServingGoesOn) {
  InMemoryClient client;
  client.SendBytes("Content-Length: 5\r\n\r\n{oops");
  const auto parse_error = client.WaitFor([](const Json& m) { return m.contains("error") && m["id"].is_null(); });
  ASSERT_TRUE(parse_error);
  EXPECT_EQ((*parse_error)["error"]["code"], -32700);
  client.SendBytes("this is not a header\r\n\r\n");
  client.SendBytes("Content-Length: 99999999999\r\n\r\n");
  const auto oversized =
      client.WaitFor([](const Json& m) { return m.contains("error") && m["error"]["code"] == -32600; });
  ASSERT_TRUE(oversized);
  EXPECT_TRUE((*oversized)["id"].is_null());
  // A fresh decoder state after the skipped body is not needed for the next test: use a new client.
  InMemoryClient other;
  other.SendBytes("garbage\r\n");
  other.SendBytes("[1,2]\r\n");  // junk until the next line that starts a header
  EXPECT_TRUE(other.Initialize().contains("result"));
}

TEST(Dispatcher, ResponsesToUnknownServerRequestsAreIgnored) {
  InMemoryClient client;
  client.Initialize();
  client.Send({{"jsonrpc", "2.0"}, {"id", "nsys-77"}, {"result", nullptr}});
  EXPECT_TRUE(client.AwaitReply(client.Request("nsys/listSkills")).contains("result"));
  EXPECT_EQ(client.Received().size(), 2u);
}

// Position of the first message matching `predicate` in `messages`, or -1.
int IndexOf(const std::vector<Json>& messages, const std::function<bool(const Json&)>& predicate) {
  for (size_t i = 0; i < messages.size(); ++i) {
    if (predicate(messages[i])) return static_cast<int>(i);
  }
  return -1;
}

TEST(Dispatcher, ServerCreatesAProgressTokenWhenTheClientSupportsItAndGaveNone) {
  Gate gate;
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/progress",
                   [&gate](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
                     ctx.progress()(10, "first step");
                     gate.Wait();
                     ctx.progress()(60, "second step");
                     return Json("done");
                   },
                   {"Testing progress"});
  InMemoryClient::Options options;
  options.server.methods = &table;
  options.server.created_progress_delay = std::chrono::milliseconds(0);
  options.server.progress_interval = std::chrono::milliseconds(0);
  InMemoryClient client(options);
  client.Initialize({{"capabilities", {{"window", {{"workDoneProgress", true}}}}}});
  const auto id = client.Request("test/progress", Json::object());
  const auto create =
      client.WaitFor([](const Json& m) { return m.value("method", "") == "window/workDoneProgress/create"; });
  ASSERT_TRUE(create);
  const Json token = (*create)["params"]["token"];
  ASSERT_TRUE(token.is_string());
  client.Send({{"jsonrpc", "2.0"}, {"id", (*create)["id"]}, {"result", nullptr}});
  const auto begin = client.WaitFor([&](const Json& m) { return IsProgress(m, token, "begin"); });
  ASSERT_TRUE(begin);
  EXPECT_EQ((*begin)["params"]["value"]["title"], "Testing progress");
  EXPECT_EQ((*begin)["params"]["value"]["percentage"], 10);
  gate.Open();
  EXPECT_EQ(client.AwaitReply(id)["result"], "done");
  const auto messages = client.Received();
  const int report = IndexOf(messages, [&](const Json& m) { return IsProgress(m, token, "report"); });
  const int end = IndexOf(messages, [&](const Json& m) { return IsProgress(m, token, "end"); });
  const int reply = IndexOf(messages, [&](const Json& m) { return IsReplyTo(m, id); });
  ASSERT_GE(report, 0);
  EXPECT_EQ(messages[report]["params"]["value"]["percentage"], 60);
  EXPECT_EQ(messages[report]["params"]["value"]["message"], "second step");
  EXPECT_LT(report, end);
  EXPECT_LT(end, reply);
}

TEST(Dispatcher, NoServerCreatedProgressWithoutClientSupport) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/progress",
                   [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
                     for (int i = 0; i <= 100; i += 10) ctx.progress()(i, "step");
                     return Json("done");
                   },
                   {"Testing progress"});
  InMemoryClient::Options options;
  options.server.methods = &table;
  options.server.created_progress_delay = std::chrono::milliseconds(0);
  InMemoryClient client(options);
  client.Initialize();
  EXPECT_EQ(client.AwaitReply(client.Request("test/progress"))["result"], "done");
  EXPECT_EQ(client.Received().size(), 2u);
}

TEST(Dispatcher, ProgressReportsAreRateLimited) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/progress",
                   [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
                     for (int i = 0; i < 10000; ++i) ctx.progress()(i / 100.0, "step");
                     return Json("done");
                   },
                   {"Testing progress"});
  InMemoryClient::Options options;
  options.server.methods = &table;
  options.server.progress_interval = std::chrono::milliseconds(100);
  InMemoryClient client(options);
  client.Initialize();
  const auto start = std::chrono::steady_clock::now();
  const auto id = client.Request("test/progress", {{"workDoneToken", 7}});
  EXPECT_EQ(client.AwaitReply(id)["result"], "done");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto reports = client.ReceivedMatching([](const Json& m) { return IsProgress(m, 7, "report"); });
  EXPECT_LE(static_cast<double>(reports.size()), seconds * 10 + 1) << "10000 reports in " << seconds << " s";
  EXPECT_EQ(client.ReceivedMatching([](const Json& m) { return IsProgress(m, 7, "begin"); }).size(), 1u);
  EXPECT_EQ(client.ReceivedMatching([](const Json& m) { return IsProgress(m, 7, "end"); }).size(), 1u);
}

TEST(Dispatcher, WorkDoneProgressCancelCancelsTheRequest) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/untilCancelled",
                   [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
                     while (!ctx.cancel().cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                     return MakeError(ErrorKind::kCancelled, "cancelled");
                   },
                   {"Waiting"});
  InMemoryClient::Options options;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  const auto id = client.Request("test/untilCancelled", {{"workDoneToken", "w1"}});
  ASSERT_TRUE(client.WaitFor([](const Json& m) { return IsProgress(m, "w1", "begin"); }));
  EXPECT_TRUE(
      (*client.WaitFor([](const Json& m) { return IsProgress(m, "w1", "begin"); }))["params"]["value"]["cancellable"]);
  client.Notify("window/workDoneProgress/cancel", {{"token", "w1"}});
  EXPECT_EQ(ErrorCode(client.AwaitReply(id)), -32800);
}

TEST(Dispatcher, ShowDocumentIsSentToClientsThatSupportIt) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/show", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    std::promise<Expected<bool>> promise;
    auto future = promise.get_future();
    protocol::ShowDocumentParams params;
    params.uri = "http://127.0.0.1:1234/p/token/";
    params.external = true;
    ctx.client().ShowDocument(params, [&promise](Expected<bool> result) { promise.set_value(std::move(result)); });
    auto result = future.get();
    if (!result) return result.error();
    return Json(*result);
  });
  InMemoryClient::Options options;
  options.server.methods = &table;
  {
    InMemoryClient client(options);
    client.Initialize({{"capabilities", {{"window", {{"showDocument", {{"support", true}}}}}}}});
    const auto id = client.Request("test/show");
    const auto show = client.WaitFor([](const Json& m) { return m.value("method", "") == "window/showDocument"; });
    ASSERT_TRUE(show);
    EXPECT_EQ((*show)["params"]["uri"], "http://127.0.0.1:1234/p/token/");
    EXPECT_EQ((*show)["params"]["external"], true);
    client.Send({{"jsonrpc", "2.0"}, {"id", (*show)["id"]}, {"result", {{"success", true}}}});
    EXPECT_EQ(client.AwaitReply(id)["result"], true);
  }
  {
    InMemoryClient client(options);
    client.Initialize();
    const Json reply = client.AwaitReply(client.Request("test/show"));
    EXPECT_EQ(ErrorCode(reply), -32803) << reply.dump();
    EXPECT_NE(ErrorMessage(reply).find("showDocument"), std::string::npos);
  }
}

TEST(Dispatcher, LogMessageReachesTheClient) {
  lsp::MethodTable table;
  lsp::BindMethods(table);
  table.AddRequest("test/log", [](const Json&, lsp::RequestContext& ctx) -> Expected<Json> {
    ctx.client().LogMessage(protocol::MessageType::kWarning, "something to know");
    return Json(nullptr);
  });
  InMemoryClient::Options options;
  options.server.methods = &table;
  InMemoryClient client(options);
  client.Initialize();
  client.AwaitReply(client.Request("test/log"));
  const auto log = client.WaitFor([](const Json& m) { return m.value("method", "") == "window/logMessage"; });
  ASSERT_TRUE(log);
  EXPECT_EQ((*log)["params"]["type"], 2);
  EXPECT_EQ((*log)["params"]["message"], "something to know");
}

TEST(Dispatcher, InitializationOptionsAddSkillFoldersAndReportBadFiles) {
  const auto dir = std::filesystem::temp_directory_path() / ("nsys_ai_lsp_skills_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "slowest_kernels.skill.json") << R"({"name": "slowest_kernels", "description": "Longest kernels.",
      "sql": "SELECT end - start AS duration_ns FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY 1 DESC LIMIT 5"})";
  std::ofstream(dir / "broken.skill.json") << "{ this is not json";
  InMemoryClient client;
  const Json reply = client.Initialize({{"initializationOptions", {{"skillDirs", {dir.string()}}, {"noCache", true}}}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  std::vector<std::string> skills = reply["result"]["capabilities"]["experimental"]["skills"];
  EXPECT_NE(std::find(skills.begin(), skills.end(), "slowest_kernels"), skills.end());
  const auto log = client.WaitFor([](const Json& m) {
    return m.value("method", "") == "window/logMessage" &&
           m["params"]["message"].get<std::string>().find("broken.skill.json") != std::string::npos;
  });
  ASSERT_TRUE(log);
  EXPECT_EQ((*log)["params"]["type"], 2);  // a warning
  const Json reload = client.AwaitReply(client.Request("nsys/reloadSkills"));
  EXPECT_EQ(reload["result"]["skillCount"], client.workspace().Skills().size());
  EXPECT_EQ(reload["result"]["warnings"].size(), 1u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace nsys::testing
