#pragma once
// A child process with piped stdin/stdout, for tests that drive the real nsys-ai binary line by line.
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nsys::testing {

class ChildProcess {
 public:
  // argv[0] is the executable's path. extra_env entries ("NAME=value") are added to the inherited environment.
  // The child's stderr goes to stderr_path. Returns nullptr (and sets *error) when the process cannot start.
  static std::unique_ptr<ChildProcess> Start(const std::vector<std::string>& argv,
                                             const std::vector<std::string>& extra_env, const std::string& stderr_path,
                                             std::string* error);
  ~ChildProcess();  // kills the child if it still runs

  bool WriteLine(const std::string& line);  // appends '\n'; false when the child's stdin is closed
  // The next stdout line (without '\n'); nullopt at EOF, or after `timeout` with *timed_out set.
  std::optional<std::string> ReadLine(std::chrono::milliseconds timeout, bool* timed_out);
  void CloseStdin();
  // The exit code (128 + signal when killed by one), or nullopt if it has not exited within `timeout`.
  std::optional<int> Wait(std::chrono::milliseconds timeout);

 private:
  ChildProcess() = default;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::string pending_;
  bool eof_ = false;
};

}  // namespace nsys::testing
