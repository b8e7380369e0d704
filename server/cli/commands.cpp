// THE subcommand table. To add a subcommand: define `Command XCommand()` in its own cmd_<name>.cpp, declare it below
// and list it in Commands().
#include "commands.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>

#include "nsys/support/path_text.h"
#include "nsys/support/render_text.h"

namespace nsys::cli {

Command ServeCommand();      // cmd_serve.cpp
Command InfoCommand();       // cmd_info.cpp
Command SkillListCommand();  // cmd_skill.cpp
Command SkillRunCommand();   // cmd_skill.cpp
Command VersionCommand();    // cmd_version.cpp
Command McpCommand();        // cmd_mcp.cpp
Command ExportCommand();     // cmd_export.cpp
Command PerfettoCommand();   // cmd_open.cpp
Command AnalyzeCommand();    // cmd_analyze.cpp

Command DiffCommand();          // cmd_diff.cpp
Command BaselineTagCommand();   // cmd_baseline.cpp
Command BaselineListCommand();  // cmd_baseline.cpp
Command AskCommand();           // cmd_ask.cpp
Command ExplainCommand();       // cmd_explain.cpp
Command JobReportCommand();     // cmd_job_report.cpp
Command JobTraceCommand();      // cmd_job_trace.cpp
Command SuggestCommand();       // cmd_suggest.cpp
Command CallCommand();          // cmd_call.cpp

const std::vector<Command>& Commands() {
  // One subcommand per line.
  // clang-format off
  static const std::vector<Command> commands = {
      ServeCommand(),
      InfoCommand(),
      SkillListCommand(),
      SkillRunCommand(),
      McpCommand(),
      ExportCommand(),
      PerfettoCommand(),
      AnalyzeCommand(),
      DiffCommand(),
      BaselineTagCommand(),
      BaselineListCommand(),
      AskCommand(),
      ExplainCommand(),
      JobReportCommand(),
      JobTraceCommand(),
      SuggestCommand(),
      CallCommand(),
      VersionCommand(),
  };
  // clang-format on
  return commands;
}

const std::vector<OptionSpec>& GlobalOptions() {
  static const std::vector<OptionSpec> options = {
      {"--help", 0, "", "show help for this command", false, "-h"},
      {"--no-cache", 0, "", "neither read nor write the warm profile cache"},
      {"--log-level", 1, "LEVEL", "error, warn (default), info or debug; logs go to stderr"},
      {"--log-file", 1, "PATH", "append logs to PATH instead of stderr"},
      {"--skill-dir", 1, "DIR", "also load user skills from DIR (repeatable)", true},
      {"--nsys", 1, "PATH",
       "the nsys that converts .nsys-rep and .qdrep reports (default: the newest found on PATH and in the standard "
       "install locations)"},
      {"--memory-budget", 1, "SIZE",
       "memory the tables may take, e.g. 4G or 512M: a job's loaded ranks (job-report, skill run --job, "
       "nsys/openJob; default 4G; least recently used ranks are dropped), and one export's (default: this machine's "
       "memory or its cgroup's limit; an export over half of it is paged from the cache directory)"},
  };
  return options;
}

OptionSpec SkillTimeoutOption() {
  return {"--skill-timeout", 1, "SECONDS", "stop a skill, built-in or user, after SECONDS of its own work (default 5)"};
}

int UsageError(const std::string& command, const std::string& message) {
  if (command.empty()) {
    std::fprintf(stderr, "nsys-ai: %s\nRun 'nsys-ai help' for usage.\n", message.c_str());
  } else {
    std::fprintf(stderr, "nsys-ai %s: %s\nRun 'nsys-ai help %s' for usage.\n", command.c_str(), message.c_str(),
                 command.c_str());
  }
  return kExitUsage;
}

void PrintText(const std::string& text, std::FILE* out) {
  std::fputs(support::TerminalText(text).c_str(), out);
}

int Fail(const std::string& message) {
  // An error may quote a name from the profile: shown with its controls as escapes, as human output is.
  PrintText("nsys-ai: " + support::QuoteInput(message, support::kErrorMessageBytes) + "\n", stderr);
  return kExitFailure;
}

int FailWith(const Error& error) {
  return Fail(error.message);
}

std::string CommandHelp(const Command& command) {
  std::string out = fmt::format("Usage: nsys-ai {} {}\n\n{}\n", command.name, command.synopsis, command.summary);
  if (!command.aliases.empty())
    out += fmt::format("Also: nsys-ai {} (the same command).\n", fmt::join(command.aliases, ", "));
  if (!command.details.empty()) out += "\n" + command.details + "\n";
  if (!command.options.empty()) out += "\nOptions:\n" + FormatOptions(command.options);
  out += "\nGlobal options:\n" + FormatOptions(GlobalOptions());
  return out;
}

std::string GeneralHelp() {
  std::string out =
      "nsys-ai: NVIDIA Nsight Systems profiles (.sqlite exports) for editors, scripts and agents.\n\n"
      "Usage: nsys-ai COMMAND [options]\n\nCommands:\n";
  size_t width = 4;
  for (const auto& command : Commands()) width = std::max(width, command.name.size());
  for (const auto& command : Commands()) {
    const std::string also =
        command.aliases.empty() ? "" : fmt::format(" (also: {})", fmt::join(command.aliases, ", "));
    out += fmt::format("  {:<{}}  {}{}\n", command.name, width, command.summary, also);
  }
  out += fmt::format("  {:<{}}  {}\n", "help", width, "show help for a command: nsys-ai help COMMAND");
  out += "\nGlobal options:\n" + FormatOptions(GlobalOptions());
  out += "\nExit codes: 0 success, 1 error (message on stderr), 2 bad command line.\n";
  return out;
}

}  // namespace nsys::cli
