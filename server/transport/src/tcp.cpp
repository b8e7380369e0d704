#include "nsys/transport/tcp.h"

#include <fmt/format.h>

#include <array>
#include <deque>
#include <utility>

#include "nsys/core/log.h"
#include "nsys/lsp/session.h"

namespace nsys::transport {

// One client. Lives on the io_context's thread, except Write(), which worker threads call: it queues the bytes and
// posts the actual write to the io thread.
class TcpConnection : public std::enable_shared_from_this<TcpConnection> {
 public:
  TcpConnection(TcpServer& server, asio::ip::tcp::socket socket, uint64_t id)
      : server_(server), socket_(std::move(socket)), id_(id), flush_timer_(socket_.get_executor()) {}

  void Start() {
    std::weak_ptr<TcpConnection> weak = weak_from_this();
    session_ = std::make_unique<lsp::Session>(
        server_.workspace_, server_.executor_,
        [weak](std::string bytes) {
          if (auto self = weak.lock()) self->Write(std::move(bytes));
        },
        server_.options_, server_.limits_);
    session_->dispatcher().SetExitHandler([weak](int code) {
      if (auto self = weak.lock()) {
        core::LogInfo(fmt::format("connection {}: exit (code {}); closing it", self->id_, code));
        self->CloseAfterFlush();
      }
    });
    Read();
  }

  void Write(std::string bytes) {
    std::lock_guard lock(mu_);
    if (closed_) return;
    queue_.push_back(std::move(bytes));
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
    }
    session_->OnDisconnect();  // cancels this client's running requests
    flush_timer_.cancel();
    asio::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    core::LogInfo(fmt::format("connection {} closed", id_));
    server_.Remove(shared_from_this());
  }

  uint64_t id() const { return id_; }

 private:
  void Read() {
    socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this()](asio::error_code ec, size_t n) {
      if (ec) {
        if (ec != asio::error::operation_aborted) {
          core::LogInfo(
              fmt::format("connection {}: {}", self->id_, ec == asio::error::eof ? "peer closed" : ec.message()));
        }
        self->Close();
        return;
      }
      self->session_->OnBytes(std::string_view(self->buffer_.data(), n));
      if (!self->stop_reading_ && self->socket_.is_open()) self->Read();
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
        if (!self->queue_.empty()) self->queue_.pop_front();
        more = !self->queue_.empty();
        if (!more) self->writing_ = false;
      }
      if (more) self->WriteFront();
    });
  }

  // After `exit`: stop reading; once the requests in flight have answered and everything queued is written, close.
  void CloseAfterFlush() {
    stop_reading_ = true;
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
    if (done) return Close();
    flush_timer_.expires_after(std::chrono::milliseconds(10));
    flush_timer_.async_wait([self = shared_from_this()](asio::error_code ec) {
      if (!ec) self->CheckFlushed();
    });
  }

  TcpServer& server_;
  asio::ip::tcp::socket socket_;
  const uint64_t id_;
  asio::steady_timer flush_timer_;
  std::unique_ptr<lsp::Session> session_;
  std::array<char, 64 * 1024> buffer_{};
  bool stop_reading_ = false;  // io thread only

  std::mutex mu_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool closed_ = false;
};

TcpServer::TcpServer(asio::io_context& io, core::Workspace& workspace, lsp::Executor& executor,
                     lsp::ServerOptions options, protocol::FramingLimits limits)
    : io_(io),
      workspace_(workspace),
      executor_(executor),
      options_(std::move(options)),
      limits_(limits),
      acceptor_(io) {}

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
  acceptor_.async_accept([this](asio::error_code ec, asio::ip::tcp::socket socket) {
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
      core::LogWarn("accept failed: " + ec.message());  // e.g. out of file descriptors: keep serving the others
    } else {
      asio::error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);
      std::shared_ptr<TcpConnection> connection;
      {
        std::lock_guard lock(mu_);
        connection = std::make_shared<TcpConnection>(*this, std::move(socket), next_connection_id_++);
        connections_.insert(connection);
      }
      core::LogInfo(fmt::format("connection {} accepted", connection->id()));
      connection->Start();
    }
    if (acceptor_.is_open()) Accept();
  });
}

void TcpServer::Remove(const std::shared_ptr<TcpConnection>& connection) {
  std::lock_guard lock(mu_);
  connections_.erase(connection);
}

void TcpServer::Stop() {
  asio::error_code ignored;
  acceptor_.close(ignored);
  std::set<std::shared_ptr<TcpConnection>> connections;
  {
    std::lock_guard lock(mu_);
    connections = connections_;
  }
  for (const auto& connection : connections) connection->Close();
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
