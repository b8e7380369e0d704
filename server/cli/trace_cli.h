#pragma once
// What `nsys-ai export` and `nsys-ai open` share: the trace selection options and their parsing.
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "nsys/engine/model.h"
#include "nsys/engine/window.h"
#include "nsys/support/expected.h"
#include "nsys/trace/trace_writer.h"
#include "nsys/transport/http_side_channel.h"

namespace nsys::cli {

struct TraceSelection {
  engine::WindowSpec window;
  bool windowed = false;
  std::vector<int32_t> devices;
  std::vector<uint32_t> pids;
  int64_t min_duration_ns = 0;
  bool gpu = true, cpu = true, flows = true, counters = true;
  int64_t counter_bucket_ns = 0;
};

// --start/--end/--window/--clock/--device/--pid/--min-duration-ns/--no-cpu/--no-gpu/--no-flows/--no-counters/
// --counter-bucket-ns.
std::vector<OptionSpec> TraceSelectionOptions();
// Checks the option values (before the profile is opened); `error` is a usage message.
std::optional<TraceSelection> ParseTraceSelection(const ParsedArgs& args, std::string& error);
// Resolves the window against the profile (errors name the profile's range).
Expected<trace::TraceOptions> ToTraceOptions(const TraceSelection& selection, const engine::ProfileInfo& info);

// The Perfetto side channel's options, shared by `serve` and `open`: --perfetto-origin, --perfetto-port,
// --perfetto-expires.
std::vector<OptionSpec> PerfettoChannelOptions();
bool ParsePerfettoChannelOptions(const ParsedArgs& args, transport::HttpSideChannelOptions& out, std::string& error);

// "12.3 MB in 0.41 s (30.0 MB/s): 3442 kernels, 904 memcpys, ..." for humans.
std::string DescribeTrace(const trace::TraceStats& stats);

}  // namespace nsys::cli
