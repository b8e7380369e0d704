#include "trace_cli.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <utility>

namespace nsys::cli {

namespace {

// A usage problem with the options: the message is what the command prints before its synopsis.
Error Usage(std::string message) {
  return MakeError(ErrorKind::kInvalidArgument, std::move(message));
}

}  // namespace
namespace {

template <typename Int>
bool ParseInt(const std::string& text, Int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::vector<OptionSpec> TraceSelectionOptions() {
  std::vector<OptionSpec> options = WindowOptions("trace from");
  std::vector<OptionSpec> rest = {
      {"--device", 1, "N", "only GPU N (repeatable)", true},
      {"--pid", 1, "P", "only process P (repeatable)", true},
      {"--min-duration-ns", 1, "N", "leave out slices shorter than N ns"},
      {"--no-cpu", 0, "", "leave out CUDA API calls and NVTX"},
      {"--no-gpu", 0, "", "leave out kernels, memcpys, memsets and GPU counters"},
      {"--no-flows", 0, "", "no arrows from launch calls to GPU work"},
      {"--no-counters", 0, "", "no utilisation/bandwidth counter tracks"},
      {"--counter-bucket-ns", 1, "N", "counter resolution (default: about 1000 points over the span)"},
  };
  options.insert(options.end(), rest.begin(), rest.end());
  return options;
}

Expected<core::TraceRequest> ParseTraceSelection(const ParsedArgs& args) {
  core::TraceRequest s;
  auto window = WindowFromArgs(args);
  if (!window) return window.error();
  for (const auto& text : args.All("--device")) {
    int32_t device;
    if (!ParseInt(text, device) || device < 0) {
      return Usage(fmt::format("--device wants a GPU number, not '{}'", text));
    }
    s.filter.devices.push_back(device);
  }
  for (const auto& text : args.All("--pid")) {
    uint32_t pid;
    if (!ParseInt(text, pid) || pid > 0xFFFFFF) {
      return Usage(fmt::format("--pid wants a process id, not '{}'", text));
    }
    s.filter.processes.push_back(pid);
  }
  if (auto text = args.Value("--min-duration-ns")) {
    if (!ParseInt(*text, s.min_duration_ns) || s.min_duration_ns < 0) {
      return Usage(fmt::format("--min-duration-ns wants a number of nanoseconds, not '{}'", *text));
    }
  }
  if (auto text = args.Value("--counter-bucket-ns")) {
    if (!ParseInt(*text, s.counter_bucket_ns) || s.counter_bucket_ns < 1) {
      return Usage(fmt::format("--counter-bucket-ns wants a positive number of nanoseconds, not '{}'", *text));
    }
  }
  if (window->start || window->end) s.filter.window = *window;
  s.gpu = !args.Has("--no-gpu");
  s.cpu = !args.Has("--no-cpu");
  s.flows = !args.Has("--no-flows");
  s.counters = !args.Has("--no-counters");
  if (!s.gpu && !s.cpu) {
    return Usage("--no-gpu and --no-cpu together leave nothing to trace");
  }
  return s;
}

std::vector<OptionSpec> PerfettoChannelOptions() {
  return {
      {"--perfetto-origin", 1, "URL", "the Perfetto UI traces are handed to (default https://ui.perfetto.dev)"},
      {"--perfetto-port", 1, "PORT", "also serve traces for the #!/?url= deep link (Perfetto accepts only 9001)"},
      {"--perfetto-expires", 1, "SECONDS", "how long a trace link works (default 3600)"},
  };
}

Status ParsePerfettoChannelOptions(const ParsedArgs& args, transport::HttpSideChannelOptions& out) {
  if (auto origin = args.Value("--perfetto-origin")) {
    if (Status ok = transport::CheckPerfettoOrigin(*origin); !ok.ok()) {
      return Usage("--perfetto-origin: " + ok.error().message);
    }
    out.perfetto_origin = *origin;
  }
  if (auto text = args.Value("--perfetto-port")) {
    uint16_t port = 0;
    if (!ParseInt(*text, port) || port == 0) {
      return Usage(fmt::format("--perfetto-port wants a port number (1-65535), not '{}'", *text));
    }
    out.perfetto_port = port;
  }
  if (auto text = args.Value("--perfetto-expires")) {
    int64_t seconds = 0;
    if (!ParseInt(*text, seconds) || seconds < 1 || seconds > 7 * 24 * 3600) {
      return Usage(fmt::format("--perfetto-expires wants a number of seconds (1 to 604800), not '{}'", *text));
    }
    out.token_lifetime = std::chrono::seconds(seconds);
  }
  return {};
}

}  // namespace nsys::cli
