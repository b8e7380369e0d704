// nsys-ai perfetto FILE (also `nsys-ai open`): exports a trace and serves it to a local Perfetto UI over the loopback
// side channel, until Ctrl-C or until the link expires.
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>

#include "commands.h"
#include "nsys/core/traces.h"
#include "nsys/transport/http_side_channel.h"
#include "open_profile.h"
#include "trace_cli.h"

extern char** environ;

namespace nsys::cli {
namespace {

// Ctrl-C while the trace is written cancels the write (its file is removed); once it is served, the io loop's
// signal_set takes SIGINT over and stops serving.
CancelToken& InterruptToken() {
  static CancelToken token;
  return token;
}

// A browser can open here only with a local display; over SSH it would open on the remote machine.
bool LocalDisplay() {
  auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0';
  };
  return (set("DISPLAY") || set("WAYLAND_DISPLAY")) && !set("SSH_CONNECTION") && !set("SSH_TTY");
}

pid_t OpenBrowser(const std::string& url) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);  // the browser keeps no descriptor of ours
  pid_t pid = -1;
  char* argv[] = {const_cast<char*>("xdg-open"), const_cast<char*>(url.c_str()), nullptr};
  if (posix_spawnp(&pid, "xdg-open", &actions, nullptr, argv, environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

template <typename Int>
bool ParseNumber(const std::string& text, Int min, Int max, Int& out) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used != text.size() || v < static_cast<long long>(min) || v > static_cast<long long>(max)) return false;
    out = static_cast<Int>(v);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

int RunOpen(const CommandContext& ctx) {
  auto request = ParseTraceSelection(ctx.args);
  if (!request) return UsageError("perfetto", request.error().message);
  transport::HttpSideChannelOptions http;
  if (Status ok = ParsePerfettoChannelOptions(ctx.args, http); !ok) return UsageError("perfetto", ok.error().message);
  if (auto text = ctx.args.Value("--port")) {
    if (!ParseNumber<uint16_t>(*text, 0, 65535, http.port)) return UsageError("perfetto", "--port wants 0 to 65535");
  }

  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);  // Ctrl-C here simply ends the process
  if (!opened) return FailWith(opened.error());
  request->profile_id = opened->id;
  std::signal(SIGINT, [](int) { InterruptToken().cancel(); });

  asio::io_context io;
  http.cache_dir = workspace.CacheDir();
  transport::HttpSideChannel channel(io, http);
  if (Status listening = channel.Listen(); !listening.ok()) return FailWith(listening.error());
  if (const std::string problem = channel.perfetto_port_problem(); !problem.empty()) {
    std::fprintf(stderr, "nsys-ai: %s\n", problem.c_str());
  }
  auto publication = workspace.PublishTrace(*request, channel, "", InterruptToken(), TerminalProgress("writing trace"));
  ClearTerminalProgress();
  if (!publication) return FailWith(publication.error());
  const core::TraceStats& stats = publication->stats;
  const core::PublishedTrace& published = publication->published;

  std::printf("Trace of %s: %s\n", ctx.args.positionals()[0].c_str(), core::DescribeTrace(stats).c_str());
  std::printf("\nOpen this in a browser on this machine (serving until %s, Ctrl-C to stop):\n  %s\n",
              published.expires_at.c_str(), published.url.c_str());
  std::printf(
      "\nOver SSH, forward the port from your laptop first, then open the same URL there:\n"
      "  ssh -L %u:127.0.0.1:%u <this host>\n",
      published.port, published.port);
  if (!published.deep_link.empty()) {
    std::printf("\nOr, with port %u forwarded too, the Perfetto deep link:\n  %s\n", *channel.perfetto_port(),
                published.deep_link.c_str());
  }
  std::fflush(stdout);
  pid_t browser = -1;
  if (!ctx.args.Has("--no-browser") && LocalDisplay()) browser = OpenBrowser(published.url);

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&io](const asio::error_code& e, int) {
    if (!e) io.stop();
  });
  asio::steady_timer expiry(io);
  if (auto last = channel.last_expiry()) {
    expiry.expires_at(*last);
    expiry.async_wait([&io](const asio::error_code& e) {
      if (!e) {
        std::printf("The link expired; stopping.\n");
        io.stop();
      }
    });
  }
  io.run();
  channel.Stop();  // deletes the trace file
  if (browser > 0) ::waitpid(browser, nullptr, WNOHANG);
  return kExitOk;
}

}  // namespace

Command PerfettoCommand() {
  Command command;
  command.name = "perfetto";
  command.background_loads = true;
  // Its first name; `perfetto` says where it opens the profile (nsys/openProfile is what loads one).
  command.aliases = {"open"};
  command.synopsis = "FILE [options]";
  command.summary = "open a profile in the Perfetto UI through a local, token-protected link";
  command.details =
      "Writes the trace, serves it on 127.0.0.1 under a random token, and prints the link (a browser opens by itself\n"
      "when this machine has a display). The page hands the trace to the Perfetto UI in your browser: nothing is\n"
      "uploaded. Over SSH, forward the printed port (ssh -L) and open the link on your laptop.";
  command.options = {
      {"--port", 1, "PORT", "the side channel's port (default: any free port)"},
      {"--no-browser", 0, "", "only print the link"},
  };
  for (auto& option : PerfettoChannelOptions()) command.options.push_back(std::move(option));
  for (auto& option : TraceSelectionOptions()) command.options.push_back(std::move(option));
  command.min_positionals = command.max_positionals = 1;
  command.run = RunOpen;
  return command;
}

}  // namespace nsys::cli
