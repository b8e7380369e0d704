#include <pthread.h>

#include <asio.hpp>
#include <csignal>
#include <optional>
#include <thread>

#include "commands.h"
#include "nsys/core/traces.h"
#include "nsys/mcp/mcp_server.h"
#include "nsys/support/cache_dir.h"
#include "nsys/transport/http_side_channel.h"

namespace nsys::cli {
namespace {

// The loopback HTTP side channel for open_in_perfetto, served on its own io thread (it binds a port only when the
// first trace is published). The thread never takes SIGINT/SIGTERM: those are the MCP server's shutdown signals.
class SideChannelThread {
 public:
  explicit SideChannelThread(const core::WorkspaceConfig& config) {
    transport::HttpSideChannelOptions options;
    options.cache_dir = support::ResolveCacheDir(config.open.cache_dir);
    channel_.emplace(io_, options);
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);  // inherited by the thread
    thread_ = std::thread([this] { io_.run(); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  ~SideChannelThread() {
    guard_.reset();
    io_.stop();
    thread_.join();
    channel_->Stop();  // the io thread has stopped: deletes the published traces
  }
  core::TracePublisher* publisher() { return &*channel_; }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_ = asio::make_work_guard(io_);
  std::optional<transport::HttpSideChannel> channel_;
  std::thread thread_;
};

}  // namespace

Command McpCommand() {
  Command command;
  command.name = "mcp";
  command.background_loads = true;
  command.summary = "run the MCP server on stdio, for coding agents (tools: open_profile, run_skill, ...)";
  command.details =
      "Speaks the Model Context Protocol's stdio transport: one JSON-RPC message per line on stdin/stdout, logs on\n"
      "stderr. Requests run concurrently (replies may come in any order); notifications/cancelled stops one.\n"
      "Runs until stdin closes (requests in progress are answered first) or SIGTERM/SIGINT (they are cancelled);\n"
      "both exit with status 0. open_in_perfetto serves traces on a loopback port, as `nsys-ai open` does.";
  command.options = {SkillTimeoutOption()};
  command.run = [](const CommandContext& ctx) {
    core::WorkspaceConfig config = ctx.config;
    config.warm_skills = core::DefaultWarmSkills();  // agents ask the heavy NVTX questions first
    SideChannelThread side_channel(config);
    return mcp::RunMcpStdio(config, side_channel.publisher());
  };
  return command;
}

}  // namespace nsys::cli
