#include "nsys/transport/http_side_channel.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <utility>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/support/cache_dir.h"
#include "nsys/support/log.h"
#include "nsys/transport/accept_backoff.h"
#include "nsys/transport/http_opener_page.h"

namespace nsys::transport {

namespace {

constexpr size_t kMaxRequestHead = 8192;
constexpr size_t kTokenHexLength = 32;
constexpr size_t kFileChunk = 256 * 1024;

// 16 random bytes as 32 hex digits: /dev/urandom, else std::random_device.
std::string RandomHex(size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  bool ok = false;
  if (std::FILE* f = std::fopen("/dev/urandom", "rb")) {
    ok = std::fread(raw.data(), 1, raw.size(), f) == raw.size();
    std::fclose(f);
  }
  if (!ok) {
    std::random_device device;
    for (auto& b : raw) b = static_cast<unsigned char>(device());
  }
  std::string hex;
  for (unsigned char b : raw) hex += fmt::format("{:02x}", b);
  return hex;
}

bool IsHexToken(std::string_view s) {
  if (s.size() != kTokenHexLength) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Compares without an early exit, so response timing says nothing about how much of a guess was right.
bool SameToken(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]);
  return diff == 0;
}

std::string IsoUtc(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct Request {
  std::string method;
  std::string path;                        // without the query string
  bool private_network_preflight = false;  // Access-Control-Request-Private-Network: true
};

// Parses "METHOD TARGET HTTP/1.x" and the headers we care about; nullopt for anything malformed.
std::optional<Request> ParseRequest(std::string_view head) {
  const size_t line_end = head.find("\r\n");
  const std::string_view line = head.substr(0, line_end);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return std::nullopt;
  Request r;
  r.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (version.rfind("HTTP/1.", 0) != 0 || target.empty() || target.front() != '/') return std::nullopt;
  target = target.substr(0, target.find_first_of("?#"));
  r.path = std::string(target);
  std::string lower(head.substr(line_end == std::string_view::npos ? head.size() : line_end));
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  r.private_network_preflight = lower.find("\r\naccess-control-request-private-network: true") != std::string::npos;
  return r;
}

}  // namespace

Status CheckPerfettoOrigin(const std::string& origin) {
  if (auto checked = protocol::CheckWebOrigin(origin); !checked) return checked.error();
  return {};
}

struct HttpSideChannel::Impl : std::enable_shared_from_this<Impl> {
  struct Entry {
    std::string path;
    std::string title;
    std::string file_name;
    std::string origin;
    Clock::time_point expires;
  };

  Impl(asio::io_context& io_context, HttpSideChannelOptions o)
      : io(io_context), options(std::move(o)), main_acceptor(io_context), perfetto_acceptor(io_context) {}
  ~Impl() { DropAll(); }

  Clock::time_point Now() const {
    std::lock_guard lock(mu);
    return now ? now() : Clock::now();
  }

  // Finds a live entry; drops expired ones (and deletes their files) on the way.
  std::optional<Entry> Find(std::string_view token) {
    std::lock_guard lock(mu);
    Sweep();
    for (const auto& [t, entry] : entries) {
      if (SameToken(t, token)) return entry;
    }
    return std::nullopt;
  }

