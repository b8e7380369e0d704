// The one-click flow in a real browser: headless Chromium opens the opener page, which fetches the trace and hands
// it to a stand-in for the Perfetto UI (served here on another loopback port) over the PING/PONG postMessage
// protocol. The stand-in hashes the ArrayBuffer it received (crypto.subtle SHA-256) and POSTs the result back; the
// test asserts it is byte-identical to the trace. Skips, saying so, when Chromium is not installed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/engine/profile.h"
#include "nsys/support/sha256.h"
#include "nsys/trace/trace_writer.h"
#include "nsys/transport/http_side_channel.h"

extern char** environ;

namespace nsys::transport {
namespace {

namespace fs = std::filesystem;

// Plays the Perfetto UI's side of the protocol: answers 'PING' with 'PONG', hashes the buffer it is given.
constexpr std::string_view kStandInPage = R"html(<!doctype html>
<html><head><meta charset="utf-8"><title>Perfetto stand-in</title></head>
<body><p id="state">waiting</p>
<script>
window.addEventListener('message', async function (event) {
  if (event.data === 'PING') {
    event.source.postMessage('PONG', event.origin);
    return;
  }
  if (!event.data || !event.data.perfetto) return;
  const p = event.data.perfetto;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', p.buffer));
  const hex = Array.from(digest, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  document.getElementById('state').textContent = 'received';
  await fetch('/result', {method: 'POST', body: JSON.stringify({
    sha256: hex, bytes: p.buffer.byteLength, title: p.title, fileName: p.fileName, origin: event.origin})});
});
</script></body></html>
)html";

// A tiny HTTP server for the stand-in page and the result it posts back.
class StandIn {
 public:
  explicit StandIn(asio::io_context& io) : acceptor_(io, {asio::ip::address_v4::loopback(), 0}) { Accept(); }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }

  std::optional<nlohmann::json> WaitForResult(std::chrono::seconds timeout) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [this] { return result_.has_value(); });
    return result_;
  }
  int pages_served() const {
    std::lock_guard lock(mu_);
    return pages_;
  }

 private:
  struct Connection {
    explicit Connection(asio::ip::tcp::socket s) : socket(std::move(s)) {}
    asio::ip::tcp::socket socket;
    std::string data;
  };

  void Accept() {
    acceptor_.async_accept([this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
      if (ec) return;
      auto c = std::make_shared<Connection>(std::move(socket));
      Read(c);
      Accept();
    });
  }

  void Read(const std::shared_ptr<Connection>& c) {
    auto buf = std::make_shared<std::array<char, 65536>>();
    c->socket.async_read_some(asio::buffer(*buf), [this, c, buf](const asio::error_code& ec, size_t n) {
      if (ec) return;
      c->data.append(buf->data(), n);
      const size_t head_end = c->data.find("\r\n\r\n");
      if (head_end == std::string::npos) return Read(c);
      const std::string head = c->data.substr(0, head_end);
      if (head.rfind("GET / ", 0) == 0) {
        {
          std::lock_guard lock(mu_);
          ++pages_;
        }
        return Reply(c, "200 OK", "text/html; charset=utf-8", std::string(kStandInPage));
      }
      if (head.rfind("POST /result ", 0) == 0) {
        std::string lower = head;
        for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const size_t at = lower.find("content-length:");
        const size_t length = at == std::string::npos ? 0 : std::stoul(lower.substr(at + 15));
        if (c->data.size() < head_end + 4 + length) return Read(c);
        const std::string body = c->data.substr(head_end + 4, length);
        {
          std::lock_guard lock(mu_);
          result_ = nlohmann::json::parse(body, nullptr, false);
        }
        cv_.notify_all();
        return Reply(c, "204 No Content", "text/plain", "");
      }
      Reply(c, "404 Not Found", "text/plain", "not found\n");
    });
  }

  void Reply(const std::shared_ptr<Connection>& c, const std::string& status, const std::string& type,
             const std::string& body) {
    auto out = std::make_shared<std::string>("HTTP/1.1 " + status + "\r\nContent-Type: " + type +
                                             "\r\nContent-Length: " + std::to_string(body.size()) +
                                             "\r\nConnection: close\r\n\r\n" + body);
    asio::async_write(c->socket, asio::buffer(*out), [c, out](const asio::error_code&, size_t) {
      asio::error_code ignored;
      c->socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    });
  }

  asio::ip::tcp::acceptor acceptor_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::optional<nlohmann::json> result_;
  int pages_ = 0;
};

