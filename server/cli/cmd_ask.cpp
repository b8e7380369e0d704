// `nsys-ai ask FILE "question"`: one question over a profile, answered offline in the one answer shape. Markdown
// for people, JSON (the nsys/ask result) for scripts.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "commands.h"
#include "nsys/agent/answer.h"
#include "nsys/agent/ask.h"
#include "nsys/wire/ask.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

int RunAsk(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kMarkdownOrJson);
  if (!format_value) return UsageError("ask", format_value.error().message);
  const std::string& format = *format_value;
  const std::string& question = ctx.args.positionals()[1];
  if (question.find_first_not_of(" \t\r\n") == std::string::npos)
    return UsageError("ask", "the question is empty; ask e.g. \"Which kernels take the most GPU time?\"");
  // Over 8 KiB (agent::kMaxQuestionBytes), before the profile is opened.
  if (Status ok = agent::CheckQuestion(question); !ok.ok()) return UsageError("ask", ok.error().message);
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);
  if (!opened) return FailWith(opened.error());
  auto result = workspace.Ask(core::AskRequest{opened->id, question, ""}, {});
  if (!result) return FailWith(result.error());
  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(wire::ToCliAskResult(*result))).c_str());
  } else {
    std::fputs(agent::RenderMarkdown(result->answer).c_str(), stdout);
  }
  return kExitOk;
}

}  // namespace

Command AskCommand() {
  Command command;
  command.name = "ask";
  command.synopsis = "FILE QUESTION [--format markdown|json]";
  command.summary = "answer a question about a profile from its skills, offline, with evidence and a verify command";
  command.details =
      "Understands skill names, kernel names (full, short or a part), devices (\"GPU 1\"), processes (\"pid 42\"),\n"
      "time windows (\"between 0.2 and 0.4 s\", \"in the first 100 ms\") and NVTX range names; and questions of the\n"
      "kinds which / how much / how many / why / compare / is X more than Y. A question the profile cannot answer\n"
      "gets a refusal naming the missing data. Exit status 0 also for a refusal.";
  command.options = {FormatOption(kMarkdownOrJson, "the nsys/ask result")};
  command.min_positionals = command.max_positionals = 2;
  command.run = RunAsk;
  return command;
}

}  // namespace nsys::cli
