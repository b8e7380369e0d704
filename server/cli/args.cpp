#include "args.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace nsys::cli {

std::optional<std::vector<std::string>> ParsedArgs::Values(const std::string& name) const {
  auto it = options_.find(name);
  if (it == options_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::optional<std::string> ParsedArgs::Value(const std::string& name) const {
  auto values = Values(name);
  if (!values || values->empty()) return std::nullopt;
  return values->front();
}

std::vector<std::string> ParsedArgs::All(const std::string& name) const {
  std::vector<std::string> all;
  if (auto it = options_.find(name); it != options_.end()) {
    for (const auto& values : it->second) all.insert(all.end(), values.begin(), values.end());
  }
  return all;
}

Expected<ParsedArgs> ArgParser::Parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs) {
  ParsedArgs parsed;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg.size() < 2 || arg[0] != '-' ||
        (arg[1] != '-' && std::isdigit(static_cast<unsigned char>(arg[1])))) {
      parsed.positionals_.push_back(arg);  // includes negative numbers such as "-1"
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    std::string name = arg;
    std::optional<std::string> inline_value;
    if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) {
      return s.name == name || (!s.short_name.empty() && s.short_name == name);
    });
    if (spec == specs.end()) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("unknown option '{}'", name));
    }
    std::vector<std::string> values;
    if (inline_value) {
      if (spec->values != 1) {
        return MakeError(ErrorKind::kInvalidArgument,
                         spec->values == 0 ? fmt::format("option '{}' takes no value", spec->name)
                                           : fmt::format("option '{}' takes {} values: {} {}", spec->name, spec->values,
                                                         spec->name, spec->metavar));
      }
      values.push_back(*inline_value);
    } else {
      for (int k = 0; k < spec->values; ++k) {
        if (i + 1 >= args.size()) {
          return MakeError(ErrorKind::kInvalidArgument,
                           fmt::format("option '{}' needs {}: {} {}", spec->name,
                                       spec->values == 1 ? "a value" : fmt::format("{} values", spec->values),
                                       spec->name, spec->metavar));
        }
        values.push_back(args[++i]);
      }
    }
    auto& occurrences = parsed.options_[spec->name];
    if (!occurrences.empty() && !spec->repeatable && spec->values > 0 && occurrences.back() != values) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("option '{}' was given twice", spec->name));
    }
    occurrences.push_back(std::move(values));
  }
  return parsed;
}

std::string FormatOptions(const std::vector<OptionSpec>& specs) {
  std::vector<std::string> heads;
  size_t width = 0;
  for (const auto& spec : specs) {
    std::string head = spec.short_name.empty() ? spec.name : spec.short_name + ", " + spec.name;
    if (!spec.metavar.empty()) head += " " + spec.metavar;
    width = std::max(width, head.size());
    heads.push_back(std::move(head));
  }
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i) out += fmt::format("  {:<{}}  {}\n", heads[i], width, specs[i].help);
  return out;
}

}  // namespace nsys::cli
