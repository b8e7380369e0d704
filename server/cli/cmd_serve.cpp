#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "commands.h"
#include "nsys/core/log.h"
#include "nsys/transport/serve.h"
#include "nsys/transport/tcp.h"
#include "trace_cli.h"

namespace nsys::cli {
namespace {

// "127.0.0.1:8080", "localhost:0", "[::1]:9000" → host and port.
bool ParseHostPort(const std::string& text, std::string& host, uint16_t& port, std::string& error) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    error = fmt::format("--listen wants HOST:PORT (e.g. 127.0.0.1:0), not '{}'", text);
    return false;
  }
  host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port_text = text.substr(colon + 1);
  if (port_text.find_first_not_of("0123456789") != std::string::npos || port_text.size() > 5 ||
      std::stoul(port_text) > 65535) {
    error = fmt::format("--listen: '{}' is not a port number (0-65535)", port_text);
    return false;
  }
  port = static_cast<uint16_t>(std::stoul(port_text));
  return true;
}

int RunServe(const CommandContext& ctx) {
  transport::ServeOptions options;
  const bool stdio = ctx.args.Has("--stdio");
  const auto listen = ctx.args.Value("--listen");
  if (stdio && listen) return UsageError("serve", "--stdio and --listen exclude each other");
  if (listen) {
    std::string error;
    options.mode = transport::ServeOptions::Mode::kTcp;
    if (!ParseHostPort(*listen, options.host, options.port, error)) return UsageError("serve", error);
    if (!transport::IsLoopbackHost(options.host)) {
      if (!ctx.args.Has("--allow-remote")) {
        return UsageError("serve",
                          fmt::format("refusing to listen on '{}': the server has no authentication and opens any "
                                      "file this user can read. Listen on 127.0.0.1 and use an SSH tunnel, or pass "
                                      "--allow-remote if the network is trusted",
                                      options.host));
      }
      core::LogWarn(
          fmt::format("listening on non-loopback host {} (--allow-remote): anyone who can reach it can "
                      "read files as this user",
                      options.host));
    }
  }
  if (auto workers = ctx.args.Value("--workers")) {
    try {
      options.worker_threads = std::stoi(*workers);
    } catch (const std::exception&) {
      options.worker_threads = 0;
    }
    if (options.worker_threads < 1 || options.worker_threads > 64) {
      return UsageError("serve", fmt::format("--workers wants a number from 1 to 64, not '{}'", *workers));
    }
  }
  if (ctx.args.Has("--log-level") == false && options.mode == transport::ServeOptions::Mode::kTcp) {
    core::SetLogLevel(core::LogLevel::kInfo);  // a long-running daemon: say who connects
  }
  std::string bad_perfetto;  // --perfetto-origin/--perfetto-port/--perfetto-expires (trace_cli.h)
  if (!ParsePerfettoChannelOptions(ctx.args, options.perfetto, bad_perfetto)) return UsageError("serve", bad_perfetto);
  core::WorkspaceConfig config = ctx.config;
  config.warm_skills = core::DefaultWarmSkills();  // a long-lived server: precompute the heavy NVTX answers
  return transport::Serve(config, options);
}

}  // namespace

Command ServeCommand() {
  Command command;
  command.name = "serve";
  command.synopsis = "[--stdio | --listen HOST:PORT]";
  command.summary = "run the JSON-RPC (LSP base protocol) server for editors";
  command.details =
      "Over stdio (the default) the server speaks on stdin/stdout and logs on stderr. With --listen it accepts\n"
      "several TCP clients, each with its own session; port 0 picks a free port and prints\n"
      "'listening on HOST:PORT' on stderr. Only loopback hosts are allowed unless --allow-remote is given.\n"
      "Methods are documented in docs/protocol.md.";
  command.options = {
      {"--stdio", 0, "", "serve one client on stdin/stdout (default)"},
      {"--listen", 1, "HOST:PORT", "serve TCP clients on HOST:PORT (e.g. 127.0.0.1:0)"},
      {"--allow-remote", 0, "", "allow a non-loopback --listen host (no authentication!)"},
      {"--workers", 1, "N", "worker threads for requests (default: 2 to 4, by core count)"},
  };
  for (auto& option : PerfettoChannelOptions()) command.options.push_back(std::move(option));  // trace_cli.h
  command.options.push_back(SkillTimeoutOption());
  command.run = RunServe;
  return command;
}

}  // namespace nsys::cli
