#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "job_args.h"
#include "nsys/mpi/mpi_job.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/skill_args.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

void PrintTable(const protocol::RunSkillResult& table, OutputFormat format, const RenderOptions& options) {
  const bool human = format == OutputFormat::kTable || format == OutputFormat::kMarkdown;
  if (!human || !table.columns.empty()) PrintText(RenderTable(table, format, options));
  if (format == OutputFormat::kJson) return;  // the notes are in the JSON
  if (human && table.rows.empty()) std::fputs(table.declined ? "(declined)\n" : "(no rows)\n", stdout);
  // CSV stays machine-readable: its notes go to stderr.
  std::FILE* notes_out = format == OutputFormat::kCsv ? stderr : stdout;
  if (!table.notes.empty() && notes_out == stdout) std::fputs("\n", stdout);
  for (const auto& note : table.notes) PrintText("note: " + note + "\n", notes_out);
}

int RunSkillList(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kTableFormats);
  if (!format_value) return UsageError("skill list", format_value.error().message);
  const auto format = ParseOutputFormat(*format_value);
  core::Workspace workspace(ctx.config);
  const protocol::ListSkillsResult listing = wire::ToListSkillsResult(workspace.Skills(), wire::CommonArgs::kOmitted);
  if (*format == OutputFormat::kJson) {
    std::printf("%s\n", JsonText(protocol::Json(listing)).c_str());
    return kExitOk;
  }
  protocol::RunSkillResult table;
  table.columns = {
      {"name", ValueType::kString, ""}, {"mirrors", ValueType::kString, ""}, {"description", ValueType::kString, ""}};
  for (const auto& skill : listing.skills) {
    table.rows.push_back({skill.name, skill.reference.empty() ? Value{} : Value{skill.reference}, skill.description});
  }
  RenderOptions options;
  options.max_text_width = 100;
  PrintTable(table, *format, options);
  return kExitOk;
}

// The skill arguments the command line gives, as (name, text) in order: --device, --pid, the window
// (WindowTextFromArgs) and each --arg NAME=VALUE; a usage message for a malformed one.
Expected<std::vector<std::pair<std::string, std::string>>> ArgTexts(const ParsedArgs& cli) {
  std::vector<std::pair<std::string, std::string>> texts;
  if (auto device = cli.Value("--device")) texts.emplace_back("device", *device);
  if (auto pid = cli.Value("--pid")) texts.emplace_back("pid", *pid);
  auto window = WindowTextFromArgs(cli);
  if (!window) return window.error();
  if (window->start) texts.emplace_back("start", *window->start);
  if (window->end) texts.emplace_back("end", *window->end);
  if (window->clock) texts.emplace_back("clock", *window->clock);
  for (const auto& pair : cli.All("--arg")) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("--arg wants NAME=VALUE, not '{}'", pair));
    }
    texts.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
  }
  return texts;
}

