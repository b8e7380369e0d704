// Accept loops out of file descriptors: the back-off schedule, and the Perfetto HTTP side
// channel's loop measured in this process with a lowered RLIMIT_NOFILE. (The TCP server's loop is measured on the
// real binary in hardening_test.cpp.)
#include "nsys/transport/accept_backoff.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "nsys/transport/http_side_channel.h"
#include "sanitizers.h"

namespace nsys::transport {
namespace {

using namespace std::chrono_literals;

TEST(AcceptBackoff, WaitsTenMillisecondsDoublingToOneSecondAndResetsOnSuccess) {
  AcceptBackoff backoff("test listener");
  const asio::error_code emfile = asio::error::no_descriptors;
  EXPECT_TRUE(AcceptBackoff::OutOfDescriptors(emfile));
  EXPECT_TRUE(AcceptBackoff::OutOfDescriptors(asio::error_code(ENFILE, asio::system_category())));
  std::vector<int64_t> delays;
  for (int i = 0; i < 9; ++i) delays.push_back(backoff.OnFailure(emfile).count());
  EXPECT_EQ(delays, (std::vector<int64_t>{10, 20, 40, 80, 160, 320, 640, 1000, 1000}));
  backoff.OnSuccess();
  EXPECT_EQ(backoff.OnFailure(emfile).count(), 10);
}

double ThreadCpuSeconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

size_t OpenFds() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

bool Connect(int fd, uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
}

TEST(AcceptBackoff, TheHttpSideChannelDoesNotSpinWhenOutOfDescriptors) {
#if NSYS_AI_TEST_ASAN
  // UBSan's vptr check validates memory through a pipe; with this process's descriptors exhausted the pipe fails and
  // it reports a false "invalid vptr" (seen in CI). The Release pass runs this test.
  GTEST_SKIP() << "needs free descriptors under the sanitizers; covered by the Release pass";
#endif
  const auto dir = std::filesystem::temp_directory_path() / ("nsys-ai-backoff-" + std::to_string(::getpid()));
  asio::io_context io;
  HttpSideChannelOptions options;
  options.cache_dir = dir.string();
  HttpSideChannel channel(io, options);
  ASSERT_TRUE(channel.Listen().ok());
  auto guard = asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  auto io_cpu = [&io] {
    std::promise<double> cpu;
    asio::post(io, [&cpu] { cpu.set_value(ThreadCpuSeconds()); });
    return cpu.get_future().get();
  };

  // From here until the limit is restored this process may open only 3 more descriptors: the clients take them,
  // so the channel's accept() fails with EMFILE while their connections wait in the backlog.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &old), 0);
  const rlimit low{OpenFds() + 3, old.rlim_max};
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  std::vector<int> clients;  // every descriptor taken before the first connection arrives
  for (int i = 0; i < 3; ++i) clients.push_back(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  bool connected = true;
  for (int fd : clients) connected = connected && fd >= 0 && Connect(fd, channel.port());
  const double before = io_cpu();
  std::this_thread::sleep_for(1s);
  const double spent = io_cpu() - before;
  for (int fd : clients) {
    if (fd >= 0) ::close(fd);
  }
  ::setrlimit(RLIMIT_NOFILE, &old);
  EXPECT_TRUE(connected);
  std::printf("side channel out of descriptors for 1 s: %.3f s of io-thread CPU\n", spent);
  EXPECT_LT(spent, 0.2) << "the accept loop spins";

  channel.Stop();
  guard.reset();
  io.stop();
  io_thread.join();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace nsys::transport
