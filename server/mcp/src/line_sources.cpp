#include "line_sources.h"

#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ios>
#include <istream>
#include <streambuf>
#include <utility>

#include "nsys/support/log.h"

namespace nsys::mcp {

LineSource::Status StreamLineSource::Next(std::string& line) {
  // Keeps at most kMaxLineBytes of a line; the rest is read and dropped, so an endless line costs no memory.
  line.clear();
  bool too_long = false;
  bool any = false;
  std::streambuf* buffer = in_.rdbuf();
  while (true) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in_.setstate(std::ios::eofbit);
      if (!any) return Status::kEof;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() < kMaxLineBytes) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;
    }
  }
  return too_long ? Status::kTooLong : Status::kLine;
}

ShutdownSignals::ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigset_t old;
  if (pthread_sigmask(SIG_BLOCK, &set, &old) != 0) return;
  fd_ = signalfd(-1, &set, SFD_CLOEXEC);
  if (fd_ < 0) {
    // Without the descriptor nobody would read them: give the signals their default action back.
    support::LogWarn(
        fmt::format("mcp: signalfd failed ({}); SIGTERM will end the process abruptly", std::strerror(errno)));
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
}

ShutdownSignals::~ShutdownSignals() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

// Reads one pending signal from a signalfd and logs it.
void ConsumeSignal(int fd) {
  signalfd_siginfo info{};
  const ssize_t n = ::read(fd, &info, sizeof info);
  const char* name = n == static_cast<ssize_t>(sizeof info) && info.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
  support::LogInfo(fmt::format("mcp: {} received; cancelling the requests in progress and exiting", name));
}

}  // namespace

bool FdLineSource::Fill() {
  pollfd fds[2] = {{fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  const nfds_t count = stop_fd_ >= 0 ? 2 : 1;
  while (true) {
    if (::poll(fds, count, -1) < 0) {
      if (errno == EINTR) continue;
      support::LogError(fmt::format("mcp: poll on stdin failed: {}", std::strerror(errno)));
      return false;
    }
    if (count == 2 && (fds[1].revents & POLLIN)) {
      ConsumeSignal(stop_fd_);
      stopped_ = true;
      return true;
    }
    if (fds[0].revents == 0) continue;
    char buffer[65536];
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      support::LogError(fmt::format("mcp: reading stdin failed: {}", std::strerror(errno)));
      return false;
    }
    if (n == 0) return false;
    pending_.append(buffer, static_cast<size_t>(n));
    return true;
  }
}

LineSource::Status FdLineSource::Next(std::string& line) {
  while (true) {
    if (stopped_) return Status::kStopped;
    if (const size_t newline = pending_.find('\n', scanned_); newline != std::string::npos) {
      const bool was_dropping = dropping_ || newline > kMaxLineBytes;
      if (!was_dropping) line.assign(pending_, 0, newline);
      pending_.erase(0, newline + 1);
      scanned_ = 0;
      dropping_ = false;
      return was_dropping ? Status::kTooLong : Status::kLine;
    }
    scanned_ = pending_.size();
    if (pending_.size() > kMaxLineBytes) dropping_ = true;
    if (dropping_) {
      pending_.clear();
      scanned_ = 0;
    }
    if (eof_) {
      if (dropping_) {
        dropping_ = false;
        return Status::kTooLong;
      }
      if (pending_.empty()) return Status::kEof;
      line = std::move(pending_);  // a last line without its newline
      pending_.clear();
      scanned_ = 0;
      return Status::kLine;
    }
    if (!Fill()) eof_ = true;
  }
}

bool FdLineSource::StopRequested(std::chrono::milliseconds wait) {
  if (stopped_) return true;
  if (stop_fd_ < 0) {
    if (wait.count() > 0) ::poll(nullptr, 0, static_cast<int>(wait.count()));
    return false;
  }
  pollfd fd{stop_fd_, POLLIN, 0};
  if (::poll(&fd, 1, static_cast<int>(wait.count())) > 0 && (fd.revents & POLLIN)) {
    ConsumeSignal(stop_fd_);
    stopped_ = true;
  }
  return stopped_;
}

}  // namespace nsys::mcp