  void Sweep() {  // under mu
    const Clock::time_point t = now ? now() : Clock::now();
    for (auto it = entries.begin(); it != entries.end();) {
      if (it->second.expires <= t) {
        std::error_code ec;
        std::filesystem::remove(it->second.path, ec);  // an open download keeps its file descriptor
        support::LogInfo(fmt::format("perfetto side channel: token {}... expired", it->first.substr(0, 6)));
        it = entries.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Makes room for one more entry under options.max_traces: the earliest to expire (= the oldest, as every token
  // has the same lifetime) goes first, with its file.
  void RetireOldest() {  // under mu
    while (!entries.empty() && entries.size() >= std::max<size_t>(1, options.max_traces)) {
      auto oldest = entries.begin();
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it->second.expires < oldest->second.expires) oldest = it;
      }
      std::error_code ec;
      std::filesystem::remove(oldest->second.path, ec);
      support::LogInfo(fmt::format("perfetto side channel: token {}... retired (at most {} traces are published)",
                                   oldest->first.substr(0, 6), options.max_traces));
      entries.erase(oldest);
    }
  }

  void DropAll() {
    std::lock_guard lock(mu);
    for (const auto& [token, entry] : entries) {
      std::error_code ec;
      std::filesystem::remove(entry.path, ec);
    }
    entries.clear();
  }

  void Accept(asio::ip::tcp::acceptor& acceptor, bool perfetto_route);

  asio::io_context& io;
  HttpSideChannelOptions options;
  asio::ip::tcp::acceptor main_acceptor;
  asio::ip::tcp::acceptor perfetto_acceptor;
  AcceptBackoff main_backoff{"perfetto side channel"};  // io thread only
  AcceptBackoff perfetto_backoff{"perfetto side channel (deep-link port)"};
  mutable std::mutex mu;
  std::map<std::string, Entry> entries;
  std::function<Clock::time_point()> now;
  bool listening = false;
  std::string url_host;  // "127.0.0.1" or "[::1]"
  uint16_t port = 0;
  std::optional<uint16_t> bound_perfetto_port;
  std::string perfetto_port_problem;
};

namespace {

// One request per connection ("Connection: close"): read the head, answer, stream a file if asked, close.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(std::shared_ptr<HttpSideChannel::Impl> channel, asio::ip::tcp::socket socket, bool perfetto_route)
      : channel_(std::move(channel)),
        socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        perfetto_route_(perfetto_route) {}
  ~HttpConnection() {
    if (fd_ >= 0) ::close(fd_);
  }

  void Start() {
    timer_.expires_after(channel_->options.request_timeout);
    timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
      if (!ec) self->Close();
    });
    asio::async_read_until(socket_, asio::dynamic_buffer(head_, kMaxRequestHead), "\r\n\r\n",
                           [self = shared_from_this()](const asio::error_code& ec, size_t n) { self->OnHead(ec, n); });
  }

 private:
  void OnHead(const asio::error_code& ec, size_t n) {
    timer_.cancel();
    if (ec == asio::error::not_found) return Respond(431, "Request Header Fields Too Large", {}, "Request too large\n");
    if (ec) return Close();
    auto request = ParseRequest(std::string_view(head_).substr(0, n));
    if (!request) return Respond(400, "Bad Request", {}, "Bad request\n");
    Route(*request);
  }

  void Route(const Request& r) {
    std::string_view path = r.path;
    std::string_view token;
    bool opener = false;
    if (!perfetto_route_) {  // /p/<token>/ and /p/<token>/trace.pftrace
      if (path.rfind("/p/", 0) == 0 && path.size() >= 3 + kTokenHexLength + 1 && path[3 + kTokenHexLength] == '/') {
        token = path.substr(3, kTokenHexLength);
        const std::string_view rest = path.substr(3 + kTokenHexLength + 1);
        if (rest.empty())
          opener = true;
        else if (rest != "trace.pftrace")
          token = {};
      }
    } else if (path.size() == 1 + kTokenHexLength + 14 && path.substr(1 + kTokenHexLength) == "/trace.pftrace") {
      token = path.substr(1, kTokenHexLength);  // /<token>/trace.pftrace
    }
    std::optional<HttpSideChannel::Impl::Entry> entry;
    if (IsHexToken(token)) entry = channel_->Find(token);
    const bool readable = r.method == "GET" || r.method == "HEAD";
    if (entry && perfetto_route_ && r.method == "OPTIONS") return Preflight(*entry, r);
    if (!entry || !readable) return NotFound();
    head_only_ = r.method == "HEAD";
    if (opener) return ServeOpener(*entry);
    ServeTrace(*entry);
  }

