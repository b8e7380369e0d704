// nsys-ai suggest FILE --source DIR: the refinement loop's next step as a command: the innermost NVTX
// ranges that launch more than one kernel per call, most GPU time first, where the sources name each, the edit that
// adds finer ranges inside it, and the command to profile again (text, or nsys/annotationPlan's JSON result).
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "commands.h"
#include "nsys/wire/annotation_plan.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

std::string Ms(int64_t ns) {  // µs below a millisecond, so that small figures stay readable
  if (ns < 1'000'000) return fmt::format("{:.1f} µs", static_cast<double>(ns) / 1e3);
  return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

std::string RenderPlan(const core::AnnotationPlan& plan) {
  std::string out = fmt::format(
      "Mapping coverage: {:.1f}% of kernel time ({} of {}); {} is not mapped one kernel "
      "per call.\n",
      100.0 * plan.coverage.share, Ms(plan.coverage.mapped_ns), Ms(plan.coverage.kernel_ns_total),
      Ms(plan.unmapped_ns));
  if (plan.items.empty()) out += "\nNothing to refine: no innermost range launches more than one kernel per call.\n";
  int n = 0;
  for (const auto& item : plan.items) {
    out += fmt::format("\n{}. {}  ({} GPU, {:.3g}%, {:.3g} kernels/call of {} {}, {} calls)\n", ++n, item.name,
                       Ms(item.gpu_ns), 100.0 * item.share, item.kernels_per_call, item.distinct_kernels,
                       item.distinct_kernels == 1 ? "kind" : "kinds", item.instances);
    if (item.location) {
      out += fmt::format("   at {}:{}:{}{}\n", item.location->file, item.location->line + 1, item.location->column + 1,
                         item.other_locations > 0 ? fmt::format(" (and {} more places)", item.other_locations) : "");
    }
    out += "   " + item.reason + "\n";
    if (item.edit) {
      out += "   " + item.edit->title + ":\n";
      for (const auto& r : item.edit->ranges) {
        out += fmt::format("     line {:<6} {}\n", r.line + 1, r.name);
      }
    }
  }
  for (const auto& note : plan.notes) {
    if (note.rfind("Mapping coverage", 0) != 0) out += "\n" + note + "\n";  // the first line says it
  }
  out += "\nNext: " + plan.next_command + "\n";
  return out;
}

int RunSuggest(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kTextOrJson);
  if (!format_value) return UsageError("suggest", format_value.error().message);
  const std::string& format = *format_value;
  core::AnnotationPlanRequest request;
  request.source_roots = ctx.args.All("--source");
  if (auto limit = ctx.args.Value("--limit")) {
    char* end = nullptr;
    const long long n = std::strtoll(limit->c_str(), &end, 10);
    if (limit->empty() || *end != '\0' || n < 0 || n > 100000) {
      return UsageError("suggest", "--limit must be a whole number from 0 (all) to 100000");
    }
    request.limit = static_cast<size_t>(n);
  }
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);
  if (!opened) return FailWith(opened.error());
  request.profile_id = opened->id;
  auto plan = workspace.AnnotationPlanFor(request, {}, TerminalProgress("planning"));
  ClearTerminalProgress();
  if (!plan) return FailWith(plan.error());
  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(wire::ToAnnotationPlanResult(*plan))).c_str());
  } else {
    PrintText(RenderPlan(*plan));
  }
  return kExitOk;
}

}  // namespace

Command SuggestCommand() {
  Command command;
  command.name = "suggest";
  command.synopsis = "FILE --source DIR [--source DIR...] [--format text|json] [--limit N]";
  command.summary = "what to refine next in the NVTX annotation: ranges launching several kernels, with the edits";
  command.details =
      "Lists the innermost NVTX ranges whose calls launch more than one kernel, most GPU time first, where the "
      "sources under DIR name each one, and the edit that wraps each statement of its body in a finer range "
      "('X/<callee>'). Nothing is written: apply the edits (the JSON holds them as LSP WorkspaceEdits), then run "
      "the printed nsys command with your own program in place of <your command>.";
  command.options = {{"--source", 1, "DIR", "a source directory or file to look for the range names in", true},
                     FormatOption(kTextOrJson, "the nsys/annotationPlan result"),
                     {"--limit", 1, "N", "list at most N ranges (default 20, 0 = all)"}};
  command.min_positionals = command.max_positionals = 1;
  command.run = RunSuggest;
  return command;
}

}  // namespace nsys::cli
