#pragma once
// The command-line side of runs, shared by `run-report` and `skill run --run`.
#include <string>
#include <vector>

#include "args.h"
#include "nsys/core/run.h"
#include "nsys/support/expected.h"

namespace nsys::cli {

// One directory, or rank files; --threads (the budget is the global --memory-budget, in WorkspaceConfig).
Expected<core::RunRequest> RunRequestFromArgs(const ParsedArgs& args, const std::vector<std::string>& files);
// --threads N.
std::vector<OptionSpec> RunOptions();

}  // namespace nsys::cli
