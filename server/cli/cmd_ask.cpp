// `nsys-ai ask FILE "question"`: one question over a profile, answered offline in the one answer shape. Markdown
// for people, JSON (the nsys/ask result) for scripts.
#include <fmt/format.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "nsys/agent/answer.h"
#include "nsys/agent/ask.h"
#include "nsys/wire/ask.h"
#include "nsys/wire/query.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

void Print(const core::AskResult& result, const std::string& format) {
  if (format == "json") {
    std::printf("%s\n", JsonText(protocol::Json(wire::ToCliAskResult(result))).c_str());
  } else {
    PrintText(agent::RenderMarkdown(result.answer));
  }
}

int RunQueries(const CommandContext& ctx, const std::string& format) {
  if (ctx.args.positionals().size() != 1) return UsageError("ask", "give either a QUESTION or --query, not both");
  // Checked before the profile is opened.
  auto queries = wire::QueriesFromJsonText(*ctx.args.Value("--query"));
  if (!queries) return UsageError("ask", "--query: " + queries.error().message);
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);
  if (!opened) return FailWith(opened.error());
  auto result = workspace.AskQueries(core::QueryRequest{opened->id, std::move(*queries)});
  if (!result) return FailWith(result.error());
  Print(*result, format);
  return kExitOk;
}

int RunAsk(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kMarkdownOrJson);
  if (!format_value) return UsageError("ask", format_value.error().message);
  const std::string& format = *format_value;
  if (ctx.args.Has("--query")) return RunQueries(ctx, format);
  if (ctx.args.positionals().size() != 2) return UsageError("ask", "give a QUESTION (or --query JSON)");
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
  Print(*result, format);
  return kExitOk;
}

}  // namespace

Command AskCommand() {
  Command command;
  command.name = "ask";
  command.synopsis = "FILE (QUESTION | --query JSON) [--format markdown|json]";
  command.summary = "answer a question about a profile from its skills, offline, with evidence and a verify command";
  command.details =
      "Understands skill names, kernel names (full, short or a part), devices (\"GPU 1\"), processes (\"pid 42\"),\n"
      "time windows (\"between 0.2 and 0.4 s\", \"in the first 100 ms\") and NVTX range names; and questions of the\n"
      "kinds which / how much / how many / why / compare / is X more than Y. A question the profile cannot answer\n"
      "gets a refusal naming the missing data. Exit status 0 also for a refusal. Every answer a question is read\n"
      "into whole opens with its reading (\"Read as: ...\"). --query gives the question already typed: a Query\n"
      "object or an array of them (the schema is in docs/protocol.md, nsys/query), e.g.\n"
      "  --query '{\"measures\": [\"count\", \"p99\"], \"subject\": {\"events\": \"api\", \"name\": \"cudaMalloc\"}}'";
  command.options = {FormatOption(kMarkdownOrJson, "the nsys/ask result"),
                     OptionSpec("--query", 1, "JSON", "the question as typed Queries instead of words")};
  command.min_positionals = 1;
  command.max_positionals = 2;
  command.run = RunAsk;
  return command;
}

}  // namespace nsys::cli
