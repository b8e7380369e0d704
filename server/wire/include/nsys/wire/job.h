#pragma once
// Jobs: nsys/openJob's params → core::JobRequest, and core's job results → the wire's (protocol/job.h).
#include <cstdint>
#include <optional>

#include "nsys/core/job.h"
#include "nsys/core/traces.h"
#include "nsys/protocol/job.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// A memory budget from the wire: an integer (bytes, more than 0) or a size text ("4G", core::ParseByteSize).
Expected<uint64_t> ToMemoryBudget(const protocol::Scalar& value);
// `session_budget` (initializationOptions.memoryBudget) applies when the params give none; 0 = the server's.
// kInvalidArgument naming the member for a bad budget or thread count.
Expected<core::JobRequest> ToJobRequest(const protocol::OpenJobParams& params, uint64_t session_budget = 0);
protocol::OpenJobResult ToOpenJobResult(const core::OpenedJob& job);
protocol::JobReportResult ToJobReportResult(const core::JobReport& report);
// nsys/exportJobTrace: params → core::JobTraceRequest (`output` already a server path), and the result back.
core::JobTraceRequest ToJobTraceRequest(const protocol::ExportJobTraceParams& params);
protocol::ExportJobTraceResult ToExportJobTraceResult(const core::JobTraceExport& trace);

}  // namespace nsys::wire
