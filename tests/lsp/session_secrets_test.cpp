// Secrets and commands at the session: a client's logLevel is its own (window/logMessage), never the process's log; a
// client may name programs to run (runLauncher, nsysPath) only where ServerOptions::allow_client_commands says so; a
// client-chosen LLM endpoint never gets the server's key.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "in_memory_client.h"
#include "llm/standin.h"
#include "nsys/support/log.h"

namespace nsys::testing {
namespace {

TEST(SessionSecrets, ALogLevelChangesOnlyTheSessionsOwnMessages) {
  const support::LogLevel saved = support::GetLogLevel();
  support::SetLogLevel(support::LogLevel::kWarn);
  InMemoryClient client;
  const Json reply = client.AwaitReply(client.Request(
      "initialize", {{"capabilities", Json::object()}, {"initializationOptions", {{"logLevel", "debug"}}}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(support::GetLogLevel(), support::LogLevel::kWarn) << "a client switched the process's log level";
  // A session at "error" gets no warnings as window/logMessage.
  InMemoryClient quiet;
  quiet.Initialize({{"capabilities", Json::object()}, {"initializationOptions", {{"logLevel", "error"}}}});
  quiet.session().dispatcher().client().LogMessage(protocol::MessageType::kWarning, "a warning");
  quiet.session().dispatcher().client().LogMessage(protocol::MessageType::kError, "an error");
  const auto logged =
      quiet.ReceivedMatching([](const Json& m) { return m.value("method", "") == "window/logMessage"; });
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0]["params"]["message"], "an error");
  support::SetLogLevel(saved);
}

TEST(SessionSecrets, ClientCommandsOnlyWhereTheServerAllowsThem) {
  InMemoryClient::Options options;
  options.server.allow_client_commands = false;  // serve --listen / --socket without --allow-client-commands
  for (const auto& [name, value] : std::vector<std::pair<std::string, Json>>{{"runLauncher", Json{"sh", "-c", "true"}},
                                                                             {"nsysPath", "/bin/true"}}) {
    InMemoryClient client(options);
    const Json reply = client.AwaitReply(
        client.Request("initialize", {{"capabilities", Json::object()}, {"initializationOptions", {{name, value}}}}));
    ASSERT_TRUE(reply.contains("error")) << reply.dump();
    EXPECT_EQ(reply["error"]["code"], -32602);
    const std::string message = reply["error"]["message"];
    EXPECT_EQ(message.rfind("params.initializationOptions." + name + ":", 0), 0u) << message;
    EXPECT_NE(message.find("--allow-client-commands"), std::string::npos) << message;
  }
  InMemoryClient stdio;  // the default: the parent process started the server
  const Json accepted = stdio.AwaitReply(stdio.Request(
      "initialize", {{"capabilities", Json::object()},
                     {"initializationOptions", {{"runLauncher", {"sh", "-c", "true"}}, {"nsysPath", "/bin/true"}}}}));
  EXPECT_TRUE(accepted.contains("result")) << accepted.dump();
}

TEST(SessionSecrets, TheServersKeyGoesOnlyToItsOwnEndpoint) {
  NSYS_REQUIRE_FIXTURES();
  Standin own({{"responses", {{{"text", {"own"}}}}}});
  Standin attacker({{"responses", {{{"text", {"attacker"}}}}}});
  ::setenv("NSYS_AI_LLM_API_KEY", "sk-server-777", 1);
  InMemoryClient::Options options;
  options.workspace.llm = own.Config(llm::Provider::kOpenAI, "sk-server-777");
  for (const char* var : {"NSYS_AI_LLM_API_KEY", "HOME", "NSYS_AI_SURELY_UNSET_VAR"}) {
    InMemoryClient client(options);
    const Json reply = client.AwaitReply(
        client.Request("initialize", {{"capabilities", Json::object()},
                                      {"initializationOptions",
                                       {{"llm",
                                         {{"provider", "openai"},
                                          {"model", "m"},
                                          {"baseUrl", attacker.Config(llm::Provider::kOpenAI).base_url},
                                          {"apiKeyEnv", var}}}}}}));
    ASSERT_TRUE(reply.contains("error")) << var << ": " << reply.dump();
    EXPECT_EQ(reply["error"]["message"].get<std::string>().rfind("params.initializationOptions.llm.apiKeyEnv: ", 0),
              0u);
  }
  InMemoryClient client(options);
  client.Initialize(
      {{"capabilities", Json::object()}, {"initializationOptions", {{"llm", {{"endpoint", "default"}}}}}});
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
  ASSERT_TRUE(open.contains("result")) << open.dump();
  const Json ask = client.AwaitReply(client.Request(
      "nsys/ask", {{"profileId", open["result"]["profileId"]}, {"question", "Which kernel is the slowest one here?"}}));
  ::unsetenv("NSYS_AI_LLM_API_KEY");
  ASSERT_TRUE(ask.contains("result")) << ask.dump();
  EXPECT_EQ(ask["result"]["answer"]["summary"], "own");
  ASSERT_EQ(own.Requests().size(), 1u);
  EXPECT_EQ(own.Requests()[0]["headers"]["authorization"], "Bearer sk-server-777");
  EXPECT_TRUE(attacker.Requests().empty());
}

}  // namespace
}  // namespace nsys::testing
