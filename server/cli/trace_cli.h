#pragma once
// What `nsys-ai export` and `nsys-ai perfetto` share: the trace selection options and their parsing.
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "nsys/core/traces.h"
#include "nsys/transport/http_side_channel.h"

namespace nsys::cli {

// WindowOptions() (--start/--end/--window/--trim/--clock),
// --device/--pid/--min-duration-ns/--no-cpu/--no-gpu/--no-flows/--no-counters/
// --counter-bucket-ns.
std::vector<OptionSpec> TraceSelectionOptions();
// Checks the option values (before the profile is opened) and returns the request without its profile id and
// output; an error is a usage message (kInvalidArgument). The window is resolved against the profile by the core call.
Expected<core::TraceRequest> ParseTraceSelection(const ParsedArgs& args);

// The Perfetto side channel's options, shared by `serve` and `open`: --perfetto-origin, --perfetto-port,
// --perfetto-expires.
std::vector<OptionSpec> PerfettoChannelOptions();
Status ParsePerfettoChannelOptions(const ParsedArgs& args, transport::HttpSideChannelOptions& out);

}  // namespace nsys::cli
