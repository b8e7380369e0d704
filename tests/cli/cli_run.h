#pragma once
// Runs the real nsys-ai binary and captures its exit code, stdout and stderr.
#include <string>
#include <vector>

namespace nsys::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `stdin_text` is written to the child's stdin, which is then closed.
CliResult RunCli(const std::vector<std::string>& args, const std::string& stdin_text = "");

}  // namespace nsys::testing
