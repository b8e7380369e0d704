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

  bool Write(const std::string& bytes);     // false when the child's stdin is closed
  bool WriteLine(const std::string& line);  // appends '\n'
  // The next stdout line (without '\n'); nullopt at EOF, or after `timeout` with *timed_out set.
  std::optional<std::string> ReadLine(std::chrono::milliseconds timeout, bool* timed_out);
  // The next body framed with Content-Length on stdout (serve --stdio); nullopt as ReadLine. Do not mix with
  // ReadLine on one child.
  std::optional<std::string> ReadFrame(std::chrono::milliseconds timeout, bool* timed_out);
  void CloseStdin();
  bool Signal(int signal);  // kill(2) on the child; false when it has been reaped
  // The exit code (128 + signal when killed by one), or nullopt if it has not exited within `timeout`.
  std::optional<int> Wait(std::chrono::milliseconds timeout);

 private:
  ChildProcess() = default;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  bool Fill(std::chrono::steady_clock::time_point deadline, bool* timed_out);  // more stdout into pending_
  std::string pending_;
  bool eof_ = false;
};

}  // namespace nsys::testing
