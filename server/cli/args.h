#pragma once
// A small command-line parser: long options with 0, 1 or 2 values ("--trim 0.2 0.4"), "--name=value", repeatable
// options, "--" to end options, and positionals. Errors are usage errors (exit code 2).
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nsys/support/expected.h"

namespace nsys::cli {

struct OptionSpec {
  OptionSpec(std::string name_, int values_, std::string metavar_, std::string help_, bool repeatable_ = false,
             std::string short_name_ = "")
      : name(std::move(name_)),
        values(values_),
        metavar(std::move(metavar_)),
        help(std::move(help_)),
        repeatable(repeatable_),
        short_name(std::move(short_name_)) {}

  std::string name;     // "--device"
  int values = 0;       // 0 (a flag), 1 or 2
  std::string metavar;  // "N", "START END"
  std::string help;     // one line
  bool repeatable = false;
  std::string short_name;  // "-h", optional
};

class ParsedArgs {
 public:
  bool Has(const std::string& name) const { return options_.count(name) > 0; }
  // The values of the last occurrence; nullopt when the option is absent.
  std::optional<std::vector<std::string>> Values(const std::string& name) const;
  std::optional<std::string> Value(const std::string& name) const;
  // Every value of a repeatable one-value option, in order.
  std::vector<std::string> All(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend struct ArgParser;
  std::map<std::string, std::vector<std::vector<std::string>>> options_;
  std::vector<std::string> positionals_;
};

struct ArgParser {
  // The parsed arguments, or kInvalidArgument with a sentence naming the bad option.
  static Expected<ParsedArgs> Parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);
};

// "  --device N          only this device" lines, aligned.
std::string FormatOptions(const std::vector<OptionSpec>& specs);

}  // namespace nsys::cli
