// nsys-ai export FILE -o out.pftrace: a native Perfetto trace of a profile (or of a window of it).
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "commands.h"
#include "nsys/core/traces.h"
#include "nsys/wire/trace.h"
#include "open_profile.h"
#include "table_format.h"
#include "trace_cli.h"

namespace nsys::cli {
namespace {

CancelToken& InterruptToken() {
  static CancelToken token;
  return token;
}

// "-o -": every chunk to stdout as it comes (e.g. into gzip).
Status WriteToStdout(std::string_view chunk) {
  while (!chunk.empty()) {
    const ssize_t n = ::write(1, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return MakeError(ErrorKind::kInternal, fmt::format("Writing to stdout failed: {}.", std::strerror(errno)));
    chunk.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

struct Timings {
  double open_seconds = 0;
  double load_seconds = 0;
};

void Report(FILE* out, const std::string& format, const std::string& output, const core::TraceExport& trace,
            const Timings& timings, const std::optional<core::TraceValidation>& validation) {
  const core::TraceStats& stats = trace.stats;
  if (format == "json") {
    protocol::ExportTraceResult result = wire::ToExportTraceResult(trace, false);
    result.path = output;  // "-" too: what the user asked for
    result.streamed.reset();
    result.open_seconds = timings.open_seconds;
    result.load_seconds = timings.load_seconds;
    if (validation) result.validation = protocol::TraceValidationResult{validation->ok, validation->summary};
    std::fprintf(out, "%s\n", JsonText(protocol::Json(result)).c_str());
    return;
  }
  std::fprintf(out, "wrote %s: %s\n", output == "-" ? "stdout" : output.c_str(), core::DescribeTrace(stats).c_str());
  std::fprintf(out, "window: %s\nsha256: %s\n", stats.window.c_str(), stats.sha256.c_str());
  std::fprintf(out, "profile opened in %.2f s, tables loaded in %.2f s, trace written in %.2f s\n",
               timings.open_seconds, timings.load_seconds, stats.seconds);
  if (validation) std::fprintf(out, "validation: %s\n", validation->summary.c_str());
}

int RunExport(const CommandContext& ctx) {
  const auto output = ctx.args.Value("--output");
  if (!output || output->empty()) return UsageError("export", "-o/--output FILE is required");
  const auto format_value = FormatValue(ctx.args, kTextOrJson);
  if (!format_value) return UsageError("export", format_value.error().message);
  const std::string& format = *format_value;
  auto request = ParseTraceSelection(ctx.args);
  if (!request) return UsageError("export", request.error().message);
  const bool to_stdout = *output == "-";
  if (to_stdout && ctx.args.Has("--validate"))
    return UsageError("export", "--validate needs a file (-o FILE), not stdout");
  request->force = ctx.args.Has("--force");
  if (!to_stdout) request->output = *output;

  // Ctrl-C cancels the write, so no partial temporary file is left next to the output.
  std::signal(SIGINT, [](int) { InterruptToken().cancel(); });
  // Checked before the (possibly long) open and load, and again by the writer: a refused output is a usage error.
  const std::string& file = ctx.args.positionals()[0];
  if (Status ok = core::CheckTraceOutputBeforeOpen(file, *output, request->force); !ok.ok())
    return UsageError("export", ok.error().message);
  const auto started = std::chrono::steady_clock::now();
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, file);
  if (!opened) return FailWith(opened.error());
  request->profile_id = opened->id;
  // Three core calls, rightly: a bad output is refused before the load, and the load is timed apart from the write.
  // With the profile's own files known (a converted report's export too).
  if (Status ok = workspace.CheckTraceOutput(opened->id, *output, request->force); !ok.ok())
    return UsageError("export", ok.error().message);
  const auto opened_at = std::chrono::steady_clock::now();
  Status loaded = workspace.LoadForTrace(*request, InterruptToken(), TerminalProgress("loading"));
  ClearTerminalProgress();
  if (!loaded.ok()) return FailWith(loaded.error());
  const auto loaded_at = std::chrono::steady_clock::now();
  auto trace =
      to_stdout ? workspace.ExportTraceStream(*request, WriteToStdout, 0, InterruptToken(), TerminalProgress("writing"))
                : workspace.ExportTrace(*request, InterruptToken(), TerminalProgress("writing"));
  ClearTerminalProgress();
  if (!trace) return FailWith(trace.error());

  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::optional<core::TraceValidation> validation;
  if (ctx.args.Has("--validate")) validation = core::ValidateTraceFile(*output);
  // "-o -" streams to stdout; the summary then goes to stderr.
  Report(to_stdout ? stderr : stdout, format, *output, *trace,
         {seconds(started, opened_at), seconds(opened_at, loaded_at)}, validation);
  return validation && !validation->ok ? kExitFailure : kExitOk;
}

}  // namespace

Command ExportCommand() {
  Command command;
  command.name = "export";
  command.background_loads = true;
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
      FormatOption(kTextOrJson, "the same fields as nsys/exportTrace"),
  };
  for (auto& option : TraceSelectionOptions()) command.options.push_back(std::move(option));
  command.min_positionals = command.max_positionals = 1;
  command.run = RunExport;
  return command;
}

}  // namespace nsys::cli
