#include "nsys/transport/tcp.h"

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <filesystem>
#include <string_view>
#include <utility>

#include "nsys/lsp/session.h"
#include "nsys/support/human_bytes.h"
#include "nsys/support/log.h"
#include "nsys/transport/accept_backoff.h"

namespace nsys::transport {

namespace {

using Clock = std::chrono::steady_clock;
using Socket = asio::generic::stream_protocol::socket;  // a TCP or a Unix-domain stream

double Seconds(std::chrono::milliseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

}  // namespace

// One client. Lives on the io_context's thread, except Write(), which worker threads call: it queues the bytes and
// posts the actual write to the io thread.
//
// Reading is a small state machine on the io thread: at most one read in flight; MaybeRead() starts the next one
// unless reading stopped for good (exit, refusal, timeout) or a TcpLimits bound is reached (paused). Whatever lowers
// a bound (a write completing, a request answering) calls MaybeRead() again.
class TcpConnection : public std::enable_shared_from_this<TcpConnection> {
 public:
  TcpConnection(TcpServer& server, Socket socket, const lsp::ServerOptions& options, uint64_t id)
      : server_(server),
        options_(options),
        socket_(std::move(socket)),
        id_(id),
        flush_timer_(socket_.get_executor()),
        idle_timer_(socket_.get_executor()),
        accepted_at_(Clock::now()),
        last_read_(accepted_at_) {}

  void Start() {
    std::weak_ptr<TcpConnection> weak = weak_from_this();
    session_ = std::make_unique<lsp::Session>(
        server_.workspace_, server_.executor_,
        [weak](std::string bytes) {
          if (auto self = weak.lock()) self->Write(std::move(bytes));
        },
        options_, server_.limits_);
    session_->dispatcher().SetExitHandler([weak](int code) {
      if (auto self = weak.lock()) {
        support::LogInfo(fmt::format("connection {}: exit (code {}); closing it", self->id_, code));
        self->CloseAfterFlush();
      }
    });
    session_->SetRefusedHandler([weak](const std::string&) {
      if (auto self = weak.lock()) {
        support::LogInfo(fmt::format("connection {}: not authenticated; closing it", self->id_));
        self->CloseAfterFlush();
      }
    });
    // Worker threads: a request answered may bring a paused connection back under its bounds.
    session_->dispatcher().SetRequestDoneHandler([weak] {
      if (auto self = weak.lock()) {
        if (self->paused_.load()) asio::post(self->socket_.get_executor(), [self] { self->MaybeRead(); });
      }
    });
    // Messages already read wait in the session while the connection is over a bound (see MaybeRead).
    session_->SetAdmission([this] { return !OverBounds(); });
    ArmIdleTimer();
    MaybeRead();
  }

  void Write(std::string bytes) {
    std::lock_guard lock(mu_);
    if (closed_ || overflowed_) return;
    queued_bytes_ += bytes.size();
    queue_.push_back(std::move(bytes));
    if (queue_.size() >= 2 && queued_bytes_ - queue_.front().size() > limits().max_unread_reply_bytes) {
      // A client that reads none of its replies: what waits is dropped now, and the connection closed on the io thread.
      overflowed_ = true;
      queue_.resize(1);  // the front may be in the middle of a write
      queued_bytes_ = queue_.front().size();
      support::LogWarn(fmt::format("connection {}: closed, its client left more than {} of replies unread", id_,
                                   support::HumanBytes(limits().max_unread_reply_bytes)));
      asio::post(socket_.get_executor(), [self = shared_from_this()] { self->Close(); });
      return;
    }
    if (writing_) return;
    writing_ = true;
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->WriteFront(); });
  }

  // io thread.
  void Close() {
    {
      std::lock_guard lock(mu_);
      if (closed_) return;
      closed_ = true;
      queue_.clear();
      queued_bytes_ = 0;
    }
    session_->OnDisconnect();  // cancels this client's running requests
    flush_timer_.cancel();
    idle_timer_.cancel();
    asio::error_code ignored;
    socket_.shutdown(asio::socket_base::shutdown_both, ignored);
    socket_.close(ignored);
    support::LogInfo(fmt::format("connection {} closed", id_));
    server_.Remove(shared_from_this());
  }

  uint64_t id() const { return id_; }

 private:
  const TcpLimits& limits() const { return server_.tcp_limits_; }

