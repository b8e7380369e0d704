// nsys-ai explain FILE KERNEL: the explainKernel hover as a command (Markdown or the method's JSON result).
#include <cstdio>
#include <string>

#include "commands.h"
#include "nsys/wire/explain.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

int RunExplain(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kMarkdownOrJson);
  if (!format_value) return UsageError("explain", format_value.error().message);
  const std::string& format = *format_value;
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);
  if (!opened) return FailWith(opened.error());
  auto explanation = workspace.ExplainKernel(opened->id, ctx.args.positionals()[1], {}, TerminalProgress("loading"));
  ClearTerminalProgress();
  if (!explanation) return FailWith(explanation.error());
  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(wire::ToExplainKernelResult(*explanation))).c_str());
  } else {
    PrintText(explanation->markdown);
  }
  return kExitOk;
}

}  // namespace

Command ExplainCommand() {
  Command command;
  command.name = "explain";
  command.synopsis = "FILE KERNEL [--format markdown|json]";
  command.summary = "explain a kernel: what it is, its time per device, launches, configuration, NVTX ranges";
  command.details =
      "KERNEL is a demangled name, a short name, or a unique part of a name (case-insensitive). An unknown name "
      "fails with the closest kernel names.";
  command.options = {FormatOption(kMarkdownOrJson, "the nsys/explainKernel result")};
  command.min_positionals = command.max_positionals = 2;
  command.run = RunExplain;
  return command;
}

}  // namespace nsys::cli
