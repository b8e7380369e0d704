// `nsys-ai call METHOD [FILE] [--params JSON]`: any request of the capability catalogue, answered by this binary's
// own LSP session (transport::CallOnce), so a script gets what an editor gets, field for field, without a verb of
// its own for each method. The hand-written verbs (info, skill run, ask, ...) stay where they render for people.
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "commands.h"
#include "nsys/transport/in_process.h"

namespace nsys::cli {
namespace {

int RunCall(const CommandContext& ctx) {
  transport::CallRequest request;
  request.method = ctx.args.positionals()[0];
  if (ctx.args.positionals().size() > 1) request.profile = ctx.args.positionals()[1];
  if (const auto params = ctx.args.Value("--params")) {
    request.params_text = *params;
    if (*params == "-") {
      request.params_text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
  }
  const auto outcome = transport::CallOnce(ctx.config, request);
  if (!outcome) {
    return outcome.error().kind == ErrorKind::kInvalidArgument ? UsageError("call", outcome.error().message)
                                                               : FailWith(outcome.error());
  }
  if (!outcome->ok) return Fail(fmt::format("{} failed ({}): {}", outcome->method, outcome->code, outcome->message));
  std::printf("%s\n", outcome->result.c_str());
  return kExitOk;
}

}  // namespace

Command CallCommand() {
  Command command;
  command.name = "call";
  command.synopsis = "METHOD [FILE] [--params JSON]";
  command.summary = "send any editor method (nsys/runSkill, nsys/query, ...) and print its JSON result";
  command.details =
      "Runs this binary's own LSP session in process and sends it one request, exactly as an editor would: the\n"
      "result is the method's JSON result (docs/protocol.md), an error exits 1 with its JSON-RPC code and message.\n"
      "FILE, when given, is opened first with nsys/openProfile and its profileId goes into the params unless they\n"
      "name one. `--params -` reads the params from standard input. The methods:" +
      transport::CallableMethods();
  command.options = {{"--params", 1, "JSON", "the request's params, a JSON object (default {}; - reads stdin)"}};
  command.min_positionals = 1;
  command.max_positionals = 2;
  command.run = RunCall;
  return command;
}

}  // namespace nsys::cli
