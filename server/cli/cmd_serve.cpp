#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "commands.h"
#include "nsys/support/log.h"
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

// A whole number from `min` to `max`, or nullopt.
std::optional<long> ParseCount(const std::string& text, long min, long max) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return {};
  const long value = std::stol(text);
  if (value < min || value > max) return {};
  return value;
}

// --max-connections, --idle-timeout, --token-file: the TCP bounds and the token's file. "" or the usage problem.
std::string ParseTcpOptions(const ParsedArgs& args, transport::ServeOptions& options) {
  if (auto text = args.Value("--max-connections")) {
    auto value = ParseCount(*text, 1, 10000);
    if (!value) return fmt::format("--max-connections wants a number from 1 to 10000, not '{}'", *text);
    options.tcp.max_connections = static_cast<size_t>(*value);
  }
  if (auto text = args.Value("--idle-timeout")) {
    double seconds = 0;
    try {
      size_t used = 0;
      seconds = std::stod(*text, &used);
      if (used != text->size()) seconds = 0;
    } catch (const std::exception&) {
      seconds = 0;
    }
    if (!(seconds >= 0.1 && seconds <= 86400)) {
      return fmt::format("--idle-timeout wants seconds from 0.1 to 86400, not '{}'", *text);
    }
    options.tcp.idle_timeout = std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  }
  if (auto path = args.Value("--token-file")) {
    if (path->empty()) return "--token-file wants a path";
    options.token_file = *path;
  }
  return {};
}

int RunServe(const CommandContext& ctx) {
  transport::ServeOptions options;
  const bool stdio = ctx.args.Has("--stdio");
  const auto listen = ctx.args.Value("--listen");
  if (stdio && listen) return UsageError("serve", "--stdio and --listen exclude each other");
  const auto socket = ctx.args.Value("--socket");
  if (socket) {
    if (stdio) return UsageError("serve", "--stdio and --socket exclude each other");
    if (socket->empty()) return UsageError("serve", "--socket wants a path");
    options.mode = transport::ServeOptions::Mode::kUnix;
    options.socket_path = *socket;
  }
  if (listen) {
    std::string error;
    options.mode = transport::ServeOptions::Mode::kTcp;
    if (!ParseHostPort(*listen, options.host, options.port, error)) return UsageError("serve", error);
    if (!transport::IsLoopbackHost(options.host)) {
      if (!ctx.args.Has("--allow-remote")) {
        return UsageError("serve",
                          fmt::format("refusing to listen on '{}': clients must send the token, but nothing is "
                                      "encrypted (no TLS), so the token and every answer cross the network in "
                                      "clear, and whoever holds the token opens any file this user can read. "
                                      "Listen on 127.0.0.1 and use an SSH tunnel, or pass --allow-remote if the "
                                      "network is trusted",
                                      options.host));
      }
      support::LogWarn(
          fmt::format("listening on non-loopback host {} (--allow-remote): clients need the token, but there is no "
                      "TLS: anyone who can watch the network can read the token and then read files as this user",
                      options.host));
    }
  }
  for (const char* network_only : {"--max-connections", "--idle-timeout"}) {
    if (ctx.args.Has(network_only) && !listen && !socket) {
      return UsageError("serve", fmt::format("{} needs --listen or --socket", network_only));
    }
  }
  if (ctx.args.Has("--token-file") && !listen) return UsageError("serve", "--token-file needs --listen");
  // A client names programs the server runs (runLauncher, nsysPath) only over stdio, unless the user allows it.
  options.lsp.allow_client_commands = options.mode == transport::ServeOptions::Mode::kStdio;
  if (ctx.args.Has("--allow-client-commands")) {
    if (!listen && !socket) return UsageError("serve", "--allow-client-commands needs --listen or --socket");
    options.lsp.allow_client_commands = true;
  }
  if (auto problem = ParseTcpOptions(ctx.args, options); !problem.empty()) return UsageError("serve", problem);
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
  if (ctx.args.Has("--log-level") == false && options.mode != transport::ServeOptions::Mode::kStdio) {
    support::SetLogLevel(support::LogLevel::kInfo);  // a long-running daemon: say who connects
  }
  // --perfetto-origin/--perfetto-port/--perfetto-expires (trace_cli.h)
  if (Status ok = ParsePerfettoChannelOptions(ctx.args, options.perfetto); !ok)
    return UsageError("serve", ok.error().message);
  core::WorkspaceConfig config = ctx.config;
  config.warm_skills = core::DefaultWarmSkills();  // a long-lived server: precompute the heavy NVTX answers
  return transport::Serve(config, options);
}

}  // namespace

Command ServeCommand() {
  Command command;
  command.name = "serve";
  command.background_loads = true;
  command.synopsis = "[--stdio | --listen HOST:PORT | --socket PATH]";
  command.summary = "run the JSON-RPC (LSP base protocol) server for editors";
  command.details =
      "Over stdio (the default) the server speaks on stdin/stdout and logs on stderr. With --listen it accepts\n"
      "several TCP clients, each with its own session; port 0 picks a free port and prints\n"
      "'listening on HOST:PORT (token in PATH)' on stderr. Every TCP client must send the token found in PATH\n"
      "(a fresh random one per start, in a file only this user can read, removed on exit) as\n"
      "initializationOptions.token in its first message, `initialize`. Only loopback hosts are allowed unless\n"
      "--allow-remote is given (there is no TLS). Methods and limits are documented in docs/protocol.md.";
  command.options = {
      {"--stdio", 0, "", "serve one client on stdin/stdout (default)"},
      {"--listen", 1, "HOST:PORT", "serve TCP clients on HOST:PORT (e.g. 127.0.0.1:0)"},
      {"--allow-remote", 0, "", "allow a non-loopback --listen host (token required, but no TLS: all in clear)"},
      {"--token-file", 1, "PATH",
       "where TCP writes its token (mode 0600; default $XDG_RUNTIME_DIR/nsys-ai/serve-PORT.token)"},
      {"--socket", 1, "PATH",
       "(also) serve a Unix socket at PATH, in a folder of this user's with mode 700; no token needed there"},
      {"--max-connections", 1, "N", "TCP clients served at once; more are refused (default 64)"},
      {"--idle-timeout", 1, "SECONDS",
       "close a TCP client whose message stays incomplete, or that sends no initialize, this long (default 30)"},
      {"--allow-client-commands", 0, "",
       "let TCP and socket clients name programs to run (initializationOptions.runLauncher, nsysPath); they run as "
       "this user. Over stdio they always may"},
      {"--workers", 1, "N", "worker threads for requests (default: 2 to 4, by core count)"},
  };
  for (auto& option : PerfettoChannelOptions()) command.options.push_back(std::move(option));  // trace_cli.h
  command.options.push_back(SkillTimeoutOption());
  command.run = RunServe;
  return command;
}

}  // namespace nsys::cli
