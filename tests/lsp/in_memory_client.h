#pragma once
// An in-memory client for the real dispatcher: it frames messages into a real lsp::Session (real Workspace, real
// worker pool) and collects what the server sends, so tests can wait for replies and notifications.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/lsp/session.h"
#include "nsys/protocol/framing.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/executor.h"

namespace nsys::testing {

using protocol::Json;

class InMemoryClient {
 public:
  // Hermetic by default: no user skill folders from $HOME, no cache writes.
  static core::WorkspaceConfig HermeticConfig() {
    core::WorkspaceConfig config;
    config.default_skill_dirs = false;
    config.open.use_cache = false;
    return config;
  }
  struct Options {
    int workers = 3;
    lsp::ServerOptions server;
    core::WorkspaceConfig workspace = HermeticConfig();
  };
  InMemoryClient() : InMemoryClient(Options{}) {}
  explicit InMemoryClient(Options options);
  ~InMemoryClient();

  core::Workspace& workspace() { return *workspace_; }
  support::ThreadPool& pool() { return *pool_; }
  lsp::Session& session() { return *session_; }

  // Sends raw bytes / a framed JSON message (on the test thread, which plays the reader thread).
  void SendBytes(const std::string& bytes);
  void Send(const Json& message);
  // Sends a request with a fresh integer id (or the given one) and returns the id.
  int64_t Request(const std::string& method, Json params = nullptr);
  void RequestWithId(const Json& id, const std::string& method, Json params = nullptr);
  void Notify(const std::string& method, Json params = nullptr);
  // initialize + initialized; returns the initialize result.
  Json Initialize(Json params = Json::object());

  // Waits until a sent message matches `predicate` (checking those already received first) and returns it; fails
  // the test (returns nullopt) after `timeout`.
  std::optional<Json> WaitFor(const std::function<bool(const Json&)>& predicate,
                              std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // The response to request `id`.
  Json AwaitReply(const Json& id, std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // Every message received so far.
  std::vector<Json> Received();
  // Messages received that match.
  std::vector<Json> ReceivedMatching(const std::function<bool(const Json&)>& predicate);
  // Runs on the worker thread that sends a message, before the message is recorded: lets a test react at an
  // exact point (e.g. cancel a request the moment its progress begins). The hook may call Inject().
  void SetOutgoingHook(std::function<void(const Json&)> hook);
  // Delivers a message to the dispatcher directly (safe from the outgoing hook; bypasses the framing decoder).
  void Inject(const Json& message);

  std::optional<int> exit_code() const { return session_->dispatcher().exit_code(); }

 private:
  void OnOutgoing(const std::string& bytes);

  std::unique_ptr<core::Workspace> workspace_;
  std::unique_ptr<support::ThreadPool> pool_;
  std::unique_ptr<lsp::Session> session_;
  std::mutex mu_;
  std::condition_variable cv_;
  protocol::FrameDecoder decoder_;  // of the server's output, under mu_
  std::vector<Json> received_;
  std::function<void(const Json&)> hook_;
  int64_t next_id_ = 1;
};

// The response (not a server request) to request `id`.
inline bool IsReplyTo(const Json& m, const Json& id) {
  return m.contains("id") && m["id"] == id && !m.contains("method");
}

// A $/progress notification of `kind` ("begin", "report", "end") for `token`.
inline bool IsProgress(const Json& m, const Json& token, const std::string& kind) {
  return m.value("method", "") == "$/progress" && m["params"]["token"] == token &&
         m["params"]["value"].value("kind", "") == kind;
}

// The default options, checked to write no cache (tests never write one).
inline InMemoryClient::Options NoCache() {
  InMemoryClient::Options options;
  EXPECT_FALSE(options.workspace.open.use_cache);
  return options;
}

}  // namespace nsys::testing
