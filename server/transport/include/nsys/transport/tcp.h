#pragma once
// The LSP server on a TCP port: each connection is its own session (own initialize, own requests), all sharing
// one Workspace and worker pool. A connection that breaks frees its work (its requests are cancelled); bad bytes
// on one connection never disturb the others.
//
// Every connection must authenticate (ServerOptions::auth_token, see lsp/session.h) and is bounded (TcpLimits):
// a client that sends faster than it reads is paused, not buffered without end.
#include <asio.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/lsp/context.h"
#include "nsys/protocol/framing.h"
#include "nsys/support/executor.h"
#include "nsys/support/expected.h"

namespace nsys::transport {

class TcpConnection;
class AcceptBackoff;

// Per-server and per-connection bounds (docs: protocol.md, "Limits"). Reading a connection pauses while any of the
// "in flight" bounds is reached and resumes when it falls below: the client's own socket buffers then fill and its
// writes block, which is TCP's back-pressure. A single read (64 KiB) may overshoot a bound by what it holds.
struct TcpLimits {
  size_t max_connections = 64;               // more are answered -32803 and closed (--max-connections)
  size_t max_unsent_reply_bytes = 4u << 20;  // replies queued for a client that does not read them
  // Replies waiting behind the one being written, past which the connection is closed: reading is paused at the bound
  // above, but the requests already in flight (64) still answer, and 64 large replies nobody reads were ~140 MB.
  size_t max_unread_reply_bytes = 16u << 20;
  size_t max_requests_in_flight = 64;              // accepted and not yet answered, queued ones included
  size_t max_request_bytes_in_flight = 32u << 20;  // their bodies' bytes
  // A message left incomplete this long, or no authenticated `initialize` this long after connecting, closes the
  // connection (--idle-timeout). A connection paused by the bounds above is not idle.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(30)};
};

class TcpServer {
 public:
  TcpServer(asio::io_context& io, core::Workspace& workspace, support::Executor& executor, lsp::ServerOptions options,
            protocol::FramingLimits limits = {}, TcpLimits tcp_limits = {});
  ~TcpServer();

  // Binds and starts accepting (on the io_context's thread). Returns the bound port (useful with port 0).
  Expected<uint16_t> Listen(const std::string& host, uint16_t port);
  // Also (or instead) serves a Unix-domain socket at `path`, whose folder must be this user's with mode 700. Its
  // clients need no token: the folder and SO_PEERCRED (the peer's uid must be ours) admit only this user. The limits
  // are shared with TCP. The socket file is removed by Stop().
  Status ListenUnix(const std::string& path);
  // Stops accepting and closes every connection. Call on the io_context's thread (or before it runs).
  void Stop();
  size_t connection_count() const;

 private:
  friend class TcpConnection;
  using Socket = asio::generic::stream_protocol::socket;
  void Accept();
  template <typename Acceptor>
  void AcceptOn(Acceptor& acceptor, const lsp::ServerOptions& options, AcceptBackoff& backoff,
                asio::steady_timer& backoff_timer);
  static std::string PeerProblem(Socket& socket);
  void Admit(Socket socket, const lsp::ServerOptions& options);
  void Refuse(Socket socket);
  static void RefuseWith(Socket socket, int code, const std::string& message);
  void Remove(const std::shared_ptr<TcpConnection>& connection);

  asio::io_context& io_;
  core::Workspace& workspace_;
  support::Executor& executor_;
  lsp::ServerOptions options_;
  protocol::FramingLimits limits_;
  TcpLimits tcp_limits_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer backoff_timer_;
  std::unique_ptr<AcceptBackoff> backoff_;  // io thread only
  lsp::ServerOptions unix_options_;         // options_ without the token
  asio::local::stream_protocol::acceptor unix_acceptor_;
  asio::steady_timer unix_backoff_timer_;
  std::unique_ptr<AcceptBackoff> unix_backoff_;
  std::string unix_path_;
  // Refused connections: one log line per second at most, with how many were refused since the last one.
  std::chrono::steady_clock::time_point last_refusal_log_{};
  uint64_t refusals_unlogged_ = 0;
  mutable std::mutex mu_;
  std::set<std::shared_ptr<TcpConnection>> connections_;
  uint64_t next_connection_id_ = 1;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool IsLoopbackHost(const std::string& host);

}  // namespace nsys::transport
