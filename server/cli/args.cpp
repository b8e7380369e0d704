#include "args.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <tuple>

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

OptionSpec FormatOption(std::span<const std::string_view> values, const std::string& note) {
  std::string help;
  for (size_t i = 0; i < values.size(); ++i) {
    help += i == 0 ? "" : (i + 1 == values.size() ? " or " : ", ");
    help += values[i];
    if (i == 0) help += " (default)";
  }
  if (!note.empty()) help += " (" + note + ")";
  return {"--format", 1, "FORMAT", help};
}

Expected<std::string> FormatValue(const ParsedArgs& args, std::span<const std::string_view> values) {
  const auto given = args.Value("--format");
  if (!given) return std::string(values.front());
  if (std::find(values.begin(), values.end(), *given) != values.end()) return *given;
  std::string names;
  for (size_t i = 0; i < values.size(); ++i) {
    names += i == 0 ? "" : (i + 1 == values.size() ? " or " : ", ");
    names += values[i];
  }
  return MakeError(ErrorKind::kInvalidArgument, "--format must be " + names);
}

std::vector<OptionSpec> WindowOptions(const std::string& what) {
  return {
      {"--start", 1, "S", what + " S (seconds from the profile start, see --clock)"},
      {"--end", 1, "S", "up to S"},
      {"--window", 1, "S:E", "the same as --start S --end E (either side may be empty)"},
      {"--trim", 2, "START END", "the same as --window START:END"},
      {"--clock", 1, "CLOCK", "relative_s (seconds from the profile start, default) or capture_ns"},
  };
}

Expected<WindowText> WindowTextFromArgs(const ParsedArgs& args) {
  const auto usage = [](std::string message) { return MakeError(ErrorKind::kInvalidArgument, std::move(message)); };
  WindowText text{args.Value("--start"), args.Value("--end"), args.Value("--clock")};
  const auto trim = args.Values("--trim");
  const auto span = args.Value("--window");
  if (trim && (span || text.start || text.end)) return usage("--trim, --window and --start/--end exclude each other");
  if (span && (text.start || text.end)) return usage("--window and --start/--end exclude each other");
  if (trim) {
    text.start = (*trim)[0];
    text.end = (*trim)[1];
  }
  if (span) {
    const size_t colon = span->find(':');
    if (colon == std::string::npos)
      return usage(fmt::format("--window wants START:END (e.g. 0.2:0.4), not '{}'", *span));
    if (colon > 0) text.start = span->substr(0, colon);
    if (colon + 1 < span->size()) text.end = span->substr(colon + 1);
  }
  return text;
}

Expected<engine::WindowSpec> WindowFromArgs(const ParsedArgs& args) {
  auto text = WindowTextFromArgs(args);
  if (!text) return text.error();
  const auto number = [](const std::string& t) -> std::optional<double> {
    char* stop = nullptr;
    const double v = t.empty() ? 0 : std::strtod(t.c_str(), &stop);
    if (t.empty() || *stop != '\0' || !std::isfinite(v)) return std::nullopt;
    return v;
  };
  engine::WindowSpec window;
  const bool trim = args.Has("--trim");
  for (const auto& [side, out, name] :
       {std::tuple{&text->start, &window.start, "--start"}, {&text->end, &window.end, "--end"}}) {
    if (!*side) continue;
    *out = number(**side);
    if (*out) continue;
    if (trim) return MakeError(ErrorKind::kInvalidArgument, "--trim needs two numbers (START END)");
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("{} wants a number, not '{}'", name, **side));
  }
  if (text->clock) {
    auto parsed = ParseWindowClock(*text->clock);
    if (!parsed) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("--clock must be relative_s or capture_ns, not '{}'", *text->clock));
    }
    window.clock = *parsed;
  }
  return window;
}

}  // namespace nsys::cli
