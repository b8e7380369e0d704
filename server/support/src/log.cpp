#include "nsys/support/log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

#include "nsys/support/redact.h"

namespace nsys::support {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kWarn)};
std::mutex g_mu;
std::FILE* g_file = nullptr;  // nullptr = stderr

char LevelLetter(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return 'E';
    case LogLevel::kWarn:
      return 'W';
    case LogLevel::kInfo:
      return 'I';
    case LogLevel::kDebug:
      return 'D';
  }
  return '?';
}

}  // namespace

std::optional<LogLevel> ParseLogLevel(std::string_view text) {
  if (text == "error") return LogLevel::kError;
  if (text == "warn" || text == "warning") return LogLevel::kWarn;
  if (text == "info") return LogLevel::kInfo;
  if (text == "debug") return LogLevel::kDebug;
  return std::nullopt;
}

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return "error";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kDebug:
      return "debug";
  }
  return "?";
}

void SetLogLevel(LogLevel level) {
  g_level.store(static_cast<int>(level));
}
LogLevel GetLogLevel() {
  return static_cast<LogLevel>(g_level.load());
}

std::optional<std::string> SetLogFile(const std::string& path) {
  // 0600, never through a symlink, and only a regular file of ours: the log may hold paths and questions.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
  if (fd < 0) {
    const int error = errno;
    return fmt::format("cannot open log file {}: {}", path,
                       error == ELOOP ? "it is a symbolic link (refused)" : std::strerror(error));
  }
  struct stat st {};
  std::string problem;
  if (::fstat(fd, &st) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    problem = "not a regular file";
  } else if (st.st_uid != ::geteuid()) {
    problem = "owned by another user";
  } else if ((st.st_mode & 0077) != 0 && ::fchmod(fd, 0600) != 0) {
    problem = fmt::format("cannot make it private (mode 0600): {}", std::strerror(errno));
  }
  std::FILE* file = problem.empty() ? ::fdopen(fd, "a") : nullptr;
  if (!file) {
    if (problem.empty()) problem = std::strerror(errno);
    ::close(fd);
    return fmt::format("cannot open log file {}: {}", path, problem);
  }
  std::lock_guard lock(g_mu);
  if (g_file) std::fclose(g_file);
  g_file = file;
  return std::nullopt;
}

void Log(LogLevel level, std::string_view message) {
  if (!LogEnabled(level)) return;
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm local{};
  localtime_r(&seconds, &local);
  const std::string line = fmt::format("[{:02}:{:02}:{:02}.{:03} {}] {}\n", local.tm_hour, local.tm_min, local.tm_sec,
                                       millis, LevelLetter(level), RedactSecrets(message));
  std::lock_guard lock(g_mu);
  std::FILE* out = g_file ? g_file : stderr;
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

}  // namespace nsys::support
