// nsys-ai export FILE -o out.pftrace: a native Perfetto trace of a profile (or of a window of it).
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "nsys/lsp/trace_handlers.h"
#include "nsys/trace/trace_output.h"
#include "nsys/trace/trace_writer.h"
#include "nsys/trace/validator.h"
#include "open_profile.h"
#include "trace_cli.h"

namespace nsys::cli {
namespace {

CancelToken& InterruptToken() {
  static CancelToken token;
  return token;
}

// Reads the written file back through the validator in chunks (the trace may be larger than memory allows).
trace::ValidationReport ValidateFile(const std::string& path) {
  trace::TraceValidator validator;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    std::vector<char> buf(4 << 20);
    ssize_t n;
    while ((n = ::read(fd, buf.data(), buf.size())) > 0)
      validator.Feed(std::string_view(buf.data(), static_cast<size_t>(n)));
    ::close(fd);
  }
  return validator.Finish();
}

// "-" is stdout (refused when it is the profile, e.g. `>> profile.sqlite`); anything else is a path.
Status CheckOutput(const std::string& output, const trace::OutputPolicy& policy) {
  if (output == "-") return trace::CheckTraceStream(1, policy);
  auto target = trace::CheckTraceOutput(output, policy);
  if (!target) return target.error();
  return {};
}

int RunExport(const CommandContext& ctx) {
  const auto output = ctx.args.Value("--output");
  if (!output || output->empty()) return UsageError("export", "-o/--output FILE is required");
  const std::string format = ctx.args.Value("--format").value_or("text");
  if (format != "text" && format != "json") return UsageError("export", "--format must be text or json");
  std::string error;
  auto selection = ParseTraceSelection(ctx.args, error);
  if (!selection) return UsageError("export", error);

  // Ctrl-C cancels the write, so no partial temporary file is left next to the output.
  std::signal(SIGINT, [](int) { InterruptToken().cancel(); });
  const bool to_stdout = *output == "-";
  // Checked before the (possibly long) open and load, and again by the writer: a refused output is a usage error.
  trace::OutputPolicy policy;
  policy.force = ctx.args.Has("--force");
  if (auto id = trace::FileIdOf(ctx.args.positionals()[0])) policy.profiles.push_back(*id);
  if (Status ok = CheckOutput(*output, policy); !ok.ok()) return UsageError("export", ok.error().message);
  const auto started = std::chrono::steady_clock::now();
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);
  if (!opened) return FailWith(opened.error());
  auto& profile = *opened->profile;
  policy = trace::WithProfile(policy, profile);  // a converted report's export too
  if (Status ok = CheckOutput(*output, policy); !ok.ok()) return UsageError("export", ok.error().message);
  auto options = ToTraceOptions(*selection, profile.info());
  if (!options) return FailWith(options.error());
  const auto opened_at = std::chrono::steady_clock::now();
  Status loaded = profile.Require(trace::NeedsFor(*options), InterruptToken(), TerminalProgress("loading"));
  ClearTerminalProgress();
  if (!loaded.ok()) return FailWith(loaded.error());
  const auto loaded_at = std::chrono::steady_clock::now();
  // "-o -" streams to stdout (e.g. into gzip); the summary then goes to stderr.
  FILE* report_to = to_stdout ? stderr : stdout;
  Expected<trace::TraceStats> stats = MakeError(ErrorKind::kInternal, "not written");
  if (to_stdout) {
    auto write_all = [](std::string_view chunk) -> Status {
      while (!chunk.empty()) {
        const ssize_t n = ::write(1, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
          return MakeError(ErrorKind::kInternal, fmt::format("Writing to stdout failed: {}.", std::strerror(errno)));
        chunk.remove_prefix(static_cast<size_t>(n));
      }
      return {};
    };
    stats = trace::ExportTrace(profile, *options, write_all, InterruptToken(), TerminalProgress("writing"));
  } else {
    stats = trace::ExportTraceToFile(profile, *options, *output, InterruptToken(), TerminalProgress("writing"), policy);
  }
  ClearTerminalProgress();
  if (!stats) return FailWith(stats.error());
  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };

  std::optional<trace::ValidationReport> report;
  if (ctx.args.Has("--validate")) {
    if (to_stdout) return UsageError("export", "--validate needs a file (-o FILE), not stdout");
    report = ValidateFile(*output);
  }
  if (format == "json") {
    auto json = lsp::ExportResultJson(*stats, *output, false);
    json["openSeconds"] = seconds(started, opened_at);
    json["loadSeconds"] = seconds(opened_at, loaded_at);
    if (report) json["validation"] = {{"ok", report->ok()}, {"summary", report->Summary()}};
    std::fprintf(report_to, "%s\n", json.dump(2).c_str());
  } else {
    std::fprintf(report_to, "wrote %s: %s\n", to_stdout ? "stdout" : output->c_str(), DescribeTrace(*stats).c_str());
    std::fprintf(report_to, "window: %s\nsha256: %s\n", stats->window.c_str(), stats->sha256.c_str());
    std::fprintf(report_to, "profile opened in %.2f s, tables loaded in %.2f s, trace written in %.2f s\n",
                 seconds(started, opened_at), seconds(opened_at, loaded_at), stats->seconds);
    if (report) std::fprintf(report_to, "validation: %s\n", report->Summary().c_str());
  }
  return report && !report->ok() ? kExitFailure : kExitOk;
}

}  // namespace

Command ExportCommand() {
  Command command;
  command.name = "export";
  command.synopsis = "FILE -o OUT.pftrace [options]";
  command.summary = "write a native Perfetto trace (protobuf) of a profile";
  command.details =
      "GPU work goes on one track per GPU and CUDA stream, with utilisation and memcpy-bandwidth counters; CUDA API\n"
      "calls and NVTX ranges go on their real process and thread tracks, with arrows from each launch call to its\n"
      "kernel. Slices that overlap the window are kept whole. Open the result at https://ui.perfetto.dev, or use\n"
      "'nsys-ai open' to hand it to a local browser directly.\n"
      "An existing OUT is replaced only when it is a Perfetto trace (or empty); see --force.";
  command.options = {
      {"--output", 1, "OUT", "the trace file to write (required; '-' = stdout, e.g. to pipe into gzip)", false, "-o"},
      {"--force", 0, "",
       "replace an existing file that is not a Perfetto trace (never a profile, an SQLite database, a report, or a "
       "device, FIFO or directory)"},
      {"--validate", 0, "", "read the written trace back through the semantic validator"},
      {"--format", 1, "FORMAT", "text (default) or json (the same fields as nsys/exportTrace)"},
  };
  for (auto& option : TraceSelectionOptions()) command.options.push_back(std::move(option));
  command.min_positionals = command.max_positionals = 1;
  command.run = RunExport;
  return command;
}

}  // namespace nsys::cli