  // True while this connection has as much in flight as it may: replies it has not read, or requests not answered.
  bool OverBounds() {
    {
      std::lock_guard lock(mu_);
      if (queued_bytes_ >= limits().max_unsent_reply_bytes) return true;
    }
    auto& dispatcher = session_->dispatcher();
    return dispatcher.running_requests() >= limits().max_requests_in_flight ||
           dispatcher.running_request_bytes() >= limits().max_request_bytes_in_flight;
  }

  void MaybeRead() {
    if (reading_ || stop_reading_ || !socket_.is_open()) return;
    // paused_ is set before the bounds are checked: a request answering meanwhile then sees it and calls back.
    const bool was_paused = paused_.exchange(true);
    session_->Pump();           // messages read earlier and held back go first
    if (stop_reading_) return;  // what was pumped ended the session (exit, refusal)
    if (session_->has_pending() || OverBounds()) {
      if (!was_paused) support::LogDebug(fmt::format("connection {}: paused (too much in flight)", id_));
      return;
    }
    paused_ = false;
    if (was_paused) {
      support::LogDebug(fmt::format("connection {}: resumed", id_));
      last_read_ = Clock::now();  // the time spent paused was ours, not the client's
    }
    Read();
  }

  void Read() {
    reading_ = true;
    socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this()](asio::error_code ec, size_t n) {
      self->reading_ = false;
      if (ec) {
        if (ec != asio::error::operation_aborted) {
          support::LogInfo(
              fmt::format("connection {}: {}", self->id_, ec == asio::error::eof ? "peer closed" : ec.message()));
        }
        self->Close();
        return;
      }
      self->last_read_ = Clock::now();
      self->session_->OnBytes(std::string_view(self->buffer_.data(), n));
      self->MaybeRead();
    });
  }

  void WriteFront() {
    std::unique_lock lock(mu_);
    if (closed_ || queue_.empty()) {
      writing_ = false;
      return;
    }
    const std::string& front = queue_.front();  // deque elements stay put while others are appended
    lock.unlock();
    asio::async_write(socket_, asio::buffer(front), [self = shared_from_this()](asio::error_code ec, size_t) {
      if (ec) {
        self->Close();
        return;
      }
      bool more = false;
      {
        std::lock_guard guard(self->mu_);
        if (!self->queue_.empty()) {
          self->queued_bytes_ -= self->queue_.front().size();
          self->queue_.pop_front();
        }
        more = !self->queue_.empty();
        if (!more) self->writing_ = false;
      }
      if (more) self->WriteFront();
      if (self->paused_.load()) self->MaybeRead();
    });
  }

  // The next moment CheckIdle() may have something to do.
  Clock::time_point NextIdleCheck() const {
    const auto timeout = limits().idle_timeout;
    Clock::time_point next = Clock::now() + timeout;
    if (!session_->authenticated()) next = std::min(next, accepted_at_ + timeout);
    if (session_->has_partial_frame()) next = std::min(next, last_read_ + timeout);
    return next;
  }

  void ArmIdleTimer() {
    idle_timer_.expires_at(NextIdleCheck());
    idle_timer_.async_wait([self = shared_from_this()](asio::error_code ec) {
      if (!ec) self->CheckIdle();
    });
  }

  // io thread. Connections that hold a descriptor and a buffer without using them are closed, with a reason.
  void CheckIdle() {
    if (!socket_.is_open() || stop_reading_) return;
    const auto timeout = limits().idle_timeout;
    const auto now = Clock::now();
    if (!session_->authenticated() && !session_->refused() && now - accepted_at_ >= timeout) {
      return Expire(protocol::kUnauthorized,
                    fmt::format("unauthorized: no 'initialize' with the token within {} s of connecting (the idle "
                                "timeout; see --idle-timeout)",
                                Seconds(timeout)));
    }
    if (session_->has_partial_frame() && !paused_.load() && now - last_read_ >= timeout) {
      return Expire(
          protocol::kRequestFailed,
          fmt::format("a message stayed incomplete for {} s (the idle timeout; see --idle-timeout)", Seconds(timeout)));
    }
    ArmIdleTimer();
  }

  void Expire(int code, const std::string& message) {
    support::LogInfo(fmt::format("connection {}: closing it: {}", id_, message));
    session_->dispatcher().SendResponse(protocol::MakeError({}, code, message));
    CloseAfterFlush();
  }

  // After `exit`, a refusal or a timeout: stop reading; once the requests in flight have answered and everything
  // queued is written, close. A client that never reads what is left gets the idle timeout, then is closed anyway.
  void CloseAfterFlush() {
    stop_reading_ = true;
    flush_deadline_ = Clock::now() + limits().idle_timeout;
    CheckFlushed();
  }

  // io thread. Replies are queued by worker threads at any time, so this polls rather than chase every event.
  void CheckFlushed() {
    bool done = false;
    {
      std::lock_guard lock(mu_);
      if (closed_) return;
      done = !writing_ && queue_.empty() && session_->dispatcher().running_requests() == 0;
    }
    if (done || Clock::now() >= flush_deadline_) return Close();
    flush_timer_.expires_after(std::chrono::milliseconds(10));
    flush_timer_.async_wait([self = shared_from_this()](asio::error_code ec) {
      if (!ec) self->CheckFlushed();
    });
  }

  TcpServer& server_;
  const lsp::ServerOptions& options_;  // the server's, for TCP or for the Unix socket
  Socket socket_;
  const uint64_t id_;
  asio::steady_timer flush_timer_;
  asio::steady_timer idle_timer_;
  std::unique_ptr<lsp::Session> session_;
  std::array<char, 64 * 1024> buffer_{};
  // io thread only.
  bool reading_ = false;
  bool stop_reading_ = false;
  const Clock::time_point accepted_at_;
  Clock::time_point last_read_;
  Clock::time_point flush_deadline_{};
  std::atomic<bool> paused_{false};  // read by the request-done handler on worker threads

  std::mutex mu_;
  std::deque<std::string> queue_;
  size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool closed_ = false;
  bool overflowed_ = false;  // replies left unread past max_unread_reply_bytes: closing
};

