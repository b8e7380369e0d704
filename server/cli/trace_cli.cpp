#include "trace_cli.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>

namespace nsys::cli {

namespace {

// A usage problem with the options: the message is what the command prints before its synopsis.
Error Usage(std::string message) {
  return MakeError(ErrorKind::kInvalidArgument, std::move(message));
}

}  // namespace
namespace {

bool ParseDouble(const std::string& text, double& out) {
  if (text.empty()) return false;
  try {
    size_t used = 0;
    out = std::stod(text, &used);
    return used == text.size() && std::isfinite(out);
  } catch (const std::exception&) {
    return false;
  }
}

template <typename Int>
bool ParseInt(const std::string& text, Int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::vector<OptionSpec> TraceSelectionOptions() {
  return {
      {"--start", 1, "S", "trace from S (seconds from the profile start, see --clock)"},
      {"--end", 1, "S", "trace up to S"},
      {"--window", 1, "S:E", "the same as --start S --end E (either side may be empty)"},
      {"--clock", 1, "CLOCK", "relative_s (seconds from the profile start, default) or capture_ns"},
      {"--device", 1, "N", "only GPU N (repeatable)", true},
      {"--pid", 1, "P", "only process P (repeatable)", true},
      {"--min-duration-ns", 1, "N", "leave out slices shorter than N ns"},
      {"--no-cpu", 0, "", "leave out CUDA API calls and NVTX"},
      {"--no-gpu", 0, "", "leave out kernels, memcpys, memsets and GPU counters"},
      {"--no-flows", 0, "", "no arrows from launch calls to GPU work"},
      {"--no-counters", 0, "", "no utilisation/bandwidth counter tracks"},
      {"--counter-bucket-ns", 1, "N", "counter resolution (default: about 1000 points over the span)"},
  };
}

Expected<core::TraceRequest> ParseTraceSelection(const ParsedArgs& args) {
  core::TraceRequest s;
  engine::WindowSpec window;
  bool windowed = false;
  std::optional<std::string> start = args.Value("--start");
  std::optional<std::string> end = args.Value("--end");
  if (auto window = args.Value("--window")) {
    if (start || end) {
      return Usage("--window and --start/--end exclude each other");
    }
    const size_t colon = window->find(':');
    if (colon == std::string::npos) {
      return Usage(fmt::format("--window wants START:END (e.g. 0.2:0.4), not '{}'", *window));
    }
    if (colon > 0) start = window->substr(0, colon);
    if (colon + 1 < window->size()) end = window->substr(colon + 1);
  }
  auto set_time = [&](const std::optional<std::string>& text, std::optional<double>& out, const char* what) -> Status {
    if (!text) return {};
    double v;
    if (!ParseDouble(*text, v)) return Usage(fmt::format("{} wants a number, not '{}'", what, *text));
    out = v;
    windowed = true;
    return {};
  };
  if (Status set = set_time(start, window.start, "--start"); !set) return set.error();
  if (Status set = set_time(end, window.end, "--end"); !set) return set.error();
  if (auto clock = args.Value("--clock")) {
    auto parsed = ParseWindowClock(*clock);
    if (!parsed) {
      return Usage(fmt::format("--clock must be relative_s or capture_ns, not '{}'", *clock));
    }
    window.clock = *parsed;
  }
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
  if (windowed) s.filter.window = window;
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
