#pragma once
// The subcommands of `nsys-ai`. Each lives in its own cmd_*.cpp and is listed once in commands.cpp.
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "args.h"
#include "nsys/core/workspace.h"
#include "nsys/support/expected.h"

namespace nsys::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // a runtime error: the message is on stderr
inline constexpr int kExitUsage = 2;    // a bad command line

struct CommandContext {
  const ParsedArgs& args;
  core::WorkspaceConfig config;  // from the global options (--no-cache, --skill-dir)
};

struct Command {
  std::string name;  // "skill run"
  // Other names the command answers to (kept when a command is renamed); `nsys-ai help` lists them beside the name.
  std::vector<std::string> aliases;
  std::string synopsis;  // "NAME FILE [options]"
  std::string summary;   // one line, for `nsys-ai help`
  std::string details;   // more help, may be empty
  std::vector<OptionSpec> options;
  size_t min_positionals = 0;
  size_t max_positionals = 0;
  // Load every table in the background after an open: in a process that keeps serving (serve, mcp), and in a
  // command whose answer needs nearly every table anyway (analyze, export, perfetto), so the rest is soon loaded and
  // the warm snapshot is written at exit. Any other command loads only what its answer needs: background loads would
  // take cores and memory from that answer and be dropped at exit (issue 41: the runtime table's 5.8M rows loading
  // beside `skill run top_kernels` on the 2 GB export).
  bool background_loads = false;
  std::function<int(const CommandContext&)> run;
};

// Every subcommand, in the order `nsys-ai help` lists them.
const std::vector<Command>& Commands();
// Options every subcommand accepts (--help, --no-cache, --log-level, --log-file, --skill-dir).
const std::vector<OptionSpec>& GlobalOptions();

// --skill-timeout SECONDS, for the commands that run user skills (skill run, serve, mcp); main() applies it to
// CommandContext::config.skill_timeout.
OptionSpec SkillTimeoutOption();

// Writes human-readable output (Markdown, a table, notes) to `out`, with every control character, bidirectional
// override and invalid byte shown as an escape (support::TerminalText): text from a profile never reaches the
// terminal as an escape sequence, a carriage return or a reordering. JSON output is escaped by JSON itself.
void PrintText(const std::string& text, std::FILE* out = stdout);

// Prints "nsys-ai COMMAND: message" and a pointer to the help on stderr; returns kExitUsage.
int UsageError(const std::string& command, const std::string& message);
// Prints "nsys-ai: message" on stderr; returns kExitFailure.
int Fail(const std::string& message);
int FailWith(const Error& error);

// Help text of one command, or of everything.
std::string CommandHelp(const Command& command);
std::string GeneralHelp();

}  // namespace nsys::cli