  std::string CommonHeaders(const HttpSideChannel::Impl::Entry* entry) const {
    std::string h =
        "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
        "Connection: close\r\n";
    if (perfetto_route_) {  // the UI reads these cross-origin (a 404 too: it probes POST /status)
      h += fmt::format("Access-Control-Allow-Origin: {}\r\nVary: Origin\r\n",
                       entry ? entry->origin : channel_->options.perfetto_origin);
    }
    return h;
  }

  void NotFound() { Respond(404, "Not Found", {}, "Not found\n"); }

  void Preflight(const HttpSideChannel::Impl::Entry& entry, const Request& r) {
    std::string extra = "Access-Control-Allow-Methods: GET, HEAD\r\nAccess-Control-Max-Age: 600\r\n";
    if (r.private_network_preflight) extra += "Access-Control-Allow-Private-Network: true\r\n";
    Respond(204, "No Content", extra + CommonHeaders(&entry), "", /*with_common=*/false);
  }

  void ServeOpener(const HttpSideChannel::Impl::Entry& entry) {
    OpenerPageParams page;
    page.perfetto_origin = entry.origin;
    page.title = entry.title;
    page.file_name = entry.file_name;
    page.nonce = RandomHex(16);
    std::string headers = fmt::format(
        "Content-Type: text/html; charset=utf-8\r\n"
        "Content-Security-Policy: default-src 'none'; script-src 'nonce-{0}'; style-src 'nonce-{0}'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n",
        page.nonce);
    Respond(200, "OK", headers + CommonHeaders(&entry), RenderOpenerPage(page), /*with_common=*/false);
  }

  void ServeTrace(const HttpSideChannel::Impl::Entry& entry) {
    fd_ = ::open(entry.path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd_ < 0 || ::fstat(fd_, &st) != 0) {
      support::LogWarn(fmt::format("perfetto side channel: cannot open {}", entry.path));
      return NotFound();
    }
    remaining_ = static_cast<uint64_t>(st.st_size);
    std::string disposition = entry.file_name;
    for (auto& c : disposition) {
      if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
    }
    out_ = fmt::format(
        "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n"
        "Content-Disposition: attachment; filename=\"{}\"\r\n{}\r\n",
        remaining_, disposition, CommonHeaders(&entry));
    if (head_only_) remaining_ = 0;
    asio::async_write(socket_, asio::buffer(out_), [self = shared_from_this()](const asio::error_code& ec, size_t) {
      if (ec) return self->Close();
      self->SendFileChunk();
    });
  }

  // Streams the file in fixed chunks: memory stays at one chunk, whatever the trace size.
  void SendFileChunk() {
    if (remaining_ == 0) return Linger();
    chunk_.resize(static_cast<size_t>(std::min<uint64_t>(kFileChunk, remaining_)));
    ssize_t n;
    do {
      n = ::pread(fd_, chunk_.data(), chunk_.size(), static_cast<off_t>(offset_));
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return Close();  // the file shrank: the client sees a short body and reports it
    chunk_.resize(static_cast<size_t>(n));
    offset_ += static_cast<uint64_t>(n);
    remaining_ -= static_cast<uint64_t>(n);
    asio::async_write(socket_, asio::buffer(chunk_), [self = shared_from_this()](const asio::error_code& ec, size_t) {
      if (ec) return self->Close();
      self->SendFileChunk();
    });
  }

  void Respond(int status, std::string_view reason, const std::string& headers, std::string body,
               bool with_common = true) {
    out_ = fmt::format("HTTP/1.1 {} {}\r\n{}", status, reason, headers);
    if (with_common) out_ += CommonHeaders(nullptr);
    if (status != 204) {
      if (headers.find("Content-Type:") == std::string::npos) out_ += "Content-Type: text/plain; charset=utf-8\r\n";
      out_ += fmt::format("Content-Length: {}\r\n", body.size());
    }
    out_ += "\r\n";
    if (!head_only_) out_ += body;
    asio::async_write(socket_, asio::buffer(out_), [self = shared_from_this()](const asio::error_code& ec, size_t) {
      if (ec) return self->Close();
      self->Linger();
    });
  }

  // Closing with unread request bytes would reset the connection and could destroy the response in flight, so
  // half-close and drain what the client still sends (for at most two seconds) before closing.
  void Linger() {
    asio::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    timer_.expires_after(std::chrono::seconds(2));
    timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
      if (!ec) self->Close();
    });
    Drain();
  }
  void Drain() {
    socket_.async_read_some(asio::buffer(drain_), [self = shared_from_this()](const asio::error_code& ec, size_t) {
      if (ec) return self->Close();
      self->Drain();
    });
  }

