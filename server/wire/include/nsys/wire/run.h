#pragma once
// Runs: nsys/openRun's params → core::RunRequest, and core's run results → the wire's (protocol/run.h).
#include <cstdint>
#include <optional>

#include "nsys/core/run.h"
#include "nsys/core/traces.h"
#include "nsys/protocol/run.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// A memory budget from the wire: an integer (bytes, more than 0) or a size text ("4G", core::ParseByteSize).
Expected<uint64_t> ToMemoryBudget(const protocol::Scalar& value);
// `session_budget` (initializationOptions.memoryBudget) applies when the params give none; 0 = the server's.
// kInvalidArgument naming the member for a bad budget or thread count.
Expected<core::RunRequest> ToRunRequest(const protocol::OpenRunParams& params, uint64_t session_budget = 0);
protocol::OpenRunResult ToOpenRunResult(const core::OpenedRun& run);
protocol::RunReportResult ToRunReportResult(const core::RunReport& report);
// nsys/exportRunTrace: params → core::RunTraceRequest (`output` already a server path), and the result back.
core::RunTraceRequest ToRunTraceRequest(const protocol::ExportRunTraceParams& params);
protocol::ExportRunTraceResult ToExportRunTraceResult(const core::RunTraceExport& trace);

}  // namespace nsys::wire
