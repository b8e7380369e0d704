#include "nsys/support/log.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

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
  std::FILE* file = std::fopen(path.c_str(), "a");
  if (!file) return fmt::format("cannot open log file {}: {}", path, std::strerror(errno));
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
                                       millis, LevelLetter(level), message);
  std::lock_guard lock(g_mu);
  std::FILE* out = g_file ? g_file : stderr;
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

}  // namespace nsys::support