  void Close() {
    asio::error_code ignored;
    timer_.cancel();
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  std::shared_ptr<HttpSideChannel::Impl> channel_;
  asio::ip::tcp::socket socket_;
  asio::steady_timer timer_;
  bool perfetto_route_;
  bool head_only_ = false;
  std::string head_;
  std::string out_;
  std::vector<char> chunk_;
  std::array<char, 4096> drain_{};
  int fd_ = -1;
  uint64_t offset_ = 0;
  uint64_t remaining_ = 0;
};

}  // namespace

void HttpSideChannel::Impl::Accept(asio::ip::tcp::acceptor& acceptor, bool perfetto_route) {
  acceptor.async_accept(
      [self = shared_from_this(), &acceptor, perfetto_route](const asio::error_code& ec, asio::ip::tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
        AcceptBackoff& backoff = perfetto_route ? self->perfetto_backoff : self->main_backoff;
        if (ec) {
          // Out of descriptors (or memory): wait, or the listener's readiness would spin this loop at 100% CPU.
          auto timer = std::make_shared<asio::steady_timer>(self->io, backoff.OnFailure(ec));
          timer->async_wait([self, timer, &acceptor, perfetto_route](const asio::error_code& wait_ec) {
            if (!wait_ec && acceptor.is_open()) self->Accept(acceptor, perfetto_route);
          });
          return;
        }
        backoff.OnSuccess();
        std::make_shared<HttpConnection>(self, std::move(socket), perfetto_route)->Start();
        self->Accept(acceptor, perfetto_route);
      });
}

HttpSideChannel::HttpSideChannel(asio::io_context& io, HttpSideChannelOptions options)
    : impl_(std::make_shared<Impl>(io, std::move(options))) {}

HttpSideChannel::~HttpSideChannel() {
  Stop();
}

Status HttpSideChannel::Listen() {
  std::lock_guard lock(impl_->mu);
  if (impl_->listening) return {};
  const auto& o = impl_->options;
  if (Status origin = CheckPerfettoOrigin(o.perfetto_origin); !origin.ok()) return origin;
  asio::error_code ec;
  asio::ip::address address;
  if (o.host == "localhost") {
    address = asio::ip::address_v4::loopback();
  } else {
    address = asio::ip::make_address(o.host, ec);
    if (ec || !address.is_loopback()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("The Perfetto side channel binds loopback addresses only (127.0.0.1, ::1); "
                                   "'{}' was refused: every user of this machine could reach it otherwise.",
                                   o.host));
    }
  }
  auto open = [&](asio::ip::tcp::acceptor& acceptor, const asio::ip::address& at, uint16_t port) -> Expected<uint16_t> {
    const asio::ip::tcp::endpoint endpoint(at, port);
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      asio::error_code ignored;
      acceptor.close(ignored);
      return MakeError(ErrorKind::kInternal, fmt::format("Cannot listen on {}:{} for the Perfetto side channel: {}.",
                                                         at.to_string(), port, ec.message()));
    }
    return acceptor.local_endpoint().port();
  };
  auto main_port = open(impl_->main_acceptor, address, o.port);
  if (!main_port) return main_port.error();
  if (o.perfetto_port) {
    // The deep link only accepts exactly http://127.0.0.1:<port>, whatever the main listener's address.
    // A busy port (another trace_processor, another nsys-ai) costs only the deep link, not the opener page.
    auto compat = open(impl_->perfetto_acceptor, asio::ip::address_v4::loopback(), *o.perfetto_port);
    if (compat) {
      impl_->bound_perfetto_port = *compat;
      impl_->Accept(impl_->perfetto_acceptor, true);
    } else {
      impl_->perfetto_port_problem = compat.error().message + " The deep link is not available; the opener page is.";
      support::LogWarn(impl_->perfetto_port_problem);
    }
  }
  impl_->port = *main_port;
  impl_->url_host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  impl_->listening = true;
  impl_->Accept(impl_->main_acceptor, false);
  return {};
}