std::string FindChromium() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return {};
}

TEST(PerfettoOneClick, HeadlessChromiumHandsTheExactTraceToPerfetto) {
  const std::string chromium = FindChromium();
  if (chromium.empty())
    GTEST_SKIP() << "Chromium is not installed (apt-get install -y chromium); skipping the browser test";

  const fs::path dir = fs::temp_directory_path() / ("nsys-ai-browser-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  struct RemoveOnExit {
    fs::path path;
    ~RemoveOnExit() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } cleanup{dir};

  asio::io_context io;
  StandIn stand_in(io);
  HttpSideChannelOptions options;
  options.cache_dir = (dir / "cache").string();
  options.perfetto_origin = "http://127.0.0.1:" + std::to_string(stand_in.port());
  HttpSideChannel channel(io, options);
  auto guard = asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });

  // The trace: a real export when the fixtures are here, else 3 MB of random bytes (the transfer is what is tested).
  fs::create_directories(channel.TraceDirectory());
  const std::string trace_path = (fs::path(channel.TraceDirectory()) / "h100.pftrace").string();
  std::string expected_sha;
  int64_t expected_bytes = 0;
  if (nsys::testing::HaveFixtures()) {
    engine::OpenOptions open;
    open.use_cache = false;
    auto profile = engine::Profile::Open(nsys::testing::Fixture("h100_2gpu_1s.sqlite"), open);
    ASSERT_TRUE(profile.ok()) << profile.error().message;
    auto stats = trace::ExportTraceToFile(**profile, {}, trace_path);
    ASSERT_TRUE(stats.ok()) << stats.error().message;
    expected_sha = stats->sha256;
    expected_bytes = stats->bytes;
  } else {
    std::string bytes(3 << 20, '\0');
    std::mt19937_64 random(42);
    for (auto& c : bytes) c = static_cast<char>(random());
    std::ofstream(trace_path, std::ios::binary) << bytes;
    expected_sha = support::Sha256::Hex(bytes);
    expected_bytes = static_cast<int64_t>(bytes.size());
  }
  core::TraceToPublish trace;
  trace.path = trace_path;
  trace.title = "h100_2gpu_1s.sqlite";
  trace.file_name = "h100_2gpu_1s.pftrace";
  auto published = channel.Publish(trace);
  ASSERT_TRUE(published.ok()) << published.error().message;

  const std::string profile_dir = (dir / "chromium-profile").string();
  const std::string log = (dir / "chromium.log").string();
  std::vector<std::string> args = {chromium,
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-quic",
                                   "--no-first-run",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--disable-popup-blocking",  // the page's window.open without a click
                                   "--user-data-dir=" + profile_dir,
                                   published->url};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // its own group: killed with every helper process
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, chromium.c_str(), &actions, &attr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);

  const auto result = stand_in.WaitForResult(std::chrono::seconds(90));
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  guard.reset();
  io.stop();
  io_thread.join();

  std::string chromium_log;
  if (!result) {
    std::ifstream in(log);
    chromium_log.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_TRUE(result.has_value()) << "the stand-in never received a trace (pages served: " << stand_in.pages_served()
                                  << "); chromium log:\n"
                                  << chromium_log.substr(0, 4000);
  ASSERT_TRUE(result->is_object()) << result->dump();
  EXPECT_EQ((*result)["sha256"], expected_sha);
  EXPECT_EQ((*result)["bytes"], expected_bytes);
  EXPECT_EQ((*result)["title"], "h100_2gpu_1s.sqlite");
  EXPECT_EQ((*result)["fileName"], "h100_2gpu_1s.pftrace");
  EXPECT_EQ((*result)["origin"], "http://127.0.0.1:" + std::to_string(published->port));
  EXPECT_EQ(stand_in.pages_served(), 1);
  channel.Stop();
}

}  // namespace
}  // namespace nsys::transport
