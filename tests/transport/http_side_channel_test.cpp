// The Perfetto HTTP side channel over real loopback sockets.
#include "nsys/transport/http_side_channel.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "nsys/transport/http_opener_page.h"
#include "transport/http_test_util.h"

namespace nsys::transport {
namespace {

namespace fs = std::filesystem;
using testing::Get;
using testing::HttpResponse;
using testing::Request;

class SideChannel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nsys-ai-http-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    StopIo();
    channel_.reset();
    fs::remove_all(dir_);
  }

  void Start(HttpSideChannelOptions options = {}) {
    options.cache_dir = (dir_ / "cache").string();
    channel_ = std::make_unique<HttpSideChannel>(io_, options);
    channel_->SetClockForTesting([this] { return start_ + std::chrono::seconds(advanced_s_.load()); });
    guard_.emplace(asio::make_work_guard(io_));
    thread_ = std::thread([this] { io_.run(); });
  }
  void StopIo() {
    guard_.reset();
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  // Writes a trace file of `size` bytes into the channel's directory.
  std::string WriteTrace(const std::string& content) {
    fs::create_directories(channel_->TraceDirectory());
    const fs::path path = fs::path(channel_->TraceDirectory()) / ("t" + std::to_string(++files_) + ".pftrace");
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }

  core::PublishedTrace Publish(const std::string& content, const std::string& title = "a trace") {
    core::TraceToPublish trace;
    trace.path = WriteTrace(content);
    trace.title = title;
    trace.file_name = "h100.pftrace";
    auto published = channel_->Publish(trace);
    EXPECT_TRUE(published.ok()) << (published.ok() ? "" : published.error().message);
    return published.ok() ? *published : core::PublishedTrace{};
  }

  fs::path dir_;
  asio::io_context io_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> guard_;
  std::thread thread_;
  std::unique_ptr<HttpSideChannel> channel_;
  const HttpSideChannel::Clock::time_point start_ = HttpSideChannel::Clock::now();
  std::atomic<int64_t> advanced_s_{0};  // the channel's clock, moved by tests (read on the io thread)
  int files_ = 0;
};

TEST_F(SideChannel, ServesTheOpenerAndTheTraceUnderItsToken) {
  Start();
  const std::string bytes = std::string("\x0a\x02\x50\x01", 4) + std::string(100000, 'x');
  const auto published = Publish(bytes);
  EXPECT_TRUE(std::regex_match(published.token, std::regex("[0-9a-f]{32}")));
  EXPECT_EQ(published.url, "http://127.0.0.1:" + std::to_string(channel_->port()) + "/p/" + published.token + "/");
  EXPECT_EQ(published.trace_url, published.url + "trace.pftrace");
  EXPECT_TRUE(std::regex_match(published.expires_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  EXPECT_TRUE(published.deep_link.empty());

  const HttpResponse page = Get(published.port, "/p/" + published.token + "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.Header("content-type"), "text/html; charset=utf-8");
  EXPECT_EQ(page.Header("content-length"), std::to_string(page.body.size()));
  EXPECT_EQ(page.Header("cache-control"), "no-store");
  EXPECT_EQ(page.Header("referrer-policy"), "no-referrer");
  const std::string csp = page.Header("content-security-policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << csp;
  std::smatch nonce;
  ASSERT_TRUE(std::regex_search(csp, nonce, std::regex("script-src 'nonce-([0-9a-f]+)'")));
  EXPECT_NE(page.body.find("<script nonce=\"" + nonce[1].str() + "\">"), std::string::npos);
  EXPECT_EQ(page.body.find("<script src"), std::string::npos);  // no external scripts
  EXPECT_NE(page.body.find("var ORIGIN = \"https://ui.perfetto.dev\";"), std::string::npos);
  EXPECT_NE(page.body.find("fetch('trace.pftrace'"), std::string::npos);
  EXPECT_NE(page.body.find("'PING'"), std::string::npos);
  EXPECT_NE(page.body.find("'PONG'"), std::string::npos);

  const HttpResponse trace = Get(published.port, "/p/" + published.token + "/trace.pftrace");
  ASSERT_EQ(trace.status, 200);
  EXPECT_EQ(trace.Header("content-length"), std::to_string(bytes.size()));
  EXPECT_EQ(trace.Header("content-type"), "application/octet-stream");
  EXPECT_EQ(trace.Header("content-disposition"), "attachment; filename=\"h100.pftrace\"");
  EXPECT_TRUE(trace.Header("access-control-allow-origin").empty());  // same-origin only on the main listener
  EXPECT_EQ(trace.body, bytes);

  const HttpResponse head = Request(published.port, "HEAD", "/p/" + published.token + "/trace.pftrace");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.Header("content-length"), std::to_string(bytes.size()));
  EXPECT_TRUE(head.body.empty());
  // The query string is not part of the route.
  EXPECT_EQ(Get(published.port, "/p/" + published.token + "/trace.pftrace?x=1").status, 200);
}

TEST_F(SideChannel, WrongTokensAre404) {
  Start();
  const auto published = Publish("trace");
  std::string wrong = published.token;
  wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
  std::string upper = published.token;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string& token :
       {wrong, upper, published.token.substr(1), published.token + "0", std::string(32, '0'), std::string()}) {
    EXPECT_EQ(Get(published.port, "/p/" + token + "/").status, 404) << token;
    EXPECT_EQ(Get(published.port, "/p/" + token + "/trace.pftrace").status, 404) << token;
  }
  const HttpResponse not_found = Get(published.port, "/p/" + wrong + "/");
  EXPECT_EQ(not_found.body, "Not found\n");
  EXPECT_EQ(not_found.Header("content-length"), "10");
}

TEST_F(SideChannel, ExpiredTokensAre404AndTheirFilesAreDeleted) {
  HttpSideChannelOptions options;
  options.token_lifetime = std::chrono::seconds(60);
  Start(options);
  const auto published = Publish("trace");
  const std::string url = "/p/" + published.token + "/trace.pftrace";
  ASSERT_EQ(Get(published.port, url).status, 200);
  ASSERT_EQ(std::distance(fs::directory_iterator(channel_->TraceDirectory()), fs::directory_iterator()), 1);
  advanced_s_ += 59;
  EXPECT_EQ(Get(published.port, url).status, 200);
  EXPECT_EQ(channel_->live_tokens(), 1u);
  advanced_s_ += 1;
  EXPECT_EQ(Get(published.port, url).status, 404);
  EXPECT_EQ(Get(published.port, "/p/" + published.token + "/").status, 404);
  EXPECT_EQ(channel_->live_tokens(), 0u);
  EXPECT_FALSE(channel_->last_expiry().has_value());
  EXPECT_EQ(std::distance(fs::directory_iterator(channel_->TraceDirectory()), fs::directory_iterator()), 0);
}

TEST_F(SideChannel, PathTraversalAndOtherPathsAre404) {
  Start();
  const auto published = Publish("trace");
  const std::string t = published.token;
  const std::vector<std::string> paths = {
      "/",
      "/p/",
      "/p",
      "/p/" + t,
      "/p/" + t + "/trace.pftrace/",
      "/p/" + t + "/../" + t + "/trace.pftrace",
      "/p/" + t + "/./trace.pftrace",
      "/p/" + t + "//trace.pftrace",
      "/p/" + t + "/%2e%2e/%2e%2e/etc/passwd",
      "/p/" + t + "/../../../../etc/passwd",
      "/p/../p/" + t + "/",
      "/p/" + t + "/trace.pftrace%00",
      "/p/" + t + "/index.html",
      "/" + t + "/trace.pftrace",  // the deep-link route exists only on its own port
      "/traces/",
      "/p/" + t + "/" + fs::path(WriteTrace("x")).filename().string(),
      "/status",
      "//etc/passwd",
      "/p/" + t + "/TRACE.PFTRACE"};
  for (const auto& path : paths) EXPECT_EQ(Get(published.port, path).status, 404) << path;
  EXPECT_EQ(testing::RawRequest(published.port, "GET ../../etc/passwd HTTP/1.1\r\n\r\n").status, 400);
  EXPECT_EQ(testing::RawRequest(published.port, "garbage\r\n\r\n").status, 400);
}

TEST_F(SideChannel, OnlyGetAndHeadAreServed) {
  Start();
  const auto published = Publish("trace");
  EXPECT_EQ(Request(published.port, "POST", "/status").status, 404);
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS", "PROPFIND"}) {
    EXPECT_EQ(Request(published.port, method, "/p/" + published.token + "/trace.pftrace").status, 404) << method;
  }
}

TEST_F(SideChannel, RefusesToBindANonLoopbackHost) {
  for (const std::string host : {"0.0.0.0", "::", "192.168.1.10", "8.8.8.8", "example.com"}) {
    asio::io_context io;
    HttpSideChannelOptions options;
    options.host = host;
    HttpSideChannel channel(io, options);
    const Status status = channel.Listen();
    ASSERT_FALSE(status.ok()) << host;
    EXPECT_NE(status.error().message.find("loopback"), std::string::npos) << status.error().message;
    core::TraceToPublish trace;
    trace.path = "/dev/null";
    EXPECT_FALSE(channel.Publish(trace).ok());
  }
  asio::io_context io;
  HttpSideChannelOptions v6;
  v6.host = "::1";
  HttpSideChannel channel(io, v6);
  if (channel.Listen().ok()) {  // hosts without IPv6 cannot bind it: not an error here
    EXPECT_GT(channel.port(), 0);
  }
}

TEST_F(SideChannel, DeepLinkFallbackOnItsOwnPort) {
  HttpSideChannelOptions options;
  options.perfetto_port = 0;  // the product uses 9001; any free port here
  Start(options);
  const auto published = Publish("deep link bytes");
  ASSERT_TRUE(channel_->perfetto_port().has_value());
  const uint16_t port = *channel_->perfetto_port();
  EXPECT_NE(port, channel_->port());
  EXPECT_EQ(published.deep_link, "https://ui.perfetto.dev/#!/?url=http://127.0.0.1:" + std::to_string(port) + "/" +
                                     published.token + "/trace.pftrace");
  const HttpResponse trace = Get(port, "/" + published.token + "/trace.pftrace");
  ASSERT_EQ(trace.status, 200);
  EXPECT_EQ(trace.body, "deep link bytes");
  EXPECT_EQ(trace.Header("access-control-allow-origin"), "https://ui.perfetto.dev");
  // The UI probes POST /status for a trace_processor RPC server: it must get a plain 404.
  const HttpResponse status = Request(port, "POST", "/status");
  EXPECT_EQ(status.status, 404);
  EXPECT_EQ(status.Header("access-control-allow-origin"), "https://ui.perfetto.dev");
  EXPECT_EQ(Get(port, "/p/" + published.token + "/").status, 404);  // no opener page there
  EXPECT_EQ(Get(port, "/" + std::string(32, 'a') + "/trace.pftrace").status, 404);
  // A CORS / private-network preflight for the trace.
  const HttpResponse preflight = Request(port, "OPTIONS", "/" + published.token + "/trace.pftrace",
                                         "Origin: https://ui.perfetto.dev\r\nAccess-Control-Request-Method: GET\r\n"
                                         "Access-Control-Request-Private-Network: true\r\n");
  EXPECT_EQ(preflight.status, 204);
  EXPECT_EQ(preflight.Header("access-control-allow-private-network"), "true");
  EXPECT_EQ(preflight.Header("access-control-allow-methods"), "GET, HEAD");
}

TEST_F(SideChannel, ABusyDeepLinkPortCostsOnlyTheDeepLink) {
  asio::io_context other;
  asio::ip::tcp::acceptor taken(other, {asio::ip::address_v4::loopback(), 0});  // someone else holds the port
  HttpSideChannelOptions options;
  options.perfetto_port = taken.local_endpoint().port();
  Start(options);
  const auto published = Publish("bytes");
  EXPECT_FALSE(channel_->perfetto_port().has_value());
  EXPECT_NE(channel_->perfetto_port_problem().find(std::to_string(*options.perfetto_port)), std::string::npos)
      << channel_->perfetto_port_problem();
  EXPECT_TRUE(published.deep_link.empty());
  EXPECT_EQ(Get(published.port, "/p/" + published.token + "/trace.pftrace").body, "bytes");
}

// 512 MiB, served while the process's peak memory stays put: the file is never loaded whole.
TEST_F(SideChannel, StreamsLargeTracesWithoutLoadingThem) {
  Start();
  constexpr int64_t kSize = int64_t{512} << 20;
  fs::create_directories(channel_->TraceDirectory());
  const std::string path = (fs::path(channel_->TraceDirectory()) / "big.pftrace").string();
  {
    const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, kSize), 0);  // sparse, except one marker per MiB
    for (int64_t mib = 0; mib < (kSize >> 20); ++mib) {
      const std::string marker = "MiB" + std::to_string(mib);
      ASSERT_EQ(::pwrite(fd, marker.data(), marker.size(), mib << 20), static_cast<ssize_t>(marker.size()));
    }
    ::close(fd);
  }
  auto peak_kb = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    }
    return 0L;
  };
  core::TraceToPublish trace;
  trace.path = path;
  auto published = channel_->Publish(trace);
  ASSERT_TRUE(published.ok());
  const long before = peak_kb();
  int64_t received = 0;
  int markers_ok = 0;
  std::string window;  // the bytes around each MiB boundary
  const HttpResponse response =
      Request(published->port, "GET", "/p/" + published->token + "/trace.pftrace", "", [&](std::string_view piece) {
        // Only the first 8 bytes of each MiB matter: visit just those.
        const int64_t end = received + static_cast<int64_t>(piece.size());
        for (int64_t mib = received >> 20; (mib << 20) < end; ++mib) {
          for (int64_t at = std::max(received, mib << 20); at < std::min(end, (mib << 20) + 8); ++at) {
            if (at == (mib << 20)) window.clear();
            window += piece[static_cast<size_t>(at - received)];
            if (at == (mib << 20) + 7 && window.rfind("MiB" + std::to_string(mib), 0) == 0) {
              ++markers_ok;
            }
          }
        }
        received = end;
      });
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.Header("content-length"), std::to_string(kSize));
  EXPECT_EQ(received, kSize);
  EXPECT_EQ(markers_ok, kSize >> 20);
  EXPECT_LT(peak_kb() - before, 64 * 1024) << "the peak resident size grew while serving a 512 MiB file";
}

