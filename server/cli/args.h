#pragma once
// A small command-line parser: long options with 0, 1 or 2 values ("--trim 0.2 0.4"), "--name=value", repeatable
// options, "--" to end options, and positionals. Errors are usage errors (exit code 2).
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/engine/window.h"
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

// --format: the values a command prints, the first its default. The value sets in use: a document (Markdown) or
// its JSON, a listing (text) or its JSON, a table in one of four renderings.
inline constexpr std::string_view kMarkdownOrJson[] = {"markdown", "json"};
inline constexpr std::string_view kTextOrJson[] = {"text", "json"};
inline constexpr std::string_view kTableOrJson[] = {"table", "json"};
inline constexpr std::string_view kTableFormats[] = {"table", "json", "csv", "markdown"};
// The option, its help naming the values ("markdown (default) or json (the nsys/ask result)" with that `note`).
OptionSpec FormatOption(std::span<const std::string_view> values, const std::string& note = "");
// The value given (the default when absent), or kInvalidArgument "--format must be markdown or json".
Expected<std::string> FormatValue(const ParsedArgs& args, std::span<const std::string_view> values);

// The time window of every command that takes one (analyze, skill run, export, perfetto): --start S, --end E,
// --window S:E (either side may be empty), --trim START END (the same as --window START:END) and --clock
// (relative_s, seconds from the profile start, by default; or capture_ns). `what` ends the --start line's help
// ("trace from S", "only events that start from S").
std::vector<OptionSpec> WindowOptions(const std::string& what);
// The window those options give (no side given: the whole profile), or kInvalidArgument naming the option: a value
// that is not a number, an unknown clock, or two of --trim, --window and --start/--end.
Expected<engine::WindowSpec> WindowFromArgs(const ParsedArgs& args);
// The same as written (a skill's arguments take the texts and check them): each side's text, and --clock's.
struct WindowText {
  std::optional<std::string> start, end, clock;
};
Expected<WindowText> WindowTextFromArgs(const ParsedArgs& args);

}  // namespace nsys::cli
