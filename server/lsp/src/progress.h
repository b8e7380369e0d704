#pragma once
// Work-done progress of one request ($/progress begin/report/end), internal to the dispatcher.
//
// With a client workDoneToken, `begin` goes out when the work starts. Without one, when the client supports
// window/workDoneProgress, the server asks for a token (window/workDoneProgress/create) only once the work has run
// longer than ServerOptions::created_progress_delay, and begins when the client agrees. Reports are rate-limited,
// their percentage never goes down, and `end` precedes the request's reply.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "nsys/lsp/context.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"

namespace nsys::lsp {

class WorkDoneProgress : public std::enable_shared_from_this<WorkDoneProgress> {
 public:
  struct Config {
    std::optional<protocol::ProgressToken> client_token;  // params.workDoneToken
    std::string title;                                    // empty: this request reports no progress
    bool may_create = false;                              // the client supports window/workDoneProgress/create
    std::chrono::milliseconds interval{100};
    std::chrono::milliseconds create_delay{250};
  };
  WorkDoneProgress(std::weak_ptr<Client> client, Config config);

  void Begin();
  void Report(double percent, const std::string& message);
  void End();
  // True when `token` is this progress's token (5 and "5" are different tokens).
  bool HasToken(const protocol::ProgressToken& token) const;
  // A thread-safe sink that forwards here for as long as this object lives.
  ProgressSink Sink();

 private:
  enum class State { kDisabled, kIdle, kCreating, kActive, kEnded };
  void OnCreated(const Expected<protocol::Json>& result);
  void SendProgress(protocol::Json value);  // under mu_; value is a typed WorkDoneProgressBegin/Report/End

  std::weak_ptr<Client> client_;
  Config config_;
  mutable std::mutex mu_;
  State state_ = State::kDisabled;
  std::optional<protocol::ProgressToken> token_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_sent_;
  double percent_ = 0;
  std::string message_;
};

}  // namespace nsys::lsp
