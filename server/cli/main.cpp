// nsys-ai: finds the subcommand, parses its options (plus the global ones), sets up logging, and runs it.
#include <fmt/format.h>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "commands.h"
#include "nsys/support/log.h"
#include "nsys/support/memory_limit.h"

namespace nsys::cli {
namespace {

const Command* FindCommand(const std::string& name) {
  for (const auto& command : Commands()) {
    if (command.name == name) return &command;
    for (const auto& alias : command.aliases) {
      if (alias == name) return &command;
    }
  }
  return nullptr;
}

// Subcommands under a group word ("skill" → "skill list", "skill run").
std::vector<const Command*> GroupMembers(const std::string& group) {
  std::vector<const Command*> members;
  for (const auto& command : Commands()) {
    if (command.name.rfind(group + " ", 0) == 0) members.push_back(&command);
  }
  return members;
}

std::string GroupHelp(const std::string& group) {
  std::string out = fmt::format("Usage: nsys-ai {} SUBCOMMAND [options]\n\nSubcommands:\n", group);
  for (const auto* command : GroupMembers(group)) {
    out += fmt::format("  {:<12}  {}\n", command->name.substr(group.size() + 1), command->summary);
  }
  return out + fmt::format("\nRun 'nsys-ai help {} SUBCOMMAND' for details.\n", group);
}

// Resolves words[0..] to a command: "skill run" before "skill". Returns how many words it used, or 0.
size_t ResolveCommand(const std::vector<std::string>& words, const Command*& command) {
  if (words.size() >= 2) {
    if ((command = FindCommand(words[0] + " " + words[1]))) return 2;
  }
  if (!words.empty() && (command = FindCommand(words[0]))) return 1;
  command = nullptr;
  return 0;
}

int Help(const std::vector<std::string>& topic) {
  if (topic.empty()) {
    std::fputs(GeneralHelp().c_str(), stdout);
    return kExitOk;
  }
  const Command* command = nullptr;
  if (ResolveCommand(topic, command) == topic.size() && command) {
    std::fputs(CommandHelp(*command).c_str(), stdout);
    return kExitOk;
  }
  if (topic.size() == 1 && !GroupMembers(topic[0]).empty()) {
    std::fputs(GroupHelp(topic[0]).c_str(), stdout);
    return kExitOk;
  }
  return UsageError("help", fmt::format("no such command '{}'", fmt::join(topic, " ")));
}

// Global options may come before the command: moves them (with their values) to `leading` and returns the index of
// the first word after them, or an exit code when one of them answers by itself (--help, --version) or is unknown.
std::variant<size_t, int> TakeLeadingOptions(const std::vector<std::string>& argv, std::vector<std::string>& leading) {
  size_t i = 0;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--help" || argv[i] == "-h") return Help({});
    if (argv[i] == "--version") return FindCommand("version")->run({ParsedArgs{}, {}});
    const std::string name = argv[i].substr(0, argv[i].find('='));
    const OptionSpec* spec = nullptr;
    for (const auto& option : GlobalOptions()) {
      if (option.name == name) spec = &option;
    }
    if (!spec)
      return UsageError("", fmt::format("unknown option '{}' (global options go before or after the command)", name));
    leading.push_back(argv[i]);
    if (argv[i].find('=') == std::string::npos) {
      for (int k = 0; k < spec->values && i + 1 < argv.size(); ++k) leading.push_back(argv[++i]);
    }
  }
  return i;
}

// The global options every command takes (logging, cache, skill folders, nsys, skill timeout) into `context`;
// an exit code when one is malformed.
std::optional<int> ApplyGlobalOptions(const ParsedArgs& args, const Command& command, CommandContext& context) {
  if (auto level = args.Value("--log-level")) {
    auto parsed = support::ParseLogLevel(*level);
    if (!parsed)
      return UsageError(command.name, fmt::format("unknown log level '{}' (error, warn, info, debug)", *level));
    support::SetLogLevel(*parsed);
  }
  if (auto path = args.Value("--log-file")) {
    if (auto problem = support::SetLogFile(*path)) return Fail(*problem);
  }
  if (args.Has("--no-cache")) context.config.open.use_cache = false;
  context.config.open.load_all_in_background = command.background_loads;
  context.config.skill_dirs = args.All("--skill-dir");
  if (auto nsys = args.Value("--nsys")) {
    if (nsys->empty()) return UsageError(command.name, "--nsys wants the path of an nsys binary");
    context.config.open.nsys_binary = *nsys;
  }
  // The byte budget of each job's ranks, and of one export's tables (past half of it they are paged).
  // Without the flag, an export's budget is this machine's memory (or its cgroup's limit).
  context.config.open.memory_budget_bytes = support::MemoryLimitBytes();
  if (auto budget = args.Value("--memory-budget")) {
    auto parsed = core::ParseByteSize(*budget);
    if (!parsed) return UsageError(command.name, "--memory-budget: " + parsed.error().message);
    context.config.job_memory_budget_bytes = *parsed;
    context.config.open.memory_budget_bytes = *parsed;
  }
  if (auto timeout = args.Value("--skill-timeout")) {
    auto parsed = core::ParseSkillTimeout(*timeout);
    if (!parsed) return UsageError(command.name, "--skill-timeout: " + parsed.error().message);
    context.config.skill_timeout = *parsed;
  }
  // The LLM the agent may use (ask): NSYS_AI_LLM_* variables; none set = offline. A half-set one is refused here
  // rather than at the first question.
  auto llm = core::LlmConfigFromEnvironment();
  if (!llm) return Fail(llm.error().message);
  context.config.llm = std::move(*llm);
  return std::nullopt;
}

int Main(const std::vector<std::string>& argv) {
  std::vector<std::string> leading;
  const auto taken = TakeLeadingOptions(argv, leading);
  if (const int* exit_code = std::get_if<int>(&taken)) return *exit_code;
  const size_t i = std::get<size_t>(taken);
  std::vector<std::string> words(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  if (words.empty()) {
    std::fputs(GeneralHelp().c_str(), stderr);
    return kExitUsage;
  }
  if (words[0] == "help") return Help({words.begin() + 1, words.end()});

  const Command* command = nullptr;
  const size_t used = ResolveCommand(words, command);
  if (!command) {
    const auto members = GroupMembers(words[0]);
    if (!members.empty()) {
      const bool asked = words.size() >= 2 && (words[1] == "--help" || words[1] == "-h");
      std::fputs(GroupHelp(words[0]).c_str(), asked ? stdout : stderr);
      if (asked) return kExitOk;
      return words.size() < 2 ? kExitUsage : UsageError(words[0], fmt::format("no such subcommand '{}'", words[1]));
    }
    return UsageError("", fmt::format("no such command '{}'; run 'nsys-ai help' for the list", words[0]));
  }

  std::vector<std::string> rest = leading;
  rest.insert(rest.end(), words.begin() + static_cast<std::ptrdiff_t>(used), words.end());
  std::vector<OptionSpec> specs = command->options;
  specs.insert(specs.end(), GlobalOptions().begin(), GlobalOptions().end());
  auto args = ArgParser::Parse(rest, specs);
  if (!args) return UsageError(command->name, args.error().message);
  if (args->Has("--help")) {
    std::fputs(CommandHelp(*command).c_str(), stdout);
    return kExitOk;
  }

  CommandContext context{*args, {}};
  if (auto exit_code = ApplyGlobalOptions(*args, *command, context)) return *exit_code;

  const size_t positionals = args->positionals().size();
  if (positionals < command->min_positionals || positionals > command->max_positionals) {
    return UsageError(command->name, fmt::format("expected {}", command->synopsis));
  }
  try {
    return command->run(context);
  } catch (const std::exception& e) {
    return Fail(fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace
}  // namespace nsys::cli

int main(int argc, char** argv) {
  return nsys::cli::Main(std::vector<std::string>(argv + 1, argv + argc));
}
