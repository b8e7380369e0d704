#pragma once
// Process-wide logging to stderr (or a file). stdout belongs to the protocol when serving over stdio, so nothing
// here ever writes to it. Thread-safe: lines from concurrent threads never interleave.
#include <optional>
#include <string>
#include <string_view>

namespace nsys::support {

enum class LogLevel { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

// "error", "warn" (or "warning"), "info", "debug"; nullopt for anything else.
std::optional<LogLevel> ParseLogLevel(std::string_view text);
std::string_view LogLevelName(LogLevel level);

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
inline bool LogEnabled(LogLevel level) {
  return static_cast<int>(level) <= static_cast<int>(GetLogLevel());
}

// Appends log lines to `path` instead of stderr. The file is created 0600 (an existing one of ours is made 0600), never
// opened through a symbolic link, and must be a regular file this user owns. Returns an error message otherwise.
std::optional<std::string> SetLogFile(const std::string& path);

// Writes one line "[12:34:56.789 I] message" when `level` is enabled, with secrets redacted (RedactSecrets: tokens,
// keys, passwords in URLs, Authorization headers).
void Log(LogLevel level, std::string_view message);

inline void LogError(std::string_view message) {
  Log(LogLevel::kError, message);
}
inline void LogWarn(std::string_view message) {
  Log(LogLevel::kWarn, message);
}
inline void LogInfo(std::string_view message) {
  Log(LogLevel::kInfo, message);
}
inline void LogDebug(std::string_view message) {
  Log(LogLevel::kDebug, message);
}

}  // namespace nsys::support
