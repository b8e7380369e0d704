#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "in_memory_client.h"

namespace nsys::testing {

InMemoryClient::InMemoryClient(Options options)
    : workspace_(std::make_unique<core::Workspace>(options.workspace)),
      pool_(std::make_unique<support::ThreadPool>(options.workers)) {
  session_ = std::make_unique<lsp::Session>(
      *workspace_, *pool_, [this](std::string bytes) { OnOutgoing(bytes); }, options.server);
}

InMemoryClient::~InMemoryClient() {
  session_->OnDisconnect();
  pool_.reset();  // drains the tasks, which may still send (dropped: the session is disconnected)
  session_.reset();
}

void InMemoryClient::SendBytes(const std::string& bytes) {
  session_->OnBytes(bytes);
}

void InMemoryClient::Send(const Json& message) {
  SendBytes(protocol::EncodeFrame(message.dump()));
}

int64_t InMemoryClient::Request(const std::string& method, Json params) {
  int64_t id;
  {
    std::lock_guard lock(mu_);
    id = next_id_++;
  }
  RequestWithId(id, method, std::move(params));
  return id;
}

void InMemoryClient::RequestWithId(const Json& id, const std::string& method, Json params) {
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  Send(message);
}

void InMemoryClient::Notify(const std::string& method, Json params) {
  Json message = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  Send(message);
}

Json InMemoryClient::Initialize(Json params) {
  if (!params.contains("processId")) params["processId"] = nullptr;
  if (!params.contains("capabilities")) params["capabilities"] = Json::object();
  const int64_t id = Request("initialize", std::move(params));
  Json reply = AwaitReply(id);
  Notify("initialized", Json::object());
  return reply;
}

void InMemoryClient::OnOutgoing(const std::string& bytes) {
  std::vector<Json> messages;
  std::function<void(const Json&)> hook;
  {
    std::lock_guard lock(mu_);
    for (auto& frame : decoder_.Feed(bytes)) {
      EXPECT_EQ(frame.kind, protocol::Frame::Kind::kBody) << "the server sent a bad frame: " << frame.error;
      if (frame.kind == protocol::Frame::Kind::kBody) messages.push_back(Json::parse(frame.body));
    }
    hook = hook_;
  }
  for (const auto& message : messages) {
    if (hook) hook(message);
    std::lock_guard lock(mu_);
    received_.push_back(message);
  }
  cv_.notify_all();
}

std::optional<Json> InMemoryClient::WaitFor(const std::function<bool(const Json&)>& predicate,
                                            std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  std::optional<Json> found;
  const bool ok = cv_.wait_for(lock, timeout, [&] {
    for (const auto& message : received_) {
      if (predicate(message)) {
        found = message;
        return true;
      }
    }
    return false;
  });
  if (!ok) {
    std::string all;
    for (const auto& message : received_) all += message.dump() + "\n";
    ADD_FAILURE() << "timed out waiting for a message; received so far:\n" << all;
  }
  return found;
}

Json InMemoryClient::AwaitReply(const Json& id, std::chrono::milliseconds timeout) {
  auto reply =
      WaitFor([&](const Json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); }, timeout);
  return reply.value_or(Json());
}

std::vector<Json> InMemoryClient::Received() {
  std::lock_guard lock(mu_);
  return received_;
}

std::vector<Json> InMemoryClient::ReceivedMatching(const std::function<bool(const Json&)>& predicate) {
  std::vector<Json> matching;
  for (auto& message : Received()) {
    if (predicate(message)) matching.push_back(std::move(message));
  }
  return matching;
}

void InMemoryClient::SetOutgoingHook(std::function<void(const Json&)> hook) {
  std::lock_guard lock(mu_);
  hook_ = std::move(hook);
}

void InMemoryClient::Inject(const Json& message) {
  auto parsed = protocol::ParseMessage(message.dump());
  ASSERT_TRUE(parsed.message.has_value()) << message.dump();
  session_->dispatcher().OnMessage(std::move(*parsed.message));
}

}  // namespace nsys::testing
