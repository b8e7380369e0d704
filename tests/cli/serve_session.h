#pragma once
// `nsys-ai serve --stdio` driven request by request: each Call waits for its own reply (notifications such as
// $/progress and window/logMessage are skipped), so a test can open a profile before it exports from it.
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nsys::testing {

class ServeSession {
 public:
  // Starts NSYS_AI_BINARY with `args` (e.g. {"serve", "--stdio"}); `env` entries ("NAME=value") are added to the
  // inherited environment. Sends `initialize` with `initialization_options` and checks the reply.
  ServeSession(const std::vector<std::string>& args, const std::vector<std::string>& env,
               const nlohmann::json& initialization_options = nlohmann::json::object());
  ~ServeSession();  // shutdown + exit, then waits (kills after a few seconds)
  ServeSession(const ServeSession&) = delete;
  ServeSession& operator=(const ServeSession&) = delete;

  bool ok() const { return pid_ > 0 && initialized_; }
  // The whole response ({"result": ...} or {"error": ...}); {"error": {"message": "timeout"}} after `timeout`.
  nlohmann::json Call(const std::string& method, const nlohmann::json& params,
                      std::chrono::milliseconds timeout = std::chrono::seconds(60));

 private:
  bool Send(const nlohmann::json& message);
  bool ReadMessage(nlohmann::json& out, std::chrono::steady_clock::time_point deadline);

  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  int next_id_ = 1;
  bool initialized_ = false;
  std::string buffer_;
};

}  // namespace nsys::testing