TcpServer::TcpServer(asio::io_context& io, core::Workspace& workspace, support::Executor& executor,
                     lsp::ServerOptions options, protocol::FramingLimits limits, TcpLimits tcp_limits)
    : io_(io),
      workspace_(workspace),
      executor_(executor),
      options_(std::move(options)),
      limits_(limits),
      tcp_limits_(tcp_limits),
      acceptor_(io),
      backoff_timer_(io),
      backoff_(std::make_unique<AcceptBackoff>("TCP server")),
      unix_acceptor_(io),
      unix_backoff_timer_(io),
      unix_backoff_(std::make_unique<AcceptBackoff>("Unix socket server")) {
  unix_options_ = options_;
  unix_options_.auth_token.clear();  // the socket's directory and SO_PEERCRED admit only this user
}

TcpServer::~TcpServer() {
  Stop();
}

Expected<uint16_t> TcpServer::Listen(const std::string& host, uint16_t port) {
  asio::error_code ec;
  asio::ip::tcp::resolver resolver(io_);
  auto endpoints = resolver.resolve(host, std::to_string(port), asio::ip::resolver_base::numeric_service, ec);
  if (ec || endpoints.empty()) {
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("cannot resolve host '{}': {}", host, ec.message()));
  }
  const asio::ip::tcp::endpoint endpoint = endpoints.begin()->endpoint();
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    asio::error_code ignored;
    acceptor_.close(ignored);
    return MakeError(ErrorKind::kBadInput, fmt::format("cannot listen on {}:{}: {}", host, port, ec.message()));
  }
  const uint16_t bound = acceptor_.local_endpoint(ec).port();
  Accept();
  return bound;
}

void TcpServer::Accept() {
  AcceptOn(acceptor_, options_, *backoff_, backoff_timer_);
}

template <typename Acceptor>
void TcpServer::AcceptOn(Acceptor& acceptor, const lsp::ServerOptions& options, AcceptBackoff& backoff,
                         asio::steady_timer& backoff_timer) {
  acceptor.async_accept([this, &acceptor, &options, &backoff, &backoff_timer](
                            asio::error_code ec, typename Acceptor::protocol_type::socket accepted) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors, the listener stays readable: accepting again at once would spin (accept_backoff.h).
      backoff_timer.expires_after(backoff.OnFailure(ec));
      backoff_timer.async_wait([this, &acceptor, &options, &backoff, &backoff_timer](asio::error_code wait_ec) {
        if (!wait_ec && acceptor.is_open()) AcceptOn(acceptor, options, backoff, backoff_timer);
      });
      return;
    }
    backoff.OnSuccess();
    Socket socket(std::move(accepted));
    if (auto problem = PeerProblem(socket); !problem.empty()) {
      RefuseWith(std::move(socket), protocol::kUnauthorized, problem);
    } else {
      Admit(std::move(socket), options);
    }
    AcceptOn(acceptor, options, backoff, backoff_timer);
  });
}