TEST_F(SideChannel, OversizedAndSilentRequests) {
  HttpSideChannelOptions options;
  options.request_timeout = std::chrono::seconds(1);
  Start(options);
  const auto published = Publish("trace");
  const HttpResponse big = testing::RawRequest(
      published.port, "GET /p/" + published.token + "/ HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n");
  EXPECT_EQ(big.status, 431);
  const auto started = std::chrono::steady_clock::now();
  const HttpResponse silent = testing::RawRequest(published.port, "GET /p/");  // never finishes its head
  EXPECT_EQ(silent.status, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

TEST_F(SideChannel, AtMostMaxTracesArePublishedAndTheOldestIsRetiredWithItsFile) {
  HttpSideChannelOptions options;
  options.max_traces = 3;
  Start(options);
  std::vector<core::PublishedTrace> published;
  for (int i = 0; i < 5; ++i) {
    published.push_back(Publish("trace " + std::to_string(i)));
    advanced_s_ += 1;  // distinct expiry times: the first published expires first
  }
  EXPECT_EQ(channel_->live_tokens(), 3u);
  EXPECT_EQ(std::distance(fs::directory_iterator(channel_->TraceDirectory()), fs::directory_iterator()), 3);
  for (int i = 0; i < 5; ++i) {
    const HttpResponse got = Get(published[i].port, "/p/" + published[i].token + "/trace.pftrace");
    EXPECT_EQ(got.status, i < 2 ? 404 : 200) << i;
    if (i >= 2) EXPECT_EQ(got.body, "trace " + std::to_string(i));
  }
}

TEST_F(SideChannel, TokensAreDistinctAndStopDeletesTheFiles) {
  HttpSideChannelOptions options;
  options.max_traces = 64;
  Start(options);
  std::set<std::string> tokens;
  for (int i = 0; i < 50; ++i) tokens.insert(Publish("t" + std::to_string(i)).token);
  EXPECT_EQ(tokens.size(), 50u);
  EXPECT_EQ(channel_->live_tokens(), 50u);
  StopIo();
  channel_->Stop();
  EXPECT_EQ(channel_->live_tokens(), 0u);
  EXPECT_EQ(std::distance(fs::directory_iterator(channel_->TraceDirectory()), fs::directory_iterator()), 0);
  core::TraceToPublish missing;
  missing.path = (dir_ / "nope.pftrace").string();
  auto published = channel_->Publish(missing);
  ASSERT_FALSE(published.ok());
  EXPECT_EQ(published.error().kind, ErrorKind::kNotFound);
}

TEST(PerfettoOrigin, Checked) {
  for (const std::string ok : {"https://ui.perfetto.dev", "http://127.0.0.1:10000", "http://[::1]:8080",
                               "https://perfetto.internal.example.com:8443", "http://localhost"}) {
    EXPECT_TRUE(CheckPerfettoOrigin(ok).ok()) << ok;
  }
  for (const std::string bad : {"https://ui.perfetto.dev/", "javascript:alert(1)", "ui.perfetto.dev", "https://a b",
                                "https://ui.perfetto.dev/#!/", "ftp://x", "", "https://x\"y", "https://x:123456"}) {
    EXPECT_FALSE(CheckPerfettoOrigin(bad).ok()) << bad;
  }
  asio::io_context io;
  HttpSideChannelOptions options;
  options.perfetto_origin = "https://evil.example/path";
  HttpSideChannel channel(io, options);
  EXPECT_FALSE(channel.Listen().ok());
}

TEST(OpenerPage, EscapesWhatItEmbeds) {
  OpenerPageParams p;
  p.perfetto_origin = "https://ui.perfetto.dev";
  p.title = "</script><script>alert(1)</script> & \"q\" \xE2\x80\xA8";
  p.file_name = "a\"b.pftrace";
  p.nonce = "abc123";
  const std::string page = RenderOpenerPage(p);
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_NE(page.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"), std::string::npos);
  EXPECT_NE(
      page.find(
          R"(var TITLE = "\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e \u0026 \"q\" \u2028";)"),
      std::string::npos);
  EXPECT_NE(page.find("download=\"a&quot;b.pftrace\""), std::string::npos);
  EXPECT_EQ(ScriptStringLiteral("a\nb\x01"), R"("a\nb\u0001")");
}

}  // namespace
}  // namespace nsys::transport