std::string HttpSideChannel::TraceDirectory() const {
  const std::string& cache = impl_->options.cache_dir;
  return support::ResolveCacheDir(cache) + "/traces";
}

Expected<core::PublishedTrace> HttpSideChannel::Publish(core::TraceToPublish trace) {
  Impl::Entry entry;
  entry.origin = trace.perfetto_origin.empty() ? impl_->options.perfetto_origin : trace.perfetto_origin;
  if (Status origin = CheckPerfettoOrigin(entry.origin); !origin.ok()) return origin.error();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(trace.path, ec)) {
    return MakeError(ErrorKind::kNotFound, fmt::format("The trace '{}' to publish does not exist.", trace.path));
  }
  if (Status listening = Listen(); !listening.ok()) return listening.error();
  entry.path = std::move(trace.path);
  entry.title = std::move(trace.title);
  entry.file_name = trace.file_name.empty() ? std::string("trace.pftrace") : std::move(trace.file_name);
  const std::string token = RandomHex(kTokenHexLength / 2);

  core::PublishedTrace published;
  std::lock_guard lock(impl_->mu);
  impl_->Sweep();
  impl_->RetireOldest();
  const Clock::time_point now = impl_->now ? impl_->now() : Clock::now();
  entry.expires = now + impl_->options.token_lifetime;
  const auto lifetime = std::chrono::duration_cast<std::chrono::system_clock::duration>(impl_->options.token_lifetime);
  published.port = impl_->port;
  published.token = token;
  published.url = fmt::format("http://{}:{}/p/{}/", impl_->url_host, impl_->port, token);
  published.trace_url = published.url + "trace.pftrace";
  published.expires_at = IsoUtc(std::chrono::system_clock::now() + lifetime);
  if (impl_->bound_perfetto_port) {
    published.deep_link = fmt::format("{}/#!/?url=http://127.0.0.1:{}/{}/trace.pftrace", entry.origin,
                                      *impl_->bound_perfetto_port, token);
  }
  impl_->entries.emplace(token, std::move(entry));
  return published;
}

uint16_t HttpSideChannel::port() const {
  std::lock_guard lock(impl_->mu);
  return impl_->port;
}

std::optional<uint16_t> HttpSideChannel::perfetto_port() const {
  std::lock_guard lock(impl_->mu);
  return impl_->bound_perfetto_port;
}

std::string HttpSideChannel::perfetto_port_problem() const {
  std::lock_guard lock(impl_->mu);
  return impl_->perfetto_port_problem;
}

size_t HttpSideChannel::live_tokens() const {
  std::lock_guard lock(impl_->mu);
  impl_->Sweep();
  return impl_->entries.size();
}

std::optional<HttpSideChannel::Clock::time_point> HttpSideChannel::last_expiry() const {
  std::lock_guard lock(impl_->mu);
  impl_->Sweep();
  std::optional<Clock::time_point> last;
  for (const auto& [token, entry] : impl_->entries) {
    if (!last || entry.expires > *last) last = entry.expires;
  }
  return last;
}

void HttpSideChannel::Stop() {
  {
    std::lock_guard lock(impl_->mu);
    asio::error_code ignored;
    impl_->main_acceptor.close(ignored);
    impl_->perfetto_acceptor.close(ignored);
    impl_->listening = false;
  }
  impl_->DropAll();
}

void HttpSideChannel::SetClockForTesting(std::function<Clock::time_point()> now) {
  std::lock_guard lock(impl_->mu);
  impl_->now = std::move(now);
}

}  // namespace nsys::transport
