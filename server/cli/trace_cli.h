#pragma once
// What `nsys-ai export` and `nsys-ai open` share: the trace selection options and their parsing.
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "nsys/core/traces.h"
#include "nsys/transport/http_side_channel.h"

namespace nsys::cli {

// --start/--end/--window/--clock/--device/--pid/--min-duration-ns/--no-cpu/--no-gpu/--no-flows/--no-counters/
// --counter-bucket-ns.
std::vector<OptionSpec> TraceSelectionOptions();
// Checks the option values (before the profile is opened) and returns the request without its profile id and
// output; `error` is a usage message. The window is resolved against the profile by the core call.
std::optional<core::TraceRequest> ParseTraceSelection(const ParsedArgs& args, std::string& error);

// The Perfetto side channel's options, shared by `serve` and `open`: --perfetto-origin, --perfetto-port,
// --perfetto-expires.
std::vector<OptionSpec> PerfettoChannelOptions();
bool ParsePerfettoChannelOptions(const ParsedArgs& args, transport::HttpSideChannelOptions& out, std::string& error);

}  // namespace nsys::cli
