#pragma once
// The LSP server on a TCP port: each connection is its own session (own initialize, own requests), all sharing
// one Workspace and worker pool. A connection that breaks frees its work (its requests are cancelled); bad bytes
// on one connection never disturb the others.
#include <asio.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/engine/expected.h"
#include "nsys/lsp/context.h"
#include "nsys/lsp/executor.h"
#include "nsys/protocol/framing.h"

namespace nsys::transport {

class TcpConnection;

class TcpServer {
 public:
  TcpServer(asio::io_context& io, core::Workspace& workspace, lsp::Executor& executor, lsp::ServerOptions options,
            protocol::FramingLimits limits = {});
  ~TcpServer();

  // Binds and starts accepting (on the io_context's thread). Returns the bound port (useful with port 0).
  Expected<uint16_t> Listen(const std::string& host, uint16_t port);
  // Stops accepting and closes every connection. Call on the io_context's thread (or before it runs).
  void Stop();
  size_t connection_count() const;

 private:
  friend class TcpConnection;
  void Accept();
  void Remove(const std::shared_ptr<TcpConnection>& connection);

  asio::io_context& io_;
  core::Workspace& workspace_;
  lsp::Executor& executor_;
  lsp::ServerOptions options_;
  protocol::FramingLimits limits_;
  asio::ip::tcp::acceptor acceptor_;
  mutable std::mutex mu_;
  std::set<std::shared_ptr<TcpConnection>> connections_;
  uint64_t next_connection_id_ = 1;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool IsLoopbackHost(const std::string& host);

}  // namespace nsys::transport
