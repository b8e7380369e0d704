#pragma once
// A child process run to completion with its standard output collected and its standard error read line by line:
// the job launcher (srun, mpirun) whose result is JSON on stdout and whose progress comes on stderr.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::support {

struct ChildOutput {
  int exit_code = -1;      // the child's exit status; 128 + N when signal N ended it
  std::string out;         // all of stdout (up to the limit)
  std::string error_tail;  // the last 16 KiB of stderr, for the error message
};

// Runs `argv` (argv[0] looked up on PATH; no shell) in its own process group with stdin from /dev/null. Each line
// of its stderr goes to `on_error_line` as it arrives. Cancelling kills the group (kCancelled). More than
// `max_out_bytes` on stdout kills it too (kLimitExceeded). kNotFound when argv[0] cannot be run.
Expected<ChildOutput> RunProcess(const std::vector<std::string>& argv,
                                 const std::function<void(const std::string& line)>& on_error_line,
                                 const CancelToken& cancel, size_t max_out_bytes = size_t{64} << 20);

}  // namespace nsys::support
