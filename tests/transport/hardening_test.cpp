// The TCP and stdio servers against hostile and careless clients, on the real
// binary: token authentication, a client that floods without reading, the connection limit, file-descriptor
// exhaustion, idle connections, and SIGTERM over stdio.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <ratio>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "nsys/protocol/framing.h"
#include "rpc_client.h"
#include "sanitizers.h"

namespace nsys::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Sends a request and returns its reply, which must come within 30 s.
Json RequestWithin30s(FramedConnection& c, const Json& id, const std::string& method, Json params = Json::object()) {
  c.Send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return c.AwaitReply(id, 30s);
}

int ErrorCode(const Json& reply) {
  return reply.contains("error") ? reply["error"]["code"].get<int>() : 0;
}

std::string ErrorMessage(const Json& reply) {
  return reply.contains("error") ? reply["error"]["message"].get<std::string>() : "";
}

// VmRSS of a process, in KiB.
long RssKb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// User + system CPU time of a process, in seconds.
double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // after "pid (comm) "
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; fields >> field; ++i) {  // field 3 is the state
    if (i == 14) utime = std::stol(field);
    if (i == 15) {
      stime = std::stol(field);
      break;
    }
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

size_t OpenFds(pid_t pid) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    ++n;
  }
  return n;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Json Message(const Json& id, const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

// ---- the token ----

TEST(TcpToken, TheFileIsPrivateNamedInTheStartupLineAndRemovedOnExit) {
  auto server = StartTcpServer({"--no-cache"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  EXPECT_NE(server.process->Stderr().find("(token in " + server.token_file + ")"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(server.token_file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_uid, ::geteuid());
  EXPECT_TRUE(std::regex_match(server.token, std::regex("[0-9a-f]{64}"))) << server.token;
  // A second server gets another token.
  auto other = StartTcpServer({"--no-cache"});
  ASSERT_GT(other.port, 0);
  EXPECT_NE(other.token, server.token);
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
  EXPECT_FALSE(std::filesystem::exists(server.token_file));
  other.process->Signal(SIGINT);
  EXPECT_EQ(other.process->Wait(30s), 0);
  EXPECT_FALSE(std::filesystem::exists(other.token_file));
}

TEST(TcpToken, TheDefaultFileIsInTheRuntimeDirectory) {
  std::string dir = (std::filesystem::temp_directory_path() / "nsys_ai_runtime_XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const char* old = std::getenv("XDG_RUNTIME_DIR");
  const std::string saved = old ? old : "";
  ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);  // inherited by the child
  Subprocess process({NsysAiBinary(), "serve", "--listen", "127.0.0.1:0", "--no-cache"});
  if (old) {
    ::setenv("XDG_RUNTIME_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_RUNTIME_DIR");
  }
  ASSERT_TRUE(process.WaitForStderr(".token)\n", 30s)) << process.Stderr();
  std::smatch match;
  const std::string err = process.Stderr();
  ASSERT_TRUE(std::regex_search(err, match, std::regex(R"(listening on 127\.0\.0\.1:(\d+) \(token in (.*)\)\n)")));
  const std::string expected = dir + "/nsys-ai/serve-" + match[1].str() + ".token";
  EXPECT_EQ(match[2].str(), expected);
  struct stat st {};
  ASSERT_EQ(::stat((dir + "/nsys-ai").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(expected.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  process.Signal(SIGTERM);
  EXPECT_EQ(process.Wait(30s), 0);
  EXPECT_FALSE(std::filesystem::exists(expected));
  std::filesystem::remove_all(dir);
}

TEST(TcpToken, OnlyInitializeWithTheRightTokenOpensASession) {
  auto server = StartTcpServer({"--no-cache"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  Json no_options = {{"processId", nullptr}, {"capabilities", Json::object()}};
  std::string wrong = server.token;
  wrong[10] = wrong[10] == 'a' ? 'b' : 'a';
  struct Case {
    const char* name;
    std::string bytes;
    Json id;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"missing", protocol::EncodeFrame(Message(1, "initialize", no_options).dump()), 1, "no token"},
      {"wrong", protocol::EncodeFrame(Message(2, "initialize", InitializeParams(wrong)).dump()), 2, "wrong token"},
      {"not initialize", protocol::EncodeFrame(Message(3, "nsys/listSkills").dump()), 3, "'nsys/listSkills'"},
      {"garbage", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", nullptr, "framing error"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto connection = Connect(server.port);
    // What follows the refused message (a valid initialize) is never served.
    connection->SendRaw(c.bytes +
                        protocol::EncodeFrame(Message(9, "initialize", InitializeParams(server.token)).dump()));
    auto reply = connection->Take([](const Json& m) { return m.contains("error") || m.contains("result"); }, 30s);
    ASSERT_TRUE(reply.has_value());
    EXPECT_EQ(ErrorCode(*reply), -32000) << reply->dump();
    EXPECT_EQ((*reply)["id"], c.id);
    EXPECT_NE(ErrorMessage(*reply).find(c.says), std::string::npos) << ErrorMessage(*reply);
    EXPECT_TRUE(connection->WaitForEof(10s)) << "the connection stayed open after the refusal";
    EXPECT_TRUE(connection->Pending().empty()) << connection->Pending()[0].dump();
  }
  auto good = Connect(server.port);
  EXPECT_TRUE(InitializeWithToken(*good, server.token).contains("result"));
  EXPECT_TRUE(RequestWithin30s(*good, 2, "nsys/listSkills").contains("result"));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
}

int ConnectUnix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(UnixSocket, ServesThisUserWithoutATokenFromAPrivateFolderOnly) {
  std::string dir = (std::filesystem::temp_directory_path() / "nsys_ai_sock_XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);  // mode 700
  const std::string path = dir + "/serve.sock";
  Subprocess process({NsysAiBinary(), "serve", "--socket", path, "--no-cache"});
  ASSERT_TRUE(process.WaitForStderr("listening on unix:" + path + "\n", 30s)) << process.Stderr();
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  const int fd = ConnectUnix(path);
  ASSERT_GE(fd, 0);
  FramedConnection c(fd, fd, true);
  c.Send(Message(1, "initialize", {{"processId", nullptr}, {"capabilities", Json::object()}}));
  EXPECT_TRUE(c.AwaitReply(1, 30s).contains("result"));
  EXPECT_TRUE(RequestWithin30s(c, 2, "nsys/listSkills").contains("result"));
  process.Signal(SIGTERM);
  EXPECT_EQ(process.Wait(30s), 0);
  EXPECT_FALSE(std::filesystem::exists(path));

  // A folder others may enter is refused at start.
  ::chmod(dir.c_str(), 0755);
  const auto refused = RunNsysAi({"serve", "--socket", path, "--no-cache"}, 30s);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("mode 700"), std::string::npos) << refused.err;
  std::filesystem::remove_all(dir);
}

// ---- floods ----

// A client that writes requests as fast as the server takes them and never reads a reply, until `stop`.
struct Flooder {
  int fd = -1;
  std::atomic<bool> stop{false};
  std::atomic<size_t> sent_bytes{0};
  std::thread thread;

  Flooder(int port, const std::string& token) {
    fd = ConnectTcp(port);
    const std::string init = protocol::EncodeFrame(Message("init", "initialize", InitializeParams(token)).dump());
    ::send(fd, init.data(), init.size(), MSG_NOSIGNAL);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    thread = std::thread([this] { Run(); });
  }
  ~Flooder() {
    stop = true;
    if (thread.joinable()) thread.join();
    ::close(fd);
  }
  void Run() {
    std::string batch;
    for (int i = 0; i < 200; ++i) batch += protocol::EncodeFrame(Message(i, "nsys/listSkills").dump());
    size_t offset = 0;
    while (!stop.load()) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, 50) <= 0) continue;  // the server stopped reading us: our writes block
      const ssize_t n = ::send(fd, batch.data() + offset, batch.size() - offset, MSG_NOSIGNAL);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) return;
      sent_bytes += static_cast<size_t>(n);
      offset = (offset + static_cast<size_t>(n)) % batch.size();
    }
  }
};

// Asks `method` every 100 ms on its own connection while `run` runs; returns the slowest answer. `ok` says whether
// an answer is the expected one.
Clock::duration SlowestAnswer(
    FramedConnection& c, const std::function<void()>& run, const std::string& method = "nsys/listSkills",
    const Json& params = Json::object(),
    const std::function<bool(const Json&)>& ok = [](const Json& r) { return r.contains("result"); }) {
  std::atomic<bool> done{false};
  Clock::duration slowest{};
  std::atomic<int> failures{0};
  std::thread asker([&] {
    for (int i = 0; !done.load(); ++i) {
      const auto start = Clock::now();
      if (!ok(RequestWithin30s(c, "ask" + std::to_string(i), method, params))) ++failures;
      slowest = std::max(slowest, Clock::now() - start);
      std::this_thread::sleep_for(100ms);
    }
  });
  run();
  done = true;
  asker.join();
  EXPECT_EQ(failures.load(), 0);
  return slowest;
}

TEST(TcpLimits, AClientThatFloodsAndNeverReadsStaysBoundedAndOthersStayFast) {
  auto server = StartTcpServer({"--no-cache", "--workers", "2"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  auto other = Connect(server.port);
  ASSERT_TRUE(InitializeWithToken(*other, server.token).contains("result"));
  ASSERT_TRUE(RequestWithin30s(*other, "warm", "nsys/listSkills").contains("result"));
  const long rss_before = RssKb(server.process->pid());
  long rss_peak = rss_before;
  size_t flooded = 0;
  const auto slowest = SlowestAnswer(*other, [&] {
    Flooder flooder(server.port, server.token);
    const auto end = Clock::now() + 6s;
    while (Clock::now() < end) {
      rss_peak = std::max(rss_peak, RssKb(server.process->pid()));
      std::this_thread::sleep_for(100ms);
    }
    flooded = flooder.sent_bytes.load();
  });
  const double peak_mb = static_cast<double>(rss_peak - rss_before) / 1024.0;
  std::printf(
      "flood: %zu bytes of requests sent, server RSS %ld -> peak %ld KiB (+%.1f MiB), slowest other "
      "listSkills %.0f ms\n",
      flooded, rss_before, rss_peak, peak_mb, std::chrono::duration<double, std::milli>(slowest).count());
  // The server stopped reading the flooder: with replies bounded, most of what it wrote waits in socket buffers.
  // Under ASan, freed memory waits in its quarantine (256 MiB by default) before reuse, so RSS grows by that much
  // more without the server holding anything (CI measured +301 MiB there).
#if NSYS_AI_TEST_ASAN
  constexpr double kBoundMb = 150.0 + 300.0;
#else
  constexpr double kBoundMb = 150.0;
#endif
  EXPECT_LT(peak_mb, kBoundMb) << "the server buffered the flood";
  EXPECT_LT(slowest, 2s);
  EXPECT_TRUE(RequestWithin30s(*other, "after", "nsys/listSkills").contains("result"));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0) << server.process->Stderr().substr(0, 2000);
}

// Issue 38, item 6: reading pauses at 4 MiB of unsent replies, but the requests already in flight still answer, and
// replies nobody reads were kept without bound (~140 MB on one connection). A client that leaves more than 16 MiB of
// replies unread is now closed: here 64 small requests in flight whose replies are 0.7 MB each (nvtx_gpu_projection
// with limit 0 on the shipped profile: 46 MB in all).
TEST(TcpLimits, AClientThatReadsNoneOfItsLargeRepliesIsClosed) {
  auto server = StartTcpServer({"--no-cache", "--workers", "2"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  auto other = Connect(server.port);
  ASSERT_TRUE(InitializeWithToken(*other, server.token).contains("result"));
  const Json opened = RequestWithin30s(*other, "open", "nsys/openProfile",
                                       {{"path", std::string(NSYS_AI_SOURCE_DIR) + "/examples/h100_2gpu_1s.sqlite"}});
  ASSERT_TRUE(opened.contains("result")) << opened.dump().substr(0, 300);
  const std::string profile_id = opened["result"]["profileId"].get<std::string>();

  // A small receive buffer, set before connecting: on loopback the kernel would otherwise take up to tcp_rmem's
  // maximum (32 MiB here) of replies for the client, and the server would hold none.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  const int receive_buffer = 64 << 10;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(server.port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  std::string requests = protocol::EncodeFrame(Message("init", "initialize", InitializeParams(server.token)).dump());
  constexpr int kRequests = 64;
  const Json params = {{"profileId", profile_id}, {"skill", "nvtx_gpu_projection"}, {"args", {{"limit", 0}}}};
  for (int i = 0; i < kRequests; ++i) requests += protocol::EncodeFrame(Message(i, "nsys/runSkill", params).dump());
  std::thread writer([fd, &requests] {  // blocks while the server holds back; ends when the server closes
    for (size_t sent = 0; sent < requests.size();) {
      const ssize_t n = ::send(fd, requests.data() + sent, requests.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;
      sent += static_cast<size_t>(n);
    }
  });
  // Nothing is read for 20 s (the server answers meanwhile), then everything until the server's end of file.
  const auto quiet_until = Clock::now() + 20s;
  while (Clock::now() < quiet_until && server.process->Stderr().find("of replies unread") == std::string::npos) {
    std::this_thread::sleep_for(100ms);
  }
  std::string received;
  char buffer[1 << 16];
  bool eof = false;
  for (const auto until = Clock::now() + 30s; Clock::now() < until;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
      eof = true;
      break;
    }
    received.append(buffer, static_cast<size_t>(n));
  }
  ::shutdown(fd, SHUT_RDWR);
  writer.join();
  ::close(fd);
  size_t replies = 0;
  protocol::FrameDecoder decoder;
  for (const auto& frame : decoder.Feed(received)) replies += frame.kind == protocol::Frame::Kind::kBody ? 1 : 0;
  EXPECT_TRUE(eof) << "the connection stayed open after " << received.size() << " bytes of replies";
  EXPECT_LT(replies, static_cast<size_t>(kRequests) + 1) << "every reply was kept for a client that read none";
  EXPECT_NE(server.process->Stderr().find("closed, its client left more than 16.0 MiB of replies unread"),
            std::string::npos)
      << server.process->Stderr().substr(0, 3000);
  // The server goes on serving the others.
  EXPECT_TRUE(RequestWithin30s(*other, "after", "nsys/listSkills").contains("result"));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0) << server.process->Stderr().substr(0, 2000);
}

TEST(TcpFairness, ThousandsOfPipelinedRequestsFromOneClientDoNotDelayAnother) {
  auto server = StartTcpServer({"--no-cache", "--workers", "2"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  auto busy = Connect(server.port);  // this one reads its replies (FramedConnection's reader)
  ASSERT_TRUE(InitializeWithToken(*busy, server.token).contains("result"));
  auto other = Connect(server.port);
  ASSERT_TRUE(InitializeWithToken(*other, server.token).contains("result"));
  // Ordinary-lane requests with small answers (no such profile), so that only queueing is measured.
  constexpr int kPipelined = 20000;
  const Json no_profile = {{"profileId", "p404"}};
  auto flood = [&] {
    std::string all;
    for (int i = 0; i < kPipelined; ++i) {
      all += protocol::EncodeFrame(Message(i, "nsys/closeProfile", no_profile).dump());
    }
    busy->SendRaw(all);  // blocks while the server holds back; the asker runs meanwhile
    EXPECT_EQ(ErrorCode(busy->AwaitReply(kPipelined - 1, 120s)), -32602);
  };
  // A cheap request (its own lane) and an ordinary one (fair turns with the flood on the workers).
  const auto slowest_cheap = SlowestAnswer(*other, flood);
  const auto slowest_ordinary = SlowestAnswer(*other, flood, "nsys/closeProfile", no_profile,
                                              [](const Json& r) { return ErrorCode(r) == -32602; });
  std::printf("pipelined %d requests on one connection; slowest on another: listSkills %.0f ms, closeProfile %.0f ms\n",
              kPipelined, std::chrono::duration<double, std::milli>(slowest_cheap).count(),
              std::chrono::duration<double, std::milli>(slowest_ordinary).count());
  EXPECT_LT(slowest_cheap, 2s);
  EXPECT_LT(slowest_ordinary, 2s);
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
}

TEST(TcpLimits, ConnectionsPastTheLimitAreRefusedWithAClearError) {
  auto server = StartTcpServer({"--no-cache", "--max-connections", "3"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  std::vector<std::unique_ptr<FramedConnection>> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(Connect(server.port));
    ASSERT_TRUE(InitializeWithToken(*open.back(), server.token).contains("result"));
  }
  auto refused = Connect(server.port);
  auto message = refused->Take([](const Json&) { return true; }, 10s);
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(ErrorCode(*message), -32803);
  EXPECT_NE(ErrorMessage(*message).find("--max-connections"), std::string::npos) << ErrorMessage(*message);
  EXPECT_NE(ErrorMessage(*message).find("3"), std::string::npos);
  EXPECT_TRUE(refused->WaitForEof(10s));
  // The ones already in are unaffected; when one leaves, a newcomer gets its place.
  EXPECT_TRUE(RequestWithin30s(*open[0], 2, "nsys/listSkills").contains("result"));
  open[1]->Abort();
  const auto deadline = Clock::now() + 10s;
  bool admitted = false;
  while (!admitted && Clock::now() < deadline) {
    auto next = Connect(server.port);
    admitted = InitializeWithToken(*next, server.token).contains("result");
    if (!admitted) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(admitted);
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
}

// ---- descriptors and idle connections ----

TEST(TcpLimits, OutOfFileDescriptorsTheAcceptLoopBacksOffInsteadOfSpinning) {
#if NSYS_AI_TEST_ASAN
  // The sanitized server's UBSan vptr check probes memory through a pipe: with its descriptors exhausted it reports a
  // false "invalid vptr" and aborts (seen in CI on the same scenario). The Release pass runs this test.
  GTEST_SKIP() << "needs free descriptors under the sanitizers; covered by the Release pass";
#endif
  auto server = StartTcpServer({"--no-cache", "--idle-timeout", "4"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  const pid_t pid = server.process->pid();
  // Leave the server a handful of descriptors, then connect more clients than that.
  rlimit old{};
  ASSERT_EQ(::prlimit(pid, RLIMIT_NOFILE, nullptr, &old), 0) << std::strerror(errno);
  const rlimit low{OpenFds(pid) + 4, old.rlim_max};  // the soft limit only: it can be raised back
  ASSERT_EQ(::prlimit(pid, RLIMIT_NOFILE, &low, nullptr), 0) << std::strerror(errno);
  std::vector<int> clients;
  for (int i = 0; i < 40; ++i) clients.push_back(ConnectTcp(server.port));
  std::this_thread::sleep_for(300ms);
  const double cpu_before = CpuSeconds(pid);
  const size_t log_before = server.process->Stderr().size();
  std::this_thread::sleep_for(2s);
  const double cpu = CpuSeconds(pid) - cpu_before;
  const size_t logged = server.process->Stderr().size() - log_before;
  std::printf("out of descriptors for 2 s: %.3f s of CPU, %zu bytes of log\n", cpu, logged);
  EXPECT_LT(cpu, 0.3) << "the accept loop spins";
  EXPECT_LT(logged, 2000u) << server.process->Stderr().substr(log_before, 2000);
  EXPECT_EQ(Count(server.process->Stderr(), "out of file descriptors"), 1u) << server.process->Stderr();
  // Descriptors come back (the clients leave): the server accepts and serves again.
  for (int fd : clients) ::close(fd);
  ASSERT_EQ(::prlimit(pid, RLIMIT_NOFILE, &old, nullptr), 0);
  const auto deadline = Clock::now() + 15s;
  bool served = false;
  while (!served && Clock::now() < deadline) {
    auto c = Connect(server.port);
    served = InitializeWithToken(*c, server.token).contains("result") &&
             RequestWithin30s(*c, 2, "nsys/listSkills").contains("result");
  }
  EXPECT_TRUE(served) << server.process->Stderr().substr(0, 3000);
  EXPECT_TRUE(server.process->WaitForStderr("accepting again", 5s));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
}

TEST(TcpLimits, IdleConnectionsThatNeverInitializeOrFinishAMessageAreClosed) {
  auto server = StartTcpServer({"--no-cache", "--idle-timeout", "1"});
  ASSERT_GT(server.port, 0) << server.process->Stderr();
  auto silent = Connect(server.port);  // never says anything
  auto partial = Connect(server.port);
  ASSERT_TRUE(InitializeWithToken(*partial, server.token).contains("result"));
  partial->SendRaw("Content-Length: 100\r\n\r\n{\"jsonrpc\":");  // and never the rest
  auto quiet = Connect(server.port);  // initialized, then idle between messages: that is fine
  ASSERT_TRUE(InitializeWithToken(*quiet, server.token).contains("result"));
  const auto start = Clock::now();

  auto silent_reply = silent->Take([](const Json&) { return true; }, 10s);
  ASSERT_TRUE(silent_reply.has_value());
  EXPECT_EQ(ErrorCode(*silent_reply), -32000);
  EXPECT_NE(ErrorMessage(*silent_reply).find("--idle-timeout"), std::string::npos);
  EXPECT_TRUE(silent->WaitForEof(5s));
  auto partial_reply = partial->Take([](const Json& m) { return m.contains("error"); }, 10s);
  ASSERT_TRUE(partial_reply.has_value());
  EXPECT_EQ(ErrorCode(*partial_reply), -32803);
  EXPECT_NE(ErrorMessage(*partial_reply).find("incomplete"), std::string::npos);
  EXPECT_TRUE(partial->WaitForEof(5s));
  EXPECT_LT(Clock::now() - start, 5s);

  std::this_thread::sleep_for(1500ms);
  EXPECT_TRUE(RequestWithin30s(*quiet, 2, "nsys/listSkills").contains("result"));
  server.process->Signal(SIGTERM);
  EXPECT_EQ(server.process->Wait(30s), 0);
}

// ---- SIGTERM over stdio ----

TEST(StdioServe, SigtermAndSigintShutDownCleanly) {
  for (int signal : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(signal);
    Subprocess process({NsysAiBinary(), "serve", "--stdio", "--no-cache"});
    FramedConnection connection(process.stdout_fd(), process.stdin_fd(), false);
    connection.Send(Message(1, "initialize", {{"processId", nullptr}, {"capabilities", Json::object()}}));
    ASSERT_TRUE(connection.AwaitReply(1, 30s).contains("result"));
    process.Signal(signal);
    EXPECT_EQ(process.Wait(10s), 0) << process.Stderr();
    connection.Abort();
  }
}

}  // namespace
}  // namespace nsys::testing
