#include "open_profile.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

#include "nsys/support/path_text.h"

namespace nsys::cli {
namespace {

std::atomic<bool> g_drawn{false};

}  // namespace

ProgressSink TerminalProgress(std::string label) {
  if (!::isatty(2)) return {};
  struct State {
    std::mutex mu;
    std::chrono::steady_clock::time_point last{};
  };
  auto state = std::make_shared<State>();
  return [state, label = std::move(label)](double percent, const std::string& message) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(state->mu);
    if (now - state->last < std::chrono::milliseconds(200)) return;
    state->last = now;
    const std::string line = fmt::format("\r\x1b[K{} {:3.0f}% {}", label, percent, message);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    g_drawn = true;
  };
}

void ClearTerminalProgress() {
  if (g_drawn.exchange(false)) {
    std::fputs("\r\x1b[K", stderr);
    std::fflush(stderr);
  }
}

Expected<core::OpenedProfile> OpenWithProgress(core::Workspace& workspace, const std::string& path) {
  // A path or its file:// URI (the JSON form of a path that is not UTF-8, support/path_text.h).
  auto opened = workspace.Open(support::PathFromText(path), CancelToken{}, TerminalProgress("opening " + path));
  ClearTerminalProgress();
  return opened;
}

}  // namespace nsys::cli
