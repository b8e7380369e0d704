#include "progress.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>

#include "nsys/support/log.h"

namespace nsys::lsp {
namespace {

std::atomic<int64_t> g_next_token{1};

protocol::WorkDoneProgressBegin BeginValue(const std::string& title, double percent, const std::string& message) {
  protocol::WorkDoneProgressBegin begin;
  begin.title = title;
  begin.cancellable = true;
  begin.percentage = static_cast<int32_t>(percent);
  if (!message.empty()) begin.message = message;
  return begin;
}

}  // namespace

WorkDoneProgress::WorkDoneProgress(std::weak_ptr<Client> client, Config config)
    : client_(std::move(client)), config_(std::move(config)) {}

void WorkDoneProgress::Begin() {
  std::lock_guard lock(mu_);
  if (state_ != State::kDisabled || config_.title.empty()) return;
  started_ = std::chrono::steady_clock::now();
  if (config_.client_token) {
    token_ = config_.client_token;
    state_ = State::kActive;
    SendProgress(protocol::Json(BeginValue(config_.title, 0, "")));
    last_sent_ = started_;
  } else if (config_.may_create) {
    state_ = State::kIdle;
  }
}

void WorkDoneProgress::Report(double percent, const std::string& message) {
  if (!std::isfinite(percent)) return;
  const auto now = std::chrono::steady_clock::now();
  std::unique_lock lock(mu_);
  if (state_ == State::kDisabled || state_ == State::kEnded) return;
  percent_ = std::max(percent_, std::clamp(percent, 0.0, 100.0));
  message_ = message;
  if (state_ == State::kIdle) {
    if (now - started_ < config_.create_delay) return;
    state_ = State::kCreating;
    token_ = "nsys-progress-" + std::to_string(g_next_token++);
    const protocol::Json params(protocol::WorkDoneProgressCreateParams{*token_});
    lock.unlock();  // the reply callback takes mu_, and may run at once when the session has ended
    if (auto client = client_.lock()) {
      std::weak_ptr<WorkDoneProgress> weak = weak_from_this();
      client->Call("window/workDoneProgress/create", params, [weak](Expected<protocol::Json> result) {
        if (auto self = weak.lock()) self->OnCreated(result);
      });
    }
    return;
  }
  if (state_ != State::kActive || now - last_sent_ < config_.interval) return;
  last_sent_ = now;
  protocol::WorkDoneProgressReport report;
  report.percentage = static_cast<int32_t>(percent_);
  if (!message_.empty()) report.message = message_;
  SendProgress(protocol::Json(report));
}

void WorkDoneProgress::OnCreated(const Expected<protocol::Json>& result) {
  std::lock_guard lock(mu_);
  if (state_ != State::kCreating) return;  // the work finished first: nothing to show
  if (!result) {
    support::LogDebug("the client refused a progress token: " + result.error().message);
    state_ = State::kEnded;
    return;
  }
  state_ = State::kActive;
  last_sent_ = std::chrono::steady_clock::now();
  SendProgress(protocol::Json(BeginValue(config_.title, percent_, message_)));
}

void WorkDoneProgress::End() {
  std::lock_guard lock(mu_);
  const bool active = state_ == State::kActive;
  state_ = State::kEnded;
  if (active) SendProgress(protocol::Json(protocol::WorkDoneProgressEnd{}));
}

bool WorkDoneProgress::HasToken(const protocol::ProgressToken& token) const {
  std::lock_guard lock(mu_);
  return token_ && *token_ == token;
}

ProgressSink WorkDoneProgress::Sink() {
  std::weak_ptr<WorkDoneProgress> weak = weak_from_this();
  return [weak](double percent, const std::string& message) {
    if (auto self = weak.lock()) self->Report(percent, message);
  };
}

void WorkDoneProgress::SendProgress(protocol::Json value) {
  if (auto client = client_.lock())
    client->Notify("$/progress", protocol::Json(protocol::ProgressParams{*token_, std::move(value)}));
}

}  // namespace nsys::lsp