// Unix-domain peers must run as this user (SO_PEERCRED); TCP peers prove it with the token instead.
std::string TcpServer::PeerProblem(Socket& socket) {
  if (socket.local_endpoint().protocol().family() != AF_UNIX) return {};
  ucred peer{};
  socklen_t size = sizeof peer;
  if (::getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 || peer.uid != ::geteuid()) {
    return "unauthorized: this Unix socket serves only the user who started the server";
  }
  return {};
}

void TcpServer::Admit(Socket socket, const lsp::ServerOptions& options) {
  asio::error_code ignored;
  if (socket.local_endpoint().protocol().family() != AF_UNIX) {
    socket.set_option(asio::ip::tcp::no_delay(true), ignored);
  }
  std::shared_ptr<TcpConnection> connection;
  {
    std::lock_guard lock(mu_);
    if (connections_.size() < tcp_limits_.max_connections) {
      connection = std::make_shared<TcpConnection>(*this, std::move(socket), options, next_connection_id_++);
      connections_.insert(connection);
    }
  }
  if (connection) {
    support::LogInfo(fmt::format("connection {} accepted", connection->id()));
    connection->Start();
  } else {
    Refuse(std::move(socket));
  }
}

void TcpServer::RefuseWith(Socket socket, int code, const std::string& message) {
  const std::string frame = protocol::EncodeFrame(protocol::Serialize(protocol::MakeError({}, code, message)));
  asio::error_code ignored;
  asio::write(socket, asio::buffer(frame), ignored);  // a fresh socket's send buffer takes it at once
  socket.shutdown(asio::socket_base::shutdown_both, ignored);
  socket.close(ignored);
}

void TcpServer::Refuse(Socket socket) {
  const size_t limit = tcp_limits_.max_connections;
  RefuseWith(std::move(socket), protocol::kRequestFailed,
             fmt::format("too many connections: this server serves at most {} at once (its connection limit; see "
                         "--max-connections)",
                         limit));
  ++refusals_unlogged_;
  const auto now = Clock::now();
  if (now - last_refusal_log_ >= std::chrono::seconds(1)) {
    support::LogWarn(
        fmt::format("refused {} connection(s): {} are open, the limit (--max-connections)", refusals_unlogged_, limit));
    refusals_unlogged_ = 0;
    last_refusal_log_ = now;
  }
}

void TcpServer::Remove(const std::shared_ptr<TcpConnection>& connection) {
  std::lock_guard lock(mu_);
  connections_.erase(connection);
}

void TcpServer::Stop() {
  asio::error_code ignored;
  acceptor_.close(ignored);
  backoff_timer_.cancel();
  if (unix_acceptor_.is_open()) {
    unix_acceptor_.close(ignored);
    ::unlink(unix_path_.c_str());
  }
  unix_backoff_timer_.cancel();
  std::set<std::shared_ptr<TcpConnection>> connections;
  {
    std::lock_guard lock(mu_);
    connections = connections_;
  }
  for (const auto& connection : connections) connection->Close();
}

Status TcpServer::ListenUnix(const std::string& path) {
  const std::filesystem::path file = std::filesystem::absolute(path);
  const std::string dir = file.parent_path().string();
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return MakeError(ErrorKind::kBadInput, fmt::format("--socket: the folder {} does not exist", dir));
  }
  if (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0) {
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("--socket: the folder {} must belong to this user and be closed to everyone else "
                                 "(mode 700, it is {:o}): only then is the socket this user's alone",
                                 dir, st.st_mode & 07777));
  }
  // A stale socket from an earlier run is replaced; anything else at the path is left alone.
  if (::lstat(file.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return MakeError(ErrorKind::kBadInput, fmt::format("--socket: {} exists and is not a socket", file.string()));
    }
    ::unlink(file.c_str());
  }
  asio::error_code ec;
  const asio::local::stream_protocol::endpoint endpoint(file.string());
  unix_acceptor_.open(endpoint.protocol(), ec);
  if (!ec) unix_acceptor_.bind(endpoint, ec);
  if (!ec) unix_acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    asio::error_code ignored;
    unix_acceptor_.close(ignored);
    return MakeError(ErrorKind::kBadInput, fmt::format("cannot listen on {}: {}", file.string(), ec.message()));
  }
  ::chmod(file.c_str(), 0600);
  unix_path_ = file.string();
  AcceptOn(unix_acceptor_, unix_options_, *unix_backoff_, unix_backoff_timer_);
  return {};
}

size_t TcpServer::connection_count() const {
  std::lock_guard lock(mu_);
  return connections_.size();
}

bool IsLoopbackHost(const std::string& host) {
  if (host == "localhost") return true;
  asio::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

}  // namespace nsys::transport
