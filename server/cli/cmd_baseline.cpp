// nsys-ai baseline tag NAME FILE / baseline list: the workspace's named baselines (core/baselines.h), kept in
// ./.nsys-ai/baselines.json, for `nsys-ai diff --against NAME AFTER`.
#include <fmt/format.h>

#include <cstdio>

#include "commands.h"
#include "nsys/core/baselines.h"

namespace nsys::cli {
namespace {

int RunBaselineTag(const CommandContext& ctx) {
  const auto& pos = ctx.args.positionals();
  auto tagged = core::TagBaseline(".", pos[0], pos[1]);
  if (!tagged) {
    if (tagged.error().kind == ErrorKind::kInvalidArgument) return UsageError("baseline tag", tagged.error().message);
    return FailWith(tagged.error());
  }
  std::printf("baseline %s = %s (%lld bytes) in %s\n", tagged->name.c_str(), tagged->path.c_str(),
              static_cast<long long>(tagged->size), core::BaselinesFile(".").c_str());
  return kExitOk;
}

int RunBaselineList(const CommandContext&) {
  auto list = core::ListBaselines(".");
  if (!list) return FailWith(list.error());
  if (list->empty()) {
    std::printf("no baselines in %s; tag one with `nsys-ai baseline tag NAME FILE`\n",
                core::BaselinesFile(".").c_str());
    return kExitOk;
  }
  for (const auto& b : *list) {
    std::printf("%s\t%s\t%lld bytes\ttagged %s\n", b.name.c_str(), b.path.c_str(), static_cast<long long>(b.size),
                b.tagged_at.c_str());
  }
  return kExitOk;
}

}  // namespace

Command BaselineTagCommand() {
  Command command;
  command.name = "baseline tag";
  command.synopsis = "NAME FILE";
  command.summary = "remember FILE as the baseline NAME of this workspace (./.nsys-ai/baselines.json)";
  command.details =
      "Then `nsys-ai diff --against NAME AFTER` compares a new profile with it. Tagging an existing\n"
      "NAME again moves it to FILE.";
  command.min_positionals = command.max_positionals = 2;
  command.run = RunBaselineTag;
  return command;
}

Command BaselineListCommand() {
  Command command;
  command.name = "baseline list";
  command.summary = "list this workspace's baselines (name, file, size, when tagged)";
  command.run = RunBaselineList;
  return command;
}

}  // namespace nsys::cli
