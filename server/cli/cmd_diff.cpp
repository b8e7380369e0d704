// nsys-ai diff BEFORE AFTER | --against NAME AFTER: one Workspace::Diff, printed as Markdown or the nsys/diff JSON.
// For CI: --fail-on-regression PCT exits 3 when the verdict is "regressed" by more than PCT percent.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "commands.h"
#include "nsys/core/baselines.h"
#include "nsys/wire/diff.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

constexpr int kExitRegression = 3;
constexpr size_t kMaxPhaseMapBytes = 1 << 20;

Expected<std::string> ReadPhaseMap(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kNotFound, fmt::format("cannot read the phase map {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxPhaseMapBytes) {
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("the phase map {} is over 1 MiB", path));
  }
  return text.str();
}

// --fail-on-regression PCT: a non-negative percentage.
std::optional<double> ParsePercent(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

int RunDiff(const CommandContext& ctx) {
  const auto& pos = ctx.args.positionals();
  const auto against = ctx.args.Value("--against");
  if (against ? pos.size() != 1 : pos.size() != 2) {
    return UsageError("diff", against ? "with --against NAME give only the new profile" : "give two profiles");
  }
  const auto format_value = FormatValue(ctx.args, kMarkdownOrJson);
  if (!format_value) return UsageError("diff", format_value.error().message);
  const std::string& format = *format_value;
  std::optional<double> fail_pct;
  if (auto pct = ctx.args.Value("--fail-on-regression")) {
    fail_pct = ParsePercent(*pct);
    if (!fail_pct) return UsageError("diff", "--fail-on-regression wants a percentage (0 or more), e.g. 5");
  }
  std::optional<std::string> phase_map;
  if (auto file = ctx.args.Value("--phase-map")) {
    auto text = ReadPhaseMap(*file);
    if (!text) return UsageError("diff", text.error().message);
    phase_map = *text;
  }
  auto options = wire::ToDiffOptions(phase_map, std::nullopt, "", ctx.args.Value("--metric"));
  if (!options) return UsageError("diff", options.error().message);

  std::string base_path = against ? "" : pos[0];
  if (against) {
    auto baseline = core::ResolveBaseline(".", *against);
    if (!baseline) return FailWith(baseline.error());
    if (baseline->changed) std::fprintf(stderr, "nsys-ai diff: warning: %s\n", baseline->changed->c_str());
    base_path = baseline->baseline.path;
  }
  core::Workspace workspace(ctx.config);
  auto base = OpenWithProgress(workspace, base_path);
  if (!base) return FailWith(base.error());
  auto after = OpenWithProgress(workspace, pos.back());
  if (!after) return FailWith(after.error());
  auto report = workspace.Diff(base->id, after->id, *options, {}, TerminalProgress("comparing"));
  ClearTerminalProgress();
  if (!report) return FailWith(report.error());

  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(wire::ToProtocolDiff(*report))).c_str());
  } else {
    PrintText(report->markdown);
  }
  // Every measure the verdict covers can trip the gate (the step time and the GPU work per step by default), and each
  // one that does is named.
  bool tripped = false;
  for (const auto& m : report->measures) {
    if (!fail_pct || m.verdict != agent::Verdict::kRegressed || !(m.change_pct > *fail_pct)) continue;
    std::fprintf(stderr, "nsys-ai diff: regression: the %s is %+.1f%% (more than %g%%; measure %s)\n", m.metric.c_str(),
                 m.change_pct, *fail_pct, m.measure.c_str());
    tripped = true;
  }
  return tripped ? kExitRegression : kExitOk;
}

}  // namespace

Command DiffCommand() {
  Command command;
  command.name = "diff";
  command.synopsis = "BEFORE AFTER [options] | --against NAME AFTER [options]";
  command.summary = "compare two profiles: verdict, noise floor, comparability, per-call and per-iteration deltas";
  command.details =
      "The verdict (improved, regressed, neutral) covers the step time (median iteration time) and the GPU work\n"
      "per step (median summed kernel time per iteration) when both profiles have comparable iterations, else the\n"
      "kernel time per call; --metric picks one. A measure changes when it passes its noise floor and a rank test\n"
      "(Mann-Whitney) of its samples: the iterations, or each kernel's per-call durations. Profiles that do not\n"
      "show the same work are reported as not comparable, with no verdict.\n"
      "Exit status: 0, or 3 with --fail-on-regression PCT when a measure regressed by more than PCT% (each one is\n"
      "named on stderr).";
  command.options = {
      {"--fail-on-regression", 1, "PCT", "exit 3 when a measure regressed by more than PCT percent (for CI)"},
      {"--metric", 1, "MEASURE",
       "step (median iteration time), gpu (GPU work per step) or kernel:NAME (one kernel's time per call); default: "
       "step and gpu"},
      {"--phase-map", 1, "FILE",
       "JSON file mapping phases to NVTX range patterns, e.g. {\"prefill\": [\"prefill\"], \"decode\": "
       "[\"re:^decode\"]}"},
      {"--against", 1, "NAME", "compare AFTER with the baseline NAME (see 'nsys-ai baseline')"},
      FormatOption(kMarkdownOrJson, "the nsys/diff result"),
  };
  command.min_positionals = 1;
  command.max_positionals = 2;
  command.run = RunDiff;
  return command;
}

}  // namespace nsys::cli
