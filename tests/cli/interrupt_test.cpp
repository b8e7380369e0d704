// Ctrl-C during `nsys-ai perfetto` (alias `open`) and `nsys-ai export`: SIGINT cancels the trace write through the
// core's CancelToken, so the process exits with the usual failure status and a "cancelled" message, and no partial
// trace is left behind (not in the side channel's directory, not next to the output).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.h"
#include "read_all_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// h100_2gpu_1s repeated 40 times by the shared scaling tool: its trace takes long enough to write (about a second
// or more) that a signal reliably lands mid-write. Made once per test run.
std::string ScaledExport(const fs::path& dir) {
  static std::string path;
  static std::once_flag once;
  std::call_once(once, [&] {
    const std::string tool = std::string(NSYS_AI_SOURCE_DIR) + "/../shared/tools/scale_profile.py";
    if (!fs::exists(tool)) return;
    const std::string out = (dir / "h100_x40.sqlite").string();
    const std::string cmd =
        "python3 '" + tool + "' '" + Fixture("h100_2gpu_1s.sqlite") + "' '" + out + "' --factor 40 > /dev/null";
    if (std::system(cmd.c_str()) == 0) path = out;
  });
  return path;
}

// Names of the entries of `dir` (none when it does not exist).
std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  return names;
}

class Interrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    static const fs::path shared = fs::temp_directory_path() / ("nsys-ai-interrupt-" + std::to_string(::getpid()));
    fs::create_directories(shared);
    profile_ = ScaledExport(shared);
    if (profile_.empty()) GTEST_SKIP() << "python3 or ../shared/tools/scale_profile.py unavailable";
    dir_ = shared / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cache");
    fs::create_directories(dir_ / "out");
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Starts the binary with its cache under dir_/cache and its output in files.
  pid_t Start(const std::vector<std::string>& args) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
      if (!std::freopen((dir_ / "stdout").c_str(), "w", stdout) ||
          !std::freopen((dir_ / "stderr").c_str(), "w", stderr))
        ::_exit(126);
      std::vector<char*> argv = {const_cast<char*>(NSYS_AI_BINARY)};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    return pid;
  }

  // Waits (at most 20 s) until `dir` holds a file, i.e. the write has begun; false when the child exited first.
  static bool AwaitFileIn(const fs::path& dir, pid_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (!Entries(dir).empty()) return true;
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }

  // SIGINT, then the exit status (-1 when it did not exit normally within 20 s).
  static int InterruptAndWait(pid_t pid) {
    ::kill(pid, SIGINT);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) != pid) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  fs::path dir_;
  std::string profile_;
};

TEST_F(Interrupt, CtrlCDuringOpenCancelsTheWriteAndLeavesNoTrace) {
  const fs::path traces = dir_ / "cache" / "nsys-ai" / "traces";
  const pid_t pid = Start({"open", profile_, "--no-browser", "--no-cache"});
  ASSERT_TRUE(AwaitFileIn(traces, pid)) << "the trace write never began: " << ReadAll(dir_ / "stderr");
  const int exit_code = InterruptAndWait(pid);
  const std::string err = ReadAll(dir_ / "stderr");
  EXPECT_EQ(exit_code, 1) << err;  // the CLI's failure status (a cancelled command), not death by the signal
  EXPECT_NE(err.find("cancelled"), std::string::npos) << err;
  EXPECT_EQ(ReadAll(dir_ / "stdout").find("Open this in a browser"), std::string::npos)
      << "the signal came after the write; the fixture is too small to test the cancellation";
  EXPECT_TRUE(Entries(traces).empty()) << "left behind: " << Entries(traces).front();
}

TEST_F(Interrupt, CtrlCDuringExportCancelsTheWriteAndLeavesNoTrace) {
  const fs::path out = dir_ / "out";
  const pid_t pid = Start({"export", profile_, "-o", (out / "t.pftrace").string(), "--no-cache"});
  ASSERT_TRUE(AwaitFileIn(out, pid)) << "the trace write never began: " << ReadAll(dir_ / "stderr");
  const int exit_code = InterruptAndWait(pid);
  const std::string err = ReadAll(dir_ / "stderr");
  EXPECT_EQ(exit_code, 1) << err;
  EXPECT_NE(err.find("cancelled"), std::string::npos) << err;
  EXPECT_TRUE(Entries(out).empty()) << "left behind: " << Entries(out).front();
}

}  // namespace
}  // namespace nsys::testing
