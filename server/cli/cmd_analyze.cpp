// `nsys-ai analyze FILE`: the Book of Root Causes against a profile, as Markdown or JSON; `--out DIR` also writes
// report.md, report.json and one CSV per evidence table.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "commands.h"
#include "nsys/support/clock.h"
#include "nsys/wire/analyze.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

namespace fs = std::filesystem;

Expected<agent::AnalyzeOptions> OptionsFrom(const ParsedArgs& args) {
  agent::AnalyzeOptions options;
  auto window = WindowFromArgs(args);
  if (!window) return window.error();
  options.window = *window;
  return options;
}

// An evidence table as a RunSkillResult, so the CLI's one CSV writer renders it.
protocol::RunSkillResult EvidenceTable(const protocol::Evidence& e) {
  protocol::RunSkillResult t;
  for (const auto& c : e.columns) t.columns.push_back({c, ValueType::kString, ""});
  t.rows = e.rows;
  return t;
}

Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return MakeError(ErrorKind::kInvalidArgument, fmt::format("could not write {}", path.string()));
  return {};
}

// report.md, report.json and <rank>-<root cause>.csv per finding's evidence in `dir` (created if needed).
Status WriteReport(const fs::path& dir, const protocol::AnalyzeResult& result) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("could not create {}: {}", dir.string(), ec.message()));
  if (Status s = WriteFile(dir / "report.md", result.markdown); !s) return s;
  if (Status s = WriteFile(dir / "report.json", JsonText(protocol::Json(result)) + "\n"); !s) return s;
  for (size_t i = 0; i < result.findings.size(); ++i) {
    const auto& f = result.findings[i];
    for (size_t e = 0; e < f.answer.evidence.size(); ++e) {
      const std::string name = fmt::format("{:02}-{}{}.csv", i + 1, f.root_cause, e == 0 ? "" : fmt::format("-{}", e));
      const std::string csv = RenderTable(EvidenceTable(f.answer.evidence[e]), OutputFormat::kCsv);
      if (Status s = WriteFile(dir / name, csv); !s) return s;
    }
  }
  return {};
}

int RunAnalyze(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kMarkdownOrJson);
  if (!format_value) return UsageError("analyze", format_value.error().message);
  const std::string& format = *format_value;
  auto options = OptionsFrom(ctx.args);
  if (!options) return UsageError("analyze", options.error().message);
  core::Workspace workspace(ctx.config);
  const std::string target = ctx.args.positionals()[0];
  std::error_code ec;
  Expected<agent::Analysis> analysis = MakeError(ErrorKind::kInternal, "not analysed");
  if (std::filesystem::is_directory(target, ec)) {  // a job of rank exports: the cross-rank causes
    for (const char* option : {"--trim", "--start", "--end", "--window"}) {
      if (ctx.args.Has(option)) {
        return UsageError("analyze", fmt::format("{} is for one profile, not a job's directory", option));
      }
    }
    int64_t ranks_per_node = 0;
    if (auto n = ctx.args.Value("--ranks-per-node")) {
      char* end = nullptr;
      ranks_per_node = std::strtoll(n->c_str(), &end, 10);
      if (n->empty() || *end != '\0' || ranks_per_node < 0) {
        return UsageError("analyze", fmt::format("--ranks-per-node must be a whole number from 0, not '{}'", *n));
      }
    }
    auto run = workspace.OpenJob({.directory = target});
    if (!run) return FailWith(run.error());
    analysis =
        workspace.AnalyzeJob(run->id, ranks_per_node, {}, TerminalProgress(fmt::format("{} ranks", run->ranks.size())));
  } else {
    auto opened = OpenWithProgress(workspace, target);
    if (!opened) return FailWith(opened.error());
    analysis = workspace.Analyze(opened->id, *options, {}, {}, TerminalProgress("analyzing"));
  }
  ClearTerminalProgress();
  if (!analysis) return FailWith(analysis.error());
  const protocol::AnalyzeResult result = wire::ToAnalyzeResult(*analysis);
  if (auto out = ctx.args.Value("--out")) {
    if (Status written = WriteReport(*out, result); !written) return FailWith(written.error());
    std::fprintf(stderr, "nsys-ai analyze: wrote report.md, report.json and the evidence tables to %s\n", out->c_str());
  }
  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(result)).c_str());
  } else {
    PrintText(result.markdown);
  }
  return kExitOk;
}

}  // namespace

Command AnalyzeCommand() {
  Command command;
  command.name = "analyze";
  command.background_loads = true;
  command.synopsis = "FILE | JOB_DIR [--format markdown|json] [--out DIR] [--trim START END]";
  command.summary = "check the Book of Root Causes against a profile; findings ranked by time at stake";
  command.details =
      "Each finding has its evidence (rows of a skill), what to do, a confidence and a `nsys-ai skill run` line that\n"
      "reproduces it. Root causes the profile cannot be checked for are listed with what is missing. Given a\n"
      "directory of rank exports (a job), it reports the causes that show across ranks: stragglers at the\n"
      "collectives, kernel-time imbalance and step-time spread.";
  command.options = {
      FormatOption(kMarkdownOrJson),
      {"--out", 1, "DIR", "also write report.md, report.json and a CSV per evidence table into DIR"},
      {"--ranks-per-node", 1, "N", "a job: consecutive ranks that share a node's clock (default 0: each its own)"},
  };
  for (auto& option : WindowOptions("analyse only from")) command.options.push_back(std::move(option));
  command.min_positionals = command.max_positionals = 1;
  command.run = RunAnalyze;
  return command;
}

}  // namespace nsys::cli