int RunSkillRun(const CommandContext& ctx) {
  const std::string& name = ctx.args.positionals()[0];
  if (ctx.args.Has("--job") && ctx.args.Has("--run")) {
    return UsageError("skill run", "--run is the old name of --job: give one of the two");
  }
  const auto job_dir = ctx.args.Has("--job") ? ctx.args.Value("--job") : ctx.args.Value("--run");
  if (job_dir.has_value() == (ctx.args.positionals().size() == 2)) {
    return UsageError("skill run", "give a profile FILE or --job DIR, one of the two");
  }
  const std::string path = job_dir ? std::string() : ctx.args.positionals()[1];
  const auto format_value = FormatValue(ctx.args, kTableFormats);
  if (!format_value) return UsageError("skill run", format_value.error().message);
  const auto format = ParseOutputFormat(*format_value);

  core::Workspace workspace(ctx.config);
  // A job skill (a cross-rank analysis: job_stragglers, ...) takes --job and its own arguments.
  const auto job_specs = job_dir ? core::JobSkillArgSpecs(name) : std::nullopt;
  std::shared_ptr<const skills::Skill> skill;
  if (!job_specs) {
    // Not a second core call but the parse step: the skill's ArgSpecs type the --arg texts (RunSkill is the call).
    auto found = workspace.FindSkill(name);
    if (!found) return UsageError("skill run", found.error().message);
    skill = *found;
  }

  // Command-line options → the skill's typed arguments, checked before the profile is opened.
  auto texts = ArgTexts(ctx.args);
  if (!texts) return UsageError("skill run", texts.error().message);
  skills::Args args;
  for (const auto& [arg, text] : *texts) {
    Status added =
        job_specs ? wire::AddArgText(name, *job_specs, arg, text, args) : wire::AddArgText(*skill, arg, text, args);
    if (!added) return UsageError("skill run", added.error().message);
  }

  if (ctx.args.Has("--mpi") && !job_dir) return UsageError("skill run", "--mpi spreads a job: give --job DIR");
  if (job_dir) {  // every rank of a job, rows led by a `rank` column
    auto request = JobRequestFromArgs(ctx.args, {*job_dir});
    if (!request) return UsageError("skill run", request.error().message);
    if (ctx.args.Has("--mpi")) {  // a job skill over MPI processes: process 0 merges and prints
      auto job = mpi::RunSkillOnJob(workspace, *request, name, args, {}, TerminalProgress(name + " on this process"));
      ClearTerminalProgress();
      if (!job) return FailWith(job.error());
      if (!job->value) return kExitOk;
      RenderOptions options;
      options.full_names = ctx.args.Has("--full-names");
      PrintTable(wire::ToRunSkillResult(std::move(*job->value)), *format, options);
      return kExitOk;
    }
    auto run = workspace.OpenJob(*request);
    if (!run) return FailWith(run.error());
    auto table = workspace.RunSkillOnJob(run->id, name, args, {}, {},
                                         TerminalProgress(fmt::format("{} on {} ranks", name, run->ranks.size())));
    ClearTerminalProgress();
    if (!table) return FailWith(table.error());
    RenderOptions options;
    options.full_names = ctx.args.Has("--full-names");
    PrintTable(wire::ToRunSkillResult(std::move(*table)), *format, options);
    return kExitOk;
  }

  auto opened = OpenWithProgress(workspace, path);
  if (!opened) return FailWith(opened.error());
  auto table = workspace.RunSkill(opened->id, name, args, {}, TerminalProgress("running " + name));
  ClearTerminalProgress();
  if (!table) return FailWith(table.error());
  RenderOptions options;
  options.full_names = ctx.args.Has("--full-names");
  PrintTable(wire::ToRunSkillResult(std::move(*table)), *format, options);
  return kExitOk;
}

}  // namespace

Command SkillListCommand() {
  Command command;
  command.name = "skill list";
  command.summary = "list the skills (built-in and user skills)";
  command.options = {FormatOption(kTableFormats)};
  command.run = RunSkillList;
  return command;
}

Command SkillRunCommand() {
  Command command;
  command.name = "skill run";
  command.synopsis = "NAME FILE [options] | NAME --job DIR [options]";
  command.summary = "run a skill on a profile (or on every rank of a job) and print its table";
  command.details =
      "Times in --start, --end, --window and --trim are seconds from the profile start unless --clock capture_ns is\n"
      "given.\n"
      "Skill-specific arguments go through --arg, e.g. --arg limit=20 (see 'nsys-ai skill list --format json').";
  command.options = {
      {"--device", 1, "N", "only GPU N"},
      {"--pid", 1, "P", "only process P"},
      {"--arg", 1, "NAME=VALUE", "a skill argument (repeatable)", true},
      {"--full-names", 0, "", "do not shorten or cut long names in table/markdown output"},
      FormatOption(kTableFormats),
      SkillTimeoutOption(),
      {"--job", 1, "DIR", "every rank export in DIR (a job): the rows lead with a `rank` column naming the file"},
      {"--run", 1, "DIR", "the old name of --job"},
  };
  for (auto& option : WindowOptions("only events that start from")) command.options.push_back(std::move(option));
  for (auto& option : JobOptions()) command.options.push_back(std::move(option));
  command.min_positionals = 1;
  command.max_positionals = 2;
  command.run = RunSkillRun;
  return command;
}

}  // namespace nsys::cli
