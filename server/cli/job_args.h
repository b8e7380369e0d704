#pragma once
// The command-line side of jobs, shared by `job-report` and `skill run --job`.
#include <string>
#include <vector>

#include "args.h"
#include "nsys/core/job.h"
#include "nsys/support/expected.h"

namespace nsys::cli {

// One directory, or rank files; --threads (the budget is the global --memory-budget, in WorkspaceConfig).
Expected<core::JobRequest> JobRequestFromArgs(const ParsedArgs& args, const std::vector<std::string>& files);
// --threads N.
std::vector<OptionSpec> JobOptions();

}  // namespace nsys::cli
